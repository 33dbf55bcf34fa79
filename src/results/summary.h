/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The end of swapctl run: its guests judged (the results model, the
 * expectations, the regressions), runs/<id>/summary.json and the table
 * run prints (or the summary itself with --json).
 */
#ifndef SWAPCTL_SUMMARY_H
#define SWAPCTL_SUMMARY_H

#include <stdbool.h>

#include <jansson.h>

#include "guest.h"
#include "kernels.h"
#include "results.h"
#include "scenario.h"
#include "schedule.h"

#define RUN_AUTO_MIN_REPEAT	3	/* --repeat auto: spreads from 3 runs on */
#define RUN_AUTO_LIMIT		10	/* its default --repeat-limit */
#define RUN_AUTO_EFFECT		0.05	/* its default --effect */

/*
 * The power targets (--metric, else the scenario's) and --repeat auto:
 * repeat until every target's minimum detectable effect is at most
 * pw.effect, or limit repeats.
 */
struct run_power {
	struct res_mde_opts pw;		/* --effect, --metric */
	int targets[RES_MAX_METRICS];	/* pw.mi, or results_mde_targets */
	unsigned int ntargets;
	bool repeat_auto, reached;
	unsigned int limit;
	double worst;		/* the largest target mde at the end */
	int worst_mi;
};

/* A run, as its summary and table read it. */
struct run_summary {
	const struct scenario *scn;
	const struct guest_env *env;
	const struct run_kernels *k;
	const struct sched *s;		/* the hosts, the guests, the waves */
	const struct run_power *pow;
	const char *id, *dir, *uri;
	struct results *res;		/* filled by summary_finish() */
};

/* The results of the guests run so far (@res initialised); -1: no memory */
int summary_results(const struct run_summary *rs, struct results *res);
/*
 * Judge the run: rs->res from the guests, the expectations, the gate and
 * the regressions; write <dir>/summary.json; print it (@json) or the
 * table. The exit code.
 */
int summary_finish(const struct run_summary *rs, bool json);

/*
 * The power targets (p->pw.mi from --metric, else the scenario's) and,
 * @autom (--repeat auto), its effect (default RUN_AUTO_EFFECT) and
 * limit (@limit, default RUN_AUTO_LIMIT) into *@repeat. 0 or EXIT_USAGE
 * (--repeat-limit without --repeat auto), after one line.
 */
int summary_power_setup(struct run_power *p, const struct scenario *scn,
			bool autom, int limit, unsigned int *repeat);
/*
 * --repeat auto, after @done repeats (the guests of rs->s are theirs):
 * are the power targets' minimum detectable effects within the effect
 * asked for (p->reached, p->worst)? Says so either way.
 */
bool summary_repeat_enough(const struct run_summary *rs, struct run_power *p,
			   unsigned int done);

#endif
