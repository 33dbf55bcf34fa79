/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats: values, and the statistics of repeated runs (the per-guest
 * track of samples is track.h).
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
struct stats_val stats_na(void);
/*
 * Format @v with @decimals decimals into @buf: the number, "n/a" or
 * "missing". Returns @buf.
 */
char *stats_fmt(char *buf, size_t len, struct stats_val v, int decimals);

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
