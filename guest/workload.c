// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl guest workload: fills memory with a verifiable pattern, pushes it
 * to swap, reads it back and counts every corrupt page.
 *
 *   workload PLAN
 *
 * Runs the "workload", "phase" and "verify_seed" directives of PLAN. Phase
 * and result lines go to stdout (the pipe to the agent). Exit status: 0 pass,
 * 1 corrupt pages found, 2 error (a result line with the reason was sent);
 * anything else means no result was sent and init reports the failure.
 *
 * Every page access ends in one of three outcomes: verified (the pattern
 * is there), failed (SIGBUS: the kernel could not swap the page in and
 * said so; the page is dropped and filled again so that later phases see
 * it) or corrupt (wrong contents, silently). Failed pages are counted, not
 * fatal; a corrupt page fails the run.
 *
 * Swap-in latency: the verifying phases (read, willneed) time the first
 * touch of one page in AGENT_SWAPIN_EVERY (hashed index) that mincore() finds
 * neither in RAM nor in the swap cache, that is a touch that swaps the
 * page in; the write phases
 * (fill, rewrite) and touches of resident pages (read ahead, or never
 * pushed out) are not timed. Their histogram (guest/ghist.c) goes out
 * with the phase's end line, and the sum over the phases with the result
 * (common/agentproto.h says what the members mean).
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compiler.h"
#include "faults.h"
#include "ghist.h"
#include "gzswap.h"
#include "json.h"
#include "pattern.h"
#include "gplan.h"
#include "gutil.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define HPAGE (2UL << 20)

static struct gplan plan;
static pid_t faults_pid;	/* the fault process, 0: none */

static char *anon;		/* nanon pages */
static char *shm;		/* nshm pages */
static size_t nanon, nshm, npages;
static uint8_t *gen;		/* per page: pattern seed = seed + gen[i] */
static uint8_t *bad;		/* per page: found corrupt at least once */
static uint8_t *lost;		/* per page: failed (SIGBUS) at least once */

/* SIGBUS while touching a page: where to go back to, and whether armed. */
static sigjmp_buf bus_jmp;
static volatile sig_atomic_t bus_armed;

/* Running totals, shared with init through GU_PROGRESS_PATH. */
static struct gu_progress *prog;

/* swap-in latency of every verifying phase so far */
static struct ghist run_lat;

static char *page_at(size_t i)
{
	if (i < nanon)
		return anon + i * GPAT_PAGE;
	return shm + (i - nanon) * GPAT_PAGE;
}

static uint64_t expect_seed(size_t i)
{
	uint64_t base = plan.has_verify_seed ? plan.verify_seed : plan.seed;

	return base + gen[i];
}

/* zswap's debugfs counters, read after each phase when zswap is on */
static struct gzswap zs;

static void zswap_sample(void)
{
	if (gzswap_enabled(&plan) && gzswap_sample(&zs) && !zs.read)
		fprintf(stderr, "swapctl-workload: %s: %s\n", GZSWAP_DIR,
			strerror(errno));
}

/* the workload's members of its result line (gu_result()) */
static void result_members(struct gj *j)
{
	gj_u64(j, "seed", plan.seed);
	gj_u64(j, "unique_words", plan.uniq_words);
	if (plan.has_verify_seed)
		gj_u64(j, "verify_seed", plan.verify_seed);
	ghist_members(j, &run_lat);
	zswap_sample();
	gzswap_values(j, &zs);
}

static struct gu_result result = {
	.name = "swapctl-workload", .pages = &npages,
	.members = result_members,	/* .progress: prog, once mapped */
};

static uint64_t mem_total_bytes(void)
{
	return gu_meminfo_kb("MemTotal") << 10;
}

/* nr_writeback of /proc/vmstat (pages under writeback), -1 if unread */
static int64_t nr_writeback(void)
{
	uint64_t v;

	return gu_vmstat_read("nr_writeback", &v) ? -1 : (int64_t)v;
}

#define WRITEBACK_WAIT_NS (120ULL * 1000000000ULL)

struct phase_stat {
	uint64_t pages;
	uint64_t corrupt;
	uint64_t failed;
	uint64_t advise_ns;
	/* pageout wait=writeback: time waited, pages still under writeback */
	uint64_t writeback_ns;
	int64_t writeback_left;
	/* pageout drain=lru: time spent draining */
	uint64_t drain_ns;
	/* push-out phases: residency of the area before and after */
	bool has_residency;
	uint64_t resident_before, resident_after;
	/* verifying phases: the swap-in touches' latency, the checks' time */
	struct ghist lat;
	uint64_t check_ns;
};

/*
 * Pages of the area in RAM now, by mincore(): a swapped-out page counts
 * as resident while its folio is still in the swap cache, so a folio that
 * was written to swap but not freed is not counted as evicted.
 */
static int resident_pages(uint64_t *out)
{
	static unsigned char *vec;
	uint64_t n = 0;
	size_t i;

	if (!vec) {
		vec = malloc(npages ? npages : 1);
		if (!vec)
			return -1;
	}
	if (mincore(anon, nanon * GPAT_PAGE, vec))
		return -1;
	if (nshm && mincore(shm, nshm * GPAT_PAGE, vec + nanon))
		return -1;
	for (i = 0; i < npages; i++)
		n += vec[i] & 1;
	*out = n;
	return 0;
}

/* Does the phase verify pages (and so time its swap-ins)? */
static bool verifies(const struct gplan_phase *ph)
{
	return ph->type == PHASE_READ || ph->type == PHASE_WILLNEED;
}

/*
 * Is page @p in RAM or in the swap cache? A page mincore() cannot tell
 * about counts as resident: it is not timed.
 */
static bool page_resident(char *p)
{
	unsigned char v;

	if (mincore(p, GPAT_PAGE, &v))
		return true;
	return v & 1;
}

static bool pushes_out(const struct gplan_phase *ph)
{
	return ph->type == PHASE_PAGEOUT || ph->type == PHASE_PRESSURE ||
	       ph->type == PHASE_REWRITE;
}

static void phase_line(int idx, const struct gplan_phase *ph,
		       const char *state, const struct phase_stat *st,
		       uint64_t ns)
{
	char line[GU_PIPE_LINE];
	struct gj j;
	int len;

	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "phase");
	gj_str(&j, "name", plan_phase_name(ph->type));
	gj_str(&j, "state", state);
	gj_i64(&j, "index", idx);
	if (ph->type == PHASE_READ)
		gj_str(&j, "order", ph->random ? "random" : "seq");
	if (st) {
		gj_u64(&j, "pages", st->pages);
		gj_u64(&j, "ns", ns);
		gj_u64(&j, "corrupt", st->corrupt);
		gj_u64(&j, "failed", st->failed);
		if (ph->type == PHASE_WILLNEED)
			gj_u64(&j, "advise_ns", st->advise_ns);
		if (verifies(ph)) {
			ghist_members(&j, &st->lat);
			gj_u64(&j, "check_ns", st->check_ns);
		}
		if (ph->drain_lru)
			gj_u64(&j, "drain_ns", st->drain_ns);
		if (ph->wait_writeback) {
			gj_u64(&j, "writeback_ns", st->writeback_ns);
			gj_i64(&j, "writeback_left", st->writeback_left);
		}
		if (st->has_residency) {
			uint64_t b = st->resident_before, a = st->resident_after;

			gj_u64(&j, "asked", npages);
			gj_u64(&j, "resident_before", b);
			gj_u64(&j, "resident", a);
			gj_u64(&j, "evicted", b > a ? b - a : 0);
		}
	}
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(STDOUT_FILENO, line, len);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (bus_armed) {
		bus_armed = 0;
		siglongjmp(bus_jmp, 1);
	}
	/* not while touching a workload page: die of it */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigbus(void)
{
	/* SA_NODEFER: SIGBUS stays unblocked after the siglongjmp */
	struct sigaction sa = {
		.sa_sigaction = on_sigbus,
		.sa_flags = SA_SIGINFO | SA_NODEFER,
	};

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		gu_fatal("sigaction(SIGBUS): %s", strerror(errno));
}

/*
 * Page @i failed loudly: count it, then drop it and write its pattern
 * again, as a program that lost a page would, so that later phases
 * verify it instead of failing on it again.
 */
static void page_failed(size_t i, struct phase_stat *st)
{
	char *p = page_at(i);

	st->failed++;
	prog->pages_failed++;
	if (!lost[i]) {
		lost[i] = 1;
		prog->failed_distinct++;
	}
	if (madvise(p, GPAT_PAGE, i < nanon ? MADV_DONTNEED : MADV_REMOVE))
		gu_fatal("page %zu failed (SIGBUS) and cannot be dropped: %s", i,
		      strerror(errno));
	if (sigsetjmp(bus_jmp, 0))
		gu_fatal("page %zu: SIGBUS again on a fresh page", i);
	bus_armed = 1;
	gpat_fill(p, plan.seed + gen[i], i, plan.uniq_words);
	bus_armed = 0;
}

/* Write generation @g of page @i; false if the page failed (SIGBUS). */
static bool fill_page(size_t i, unsigned int g, struct phase_stat *st)
{
	if (sigsetjmp(bus_jmp, 0)) {
		page_failed(i, st);
		return false;
	}
	bus_armed = 1;
	gpat_fill(page_at(i), plan.seed + g, i, plan.uniq_words);
	bus_armed = 0;
	return true;
}

/*
 * Time the touch of page @p if it swaps the page in: mincore() first,
 * then the touch alone on the clock. The check is not the phase's work:
 * its time goes to st->check_ns, which the phase's ns leaves out, as the
 * push-out phases leave out their residency check. A SIGBUS leaves
 * before the sample is added: a failed swap-in is not a latency.
 */
static void time_swapin(char *p, struct phase_stat *st)
{
	uint64_t t0 = gj_now_ns(), t1;
	bool resident = page_resident(p);

	t1 = gj_now_ns();
	st->check_ns += t1 - t0;
	if (resident)
		return;
	/* atomic: kept, where a plain unused load would be dropped */
	(void)__atomic_load_n(p, __ATOMIC_RELAXED);
	ghist_add(&st->lat, (gj_now_ns() - t1) / 1000);
}

/*
 * Is page @i one of the one in AGENT_SWAPIN_EVERY that the swap-in timing
 * looks at? A multiplicative hash of the index, not a stride: a stride of
 * 8 lines up with the swap readahead's aligned clusters and biases the
 * tail (zram-swap p99 1023 us with i % 8, 927 us timing every page).
 */
static bool swapin_candidate(size_t i)
{
	return (uint32_t)((uint32_t)i * 0x9e3779b1u) <
	       UINT32_MAX / AGENT_SWAPIN_EVERY;
}

static void verify_page(size_t i, struct phase_stat *st)
{
	char *p = page_at(i);
	bool ok;

	st->pages++;
	if (sigsetjmp(bus_jmp, 0)) {
		page_failed(i, st);
		return;
	}
	bus_armed = 1;
	if (swapin_candidate(i))
		time_swapin(p, st);
	ok = gpat_check(p, expect_seed(i), i, plan.uniq_words);
	bus_armed = 0;
	prog->pages_verified++;
	if (ok)
		return;
	st->corrupt++;
	prog->pages_corrupt++;
	if (!bad[i]) {
		bad[i] = 1;
		prog->corrupt_distinct++;
	}
	if (prog->first_corrupt < 0)
		prog->first_corrupt = (int64_t)i;
}

static void advise_all(int advice, const char *name)
{
	if (madvise(anon, nanon * GPAT_PAGE, advice))
		gu_fatal("madvise(%s) on %zu anonymous pages: %s%s", name, nanon,
		      strerror(errno), errno == ENOSYS ?
		      " (kernel without CONFIG_ADVISE_SYSCALLS)" : "");
	if (nshm && madvise(shm, nshm * GPAT_PAGE, advice))
		gu_fatal("madvise(%s) on %zu shmem pages: %s", name, nshm,
		      strerror(errno));
}

static void do_pressure(const struct gplan_phase *ph, struct phase_stat *st)
{
	uint64_t bytes = ph->mb << 20;
	char *p;
	size_t i;

	if (ph->ram != 0) {
		bytes = (uint64_t)(ph->ram * (double)mem_total_bytes());
		bytes &= ~(uint64_t)(GPAT_PAGE - 1);
	}
	if (!bytes)
		return;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		gu_fatal("pressure: mmap %" PRIu64 " MiB: %s", bytes >> 20,
		      strerror(errno));
	for (i = 0; i < bytes / GPAT_PAGE; i++) {
		/* Non-zero content, so it is not a zero page to zram. */
		memcpy(p + i * GPAT_PAGE, &i, sizeof(i));
		p[i * GPAT_PAGE + 8] = 1;
		st->pages++;
	}
	munmap(p, bytes);
}

static void do_rewrite(int idx, const struct gplan_phase *ph,
		       struct phase_stat *st)
{
	uint64_t thresh = (uint64_t)(ph->frac * 1000000.0);
	struct gpat_rng r;
	size_t i;

	gpat_rng_init(&r, plan.seed ^ ((uint64_t)idx << 32));
	for (i = 0; i < npages; i++) {
		if (gpat_rng_below(&r, 1000000) >= thresh)
			continue;
		if (gen[i] == UINT8_MAX)
			gu_fatal("rewrite: page %zu rewritten 255 times", i);
		st->pages++;
		if (!fill_page(i, gen[i] + 1u, st))
			continue;	/* refilled with its old generation */
		gen[i]++;
		prog->pages_written++;
	}
	advise_all(MADV_PAGEOUT, "MADV_PAGEOUT");
}

/*
 * pageout wait=writeback: until no page is under writeback (at most
 * WRITEBACK_WAIT_NS), so that what the next phase finds does not depend
 * on when the swap device (an NFS server) completed the writes.
 */
static void wait_writeback(struct phase_stat *st)
{
	uint64_t t0 = gj_now_ns();
	int64_t n;

	while ((n = nr_writeback()) > 0 &&
	       gj_now_ns() - t0 < WRITEBACK_WAIT_NS)
		usleep(10000);
	st->writeback_ns = gj_now_ns() - t0;
	st->writeback_left = n;
	if (n < 0)
		gu_fatal("pageout wait=writeback: no nr_writeback in /proc/vmstat");
	if (n > 0)
		fprintf(stderr, "swapctl-workload: pageout: %" PRId64
			" pages still under writeback after %llu s\n", n,
			WRITEBACK_WAIT_NS / 1000000000ULL);
}

/*
 * pageout drain=lru: a page just added to the LRU waits in its CPU's
 * batch (lru_add, 15 pages in 6.1) until the batch is full or drained.
 * MADV_PAGEOUT drains its own CPU's batch only and skips every page that
 * is not on an LRU list, so pages of the area left in another CPU's batch
 * (the workload moved while it filled them) are pushed out by no pageout
 * as long as that CPU adds no other pages. Writing
 * /proc/sys/vm/compact_memory drains the batches of every CPU
 * (lru_add_drain_all() in compact_nodes()), then compacts; the pages
 * compaction moves go to the batch of the CPU it runs on, so the workload
 * stays on one CPU from here to the end of its MADV_PAGEOUT, whose own
 * lru_add_drain() takes them (drain_lru_done() lets it move again).
 */
static cpu_set_t drain_cpus;

static void drain_lru(struct phase_stat *st)
{
	uint64_t t0 = gj_now_ns();
	cpu_set_t one;
	int cpu, ret;

	cpu = sched_getcpu();
	if (cpu < 0 || sched_getaffinity(0, sizeof(drain_cpus), &drain_cpus))
		gu_fatal("pageout drain=lru: which CPU: %s", strerror(errno));
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		gu_fatal("pageout drain=lru: stay on CPU %d: %s", cpu,
		      strerror(errno));
	ret = gu_write_file("/proc/sys/vm/compact_memory", "1");
	if (ret)
		gu_fatal("pageout drain=lru: /proc/sys/vm/compact_memory: %s%s",
		      strerror(-ret), ret == -ENOENT ?
		      " (kernel without CONFIG_COMPACTION)" : "");
	st->drain_ns = gj_now_ns() - t0;
}

static void drain_lru_done(void)
{
	if (sched_setaffinity(0, sizeof(drain_cpus), &drain_cpus))
		gu_fatal("pageout drain=lru: leave the CPU: %s", strerror(errno));
}

static void run_phase(int idx, const struct gplan_phase *ph)
{
	static struct phase_stat st;
	static uint32_t *perm;
	uint64_t t0, t1;
	size_t i;

	memset(&st, 0, sizeof(st));
	prog->phase = idx;
	/* the faults of this phase start before its work does */
	gfault_sync(&plan, prog, faults_pid, idx);
	phase_line(idx, ph, "start", NULL, 0);
	/* outside [t0, t1]: the phase's time does not include the check */
	if (pushes_out(ph))
		st.has_residency = !resident_pages(&st.resident_before);
	if (ph->type == PHASE_PAGEOUT && ph->drain_lru)
		drain_lru(&st);
	t0 = gj_now_ns();
	switch (ph->type) {
	case PHASE_FILL:
		for (i = 0; i < npages; i++) {
			fill_page(i, gen[i], &st);
			prog->pages_written++;
			st.pages++;
		}
		break;
	case PHASE_PAGEOUT:
		advise_all(MADV_PAGEOUT, "MADV_PAGEOUT");
		if (ph->drain_lru)
			drain_lru_done();
		st.pages = npages;
		if (ph->wait_writeback)
			wait_writeback(&st);
		break;
	case PHASE_PRESSURE:
		do_pressure(ph, &st);
		break;
	case PHASE_READ:
		if (!ph->random) {
			for (i = 0; i < npages; i++)
				verify_page(i, &st);
			break;
		}
		if (!perm) {
			perm = malloc(npages * sizeof(*perm));
			if (!perm)
				gu_fatal("read random: no memory for %zu indexes",
				      npages);
		}
		gpat_permute(perm, npages, plan.seed ^ (uint64_t)idx);
		for (i = 0; i < npages; i++)
			verify_page(perm[i], &st);
		break;
	case PHASE_WILLNEED:
		advise_all(MADV_WILLNEED, "MADV_WILLNEED");
		st.advise_ns = gj_now_ns() - t0;
		for (i = 0; i < npages; i++)
			verify_page(i, &st);
		break;
	case PHASE_REWRITE:
		do_rewrite(idx, ph, &st);
		break;
	}
	t1 = gj_now_ns();
	if (st.has_residency)
		st.has_residency = !resident_pages(&st.resident_after);
	ghist_merge(&run_lat, &st.lat);
	/* the residency checks of the swap-in timing are not the phase's */
	phase_line(idx, ph, "end", &st, t1 - t0 - st.check_ns);
	zswap_sample();
}

static void setup_area(void)
{
	uint64_t bytes = plan.size_mb << 20;
	size_t len;
	char *p;

	if (plan.size_ram != 0) {
		bytes = (uint64_t)(plan.size_ram * (double)mem_total_bytes());
		bytes &= ~(uint64_t)(GPAT_PAGE - 1);
	}
	if (plan.thp_area)
		bytes = (bytes + HPAGE - 1) & ~(uint64_t)(HPAGE - 1);
	nanon = bytes / GPAT_PAGE;
	nshm = (plan.shmem_mb << 20) / GPAT_PAGE;
	npages = nanon + nshm;
	if (!nanon)
		gu_fatal("workload: empty area");
	if (npages > UINT32_MAX)
		gu_fatal("workload: %zu pages is too many", npages);

	len = nanon * GPAT_PAGE + (plan.thp_area ? HPAGE : 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		gu_fatal("mmap %zu MiB anonymous: %s", len >> 20, strerror(errno));
	if (plan.thp_area) {
		anon = (char *)(((uintptr_t)p + HPAGE - 1) & ~(HPAGE - 1));
		if (madvise(anon, nanon * GPAT_PAGE, MADV_HUGEPAGE))
			gu_fatal("madvise(MADV_HUGEPAGE): %s%s", strerror(errno),
			      errno == EINVAL ?
			      " (kernel without CONFIG_TRANSPARENT_HUGEPAGE)" :
			      "");
	} else {
		anon = p;
	}
	if (nshm) {
		int fd = memfd_create("swapctl-shmem", MFD_CLOEXEC);

		if (fd < 0)
			gu_fatal("memfd_create: %s", strerror(errno));
		if (ftruncate(fd, (off_t)(nshm * GPAT_PAGE)))
			gu_fatal("ftruncate memfd %zu MiB: %s",
			      (nshm * GPAT_PAGE) >> 20, strerror(errno));
		shm = mmap(NULL, nshm * GPAT_PAGE, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, 0);
		if (shm == MAP_FAILED)
			gu_fatal("mmap shmem: %s", strerror(errno));
		close(fd);
	}
	gen = calloc(npages, 1);
	bad = calloc(npages, 1);
	lost = calloc(npages, 1);
	if (!gen || !bad || !lost)
		gu_fatal("no memory for %zu page states", npages);
}

int main(int argc, char **argv)
{
	static char text[64 * 1024];
	char err[GPLAN_ERR_LEN];
	ssize_t n;
	int i;

	signal(SIGPIPE, SIG_IGN);
	prog = gu_progress_map(GU_PROGRESS_PATH);
	result.progress = prog;
	gu_result_setup(&result);
	if (argc != 2) {
		fprintf(stderr, "usage: workload PLAN\n");
		return 3;
	}
	n = gu_read_file(argv[1], text, sizeof(text));
	if (n < 0)
		gu_fatal("%s: %s", argv[1], strerror((int)-n));
	if (gplan_parse(text, &plan, err, sizeof(err)))
		gu_fatal("%s: %s", argv[1], err);
	catch_sigbus();
	/* before the area exists: the fault process shares none of it */
	faults_pid = gfault_start(&plan, prog, STDOUT_FILENO);
	if (faults_pid < 0)
		gu_fatal("fork the fault process: %s", strerror(errno));
	setup_area();
	for (i = 0; i < plan.nphase; i++)
		run_phase(i, &plan.phase[i]);
	gfault_stop(faults_pid);
	if (prog->pages_corrupt) {
		gu_result("corrupt", "");
		return 1;
	}
	/* a fault that was not injected as asked: nothing was shown */
	if (prog->fault_error[0]) {
		fprintf(stderr, "swapctl-workload: %s\n", prog->fault_error);
		gu_result("error", prog->fault_error);
		return 2;
	}
	gu_result("pass", "");
	return 0;
}
