/* SPDX-License-Identifier: GPL-2.0 */
/*
 * track: everything kept about one guest's stream (its samples, host
 * samples, phases, vmstat counters, fault events and result), and the
 * rates and ratios of an interval between two of its samples, of its
 * last seconds or of the whole run. The values are stats.h's: a number,
 * n/a or missing.
 */
#ifndef SWAPCTL_TRACK_H
#define SWAPCTL_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "stream.h"

/* Reset-corrected cumulative counters of one sample. */
enum track_field {
	TF_PSWPOUT,
	TF_PSWPIN,
	TF_NRSWPOUT,
	TF_NRSWPIN,
	TF_MAJFLT,
	TF_DEV_RD_IOS,		/* guest blk stats of the swap devices */
	TF_DEV_WR_IOS,
	TF_DEV_RD_SECT,
	TF_DEV_WR_SECT,
	TF_CPU_USER,		/* guest /proc/stat, ns */
	TF_CPU_NICE,
	TF_CPU_SYS,
	TF_CPU_IDLE,
	TF_CPU_IOWAIT,
	TF_CPU_IRQ,
	TF_CPU_SOFTIRQ,
	TF_CPU_STEAL,
	TF_PSI_SOME,		/* /proc/pressure/memory totals, us */
	TF_PSI_FULL,
	TF_NFIELDS,
};

struct track_point {
	uint64_t t_ns;			/* guest monotonic */
	uint64_t v[TF_NFIELDS];
	unsigned int present;		/* bit (1 << field) if present */
	uint64_t swap_used_kb, swap_size_kb;
	/* the sample's "mem" gauges (KiB), when has_mem */
	uint64_t free_kb, min_kb, writeback_kb;
	bool has_mem;
};

struct track_host_point {
	uint64_t t_ns;			/* host monotonic */
	uint64_t rd_req, wr_req, rd_bytes, wr_bytes;
	bool has_blk;
	uint64_t cpu_ns;		/* the guest's QEMU on the host */
	bool has_cpu;
};

#define TRACK_MAX_POINTS	(1u << 20)
#define TRACK_MAX_PHASES	32
#define TRACK_MAX_FAULTS	16
#define TRACK_HIST_BUCKETS	8	/* 1, 2, 3-4, 5-8, ..., 65+ */

struct track_phase {
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
struct track_counter {
	char name[STREAM_NAME_MAX];
	uint64_t raw, cum;
};

/* A fault event of the stream (guest or host), in arrival order. */
struct track_fault {
	char name[32];
	bool end;			/* state "end", else "start" */
	bool host;			/* t_ns is host monotonic */
	uint64_t t_ns;
	char detail[STREAM_MSG_MAX];
};

/* Everything kept about one guest's stream. */
struct track {
	char kernel[64];		/* from hello, "" before it */
	bool hello;
	uint64_t hello_t_ns;		/* guest uptime at hello */
	uint64_t interval_ms;
	bool hello_nrswp;		/* hello listed nrswpout */
	char devs[STREAM_MAX_SWAPS][STREAM_NAME_MAX]; /* swap block devs */
	unsigned int ndevs;
	bool zram;			/* a zram backend exists */

	struct track_point *pts;	/* sorted by t_ns */
	size_t npts, cap;
	struct track_host_point *host;
	size_t nhost, caphost;
	struct track_point raw;		/* last raw sample values */
	struct track_host_point rawhost;
	uint64_t resets;		/* counter resets corrected */
	uint64_t dropped;		/* points not kept (time backwards,
					 * out of memory, limit)
					 */
	uint64_t backwards;		/* of those, sample or host points
					 * whose t_ns went back in time
					 */
	struct track_phase phases[TRACK_MAX_PHASES];
	unsigned int nphases;
	struct track_counter ctr[STREAM_MAX_COUNTERS];
	unsigned int nctr;

	/*
	 * Write I/Os by the mean batch size (pages per I/O) of their sample
	 * interval, from nrswpout (or, without it, the swap devices' blk
	 * stats: hist_from_dev).
	 */
	uint64_t hist[TRACK_HIST_BUCKETS];
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
	/* fault events: the newest TRACK_MAX_FAULTS, nfaults_seen in all */
	struct track_fault faults[TRACK_MAX_FAULTS];
	unsigned int nfaults, nfaults_seen;
	/* "injected" of the slab_error end lines, summed */
	bool has_slab_injected;
	uint64_t slab_injected;
	/*
	 * zram mm_stat of the samples, summed over the zram devices: the
	 * largest sum of any sample (bytes; huge_pages in pages, when the
	 * samples carry it)
	 */
	bool has_zram_mm, has_zram_huge;
	uint64_t zram_compr_peak, zram_mem_used_peak, zram_huge_peak;
	/*
	 * Command workloads: the end lines of the limited runs (not the
	 * reference run, which has no limits) summed: their time, CPU
	 * time, and their cgroup's memory.stat; *_runs count the runs that
	 * gave each
	 */
	unsigned int cmd_runs, cmd_cpu_runs;
	uint64_t cmd_ns, cmd_user_ns, cmd_sys_ns;
	uint64_t cg_stat[STREAM_CG_NSTATS];
	unsigned int cg_runs[STREAM_CG_NSTATS];
	/*
	 * "values" of the result line and of the limited command runs' end
	 * lines (stream.h), by name: the last one of each name
	 */
	struct stream_counter vals[STREAM_MAX_VALUES];
	unsigned int nvals;

	/*
	 * Not from the stream: the scan of the guest's console.log, set by
	 * whoever read it (run after the guest, source when it loads a
	 * recorded guest).
	 */
	bool console_scanned;
	int swap_read_errors, swap_write_errors;
	int alloc_failures, hung_tasks;	/* kernel log patterns */
};

void track_init(struct track *t);
void track_free(struct track *t);
/* The workload's value @name (track.vals) into *@v; false when absent. */
bool track_value(const struct track *t, const char *name, uint64_t *v);
/* Account one parsed line (only call it for STREAM_OK lines). */
void track_feed(struct track *t, const struct stream_line *l);
/* The phase running now, or the last one ended, or NULL. */
const struct track_phase *track_phase_now(const struct track *t);
struct track_interval;

/*
 * The samples around phase @i of @t: from the last sample at or before
 * its start to the first at or after its end (the last sample while it
 * runs), so a phase shorter than the sample interval still gets the
 * interval that holds it. All STATS_NA when there is no such pair.
 */
void track_phase_interval(const struct track *t, unsigned int i,
				struct track_interval *out);
/* Pages evicted per page asked by phase @p: STATS_MISSING without the
 * residency check (not a push-out phase, or an older guest), STATS_NA if
 * it asked for none.
 */
struct stats_val track_phase_evicted_ratio(const struct track_phase *p);
/* Lower bound of histogram bucket @i (1, 2, 3, 5, 9, 17, 33, 65). */
unsigned int track_hist_lo(unsigned int i);

/* What happened between two samples (or over a whole run). */
struct track_interval {
	double dt_s;
	struct stats_val pswpout_s, nrswpout_s, wr_ppio;
	struct stats_val pswpin_s, nrswpin_s, rd_ppio;
	struct stats_val dev_ios_s;	/* guest swap devices rd+wr */
	struct stats_val dev_rd_ios, dev_wr_ios;
	struct stats_val dev_wr_ppio;	/* (wr_sectors / 8) / wr_ios */
	struct stats_val host_req_s;	/* host rd_req + wr_req */
	struct stats_val majflt_s;
	/* the deltas themselves (totals for track_total) */
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
	uint64_t swap_peak_kb;		/* track_total only */
	/*
	 * From the samples' "mem" gauges (MISSING without them): the least
	 * free memory (KiB) and the most under writeback (KiB) of any
	 * sample, and the time (s) of the sample intervals that ended with
	 * free memory below the min watermarks. Over the interval's
	 * samples in track_total, of its last sample otherwise.
	 */
	struct stats_val free_low_kb, writeback_peak_kb, below_min_s;
};

/* Between points @a and @b (@ha/@hb host points or NULL). */
void track_between(const struct track_point *a, const struct track_point *b,
		   const struct track_host_point *ha,
		   const struct track_host_point *hb,
		   struct track_interval *out);
/*
 * The last @window_ns of the track: from the last point back to the last
 * point at least @window_ns older (or the first). All STATS_NA when there
 * are fewer than two points.
 */
void track_window(const struct track *t, uint64_t window_ns,
			struct track_interval *out);
/*
 * The whole run: counters since the guest booted (the last sample's
 * values, corrected for resets), rates over the time from the first to
 * the last sample.
 */
void track_total(const struct track *t,
		       struct track_interval *out);

enum track_metric {
	TRACK_M_WR_PPIO,
	TRACK_M_RD_PPIO,
	TRACK_M_DEV_WR_PPIO,
	TRACK_M_PSWPOUT_S,
	TRACK_M_PSWPIN_S,
	TRACK_M_MAJFLT_S,
	TRACK_M_CPU_SYS_PCT,
	TRACK_M_PSI_SOME_PCT,
};

/* Metric @m of interval @iv. */
struct stats_val track_metric(const struct track_interval *iv,
			      enum track_metric m);
/*
 * Metric @m over consecutive steps of @step_ns starting at guest time
 * @t0_ns (relative to the first point): out[i] covers [t0 + i*step,
 * t0 + (i+1)*step]. Steps beyond the data are STATS_NA. Returns the
 * number of steps that have data.
 */
size_t track_series(const struct track *t, enum track_metric m,
			  uint64_t t0_ns, uint64_t step_ns, size_t n,
			  struct stats_val *out);
/* Guest time span of the track (last - first point), 0 if < 2 points. */
uint64_t track_span_ns(const struct track *t);
/*
 * vmstat counter @name since the guest booted (reset-corrected), from the
 * last sample that had it. False when no sample had it.
 */
bool track_counter_value(const struct track *t, const char *name,
			 uint64_t *value);
/*
 * Index of the first point at or after guest time @when (npts if none),
 * and of the last point at or before it (-1 if none).
 */
size_t track_point_after(const struct track *t, uint64_t when);
long track_point_before(const struct track *t, uint64_t when);

#endif
