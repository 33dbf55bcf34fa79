/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics: the one registry of what swapctl measures. Every metric that
 * run's table and summary.json, report (text, JSON, CSV, SVG), top's
 * screen and the scenario expectations name is one entry of
 * metric_defs[], computed from one guest's track (the stream of
 * doc/HACKING.md "Agent protocol"), never anywhere else.
 *
 * Adding a metric is adding one entry (doc/HACKING.md "Metrics"): a
 * vmstat counter needs only .vmstat, a ratio of two metrics only
 * .num/.den, anything else an .eval function.
 */
#ifndef SWAPCTL_METRICS_H
#define SWAPCTL_METRICS_H

#include <stdbool.h>

#include "track.h"

enum metric_dir {
	METRIC_HIGHER_BETTER,
	METRIC_LOWER_BETTER,
	METRIC_NEUTRAL,		/* no better or worse: a change is "changed" */
};

/* What one guest's metrics are computed from. */
struct metric_in {
	const struct track *t;
	struct track_interval total;	/* track_total(t), or a window */
	bool window;			/* total is a window (top) */
};

struct metric_def {
	const char *key;	/* JSON, CSV, scenarios: [a-z0-9_]+ */
	const char *label;	/* tables, at most 22 characters */
	const char *unit;	/* "pages", "I/Os", "s", "MiB/s", ... */
	const char *how;	/* how it is computed from the stream */
	enum metric_dir dir;
	int decimals;		/* shown with this many decimals */
	/*
	 * Relative change below which a difference is noise: 0.01 for
	 * performance metrics (times, rates, pages per I/O), 0.05 for the
	 * others (LKP's thresholds).
	 */
	double min_effect;
	/*
	 * Fixed by the workload (counts, not timings): with one repeat a
	 * difference beyond min_effect is a verdict (doc/HACKING.md
	 * "Verdicts").
	 */
	bool deterministic;
	/*
	 * Shown by top over its refresh interval too (counts as rates per
	 * second): the metric can be computed between any two samples.
	 */
	bool live;
	/*
	 * The kernel lines that have it, "6.1 6.12" (NULL: every line): on
	 * a guest whose kernel (hello) is of another line the metric is
	 * n/a, never 0
	 */
	const char *lines;
	/* exactly one of: */
	const char *vmstat;	/* this counter since boot */
	const char *num, *den;	/* the ratio of two other metrics */
	struct stats_val (*eval)(const struct metric_in *in);
};

extern const struct metric_def metric_defs[];
extern const unsigned int metric_count;

/* The index of metric @key, or -1. */
int metric_index(const char *key);
const struct metric_def *metric_find(const char *key);
void metric_in_init(struct metric_in *in, const struct track *t);
/* The last @window_ns of @t instead (only .live metrics make sense). */
void metric_in_window(struct metric_in *in, const struct track *t,
		      uint64_t window_ns);
struct stats_val metric_eval(const struct metric_def *m,
			     const struct metric_in *in);
/* Whether @m exists on kernel line @line ("6.12"; NULL or "": true). */
bool metric_on_line(const struct metric_def *m, const char *line);
/* "higher", "lower", "neutral" */
const char *metric_dir_name(enum metric_dir d);

#endif
