// SPDX-License-Identifier: GPL-2.0
/*
 * Guest fault injection. One process runs a 10 ms loop: it checks each
 * fault's trigger (a phase start, a time after the first phase, a number
 * of swap I/Os) and its end (duration_ms), and acknowledges phase starts
 * to the workload. What blocks (swapoff, swapon, memory for oom) runs in
 * a child of its own, so that the loop and the workload keep going.
 *
 * io_error mechanisms, per op (why: swapctl-scenario(5) FAULTS):
 *   read   dm-dust under the swap area, one 4 KiB block per swap slot,
 *          the bad slots listed before swapon, "enable" at the trigger
 *   write  dm-linear, replaced by dm-flakey with error_writes (every
 *          write fails, reads pass) for the duration
 *   both   fail_make_request on the swap device (debugfs probability,
 *          times, interval; make-it-fail)
 *
 * slab_error: failslab (debugfs failslab/), the workload's make-it-fail
 * with task-filter, ignore-gfp-wait for atomic_only, cache-filter for
 * caches (marked by slub_debug=A,<cache> on the kernel command line,
 * checked in /sys/kernel/slab/<cache>/failslab). failslab's times counts
 * down per failure: what it lost by the end is the injected count.
 *
 * A guest fault that cannot be set up (or undone) is reported in its end
 * line and in the shared progress (fault_error): the workload's result
 * is then "error" with that reason.
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
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dm.h"
#include "faults.h"
#include "json.h"

#define LOOP_MS		10
#define SYNC_WAIT_MS	5000
#define DEBUGFS		"/sys/kernel/debug"
#define FMR		DEBUGFS "/fail_make_request"
#define FAILSLAB	DEBUGFS "/failslab"
#define SLABS		"/sys/kernel/slab"

enum fstate { F_WAIT, F_ACTIVE, F_DONE };

struct frun {
	const struct gplan_fault *f;
	enum fstate state;
	uint64_t t_start;	/* ns */
	pid_t child;		/* the blocking part, 0: none */
	char detail[200];
	int64_t times0;		/* slab_error: failslab times at the start */
};

static const struct gplan *plan;
static int out;
static volatile sig_atomic_t stop;
static struct frun runs[GPLAN_MAX_FAULT];
static char names[GPLAN_MAX_SWAP][GPLAN_PATH_LEN + 64];
static pid_t workload;
static struct gu_progress *progress;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static __printf(3, 4) void event(const struct gplan_fault *f,
				 const char *state, const char *fmt, ...);
static __printf(4, 5) void event_n(const struct gplan_fault *f,
				   const char *state, int64_t injected,
				   const char *fmt, ...);

/*
 * {"type":"fault","name":..,"state":..,"index":..,"detail":..} and, when
 * @injected >= 0, "injected": the failures a slab_error injected.
 */
static void vevent(const struct gplan_fault *f, const char *state,
		   int64_t injected, const char *fmt, va_list ap)
{
	char line[GU_PIPE_LINE], detail[512];
	struct gj j;
	int len;

	vsnprintf(detail, sizeof(detail), fmt, ap);
	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "fault");
	gj_str(&j, "name", plan_fault_name(f->kind));
	gj_str(&j, "state", state);
	gj_u64(&j, "index", f->index);
	gj_str(&j, "detail", detail);
	if (injected >= 0)
		gj_u64(&j, "injected", (uint64_t)injected);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(out, line, len);
	fprintf(stderr, "swapctl-faults: %s %s: %s\n",
		plan_fault_name(f->kind), state, detail);
}

static void event(const struct gplan_fault *f, const char *state,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vevent(f, state, -1, fmt, ap);
	va_end(ap);
}

static void event_n(const struct gplan_fault *f, const char *state,
		    int64_t injected, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vevent(f, state, injected, fmt, ap);
	va_end(ap);
}

/* The first fault that failed: the workload's result says it (gutil.h). */
static void fault_failed(const struct gplan_fault *f, const char *what,
			 const char *err)
{
	if (progress->fault_error[0])
		return;
	snprintf(progress->fault_error, sizeof(progress->fault_error),
		 "fault %s (faults[%u]) %s: %.240s", plan_fault_name(f->kind),
		 f->index, what, err);
}

static uint64_t swap_ios(void)
{
	return gu_vmstat("nrswpin") + gu_vmstat("nrswpout");
}

static void read_names(void)
{
	char text[4096], *line, *save = NULL;
	int i = 0;

	if (gu_read_file(GU_BACKENDS_PATH, text, sizeof(text)) <= 0)
		return;
	for (line = strtok_r(text, "\n", &save); line && i < GPLAN_MAX_SWAP;
	     line = strtok_r(NULL, "\n", &save))
		snprintf(names[i++], sizeof(names[0]), "%s", line);
}

static uint64_t dev_sectors(const char *dev)
{
	uint64_t size = 0;
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKGETSIZE64, &size))
		size = 0;
	close(fd);
	return size >> 9;
}

static int swap_flags(int swap)
{
	int prio = plan->swap[swap].prio;

	if (prio < 0)
		return 0;
	return SWAP_FLAG_PREFER |
	       ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
}

/* ---- io_error ---- */

/* @dir/@file = @val (a debugfs fault attribute) */
static int attr_set(const char *dir, const char *file, const char *val,
		    char *err, size_t len)
{
	char path[128];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	r = gu_write_file(path, val);
	if (r)
		snprintf(err, len, "%.100s=%s: %s", path, val, strerror(-r));
	return r;
}

static int fmr_set(const char *file, const char *val, char *err, size_t len)
{
	return attr_set(FMR, file, val, err, len);
}

static int make_it_fail(const char *name, const char *val, char *err,
			size_t len)
{
	char path[256];
	const char *base = strrchr(name, '/');
	int r;

	snprintf(path, sizeof(path), "/sys/block/%s/make-it-fail",
		 base ? base + 1 : name);
	r = gu_write_file(path, val);
	if (r)
		snprintf(err, len, "%.100s=%s: %s (CONFIG_FAIL_MAKE_REQUEST?)",
			 path, val, strerror(-r));
	return r;
}

static int io_error_start(struct frun *fr, char *err, size_t len)
{
	const struct gplan_fault *f = fr->f;
	const char *dev = plan->swap[f->swap].dev;
	char dm[32], num[32], params[256];
	uint64_t sectors;
	int r;

	snprintf(dm, sizeof(dm), GFAULT_DM_FMT, f->swap);
	switch (f->op) {
	case FOP_READ:
		r = gdm_message(dm, "enable", err, len);
		snprintf(fr->detail, sizeof(fr->detail),
			 "dm-dust %s on %s: reads of swap slots %" PRIu64
			 "-%" PRIu64 " fail (%" PRIu64 " bad 4 KiB blocks)",
			 names[f->swap], dev, f->slot, f->slot + f->nslots - 1,
			 f->nslots);
		return r;
	case FOP_WRITE:
		sectors = dev_sectors(dev);
		/* up 0 s, down for the duration: every write fails */
		snprintf(params, sizeof(params), "%s 0 0 %" PRIu64
			 " 1 error_writes", dev,
			 f->duration_ms ? (f->duration_ms + 999) / 1000 + 1 :
			 86400);
		r = gdm_reload(dm, sectors, "flakey", params, err, len);
		snprintf(fr->detail, sizeof(fr->detail),
			 "dm-flakey %s on %s: every write fails (error_writes)",
			 names[f->swap], dev);
		return r;
	case FOP_BOTH:
		if (access(FMR, F_OK))
			mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
		snprintf(num, sizeof(num), "%u", f->probability);
		r = fmr_set("verbose", "0", err, len);
		if (!r)
			r = fmr_set("probability", num, err, len);
		if (r)
			return r;
		snprintf(num, sizeof(num), "%" PRIu64,
			 f->interval ? f->interval : 1);
		r = fmr_set("interval", num, err, len);
		if (r)
			return r;
		if (f->times)
			snprintf(num, sizeof(num), "%" PRIu64, f->times);
		else
			strcpy(num, "-1");
		r = fmr_set("times", num, err, len);
		if (!r)
			r = make_it_fail(names[f->swap], "1", err, len);
		if (r)
			return r;
		snprintf(fr->detail, sizeof(fr->detail),
			 "fail_make_request on %s: %u%% of I/Os, interval %"
			 PRIu64 ", times %s", names[f->swap], f->probability,
			 f->interval ? f->interval : 1, num);
		return 0;
	}
	return -EINVAL;
}

static int io_error_end(struct frun *fr, char *err, size_t len)
{
	const struct gplan_fault *f = fr->f;
	const char *dev = plan->swap[f->swap].dev;
	char dm[32], params[256];

	snprintf(dm, sizeof(dm), GFAULT_DM_FMT, f->swap);
	switch (f->op) {
	case FOP_READ:
		return gdm_message(dm, "disable", err, len);
	case FOP_WRITE:
		snprintf(params, sizeof(params), "%s 0", dev);
		return gdm_reload(dm, dev_sectors(dev), "linear", params, err,
				  len);
	case FOP_BOTH:
		return make_it_fail(names[f->swap], "0", err, len);
	}
	return -EINVAL;
}

/* ---- slab_error ---- */

static int fs_set(const char *file, const char *val, char *err, size_t len)
{
	return attr_set(FAILSLAB, file, val, err, len);
}

/* failslab's times now (what is left of the count down), or -1 */
static int64_t fs_times(char *err, size_t len)
{
	char buf[64], *end;
	long long v;
	ssize_t n;

	n = gu_read_file(FAILSLAB "/times", buf, sizeof(buf));
	if (n <= 0) {
		snprintf(err, len, FAILSLAB "/times: %s",
			 n < 0 ? strerror((int)-n) : "empty");
		return -1;
	}
	v = strtoll(buf, &end, 10);
	if (end == buf || v < 0) {
		snprintf(err, len, FAILSLAB "/times: '%.20s' is not a count",
			 buf);
		return -1;
	}
	return v;
}

/* /proc/<workload>/make-it-fail: failslab's task-filter looks at it */
static int task_fail(const char *val, char *err, size_t len)
{
	char path[64];
	int r;

	snprintf(path, sizeof(path), "/proc/%d/make-it-fail", (int)workload);
	r = gu_write_file(path, val);
	if (r)
		snprintf(err, len, "%s=%s: %s", path, val, strerror(-r));
	return r;
}

/* Each cache of @f must be marked for failslab (slub_debug=A,<cache>). */
static int slab_caches_marked(const struct gplan_fault *f, char *err,
			      size_t len)
{
	char path[128], buf[16];
	ssize_t n;
	int i;

	for (i = 0; i < f->ncaches; i++) {
		snprintf(path, sizeof(path), SLABS "/%s/failslab",
			 f->caches[i]);
		n = gu_read_file(path, buf, sizeof(buf));
		if (n <= 0) {
			snprintf(err, len, "%s: %s (no slab cache '%s' in this kernel?)",
				 path, n < 0 ? strerror((int)-n) : "empty",
				 f->caches[i]);
			return -EINVAL;
		}
		if (buf[0] != '1') {
			snprintf(err, len, "%s is %c: the cache is not marked for failslab (the kernel command line needs slub_debug=A,%s, which swapctl run adds)",
				 path, buf[0], f->caches[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Everything but probability, which goes last (it starts the failures). */
static int slab_error_setup(struct frun *fr, char *err, size_t len)
{
	const struct gplan_fault *f = fr->f;
	uint64_t times = f->times ? f->times : PLAN_SLAB_TIMES_MAX;
	char num[32];
	int r;

	if (access(FAILSLAB, F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	if (access(FAILSLAB, F_OK)) {
		snprintf(err, len, FAILSLAB ": %s (a kernel without CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS?)",
			 strerror(errno));
		return -ENOENT;
	}
	r = slab_caches_marked(f, err, len);
	if (r)
		return r;
	snprintf(num, sizeof(num), "%" PRIu64, f->interval ? f->interval : 1);
	r = fs_set("probability", "0", err, len);
	if (!r)
		r = fs_set("verbose", "0", err, len);
	if (!r)
		r = fs_set("interval", num, err, len);
	snprintf(num, sizeof(num), "%" PRIu64, times);
	if (!r)
		r = fs_set("times", num, err, len);
	if (!r)
		r = fs_set("ignore-gfp-wait", f->atomic_only ? "Y" : "N", err,
			   len);
	if (!r)
		r = fs_set("cache-filter", f->ncaches ? "Y" : "N", err, len);
	if (!r)
		r = fs_set("task-filter",
			   f->tasks == SLAB_TASKS_WORKLOAD ? "Y" : "N", err,
			   len);
	if (!r && f->tasks == SLAB_TASKS_WORKLOAD)
		r = task_fail("1", err, len);
	if (r)
		return r;
	/* read back: the count down starts from what failslab holds */
	fr->times0 = fs_times(err, len);
	if (fr->times0 < 0)
		return -EIO;
	if ((uint64_t)fr->times0 != times) {
		snprintf(err, len, FAILSLAB "/times reads %" PRId64
			 " after %" PRIu64 " was written", fr->times0, times);
		return -EIO;
	}
	return 0;
}

static void slab_error_detail(struct frun *fr)
{
	const struct gplan_fault *f = fr->f;
	char caches[PLAN_SLAB_MAX_CACHES * (PLAN_SLAB_CACHE_LEN + 2) + 16];
	size_t off = 0;
	int i;

	caches[0] = '\0';
	for (i = 0; i < f->ncaches; i++)
		off += snprintf(caches + off, sizeof(caches) - off, "%s%s",
				i ? "," : " in ", f->caches[i]);
	snprintf(fr->detail, sizeof(fr->detail),
		 "failslab: %u%% of %sslab allocations%s by %s, interval %"
		 PRIu64 ", times %" PRId64 "%s", f->probability,
		 f->atomic_only ? "atomic " : "", caches,
		 f->tasks == SLAB_TASKS_WORKLOAD ? "the workload" :
		 "every task", f->interval ? f->interval : 1, fr->times0,
		 f->times ? "" : " (no limit)");
}

/* Stop the failures first, then read the count down. */
static int64_t slab_error_stop(struct frun *fr, char *err, size_t len)
{
	const struct gplan_fault *f = fr->f;
	int64_t left;
	int r;

	r = fs_set("probability", "0", err, len);
	if (f->tasks == SLAB_TASKS_WORKLOAD) {
		char e2[160];
		int r2 = task_fail("0", e2, sizeof(e2));

		if (r2 && !r) {
			r = r2;
			snprintf(err, len, "%s", e2);
		}
	}
	if (r)
		return -1;
	left = fs_times(err, len);
	if (left < 0)
		return -1;
	if (left > fr->times0) {
		snprintf(err, len, FAILSLAB "/times grew from %" PRId64
			 " to %" PRId64, fr->times0, left);
		return -1;
	}
	return fr->times0 - left;
}

static int slab_error_start(struct frun *fr, char *err, size_t len)
{
	char ignore[8];
	int r;

	fr->times0 = 0;
	r = slab_error_setup(fr, err, len);
	if (r) {
		/* leave nothing half set: no failures from here on */
		gu_write_file(FAILSLAB "/probability", "0");
		if (fr->f->tasks == SLAB_TASKS_WORKLOAD)
			task_fail("0", ignore, sizeof(ignore));
		snprintf(fr->detail, sizeof(fr->detail), "failslab");
		return r;
	}
	slab_error_detail(fr);
	snprintf(ignore, sizeof(ignore), "%u", fr->f->probability);
	return fs_set("probability", ignore, err, len);
}

/* ---- children: the parts that block; each sends its own end line ---- */

/*
 * swapoff, then swapon again after duration_ms, or (until_phase) when the
 * workload reaches that phase: the fault loop does not acknowledge the
 * phase, so the workload does not begin it, until this child has exited.
 */
static __noreturn void child_swapoff(const struct gplan_fault *f)
{
	const char *name = names[f->swap];
	uint64_t t0 = gj_now_ns(), t1;
	int e = 0;

	if (swapoff(name))
		e = errno;
	t1 = gj_now_ns();
	if (e) {
		event(f, "end", "swapoff %s failed after %" PRIu64 " ms: %s",
		      name, (t1 - t0) / 1000000, strerror(e));
		_exit(1);
	}
	if (!f->duration_ms && f->until_phase < 0) {
		event(f, "end", "swapoff %s done in %" PRIu64
		      " ms; it stays off", name, (t1 - t0) / 1000000);
		_exit(0);
	}
	/* off for duration_ms after swapoff returned, or until the phase */
	while (!stop && (f->until_phase >= 0 ?
			 progress->phase < f->until_phase :
			 gj_now_ns() - t1 < f->duration_ms * 1000000))
		gu_sleep_ms(LOOP_MS);
	if (swapon(name, swap_flags(f->swap))) {
		e = errno;
		event(f, "end", "swapoff %s done in %" PRIu64
		      " ms; swapon again failed: %s", name,
		      (t1 - t0) / 1000000, strerror(e));
		_exit(1);
	}
	event(f, "end", "swapoff %s done in %" PRIu64 " ms; on again %"
	      PRIu64 " ms later", name, (t1 - t0) / 1000000,
	      (gj_now_ns() - t1) / 1000000);
	_exit(0);
}

static __noreturn void child_churn(const struct gplan_fault *f)
{
	const char *name = names[f->swap];
	uint64_t t0 = gj_now_ns(), cycles = 0, fails = 0;
	uint64_t off_ns = 0, t;
	char first[160] = "";

	while (!stop && gj_now_ns() - t0 < f->duration_ms * 1000000) {
		t = gj_now_ns();
		if (swapoff(name)) {
			fails++;
			if (!first[0])
				snprintf(first, sizeof(first), "; first: swapoff %s",
					 strerror(errno));
		} else {
			off_ns += gj_now_ns() - t;
			if (swapon(name, swap_flags(f->swap))) {
				fails++;
				if (!first[0])
					snprintf(first, sizeof(first),
						 "; first: swapon %s",
						 strerror(errno));
			}
		}
		cycles++;
		gu_sleep_ms((unsigned int)f->period_ms);
	}
	/* leave it on, whatever happened */
	swapon(name, swap_flags(f->swap));
	event(f, "end", "%" PRIu64 " swapoff/swapon cycles on %s in %" PRIu64
	      " ms, %" PRIu64 " ms in swapoff, %" PRIu64 " failed%s", cycles,
	      name, (gj_now_ns() - t0) / 1000000, off_ns / 1000000, fails,
	      first);
	_exit(fails ? 1 : 0);
}

static __noreturn void child_oom(const struct gplan_fault *f)
{
	uint64_t limit = (gu_meminfo_kb("MemTotal") + gu_meminfo_kb("SwapTotal")
			  + 256 * 1024) << 10;
	uint64_t oom0 = gu_vmstat("oom_kill"), done = 0;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	const size_t chunk = 4u << 20;
	char path[64];
	size_t i;

	/* the workload is the victim; this process must not be */
	snprintf(path, sizeof(path), "/proc/%d/oom_score_adj", (int)workload);
	gu_write_file(path, "1000");
	gu_write_file("/proc/self/oom_score_adj", "-1000");
	while (!stop && done < limit && gu_vmstat("oom_kill") == oom0) {
		char *p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);

		if (p == MAP_FAILED)
			break;
		/* incompressible: zram and zswap must store every page */
		for (i = 0; i < chunk / sizeof(x); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			((uint64_t *)p)[i] = x;
		}
		done += chunk;
	}
	event(f, "end", "%s after %" PRIu64 " MiB allocated beside the workload",
	      gu_vmstat("oom_kill") > oom0 ? "the OOM killer ran" :
	      "no OOM kill", done >> 20);
	_exit(0);
}

static void start_one(struct frun *fr)
{
	const struct gplan_fault *f = fr->f;
	char err[256] = "";
	pid_t pid;

	fr->t_start = gj_now_ns();
	fr->state = F_ACTIVE;
	if (f->kind == FAULT_IO_ERROR || f->kind == FAULT_SLAB_ERROR) {
		if (f->kind == FAULT_IO_ERROR ?
		    io_error_start(fr, err, sizeof(err)) :
		    slab_error_start(fr, err, sizeof(err))) {
			event(f, "start", "%s", fr->detail);
			event(f, "end", "could not inject: %s", err);
			fault_failed(f, "could not be set up", err);
			fr->state = F_DONE;
			return;
		}
		event(f, "start", "%s", fr->detail);
		return;
	}
	if (f->kind == FAULT_SWAPOFF)
		event(f, "start", "swapoff %s under load%s", names[f->swap],
		      f->until_phase >= 0 ?
		      ", swapon again before until_phase begins" :
		      f->duration_ms ? ", swapon again after duration_ms" : "");
	else if (f->kind == FAULT_SWAP_CHURN)
		event(f, "start", "swapoff/swapon %s every %" PRIu64 " ms for %"
		      PRIu64 " ms", names[f->swap], f->period_ms,
		      f->duration_ms);
	else
		event(f, "start", "allocating beside the workload past RAM + swap");
	pid = fork();
	if (pid == 0) {
		switch (f->kind) {
		case FAULT_SWAPOFF:
			child_swapoff(f);
		case FAULT_SWAP_CHURN:
			child_churn(f);
		default:
			child_oom(f);
		}
	}
	if (pid < 0) {
		event(f, "end", "fork: %s", strerror(errno));
		fr->state = F_DONE;
		return;
	}
	fr->child = pid;
}

/* The end line says how many failures failslab injected ("injected"). */
static void slab_error_end(struct frun *fr, const char *why)
{
	char err[256] = "";
	int64_t n = slab_error_stop(fr, err, sizeof(err));

	if (n < 0) {
		event(fr->f, "end", "%s; could not stop or count: %s", why,
		      err);
		fault_failed(fr->f, "could not be stopped or counted", err);
		return;
	}
	event_n(fr->f, "end", n, "%s after %" PRIu64 " ms; failslab injected %"
		PRId64 " failures (times %" PRId64 " -> %" PRId64 ")", why,
		(gj_now_ns() - fr->t_start) / 1000000, n, fr->times0,
		fr->times0 - n);
}

static void end_one(struct frun *fr, const char *why)
{
	char err[256] = "";
	int st;

	if (fr->state != F_ACTIVE)
		return;
	fr->state = F_DONE;
	if (fr->child) {
		/* it sends its own end line */
		if (stop)
			kill(fr->child, SIGTERM);
		waitpid(fr->child, &st, 0);
		fr->child = 0;
		return;
	}
	if (fr->f->kind == FAULT_SLAB_ERROR) {
		slab_error_end(fr, why);
		return;
	}
	if (io_error_end(fr, err, sizeof(err))) {
		event(fr->f, "end", "%s; could not undo: %s", why, err);
		fault_failed(fr->f, "could not be undone", err);
	} else {
		event(fr->f, "end", "%s after %" PRIu64 " ms", why,
		      (gj_now_ns() - fr->t_start) / 1000000);
	}
}

static __noreturn void run(struct gu_progress *prog)
{
	uint64_t t0 = 0, ios0 = 0, now;
	int64_t ph;
	int i, st;

	read_names();
	for (i = 0; i < plan->nfault; i++)
		runs[i].f = &plan->fault[i];
	for (;;) {
		if (stop || getppid() != workload)
			break;
		ph = prog->phase;
		now = gj_now_ns();
		if (ph >= 0 && !t0) {
			t0 = now;
			ios0 = swap_ios();
		}
		for (i = 0; t0 && i < plan->nfault; i++) {
			struct frun *fr = &runs[i];
			const struct gplan_fault *f = fr->f;
			bool go = false;

			if (fr->state == F_WAIT) {
				if (f->trig == TRIG_PHASE)
					go = ph >= (int64_t)f->at;
				else if (f->trig == TRIG_AFTER_TIME)
					go = now - t0 >= f->at * 1000000;
				else
					go = swap_ios() - ios0 >= f->at;
				if (go)
					start_one(fr);
				continue;
			}
			if (fr->state != F_ACTIVE)
				continue;
			if (fr->child && waitpid(fr->child, &st, WNOHANG) ==
			    fr->child) {
				fr->child = 0;
				fr->state = F_DONE;
				continue;
			}
			if (!fr->child && f->duration_ms &&
			    now - fr->t_start >= f->duration_ms * 1000000)
				end_one(fr, "duration_ms elapsed");
			else if (f->until_phase >= 0 && ph >= f->until_phase)
				end_one(fr, "its until_phase started");
		}
		if (ph > prog->fault_ack)
			prog->fault_ack = ph;
		gu_sleep_ms(LOOP_MS);
	}
	for (i = 0; i < plan->nfault; i++)
		end_one(&runs[i], "the workload ended");
	_exit(0);
}

pid_t gfault_start(const struct gplan *p, struct gu_progress *prog,
		   int out_fd)
{
	struct sigaction sa = { .sa_handler = on_term };
	pid_t pid;

	if (!p->nfault)
		return 0;
	plan = p;
	out = out_fd;
	progress = prog;
	workload = getpid();
	pid = fork();
	if (pid)
		return pid;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGBUS, SIG_DFL);
	run(prog);
}

/* Does a fault end at phase @idx by something that blocks (swapon)? */
static bool blocking_end_at(const struct gplan *p, int idx)
{
	int i;

	for (i = 0; i < p->nfault; i++)
		if (p->fault[i].kind == FAULT_SWAPOFF &&
		    p->fault[i].until_phase == idx)
			return true;
	return false;
}

void gfault_sync(const struct gplan *p, struct gu_progress *prog, pid_t pid,
		 int idx)
{
	bool wait_all = blocking_end_at(p, idx);
	unsigned int waited = 0;
	siginfo_t si;

	if (pid <= 0)
		return;
	while (prog->fault_ack < idx && (wait_all || waited < SYNC_WAIT_MS)) {
		/* never wait for a fault process that is gone (not reaped) */
		memset(&si, 0, sizeof(si));
		if (wait_all && !(waited % 100) &&
		    !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
		    si.si_pid == pid)
			return;
		gu_sleep_ms(1);
		waited++;
	}
}

void gfault_stop(pid_t pid)
{
	int st;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}
