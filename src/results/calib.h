/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calib: swapctl's own error rates (swapctl calibrate). One kernel is run
 * as both A and B of a comparison, N times (N "pairs", each a `swapctl
 * run` with R repeats of each side): every verdict other than "no
 * significant change" is then a false one. Per metric, how many pairs
 * gave one (the per-test false-positive rate, with its Wilson interval);
 * per pair, whether its exit code would have been 12 (a regression)
 * under Holm's correction over the no_regression metrics (the exit code
 * today, results_gate_family) and under the rule before it (each gated
 * metric alone at p < 0.05 with its minimum effect): the family-wise A/A
 * rate, which Holm keeps at RES_FWER_ALPHA.
 *
 * The tallies (calib_add, calib_wilson, calib_print, calib_json) are pure
 * functions over the results model; calib_load reads a calibration
 * directory (<workdir>/calibrations/<id>/calibration.json and the run
 * directories it lists).
 */
#ifndef SWAPCTL_CALIB_H
#define SWAPCTL_CALIB_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "results.h"

#define CALIB_FILE	"calibration.json"
#define CALIB_VERSION	1
#define CALIB_Z95	1.959963984540054	/* the normal's 97.5% point */
/* a pair whose run exited so (EXIT_INTERRUPTED) is left out */
#define CALIB_INTERRUPTED	130
/* the exit codes a pair's run is tallied by (calib.exits[]) */
#define CALIB_MAX_CODE	255

struct calib_metric {
	bool gated;		/* a no_regression metric of the scenario */
	unsigned int pairs;	/* pairs with a verdict (measured on A and B) */
	unsigned int falses;	/* of them: better, worse or changed */
	unsigned int worse, better, changed;
};

struct calib {
	unsigned int pairs;	/* pairs tallied */
	/* pairs whose gated family made exit 12 with Holm (exit code today) */
	unsigned int exit_holm;
	/* ... and with each gated metric alone at p < 0.05 (before Holm) */
	unsigned int exit_plain;
	/* pairs with a verdict of change on any metric at all */
	unsigned int any_false;
	unsigned int false_verdicts;	/* all metrics, all pairs */
	unsigned int ngated;	/* the family's size (gated metrics) */
	/* the exit codes the runs themselves returned, by code */
	unsigned int exits[CALIB_MAX_CODE + 1];
	unsigned int exits_unknown;	/* no exit code recorded */
	struct calib_metric m[RES_MAX_METRICS];
};

/*
 * The guests of every pair, pooled: all runs of one kernel on one
 * scenario, for calib_resample().
 */
struct calib_pool {
	struct res_guest *g;
	unsigned int n, cap;
	unsigned int repeat;	/* runs per side of the pairs */
	bool gate_set;
	bool gated[RES_MAX_METRICS];
};

#define CALIB_DRAWS	1000	/* resampled comparisons */
#define CALIB_SEED	36	/* their fixed seed: the same table each time */

void calib_init(struct calib *c);
/*
 * Tally one pair: @r with two kernels, the second (B) compared with the
 * first (A) on every metric of the registry, its gates (r->gated, set by
 * results_gate()) the exit code's family. @exit_code is the code its run
 * returned (-1: not known).
 */
void calib_add(struct calib *c, const struct results *r, int exit_code);
/*
 * The Wilson score interval of @x successes in @n trials at normal
 * quantile @z (CALIB_Z95 for 95%): [@lo, @hi], within [0, 1]; [0, 1]
 * when @n is 0.
 */
void calib_wilson(unsigned int x, unsigned int n, double z, double *lo,
		  double *hi);

/*
 * Resampled A/A comparisons: @draws times, 2 * @p->repeat guests drawn
 * from the pool without replacement (a generator seeded with @seed), the
 * first half as A and the rest as B, tallied by calib_add() into @c
 * (exit codes unknown). Under A/A every guest is a run of the same
 * kernel, so any split is an A/A comparison of the repeats a pair has;
 * the draws share guests, so their rates are estimates whose spread is
 * at most that of the pairs the pool came from. -1 when the pool holds
 * fewer than 2 * repeat guests or memory runs out.
 */
int calib_resample(const struct calib_pool *p, unsigned int draws,
		   unsigned long seed, struct calib *c);
void calib_pool_free(struct calib_pool *p);

/*
 * The table: per metric measured (pairs, false verdicts, rate, Wilson
 * interval; gated or exploratory), then the exit code's A/A rate with
 * Holm and before it, against the stated RES_FWER_ALPHA, and the runs'
 * own exit codes. @meta is calibration.json's object (its scenario,
 * kernel, repeat, icount_shift, pairs asked, dir): the heading. @rs,
 * when not NULL, the resampled tallies (calib_resample): a column and
 * lines of their own.
 */
void calib_print(FILE *f, const struct calib *c, const struct calib *rs,
		 const json_t *meta);
/*
 * The same as one JSON object (a new reference): @meta's members, then
 * "metrics" [{metric, gated, pairs, false_verdicts, worse, better,
 * changed, rate, ci95, resampled_rate}], "exit_code" {"holm": {pairs,
 * nonzero, rate, ci95}, "before_holm": {...}, "stated": alpha},
 * "any_false", "runs_exit", and with @rs "resampled" {draws, holm,
 * before_holm, any_false}.
 */
json_t *calib_json(const struct calib *c, const struct calib *rs,
		   const json_t *meta);

/*
 * Read calibration directory @dir: *@meta gets calibration.json (a new
 * reference), @c the tallies of every pair it lists whose run directory
 * loads (run dirs that do not, and interrupted runs: counted in
 * *@skipped, the first named in @err), and unless @pool is NULL their guests in @pool (zeroed first;
 * calib_pool_free() it). 0, or -1 with a one-line message in @err (no calibration.json,
 * not a JSON object, no "pairs").
 */
int calib_load(const char *dir, json_t **meta, struct calib *c,
	       struct calib_pool *pool, unsigned int *skipped, char *err,
	       size_t errlen);
/*
 * `swapctl report DIR` of a calibration directory: calib_load(), then
 * calib_print() or, with @json, calib_json() to @f. 0; -1 when it does
 * not load (@err); -2 when @f cannot be written. Pairs whose run
 * directory does not load are left out, with a warning on stderr.
 */
int calib_report(const char *dir, bool json, FILE *f, char *err,
		 size_t errlen);
/* Whether @dir holds a calibration.json (a calibration directory). */
bool calib_is_dir(const char *dir);
/* Load run directory @dir into @r (results_init'ed): 0 or -1, @err. */
int calib_load_run(const char *dir, struct results *r, char *err,
		   size_t errlen);

#endif
