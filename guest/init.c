// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl guest init (PID 1).
 *
 * Mounts the pseudo file systems, reads /swapctl/plan, starts a watchdog
 * and the agent, applies settings, sets up the swap backends, runs the
 * workload, and powers off. Every failure ends in a "result" line with
 * status "error" and the reason, then power-off: the guest never hangs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "dm.h"
#include "faults.h"
#include "json.h"
#include "mkswap.h"
#include "netcfg.h"
#include "gplan.h"
#include "gstat.h"
#include "gutil.h"

#define PLAN_PATH	"/swapctl/plan"
#define AGENT_PATH	"/bin/agent"
#define WORKLOAD_PATH	"/bin/workload"
#define COMMAND_PATH	"/bin/command"
#define HOSTROOT_DIR	"/host"
#define REASON_LEN	512
#define DEV_WAIT_MS	5000
#define AGENT_EXIT_MS	15000
#define ORPHAN_WAIT_MS	5000

static int out_fd = -1;		/* write end of the pipe to the agent */
static bool oom_killed;		/* the OOM killer took the workload */
static struct gplan plan;
static char nfs_file[GPLAN_PATH_LEN + 64];
static char nfs_dir[64];

/* Shared with the watchdog: what init is doing right now. */
static char *step;

struct backend {
	char name[GPLAN_PATH_LEN + 64];	/* as in /proc/swaps */
};

static struct backend backends[GPLAN_MAX_SWAP];

static __printf(1, 2) void set_step(const char *fmt, ...);
static __printf(2, 3) void reasonf(char *reason, const char *fmt, ...);

/* The failure reason (REASON_LEN bytes), truncated if need be. */
static void reasonf(char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, REASON_LEN, fmt, ap);
	va_end(ap);
}

static void set_step(const char *fmt, ...)
{
	va_list ap;

	if (!step)
		return;
	va_start(ap, fmt);
	vsnprintf(step, 256, fmt, ap);
	va_end(ap);
}

static __printf(2, 3) void logi(const char *level, const char *fmt, ...);

static void logi(const char *level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "swapctl-init: %s: %s\n", level, msg);
	if (out_fd >= 0)
		gu_log(out_fd, level, "%s", msg);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * @bounded: the watchdog's case. One write(2) that SIGALRM interrupts
 * after 2 s, so that a full pipe (agent stuck) cannot stop the power-off.
 */
static void send_result_error(int fd, const char *reason, bool bounded)
{
	char line[GU_PIPE_LINE];
	struct gu_progress pr;
	struct gj j;
	int len;

	fprintf(stderr, "swapctl-init: result error: %s\n", reason);
	/* How far the workload got, if it ran: corrupt pages are not lost. */
	gu_progress_read(GU_PROGRESS_PATH, &pr);
	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "result");
	/* an OOM kill is a result of its own: an oom fault expects it */
	gj_str(&j, "status", oom_killed && !bounded ? "oom" : "error");
	gj_u64(&j, "pages_written", pr.pages_written);
	gj_u64(&j, "pages_verified", pr.pages_verified);
	gj_u64(&j, "pages_corrupt", pr.pages_corrupt);
	gj_u64(&j, "pages_corrupt_distinct", pr.corrupt_distinct);
	gj_i64(&j, "first_corrupt", pr.first_corrupt);
	gj_u64(&j, "pages_failed", pr.pages_failed);
	gj_u64(&j, "pages_failed_distinct", pr.failed_distinct);
	gj_str(&j, "reason", reason);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len <= 0 || fd < 0)
		return;
	if (bounded) {
		struct sigaction sa = { .sa_handler = on_alarm };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART */
		alarm(2);
		if (write(fd, line, (size_t)len) != len)
			fprintf(stderr, "swapctl-init: watchdog: result not sent\n");
		alarm(0);
	} else {
		gu_emit(fd, line, len);
	}
}

static __noreturn void power_off(void)
{
	fprintf(stderr, "swapctl-init: power off\n");
	reboot(RB_POWER_OFF);
	/* No ACPI? Reboot (the host destroys the domain), else panic. */
	reboot(RB_AUTOBOOT);
	_exit(1);
}

static void mount_early(void)
{
	static const struct {
		const char *src, *dir, *type;
	} m[] = {
		{ "proc", "/proc", "proc" },
		{ "sysfs", "/sys", "sysfs" },
		{ "devtmpfs", "/dev", "devtmpfs" },
		{ "tmpfs", "/tmp", "tmpfs" },
		{ "tmpfs", "/run", "tmpfs" },
	};
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mkdir(m[i].dir, 0755);
		if (mount(m[i].src, m[i].dir, m[i].type, 0, NULL) &&
		    errno != EBUSY)
			fprintf(stderr, "swapctl-init: mount %s: %s\n",
				m[i].dir, strerror(errno));
	}
	mkdir("/mnt", 0755);
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
}

/*
 * The watchdog: a child that powers the guest off after @timeout_s no
 * matter what init, the agent or the workload are stuck in.
 */
static void start_watchdog(unsigned int timeout_s, int rfd)
{
	struct timespec ts;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_s;
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "swapctl-init: fork watchdog: %s\n",
			strerror(errno));
		return;
	}
	if (pid > 0)
		return;
	/* Hold no read end: if the agent dies, writers get EPIPE. */
	close(rfd);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
	{
		char reason[REASON_LEN];

		snprintf(reason, sizeof(reason),
			 "timeout: %u s elapsed (timeout_s) during: %s",
			 timeout_s, step ? step : "?");
		send_result_error(out_fd, reason, true);
	}
	/* Give the agent a moment to forward it and send a last sample. */
	gu_sleep_ms(3000);
	power_off();
}

static pid_t start_agent(int rfd, unsigned int interval_ms,
			 unsigned int wait_s)
{
	char a1[16], a2[16];
	pid_t pid;

	snprintf(a1, sizeof(a1), "%u", interval_ms);
	snprintf(a2, sizeof(a2), "%u", wait_s);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { AGENT_PATH, a1, a2, NULL };

		dup2(rfd, 0);
		execv(AGENT_PATH, argv);
		fprintf(stderr, "swapctl-init: exec %s: %s\n", AGENT_PATH,
			strerror(errno));
		_exit(127);
	}
	return pid;
}

static int apply_kv(const char *what, const char *dir,
		    const struct gplan_kv *kv, int n, char *reason)
{
	char path[256];
	int i, r;

	for (i = 0; i < n; i++) {
		if (dir) {
			snprintf(path, sizeof(path), "%s/%s", dir, kv[i].key);
		} else if (gplan_sysctl_path(kv[i].key, path, sizeof(path))) {
			reasonf(reason, "%s %s: bad key", what, kv[i].key);
			return -1;
		}
		set_step("%s %s=%s", what, kv[i].key, kv[i].val);
		r = gu_write_file(path, kv[i].val);
		if (r) {
			reasonf(reason, "%s %s=%s: %s: %s", what,
				kv[i].key, kv[i].val, path, strerror(-r));
			return -1;
		}
		logi("info", "%s %s=%s", what, kv[i].key, kv[i].val);
	}
	return 0;
}

/* The plan's mthp lines: hugepages-<K>kB/enabled, after the thp ones. */
static int apply_mthp(char *reason)
{
	char path[256];
	int i, r;

	for (i = 0; i < plan.nmthp; i++) {
		const struct gplan_mthp *m = &plan.mthp[i];

		snprintf(path, sizeof(path), "%s/hugepages-%ukB/enabled",
			 PLAN_MTHP_DIR, m->size_kb);
		set_step("mthp %u kB enabled=%s", m->size_kb, m->enabled);
		r = gu_write_file(path, m->enabled);
		if (r) {
			reasonf(reason, "mthp %u kB enabled=%s: %s: %s%s",
				m->size_kb, m->enabled, path, strerror(-r),
				r == -ENOENT ?
				" (a kernel without that mTHP size: 6.8 and later, CONFIG_TRANSPARENT_HUGEPAGE)" :
				"");
			return -1;
		}
		logi("info", "mthp %u kB enabled=%s", m->size_kb, m->enabled);
	}
	return 0;
}

static int do_swapon(const char *path, int prio, char *reason)
{
	int flags = 0;

	if (prio >= 0)
		flags = SWAP_FLAG_PREFER |
			((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	set_step("swapon %s", path);
	if (swapon(path, flags)) {
		reasonf(reason, "swapon %s: %s", path,
			strerror(errno));
		return -1;
	}
	logi("info", "swapon %s prio=%d", path, prio);
	return 0;
}

/* mkswap on an existing device or file @path of @size bytes (0: ask). */
static int do_mkswap(const char *path, uint64_t size, char *reason)
{
	int fd, r;

	set_step("mkswap %s", path);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		reasonf(reason, "mkswap: open %s: %s", path,
			strerror(errno));
		return -1;
	}
	if (!size && ioctl(fd, BLKGETSIZE64, &size)) {
		reasonf(reason, "mkswap: %s: BLKGETSIZE64: %s",
			path, strerror(errno));
		close(fd);
		return -1;
	}
	r = gswap_write(fd, size, "swapctl");
	close(fd);
	if (r) {
		reasonf(reason, "mkswap %s (%" PRIu64 " bytes): %s",
			path, size, r == -EINVAL ? "area too small or too large" :
			strerror(-r));
		return -1;
	}
	return 0;
}

static int wait_dev(const char *dev, char *reason)
{
	set_step("waiting for %s", dev);
	if (gu_wait_path(dev, DEV_WAIT_MS)) {
		reasonf(reason, "%s: no such device after %d ms",
			dev, DEV_WAIT_MS);
		return -1;
	}
	return 0;
}

/*
 * virtio-blk disks say they are rotational.  Swap only allocates whole
 * clusters, which THP swap-out needs, on non-rotational devices.
 */
static int set_nonrot(const char *dev, char *reason)
{
	char path[128];
	const char *base = strrchr(dev, '/');
	int r;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational",
		 base ? base + 1 : dev);
	set_step("writing %s", path);
	r = gu_write_file(path, "0");
	if (r) {
		reasonf(reason, "%s: %s", path, strerror(-r));
		return -1;
	}
	return 0;
}

/* The size of block device @dev in bytes; 0, or -1 with @reason. */
static int dev_size(const char *dev, uint64_t *size, char *reason)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || ioctl(fd, BLKGETSIZE64, size)) {
		reasonf(reason, "%s: BLKGETSIZE64: %s", dev, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * A read or write io_error fault on this disk: the swap area goes on a
 * device-mapper device over it, dm-dust (read: the bad slots listed now,
 * failing once enabled) or dm-linear (write: replaced by dm-flakey at the
 * trigger). See faults.c.
 */
static int setup_dm(int idx, const struct gplan_swap *s,
		    const struct gplan_fault *f, struct backend *b,
		    char *reason)
{
	char name[32], params[256], err[256];
	uint64_t size = 0, k;
	int r;

	if (dev_size(s->dev, &size, reason))
		return -1;
	snprintf(name, sizeof(name), GFAULT_DM_FMT, idx);
	if (f->op == FOP_READ)
		snprintf(params, sizeof(params), "%s 0 %d", s->dev,
			 GFAULT_DUST_BLOCK);
	else
		snprintf(params, sizeof(params), "%s 0", s->dev);
	set_step("dm create %s", name);
	r = gdm_create(name, size >> 9, f->op == FOP_READ ? "dust" :
		       "linear", params, b->name, sizeof(b->name), err,
		       sizeof(err));
	if (r) {
		reasonf(reason, "%s", err);
		return -1;
	}
	if (f->op == FOP_READ && f->slot + f->nslots > size / 4096) {
		reasonf(reason, "fault index=%u: slots %" PRIu64 "+%" PRIu64
			" beyond the %" PRIu64 " slots of %s", f->index,
			f->slot, f->nslots, size / 4096, s->dev);
		return -1;
	}
	for (k = 0; f->op == FOP_READ && k < f->nslots; k++) {
		char msg[64];

		snprintf(msg, sizeof(msg), "addbadblock %" PRIu64, f->slot + k);
		if (gdm_message(name, msg, err, sizeof(err))) {
			reasonf(reason, "%s", err);
			return -1;
		}
	}
	logi("info", "%s: %s on %s%s", b->name, f->op == FOP_READ ?
	     "dm-dust" : "dm-linear", s->dev, f->op == FOP_READ ?
	     " (bad slots listed, failing from the fault's trigger)" : "");
	return 0;
}

static int setup_blk(int idx, const struct gplan_swap *s, struct backend *b,
		     char *reason)
{
	const struct gplan_fault *f = gplan_dm_fault(&plan, idx);

	if (wait_dev(s->dev, reason))
		return -1;
	if (s->nonrot && set_nonrot(s->dev, reason))
		return -1;
	snprintf(b->name, sizeof(b->name), "%s", s->dev);
	if (f && setup_dm(idx, s, f, b, reason))
		return -1;
	if (do_mkswap(b->name, 0, reason))
		return -1;
	return do_swapon(b->name, s->prio, reason);
}

/*
 * zram's mem_limit: the most memory its compressed pages may take; a write
 * beyond it fails (-ENOMEM), which swap sees as a write error.
 */
static int set_zram_mem_limit(const char *dev, uint64_t mb, char *reason)
{
	char path[96], buf[32];
	int r;

	snprintf(path, sizeof(path), "/sys/block/%s/mem_limit", dev);
	snprintf(buf, sizeof(buf), "%" PRIu64 "M", mb);
	set_step("zram %s mem_limit %s", dev, buf);
	r = gu_write_file(path, buf);
	if (r) {
		reasonf(reason, "zram: %s=%s: %s", path, buf, strerror(-r));
		return -1;
	}
	logi("info", "zram %s mem_limit_mb=%" PRIu64, dev, mb);
	return 0;
}

/*
 * brd: the RAM disk the kernel made at boot (brd.rd_nr=1 brd.rd_size= on
 * its command line, swapctl run adds them): it must be there and of
 * size_mb, else the kernel lacks CONFIG_BLK_DEV_RAM or the boot its
 * parameters.
 */
static int setup_brd(const struct gplan_swap *s, struct backend *b,
		     char *reason)
{
	uint64_t size = 0;

	if (access("/sys/module/brd", F_OK)) {
		reasonf(reason, "brd: /sys/module/brd missing (a kernel without CONFIG_BLK_DEV_RAM)");
		return -1;
	}
	if (wait_dev(s->dev, reason))
		return -1;
	if (dev_size(s->dev, &size, reason))
		return -1;
	if (size != s->size_mb << 20) {
		reasonf(reason, "%s: %" PRIu64 " KiB, not size_mb=%" PRIu64
			" (brd.rd_size= of the kernel command line)", s->dev,
			size >> 10, s->size_mb);
		return -1;
	}
	snprintf(b->name, sizeof(b->name), "%s", s->dev);
	if (do_mkswap(b->name, 0, reason))
		return -1;
	return do_swapon(b->name, s->prio, reason);
}

static int setup_zram(const struct gplan_swap *s, struct backend *b,
		      int nth, char *reason)
{
	char path[128], buf[512], dev[32];
	long id = 0;
	int r;

	if (nth > 0) {
		set_step("zram hot_add");
		r = (int)gu_read_file("/sys/class/zram-control/hot_add", buf,
				      sizeof(buf));
		if (r <= 0) {
			reasonf(reason,
				"zram: /sys/class/zram-control/hot_add: %s",
				r < 0 ? strerror(-r) : "empty");
			return -1;
		}
		id = strtol(buf, NULL, 10);
	} else if (access("/sys/block/zram0", F_OK)) {
		reasonf(reason,
			"zram: /sys/block/zram0 missing (CONFIG_ZRAM?)");
		return -1;
	}
	snprintf(dev, sizeof(dev), "zram%ld", id);
	if (s->comp[0]) {
		snprintf(path, sizeof(path), "/sys/block/%s/comp_algorithm",
			 dev);
		set_step("zram %s comp %s", dev, s->comp);
		r = gu_write_file(path, s->comp);
		if (r) {
			buf[0] = '\0';
			gu_read_file(path, buf, sizeof(buf));
			buf[strcspn(buf, "\n")] = '\0';
			reasonf(reason,
				"zram: %s: comp=%s: %s (available: %s)", path,
				s->comp, strerror(-r), buf);
			return -1;
		}
	}
	snprintf(path, sizeof(path), "/sys/block/%s/disksize", dev);
	snprintf(buf, sizeof(buf), "%" PRIu64, s->size_mb << 20);
	set_step("zram %s disksize", dev);
	r = gu_write_file(path, buf);
	if (r) {
		reasonf(reason, "zram: %s=%s: %s", path, buf,
			strerror(-r));
		return -1;
	}
	if (s->mem_limit_mb && set_zram_mem_limit(dev, s->mem_limit_mb, reason))
		return -1;
	snprintf(b->name, sizeof(b->name), "/dev/%s", dev);
	if (wait_dev(b->name, reason) ||
	    do_mkswap(b->name, s->size_mb << 20, reason))
		return -1;
	logi("info", "zram %s size_mb=%" PRIu64 " comp=%s", dev, s->size_mb,
	     s->comp[0] ? s->comp : "default");
	return do_swapon(b->name, s->prio, reason);
}

static int setup_ext4file(const struct gplan_swap *s, struct backend *b,
			  char *reason)
{
	const char *base = strrchr(s->dev, '/') + 1;
	char dir[GPLAN_PATH_LEN + 8];
	uint64_t size = s->size_mb << 20;
	int fd;

	if (wait_dev(s->dev, reason))
		return -1;
	snprintf(dir, sizeof(dir), "/mnt/%s", base);
	mkdir(dir, 0755);
	set_step("mount %s ext4 on %s", s->dev, dir);
	if (mount(s->dev, dir, "ext4", 0, "")) {
		reasonf(reason, "mount %s (ext4) on %s: %s",
			s->dev, dir, strerror(errno));
		return -1;
	}
	snprintf(b->name, sizeof(b->name), "%s/swapfile", dir);
	set_step("fallocate %s", b->name);
	fd = open(b->name, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		reasonf(reason, "create %s: %s", b->name,
			strerror(errno));
		return -1;
	}
	if (fallocate(fd, 0, 0, (off_t)size)) {
		reasonf(reason,
			"fallocate %s %" PRIu64 " MiB: %s", b->name,
			s->size_mb, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	logi("info", "ext4file %s on %s size_mb=%" PRIu64, b->name, s->dev,
	     s->size_mb);
	if (do_mkswap(b->name, size, reason))
		return -1;
	return do_swapon(b->name, s->prio, reason);
}

static int write_zeroes(int fd, uint64_t size, char *reason,
			const char *path)
{
	static char zero[1 << 20];
	uint64_t off = 0;

	while (off < size) {
		size_t n = sizeof(zero);
		int r;

		if (size - off < n)
			n = (size_t)(size - off);
		r = gu_write_all(fd, zero, n);
		if (r) {
			reasonf(reason,
				"write %s at %" PRIu64 " MiB: %s", path,
				off >> 20, strerror(-r));
			return -1;
		}
		off += n;
		set_step("write %s: %" PRIu64 " of %" PRIu64 " MiB", path,
			 off >> 20, size >> 20);
	}
	if (fsync(fd)) {
		reasonf(reason, "fsync %s: %s", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * file=: the host made the swap file in its export, allocated in full
 * (no holes, as nfs_swap_activate() wants), before the server started.
 * Writing it out from the guest took minutes under TCG.
 */
static int use_host_file(const struct gplan_swap *s, struct backend *b,
			 char *reason)
{
	uint64_t size = s->size_mb << 20;
	struct stat st;
	int fd;

	snprintf(b->name, sizeof(b->name), "%s/%s", nfs_dir, s->file);
	set_step("open %s", b->name);
	fd = open(b->name, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		reasonf(reason, "open %s (file= of the host): %s", b->name,
			strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != size ||
	    (uint64_t)st.st_blocks * 512 < size) {
		reasonf(reason,
			"%s: not a regular file of size_mb=%" PRIu64
			" without holes (size %lld, %lld blocks)", b->name,
			s->size_mb, (long long)st.st_size,
			(long long)st.st_blocks);
		close(fd);
		return -1;
	}
	close(fd);
	if (strlen(b->name) < sizeof(nfs_file))
		strcpy(nfs_file, b->name);
	logi("info", "nfsfile %s size_mb=%" PRIu64 " (made by the host)",
	     b->name, s->size_mb);
	if (do_mkswap(b->name, size, reason))
		return -1;
	return do_swapon(b->name, s->prio, reason);
}

static int setup_nfsfile(const struct gplan_swap *s, struct backend *b,
			 int nth, char *reason)
{
	char src[GPLAN_VAL_LEN + GPLAN_PATH_LEN + 2], data[256], id[64];
	uint64_t size = s->size_mb << 20;
	uint64_t t0;
	int fd;

	snprintf(nfs_dir, sizeof(nfs_dir), "/mnt/nfs%d", nth);
	mkdir(nfs_dir, 0755);
	snprintf(src, sizeof(src), "%s:%s", s->server, s->export);
	snprintf(data, sizeof(data), "vers=%s,proto=tcp,port=%u,addr=%s",
		 s->vers, s->port, s->server);
	set_step("mount %s (nfs4 %s) on %s", src, data, nfs_dir);
	logi("info", "mount %s type nfs4 data %s", src, data);
	if (mount(src, nfs_dir, "nfs4", 0, data)) {
		reasonf(reason, "mount %s (nfs4, %s) on %s: %s",
			src, data, nfs_dir, strerror(errno));
		nfs_dir[0] = '\0';
		return -1;
	}
	if (s->file[0])
		return use_host_file(s, b, reason);
	/* A per-boot name: guests may share the export directory. */
	if (gu_read_file("/proc/sys/kernel/random/boot_id", id,
			 sizeof(id)) < 8)
		strcpy(id, "00000000");
	id[8] = '\0';
	snprintf(b->name, sizeof(b->name), "%s/swapfile-%s-%d", nfs_dir, id,
		 nth);
	set_step("create %s", b->name);
	fd = open(b->name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		reasonf(reason, "create %s: %s", b->name,
			strerror(errno));
		return -1;
	}
	if (strlen(b->name) < sizeof(nfs_file))
		strcpy(nfs_file, b->name);
	/* No fallocate on NFS: write the whole file so it has no holes. */
	t0 = gj_now_ns();
	if (write_zeroes(fd, size, reason, b->name)) {
		close(fd);
		return -1;
	}
	if (fchmod(fd, 0600)) {
		reasonf(reason, "chmod %s: %s", b->name,
			strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	logi("info", "nfsfile %s size_mb=%" PRIu64 " written in %" PRIu64 " ms",
	     b->name, s->size_mb, (gj_now_ns() - t0) / 1000000);
	if (do_mkswap(b->name, size, reason))
		return -1;
	return do_swapon(b->name, s->prio, reason);
}

/* For the fault process: the swapped-on names, in plan order. */
static void write_backends(void)
{
	char text[GPLAN_MAX_SWAP * (GPLAN_PATH_LEN + 65)];
	size_t off = 0;
	int i, fd;

	text[0] = '\0';
	for (i = 0; i < plan.nswap; i++)
		off += snprintf(text + off, sizeof(text) - off, "%s\n",
				backends[i].name);
	fd = open(GU_BACKENDS_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  0644);
	if (fd < 0 || gu_write_all(fd, text, strlen(text)))
		logi("warn", "%s: %s", GU_BACKENDS_PATH, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * The host's root file system, shared read-only over virtio-9p. MS_RDONLY
 * here; QEMU refuses writes anyway (<readonly/> in the domain XML).
 */
static int mount_hostroot(char *reason)
{
	static const char opts[] =
		"trans=virtio,version=9p2000.L,cache=loose,msize=262144";

	set_step("mount the host root (9p %s)", plan.hostroot_tag);
	mkdir(HOSTROOT_DIR, 0755);
	if (mount(plan.hostroot_tag, HOSTROOT_DIR, "9p", MS_RDONLY, opts)) {
		reasonf(reason, "mount 9p %s on %s: %s%s", plan.hostroot_tag,
			HOSTROOT_DIR, strerror(errno), errno == ENODEV ?
			" (kernel without CONFIG_9P_FS)" : errno == ENOENT ?
			" (no such tag: kernel without CONFIG_NET_9P_VIRTIO?)" :
			"");
		return -1;
	}
	logi("info", "host root on %s (9p %s, read-only)", HOSTROOT_DIR,
	     plan.hostroot_tag);
	return 0;
}

static int setup(char *reason)
{
	int i, nzram = 0, nnfs = 0, r = 0;

	if (plan.has_hostroot && mount_hostroot(reason))
		return -1;

	if (apply_kv("sysctl", NULL, plan.sysctl, plan.nsysctl, reason) ||
	    apply_kv("thp", "/sys/kernel/mm/transparent_hugepage", plan.thp,
		     plan.nthp, reason) ||
	    apply_mthp(reason) ||
	    apply_kv("zswap", "/sys/module/zswap/parameters", plan.zswap,
		     plan.nzswap, reason))
		return -1;
	if (plan.has_net) {
		char ifname[32], err[256];

		set_step("net configuration");
		if (gnet_config(plan.net_addr, plan.net_prefix, plan.net_gw,
				ifname, sizeof(ifname), err, sizeof(err))) {
			reasonf(reason, "%s", err);
			return -1;
		}
		logi("info", "net %s up", ifname);
	}
	for (i = 0; i < plan.nswap && !r; i++) {
		const struct gplan_swap *s = &plan.swap[i];

		switch (s->type) {
		case SWAP_BLK:
			r = setup_blk(i, s, &backends[i], reason);
			break;
		case SWAP_ZRAM:
			r = setup_zram(s, &backends[i], nzram++, reason);
			break;
		case SWAP_EXT4FILE:
			r = setup_ext4file(s, &backends[i], reason);
			break;
		case SWAP_NFSFILE:
			r = setup_nfsfile(s, &backends[i], nnfs++, reason);
			break;
		case SWAP_BRD:
			r = setup_brd(s, &backends[i], reason);
			break;
		}
	}
	if (!r)
		write_backends();
	return r;
}

static void send_swap_line(void)
{
	static char line[GU_PIPE_LINE], text[2048];
	struct gstat_swap sw[GSTAT_MAX_SWAPS];
	int nsw = 0, i, k, len;
	struct gj j;

	if (gu_read_file("/proc/swaps", text, sizeof(text)) > 0)
		nsw = gstat_parse_swaps(text, sw, GSTAT_MAX_SWAPS);
	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "swap");
	gj_arr_open(&j, "backends");
	for (i = 0; i < plan.nswap; i++) {
		char dev[32] = "";

		gu_blkdev_of(backends[i].name, dev, sizeof(dev));
		gj_obj_open(&j, NULL);
		gj_str(&j, "type", plan_backend_name(plan.swap[i].type));
		gj_str(&j, "name", backends[i].name);
		gj_str(&j, "dev", dev);
		for (k = 0; k < nsw; k++)
			if (!strcmp(sw[k].name, backends[i].name))
				break;
		gj_u64(&j, "size_kb", k < nsw ? sw[k].size_kb : 0);
		gj_i64(&j, "prio", k < nsw ? sw[k].prio : plan.swap[i].prio);
		gj_obj_close(&j);
	}
	gj_arr_close(&j);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(out_fd, line, len);
}

/*
 * A workload killed by a signal (the OOM killer) could not stop its fault
 * process (guest/faults.c), now ours: stop its group and wait a moment,
 * so that the faults send their end lines and stop allocating or swapping
 * before the power-off.
 */
static void stop_orphans(pid_t pgrp)
{
	unsigned int waited = 0;
	int status;

	if (kill(-pgrp, SIGTERM))
		return;
	while (waited < ORPHAN_WAIT_MS) {
		pid_t w = waitpid(-pgrp, &status, WNOHANG);

		if (w < 0 && errno == ECHILD)
			return;
		if (w <= 0) {
			gu_sleep_ms(20);
			waited += 20;
		}
	}
	kill(-pgrp, SIGKILL);
	fprintf(stderr, "swapctl-init: the workload's processes did not exit within %d ms\n",
		ORPHAN_WAIT_MS);
}

/* Returns true if the workload sent the result itself. */
static bool run_workload(char *reason)
{
	uint64_t oom0 = gu_vmstat("oom_kill");
	int status;
	pid_t pid, w;

	set_step("workload");
	pid = fork();
	if (pid < 0) {
		reasonf(reason, "fork workload: %s",
			strerror(errno));
		return false;
	}
	if (pid == 0) {
		/* command workloads: the host's programs (guest/command.c) */
		char *prog = plan.has_command ? COMMAND_PATH : WORKLOAD_PATH;
		char *argv[] = { prog, PLAN_PATH, NULL };

		/* its group: what it forks (the faults) can be found */
		setpgid(0, 0);
		dup2(out_fd, 1);
		execv(prog, argv);
		fprintf(stderr, "swapctl-init: exec %s: %s\n", prog,
			strerror(errno));
		_exit(127);
	}
	do {
		w = waitpid(pid, &status, 0);
	} while (w < 0 && errno == EINTR);
	if (w < 0) {
		reasonf(reason, "waitpid workload: %s",
			strerror(errno));
		return false;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) <= 2)
		return true;	/* 0 pass, 1 corrupt, 2 error: result sent */
	if (WIFSIGNALED(status))
		stop_orphans(pid);
	oom_killed = WIFSIGNALED(status) && gu_vmstat("oom_kill") > oom0;
	if (WIFSIGNALED(status))
		reasonf(reason, "workload killed by signal %d (%s)%s",
			WTERMSIG(status), strsignal(WTERMSIG(status)),
			gu_vmstat("oom_kill") > oom0 ?
			" by the OOM killer: RAM + swap too small for the workload" :
			"");
	else
		reasonf(reason, "workload exited with status %d",
			WEXITSTATUS(status));
	return false;
}

static void wait_agent(pid_t agent)
{
	unsigned int waited = 0;
	int status;

	set_step("waiting for the agent to finish");
	while (agent > 0 && waited < AGENT_EXIT_MS) {
		pid_t w = waitpid(agent, &status, WNOHANG);

		if (w == agent || (w < 0 && errno == ECHILD))
			return;
		gu_sleep_ms(20);
		waited += 20;
	}
	fprintf(stderr, "swapctl-init: agent did not exit within %d ms\n",
		AGENT_EXIT_MS);
}

static void cleanup(void)
{
	/* Leave nothing behind in the host's export directory. */
	if (nfs_file[0]) {
		set_step("swapoff %s", nfs_file);
		swapoff(nfs_file);
		unlink(nfs_file);
	}
	if (nfs_dir[0])
		umount2(nfs_dir, MNT_DETACH);
}

int main(void)
{
	static char text[64 * 1024];
	char reason[REASON_LEN] = "";
	char perr[GPLAN_ERR_LEN];
	bool plan_ok = false, sent = false;
	unsigned int timeout_s = 60;
	pid_t agent;
	ssize_t n;
	int pfd[2];

	mount_early();
	signal(SIGPIPE, SIG_IGN);
	step = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (step == MAP_FAILED)
		step = NULL;
	set_step("reading %s", PLAN_PATH);

	n = gu_read_file(PLAN_PATH, text, sizeof(text));
	if (n < 0)
		reasonf(reason, "%s: %s", PLAN_PATH,
			strerror((int)-n));
	else if ((size_t)n >= sizeof(text) - 1)
		reasonf(reason, "%s: larger than %zu bytes",
			PLAN_PATH, sizeof(text) - 2);
	else if (gplan_parse(text, &plan, perr, sizeof(perr)))
		reasonf(reason, "%s: %s", PLAN_PATH, perr);
	else
		plan_ok = true;
	if (plan_ok)
		timeout_s = plan.timeout_s;

	if (pipe2(pfd, O_CLOEXEC)) {
		fprintf(stderr, "swapctl-init: pipe: %s\n", strerror(errno));
		power_off();
	}
	out_fd = pfd[1];
	start_watchdog(timeout_s, pfd[0]);
	agent = start_agent(pfd[0], plan_ok ? plan.interval_ms :
			    GPLAN_DEF_INTERVAL_MS, timeout_s);
	close(pfd[0]);

	if (plan_ok) {
		logi("info", "plan: %d swap backends, %d phases, timeout_s=%u",
		     plan.nswap, plan.nphase, plan.timeout_s);
		if (!setup(reason)) {
			send_swap_line();
			sent = run_workload(reason);
		}
	}
	if (!sent)
		send_result_error(out_fd, reason[0] ? reason : "unknown error",
				  false);
	wait_agent(agent);
	cleanup();
	power_off();
}
