/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results: the one results model shared by `swapctl run` and `swapctl
 * report`. Each guest's track is turned into the values of the
 * registry's metrics (metrics.h); per kernel the mean, standard deviation
 * and 95% confidence interval over the repeats; per metric and kernel a
 * comparison with the reference kernel (the first): the ratio of means
 * with its 95% interval, Welch's p-value and a verdict. The expectations
 * and no_regression lists of a scenario are judged here, and the exit
 * codes' precedence is defined here (results_exit_worst).
 *
 * The rules are in doc/HACKING.md "Verdicts" and swapctl(1).
 */
#ifndef SWAPCTL_RESULTS_H
#define SWAPCTL_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "config.h"
#include "metrics.h"
#include "parse-options.h"
#include "scenario.h"
#include "stats.h"
#include "track.h"

#define RES_MAX_KERNELS		SCN_MAX_KERNELS
#define RES_MAX_METRICS		128
#define RES_MAX_PHASES		TRACK_MAX_PHASES
#define RES_P_SIGNIFICANT	0.05
/*
 * The family-wise level of the exit code's regression test: Holm over
 * the no_regression metrics of one kernel comparison (results_gate_family)
 */
#define RES_FWER_ALPHA		RES_P_SIGNIFICANT
#define RES_MAX_HOSTS		CONFIG_HOSTS_MAX

enum verdict {
	V_NOT_MEASURED,		/* either side has no value */
	V_NO_CHANGE,		/* no significant change */
	V_BETTER,
	V_WORSE,
	V_CHANGED,		/* significant, on a neutral metric */
};

struct res_guest {
	char kernel[SCN_KERNEL_MAX];
	unsigned int rep;
	/*
	 * The libvirt host it ran on ("": not recorded) and, when its
	 * repeat ran again because a host was lost, why ("": it did not).
	 */
	char host[CONFIG_URI_MAX];
	char rerun[CONFIG_URI_MAX + 64];
	struct stats_val v[RES_MAX_METRICS];
	/* phase times, in the order the phases ended */
	char phase[RES_MAX_PHASES][32];
	double phase_s[RES_MAX_PHASES];
	unsigned int nphases;
};

struct results {
	char kernels[RES_MAX_KERNELS][SCN_KERNEL_MAX];	/* [0]: reference */
	unsigned int nk;
	struct res_guest *g;
	unsigned int ng, capg;
	/*
	 * The effect asked for (--effect, a relative difference; 0: none)
	 * and the most repeats to consider: the JSON then gives, per
	 * comparison, the repeats that would see it (results_mde_repeats).
	 */
	double effect;
	unsigned int effect_limit;
	/*
	 * The gated metrics (results_gate(): the scenario's no_regression
	 * list), whose comparisons decide exit 12 under Holm's correction;
	 * every other verdict is exploratory. gate_set false: not known
	 * (no scenario), and the table and JSON say nothing of gates.
	 */
	bool gate_set;
	bool gated[RES_MAX_METRICS];
};

struct res_cmp {
	const struct metric_def *m;
	unsigned int kernel, ref;
	bool has_ratio;
	double ratio, lo, hi;
	bool has_ci;
	bool has_p;
	double p;
	enum verdict verdict;
	/*
	 * V_NOT_MEASURED because a kernel lacks a vmstat counter the metric
	 * is computed from: "no nrswpout in base"; "" otherwise.
	 */
	char why[96];
	/*
	 * The minimum detectable effect (stats_mde): mde_noise from the
	 * spread of the repeats (has_mde_noise), mde the smallest relative
	 * difference this comparison could call a change: the larger of
	 * mde_noise and the metric's min_effect (a count the workload fixes,
	 * with one run: min_effect). No has_mde: no change could be seen.
	 */
	bool has_mde, has_mde_noise;
	double mde, mde_noise;
	/*
	 * Blocked by host (doc/HACKING.md "Verdicts"): the two kernels' guests
	 * ran on more than one host, so ratio, interval, p and mde are those
	 * of the repeats' pairs (stats_paired), @pairs pairs over @hosts
	 * hosts, @pair_sd the spread of their log ratios; the pooled
	 * figures, as without hosts, are kept beside them.
	 */
	bool blocked;
	unsigned int pairs, hosts;
	double pair_sd;
	double pooled_ratio, pooled_lo, pooled_hi, pooled_p;
	bool pooled_has_ci, pooled_has_p;
};

/* ---- the model (results.c) ---- */

void results_init(struct results *r);
void results_free(struct results *r);
/* Add kernel @name (in order: the first is the reference); its index. */
int results_kernel(struct results *r, const char *name);
/*
 * Add a guest of kernel @kernel (added if new) and repeat @rep, with its
 * metric values computed from @t. -1 when out of memory.
 */
int results_add(struct results *r, const char *kernel, unsigned int rep,
		const struct track *t);
/* The same, recording the guest's @host and why it was re-run (or NULL). */
int results_add_on(struct results *r, const char *kernel, unsigned int rep,
		   const char *host, const char *rerun,
		   const struct track *t);
int results_kernel_index(const struct results *r, const char *name);

/*
 * Mean, stddev, CI of metric @mi over kernel @k's guests: STATS_MISSING
 * when a guest lacks it (a counter the kernel does not have), STATS_NA
 * when no guest has a value, else STATS_OK over the numbers.
 */
enum stats_state results_desc(const struct results *r, unsigned int k,
			      unsigned int mi, struct stats_desc *d);
/* The time of phase @idx over kernel @k's guests; false if none ran it. */
bool results_phase_desc(const struct results *r, unsigned int k,
			unsigned int idx, struct stats_desc *d,
			const char **name);
/* The most phases any guest reported. */
unsigned int results_nphases(const struct results *r);
/*
 * Whether @host is among the first @n of @seen; else it is added (for
 * src/results/ itself: counting the hosts guests ran on).
 */
bool results_host_seen(const char **seen, unsigned int *n, const char *host);

/* ---- verdicts (verdict.c) ---- */

/*
 * The verdict rule (doc/HACKING.md "Verdicts"), a pure function: metric
 * @m of kernel @b against reference @a, each with its state and
 * description. Fills @c's ratio, interval, p-value and verdict.
 */
void results_judge(const struct metric_def *m, enum stats_state sa,
		   const struct stats_desc *a, enum stats_state sb,
		   const struct stats_desc *b, struct res_cmp *c);
/*
 * Metric @mi of kernel @k against kernel @ref: results_judge() over the
 * repeats, blocked by host when the guests ran on more than one.
 */
void results_compare(const struct results *r, unsigned int mi,
		     unsigned int k, unsigned int ref, struct res_cmp *c);
/* The time of phase @idx of kernel @k against the reference, the same way. */
void results_phase_compare(const struct results *r, unsigned int idx,
			   unsigned int k, struct res_cmp *c);
const char *results_verdict_name(enum verdict v);
/*
 * The identity check of command workloads (identity.c): the kernels whose
 * command_user_seconds differs from the reference's by more than the
 * noise (the comparison's mde, at least the metric's 5%; with repeats,
 * also p < 0.05), named in one line in @buf. Returns how many ("" and 0:
 * none, or no command workload).
 */
unsigned int results_identity(const struct results *r, char *buf, size_t len);

/*
 * The verdict vocabulary (verdict.c): enum verdict's words, and the one
 * verdict that is no verdict of its own, a comparison one run cannot
 * judge (no significant change without a test, on a metric that is not
 * a count the workload fixes).
 */
enum res_vword {
	RES_VW_NOT_MEASURED,	/* "not measured" */
	RES_VW_NO_CHANGE,	/* "no significant change" */
	RES_VW_BETTER,		/* "better" */
	RES_VW_WORSE,		/* "worse" */
	RES_VW_CHANGED,		/* "changed" (significant, neutral metric) */
	RES_VW_ONE_RUN,		/* "not judged (one run)" */
	RES_VW_N
};

/* What comparison @c is called (its verdict, or RES_VW_ONE_RUN). */
enum res_vword results_vword(const struct res_cmp *c);
/* Its word: "better" ... "not judged (one run)". */
const char *results_vword_word(enum res_vword w);
/* Its form in at most 7 columns: "better", "n.s.", "1 run", "-" ... */
const char *results_vword_abbr(enum res_vword w);
/* Its one character in a grid: '+', '-', '~', '=', '.'. */
char results_vword_sym(enum res_vword w);

/*
 * One comparison's part in its family (results_gate_family): the gated
 * metrics of one kernel against the reference, tested together with
 * Holm's step-down procedure at RES_FWER_ALPHA.
 */
struct res_gate {
	bool gated;		/* a no_regression metric */
	/*
	 * It has a p-value (repeats of both kernels) and counts in @m; a
	 * gated comparison without one (not measured; one run) does not.
	 */
	bool tested;
	bool reject;		/* Holm rejects its null */
	unsigned int m;		/* the tests of the family */
	double thr;		/* alpha / (m - rank + 1), its p's threshold */
	double p_adj;		/* Holm's adjusted p: reject iff < alpha */
	/*
	 * Counted by the exit code: gated, "worse" (direction and minimum
	 * effect as the verdict) and, when tested, rejected by Holm. Not
	 * tested: a deterministic count judged on its difference alone with
	 * one run, as the verdict (no test, so nothing to correct).
	 */
	bool regression;
};

/*
 * Holm over comparisons @c[0..n) (a pure function): @in[i] whether @c[i]
 * is in the family; fills @g[i] for every i (not in it: gated false, no
 * regression). Alpha @alpha. Returns the family's m.
 */
unsigned int results_gate_judge(const struct res_cmp *c, const bool *in,
				unsigned int n, double alpha,
				struct res_gate *g);
/*
 * Kernel @k against the reference, the metrics with @gated[mi] one
 * family: @g[mi] the gate of every metric of the registry and, unless
 * @c is NULL, @c[mi] the comparison (results_compare) of every gated
 * metric (the others are not compared, and zeroed). Room for
 * metric_count in each. Returns the family's m.
 */
unsigned int results_gate_family(const struct results *r, const bool *gated,
				 unsigned int k, struct res_cmp *c,
				 struct res_gate *g);
/* Set @r's gated metrics from @s's no_regression (@s NULL: not known). */
void results_gate(struct results *r, const struct scenario *s);
/*
 * The same from the scenario.json of run directory @dir (report); one
 * that does not load leaves the gates not known.
 */
void results_gate_dir(struct results *r, const char *dir);

/* ---- minimum detectable effects (mde.c) ---- */

/* Why a comparison cannot reach an effect (results_mde_repeats). */
enum res_mde_why {
	RES_MDE_OK,		/* *repeats is the answer */
	RES_MDE_NO_SPREAD,	/* fewer than 2 repeats of a side, or a mean 0 */
	RES_MDE_THRESHOLD,	/* @effect is below the metric's min_effect */
	RES_MDE_LIMIT,	/* more than @limit repeats */
};

/*
 * The repeats per kernel at which comparison @c (of metric @c->m, from
 * descriptions @a and @b) would detect a relative difference @effect,
 * the spreads kept: stats_repeats_needed(), and not below min_effect.
 */
enum res_mde_why results_mde_repeats(const struct res_cmp *c,
				 const struct stats_desc *a,
				 const struct stats_desc *b, double effect,
				 unsigned int limit, unsigned int *repeats);
const char *results_mde_why(enum res_mde_why w);
/*
 * Metric @mi of kernel @k against @ref, with its descriptions: the
 * results_mde_repeats() of results_compare(). -1 when a side has no value.
 */
int results_mde_of(const struct results *r, unsigned int mi,
		     unsigned int k, unsigned int ref, double effect,
		     unsigned int limit, unsigned int *repeats,
		     enum res_mde_why *why);

/*
 * The metrics whose mde a run reports (and `--repeat auto` waits for)
 * when none are named: the scenario's no_regression metrics that are not
 * fixed counts, then workload_seconds, cpu_system_seconds,
 * system_ms_per_mib and host_cpu_ms_per_mib. Their indexes into @mi (at
 * most @max); how many.
 */
unsigned int results_mde_targets(const struct scenario *s, int *mi,
				   unsigned int max);
/*
 * Whether every comparison of metrics @mi[0..n) against the reference
 * has a minimum detectable effect from its spread of at most @effect
 * (or the metric's min_effect, when that is larger).
 * Comparisons without a value on both sides are left out; a target with
 * no spread yet is not reached. @worst gets the largest mde seen
 * (INFINITY when a spread is missing), @worst_mi its metric.
 */
bool results_mde_reached(const struct results *r, const int *mi,
			   unsigned int n, double effect, double *worst,
			   int *worst_mi);
/*
 * "power ..." lines for metrics @mi[0..n): per kernel against the
 * reference the minimum detectable effect and, when r->effect is set,
 * the repeats per kernel that would see it (limit r->effect_limit).
 */
void results_print_mde(FILE *f, const struct results *r, const int *mi,
			 unsigned int n);

/* The mde options of run and report (--effect, --metric). */
struct res_mde_opts {
	double effect;			/* 0: not given */
	int mi[RES_MAX_METRICS];	/* --metric, in order */
	unsigned int n;
};

/*
 * popt callbacks (parse-options.h), value a struct res_mde_opts:
 * --effect E ("2%" or 0.02: a relative difference, 0 < E < 1) and
 * --metric KEY (a registry key, repeatable).
 */
int results_opt_effect(const struct popt *opt, const char *arg, char *err,
		       size_t errlen);
int results_opt_metric(const struct popt *opt, const char *arg, char *err,
		       size_t errlen);

/* ---- expectations, regressions, exit codes (verdict.c) ---- */

struct res_expect {
	bool pass;
	bool skipped;		/* a kernel it names was not run */
	bool measured;
	double value;		/* the value or the ratio */
	char what[256];
};

/* Judge expectation @e. */
void results_expect(const struct results *r, const struct scn_expect *e,
		    struct res_expect *x);
/*
 * The no_regression metrics of @s that are regressions on some kernel
 * against the reference (struct res_gate: worse, and significant by Holm
 * over the no_regression metrics of that kernel): writes "metric on
 * kernel: ratio [interval], p, Holm's p" into @what and returns how many.
 */
int results_regressions(const struct results *r, const struct scenario *s,
			char *what, size_t len);

/*
 * The exit code of two outcomes together: the more serious one wins.
 * From most to least serious: interrupted (130), setup (4) and every
 * other error code, corrupt pages (8), guest failure (9), regression
 * (10), expectation (7), ok (0). The one place this order is defined.
 */
int results_exit_worst(int a, int b);

/* ---- JSON (json.c) ---- */

/* A value as JSON: integer, real, or null (n/a, missing). */
json_t *results_val_json(struct stats_val v);
/* {"key": value, ...} of one guest, in registry order */
json_t *results_guest_json(const struct res_guest *g);
/*
 * Where the repeats ran, one line per host in the order first seen:
 * "repeats on URI: 1 2 3 4 (2 re-run: host URI2 lost)", then, when the
 * comparisons were blocked by host, a line saying so; each line ends in
 * '\n'. Nothing when no guest recorded its host. How many lines (cut to
 * fit @len, which gets "" at least).
 */
unsigned int results_host_lines(const struct results *r, char *buf,
				size_t len);
/* Set @o's "host" and "rerun" of guest @g (null: not recorded, not re-run). */
void results_guest_place_json(json_t *o, const struct res_guest *g);
/* {"kernel": {"key": {"n", "mean", "stddev", "ci95"}}} */
json_t *results_kernels_json(const struct results *r);
/*
 * [{"metric", "kernel", "reference", "ratio", "ci95", "p_value",
 * "verdict", ..., "gated", ...}] (results_gate_json)
 */
json_t *results_comparisons_json(const struct results *r);
/*
 * The gate of a comparison into its JSON object @o: "gated" (null when
 * @r's gates are not known; @g NULL: not gated), for a gated metric
 * "holm_m", "holm_threshold", "holm_p" (adjusted) and "holm_reject" (null
 * when not tested), and "regression" (counted by the exit code).
 */
void results_gate_json(json_t *o, const struct results *r,
		       const struct res_gate *g);
/* One comparison as in "comparisons" (metric, kernel, reference, ...). */
json_t *results_cmp_json(const struct res_cmp *c, const char *metric,
			 const char *kernel, const char *ref);
/* per phase index: {"index", "name", "kernels": {...}, "comparisons"} */
json_t *results_phases_json(const struct results *r);
/* ---- the table (table.c) ---- */

/* "1.02x [0.98, 1.06] no change", "not measured: no nrswpout in X". */
void results_fmt_cmp(char *buf, size_t len, const struct res_cmp *c);
/* The mde of @c as a percentage ("1.5%", "62%", ">999%") or "-": 6 bytes. */
void results_fmt_mde(char *buf, size_t len, const struct res_cmp *c);
/*
 * The table: one row per metric (and per phase time), one column per
 * kernel (mean, ± CI with repeats), then per other kernel its ratio to
 * the reference with the interval and the verdict.
 */
void results_print_table(FILE *f, const struct results *r);
/*
 * The same, fitted to @width columns (0: no limit): when the kernels'
 * means and the ratios do not fit side by side, the ratios come in a
 * second table under the means. With @r's gates known (results_gate()),
 * a verdict of change is marked: "!" a regression, "?" a no_regression
 * metric worse but not by Holm, "*" exploratory; a legend under the
 * table (filled to @width, 0: 78) says so.
 */
void results_print_table_fit(FILE *f, const struct results *r,
			     unsigned int width);

#endif
