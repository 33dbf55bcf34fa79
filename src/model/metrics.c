// SPDX-License-Identifier: GPL-2.0
/*
 * metrics: the registry. See metrics.h and doc/HACKING.md "Metrics".
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "util.h"

#define PAGE_MIB	(4096.0 / 1048576.0)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static struct stats_val na(void)
{
	struct stats_val v = { STATS_NA, 0 };

	return v;
}

static struct stats_val dev_write_ios(const struct metric_in *in)
{
	return in->total.dev_wr_ios;
}

static struct stats_val dev_read_ios(const struct metric_in *in)
{
	return in->total.dev_rd_ios;
}

static struct stats_val dev_write_ppio(const struct metric_in *in)
{
	return in->total.dev_wr_ppio;
}

/* host lines: rd_req/wr_req of the swap disks (virDomainBlockStats) */
static struct stats_val host_req(const struct metric_in *in, bool wr)
{
	const struct track *t = in->t;
	const struct track_host_point *h;
	size_t i;

	/*
	 * host lines may carry only the CPU time (zram: no disk; the last
	 * line after the power-off): the last one with the disks counts
	 */
	for (i = t->nhost; i > 0 && !t->host[i - 1].has_blk; i--)
		;
	if (!i)
		return stats_missing();
	h = &t->host[i - 1];
	return stats_ok((double)(wr ? h->wr_req : h->rd_req));
}

static struct stats_val host_write_req(const struct metric_in *in)
{
	return host_req(in, true);
}

static struct stats_val host_read_req(const struct metric_in *in)
{
	return host_req(in, false);
}

static struct stats_val swapout_mibs(const struct metric_in *in)
{
	struct stats_val v = in->total.pswpout_s;

	if (v.state == STATS_OK)
		v.v *= PAGE_MIB;
	return v;
}

static struct stats_val free_low(const struct metric_in *in)
{
	return in->total.free_low_kb;
}

static struct stats_val writeback_peak(const struct metric_in *in)
{
	return in->total.writeback_peak_kb;
}

static struct stats_val below_min_time(const struct metric_in *in)
{
	return in->total.below_min_s;
}

static struct stats_val swap_peak(const struct metric_in *in)
{
	if (!in->t->npts)
		return na();
	return stats_ok((double)in->total.swap_peak_kb / 1024);
}

static struct stats_val pages_verified(const struct metric_in *in)
{
	if (!in->t->have_result)
		return na();
	return stats_ok((double)in->t->pages_verified);
}

static struct stats_val pages_corrupt(const struct metric_in *in)
{
	if (!in->t->have_result)
		return na();
	return stats_ok((double)in->t->pages_corrupt);
}

static struct stats_val pages_failed(const struct metric_in *in)
{
	if (!in->t->have_result)
		return na();
	return stats_ok((double)in->t->pages_failed);
}

static struct stats_val pages_failed_distinct(const struct metric_in *in)
{
	if (!in->t->have_result)
		return na();
	return stats_ok((double)in->t->pages_failed_distinct);
}

static struct stats_val swap_read_errors(const struct metric_in *in)
{
	if (!in->t->console_scanned)
		return na();
	return stats_ok((double)in->t->swap_read_errors);
}

static struct stats_val swap_write_errors(const struct metric_in *in)
{
	if (!in->t->console_scanned)
		return na();
	return stats_ok((double)in->t->swap_write_errors);
}

/*
 * The sum of the vmstat counters of @t whose name starts with @prefix
 * (allocstall_normal, _movable, _dma32...): missing when it has none.
 */
static struct stats_val counter_sum(const struct metric_in *in,
				    const char *prefix)
{
	const struct track *t = in->t;
	size_t n = strlen(prefix);
	uint64_t sum = 0;
	unsigned int i;
	bool any = false;

	if (in->window || !t->npts)
		return na();
	for (i = 0; i < t->nctr; i++)
		if (!strncmp(t->ctr[i].name, prefix, n)) {
			sum += t->ctr[i].cum;
			any = true;
		}
	return any ? stats_ok((double)sum) : stats_missing();
}

static struct stats_val allocstall(const struct metric_in *in)
{
	return counter_sum(in, "allocstall_");
}

/*
 * Stat @stat of every mTHP size below the PMD size (2048 kB on x86-64:
 * whole PMD THPs are thp_swpout), counters "mthp_<K>kB_<stat>" summed.
 */
static struct stats_val mthp_sum(const struct metric_in *in,
				 const char *stat)
{
	const struct track *t = in->t;
	uint64_t sum = 0;
	unsigned int i;
	bool any = false;

	if (in->window || !t->npts)
		return na();
	for (i = 0; i < t->nctr; i++) {
		const char *name = t->ctr[i].name;
		char *end;
		unsigned long kb;

		if (strncmp(name, "mthp_", 5))
			continue;
		kb = strtoul(name + 5, &end, 10);
		if (end == name + 5 || strncmp(end, "kB_", 3) ||
		    strcmp(end + 3, stat) || kb >= 2048)
			continue;
		sum += t->ctr[i].cum;
		any = true;
	}
	return any ? stats_ok((double)sum) : stats_missing();
}

static struct stats_val mthp_swpout(const struct metric_in *in)
{
	return mthp_sum(in, "swpout");
}

static struct stats_val mthp_swpout_fallback(const struct metric_in *in)
{
	return mthp_sum(in, "swpout_fallback");
}

/* zram mm_stat peaks (track.h): n/a without a zram device */
static struct stats_val zram_compr_peak(const struct metric_in *in)
{
	if (!in->t->has_zram_mm)
		return na();
	return stats_ok((double)in->t->zram_compr_peak / 1048576);
}

static struct stats_val zram_used_peak(const struct metric_in *in)
{
	if (!in->t->has_zram_mm)
		return na();
	return stats_ok((double)in->t->zram_mem_used_peak / 1048576);
}

static struct stats_val zram_huge_peak(const struct metric_in *in)
{
	if (!in->t->has_zram_mm)
		return na();
	if (!in->t->has_zram_huge)
		return stats_missing();
	return stats_ok((double)in->t->zram_huge_peak);
}

static struct stats_val alloc_failures(const struct metric_in *in)
{
	if (!in->t->console_scanned)
		return na();
	return stats_ok((double)in->t->alloc_failures);
}

static struct stats_val hung_tasks(const struct metric_in *in)
{
	if (!in->t->console_scanned)
		return na();
	return stats_ok((double)in->t->hung_tasks);
}

/*
 * Command workloads (track.h): n/a without a limited run that ended,
 * missing when one of them did not give the figure (an older guest).
 */
static struct stats_val cmd_value(const struct metric_in *in,
				  unsigned int runs, uint64_t v, double scale)
{
	if (!in->t->cmd_runs)
		return na();
	if (runs < in->t->cmd_runs)
		return stats_missing();
	return stats_ok((double)v * scale);
}

static struct stats_val cmd_real(const struct metric_in *in)
{
	return cmd_value(in, in->t->cmd_runs, in->t->cmd_ns, 1e-9);
}

static struct stats_val cmd_user(const struct metric_in *in)
{
	return cmd_value(in, in->t->cmd_cpu_runs, in->t->cmd_user_ns, 1e-9);
}

static struct stats_val cmd_sys(const struct metric_in *in)
{
	return cmd_value(in, in->t->cmd_cpu_runs, in->t->cmd_sys_ns, 1e-9);
}

#define CG_STAT(fn, i)							\
static struct stats_val fn(const struct metric_in *in)			\
{									\
	return cmd_value(in, in->t->cg_runs[i], in->t->cg_stat[i], 1);	\
}

CG_STAT(cg_refault, STREAM_CG_REFAULT_ANON)
CG_STAT(cg_pgscan, STREAM_CG_PGSCAN)
CG_STAT(cg_pgsteal, STREAM_CG_PGSTEAL)
CG_STAT(cg_zswpout, STREAM_CG_ZSWPOUT)

/* n/a without a slab_error that ended and counted (its end line) */
static struct stats_val slab_errors_injected(const struct metric_in *in)
{
	if (!in->t->has_slab_injected)
		return na();
	return stats_ok((double)in->t->slab_injected);
}

static struct stats_val boot_seconds(const struct metric_in *in)
{
	if (!in->t->hello)
		return na();
	return stats_ok((double)in->t->hello_t_ns / 1e9);
}

static struct stats_val workload_seconds(const struct metric_in *in)
{
	const struct track *t = in->t;
	double s = 0;
	unsigned int i, n = 0;

	for (i = 0; i < t->nphases; i++) {
		const struct track_phase *p = &t->phases[i];

		if (!p->ended)
			continue;
		s += p->has_stats ? (double)p->ns / 1e9 :
		     (double)(p->end_ns - p->start_ns) / 1e9;
		n++;
	}
	return n ? stats_ok(s) : na();
}

static struct stats_val duration_seconds(const struct metric_in *in)
{
	if (in->t->npts < 2)
		return na();
	return stats_ok((double)track_span_ns(in->t) / 1e9);
}

/*
 * Pages evicted per page asked over the pageout phases: from the
 * workload's residency check (mincore before and after) when the phases
 * carry it, else the pages written to swap while each pageout phase ran
 * (from the last sample before its start to the first sample after its
 * end) per page the phase asked to push out.
 */
static struct stats_val pageout_evicted(const struct metric_in *in)
{
	const struct track *t = in->t;
	const unsigned int bit = 1u << TF_PSWPOUT;
	double out = 0, asked = 0;
	unsigned int i;

	for (i = 0; i < t->nphases; i++) {
		const struct track_phase *p = &t->phases[i];

		if (p->ended && p->has_residency &&
		    !strcmp(p->name, "pageout")) {
			out += (double)p->evicted;
			asked += (double)p->asked;
		}
	}
	if (asked > 0)
		return stats_ok(out / asked);

	for (i = 0; i < t->nphases; i++) {
		const struct track_phase *p = &t->phases[i];
		const struct track_point *a, *b;
		size_t ib;
		long ia;

		if (!p->ended || !p->has_stats || strcmp(p->name, "pageout"))
			continue;
		ia = track_point_before(t, p->start_ns);
		ib = track_point_after(t, p->end_ns);
		if (ib >= t->npts)
			ib = t->npts ? t->npts - 1 : 0;
		if (!t->npts)
			return na();
		a = ia >= 0 ? &t->pts[ia] : NULL;
		b = &t->pts[ib];
		if (!(b->present & bit) || (a && !(a->present & bit)))
			return stats_missing();
		out += (double)(b->v[TF_PSWPOUT] - (a ? a->v[TF_PSWPOUT] : 0));
		asked += (double)p->pages;
	}
	if (asked <= 0)
		return na();
	return stats_ok(out / asked);
}

/* Guest CPU, PSI and host CPU: the track_interval of the total/window. */
static struct stats_val cpu_user_s(const struct metric_in *in)
{
	return in->total.cpu_user;
}

static struct stats_val cpu_sys_s(const struct metric_in *in)
{
	return in->total.cpu_sys;
}

static struct stats_val cpu_iowait_s(const struct metric_in *in)
{
	return in->total.cpu_iowait;
}

static struct stats_val cpu_softirq_s(const struct metric_in *in)
{
	return in->total.cpu_softirq;
}

static struct stats_val sys_ms_per_mib(const struct metric_in *in)
{
	return in->total.sys_ms_per_mib;
}

static struct stats_val psi_some_s(const struct metric_in *in)
{
	return in->total.psi_some;
}

static struct stats_val psi_full_s(const struct metric_in *in)
{
	return in->total.psi_full;
}

static struct stats_val host_cpu_s(const struct metric_in *in)
{
	return in->total.host_cpu;
}

/* 4 KiB pages: 256 per MiB, as stats.c's sys_ms_per_mib */
static struct stats_val host_ms_per_mib(const struct metric_in *in)
{
	struct stats_val ms = in->total.host_cpu, mib = in->total.pswpout;
	struct stats_val in_pages = in->total.pswpin;

	if (in_pages.state != STATS_OK)
		mib = in_pages;		/* n/a or missing */
	else if (mib.state == STATS_OK)
		mib.v = (mib.v + in_pages.v) / 256;
	if (ms.state == STATS_OK)
		ms.v *= 1e3;
	return stats_ratio(ms, mib);
}

/*
 * Over the ended phases named @name: the pages the workload's mincore()
 * check found freed (evicted) per page asked. Missing if such a phase
 * ended without the check (an older guest).
 */
static struct stats_val phases_freed(const struct metric_in *in,
				     const char *name)
{
	const struct track *t = in->t;
	double evicted = 0, asked = 0;
	unsigned int i, n = 0;

	for (i = 0; i < t->nphases; i++) {
		const struct track_phase *p = &t->phases[i];

		if (!p->ended || strcmp(p->name, name))
			continue;
		if (!p->has_residency)
			return stats_missing();
		evicted += (double)p->evicted;
		asked += (double)p->asked;
		n++;
	}
	if (!n || asked <= 0)
		return na();
	return stats_ok(evicted / asked);
}

static struct stats_val pageout_freed(const struct metric_in *in)
{
	return phases_freed(in, "pageout");
}

static struct stats_val pressure_freed(const struct metric_in *in)
{
	return phases_freed(in, "pressure");
}

/* The workload's own time (end lines' ns) of the phases named @name. */
static struct stats_val phases_seconds(const struct metric_in *in,
				       const char *name)
{
	const struct track *t = in->t;
	double s = 0;
	unsigned int i, n = 0;

	for (i = 0; i < t->nphases; i++) {
		const struct track_phase *p = &t->phases[i];

		if (!p->ended || strcmp(p->name, name))
			continue;
		s += p->has_stats ? (double)p->ns / 1e9 :
		     (double)(p->end_ns - p->start_ns) / 1e9;
		n++;
	}
	return n ? stats_ok(s) : na();
}

/*
 * Swap-in latency of the result line (the histogram summed over the
 * verifying phases, common/agentproto.h): missing from a guest that does
 * not time them, n/a before the result or without a timed swap-in.
 */
static struct stats_val swapin_us(const struct metric_in *in,
				  const uint64_t *us)
{
	const struct track *t = in->t;

	if (!t->have_result)
		return na();
	if (!t->has_swapin)
		return stats_missing();
	if (!t->swapin_faults)
		return na();
	return stats_ok((double)*us);
}

static struct stats_val swapin_faults(const struct metric_in *in)
{
	const struct track *t = in->t;

	if (!t->have_result)
		return na();
	if (!t->has_swapin)
		return stats_missing();
	return stats_ok((double)t->swapin_faults);
}

static struct stats_val swapin_p50(const struct metric_in *in)
{
	return swapin_us(in, &in->t->swapin_p50_us);
}

static struct stats_val swapin_p99(const struct metric_in *in)
{
	return swapin_us(in, &in->t->swapin_p99_us);
}

static struct stats_val swapin_max(const struct metric_in *in)
{
	return swapin_us(in, &in->t->swapin_max_us);
}

#define PHASE_SECONDS(ph)						\
static struct stats_val ph##_seconds(const struct metric_in *in)	\
{									\
	return phases_seconds(in, #ph);					\
}

/*
 * Share of the swap I/Os that swap_io_wq submitted for a task that slept
 * with its batch pending: (nrswpin_deferred + nrswpout_deferred) /
 * (nrswpin + nrswpout). The deferred ones are among the submitted ones,
 * so it lies in [0, 1].
 */
static struct stats_val deferred_share(const struct metric_in *in)
{
	static const char *const name[] = {
		"nrswpin_deferred", "nrswpout_deferred", "nrswpin", "nrswpout"
	};
	uint64_t v[ARRAY_SIZE(name)];
	size_t i;

	if (in->window || !in->t->npts)
		return na();
	for (i = 0; i < ARRAY_SIZE(name); i++)
		if (!track_counter_value(in->t, name[i], &v[i]))
			return stats_missing();
	return stats_ratio(stats_ok((double)(v[0] + v[1])),
			   stats_ok((double)(v[2] + v[3])));
}

/*
 * A value the workload measured itself (track_value(): the result line's
 * or a limited command run's "values"): n/a without it (another kind of
 * workload, or the scenario does not use what measures it).
 */
static struct stats_val workload_value(const struct metric_in *in,
				       const char *name)
{
	uint64_t v;

	if (!track_value(in->t, name, &v))
		return na();
	return stats_ok((double)v);
}

#define WORKLOAD_VALUE(key)						\
static struct stats_val key##_value(const struct metric_in *in)	\
{									\
	return workload_value(in, #key);				\
}

WORKLOAD_VALUE(zswap_written_back_pages)
WORKLOAD_VALUE(zswap_pool_peak_kib)
WORKLOAD_VALUE(zswap_pool_limit_hit)
WORKLOAD_VALUE(redis_get_rps)
WORKLOAD_VALUE(redis_get_p50_us)
WORKLOAD_VALUE(redis_get_p99_us)
WORKLOAD_VALUE(redis_keys)
WORKLOAD_VALUE(usemem_kbps_sum)
WORKLOAD_VALUE(usemem_free_us_max)

PHASE_SECONDS(fill)
PHASE_SECONDS(pageout)
PHASE_SECONDS(pressure)
PHASE_SECONDS(read)
PHASE_SECONDS(willneed)
PHASE_SECONDS(rewrite)

#define PHASE_ENTRY(ph, lbl)						\
	{								\
		.key = #ph "_seconds", .label = lbl, .unit = "s",	\
		.eval = ph##_seconds,					\
		.how = "sum of the ns of the " #ph " phases' end lines (the workload's clock)", \
		.dir = METRIC_LOWER_BETTER, .decimals = 2,		\
		.min_effect = 0.01,					\
	}

const struct metric_def metric_defs[] = {
	{
		.key = "pswpout", .live = true, .label = "pages swapped out",
		.unit = "pages", .vmstat = "pswpout",
		.how = "vmstat pswpout since boot; the workload asks for a fixed set of pages to be pushed out, so fewer means pages stayed in memory",
		.dir = METRIC_HIGHER_BETTER, .min_effect = 0.05,
		.deterministic = true,
	}, {
		.key = "nrswpout", .live = true, .label = "swap write I/Os",
		.unit = "I/Os", .vmstat = "nrswpout",
		.how = "vmstat nrswpout (swap write I/Os submitted) since boot",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
		.deterministic = true,
	}, {
		.key = "write_pages_per_io", .live = true, .label = "write pages/I/O",
		.unit = "pages/I/O", .num = "pswpout", .den = "nrswpout",
		.how = "pswpout / nrswpout",
		.dir = METRIC_HIGHER_BETTER, .decimals = 2,
		.min_effect = 0.01, .deterministic = true,
	}, {
		.key = "pswpin", .live = true, .label = "pages swapped in",
		.unit = "pages", .vmstat = "pswpin",
		.how = "vmstat pswpin since boot; the workload reads every page back, so fewer means fewer pages had reached swap",
		.dir = METRIC_HIGHER_BETTER, .min_effect = 0.05,
		.deterministic = true,
	}, {
		.key = "nrswpin", .live = true, .label = "swap read I/Os",
		.unit = "I/Os", .vmstat = "nrswpin",
		.how = "vmstat nrswpin (swap read I/Os submitted) since boot",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
		.deterministic = true,
	}, {
		.key = "read_pages_per_io", .live = true, .label = "read pages/I/O",
		.unit = "pages/I/O", .num = "pswpin", .den = "nrswpin",
		.how = "pswpin / nrswpin",
		.dir = METRIC_HIGHER_BETTER, .decimals = 2,
		.min_effect = 0.01, .deterministic = true,
	}, {
		.key = "nrswpin_deferred", .label = "read batches deferred",
		.unit = "I/Os", .vmstat = "nrswpin_deferred",
		.how = "vmstat nrswpin_deferred since boot: swap read batches that a task left on its plug when it slept, submitted for it by swap_io_wq in its blkcg (the 16-patch swap-ops series of 2026-12-06 had them; no shipped series does: missing)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "nrswpout_deferred", .label = "write batches deferred",
		.unit = "I/Os", .vmstat = "nrswpout_deferred",
		.how = "vmstat nrswpout_deferred since boot: swap write batches that a task left on its plug when it slept, submitted for it by swap_io_wq with its PF_MEMALLOC (the 16-patch swap-ops series of 2026-12-06 had them; no shipped series does: missing)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "deferred_share", .label = "deferred swap I/Os",
		.unit = "share", .eval = deferred_share,
		.how = "(nrswpin_deferred + nrswpout_deferred) / (nrswpin + nrswpout): the share of swap I/Os submitted by swap_io_wq for a task that slept",
		.dir = METRIC_NEUTRAL, .decimals = 3, .min_effect = 0.05,
	}, {
		.key = "pageout_evicted", .label = "evicted per pageout",
		.unit = "pages/page", .eval = pageout_evicted,
		.how = "over all pageout phases: pages evicted / pages asked, from the workload's residency check (mincore) when present, else pswpout while the phase ran (samples around it) / pages asked",
		.dir = METRIC_HIGHER_BETTER, .decimals = 3,
		/*
		 * not deterministic: mincore right after MADV_PAGEOUT
		 * still sees pages under writeback as resident
		 */
		.min_effect = 0.05,
	}, {
		.key = "thp_swpout", .label = "THPs swapped out whole",
		.unit = "THPs", .vmstat = "thp_swpout", .lines = "6.1 6.12",
		.how = "/proc/vmstat thp_swpout since boot: PMD-size THPs written to swap without being split (needs CONFIG_TRANSPARENT_HUGEPAGE)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
		.deterministic = true,
	}, {
		.key = "thp_swpout_fallback", .label = "THP swap-out fallbacks",
		.unit = "THPs", .vmstat = "thp_swpout_fallback",
		.lines = "6.1 6.12",
		.how = "/proc/vmstat thp_swpout_fallback since boot: PMD-size THPs split before swap-out because no contiguous swap space was found for them",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "mthp_swpout", .label = "mTHPs swapped out",
		.unit = "folios", .eval = mthp_swpout, .lines = "6.12",
		.how = "/sys/kernel/mm/transparent_hugepage/hugepages-<K>kB/stats/swpout summed over the sizes below 2048 kB (the PMD size, whose THPs are thp_swpout), last sample: multi-size THPs written to swap whole; per size in samples.jsonl (\"mthp\")",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "mthp_swpout_fallback", .label = "mTHP swap-out fallbk",
		.unit = "folios", .eval = mthp_swpout_fallback, .lines = "6.12",
		.how = "hugepages-<K>kB/stats/swpout_fallback summed over the sizes below 2048 kB: mTHPs split before swap-out (no contiguous swap slots for them)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "mthp_64kb_swpout", .label = "64K mTHPs swapped out",
		.unit = "folios", .vmstat = "mthp_64kB_swpout", .lines = "6.12",
		.how = "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats/swpout (the size the mthp scenarios enable)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "mthp_64kb_swpout_fallback",
		.label = "64K mTHP sw-out fallbk", .unit = "folios",
		.vmstat = "mthp_64kB_swpout_fallback", .lines = "6.12",
		.how = "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats/swpout_fallback",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "workingset_refault_anon", .label = "anon refaults",
		.unit = "pages", .vmstat = "workingset_refault_anon",
		.lines = "6.1 6.12",
		.how = "/proc/vmstat workingset_refault_anon since boot: anonymous pages faulted back in soon after reclaim evicted them (their shadow entry still in the swap cache)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "pgscan_kswapd", .label = "pages scanned kswapd",
		.unit = "pages", .vmstat = "pgscan_kswapd", .lines = "6.1 6.12",
		.how = "/proc/vmstat pgscan_kswapd since boot: pages kswapd's reclaim scanned (anon and file)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "pgscan_direct", .label = "pages scanned direct",
		.unit = "pages", .vmstat = "pgscan_direct", .lines = "6.1 6.12",
		.how = "/proc/vmstat pgscan_direct since boot: pages scanned by direct reclaim (the allocating task waits)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "pgsteal_kswapd", .label = "pages reclaimed kswapd",
		.unit = "pages", .vmstat = "pgsteal_kswapd", .lines = "6.1 6.12",
		.how = "/proc/vmstat pgsteal_kswapd since boot: pages kswapd reclaimed",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "pgsteal_direct", .label = "pages reclaimed direct",
		.unit = "pages", .vmstat = "pgsteal_direct", .lines = "6.1 6.12",
		.how = "/proc/vmstat pgsteal_direct since boot: pages reclaimed by direct reclaim",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "pgscan_anon", .label = "anon pages scanned",
		.unit = "pages", .vmstat = "pgscan_anon", .lines = "6.1 6.12",
		.how = "/proc/vmstat pgscan_anon since boot: anonymous pages scanned by reclaim (kswapd, direct and khugepaged)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "pgsteal_anon", .label = "anon pages reclaimed",
		.unit = "pages", .vmstat = "pgsteal_anon", .lines = "6.1 6.12",
		.how = "/proc/vmstat pgsteal_anon since boot: anonymous pages reclaimed (each one written to swap or zswap first)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "allocstall", .label = "direct reclaim stalls",
		.unit = "stalls", .eval = allocstall, .lines = "6.1 6.12",
		.how = "/proc/vmstat allocstall_<zone> (dma, dma32, normal, movable: the zones the kernel has) summed, since boot: allocations that entered direct reclaim",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "device_write_ios", .live = true, .label = "device write I/Os",
		.unit = "I/Os", .eval = dev_write_ios,
		.how = "wr_ios of the swap devices' guest blk stats since boot (after the block layer's merging)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "device_read_ios", .live = true, .label = "device read I/Os",
		.unit = "I/Os", .eval = dev_read_ios,
		.how = "rd_ios of the swap devices' guest blk stats since boot",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "device_write_pages_per_io", .live = true,
		.label = "device wr pages/I/O", .unit = "pages/I/O",
		.eval = dev_write_ppio,
		.how = "(wr_sectors / 8) / wr_ios of the swap devices' guest blk stats",
		.dir = METRIC_HIGHER_BETTER, .decimals = 2,
		.min_effect = 0.01,
	}, {
		.key = "host_write_requests", .label = "host write requests",
		.unit = "requests", .eval = host_write_req,
		.how = "wr_req of the swap disks from virDomainBlockStats (host lines), last value",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "host_read_requests", .label = "host read requests",
		.unit = "requests", .eval = host_read_req,
		.how = "rd_req of the swap disks from virDomainBlockStats (host lines), last value",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "pgmajfault", .live = true, .label = "major faults",
		.unit = "faults", .vmstat = "pgmajfault",
		.how = "vmstat pgmajfault since boot",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "swapout_mib_per_s", .label = "swap-out MiB/s",
		.unit = "MiB/s", .eval = swapout_mibs,
		.how = "pswpout * 4 KiB over the time from the first to the last sample",
		.dir = METRIC_HIGHER_BETTER, .decimals = 2,
		.min_effect = 0.01,
	}, {
		.key = "swap_peak_mib", .label = "swap used peak MiB",
		.unit = "MiB", .eval = swap_peak,
		.how = "the largest sum of used_kb of the swap areas over the samples",
		.dir = METRIC_NEUTRAL, .decimals = 1, .min_effect = 0.05,
	}, {
		.key = "free_low_kib", .label = "free memory low KiB",
		.unit = "KiB", .eval = free_low,
		.how = "the least free memory of any sample: vmstat nr_free_pages (at each sample, not the true minimum between them)",
		.dir = METRIC_HIGHER_BETTER, .min_effect = 0.05,
	}, {
		.key = "below_min_s", .label = "below min watermark s",
		.unit = "s", .eval = below_min_time,
		.how = "the sample intervals that ended with vmstat nr_free_pages below the zones' min watermarks summed (/proc/zoneinfo min, boost included, read once a second): time on the reserves that only PF_MEMALLOC and atomic allocations may use",
		.dir = METRIC_LOWER_BETTER, .decimals = 1, .min_effect = 0.05,
	}, {
		.key = "writeback_peak_kib", .label = "writeback peak KiB",
		.unit = "KiB", .eval = writeback_peak,
		.how = "the most memory under writeback in any sample: vmstat nr_writeback (swap writes submitted and not completed, with file writeback)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "pages_verified", .label = "pages verified",
		.unit = "pages", .eval = pages_verified,
		.how = "pages_verified of the workload's result line",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
		.deterministic = true,
	}, {
		.key = "pages_corrupt", .label = "pages corrupt",
		.unit = "pages", .eval = pages_corrupt,
		.how = "pages_corrupt of the workload's result line",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "pages_failed", .label = "pages failed (SIGBUS)",
		.unit = "pages", .eval = pages_failed,
		.how = "pages_failed of the result line: swap-ins that failed loudly (SIGBUS), one per page per verifying phase",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "pages_failed_distinct", .label = "distinct pages failed",
		.unit = "pages", .eval = pages_failed_distinct,
		.how = "pages_failed_distinct of the result line",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "swap_read_errors", .label = "swap read errors",
		.unit = "lines", .eval = swap_read_errors,
		.how = "\"Read-error on swap-device\" lines in the guest's console.log (not the stream)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "swap_write_errors", .label = "swap write errors",
		.unit = "lines", .eval = swap_write_errors,
		.how = "\"Write-error on swap-device\" and (swap files: NFS) \"Write error N on dio swapfile\" lines in the guest's console.log, with their rate limit's suppressed callbacks (not the stream)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "kernel_alloc_failures", .label = "page alloc failures",
		.unit = "lines", .eval = alloc_failures,
		.how = "\"page allocation failure\" lines in the guest's console.log (warn_alloc(); not the stream)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "kernel_hung_tasks", .label = "hung task reports",
		.unit = "lines", .eval = hung_tasks,
		.how = "\"blocked for more than\" lines in the guest's console.log (the hung task detector, CONFIG_DETECT_HUNG_TASK)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "zram_compr_peak_mib", .label = "zram compressed peak",
		.unit = "MiB", .eval = zram_compr_peak,
		.how = "the largest compr_data_size of /sys/block/zram*/mm_stat (summed over the zram devices) of any sample: the compressed size of what zram held; n/a without zram",
		.dir = METRIC_NEUTRAL, .decimals = 1, .min_effect = 0.05,
	}, {
		.key = "zram_mem_used_peak_mib", .label = "zram memory used peak",
		.unit = "MiB", .eval = zram_used_peak,
		.how = "the largest mem_used_total of zram's mm_stat of any sample: memory zram's allocator (zsmalloc) took, fragmentation included",
		.dir = METRIC_LOWER_BETTER, .decimals = 1, .min_effect = 0.05,
	}, {
		.key = "zram_huge_pages_peak", .label = "zram huge pages peak",
		.unit = "pages", .eval = zram_huge_peak,
		.how = "the largest huge_pages of zram's mm_stat of any sample: pages stored uncompressed because they did not compress",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "command_real_seconds", .label = "command real s",
		.unit = "s", .eval = cmd_real,
		.how = "command workloads: ns of the limited runs' end lines summed (wall time of each run in the guest; the reference run left out)",
		.dir = METRIC_LOWER_BETTER, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "command_user_seconds", .label = "command user s",
		.unit = "s", .eval = cmd_user,
		.how = "command workloads: user_ns of the limited runs' end lines (getrusage of the run's processes): the identity check, the same work gives the same user time on every kernel",
		.dir = METRIC_NEUTRAL, .decimals = 2, .min_effect = 0.05,
	}, {
		.key = "command_system_seconds", .label = "command system s",
		.unit = "s", .eval = cmd_sys,
		.how = "command workloads: sys_ns of the limited runs' end lines (getrusage): kernel time of the build, reclaim and swap included",
		.dir = METRIC_LOWER_BETTER, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "cg_workingset_refault_anon", .label = "cgroup anon refaults",
		.unit = "pages", .eval = cg_refault, .lines = "6.1 6.12",
		.how = "command workloads: workingset_refault_anon of the limited runs' cgroup memory.stat, read as each run ended, summed",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "cg_pgscan", .label = "cgroup pages scanned",
		.unit = "pages", .eval = cg_pgscan, .lines = "6.1 6.12",
		.how = "command workloads: pgscan of the limited runs' cgroup memory.stat (reclaim in and for the cgroup), summed",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "cg_pgsteal", .label = "cgroup pages reclaimed",
		.unit = "pages", .eval = cg_pgsteal, .lines = "6.1 6.12",
		.how = "command workloads: pgsteal of the limited runs' cgroup memory.stat, summed",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "cg_zswpout", .label = "cgroup zswap stores",
		.unit = "pages", .eval = cg_zswpout, .lines = "6.1 6.12",
		.how = "command workloads: zswpout of the limited runs' cgroup memory.stat (pages stored in zswap; needs CONFIG_ZSWAP), summed",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "slab_errors_injected", .label = "slab errors injected",
		.unit = "allocations", .eval = slab_errors_injected,
		.how = "\"injected\" of the slab_error fault's end line: how far failslab's times counted down while it was on (slab allocations it failed); n/a without a slab_error",
		.dir = METRIC_NEUTRAL, .min_effect = 0,
		.deterministic = true,
	}, {
		.key = "zswap_written_back_pages", .label = "zswap written back",
		.unit = "pages", .eval = zswap_written_back_pages_value,
		.how = "written_back_pages of /sys/kernel/debug/zswap at the workload's end (6.1 and 6.12; 6.12 also counts them as vmstat zswpwb): pages zswap wrote from its pool to the swap device (zswap_writeback_entry) when the pool was full; n/a without zswap enabled",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "zswpout", .label = "zswap stores",
		.unit = "pages", .vmstat = "zswpout", .lines = "6.1 6.12",
		.how = "vmstat zswpout since boot: pages zswap compressed into its pool instead of writing them to the swap device (a page it rejected, pool full or incompressible, is written and counted in pswpout)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "zswpin", .label = "zswap loads",
		.unit = "pages", .vmstat = "zswpin", .lines = "6.1 6.12",
		.how = "vmstat zswpin since boot: pages swapped in from zswap's pool (not from the device)",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "zswpwb", .label = "zswap wb (zswpwb)",
		.unit = "pages", .vmstat = "zswpwb", .lines = "6.12",
		.how = "vmstat zswpwb since boot (6.12; 6.1 has no such counter, its written-back pages are zswap_written_back_pages from debugfs): pages zswap wrote back from its pool to the swap device",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "zswap_pool_peak_kib", .label = "zswap pool peak KiB",
		.unit = "KiB", .eval = zswap_pool_peak_kib_value,
		.how = "the largest pool_total_size of /sys/kernel/debug/zswap read at the end of each phase (synthetic workload) or of the command runs (bytes / 1024); n/a without zswap enabled",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "zswap_pool_limit_hit", .label = "zswap pool limit hit",
		.unit = "times", .eval = zswap_pool_limit_hit_value,
		.how = "pool_limit_hit of /sys/kernel/debug/zswap at the workload's end: stores that found the pool at max_pool_percent; n/a without zswap enabled",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		.key = "redis_get_rps", .label = "redis GET req/s",
		.unit = "req/s", .eval = redis_get_rps_value,
		.how = "rps of redis-benchmark --csv for GET over the random keyspace (-r), the limited run's (swapctl-redis, a command scenario)",
		.dir = METRIC_HIGHER_BETTER, .min_effect = 0.01,
	}, {
		.key = "redis_get_p50_us", .label = "redis GET p50 us",
		.unit = "us", .eval = redis_get_p50_us_value,
		.how = "p50_latency_ms of redis-benchmark --csv for GET, in microseconds",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "redis_get_p99_us", .label = "redis GET p99 us",
		.unit = "us", .eval = redis_get_p99_us_value,
		.how = "p99_latency_ms of redis-benchmark --csv for GET, in microseconds",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "redis_keys", .label = "redis keys verified",
		.unit = "keys", .eval = redis_keys_value,
		.how = "keys of the data set whose DEBUG DIGEST after the reads matched the one after the load (swapctl-redis exits 1 on a mismatch, which fails the run)",
		.dir = METRIC_NEUTRAL, .min_effect = 0, .deterministic = true,
	}, {
		.key = "usemem_kbps_sum", .label = "usemem KB/s (sum)",
		.unit = "KB/s", .eval = usemem_kbps_sum_value,
		.how = "the sum over usemem's tasks of vm-scalability's \"N bytes / N usecs = N KB/s\" (each task's writes, its passes included), the limited run's; a scenario with usemem in several groups: the last group to end",
		.dir = METRIC_HIGHER_BETTER, .min_effect = 0.01,
	}, {
		.key = "usemem_free_us_max", .label = "usemem free us (max)",
		.unit = "us", .eval = usemem_free_us_max_value,
		.how = "the slowest of usemem's tasks' \"N usecs to free memory\" (munmap of its area: freeing its swap slots and swap cache), the limited run's",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		.key = "boot_seconds", .label = "boot s (to hello)",
		.unit = "s", .eval = boot_seconds,
		.how = "t_ns of the hello line: guest uptime when the agent said hello",
		.dir = METRIC_LOWER_BETTER, .decimals = 2,
		.min_effect = 0.01,
	}, {
		.key = "workload_seconds", .label = "workload s",
		.unit = "s", .eval = workload_seconds,
		.how = "sum of the phases' ns (their end lines)",
		.dir = METRIC_LOWER_BETTER, .decimals = 2,
		.min_effect = 0.01,
	}, {
		.key = "duration_seconds", .label = "duration s",
		.unit = "s", .eval = duration_seconds,
		.how = "guest time from the first to the last sample",
		.dir = METRIC_LOWER_BETTER, .decimals = 2,
		.min_effect = 0.01,
	},
	PHASE_ENTRY(fill, "fill s"),
	PHASE_ENTRY(pageout, "pageout s"),
	PHASE_ENTRY(pressure, "pressure s"),
	PHASE_ENTRY(read, "read s"),
	PHASE_ENTRY(willneed, "willneed s"),
	PHASE_ENTRY(rewrite, "rewrite s"),
	{
		.key = "swapin_faults", .label = "swap-ins timed",
		.unit = "faults", .eval = swapin_faults,
		.how = "swapin_faults of the result line: touches of the read and willneed phases that found the page neither in RAM nor in the swap cache (mincore() before each), so fewer means more was read ahead",
		.dir = METRIC_NEUTRAL, .min_effect = 0.05,
	}, {
		/*
		 * percentiles: buckets 1/32 wide (agentproto.h), so 0.05 is
		 * about two buckets
		 */
		.key = "swapin_p50_us", .label = "swap-in p50 us",
		.unit = "us", .eval = swapin_p50,
		.how = "swapin_p50_us of the result line: median time of a swap-in touch (the workload's CLOCK_MONOTONIC around the first read of a swapped-out page) over all read and willneed phases, from a histogram exact below 64 us and at most 1/32 high above",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		/*
		 * the tail: 1% of the touches, what the host's load hits
		 * first; the same bucket width, so the same 0.05
		 */
		.key = "swapin_p99_us", .label = "swap-in p99 us",
		.unit = "us", .eval = swapin_p99,
		.how = "swapin_p99_us of the result line: 99th percentile of the same swap-in touches (nearest rank, same histogram)",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.05,
	}, {
		/*
		 * one touch: a single preemption of the guest (another
		 * guest on the host's two cores) moves it, so it is the one
		 * metric whose noise floor is above 0.05
		 */
		.key = "swapin_max_us", .label = "swap-in max us",
		.unit = "us", .eval = swapin_max,
		.how = "swapin_max_us of the result line: the slowest swap-in touch, exact; one sample, so only a change beyond 50% counts",
		.dir = METRIC_LOWER_BETTER, .min_effect = 0.50,
	}, {
		.key = "pageout_freed", .label = "freed per pageout",
		.unit = "pages/page", .eval = pageout_freed,
		.how = "pageout phases' end lines: evicted (pages of the area resident before - after, by mincore(); a page still in the swap cache is resident) / asked (pages of the area)",
		.dir = METRIC_HIGHER_BETTER, .decimals = 3,
		.min_effect = 0.05, .deterministic = true,
	}, {
		.key = "pressure_freed", .label = "freed per pressure",
		.unit = "pages/page", .eval = pressure_freed,
		.how = "pressure phases' end lines: evicted (the area's resident pages before - after, mincore()) / asked (pages of the area); which pages reclaim picks is policy",
		.dir = METRIC_NEUTRAL, .decimals = 3, .min_effect = 0.05,
	}, {
		.key = "cpu_user_seconds", .live = true,
		.label = "guest CPU user s", .unit = "s", .eval = cpu_user_s,
		.how = "user of the samples' cpu_ns (/proc/stat, all CPUs), since boot",
		.dir = METRIC_NEUTRAL, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "cpu_system_seconds", .live = true,
		.label = "guest CPU system s", .unit = "s", .eval = cpu_sys_s,
		.how = "system of the samples' cpu_ns (/proc/stat, all CPUs: reclaim, swap I/O submission, zram compression), since boot",
		.dir = METRIC_LOWER_BETTER, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "cpu_iowait_seconds", .live = true,
		.label = "guest CPU iowait s", .unit = "s", .eval = cpu_iowait_s,
		.how = "iowait of the samples' cpu_ns (/proc/stat, all CPUs: idle with I/O pending), since boot",
		.dir = METRIC_NEUTRAL, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "cpu_softirq_seconds", .live = true,
		.label = "guest CPU softirq s", .unit = "s",
		.eval = cpu_softirq_s,
		.how = "softirq of the samples' cpu_ns (/proc/stat, all CPUs: bio completions among them), since boot",
		.dir = METRIC_LOWER_BETTER, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "system_ms_per_mib", .label = "sys CPU ms/MiB swapped",
		.unit = "ms/MiB", .eval = sys_ms_per_mib,
		.how = "guest CPU system ms / MiB swapped out and in ((pswpout + pswpin) / 256), since boot",
		.dir = METRIC_LOWER_BETTER, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "psi_memory_some_seconds", .live = true,
		.label = "PSI memory some s", .unit = "s", .eval = psi_some_s,
		.how = "some total= of /proc/pressure/memory (samples' psi.some_us) since boot: time some task stalled on memory (direct reclaim, workingset refaults); absent without CONFIG_PSI",
		.dir = METRIC_NEUTRAL, .decimals = 3, .min_effect = 0.05,
	}, {
		.key = "psi_memory_full_seconds", .live = true,
		.label = "PSI memory full s", .unit = "s", .eval = psi_full_s,
		.how = "full total= of /proc/pressure/memory (samples' psi.full_us) since boot: time all non-idle tasks stalled on memory at once",
		.dir = METRIC_NEUTRAL, .decimals = 3, .min_effect = 0.05,
	}, {
		.key = "host_cpu_seconds", .live = true,
		.label = "host CPU s (QEMU)", .unit = "s", .eval = host_cpu_s,
		.how = "the last host line's cpu_ns.total: CPU time of the guest's QEMU process on the host since it started (virDomainGetCPUStats or virDomainGetInfo)",
		.dir = METRIC_LOWER_BETTER, .decimals = 2, .min_effect = 0.01,
	}, {
		.key = "host_cpu_ms_per_mib",
		.label = "host CPU ms/MiB (QEMU)", .unit = "ms/MiB",
		.eval = host_ms_per_mib,
		.how = "host_cpu_seconds in ms / MiB swapped out and in ((pswpout + pswpin) / 256): the whole guest's cost on the host, boot included, per MiB it swapped",
		.dir = METRIC_LOWER_BETTER, .decimals = 1, .min_effect = 0.01,
	},
};

const unsigned int metric_count = ARRAY_SIZE(metric_defs);

int metric_index(const char *key)
{
	unsigned int i;

	for (i = 0; i < metric_count; i++)
		if (!strcmp(metric_defs[i].key, key))
			return (int)i;
	return -1;
}

const struct metric_def *metric_find(const char *key)
{
	int i = metric_index(key);

	return i < 0 ? NULL : &metric_defs[i];
}

void metric_in_init(struct metric_in *in, const struct track *t)
{
	in->t = t;
	in->window = false;
	track_total(t, &in->total);
}

void metric_in_window(struct metric_in *in, const struct track *t,
		      uint64_t window_ns)
{
	in->t = t;
	in->window = true;
	track_window(t, window_ns, &in->total);
}

/* A window has deltas of the fields track_point keeps, no others. */
static struct stats_val window_counter(const struct metric_in *in,
				       const char *name)
{
	static const struct {
		const char *name;
		size_t off;
	} f[] = {
		{ "pswpout", offsetof(struct track_interval, pswpout) },
		{ "nrswpout", offsetof(struct track_interval, nrswpout) },
		{ "pswpin", offsetof(struct track_interval, pswpin) },
		{ "nrswpin", offsetof(struct track_interval, nrswpin) },
		{ "pgmajfault", offsetof(struct track_interval, majflt) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (!strcmp(f[i].name, name))
			return *(const struct stats_val *)
				((const char *)&in->total + f[i].off);
	return na();
}

static struct stats_val eval_depth(const struct metric_def *m,
				   const struct metric_in *in, int depth)
{
	const struct metric_def *a, *b;
	uint64_t v;

	if (m->eval)
		return m->eval(in);
	if (m->vmstat && in->window)
		return window_counter(in, m->vmstat);
	if (m->vmstat) {
		if (!in->t->npts)
			return na();
		if (!track_counter_value(in->t, m->vmstat, &v))
			return stats_missing();
		return stats_ok((double)v);
	}
	if (m->num && m->den && depth < 4) {
		a = metric_find(m->num);
		b = metric_find(m->den);
		if (a && b)
			return stats_ratio(eval_depth(a, in, depth + 1),
					   eval_depth(b, in, depth + 1));
	}
	return na();
}

bool metric_on_line(const struct metric_def *m, const char *line)
{
	const char *p = m->lines;
	size_t n;

	if (!p || !line || !*line)
		return true;
	n = strlen(line);
	while (*p) {
		size_t w = strcspn(p, " ");

		if (w == n && !strncmp(p, line, n))
			return true;
		p += w;
		p += strspn(p, " ");
	}
	return false;
}

/* The line of the guest's kernel ("6.12" of "6.12.5-..."), or "". */
static void track_line(const struct track *t, char *buf, size_t len)
{
	const char *k = t->kernel;
	size_t a = strspn(k, "0123456789"), b;

	buf[0] = '\0';
	if (!a || k[a] != '.')
		return;
	b = strspn(k + a + 1, "0123456789");
	if (!b || a + 1 + b >= len)
		return;
	memcpy(buf, k, a + 1 + b);
	buf[a + 1 + b] = '\0';
}

struct stats_val metric_eval(const struct metric_def *m,
			     const struct metric_in *in)
{
	char line[16];

	if (m->lines) {
		track_line(in->t, line, sizeof(line));
		if (!metric_on_line(m, line))
			return na();
	}
	return eval_depth(m, in, 0);
}

const char *metric_dir_name(enum metric_dir d)
{
	switch (d) {
	case METRIC_HIGHER_BETTER:
		return "higher";
	case METRIC_LOWER_BETTER:
		return "lower";
	case METRIC_NEUTRAL:
		break;
	}
	return "neutral";
}
