/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats: rates and ratios over the samples of one guest, and the
 * statistics of repeated runs.
 *
 * A value is a number, "n/a" (a zero divisor or a zero time span: there
 * is nothing to divide) or "missing" (the kernel lacks a counter, e.g.
 * nrswpout on a kernel without the batching counters). Counters going
 * backwards are counter resets: the counter is taken to restart from 0,
 * so the delta across a reset is the new value.
 */
#ifndef SWAPCTL_STATS_H
#define SWAPCTL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream.h"

enum stats_state {
	STATS_OK = 0,
	STATS_NA,		/* zero divisor or zero time span */
	STATS_MISSING,		/* a counter the kernel does not have */
};

struct stats_val {
	enum stats_state state;
	double v;		/* meaningful only when STATS_OK */
};

/* Delta of a monotonic counter; @cur < @prev is a reset (sets *@reset). */
uint64_t stats_delta(uint64_t prev, uint64_t cur, bool *reset);
/* @delta per second over @dt_ns; STATS_NA when @dt_ns is 0. */
struct stats_val stats_rate(uint64_t delta, uint64_t dt_ns);
/* @num / @den; STATS_NA when @den is 0, MISSING if either is missing. */
struct stats_val stats_ratio(struct stats_val num, struct stats_val den);
struct stats_val stats_ok(double v);
struct stats_val stats_missing(void);
/*
 * Format @v with @decimals decimals into @buf: the number, "n/a" or
 * "missing". Returns @buf.
 */
char *stats_fmt(char *buf, size_t len, struct stats_val v, int decimals);

/* Reset-corrected cumulative counters of one sample. */
enum stats_field {
	SF_PSWPOUT,
	SF_PSWPIN,
	SF_NRSWPOUT,
	SF_NRSWPIN,
	SF_MAJFLT,
	SF_DEV_RD_IOS,		/* guest blk stats of the swap devices */
	SF_DEV_WR_IOS,
	SF_DEV_RD_SECT,
	SF_DEV_WR_SECT,
	SF_CPU_USER,		/* guest /proc/stat, ns */
	SF_CPU_NICE,
	SF_CPU_SYS,
	SF_CPU_IDLE,
	SF_CPU_IOWAIT,
	SF_CPU_IRQ,
	SF_CPU_SOFTIRQ,
	SF_CPU_STEAL,
	SF_PSI_SOME,		/* /proc/pressure/memory totals, us */
	SF_PSI_FULL,
	SF_NFIELDS,
};

struct stats_point {
	uint64_t t_ns;			/* guest monotonic */
	uint64_t v[SF_NFIELDS];
	unsigned int present;		/* bit (1 << field) if present */
	uint64_t swap_used_kb, swap_size_kb;
	/* the sample's "mem" gauges (KiB), when has_mem */
	uint64_t free_kb, min_kb, writeback_kb;
	bool has_mem;
};

struct stats_host_point {
	uint64_t t_ns;			/* host monotonic */
	uint64_t rd_req, wr_req, rd_bytes, wr_bytes;
	bool has_blk;
	uint64_t cpu_ns;		/* the guest's QEMU on the host */
	bool has_cpu;
};

#define STATS_MAX_POINTS	(1u << 20)
#define STATS_MAX_PHASES	32
#define STATS_MAX_FAULTS	16
#define STATS_HIST_BUCKETS	8	/* 1, 2, 3-4, 5-8, ..., 65+ */

struct stats_phase {
	char name[32];
	uint64_t start_ns, end_ns;	/* guest t_ns; end 0: running */
	bool ended;
	/* from the end line: the workload's own counts and time */
	bool has_stats;
	uint64_t pages, ns, corrupt;
	/* push-out phases: residency of the area (stream.h) */
	bool has_residency;
	uint64_t asked, resident_before, resident, evicted;
};

/*
 * Every vmstat counter of the samples, by name, reset-corrected: @cum is
 * the value since the guest booted (the first raw value plus every delta
 * after it).
 */
struct stats_counter {
	char name[STREAM_NAME_MAX];
	uint64_t raw, cum;
};

/* A fault event of the stream (guest or host), in arrival order. */
struct stats_fault {
	char name[32];
	bool end;			/* state "end", else "start" */
	bool host;			/* t_ns is host monotonic */
	uint64_t t_ns;
	char detail[STREAM_MSG_MAX];
};

/* Everything kept about one guest's stream. */
struct stats_track {
	char kernel[64];		/* from hello, "" before it */
	bool hello;
	uint64_t hello_t_ns;		/* guest uptime at hello */
	uint64_t interval_ms;
	bool hello_nrswp;		/* hello listed nrswpout */
	char devs[STREAM_MAX_SWAPS][STREAM_NAME_MAX]; /* swap block devs */
	unsigned int ndevs;
	bool zram;			/* a zram backend exists */

	struct stats_point *pts;	/* sorted by t_ns */
	size_t npts, cap;
	struct stats_host_point *host;
	size_t nhost, caphost;
	struct stats_point raw;		/* last raw sample values */
	struct stats_host_point rawhost;
	uint64_t resets;		/* counter resets corrected */
	uint64_t dropped;		/* points not kept (time backwards,
					 * out of memory, limit)
					 */
	uint64_t backwards;		/* of those, sample or host points
					 * whose t_ns went back in time
					 */
	struct stats_phase phases[STATS_MAX_PHASES];
	unsigned int nphases;
	struct stats_counter ctr[STREAM_MAX_COUNTERS];
	unsigned int nctr;

	/*
	 * Write I/Os by the mean batch size (pages per I/O) of their sample
	 * interval, from nrswpout (or, without it, the swap devices' blk
	 * stats: hist_from_dev).
	 */
	uint64_t hist[STATS_HIST_BUCKETS];
	bool hist_from_dev;

	bool have_result;
	enum stream_status status;
	uint64_t pages_written, pages_verified, pages_corrupt;
	int64_t first_corrupt;
	uint64_t pages_failed;		/* SIGBUS: failed loudly */
	uint64_t pages_failed_distinct;
	/* result: swap-in latency over every verifying phase (stream.h) */
	bool has_swapin;
	uint64_t swapin_faults, swapin_p50_us, swapin_p99_us, swapin_max_us;
	char reason[STREAM_MSG_MAX];
	char last_log[STREAM_MSG_MAX];
	/* fault events: the newest STATS_MAX_FAULTS, nfaults_seen in all */
	struct stats_fault faults[STATS_MAX_FAULTS];
	unsigned int nfaults, nfaults_seen;
	/* "injected" of the slab_error end lines, summed */
	bool has_slab_injected;
	uint64_t slab_injected;

	/*
	 * Not from the stream: the scan of the guest's console.log, set by
	 * whoever read it (run after the guest, source when it loads a
	 * recorded guest).
	 */
	bool console_scanned;
	int swap_read_errors, swap_write_errors;
};

void stats_track_init(struct stats_track *t);
void stats_track_free(struct stats_track *t);
/* Account one parsed line (only call it for STREAM_OK lines). */
void stats_track_feed(struct stats_track *t, const struct stream_line *l);
/* The phase running now, or the last one ended, or NULL. */
const struct stats_phase *stats_track_phase(const struct stats_track *t);
struct stats_interval;

/*
 * The samples around phase @i of @t: from the last sample at or before
 * its start to the first at or after its end (the last sample while it
 * runs), so a phase shorter than the sample interval still gets the
 * interval that holds it. All STATS_NA when there is no such pair.
 */
void stats_track_phase_interval(const struct stats_track *t, unsigned int i,
				struct stats_interval *out);
/* Pages evicted per page asked by phase @p: STATS_MISSING without the
 * residency check (not a push-out phase, or an older guest), STATS_NA if
 * it asked for none.
 */
struct stats_val stats_phase_evicted_ratio(const struct stats_phase *p);
/* Lower bound of histogram bucket @i (1, 2, 3, 5, 9, 17, 33, 65). */
unsigned int stats_hist_lo(unsigned int i);

/* What happened between two samples (or over a whole run). */
struct stats_interval {
	double dt_s;
	struct stats_val pswpout_s, nrswpout_s, wr_ppio;
	struct stats_val pswpin_s, nrswpin_s, rd_ppio;
	struct stats_val dev_ios_s;	/* guest swap devices rd+wr */
	struct stats_val dev_rd_ios, dev_wr_ios;
	struct stats_val dev_wr_ppio;	/* (wr_sectors / 8) / wr_ios */
	struct stats_val host_req_s;	/* host rd_req + wr_req */
	struct stats_val majflt_s;
	/* the deltas themselves (totals for stats_track_total) */
	struct stats_val pswpout, nrswpout, pswpin, nrswpin, majflt;
	struct stats_val dev_ios, host_req;
	/*
	 * Guest CPU time (s) by /proc/stat class, and as a share of all CPU
	 * time (user..steal, every CPU) in the interval: cpu_*_pct in [0,1].
	 * busy = everything but idle and iowait.
	 */
	struct stats_val cpu_user, cpu_sys, cpu_iowait, cpu_softirq, cpu_busy;
	struct stats_val cpu_user_pct, cpu_sys_pct, cpu_iowait_pct;
	struct stats_val cpu_softirq_pct;
	/* guest system CPU ms per MiB swapped out + in */
	struct stats_val sys_ms_per_mib;
	/* PSI memory stall (s), and its share of the interval's wall time */
	struct stats_val psi_some, psi_full, psi_some_pct, psi_full_pct;
	/* host CPU time of the guest (s) and per second of host time */
	struct stats_val host_cpu, host_cpu_pct;
	uint64_t swap_used_kb, swap_size_kb;	/* at the end */
	uint64_t swap_peak_kb;		/* stats_track_total only */
	/*
	 * From the samples' "mem" gauges (MISSING without them): the least
	 * free memory (KiB) and the most under writeback (KiB) of any
	 * sample, and the time (s) of the sample intervals that ended with
	 * free memory below the min watermarks. Over the interval's
	 * samples in stats_track_total, of its last sample otherwise.
	 */
	struct stats_val free_low_kb, writeback_peak_kb, below_min_s;
};

/* Between points @a and @b (@ha/@hb host points or NULL). */
void stats_between(const struct stats_point *a, const struct stats_point *b,
		   const struct stats_host_point *ha,
		   const struct stats_host_point *hb,
		   struct stats_interval *out);
/*
 * The last @window_ns of the track: from the last point back to the last
 * point at least @window_ns older (or the first). All STATS_NA when there
 * are fewer than two points.
 */
void stats_track_window(const struct stats_track *t, uint64_t window_ns,
			struct stats_interval *out);
/*
 * The whole run: counters since the guest booted (the last sample's
 * values, corrected for resets), rates over the time from the first to
 * the last sample.
 */
void stats_track_total(const struct stats_track *t,
		       struct stats_interval *out);

enum stats_metric {
	STATS_M_WR_PPIO,
	STATS_M_RD_PPIO,
	STATS_M_DEV_WR_PPIO,
	STATS_M_PSWPOUT_S,
	STATS_M_PSWPIN_S,
	STATS_M_MAJFLT_S,
	STATS_M_CPU_SYS_PCT,
	STATS_M_PSI_SOME_PCT,
};

/* Metric @m of interval @iv. */
struct stats_val stats_metric(const struct stats_interval *iv,
			      enum stats_metric m);
/*
 * Metric @m over consecutive steps of @step_ns starting at guest time
 * @t0_ns (relative to the first point): out[i] covers [t0 + i*step,
 * t0 + (i+1)*step]. Steps beyond the data are STATS_NA. Returns the
 * number of steps that have data.
 */
size_t stats_track_series(const struct stats_track *t, enum stats_metric m,
			  uint64_t t0_ns, uint64_t step_ns, size_t n,
			  struct stats_val *out);
/* Guest time span of the track (last - first point), 0 if < 2 points. */
uint64_t stats_track_span_ns(const struct stats_track *t);
/*
 * vmstat counter @name since the guest booted (reset-corrected), from the
 * last sample that had it. False when no sample had it.
 */
bool stats_track_counter(const struct stats_track *t, const char *name,
			 uint64_t *value);
/*
 * Index of the first point at or after guest time @when (npts if none),
 * and of the last point at or before it (-1 if none).
 */
size_t stats_point_after(const struct stats_track *t, uint64_t when);
long stats_point_before(const struct stats_track *t, uint64_t when);

/* Mean, sample standard deviation, 95% confidence interval (Student t). */
struct stats_desc {
	size_t n;
	double mean, stddev;
	double ci95;		/* half-width; valid when has_ci (n >= 2) */
	bool has_ci;
};

void stats_describe(const double *x, size_t n, struct stats_desc *d);
/* Two-sided 95% quantile of Student's t with @df degrees of freedom. */
double stats_t95(unsigned int df);
/* P(T <= @t) for Student's t with @df (> 0, not necessarily whole). */
double stats_t_cdf(double t, double df);
/* The @p quantile (0 < p < 1) of Student's t with @df degrees. */
double stats_t_quantile(double p, double df);

/*
 * Welch's unequal-variance t-test of mean(b) - mean(a) (both n >= 2):
 * two-sided p-value and the Welch-Satterthwaite degrees of freedom.
 * When both variances are 0 the p-value is 0 if the means differ, else 1
 * (and df is n_a + n_b - 2). Returns false when either n < 2.
 */
bool stats_welch(const struct stats_desc *a, const struct stats_desc *b,
		 double *p, double *df);

/*
 * The ratio of means mean(b) / mean(a) with its 95% confidence interval
 * from the first-order delta method: var(R) ~ R^2 (s_a^2 / (n_a m_a^2) +
 * s_b^2 / (n_b m_b^2)), t quantile at the Welch degrees of freedom.
 * Returns false when mean(a) is 0; *has_ci false when either n < 2.
 */
bool stats_ratio_ci(const struct stats_desc *a, const struct stats_desc *b,
		    double *ratio, double *lo, double *hi, bool *has_ci);

/*
 * Power (doc/HACKING.md "Verdicts"). The minimum detectable effect of a
 * comparison of @b against @a: the smallest relative difference
 * |mean(b) / mean(a) - 1| that Welch's two-sided test at 5% finds with
 * 80% power, given their coefficients of variation and repeats:
 *
 *   mde = (t(.975, df) + t(.80, df)) * sqrt(cv_a^2 / n_a + cv_b^2 / n_b)
 *
 * with cv = stddev / |mean| of each side, and df the Welch-Satterthwaite
 * degrees of freedom of the two relative terms. 0 when neither side
 * varies. False (no figure) when either n < 2 or a mean is 0.
 */
bool stats_mde(const struct stats_desc *a, const struct stats_desc *b,
	       double *mde);
/*
 * The repeats per side (n_a = n_b = n, the spreads of @a and @b kept)
 * at which stats_mde() first is at most @effect: 2 to @limit, or 0 when
 * even @limit repeats would not see it (or there is no figure).
 */
unsigned int stats_repeats_needed(const struct stats_desc *a,
				  const struct stats_desc *b, double effect,
				  unsigned int limit);

/*
 * Blocked comparison (doc/HACKING.md "Verdicts"): @n pairs a[i], b[i],
 * the two of a pair measured in one block (a repeat's two guests, on
 * one host), so that what the block adds to both, e.g. a host twice as
 * slow, cancels in its ratio. From the log ratios d_i = ln(b_i / a_i):
 * ratio exp(mean d) (the geometric mean of the pairs' ratios), its 95%
 * interval exp(mean d -+ t(.975, n-1) s_d / sqrt(n)), the paired
 * t-test's two-sided p (s_d 0: p 0 when mean d != 0, else 1) and the
 * minimum detectable effect exp((t(.975) + t(.80)) s_d / sqrt(n)) - 1.
 * False (nothing set) when n < 2 or a value is not finite and > 0.
 */
struct stats_paired {
	size_t n;
	double ratio, lo, hi;
	double p, df;
	double sd;		/* of the log ratios */
	double mde;
};

bool stats_paired(const double *a, const double *b, size_t n,
		  struct stats_paired *out);
/*
 * The pairs (2 to @limit) at which a blocked comparison whose log
 * ratios spread by @sd first has an mde of at most @effect; 0 if none.
 */
unsigned int stats_paired_repeats_needed(double sd, double effect,
					 unsigned int limit);

#endif
