// SPDX-License-Identifier: GPL-2.0
/*
 * usemem: anonymous memory writers in the style of vm-scalability's
 * swap-w-seq and swap-w-rand (its usemem tool), for command workloads.
 * Our own static program: commands see it as /run/swapctl-bin/usemem.
 *
 *   usemem [--order seq|random] [--tasks N] [--mb MIB] [--passes P]
 *          [--seed S] [--unique-words W] [--readers R]
 *          [--sharers N [--sharer-cgroup DIR] [--sharer-pause-us U]]
 *          [--forkers F]
 *
 * Each of N tasks (processes) maps MIB MiB of anonymous memory and writes
 * every page P times, in address order (seq) or in a random permutation
 * (random), each pass with a new pattern; then reads every page back and
 * checks it holds the last pass's pattern. Run it in a cgroup whose
 * memory.max is below N * MIB and the writes swap. With --readers R, each
 * task then forks R children that check every page at once, in address
 * order, before the task checks them itself: the pages are shared
 * copy-on-write, so the readers fault on the same swap entries together
 * (swap-ins that race for one slot, readahead of the same windows). With
 * --sharers N, each task forks N sharers, which first move themselves
 * into the cgroup DIR (--sharer-cgroup, so that a limit of the task's own
 * group, cpu.max say, does not hold them back) and then check random
 * pages of the task's area, timing each, for as long as the task checks
 * its pages: a sharer that faults on a page whose swap-in the task has
 * started waits for the task's I/O, and the summary line says how long
 * the longest such check took (sharer_max_ms) and how many took 50 ms or
 * more (sharer_slow). --sharer-pause-us U makes each sharer sleep U
 * microseconds between checks, so that the task's own swap-ins (and its
 * readahead) are most of them. With --forkers F, each task forks F
 * children as soon as its area has its first page, which fork and reap
 * children of their own in a loop until the task is done: every fork and
 * exit takes the area's anon_vma lock for write, which reclaim takes for
 * read to unmap the task's pages, so reclaim may sleep there with a batch
 * of swap writes pending (the summary line says forks=). Prints one summary
 * line per task. Exit status: 0 every page intact, 1 corrupt pages, 2 error.
 *
 * vm-scalability's usemem command lines map one to one (its options that
 * matter to swap): -n/--nproc N is --tasks N, the size argument
 * SIZE[k|m|g|t] (per task, bytes, a multiple of 4 KiB) is --mb, -r/--repeat
 * N is --passes N, -R/--random is --order random, -O/--anonymous is what
 * it does anyway, -y/--sync-rw starts the writes of all tasks together
 * once each has mapped its area, -x/--sync-free frees the areas together
 * once each task is done, and --init-time prints the time to here and
 * leaves the setup out of the throughput. As vm-scalability's, each task
 * prints "N bytes / N usecs = N KB/s" (its writes) and "N usecs to free
 * memory" (its munmap, what swap slots cost to free); the sum of the
 * throughputs and the slowest free are the command's values
 * (swapctl-value usemem_kbps_sum, usemem_free_us_max).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gvalue.h"
#include "pattern.h"

#define MAX_TASKS	64
#define SLOW_NS		50000000ULL	/* a sharer's check this long is slow */

struct opts {
	bool random, sync_rw, sync_free, init_time;
	unsigned int tasks, passes, uniq, readers, sharers, pause_us, forkers;
	const char *sharer_cg;
	uint64_t mb, seed;
	uint64_t bytes;		/* per task: the size argument, else mb */
};

/*
 * The tasks' barriers (-y, -x: every task ready, then all go: each
 * writes a byte to ready and reads wake, which the parent closes once it
 * has read one byte per task) and their figures, in shared memory.
 */
struct task_stats {
	uint64_t kbps[MAX_TASKS], free_us[MAX_TASKS];
};

static int start_ready[2] = { -1, -1 }, start_wake[2] = { -1, -1 };
static int free_ready[2] = { -1, -1 }, free_wake[2] = { -1, -1 };
static struct task_stats *tstats;

/* A task at a barrier: say ready, wait for the parent's go (EOF). */
static void barrier_wait(int ready[2], int wake[2])
{
	char c = '*';

	if (write(ready[1], &c, 1) != 1)
		return;
	while (read(wake[0], &c, 1) < 0 && errno == EINTR)
		;
}

/* The parent: wait for @n tasks at the barrier, then let them all go. */
static void barrier_release(int ready[2], int wake[2], unsigned int n)
{
	char c;

	ssize_t r;

	while (n) {
		r = read(ready[0], &c, 1);
		if (r == 1)
			n--;
		else if (r == 0 || errno != EINTR)
			break;	/* every task gone */
	}
	close(wake[1]);
	wake[1] = -1;
}

/* "1536M", "1g", "65536" (bytes) into *@out: a multiple of 4 KiB. */
static bool parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end && strchr("kKmMgGtT", *end)) {
		shift = 10 * (unsigned int)(strchr("kmgt",
					    *end | 0x20) - "kmgt" + 1);
		end++;
	}
	if (errno || *end || !v || v > (1ULL << 40) >> shift)
		return false;
	v <<= shift;
	if (v % GPAT_PAGE)
		return false;
	*out = v;
	return true;
}

/* What the sharers of a task found, in memory shared with it. */
struct sharer_stats {
	volatile int stop;		/* set by the task when it is done */
	struct {
		uint64_t checks, slow, max_ns, corrupt;
	} s[MAX_TASKS];
};

/* The forkers of a task: a stop flag and their counts, shared with it. */
struct forker_stats {
	volatile int stop;
	uint64_t forks[MAX_TASKS];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: usemem [--order seq|random] [--tasks N] [--mb MIB] [--passes P]\n"
		"              [--seed S] [--unique-words W] [--readers R]\n"
		"              [--sharers N [--sharer-cgroup DIR] [--sharer-pause-us U]]\n"
		"              [--forkers F] [-n N] [-r N] [-R] [-O] [-y] [-x] [--init-time]\n"
		"              [SIZE[k|m|g|t]]\n"
		"Write MIB MiB of anonymous memory per task P times (seq or random page\n"
		"order), then verify every page (first in R forked readers at once;\n"
		"while N sharers, moved into cgroup DIR, check random pages and time\n"
		"each check, U us apart), while F forkers fork and reap children in a\n"
		"loop. Exit 0 intact, 1 corrupt, 2 error.\n"
		"vm-scalability's usemem: -n/--nproc N = --tasks, SIZE per task = --mb,\n"
		"-r/--repeat N = --passes, -R/--random = --order random, -O/--anonymous\n"
		"(always), -y/--sync-rw start the writes together, -x/--sync-free free\n"
		"together, --init-time print the set-up time, leave it out of KB/s.\n");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Move the calling process into cgroup @dir; false (said) if it cannot. */
static bool join_cgroup(const char *dir)
{
	char path[4096];
	int fd;

	if (snprintf(path, sizeof(path), "%s/cgroup.procs", dir) >=
	    (int)sizeof(path)) {
		fprintf(stderr, "usemem: --sharer-cgroup: path too long\n");
		return false;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "0\n", 2) != 2) {
		fprintf(stderr, "usemem: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return true;
}

static bool parse_num(const char *s, uint64_t min, uint64_t max,
		      uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* The pages of @area that do not hold the last pass's pattern. */
static uint64_t check(const struct opts *o, const char *area, size_t npages,
		      uint64_t seed)
{
	uint64_t corrupt = 0;
	size_t i;

	for (i = 0; i < npages; i++)
		if (!gpat_check(area + i * GPAT_PAGE, seed + o->passes - 1, i,
				o->uniq))
			corrupt++;
	return corrupt;
}

/*
 * Sharer @r of a task: check random pages of @area until the task says
 * stop, timing each check (the page's swap-in, if it has to wait for one,
 * and its verification).
 */
static int sharer(const struct opts *o, const char *area, size_t npages,
		  uint64_t seed, struct sharer_stats *st, unsigned int r)
{
	uint64_t x = seed * 2654435761u + r + 1, t0, dt;
	size_t i;

	if (o->sharer_cg && !join_cgroup(o->sharer_cg))
		return 2;
	while (!st->stop) {
		/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		i = (size_t)(x % npages);
		t0 = now_ns();
		if (!gpat_check(area + i * GPAT_PAGE, seed + o->passes - 1, i,
				o->uniq))
			st->s[r].corrupt++;
		dt = now_ns() - t0;
		st->s[r].checks++;
		if (dt >= SLOW_NS)
			st->s[r].slow++;
		if (dt > st->s[r].max_ns)
			st->s[r].max_ns = dt;
		if (o->pause_us) {
			struct timespec ts = {
				.tv_sec = o->pause_us / 1000000,
				.tv_nsec = (long)(o->pause_us % 1000000) * 1000,
			};

			nanosleep(&ts, NULL);
		}
	}
	return st->s[r].corrupt ? 1 : 0;
}

/* Fork @n sharers of @area into @pids; false (said) if one cannot be. */
static bool start_sharers(const struct opts *o, const char *area,
			  size_t npages, uint64_t seed,
			  struct sharer_stats *st, pid_t *pids, unsigned int t)
{
	unsigned int r;

	for (r = 0; r < o->sharers; r++) {
		pids[r] = fork();
		if (pids[r] < 0) {
			fprintf(stderr, "usemem[%u]: fork sharer: %s\n", t,
				strerror(errno));
			st->stop = 1;
			return false;
		}
		if (!pids[r])
			_exit(sharer(o, area, npages, seed, st, r));
	}
	return true;
}

/* Reap the @n children @what of task @t in @pids; how many of them failed. */
static unsigned int reap(const pid_t *pids, unsigned int n, const char *what,
			 unsigned int t)
{
	unsigned int r, bad = 0;
	int status;

	for (r = 0; r < n; r++) {
		if (waitpid(pids[r], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "usemem[%u]: %s %u failed\n", t, what,
				r);
			bad++;
		}
	}
	return bad;
}

/* Stop and reap the sharers; how many of them failed. */
static unsigned int stop_sharers(const struct opts *o, struct sharer_stats *st,
				 const pid_t *pids, unsigned int t)
{
	st->stop = 1;
	return reap(pids, o->sharers, "sharer", t);
}

/*
 * Forker @r of a task: fork a child that exits at once and reap it, until
 * the task says stop. A fork that fails for want of memory is tried again
 * a millisecond later: the point is the load, not each fork.
 */
static int forker(struct forker_stats *fs, unsigned int r)
{
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	int status;
	pid_t pid;

	while (!fs->stop) {
		pid = fork();
		if (!pid)
			_exit(0);
		if (pid < 0) {
			if (errno != EAGAIN && errno != ENOMEM)
				return 2;
			nanosleep(&ms, NULL);
			continue;
		}
		if (waitpid(pid, &status, 0) < 0)
			return 2;
		fs->forks[r]++;
	}
	return 0;
}

/*
 * Fork the forkers of task @t into @pids, once @area has a page (so that
 * they share its anon_vma); NULL (said) if one cannot be.
 */
static struct forker_stats *start_forkers(const struct opts *o, char *area,
					  pid_t *pids, unsigned int t)
{
	struct forker_stats *fs;
	unsigned int r;

	fs = mmap(NULL, sizeof(*fs), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fs == MAP_FAILED) {
		fprintf(stderr, "usemem[%u]: mmap forker stats: %s\n", t,
			strerror(errno));
		return NULL;
	}
	area[0] = 1;
	fflush(stdout);
	for (r = 0; r < o->forkers; r++) {
		pids[r] = fork();
		if (pids[r] < 0) {
			fprintf(stderr, "usemem[%u]: fork forker: %s\n", t,
				strerror(errno));
			fs->stop = 1;
			return NULL;
		}
		if (!pids[r])
			_exit(forker(fs, r));
	}
	return fs;
}

/* Stop and reap the forkers; how many of them failed. */
static unsigned int stop_forkers(const struct opts *o,
				 struct forker_stats *fs, const pid_t *pids,
				 unsigned int t)
{
	fs->stop = 1;
	return reap(pids, o->forkers, "forker", t);
}

/* vm-scalability's line for task @t's writes: bytes / usecs = KB/s */
static void report_writes(const struct opts *o, unsigned int t, double t0,
			  double t1)
{
	uint64_t bytes = o->bytes * o->passes;
	uint64_t us = (uint64_t)((t1 - t0) * 1e6) + 1;

	tstats->kbps[t] = (bytes >> 10) * 1000000ULL / us;
	printf("%" PRIu64 " bytes / %" PRIu64 " usecs = %" PRIu64 " KB/s\n",
	       bytes, us, tstats->kbps[t]);
}

/* Free task @t's area (with -x once every task is here), timed. */
static void free_area(const struct opts *o, unsigned int t, char *area)
{
	double t0;

	if (o->sync_free)
		barrier_wait(free_ready, free_wake);
	t0 = now_s();
	munmap(area, o->bytes);
	tstats->free_us[t] = (uint64_t)((now_s() - t0) * 1e6);
	printf("%" PRIu64 " usecs to free memory\n", tstats->free_us[t]);
	fflush(stdout);
}

static int task(const struct opts *o, unsigned int t)
{
	pid_t pids[MAX_TASKS], spids[MAX_TASKS], fpids[MAX_TASKS];
	unsigned int r, bad_readers = 0, bad_sharers = 0, bad_forkers = 0;
	struct sharer_stats *st = NULL;
	struct forker_stats *fs = NULL;
	uint64_t forks = 0;
	uint64_t checks = 0, slow = 0, max_ns = 0, scorrupt = 0;
	int status;
	size_t npages = (size_t)(o->bytes / GPAT_PAGE), i, k;
	uint64_t seed = o->seed + (uint64_t)t * 1000003u, corrupt;
	uint32_t *perm = NULL;
	double t0 = now_s(), t1;
	unsigned int p;
	char *area;

	area = mmap(NULL, npages * GPAT_PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (area == MAP_FAILED) {
		fprintf(stderr, "usemem[%u]: mmap %" PRIu64 " bytes: %s\n", t,
			o->bytes, strerror(errno));
		return 2;
	}
	if (o->sync_rw)
		barrier_wait(start_ready, start_wake);
	if (o->sync_rw || o->init_time)
		t0 = now_s();
	if (o->random) {
		perm = malloc(npages * sizeof(*perm));
		if (!perm) {
			fprintf(stderr, "usemem[%u]: no memory for %zu indexes\n",
				t, npages);
			return 2;
		}
	}
	if (o->forkers) {
		fs = start_forkers(o, area, fpids, t);
		if (!fs)
			return 2;
	}
	for (p = 0; p < o->passes; p++) {
		if (perm)
			gpat_permute(perm, npages, seed ^ ((uint64_t)p << 40));
		for (k = 0; k < npages; k++) {
			i = perm ? perm[k] : k;
			gpat_fill(area + i * GPAT_PAGE, seed + p, i, o->uniq);
		}
	}
	t1 = now_s();
	report_writes(o, t, t0, t1);
	fflush(stdout);
	for (r = 0; r < o->readers; r++) {
		pids[r] = fork();
		if (pids[r] < 0) {
			fprintf(stderr, "usemem[%u]: fork reader: %s\n", t,
				strerror(errno));
			return 2;
		}
		if (!pids[r])
			_exit(check(o, area, npages, seed) ? 1 : 0);
	}
	for (r = 0; r < o->readers; r++) {
		if (waitpid(pids[r], &status, 0) < 0)
			return 2;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "usemem[%u]: reader %u: %s %d\n", t, r,
				WIFEXITED(status) ? "exit" : "signal",
				WIFEXITED(status) ? WEXITSTATUS(status) :
				WTERMSIG(status));
			bad_readers++;
		}
	}
	if (o->sharers) {
		st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (st == MAP_FAILED) {
			fprintf(stderr, "usemem[%u]: mmap sharer stats: %s\n",
				t, strerror(errno));
			return 2;
		}
		fflush(stdout);
		if (!start_sharers(o, area, npages, seed, st, spids, t))
			return 2;
	}
	corrupt = check(o, area, npages, seed);
	if (st) {
		bad_sharers = stop_sharers(o, st, spids, t);
		for (r = 0; r < o->sharers; r++) {
			checks += st->s[r].checks;
			slow += st->s[r].slow;
			scorrupt += st->s[r].corrupt;
			if (st->s[r].max_ns > max_ns)
				max_ns = st->s[r].max_ns;
		}
	}
	if (fs) {
		bad_forkers = stop_forkers(o, fs, fpids, t);
		for (r = 0; r < o->forkers; r++)
			forks += fs->forks[r];
	}
	printf("usemem[%u]: order=%s pages=%zu passes=%u readers=%u write_s=%.3f verify_s=%.3f corrupt=%" PRIu64 " bad_readers=%u",
	       t, o->random ? "random" : "seq", npages, o->passes, o->readers,
	       t1 - t0, now_s() - t1, corrupt, bad_readers);
	if (st)
		printf(" sharers=%u sharer_checks=%" PRIu64 " sharer_slow=%" PRIu64 " sharer_max_ms=%.1f sharer_corrupt=%" PRIu64 " bad_sharers=%u",
		       o->sharers, checks, slow, max_ns / 1e6, scorrupt,
		       bad_sharers);
	if (fs)
		printf(" forkers=%u forks=%" PRIu64 " bad_forkers=%u",
		       o->forkers, forks, bad_forkers);
	printf("\n");
	fflush(stdout);
	free_area(o, t, area);
	return corrupt || bad_readers || scorrupt || bad_sharers ||
	       bad_forkers ? 1 : 0;
}

/* A numeric option: its short code, range and where it goes. */
struct num_opt {
	int c;
	uint64_t min, max;
	uint64_t *to64;
	unsigned int *to;
};

/* Parse the numeric option @c's @arg into its place; false if bad. */
static bool set_num(const struct num_opt *nums, size_t n, int c,
		    const char *arg, bool *known)
{
	uint64_t v;
	size_t i;

	for (i = 0; i < n; i++) {
		if (nums[i].c != c)
			continue;
		*known = true;
		if (!parse_num(arg, nums[i].min, nums[i].max, &v))
			return false;
		if (nums[i].to64)
			*nums[i].to64 = v;
		else
			*nums[i].to = (unsigned int)v;
		return true;
	}
	*known = false;
	return true;
}

/* A flag of vm-scalability's usemem (or --order's) into @o. */
static bool set_flag(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'o':
		if (strcmp(arg, "seq") && strcmp(arg, "random")) {
			fprintf(stderr, "usemem: --order: '%s' is not seq or random\n",
				arg);
			return false;
		}
		o->random = !strcmp(arg, "random");
		return true;
	case 'C':
		if (arg[0] != '/') {
			fprintf(stderr, "usemem: --sharer-cgroup: '%s' is not an absolute path\n",
				arg);
			return false;
		}
		o->sharer_cg = arg;
		return true;
	case 'R':
		o->random = true;
		return true;
	case 'O':	/* anonymous memory: ours always is */
		return true;
	case 'y':
		o->sync_rw = true;
		return true;
	case 'x':
		o->sync_free = true;
		return true;
	case 'i':
		o->init_time = true;
		return true;
	}
	usage(stderr);
	return false;
}

/* The options into @o; 0, 1 (--help: done), or 2 (said). */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "order", required_argument, NULL, 'o' },
		{ "tasks", required_argument, NULL, 't' },
		{ "nproc", required_argument, NULL, 'n' },
		{ "mb", required_argument, NULL, 'm' },
		{ "passes", required_argument, NULL, 'p' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "unique-words", required_argument, NULL, 'u' },
		{ "readers", required_argument, NULL, 'e' },
		{ "sharers", required_argument, NULL, 'S' },
		{ "sharer-cgroup", required_argument, NULL, 'C' },
		{ "sharer-pause-us", required_argument, NULL, 'P' },
		{ "forkers", required_argument, NULL, 'F' },
		{ "random", no_argument, NULL, 'R' },
		{ "anonymous", no_argument, NULL, 'O' },
		{ "sync-rw", no_argument, NULL, 'y' },
		{ "sync-free", no_argument, NULL, 'x' },
		{ "init-time", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct num_opt nums[] = {
		{ 't', 1, MAX_TASKS, NULL, &o->tasks },
		{ 'n', 1, MAX_TASKS, NULL, &o->tasks },
		{ 'm', 1, 1 << 20, &o->mb, NULL },
		{ 'p', 1, 1000, NULL, &o->passes },
		{ 'r', 1, 1000, NULL, &o->passes },
		{ 's', 0, UINT32_MAX, &o->seed, NULL },
		{ 'u', 1, 512, NULL, &o->uniq },
		{ 'e', 0, MAX_TASKS, NULL, &o->readers },
		{ 'S', 0, MAX_TASKS, NULL, &o->sharers },
		{ 'P', 0, 10000000, NULL, &o->pause_us },
		{ 'F', 0, MAX_TASKS, NULL, &o->forkers },
	};
	bool known;
	int c;
	size_t k;

	while ((c = getopt_long(argc, argv, "hn:r:ROyx", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (!set_num(nums, sizeof(nums) / sizeof(nums[0]), c, optarg,
			     &known)) {
			for (k = 0; lo[k].val != c; k++)
				;
			fprintf(stderr, "usemem: bad value '%s' for --%s\n",
				optarg, lo[k].name);
			return 2;
		}
		if (!known && !set_flag(o, c, optarg))
			return 2;
	}
	o->bytes = o->mb << 20;
	if (optind + 1 == argc && !parse_size(argv[optind++], &o->bytes)) {
		fprintf(stderr, "usemem: size '%s': a number of bytes (k, m, g, t: KiB...), a multiple of 4 KiB, at most 1 TiB\n",
			argv[argc - 1]);
		return 2;
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if ((o->sharer_cg || o->pause_us) && !o->sharers) {
		fprintf(stderr, "usemem: --sharer-cgroup and --sharer-pause-us need --sharers\n");
		return 2;
	}
	return 0;
}

/* The shared figures and the barriers' pipes; false (said) if not. */
static bool setup_tasks(const struct opts *o, double t_start)
{
	tstats = mmap(NULL, sizeof(*tstats), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tstats == MAP_FAILED || pipe(start_ready) || pipe(start_wake) ||
	    pipe(free_ready) || pipe(free_wake)) {
		fprintf(stderr, "usemem: set-up: %s\n", strerror(errno));
		return false;
	}
	if (o->init_time) {
		uint64_t us = (uint64_t)((now_s() - t_start) * 1e6);

		printf("the initialization time is %" PRIu64 " secs %" PRIu64
		       " usecs\n", us / 1000000, us % 1000000);
		fflush(stdout);
	}
	return true;
}

/* A task's side of the pipes: it writes ready, reads wake. */
static void task_pipes(void)
{
	close(start_ready[0]);
	close(start_wake[1]);
	close(free_ready[0]);
	close(free_wake[1]);
}

/* The tasks' sum of KB/s and slowest free, as the command's values. */
static void print_values(const struct opts *o)
{
	uint64_t kbps = 0, free_us = 0;
	unsigned int t;

	for (t = 0; t < o->tasks; t++) {
		kbps += tstats->kbps[t];
		if (tstats->free_us[t] > free_us)
			free_us = tstats->free_us[t];
	}
	gvalue_print(stdout, "usemem_kbps_sum", kbps);
	gvalue_print(stdout, "usemem_free_us_max", free_us);
}

int main(int argc, char **argv)
{
	struct opts o = { .tasks = 1, .passes = 1, .uniq = 512, .mb = 64,
			  .seed = 1 };
	double t_start = now_s();
	pid_t pids[MAX_TASKS];
	int status, worst = 0, r;
	unsigned int t;

	r = parse_args(argc, argv, &o);
	if (r)
		return r == 1 ? 0 : 2;
	if (!setup_tasks(&o, t_start))
		return 2;
	for (t = 0; t < o.tasks; t++) {
		pids[t] = fork();
		if (pids[t] < 0) {
			fprintf(stderr, "usemem: fork: %s\n", strerror(errno));
			return 2;
		}
		if (!pids[t]) {
			task_pipes();
			_exit(task(&o, t));
		}
	}
	close(start_ready[1]);
	close(free_ready[1]);
	if (o.sync_rw)
		barrier_release(start_ready, start_wake, o.tasks);
	if (o.sync_free)
		barrier_release(free_ready, free_wake, o.tasks);
	for (t = 0; t < o.tasks; t++) {
		if (waitpid(pids[t], &status, 0) < 0) {
			fprintf(stderr, "usemem: waitpid: %s\n",
				strerror(errno));
			return 2;
		}
		if (WIFSIGNALED(status)) {
			fprintf(stderr, "usemem[%u]: killed by signal %d\n", t,
				WTERMSIG(status));
			worst = 2;
		} else if (WEXITSTATUS(status) > worst) {
			worst = WEXITSTATUS(status);
		}
	}
	if (!worst)
		print_values(&o);
	return worst;
}
