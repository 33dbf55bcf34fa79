// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl guest agent: owns the virtio-serial port org.swapctl.agent.0 and
 * numbers every line it sends (protocol v1, swapctl-agent(7)).
 *
 *   agent INTERVAL_MS WAIT_S
 *
 * Reads producer lines ({"t_ns":..,"type":..}, one per line, from init and
 * the workload) on stdin and forwards them with "v" and "seq" prepended;
 * sends a hello first and a sample every INTERVAL_MS. After forwarding a
 * "result" line it sends a final sample and exits. WAIT_S bounds the wait
 * for the host to connect. Without a port (or if the host never connects)
 * lines go to stdout (the console) so that nothing is silently lost.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "proto.h"
#include "gstat.h"
#include "gutil.h"

#define PROTO_VERSION	GPROTO_VERSION
#define VMSTAT_CAP	16384
#define ZONEINFO_CAP	32768
#define ZONEINFO_EVERY_NS	1000000000ULL
#define INBUF_CAP	(2 * GU_LINE_MAX)
#define MAX_DEVS	GSTAT_MAX_SWAPS
#define WRITE_STALL_MS	10000

static int port_fd = -1;
static bool to_console;
static uint64_t next_seq;
static uint64_t nsamples, bytes_sent;
static uint64_t write_cpu_ns;	/* CPU time spent in port writes */
static char vmstat_text[VMSTAT_CAP];
static char zoneinfo_text[ZONEINFO_CAP];
static uint64_t zoneinfo_ns;	/* when it was read, 0: never */
static long page_kb = 4;
static long clk_tck = 100;	/* USER_HZ: the unit of /proc/stat */

struct devmap {
	char swap[GSTAT_NAME_LEN];
	char dev[32];		/* "" when not a block device (NFS) */
};

static struct devmap devmap[MAX_DEVS];
static int ndevmap;

/*
 * Files read every sample stay open: pread() at offset 0 makes seq_file
 * and sysfs generate them afresh, without the path walk of open().
 */
#define MAX_OPEN	64

static struct {
	char path[96];
	int fd;
} opened[MAX_OPEN];
static int nopened;

static ssize_t read_cached(const char *path, char *buf, size_t cap)
{
	ssize_t n, len = 0;
	int i, fd = -1;

	for (i = 0; i < nopened; i++)
		if (!strcmp(opened[i].path, path))
			fd = opened[i].fd;
	if (fd < 0) {
		if (strlen(path) >= sizeof(opened[0].path) ||
		    nopened >= MAX_OPEN)
			return gu_read_file(path, buf, cap);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		strcpy(opened[nopened].path, path);
		opened[nopened++].fd = fd;
	}
	while ((size_t)len < cap - 1) {
		n = pread(fd, buf + len, cap - 1 - len, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	return len;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void port_lost(const char *why)
{
	fprintf(stderr, "agent: port: %s; sending to the console from now on\n",
		why);
	to_console = true;
}

static void port_write(const char *line, size_t len);

/* Write one complete line to the port (or the console). */
static void out_raw(const char *line, size_t len)
{
	uint64_t t0 = cpu_ns();

	bytes_sent += len;
	port_write(line, len);
	write_cpu_ns += cpu_ns() - t0;
}

static void port_write(const char *line, size_t len)
{
	size_t off = 0;
	unsigned int stalled = 0;

	if (to_console || port_fd < 0) {
		gu_write_all(STDOUT_FILENO, line, len);
		return;
	}
	while (off < len) {
		ssize_t n = write(port_fd, line + off, len - off);
		struct pollfd pfd = { .fd = port_fd, .events = POLLOUT };

		if (n > 0) {
			off += (size_t)n;
			stalled = 0;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN) {
			port_lost(strerror(errno));
			gu_write_all(STDOUT_FILENO, line + off, len - off);
			return;
		}
		if (stalled >= WRITE_STALL_MS) {
			port_lost("host stopped reading");
			gu_write_all(STDOUT_FILENO, line + off, len - off);
			return;
		}
		poll(&pfd, 1, 100);
		stalled += 100;
	}
}

/* Common head of the agent's own lines. */
static void head(struct gj *j, char *buf, size_t cap, const char *type)
{
	gj_init(j, buf, cap);
	gj_obj_open(j, NULL);
	gj_u64(j, "v", PROTO_VERSION);
	gj_u64(j, "seq", next_seq);
	gj_u64(j, "t_ns", gj_now_ns());
	gj_str(j, "type", type);
}

static void send_error(const char *msg);

static void send_built(struct gj *j, const char *what)
{
	int len = gj_finish(j);

	if (len < 0) {
		char m[128];

		snprintf(m, sizeof(m), "agent: %s line exceeds %d bytes, dropped",
			 what, GU_LINE_MAX);
		send_error(m);
		return;
	}
	out_raw(j->buf, (size_t)len);
	next_seq++;
}

static void send_error(const char *msg)
{
	char buf[1024];
	struct gj j;
	int len;

	head(&j, buf, sizeof(buf), "log");
	gj_str(&j, "level", "error");
	gj_str(&j, "msg", msg);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0) {
		out_raw(buf, (size_t)len);
		next_seq++;
	}
	fprintf(stderr, "%s\n", msg);
}

/* What observing cost: one log line before the final sample. */
static void send_cost(void)
{
	char buf[1024], msg[256];
	struct rusage ru;
	struct gj j;
	int len;

	if (getrusage(RUSAGE_SELF, &ru))
		memset(&ru, 0, sizeof(ru));
	snprintf(msg, sizeof(msg),
		 "agent: %" PRIu64 " samples, %" PRIu64 " lines, %" PRIu64
		 " bytes, cpu %" PRIu64 " ms (user %ld ms, sys %ld ms; "
		 "port writes %" PRIu64 " ms)",
		 nsamples, next_seq + 1, bytes_sent, cpu_ns() / 1000000,
		 ru.ru_utime.tv_sec * 1000L + ru.ru_utime.tv_usec / 1000,
		 ru.ru_stime.tv_sec * 1000L + ru.ru_stime.tv_usec / 1000,
		 write_cpu_ns / 1000000);
	head(&j, buf, sizeof(buf), "log");
	gj_str(&j, "level", "info");
	gj_str(&j, "msg", msg);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0) {
		out_raw(buf, (size_t)len);
		next_seq++;
	}
}

static void send_hello(unsigned int interval_ms)
{
	static char buf[GU_LINE_MAX];
	uint64_t mem_kb = gu_meminfo_kb("MemTotal");
	struct utsname u;
	struct gj j;

	if (uname(&u))
		strcpy(u.release, "unknown");
	if (gu_read_file("/proc/vmstat", vmstat_text, sizeof(vmstat_text)) < 0)
		vmstat_text[0] = '\0';
	head(&j, buf, sizeof(buf), "hello");
	gj_str(&j, "kernel", u.release);
	gj_arr_open(&j, "counters");
	gstat_vmstat_names(&j, vmstat_text);
	gj_arr_close(&j);
	gj_u64(&j, "interval_ms", interval_ms);
	gj_u64(&j, "mem_kb", mem_kb);
	gj_i64(&j, "cpus", sysconf(_SC_NPROCESSORS_ONLN));
	gj_i64(&j, "page_size", sysconf(_SC_PAGESIZE));
	gj_obj_close(&j);
	send_built(&j, "hello");
}

static const char *dev_of_swap(const char *name)
{
	int i;

	for (i = 0; i < ndevmap; i++)
		if (!strcmp(devmap[i].swap, name))
			return devmap[i].dev;
	if (ndevmap >= MAX_DEVS)
		return "";
	strcpy(devmap[ndevmap].swap, name);
	if (gu_blkdev_of(name, devmap[ndevmap].dev, sizeof(devmap[0].dev)))
		devmap[ndevmap].dev[0] = '\0';
	return devmap[ndevmap++].dev;
}

/*
 * kswapd0's /proc/<pid>/ directory, found once: its state and CPU time
 * show whether it runs, sleeps or waits for I/O (D) in each sample.
 */
static const char *kswapd_dir(void)
{
	static char dir[32];
	static bool looked;
	char path[300], comm[32];
	struct dirent *e;
	DIR *d;

	if (looked)
		return dir[0] ? dir : NULL;
	looked = true;
	d = opendir("/proc");
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    strlen(e->d_name) > 10)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (gu_read_file(path, comm, sizeof(comm)) > 0 &&
		    !strcmp(comm, "kswapd0\n")) {
			snprintf(dir, sizeof(dir), "/proc/%s", e->d_name);
			break;
		}
	}
	closedir(d);
	return dir[0] ? dir : NULL;
}

/*
 * The per-size mTHP stats (6.8 and later; swpin_fallback 6.13): the
 * files of /sys/kernel/mm/transparent_hugepage/hugepages-<K>kB/stats/
 * that exist, found once, grouped by size, read every sample.
 */
#define MTHP_DIR	"/sys/kernel/mm/transparent_hugepage"
#define MAX_MTHP	48

static const char * const mthp_stats[] = {
	"swpout", "swpout_fallback", "swpin_fallback",
};

static struct {
	char size[16];
	const char *stat;
} mthp[MAX_MTHP];
static int nmthp;

static void mthp_find(void)
{
	char size[16], path[192];
	struct dirent *e;
	unsigned int k;
	DIR *d = opendir(MTHP_DIR);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (gstat_mthp_size(e->d_name, size, sizeof(size)))
			continue;
		for (k = 0; k < ARRAY_SIZE(mthp_stats) && nmthp < MAX_MTHP;
		     k++) {
			snprintf(path, sizeof(path),
				 MTHP_DIR "/hugepages-%.15s/stats/%s", size,
				 mthp_stats[k]);
			if (access(path, R_OK))
				continue;
			strcpy(mthp[nmthp].size, size);
			mthp[nmthp++].stat = mthp_stats[k];
		}
	}
	closedir(d);
}

static void mthp_member(struct gj *j)
{
	char path[192], text[64];
	const char *open_size = NULL;
	uint64_t v;
	int i;

	if (!nmthp)
		return;
	gj_obj_open(j, "mthp");
	for (i = 0; i < nmthp; i++) {
		snprintf(path, sizeof(path), MTHP_DIR "/hugepages-%.15s/stats/%s",
			 mthp[i].size, mthp[i].stat);
		if (read_cached(path, text, sizeof(text)) <= 0 ||
		    gstat_sysfs_u64(text, &v))
			continue;
		if (!open_size || strcmp(open_size, mthp[i].size)) {
			if (open_size)
				gj_obj_close(j);
			gj_obj_open(j, mthp[i].size);
			open_size = mthp[i].size;
		}
		gj_u64(j, mthp[i].stat, v);
	}
	if (open_size)
		gj_obj_close(j);
	gj_obj_close(j);
}

/* Member "zram": the mm_stat of the swap devices that are zram. */
static void zram_member(struct gj *j, const char *const *devs, int ndev)
{
	char text[512], path[128];
	int k;

	gj_obj_open(j, "zram");
	for (k = 0; k < ndev; k++) {
		if (strncmp(devs[k], "zram", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/mm_stat", devs[k]);
		if (read_cached(path, text, sizeof(text)) > 0)
			gstat_mmstat_member(j, devs[k], text);
	}
	gj_obj_close(j);
}

static void send_sample(void)
{
	static char buf[GU_LINE_MAX];
	struct gstat_swap sw[GSTAT_MAX_SWAPS];
	const char *devs[GSTAT_MAX_SWAPS];
	char text[4096], path[128];
	int nsw = 0, ndev = 0, i, k;
	struct gj j;

	head(&j, buf, sizeof(buf), "sample");
	if (read_cached("/proc/vmstat", vmstat_text, sizeof(vmstat_text)) < 0)
		vmstat_text[0] = '\0';
	gj_obj_open(&j, "vmstat");
	gstat_vmstat_members(&j, vmstat_text);
	gj_obj_close(&j);

	if (read_cached("/proc/swaps", text, sizeof(text)) > 0)
		nsw = gstat_parse_swaps(text, sw, GSTAT_MAX_SWAPS);
	for (i = 0; i < nsw; i++) {
		const char *d = dev_of_swap(sw[i].name);

		if (!*d)
			continue;
		for (k = 0; k < ndev; k++)
			if (!strcmp(devs[k], d))
				break;
		if (k == ndev)
			devs[ndev++] = d;
	}
	gj_obj_open(&j, "blk");
	for (k = 0; k < ndev; k++) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/stat",
			 devs[k]);
		if (read_cached(path, text, sizeof(text)) > 0)
			gstat_blk_member(&j, devs[k], text);
	}
	gj_obj_close(&j);
	gj_arr_open(&j, "swaps");
	for (i = 0; i < nsw; i++)
		gstat_swap_element(&j, &sw[i]);
	gj_arr_close(&j);
	zram_member(&j, devs, ndev);
	mthp_member(&j);
	/* The aggregate "cpu " line comes first: a cut-off tail is fine. */
	if (read_cached("/proc/stat", text, sizeof(text)) > 0)
		gstat_cpu_member(&j, text, clk_tck);
	/*
	 * The watermarks change only with their boost: /proc/zoneinfo, as
	 * long as /proc/vmstat to generate, is read once a second.
	 */
	if (!zoneinfo_ns || gj_now_ns() - zoneinfo_ns >= ZONEINFO_EVERY_NS) {
		if (read_cached("/proc/zoneinfo", zoneinfo_text,
				sizeof(zoneinfo_text)) < 0)
			zoneinfo_text[0] = '\0';
		zoneinfo_ns = gj_now_ns();
	}
	gstat_mem_member(&j, vmstat_text, zoneinfo_text, page_kb);
	/* Absent without CONFIG_PSI (or with psi=0 on the command line). */
	if (read_cached("/proc/pressure/memory", text, sizeof(text)) > 0)
		gstat_psi_member(&j, text);
	if (kswapd_dir()) {
		char wchan[128];

		snprintf(path, sizeof(path), "%s/stat", kswapd_dir());
		if (read_cached(path, text, sizeof(text)) > 0) {
			snprintf(path, sizeof(path), "%s/wchan", kswapd_dir());
			if (read_cached(path, wchan, sizeof(wchan)) <= 0)
				wchan[0] = '\0';
			gstat_task_member(&j, "kswapd", text, wchan, clk_tck);
		}
	}
	gj_u64(&j, "agent_cpu_ns", cpu_ns());
	gj_obj_close(&j);
	send_built(&j, "sample");
	nsamples++;
}

/*
 * Forward one producer line (without its '\n'). Returns true if it was
 * the result line.
 */
static bool forward(const char *line, size_t len)
{
	static char out[GPROTO_LINE_MAX + 1];
	bool is_result;
	int n;

	n = gproto_wrap(line, len, next_seq, cpu_ns(), out, sizeof(out),
			&is_result);
	if (n == GPROTO_MALFORMED) {
		send_error("agent: malformed producer line dropped");
		return false;
	}
	if (n < 0) {
		char msg[80];

		snprintf(msg, sizeof(msg),
			 "agent: producer line exceeds %d bytes, dropped",
			 GPROTO_LINE_MAX);
		send_error(msg);
		return false;
	}
	out_raw(out, (size_t)n);
	next_seq++;
	if (is_result)
		fprintf(stderr, "swapctl: %s", out);
	return is_result;
}

static int open_port(unsigned int wait_s)
{
	char dev[64];
	uint64_t start = gj_now_ns();
	uint64_t deadline = start + (uint64_t)wait_s * 1000000000ULL;
	int fd;

	/* The port is probed at boot: give it 10 s at most to show up. */
	while (gu_find_port(GU_PORT_NAME, dev, sizeof(dev))) {
		if (gj_now_ns() > deadline ||
		    gj_now_ns() > start + 10000000000ULL) {
			fprintf(stderr, "agent: no virtio-serial port named %s\n",
				GU_PORT_NAME);
			return -1;
		}
		gu_sleep_ms(50);
	}
	if (gu_wait_path(dev, 5000)) {
		fprintf(stderr, "agent: %s does not appear\n", dev);
		return -1;
	}
	fd = open(dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "agent: open %s: %s\n", dev, strerror(errno));
		return -1;
	}
	/* POLLHUP until the host side is connected. */
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		int r = poll(&pfd, 1, 100);

		if (r > 0 && (pfd.revents & POLLOUT) &&
		    !(pfd.revents & POLLHUP))
			return fd;
		if (gj_now_ns() > deadline) {
			fprintf(stderr, "agent: host did not connect to %s within %u s\n",
				dev, wait_s);
			close(fd);
			return -1;
		}
		if (r > 0)
			gu_sleep_ms(50);
	}
}

int main(int argc, char **argv)
{
	static char in[INBUF_CAP];
	unsigned int interval_ms = 100, wait_s = 60;
	size_t inlen = 0;
	bool skipping = false, done = false;
	uint64_t next_sample;

	if (argc >= 2)
		interval_ms = (unsigned int)strtoul(argv[1], NULL, 10);
	if (argc >= 3)
		wait_s = (unsigned int)strtoul(argv[2], NULL, 10);
	if (interval_ms < 10)
		interval_ms = 10;
	signal(SIGPIPE, SIG_IGN);
	clk_tck = sysconf(_SC_CLK_TCK);
	if (sysconf(_SC_PAGESIZE) >= 1024)
		page_kb = sysconf(_SC_PAGESIZE) / 1024;
	fcntl(STDIN_FILENO, F_SETFL, O_NONBLOCK);
	/*
	 * The observer must not be swapped out by what it observes: its
	 * faults would cost it CPU time and delay samples.
	 */
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "agent: mlockall: %s\n", strerror(errno));
	/* Nor killed by it: the OOM killer must pick the workload. */
	gu_write_file("/proc/self/oom_score_adj", "-1000");

	port_fd = open_port(wait_s);
	if (port_fd < 0)
		to_console = true;
	mthp_find();
	send_hello(interval_ms);
	send_sample();
	next_sample = gj_now_ns() + interval_ms * 1000000ULL;

	while (!done) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		uint64_t now = gj_now_ns();
		int timeout = 0, r;
		ssize_t n;
		char *nl;

		if (now < next_sample)
			timeout = (int)((next_sample - now + 999999) / 1000000);
		r = poll(&pfd, 1, timeout);
		if (r > 0) {
			n = read(STDIN_FILENO, in + inlen, sizeof(in) - inlen);
			if (n == 0) {
				fprintf(stderr, "agent: producers closed the pipe\n");
				break;
			}
			if (n > 0)
				inlen += (size_t)n;
			while (!done && (nl = memchr(in, '\n', inlen))) {
				size_t l = (size_t)(nl - in);

				*nl = '\0';
				if (skipping)
					skipping = false;
				else
					done = forward(in, l);
				memmove(in, nl + 1, inlen - l - 1);
				inlen -= l + 1;
			}
			if (inlen == sizeof(in)) {
				send_error("agent: producer line without newline, dropped");
				inlen = 0;
				skipping = true;
			}
		}
		now = gj_now_ns();
		if (!done && now >= next_sample) {
			send_sample();
			next_sample += interval_ms * 1000000ULL;
			if (next_sample < now)
				next_sample = now + interval_ms * 1000000ULL;
		}
	}
	send_cost();
	send_sample();
	if (port_fd >= 0 && !to_console) {
		/* Let the host drain the port before power-off. */
		struct pollfd pfd = { .fd = port_fd, .events = POLLOUT };

		poll(&pfd, 1, 200);
		fsync(port_fd);
	}
	return 0;
}
