/* SPDX-License-Identifier: GPL-2.0 */
/*
 * email: the results of one run as a plain-text table for a cover
 * letter, after mmtests' compare-kernels: a header naming the scenario,
 * the run, the kernels, the repeats and the guests that did not pass,
 * then per kernel other than the reference one block with a row per
 * metric and per phase (the reference's mean, the kernel's mean, the
 * ratio with its 95% interval and a short verdict) and a footnote on
 * the columns. No line is wider than EMAIL_WIDTH columns (code points):
 * the rows by construction, the other lines wrapped, a word longer than
 * a line (a run id) cut. Nothing is cut off.
 */
#ifndef SWAPCTL_EMAIL_H
#define SWAPCTL_EMAIL_H

#include <stdio.h>

#include "results.h"

#define EMAIL_WIDTH	78

struct email_run {
	const struct results *res;	/* kernels[0] is the reference */
	const char *scenario;		/* NULL or "": "?" */
	const char *run;		/* NULL or "": left out */
	/* per res->g[i] its status ("pass", "corrupt", ...); NULL: none */
	const char *const *status;
	/* the run's host.json warning (hostrec.h); NULL or "": none */
	const char *host_warning;
};

/*
 * The short verdict of the table, in at most 7 columns: the
 * vocabulary's (results.h, results_vword_abbr()) "better", "worse",
 * "changed", "n.s." (no significant change), "1 run" (not judged: one
 * run, not a deterministic count), "-" (not measured).
 */
const char *email_verdict(const struct res_cmp *c);
/* Write the table of @e to @f. */
void email_print(FILE *f, const struct email_run *e);

#endif
