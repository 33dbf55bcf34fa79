/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bisect: which patch of a series changed a metric. The results of one
 * run whose kernels are, in order, the baseline ([0]) and the kernel
 * after each patch ([k], k = 1..n). Every verdict is results_compare()'s
 * (doc/HACKING.md "Verdicts"): kernel k against kernel k-1 and against
 * the baseline.
 */
#ifndef SWAPCTL_BISECT_H
#define SWAPCTL_BISECT_H

#include <stdio.h>

#include <jansson.h>

#include "results.h"

struct bisect_metric {
	unsigned int mi;	/* metric_defs[] index */
	enum verdict final;	/* the last kernel against the baseline */
	enum res_vword final_word;	/* what the text calls it */
	/*
	 * The first patch from which on every kernel's verdict against the
	 * baseline is the final one; 0 when the final verdict is "no
	 * significant change" or "not measured" (then no patch is named).
	 */
	unsigned int first;
};

/* Judge metric @mi over @r's kernels (at least two). */
void bisect_judge(const struct results *r, unsigned int mi,
		  struct bisect_metric *bm);

/* The one-character form of a verdict in the table: = + - ~ . */
char bisect_verdict_char(enum verdict v);

/*
 * The names the table shows: kernel k's patch (@patch[k], k >= 1; NULL
 * or "" when unknown: the kernel's name is shown alone).
 */
struct bisect_names {
	const char *patch[RES_MAX_KERNELS];
};

/*
 * The table: every metric of @mi (@n of them) a row with a cell per
 * patch (against the previous kernel, against the baseline), then the
 * first change of each metric whose final verdict is a change.
 * @detail: each metric's values and comparisons per patch as well.
 */
void bisect_print(FILE *f, const struct results *r, const int *mi,
		  unsigned int n, const struct bisect_names *names,
		  bool detail);

/* The same as JSON: {"kernels": [...], "metrics": [...]}. */
json_t *bisect_json(const struct results *r, const int *mi, unsigned int n,
		    const struct bisect_names *names);

#endif
