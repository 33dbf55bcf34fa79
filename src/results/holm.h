/* SPDX-License-Identifier: GPL-2.0 */
/*
 * holm: Holm's step-down procedure (S. Holm, "A simple sequentially
 * rejective multiple test procedure", Scand. J. Statist. 6, 1979), which
 * keeps the family-wise error rate of several tests at alpha: the chance
 * that any true null of the family is rejected. A pure function over
 * p-values; what a family is (the no_regression metrics of one kernel
 * comparison, for exit 12) is verdict.c's.
 */
#ifndef SWAPCTL_HOLM_H
#define SWAPCTL_HOLM_H

#include <stdbool.h>

/*
 * Holm at family-wise level @alpha over the @n tests with p-values @p. A
 * NaN p is a test that could not be made: it is left out of the family
 * (not counted in m) and never rejected.
 *
 * The m p-values sorted ascending, the i-th smallest (i from 1) is
 * compared with alpha / (m - i + 1); the procedure stops at the first
 * that is not below it, and that test's null and those of all larger
 * p-values stand. "Below" is strict, as the plain test's p < alpha: with
 * m = 1 Holm is that test. Equal p-values pass or fail together; each of
 * them is given the threshold of the first of them (the strictest).
 *
 * Per test, each array NULL when not wanted: @reject whether its null is
 * rejected; @thr the threshold its rank compares with (NaN when not
 * tested); @adj Holm's adjusted p-value, max over j <= i of
 * min(1, (m - j + 1) p_(j)), which is below @alpha exactly when the test
 * is rejected (NaN when not tested). Returns m.
 */
unsigned int holm_step_down(const double *p, unsigned int n, double alpha,
			    bool *reject, double *thr, double *adj);

#endif
