// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl run: boot the kernels of a scenario through libvirt, one guest
 * at a time (interleaved A B A B with --repeat), read the agent's stream,
 * record it under runs/<id>/, and compare the kernels.
 *
 * Whatever happens (errors, timeouts, SIGINT/SIGTERM) the guest is
 * destroyed, the NFS server stopped and the agent socket removed before
 * swapctl exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "domain.h"
#include "ganesha.h"
#include "kbuild.h"
#include "parse-options.h"
#include "plan.h"
#include "rundir.h"
#include "scenario.h"
#include "stats.h"
#include "stream.h"
#include "swapctl.h"
#include "util.h"

#define MAX_REPEAT	100
#define BOOT_MARGIN_S	60	/* host limit = timeout_s + this */
#define POWEROFF_WAIT_S	20	/* after the result, for the power-off */
#define CONNECT_WAIT_S	10
#define HELLO_WAIT_S	120	/* a kernel that does not boot */

/* lock-free, so safe to set from the signal handler */
static atomic_int interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct phase_res {
	char name[32];
	double seconds;
	uint64_t pages, corrupt;
};

struct guest_res {
	enum scn_kernel kernel;
	int rep;
	char dir[4096];
	bool started;
	bool setup_failed;
	bool timeout;
	bool interrupted;
	bool have_hello, have_result, have_sample;
	double boot_s;		/* create -> hello, host clock */
	double hello_uptime_s;	/* guest uptime at hello */
	double run_s;		/* create -> end */
	char release[64];
	enum stream_status status;
	uint64_t pages_written, pages_verified, pages_corrupt;
	int64_t first_corrupt;
	uint64_t pages_failed, pages_failed_distinct;	/* SIGBUS */
	int swap_read_errors, swap_write_errors;	/* console */
	bool has_agent_cpu;
	uint64_t agent_cpu_ns;		/* the agent's own CPU time */
	char reason[STREAM_MSG_MAX];
	char last_error_log[STREAM_MSG_MAX];
	struct stream_line last;	/* the last sample */
	struct phase_res phase[SCN_MAX_PHASES];
	int nphases;
	struct vm_blkstats host[DOMAIN_MAX_DISKS];
	bool have_host;
	int console_problems;
	char console_first[200];
	struct console_scan console;	/* the reports, quoted */
	int oom_kills;			/* OOM killer reports on the console */
	struct stream_state st;		/* validation counters */
	bool pass;
	int exit_class;			/* EXIT_OK, _CORRUPT, _GUEST, _SETUP */
	char why[512];			/* why it failed */
};

struct run {
	struct swapctl_config *cfg;
	struct scenario scn;
	unsigned int memory_mb, cpus;
	bool kvm;
	char accel_why[320];		/* why KVM or TCG */
	char cmdline[2 * CONFIG_APPEND_MAX + 128]; /* guest kernel cmdline */
	unsigned int repeat;
	double host_timeout_s;
	bool json, dry_run, keep_images;
	bool debug;			/* boot kernels/<variant>-debug/ */
	char kernel_path[KERNEL_COUNT][4096];
	char initramfs[4096];
	char uri[4200];
	char id[SCN_NAME_MAX + 32];
	char dir[4096];
	char *plan;
	struct vmconn *vm;
	struct guest_res *res;
	int nres;
	/* what the current guest holds, for the cleanup */
	struct ganesha nfs;
	char sock[4200];
};

/* ---- small helpers ---- */

static void msg(const struct run *r, const char *fmt, ...)
	__printf(2, 3);

static void msg(const struct run *r, const char *fmt, ...)
{
	va_list ap;

	(void)r;
	va_start(ap, fmt);
	fprintf(stderr, "swapctl run: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static const char *guest_name(const struct guest_res *g, char *buf,
			      size_t len)
{
	snprintf(buf, len, "%s-%d", scn_kernel_name(g->kernel), g->rep);
	return buf;
}

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int write_state(const struct run *r, const char *state)
{
	char path[4200], text[32];

	snprintf(path, sizeof(path), "%s/state", r->dir);
	snprintf(text, sizeof(text), "%s\n", state);
	return util_write_file_atomic(path, text, strlen(text), 0644);
}

static void set_why(struct guest_res *g, const char *fmt, ...)
	__printf(2, 3);

static void set_why(struct guest_res *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->why, sizeof(g->why), fmt, ap);
	va_end(ap);
}

/* ---- the run directory ---- */

static int make_run_dir(struct run *r, char *err, size_t errlen)
{
	return rundir_create(r->cfg->workdir, r->scn.name, time(NULL), r->id,
			     sizeof(r->id), r->dir, sizeof(r->dir), err,
			     errlen);
}

static int write_run_files(struct run *r, char *err, size_t errlen)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/scenario.json", r->dir);
	if (util_copy_file(r->scn.file, path, 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/plan.txt", r->dir);
	if (util_write_file_atomic(path, r->plan, strlen(r->plan), 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (write_state(r, "running")) {
		util_seterr(err, errlen, "%s/state: %s", r->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- one guest ---- */

struct feed_ctx {
	struct run *r;
	struct guest_res *g;
	FILE *samples;
	FILE *rejected;		/* bad lines, with the reason */
	double t_create;
};

static void on_line(void *arg, const struct stream_line *l,
		    enum stream_err err, const char *raw, size_t len,
		    uint64_t lineno)
{
	struct feed_ctx *fc = arg;
	struct guest_res *g = fc->g;
	char name[32];

	if (err != STREAM_OK) {
		if (verbose)
			msg(fc->r, "%s: bad line from the agent: %s",
			    guest_name(g, name, sizeof(name)),
			    fc->g->st.last_error);
		/* kept for a post-mortem, never mixed with the samples */
		if (fc->rejected) {
			fprintf(fc->rejected, "# line %llu: %s\n",
				(unsigned long long)lineno,
				fc->g->st.last_error);
			fwrite(raw, 1, len, fc->rejected);
			fputc('\n', fc->rejected);
			fflush(fc->rejected);
		}
		return;
	}
	fwrite(raw, 1, len, fc->samples);
	fputc('\n', fc->samples);
	fflush(fc->samples);
	switch (l->type) {
	case STREAM_T_HELLO:
		if (!g->have_hello) {
			g->have_hello = true;
			g->boot_s = util_now() - fc->t_create;
			g->hello_uptime_s = l->t_ns / 1e9;
			snprintf(g->release, sizeof(g->release), "%s",
				 l->kernel);
		}
		break;
	case STREAM_T_SAMPLE:
		g->last = *l;
		g->have_sample = true;
		break;
	case STREAM_T_PHASE:
		if (l->phase_state == STREAM_PHASE_END &&
		    g->nphases < SCN_MAX_PHASES) {
			struct phase_res *p = &g->phase[g->nphases++];

			snprintf(p->name, sizeof(p->name), "%s", l->phase);
			p->seconds = l->phase_has_stats ? l->ns / 1e9 : 0;
			p->pages = l->pages;
			p->corrupt = l->corrupt;
		}
		if (verbose)
			msg(fc->r, "%s: phase %s %s",
			    guest_name(g, name, sizeof(name)), l->phase,
			    l->phase_state == STREAM_PHASE_END ? "end" :
			    "start");
		break;
	case STREAM_T_RESULT:
		g->have_result = true;
		g->status = l->status;
		g->pages_written = l->pages_written;
		g->pages_verified = l->pages_verified;
		g->pages_corrupt = l->pages_corrupt;
		g->first_corrupt = l->first_corrupt;
		g->pages_failed = l->pages_failed;
		g->pages_failed_distinct = l->pages_failed_distinct;
		g->has_agent_cpu = l->has_agent_cpu;
		g->agent_cpu_ns = l->agent_cpu_ns;
		snprintf(g->reason, sizeof(g->reason), "%s", l->msg);
		break;
	case STREAM_T_LOG:
		if (!strcmp(l->level, "error"))
			snprintf(g->last_error_log,
				 sizeof(g->last_error_log), "%s", l->msg);
		if (verbose)
			msg(fc->r, "%s: guest %s: %s",
			    guest_name(g, name, sizeof(name)), l->level,
			    l->msg);
		break;
	default:
		break;
	}
}

static void host_line(struct run *r, struct guest_res *g, FILE *samples)
{
	struct vm_blkstats bs;
	struct vm_cpustats cs;
	json_t *o, *blk, *cpu = NULL;
	char *s;
	int i, n = 0;

	blk = json_object();
	for (i = 0; i < r->scn.nswap; i++) {
		const struct scn_swap *sw = &r->scn.swap[i];

		if (!sw->dev[0] || vm_blkstats(r->vm, sw->dev, &bs))
			continue;
		g->host[n++] = bs;
		json_object_set_new(blk, sw->dev,
			json_pack("{sIsIsIsI}", "rd_req", (json_int_t)bs.rd_req,
				  "wr_req", (json_int_t)bs.wr_req,
				  "rd_bytes", (json_int_t)bs.rd_bytes,
				  "wr_bytes", (json_int_t)bs.wr_bytes));
	}
	if (!vm_cpustats(r->vm, &cs)) {
		cpu = json_pack("{sI}", "total", (json_int_t)cs.cpu_ns);
		if (cpu && cs.has_split) {
			json_object_set_new(cpu, "user",
					    json_integer((json_int_t)cs.user_ns));
			json_object_set_new(cpu, "system",
					    json_integer((json_int_t)cs.system_ns));
		}
	}
	if (!n && !cpu) {
		json_decref(blk);
		return;
	}
	if (n)
		g->have_host = true;
	o = json_pack("{sssI}", "type", "host", "t_ns", (json_int_t)host_ns());
	if (o && n)
		json_object_set_new(o, "blk", blk);
	else
		json_decref(blk);
	if (o && cpu)
		json_object_set_new(o, "cpu_ns", cpu);
	else
		json_decref(cpu);
	s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	if (s) {
		fprintf(samples, "%s\n", s);
		fflush(samples);
	}
	free(s);
	json_decref(o);
}

static int connect_agent(const char *path, double deadline)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	while (!interrupted) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		if (util_now() > deadline)
			return -1;
		usleep(20000);
	}
	return -1;
}

static void check_console(const char *path, struct guest_res *g)
{
	struct console_scan cs;

	console_scan_file(path, &cs);
	g->console_problems = cs.problems;
	g->oom_kills = cs.oom_kills;
	g->swap_read_errors = cs.swap_read_errors;
	g->swap_write_errors = cs.swap_write_errors;
	snprintf(g->console_first, sizeof(g->console_first), "%s", cs.first);
	g->console = cs;
}

static int make_disks(struct run *r, struct guest_res *g, char *err,
		      size_t errlen)
{
	char path[4200];
	int i, fd, rc;

	for (i = 0; i < r->scn.nswap; i++) {
		const struct scn_swap *sw = &r->scn.swap[i];
		off_t mb;

		if (!sw->dev[0])
			continue;
		snprintf(path, sizeof(path), "%s/disk-%s.img", g->dir, sw->dev);
		mb = sw->type == SWAP_EXT4FILE ? sw->disk_mb : sw->size_mb;
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, mb << 20)) {
			util_seterr(err, errlen, "%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		if (sw->type == SWAP_EXT4FILE) {
			/* all inode tables now: no lazy init I/O in the guest */
			const char *const argv[] = {
				"mke2fs", "-q", "-F", "-t", "ext4", "-E",
				"lazy_itable_init=0,lazy_journal_init=0",
				"-L", "swapctl", path, NULL,
			};
			struct util_run_opts o = { .out_fd = -1, .quiet = true };

			rc = util_run(argv, &o);
			if (rc) {
				util_seterr(err, errlen, rc < 0 ?
					 "mke2fs not found (install e2fsprogs)" :
					 "mke2fs -t ext4 %s failed (exit %d)",
					 path, rc);
				return -1;
			}
		}
	}
	return 0;
}

static void remove_disks(struct run *r, struct guest_res *g)
{
	char path[4200];
	int i;

	if (r->keep_images)
		return;
	for (i = 0; i < r->scn.nswap; i++) {
		if (!r->scn.swap[i].dev[0])
			continue;
		snprintf(path, sizeof(path), "%s/disk-%s.img", g->dir,
			 r->scn.swap[i].dev);
		unlink(path);
	}
}

static void fill_spec(struct run *r, struct guest_res *g,
		      struct domain_spec *d, char paths[][4200],
		      char *name, size_t namelen)
{
	int i, n = 0;

	snprintf(name, namelen, DOMAIN_NAME_PREFIX "%s-%s-%d", r->id,
		 scn_kernel_name(g->kernel), g->rep);
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->kvm = r->kvm;
	d->memory_mb = r->memory_mb;
	d->cpus = r->cpus;
	d->kernel = r->kernel_path[g->kernel];
	snprintf(paths[0], 4200, "%s/initrd", g->dir);
	snprintf(paths[1], 4200, "%s/console.log", g->dir);
	snprintf(paths[2], 4200, "%s/agent.sock", g->dir);
	d->initrd = paths[0];
	d->console_log = paths[1];
	d->agent_socket = paths[2];
	/* loglevel=5: warnings and worse reach the console log */
	/* page_owner=on: a debug kernel's Bad page report names the owner */
	d->cmdline = r->cmdline;
	for (i = 0; i < r->scn.nswap && n < DOMAIN_MAX_DISKS; i++) {
		if (!r->scn.swap[i].dev[0])
			continue;
		snprintf(paths[3 + n], 4200, "%s/disk-%s.img", g->dir,
			 r->scn.swap[i].dev);
		d->disk[n].path = paths[3 + n];
		d->disk[n].dev = r->scn.swap[i].dev;
		n++;
	}
	d->ndisks = n;
	d->net = scn_has_nfs(&r->scn);
	/* command workloads run the host's programs: its root, read-only */
	d->host_root = r->scn.command ? "/" : NULL;
}

/* Everything the guest holds on the host: always safe to call. */
static void guest_cleanup(struct run *r)
{
	if (r->vm)
		vm_destroy(r->vm);
	ganesha_stop(&r->nfs);
	if (r->sock[0]) {
		unlink(r->sock);
		r->sock[0] = '\0';
	}
}

static void classify(struct run *r, struct guest_res *g)
{
	char name[32];

	(void)r;
	g->pass = false;
	if (g->setup_failed) {
		g->exit_class = EXIT_SETUP;
		return;
	}
	if (g->interrupted) {
		g->exit_class = EXIT_INTERRUPTED;
		set_why(g, "interrupted");
		return;
	}
	if (g->have_result && g->pages_corrupt) {
		g->exit_class = EXIT_CORRUPT;
		set_why(g, "%llu corrupt pages (first at page %lld)",
			 (unsigned long long)g->pages_corrupt,
			 (long long)g->first_corrupt);
	} else if (g->console_problems) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "%d problem lines on the console, first: %s",
			 g->console_problems, g->console_first);
	} else if (g->timeout) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "timeout after %.0f s (%s)", g->run_s,
			 !g->have_hello ? "no hello from the agent" :
			 !g->have_result ? "no result" :
			 "no power-off after the result");
	} else if (!g->have_result) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "the guest stopped without a result%s%s",
			 g->last_error_log[0] ? "; last error: " :
			 (g->have_hello ? "" : " (no hello: see console.log)"),
			 g->last_error_log);
	} else if (g->status == STREAM_CORRUPT) {
		g->exit_class = EXIT_CORRUPT;
		set_why(g, "result: corrupt");
	} else if (g->status == STREAM_ERROR) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "guest error: %s",
			 g->reason[0] ? g->reason : "(no reason given)");
	} else {
		g->exit_class = EXIT_OK;
		g->pass = true;
	}
	if (!g->pass)
		msg(r, "%s: FAIL: %s", guest_name(g, name, sizeof(name)),
		    g->why);
}

/* rejected.txt stays only when there was something to reject */
static void close_rejected(struct feed_ctx *fc, struct guest_res *g)
{
	char path[4200];

	if (!fc->rejected)
		return;
	fclose(fc->rejected);
	fc->rejected = NULL;
	if (g->st.lines == g->st.ok) {
		snprintf(path, sizeof(path), "%s/rejected.txt", g->dir);
		unlink(path);
	}
}

static void run_guest(struct run *r, struct guest_res *g)
{
	char paths[3 + DOMAIN_MAX_DISKS][4200], dname[256], err[1024];
	char gname[32], xmlpath[4200], spath[4200];
	struct domain_spec spec;
	struct feed_ctx fc = { .r = r, .g = g };
	double deadline, next_host, t_result = 0;
	char *xml = NULL;
	int fd = -1;

	guest_name(g, gname, sizeof(gname));
	stream_init(&g->st);
	util_path(g->dir, sizeof(g->dir), "%s/%s", r->dir, gname);
	if (util_mkdir_p(g->dir, 0755)) {
		set_why(g, "%s: %s", g->dir,
			 strerror(errno));
		goto setup_fail;
	}
	fill_spec(r, g, &spec, paths, dname, sizeof(dname));
	if (strlen(spec.agent_socket) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		set_why(g, "%s: longer than a unix socket path may be (108): choose a shorter workdir",
			 spec.agent_socket);
		goto setup_fail;
	}
	if (plan_make_initrd(r->initramfs, r->plan, spec.initrd, err,
			     sizeof(err)) ||
	    make_disks(r, g, err, sizeof(err))) {
		set_why(g, "%s", err);
		goto setup_fail;
	}
	xml = domain_xml(&spec);
	snprintf(xmlpath, sizeof(xmlpath), "%s/domain.xml", g->dir);
	if (!xml || util_write_file_atomic(xmlpath, xml, strlen(xml), 0644)) {
		set_why(g, "%s: %s", xmlpath,
			 strerror(errno));
		goto setup_fail;
	}
	if (scn_has_nfs(&r->scn)) {
		char nfsdir[4200];

		snprintf(nfsdir, sizeof(nfsdir), "%s/nfs", g->dir);
		if (ganesha_start(&r->nfs, nfsdir, r->cfg->nfs_port, err,
				  sizeof(err))) {
			set_why(g, "%s", err);
			goto setup_fail;
		}
	}
	snprintf(spath, sizeof(spath), "%s/rejected.txt", g->dir);
	unlink(spath);
	fc.rejected = fopen(spath, "we");
	snprintf(spath, sizeof(spath), "%s/samples.jsonl", g->dir);
	fc.samples = fopen(spath, "we");
	if (!fc.samples) {
		set_why(g, "%s: %s", spath,
			 strerror(errno));
		goto setup_fail;
	}
	unlink(spec.console_log);
	unlink(spec.agent_socket);
	snprintf(r->sock, sizeof(r->sock), "%s", spec.agent_socket);
	if (interrupted)
		goto interrupted;
	msg(r, "%s: booting %s (%s, %u MiB, %u CPUs)", gname,
	    r->kernel_path[g->kernel], r->kvm ? "KVM" : "TCG", r->memory_mb,
	    r->cpus);
	fc.t_create = util_now();
	if (vm_start(r->vm, xml, err, sizeof(err))) {
		set_why(g, "%s", err);
		goto setup_fail;
	}
	catch_signals();	/* the driver may have reset them again */
	g->started = true;
	fd = connect_agent(spec.agent_socket, fc.t_create + CONNECT_WAIT_S);
	if (fd < 0) {
		if (interrupted)
			goto interrupted;
		set_why(g, "%s: cannot connect to the agent channel: %s",
			 spec.agent_socket, strerror(errno));
		goto setup_fail;
	}
	deadline = fc.t_create + r->host_timeout_s;
	next_host = fc.t_create;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[16384];
		double now;
		ssize_t n;

		if (interrupted)
			goto interrupted;
		now = util_now();
		if (now >= next_host) {
			host_line(r, g, fc.samples);
			next_host = now + r->scn.interval_ms / 1000.0;
		}
		if (now > deadline ||
		    (!g->have_hello && now > fc.t_create + HELLO_WAIT_S) ||
		    (t_result && now > t_result + POWEROFF_WAIT_S)) {
			g->timeout = true;
			break;
		}
		if (poll(&p, 1, 50) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;	/* QEMU closed the channel: powered off */
		stream_feed(&g->st, buf, n, on_line, &fc);
		if (g->have_result && !t_result)
			t_result = util_now();
	}
	stream_finish(&g->st, on_line, &fc);
	g->run_s = util_now() - fc.t_create;
	close(fd);
	guest_cleanup(r);
	fclose(fc.samples);
	close_rejected(&fc, g);
	remove_disks(r, g);
	check_console(spec.console_log, g);
	free(xml);
	classify(r, g);
	msg(r, "%s: %s in %.1f s (boot %.2f s)", gname,
	    g->pass ? "pass" : "FAIL", g->run_s, g->boot_s);
	return;

interrupted:
	g->interrupted = true;
	goto failed;
setup_fail:
	g->setup_failed = true;
failed:
	if (fd >= 0)
		close(fd);
	guest_cleanup(r);
	if (fc.samples)
		fclose(fc.samples);
	close_rejected(&fc, g);
	remove_disks(r, g);
	free(xml);
	classify(r, g);
	if (g->setup_failed)
		msg(r, "%s: %s", gname, g->why);
}

/* ---- results ---- */

static uint64_t vm_counter(const struct guest_res *g, const char *name,
			   bool *has)
{
	uint64_t v = 0;

	*has = g->have_sample && stream_counter(&g->last, name, &v);
	return v;
}

/* The value of metric @m for guest @g; false when not measured. */
static bool guest_metric(const struct guest_res *g, const char *m,
			 double *out)
{
	bool h1, h2;
	uint64_t a, b;
	unsigned int i;

	if (!strcmp(m, "write_pages_per_io") ||
	    !strcmp(m, "read_pages_per_io")) {
		bool w = m[0] == 'w';

		a = vm_counter(g, w ? "pswpout" : "pswpin", &h1);
		b = vm_counter(g, w ? "nrswpout" : "nrswpin", &h2);
		if (!h1 || !h2 || !b)
			return false;
		*out = (double)a / b;
		return true;
	}
	if (!strcmp(m, "pswpout") || !strcmp(m, "pswpin") ||
	    !strcmp(m, "nrswpout") || !strcmp(m, "nrswpin")) {
		a = vm_counter(g, m, &h1);
		*out = a;
		return h1;
	}
	if (!strcmp(m, "pages_verified") || !strcmp(m, "pages_corrupt")) {
		*out = m[6] == 'v' ? g->pages_verified : g->pages_corrupt;
		return g->have_result;
	}
	if (!strcmp(m, "pages_failed") || !strcmp(m, "pages_failed_distinct")) {
		*out = m[12] ? g->pages_failed_distinct : g->pages_failed;
		return g->have_result;
	}
	if (!strcmp(m, "swap_read_errors") || !strcmp(m, "swap_write_errors")) {
		*out = m[5] == 'r' ? g->swap_read_errors : g->swap_write_errors;
		return g->started;
	}
	if (!strcmp(m, "boot_seconds")) {
		*out = g->boot_s;
		return g->have_hello;
	}
	if (!strcmp(m, "workload_seconds")) {
		*out = 0;
		for (i = 0; i < (unsigned int)g->nphases; i++)
			*out += g->phase[i].seconds;
		return g->nphases > 0;
	}
	if (!strcmp(m, "device_write_ios") || !strcmp(m, "device_read_ios")) {
		*out = 0;
		for (i = 0; i < g->last.nblk; i++)
			*out += m[7] == 'w' ? g->last.blk[i].wr_ios :
				g->last.blk[i].rd_ios;
		return g->have_sample && g->last.nblk;
	}
	if (!strcmp(m, "host_write_requests") ||
	    !strcmp(m, "host_read_requests")) {
		*out = 0;
		for (i = 0; i < DOMAIN_MAX_DISKS; i++)
			*out += m[5] == 'w' ? g->host[i].wr_req :
				g->host[i].rd_req;
		return g->have_host;
	}
	return false;
}

/* Mean/stddev/CI of metric @m over the repeats of kernel @k. */
static bool kernel_desc(const struct run *r, enum scn_kernel k,
			const char *m, struct stats_desc *d)
{
	double x[MAX_REPEAT];
	size_t n = 0;
	int i;

	for (i = 0; i < r->nres; i++)
		if (r->res[i].kernel == k &&
		    guest_metric(&r->res[i], m, &x[n]))
			n++;
	if (!n)
		return false;
	stats_describe(x, n, d);
	return true;
}

/* Mean/stddev/CI of the time of phase @idx over the repeats of @k. */
static bool phase_desc(const struct run *r, enum scn_kernel k, int idx,
		       struct stats_desc *d)
{
	double x[MAX_REPEAT];
	size_t n = 0;
	int i;

	for (i = 0; i < r->nres; i++)
		if (r->res[i].kernel == k && idx < r->res[i].nphases)
			x[n++] = r->res[i].phase[idx].seconds;
	if (!n)
		return false;
	stats_describe(x, n, d);
	return true;
}

/* Patched / baseline, paired by repeat number. */
static bool ratio_desc(const struct run *r, const char *m,
		       struct stats_desc *d)
{
	double x[MAX_REPEAT], a, b;
	size_t n = 0;
	int i, j;

	for (i = 0; i < r->nres; i++) {
		if (r->res[i].kernel != KERNEL_PATCHED ||
		    !guest_metric(&r->res[i], m, &a))
			continue;
		for (j = 0; j < r->nres; j++)
			if (r->res[j].kernel == KERNEL_BASELINE &&
			    r->res[j].rep == r->res[i].rep)
				break;
		if (j == r->nres || !guest_metric(&r->res[j], m, &b) || !b)
			continue;
		x[n++] = a / b;
	}
	if (!n)
		return false;
	stats_describe(x, n, d);
	return true;
}

static json_t *desc_json(const struct stats_desc *d)
{
	json_t *o = json_pack("{sIsfsf}", "n", (json_int_t)d->n, "mean",
			      d->mean, "stddev", d->stddev);

	json_object_set_new(o, "ci95", d->has_ci ? json_real(d->ci95) :
			    json_null());
	return o;
}

struct expect_res {
	bool pass;
	bool skipped;
	bool measured;
	double value;
	char what[256];
};

static void eval_expect(const struct run *r, const struct scn_expect *e,
			struct expect_res *x)
{
	struct stats_desc d;
	int i;

	x->pass = true;
	x->measured = true;
	x->skipped = false;
	x->what[0] = '\0';
	/* --kernels left out a kernel the expectation is about */
	if ((e->on == EXPECT_BASELINE && !r->scn.kernel[KERNEL_BASELINE]) ||
	    (e->on == EXPECT_PATCHED && !r->scn.kernel[KERNEL_PATCHED]) ||
	    (e->on == EXPECT_RATIO && !(r->scn.kernel[KERNEL_BASELINE] &&
					r->scn.kernel[KERNEL_PATCHED]))) {
		x->skipped = true;
		x->measured = false;
		snprintf(x->what, sizeof(x->what), "kernel not run");
		return;
	}
	if (e->on == EXPECT_EACH) {
		for (i = 0; i < r->nres; i++) {
			const struct guest_res *g = &r->res[i];
			char name[32];
			double v;

			if (!guest_metric(g, e->metric, &v)) {
				x->pass = x->measured = false;
				snprintf(x->what, sizeof(x->what),
					 "%s: %s not measured",
					 guest_name(g, name, sizeof(name)),
					 e->metric);
				return;
			}
			x->value = v;
			if ((e->has_min && v < e->min) ||
			    (e->has_max && v > e->max)) {
				x->pass = false;
				snprintf(x->what, sizeof(x->what),
					 "%s: %s = %.3f",
					 guest_name(g, name, sizeof(name)),
					 e->metric, v);
				return;
			}
		}
		return;
	}
	if (!(e->on == EXPECT_RATIO ? ratio_desc(r, e->metric, &d) :
	      kernel_desc(r, e->on == EXPECT_BASELINE ? KERNEL_BASELINE :
			  KERNEL_PATCHED, e->metric, &d))) {
		x->pass = x->measured = false;
		snprintf(x->what, sizeof(x->what), "%s not measured",
			 e->metric);
		return;
	}
	x->value = d.mean;
	if ((e->has_min && d.mean < e->min) ||
	    (e->has_max && d.mean > e->max)) {
		x->pass = false;
		snprintf(x->what, sizeof(x->what), "%s = %.3f", e->metric,
			 d.mean);
	}
}

static const char *expect_on_name(enum scn_expect_on on)
{
	static const char *const n[] = { "each", "baseline", "patched",
					 "ratio" };
	return n[on];
}

static json_t *guest_json(const struct run *r, const struct guest_res *g)
{
	static const char *const vmk[] = {
		"pswpout", "nrswpout", "pswpin", "nrswpin", NULL };
	static const char *const extra[] = {
		"device_write_ios", "device_read_ios", "host_write_requests",
		"host_read_requests", NULL };
	json_t *o, *vm, *ph, *all, *stj;
	const char *const *k;
	double v;
	bool has;
	unsigned int i;
	uint64_t c;

	(void)r;
	o = json_pack("{sssiss}", "kernel", scn_kernel_name(g->kernel),
		      "rep", g->rep, "status", g->pass ? "pass" : "fail");
	json_object_set_new(o, "reason", json_string(g->why));
	json_object_set_new(o, "release", json_string(g->release));
	vm = json_object();
	for (k = vmk; *k; k++) {
		c = vm_counter(g, *k, &has);
		json_object_set_new(vm, *k, has ? json_integer(c) :
				    json_null());
	}
	json_object_set_new(o, "vmstat", vm);
	all = json_object();
	for (i = 0; g->have_sample && i < g->last.ncounters; i++)
		json_object_set_new(all, g->last.counters[i].name,
			json_integer(g->last.counters[i].value));
	json_object_set_new(o, "vmstat_all", all);
	json_object_set_new(o, "write_pages_per_io",
		guest_metric(g, "write_pages_per_io", &v) ? json_real(v) :
		json_null());
	json_object_set_new(o, "read_pages_per_io",
		guest_metric(g, "read_pages_per_io", &v) ? json_real(v) :
		json_null());
	json_object_set_new(o, "pages_written", g->have_result ?
			    json_integer(g->pages_written) : json_null());
	json_object_set_new(o, "pages_verified", g->have_result ?
			    json_integer(g->pages_verified) : json_null());
	json_object_set_new(o, "pages_corrupt", g->have_result ?
			    json_integer(g->pages_corrupt) : json_null());
	json_object_set_new(o, "pages_failed", g->have_result ?
			    json_integer(g->pages_failed) : json_null());
	json_object_set_new(o, "pages_failed_distinct", g->have_result ?
			    json_integer(g->pages_failed_distinct) :
			    json_null());
	json_object_set_new(o, "swap_read_errors",
			    json_integer(g->swap_read_errors));
	json_object_set_new(o, "swap_write_errors",
			    json_integer(g->swap_write_errors));
	json_object_set_new(o, "boot_seconds", g->have_hello ?
			    json_real(g->boot_s) : json_null());
	json_object_set_new(o, "guest_uptime_at_hello_seconds",
			    g->have_hello ? json_real(g->hello_uptime_s) :
			    json_null());
	json_object_set_new(o, "workload_seconds",
		guest_metric(g, "workload_seconds", &v) ? json_real(v) :
		json_null());
	json_object_set_new(o, "run_seconds", json_real(g->run_s));
	json_object_set_new(o, "agent_cpu_seconds", g->has_agent_cpu ?
			    json_real(g->agent_cpu_ns / 1e9) : json_null());
	for (k = extra; *k; k++)
		json_object_set_new(o, *k, guest_metric(g, *k, &v) ?
				    json_integer((json_int_t)v) :
				    json_null());
	ph = json_array();
	for (i = 0; i < (unsigned int)g->nphases; i++)
		json_array_append_new(ph, json_pack("{sssfsIsI}",
			"name", g->phase[i].name,
			"seconds", g->phase[i].seconds,
			"pages", (json_int_t)g->phase[i].pages,
			"corrupt", (json_int_t)g->phase[i].corrupt));
	json_object_set_new(o, "phases", ph);
	json_object_set_new(o, "console_problems",
			    json_integer(g->console_problems));
	json_object_set_new(o, "console_first_problem",
			    g->console_problems ?
			    json_string(g->console_first) : json_null());
	json_object_set_new(o, "console_splats",
			    console_scan_json(&g->console));
	json_object_set_new(o, "debug", json_boolean(r->debug));
	json_object_set_new(o, "oom_kills", json_integer(g->oom_kills));
	json_object_set_new(o, "timeout", json_boolean(g->timeout));
	stj = json_pack("{sIsIsIsIsIsIsIsIss}",
		"lines", (json_int_t)g->st.lines,
		"ok", (json_int_t)g->st.ok,
		"malformed", (json_int_t)g->st.malformed,
		"too_long", (json_int_t)g->st.too_long,
		"absurd", (json_int_t)g->st.absurd,
		"seq_gaps", (json_int_t)g->st.seq_gaps,
		"seq_missing", (json_int_t)g->st.seq_missing,
		"seq_dups", (json_int_t)g->st.seq_dups,
		"last_error", g->st.last_error);
	json_object_set_new(o, "stream", stj);
	json_object_set_new(o, "dir", json_string(g->dir));
	return o;
}

static const char *const table_metrics[] = {
	"pswpout", "nrswpout", "write_pages_per_io", "pswpin", "nrswpin",
	"read_pages_per_io", "device_write_ios", "device_read_ios",
	"host_write_requests", "host_read_requests", "pages_verified",
	"pages_corrupt", "pages_failed", "boot_seconds", "workload_seconds",
	NULL,
};

static json_t *summary_json(struct run *r, const struct expect_res *xr,
			    int code)
{
	json_t *o, *arr, *cmp, *ex;
	struct stats_desc d;
	const char *const *m;
	int i, k;

	o = json_pack("{sssssssi}", "scenario", r->scn.name, "run_id", r->id,
		      "dir", r->dir, "repeat", (int)r->repeat);
	json_object_set_new(o, "accel", json_string(r->kvm ? "kvm" : "tcg"));
	json_object_set_new(o, "debug", json_boolean(r->debug));
	json_object_set_new(o, "guest", json_pack("{sisi}", "memory_mb",
		(int)r->memory_mb, "cpus", (int)r->cpus));
	arr = json_array();
	for (i = 0; i < r->nres; i++)
		json_array_append_new(arr, guest_json(r, &r->res[i]));
	json_object_set_new(o, "results", arr);
	cmp = json_object();
	for (m = table_metrics; *m; m++) {
		json_t *e = json_object();

		for (k = 0; k < KERNEL_COUNT; k++)
			if (kernel_desc(r, k, *m, &d))
				json_object_set_new(e, scn_kernel_name(k),
						    desc_json(&d));
		if (ratio_desc(r, *m, &d))
			json_object_set_new(e, "ratio", desc_json(&d));
		json_object_set_new(cmp, *m, e);
	}
	json_object_set_new(o, "comparison", cmp);
	ex = json_array();
	for (i = 0; i < r->scn.nexpect; i++) {
		const struct scn_expect *e = &r->scn.expect[i];
		json_t *j = json_pack("{sssssbsb}", "metric", e->metric,
				      "kernel", expect_on_name(e->on),
				      "pass", xr[i].pass,
				      "skipped", xr[i].skipped);

		json_object_set_new(j, "min", e->has_min ? json_real(e->min) :
				    json_null());
		json_object_set_new(j, "max", e->has_max ? json_real(e->max) :
				    json_null());
		json_object_set_new(j, "value", xr[i].measured ?
				    json_real(xr[i].value) : json_null());
		json_object_set_new(j, "detail", json_string(xr[i].what));
		json_array_append_new(ex, j);
	}
	json_object_set_new(o, "expectations", ex);
	json_object_set_new(o, "status", json_string(
		code == EXIT_INTERRUPTED ? "interrupted" :
		code ? "fail" : "pass"));
	json_object_set_new(o, "exit_code", json_integer(code));
	return o;
}

static void fmt_cell(char *buf, size_t len, const struct stats_desc *d,
		     bool have, int decimals)
{
	if (!have)
		snprintf(buf, len, "-");
	else if (d->n > 1 && d->has_ci)
		snprintf(buf, len, "%.*f ±%.*f", decimals, d->mean, decimals,
			 d->ci95);
	else
		snprintf(buf, len, "%.*f", decimals, d->mean);
}

static void print_table(struct run *r, const struct expect_res *xr,
			int code)
{
	static const char *const labels[] = {
		"pages swapped out", "swap write I/Os", "write pages/I/O",
		"pages swapped in", "swap read I/Os", "read pages/I/O",
		"device write I/Os", "device read I/Os",
		"host write requests", "host read requests",
		"pages verified", "pages corrupt", "pages failed (SIGBUS)",
		"boot s (to hello)",
		"workload s",
	};
	const char *const *m;
	struct stats_desc d;
	char cell[64];
	int i, k, dec;
	bool both = r->scn.kernel[0] && r->scn.kernel[1];

	printf("\nscenario %s: %s, %u MiB, %u CPUs, %u run%s per kernel\n",
	       r->scn.name, r->kvm ? "KVM" : "TCG", r->memory_mb, r->cpus,
	       r->repeat, r->repeat > 1 ? "s" : "");
	printf("%-22s", "");
	for (k = 0; k < KERNEL_COUNT; k++)
		if (r->scn.kernel[k])
			printf(" %20s", scn_kernel_name(k));
	if (both)
		printf(" %18s", "patched/baseline");
	printf("\n");
	for (m = table_metrics, i = 0; *m; m++, i++) {
		dec = strstr(*m, "per_io") || strstr(*m, "seconds") ? 2 : 0;
		printf("%-22s", labels[i]);
		for (k = 0; k < KERNEL_COUNT; k++) {
			if (!r->scn.kernel[k])
				continue;
			fmt_cell(cell, sizeof(cell), &d,
				 kernel_desc(r, k, *m, &d), dec);
			printf(" %20s", cell);
		}
		if (both) {
			fmt_cell(cell, sizeof(cell), &d,
				 ratio_desc(r, *m, &d), 2);
			printf(" %18s", cell);
		}
		printf("\n");
	}
	for (i = 0; i < r->scn.nphases; i++) {
		char label[48];
		struct stats_desc a, b;
		bool ha = false, hb = false;

		snprintf(label, sizeof(label), "  %d %s s", i + 1,
			 scn_phase_name(r->scn.phase[i].kind));
		printf("%-22s", label);
		for (k = 0; k < KERNEL_COUNT; k++) {
			if (!r->scn.kernel[k])
				continue;
			if (k == KERNEL_BASELINE)
				ha = phase_desc(r, k, i, &a);
			else
				hb = phase_desc(r, k, i, &b);
			fmt_cell(cell, sizeof(cell), k ? &b : &a,
				 k ? hb : ha, 2);
			printf(" %20s", cell);
		}
		if (both && ha && hb && a.mean > 0)
			printf(" %18.2f", b.mean / a.mean);
		printf("\n");
	}
	for (i = 0; i < r->nres; i++) {
		const struct guest_res *g = &r->res[i];

		printf("%s-%d: %s%s%s\n", scn_kernel_name(g->kernel), g->rep,
		       g->pass ? "pass" : "FAIL", g->why[0] ? ": " : "",
		       g->why);
		console_scan_print(stdout, &g->console, "  ");
		if (g->st.malformed || g->st.seq_gaps || g->st.absurd ||
		    g->st.too_long)
			printf("  stream: %llu malformed, %llu too long, %llu absurd, %llu seq gaps (%llu lines lost)\n",
			       (unsigned long long)g->st.malformed,
			       (unsigned long long)g->st.too_long,
			       (unsigned long long)g->st.absurd,
			       (unsigned long long)g->st.seq_gaps,
			       (unsigned long long)g->st.seq_missing);
	}
	for (i = 0; i < r->scn.nexpect; i++) {
		const struct scn_expect *e = &r->scn.expect[i];

		printf("expect %s %s", expect_on_name(e->on), e->metric);
		if (e->has_min)
			printf(" >= %g", e->min);
		if (e->has_max)
			printf(" <= %g", e->max);
		printf(": %s%s%s\n", xr[i].skipped ? "skipped" :
		       xr[i].pass ? "ok" : "FAILED",
		       xr[i].what[0] ? ", " : "", xr[i].what);
	}
	printf("%s (exit %d); recorded in %s\n",
	       code == EXIT_INTERRUPTED ? "INTERRUPTED" : code ? "FAIL" :
	       "PASS", code, r->dir);
}

static int finish(struct run *r)
{
	struct expect_res xr[SCN_MAX_EXPECT];
	char path[4200], *text;
	int code = EXIT_OK, i, worst = EXIT_OK;
	json_t *sum;

	/* the worst outcome decides: setup > corrupt > guest > expect */
	for (i = 0; i < r->nres; i++) {
		int c = r->res[i].exit_class;

		if (c == EXIT_INTERRUPTED || c == EXIT_SETUP)
			worst = c == EXIT_INTERRUPTED ? c :
				(worst == EXIT_INTERRUPTED ? worst : c);
		else if (c == EXIT_CORRUPT && worst != EXIT_SETUP &&
			 worst != EXIT_INTERRUPTED)
			worst = c;
		else if (c == EXIT_GUEST && worst == EXIT_OK)
			worst = c;
	}
	code = worst;
	for (i = 0; i < r->scn.nexpect; i++) {
		eval_expect(r, &r->scn.expect[i], &xr[i]);
		if (!xr[i].pass && code == EXIT_OK)
			code = EXIT_EXPECT;
	}
	if (code == EXIT_OK && !r->nres)
		code = EXIT_SETUP;
	if (interrupted)
		code = EXIT_INTERRUPTED;
	sum = summary_json(r, xr, code);
	text = json_dumps(sum, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			  JSON_REAL_PRECISION(6));
	snprintf(path, sizeof(path), "%s/summary.json", r->dir);
	if (!text || util_write_file_atomic(path, text, strlen(text), 0644))
		msg(r, "%s: %s", path, strerror(errno));
	if (r->json && text)
		printf("%s\n", text);
	else
		print_table(r, xr, code);
	fflush(stdout);
	free(text);
	json_decref(sum);
	write_state(r, "done");
	return code;
}

/* ---- options and setup ---- */

/*
 * A guest of a killed swapctl was destroyed: its run is over, so mark it
 * done for `swapctl top` (the socket is runs/<id>/<guest>/agent.sock).
 */
static void leftover(const char *sock, void *arg)
{
	char dir[4096], *p, c;

	(void)arg;
	snprintf(dir, sizeof(dir), "%s", sock);
	p = strrchr(dir, '/');
	if (p)
		*p = '\0';
	p = strrchr(dir, '/');
	if (!p || strcmp(sock + strlen(sock) - 11, "/agent.sock"))
		return;
	strcpy(p, "/state");
	if (util_exists(dir))
		util_write_file_atomic(dir, "done\n", 5, 0644);
	/* and its big files: the NFS export and the disk images */
	snprintf(dir, sizeof(dir), "%s", sock);
	p = strrchr(dir, '/');
	snprintf(p, dir + sizeof(dir) - p, "/nfs/export");
	util_rm_rf(dir);
	for (c = 'a'; c < 'a' + DOMAIN_MAX_DISKS; c++) {
		snprintf(p, dir + sizeof(dir) - p, "/disk-vd%c.img", c);
		unlink(dir);
	}
}

static int parse_kernels_opt(struct run *r, const char *arg)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	r->scn.kernel[0] = r->scn.kernel[1] = false;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "baseline"))
			r->scn.kernel[KERNEL_BASELINE] = true;
		else if (!strcmp(tok, "patched"))
			r->scn.kernel[KERNEL_PATCHED] = true;
		else
			return -1;
	}
	return r->scn.kernel[0] || r->scn.kernel[1] ? 0 : -1;
}

static bool read_cpuinfo_kvm(struct run *r)
{
	char *cpuinfo = util_read_file("/proc/cpuinfo", NULL);
	bool warn, kvm;

	kvm = domain_pick_accel(r->cfg->accel, cpuinfo, "/dev/kvm",
				r->accel_why, sizeof(r->accel_why), &warn);
	free(cpuinfo);
	if (warn)
		fprintf(stderr, "swapctl run: warning: %s (%s)\n", r->accel_why,
			r->cfg->source[0] ? r->cfg->source : "the default");
	return kvm;
}

/*
 * What run checks beyond the scenario, before anything starts: the work
 * dir (not inside the repository; quotable in ganesha.conf when an NFS
 * backend needs it), the kernel command line (append + --append).
 */
static int check_setup(struct run *r, const char *append, char *err,
		       size_t errlen)
{
	const struct swapctl_config *cfg = r->cfg;
	const char *from = cfg->source[0] ? cfg->source : "the default";
	const char *bad;

	if (config_check_workdir(cfg, err, errlen))
		return -1;
	bad = ganesha_bad_char(cfg->workdir);
	if (scn_has_nfs(&r->scn) && bad) {
		snprintf(err, errlen,
			 "%.1024s: workdir %.1024s (from %.1024s) has a '%c', which ganesha.conf cannot quote: the nfsfile backend needs a work dir without '\"', '\\' or control bytes",
			 r->scn.file, cfg->workdir, from,
			 *bad >= ' ' ? *bad : '?');
		return -1;
	}
	/* loglevel=5: warnings and worse reach the console log */
	/* page_owner=on: a debug kernel's Bad page report names the owner */
	snprintf(r->cmdline, sizeof(r->cmdline),
		 "console=ttyS0 panic=-1 loglevel=5%s%s%s%s%s",
		 r->debug ? " page_owner=on" : "",
		 cfg->append[0] ? " " : "", cfg->append,
		 append && *append ? " " : "", append ? append : "");
	return 0;
}

/* The disks of a guest, as make_disks() creates them. */
static json_t *dry_disks(const struct run *r)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < r->scn.nswap; i++) {
		const struct scn_swap *sw = &r->scn.swap[i];

		if (!sw->dev[0])
			continue;
		json_array_append_new(a, json_pack("{sssisssI}",
			"dev", sw->dev, "swap_index", i,
			"backend", scn_swap_type_name(sw->type),
			"size_mb", (json_int_t)(sw->type == SWAP_EXT4FILE ?
						 sw->disk_mb : sw->size_mb)));
	}
	return a;
}

/*
 * --dry-run: everything run would start, without starting it: the
 * accelerator and why, the libvirt URI, the guest's size, command line
 * and disks, the plan, each domain's XML and the NFS server's
 * configuration. --json: the same as one object.
 */
static int dry_run(struct run *r)
{
	struct guest_res g = { 0 };
	char paths[3 + DOMAIN_MAX_DISKS][4200], name[256], nfs[4200];
	char exp[4300], rec[4300];
	struct domain_spec spec;
	json_t *o, *doms, *disks, *d;
	char *xml, *conf = NULL;
	size_t i;
	int k, ret = EXIT_OK;

	snprintf(r->id, sizeof(r->id), "YYYYmmdd-HHMMSS-%s", r->scn.name);
	util_path(r->dir, sizeof(r->dir), "%s/runs/%s", r->cfg->workdir,
		  r->id);
	config_libvirt_uri(r->cfg, r->uri, sizeof(r->uri));
	disks = dry_disks(r);
	o = json_pack("{sbsssssssssisiss}", "dry_run", 1,
		      "scenario", r->scn.name, "accel", r->kvm ? "kvm" : "tcg",
		      "accel_why", r->accel_why, "uri", r->uri,
		      "memory_mb", (int)r->memory_mb, "cpus", (int)r->cpus,
		      "cmdline", r->cmdline);
	doms = json_array();
	if (!o || !doms || !disks)
		goto oom;
	json_object_set_new(o, "disks", disks);
	json_object_set_new(o, "plan", json_string(r->plan));
	json_object_set_new(o, "domains", doms);
	for (k = 0; k < KERNEL_COUNT; k++) {
		if (!r->scn.kernel[k])
			continue;
		g.kernel = k;
		g.rep = 1;
		util_path(g.dir, sizeof(g.dir), "%s/%s-1", r->dir,
			  scn_kernel_name(k));
		fill_spec(r, &g, &spec, paths, name, sizeof(name));
		xml = domain_xml(&spec);
		if (!xml)
			goto oom;
		json_array_append_new(doms, json_pack("{ss+sssssbss}",
			"guest", scn_kernel_name(k), "-1",
			"kernel", scn_kernel_name(k),
			"bzImage", r->kernel_path[k],
			"built", !access(r->kernel_path[k], R_OK),
			"xml", xml));
		free(xml);
	}
	if (scn_has_nfs(&r->scn)) {
		snprintf(nfs, sizeof(nfs), "%s/%s-1/nfs", r->dir,
			 scn_kernel_name(r->scn.kernel[KERNEL_BASELINE] ?
					 KERNEL_BASELINE : KERNEL_PATCHED));
		snprintf(exp, sizeof(exp), "%s/export", nfs);
		snprintf(rec, sizeof(rec), "%s/recovery", nfs);
		conf = ganesha_config(exp, rec, r->cfg->nfs_port);
		if (!conf)
			goto oom;
		json_object_set_new(o, "nfs", json_pack("{sisssss+s}",
			"port", (int)r->cfg->nfs_port, "export", exp,
			"ganesha_conf", conf, "conf_path", nfs,
			"/ganesha.conf"));
	} else {
		json_object_set_new(o, "nfs", json_null());
	}
	if (r->json) {
		if (json_dumpf(o, stdout, JSON_INDENT(2)) || puts("") == EOF)
			ret = EXIT_OUTPUT;
		goto out;
	}
	printf("# accelerator: %s (%s)\n", r->kvm ? "KVM" : "TCG",
	       r->accel_why);
	printf("# libvirt URI: %s\n", r->uri);
	printf("# guest: %u MiB, %u vCPU%s; kernel command line: %s\n",
	       r->memory_mb, r->cpus, r->cpus == 1 ? "" : "s", r->cmdline);
	json_array_foreach(disks, i, d)
		printf("# disk %s: %lld MiB sparse image for swap[%lld] (%s)\n",
		       json_string_value(json_object_get(d, "dev")),
		       (long long)json_integer_value(json_object_get(d, "size_mb")),
		       (long long)json_integer_value(json_object_get(d, "swap_index")),
		       json_string_value(json_object_get(d, "backend")));
	printf("\n# plan (%s/plan.txt and /swapctl/plan in each initrd)\n%s",
	       r->dir, r->plan);
	json_array_foreach(doms, i, d)
		printf("\n# domain XML of %s%s\n%s",
		       json_string_value(json_object_get(d, "guest")),
		       json_is_true(json_object_get(d, "built")) ? "" :
		       " (the kernel is not built yet)",
		       json_string_value(json_object_get(d, "xml")));
	if (conf)
		printf("\n# NFS: ganesha.nfsd on 127.0.0.1:%u, export /export; %s/ganesha.conf:\n%s",
		       r->cfg->nfs_port, nfs, conf);
out:
	free(conf);
	json_decref(o);
	return ret;
oom:
	fprintf(stderr, "swapctl run: --dry-run: %s\n", strerror(errno));
	ret = EXIT_FAILURE_GENERIC;
	goto out;
}

#define STR_(x) #x
#define STR(x) STR_(x)

int cmd_run(int argc, char **argv, struct swapctl_config *cfg)
{
	const char *kernels_opt = NULL, *bk = NULL, *pk = NULL, *ird = NULL;
	const char *append = NULL;
	bool json = false, dry = false, keep = false, debug = false;
	int repeat = 0, timeout = 0;
	struct popt opts[] = {
		OPT_BOOL(0, "json", &json, "print the results as one JSON object"),
		OPT_BOOL(0, "dry-run", &dry,
			 "print the plan and the domain XML, start nothing"),
		OPT_INT(0, "repeat", &repeat, "N",
			"run each kernel N times, interleaved (A B A B)", 1,
			MAX_REPEAT),
		OPT_STRING(0, "kernels", &kernels_opt, "LIST",
			   "baseline, patched or baseline,patched"),
		OPT_INT(0, "timeout", &timeout, "S",
			"host time limit per guest in seconds (default: the scenario's timeout_s + "
			STR(BOOT_MARGIN_S) ")", 1, 86400),
		OPT_STRING(0, "baseline-kernel", &bk, "FILE",
			   "boot this bzImage instead of the built baseline"),
		OPT_STRING(0, "patched-kernel", &pk, "FILE",
			   "boot this bzImage instead of the built patched kernel"),
		OPT_STRING(0, "initramfs", &ird, "FILE",
			   "use this initramfs instead of the built one"),
		OPT_STRING(0, "append", &append, "ARGS",
			   "add ARGS to the guest kernel command line (after swapctl.conf's append)"),
		OPT_BOOL(0, "keep-images", &keep,
			 "keep the swap disk images of each guest"),
		OPT_BOOL(0, "debug", &debug,
			 "boot the debug kernels (<workdir>/kernels/<variant>-debug/, from 'swapctl build --debug'); any splat fails"),
		OPT_END(),
	};
	struct popt_cmd cmd = {
		.name = "run", .args = "SCENARIO.json", .min_args = 1,
		.max_args = 1, .opts = opts,
		.desc =
		"Boot the scenario's kernels (baseline, patched or both) in QEMU\n"
		"through libvirt, stream the guest's swap counters, record them\n"
		"under <workdir>/runs/<time>-<name>/ and compare the kernels.\n",
		.epilog =
		"exit codes: 0 all passed, 3 bad scenario, 4 setup error,\n"
		"7 an expectation failed, 8 corrupt pages, 9 guest panic/BUG/\n"
		"timeout/error, 130 interrupted. See swapctl(1) and\n"
		"swapctl-scenario(5).\n",
	};
	struct run *r;
	char err[8192], lockpath[4200];
	int n, k, rep, code, lockfd = -1;

	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if (append && config_check_append(append, err, sizeof(err)))
		return popt_error(&cmd, "option '--append': %s", err);
	r = calloc(1, sizeof(*r));
	if (!r)
		return EXIT_FAILURE_GENERIC;
	r->cfg = cfg;
	r->json = json;
	r->dry_run = dry;
	r->keep_images = keep;
	r->debug = debug;
	if (scenario_load(&r->scn, scenario_find(argv[0], lockpath,
						 sizeof(lockpath)),
			  err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		free(r);
		return EXIT_CONFIG;
	}
	if (kernels_opt && parse_kernels_opt(r, kernels_opt)) {
		free(r);
		return popt_error(&cmd, "option '--kernels': '%s' is not baseline, patched or baseline,patched",
				  kernels_opt);
	}
	r->memory_mb = r->scn.memory_mb ? r->scn.memory_mb :
		cfg->guest_memory_mb ? cfg->guest_memory_mb : 256;
	r->cpus = r->scn.cpus ? r->scn.cpus :
		cfg->guest_cpus ? cfg->guest_cpus : 1;
	if (scenario_check_fit(&r->scn, r->memory_mb, err, sizeof(err)) ||
	    scenario_check_host(&r->scn, r->memory_mb, r->cpus, cfg->source,
				err, sizeof(err)) ||
	    check_setup(r, append, err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		free(r);
		return EXIT_CONFIG;
	}
	r->repeat = repeat ? (unsigned int)repeat : r->scn.repeat;
	r->host_timeout_s = timeout ? (unsigned int)timeout :
		r->scn.timeout_s + BOOT_MARGIN_S;
	r->kvm = read_cpuinfo_kvm(r);
	snprintf(r->kernel_path[KERNEL_BASELINE], 4096, "%s",
		 bk ? bk : "");
	snprintf(r->kernel_path[KERNEL_PATCHED], 4096, "%s", pk ? pk : "");
	if (!bk && util_path(r->kernel_path[KERNEL_BASELINE], 4096,
			     "%s/kernels/baseline%s/bzImage", cfg->workdir,
			     debug ? "-debug" : ""))
		goto toolong;
	if (!pk && util_path(r->kernel_path[KERNEL_PATCHED], 4096,
			     "%s/kernels/%s%s/bzImage", cfg->workdir,
			     cfg->series, debug ? "-debug" : ""))
		goto toolong;
	if (ird)
		snprintf(r->initramfs, sizeof(r->initramfs), "%s", ird);
	else if (util_path(r->initramfs, sizeof(r->initramfs),
			   "%s/kernels/initramfs.cpio", cfg->workdir))
		goto toolong;
	if (r->scn.kbuild[0]) {
		char log[4200], err[4400];

		snprintf(log, sizeof(log), "%s/logs/kbuild-%s.log",
			 cfg->workdir, r->scn.kbuild);
		if (kbuild_prepare(cfg->workdir, r->scn.kbuild, log,
				   r->dry_run, r->scn.kbuild_src,
				   sizeof(r->scn.kbuild_src),
				   r->scn.kbuild_out,
				   sizeof(r->scn.kbuild_out), err,
				   sizeof(err))) {
			fprintf(stderr, "swapctl run: %s: %s\n", r->scn.file,
				err);
			free(r);
			return EXIT_SETUP;
		}
	}
	r->plan = plan_text(&r->scn, r->memory_mb, cfg->nfs_port);
	if (!r->plan) {
		free(r);
		return EXIT_FAILURE_GENERIC;
	}
	if (plan_check(r->scn.file, r->plan, err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		free(r->plan);
		free(r);
		return EXIT_CONFIG;
	}
	if (r->dry_run) {
		code = dry_run(r);
		free(r->plan);
		free(r);
		return code;
	}
	for (k = 0; k < KERNEL_COUNT; k++) {
		if (r->scn.kernel[k] && access(r->kernel_path[k], R_OK)) {
			fprintf(stderr, "swapctl run: %s: %s (run 'swapctl build --all%s' first)\n",
				r->kernel_path[k], strerror(errno),
				debug ? " --debug" : "");
			code = EXIT_SETUP;
			goto out_free;
		}
	}
	if (access(r->initramfs, R_OK)) {
		fprintf(stderr, "swapctl run: %s: %s (run 'swapctl build' first)\n",
			r->initramfs, strerror(errno));
		code = EXIT_SETUP;
		goto out_free;
	}

	catch_signals();

	/*
	 * One run at a time per work directory: the embedded driver allows
	 * one process per root, and two TCG guests would skew each other.
	 */
	util_path(lockpath, sizeof(lockpath), "%s/run.lock", cfg->workdir);
	util_mkdir_p(cfg->workdir, 0755);
	lockfd = util_lock(lockpath, "another swapctl run");
	if (lockfd < 0) {
		fprintf(stderr, "swapctl run: %s: %s\n", lockpath,
			strerror(errno));
		code = EXIT_SETUP;
		goto out_free;
	}
	if (interrupted) {
		code = EXIT_INTERRUPTED;
		goto out_free;
	}
	if (make_run_dir(r, err, sizeof(err)) ||
	    write_run_files(r, err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		code = EXIT_SETUP;
		goto out_free;
	}
	config_libvirt_uri(cfg, r->uri, sizeof(r->uri));
	msg(r, "run %s: connecting to %s", r->id, r->uri);
	r->vm = vm_open(r->uri, leftover, r, err, sizeof(err));
	/*
	 * Opening the embedded driver resets SIGTERM to its default (a
	 * SIGTERM during a run killed swapctl with the guest and ganesha
	 * still running): take the signals back.
	 */
	catch_signals();
	if (!r->vm) {
		fprintf(stderr, "swapctl run: %s\n", err);
		write_state(r, "done");
		code = interrupted ? EXIT_INTERRUPTED : EXIT_SETUP;
		goto out_free;
	}
	r->res = calloc(r->repeat * KERNEL_COUNT, sizeof(*r->res));
	if (!r->res) {
		code = EXIT_FAILURE_GENERIC;
		goto out_close;
	}
	for (rep = 1; rep <= (int)r->repeat && !interrupted; rep++) {
		for (k = 0; k < KERNEL_COUNT && !interrupted; k++) {
			struct guest_res *g;

			if (!r->scn.kernel[k])
				continue;
			g = &r->res[r->nres++];
			g->kernel = k;
			g->rep = rep;
			run_guest(r, g);
			if (g->setup_failed)
				break;
		}
		if (r->nres && r->res[r->nres - 1].setup_failed)
			break;
	}
	code = finish(r);
	if (interrupted) {
		msg(r, "interrupted by signal %d: guest destroyed, NFS server stopped",
		    (int)interrupted);
		code = EXIT_INTERRUPTED;
	}
out_close:
	guest_cleanup(r);
	vm_close(r->vm);
out_free:
	if (lockfd >= 0)
		close(lockfd);
	free(r->res);
	free(r->plan);
	free(r);
	return code;
toolong:
	fprintf(stderr, "swapctl run: %s: path too long\n", cfg->workdir);
	free(r);
	return EXIT_CONFIG;
}
