/* SPDX-License-Identifier: GPL-2.0 */
/*
 * email: the results of one run as a plain-text table for a cover
 * letter, after mmtests' compare-kernels: a header naming the scenario,
 * the kernels and the repeats, then per kernel other than the reference
 * one block with a row per metric (the reference's mean, the kernel's
 * mean, the ratio with its 95% interval and a short verdict) and a
 * footnote on the columns. No line is wider than EMAIL_WIDTH columns.
 */
#ifndef SWAPCTL_EMAIL_H
#define SWAPCTL_EMAIL_H

#include <stdio.h>

#include "results.h"

#define EMAIL_WIDTH	78

/* The short verdict of the table: "better", "worse", "changed", "~", "-". */
const char *email_verdict(enum verdict v);
/*
 * Write the table of @r (its kernels[0] the reference) to @f; @scenario
 * and @run name the run in the header ("" or NULL: left out).
 */
void email_print(FILE *f, const struct results *r, const char *scenario,
		 const char *run);

#endif
