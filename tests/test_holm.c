// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/holm.c (Holm's step-down procedure) and of
 * results_gate_judge() in src/results/verdict.c (which comparisons of a
 * family count as regressions).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "holm.h"
#include "results.h"

#define A	0.05
#define EPS	1e-12

static void assert_close(double x, double want)
{
	if (fabs(x - want) > EPS)
		fail_msg("%.15g != %.15g", x, want);
}

/*
 * The brief's vector: m = 3, p = 0.01, 0.04, 0.03. Sorted 0.01 < 0.05/3
 * is rejected, 0.03 is not below 0.05/2 and stops: 0.04 is not even
 * compared. Adjusted: 0.03, then max(0.03, 2 * 0.03), max(0.06, 0.04).
 */
static void test_three(void **state)
{
	static const double p[] = { 0.01, 0.04, 0.03 };
	bool rej[3];
	double thr[3], adj[3];

	(void)state;
	assert_int_equal(holm_step_down(p, 3, A, rej, thr, adj), 3);
	assert_true(rej[0]);
	assert_false(rej[1]);
	assert_false(rej[2]);
	assert_close(thr[0], A / 3);
	assert_close(thr[2], A / 2);
	assert_close(thr[1], A);
	assert_close(adj[0], 0.03);
	assert_close(adj[2], 0.06);
	assert_close(adj[1], 0.06);
	/* the same p-values in another order: the same decisions */
	{
		static const double q[] = { 0.03, 0.01, 0.04 };

		holm_step_down(q, 3, A, rej, NULL, NULL);
		assert_false(rej[0]);
		assert_true(rej[1]);
		assert_false(rej[2]);
	}
}

/*
 * m = 5: 0.001 < 0.01 and 0.011 < 0.0125 are rejected, 0.02 is not below
 * 0.05/3 and stops, so 0.04 stays although it is below 0.05/2 (step-down,
 * not each on its own), and 0.3 stays.
 */
static void test_step_down_stops(void **state)
{
	static const double p[] = { 0.3, 0.04, 0.011, 0.02, 0.001 };
	static const bool want[] = { false, false, true, false, true };
	bool rej[5];
	double adj[5];
	unsigned int i;

	(void)state;
	assert_int_equal(holm_step_down(p, 5, A, rej, NULL, adj), 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(rej[i], want[i]);
		assert_int_equal(adj[i] < A, want[i]);
	}
	assert_close(adj[4], 0.005);
	assert_close(adj[2], 0.044);
	assert_close(adj[3], 0.06);
	assert_close(adj[1], 0.08);
	assert_close(adj[0], 0.3);
}

/* Equal p-values pass or fail together, with one threshold and one adj. */
static void test_ties(void **state)
{
	static const double pass2[] = { 0.02, 0.02 };
	static const double fail2[] = { 0.03, 0.03 };
	static const double pass3[] = { 0.02, 0.01, 0.02 };
	static const double fail3[] = { 0.02, 0.02, 0.02 };
	bool rej[3];
	double thr[3], adj[3];

	(void)state;
	holm_step_down(pass2, 2, A, rej, thr, adj);
	assert_true(rej[0] && rej[1]);
	assert_close(thr[0], A / 2);
	assert_close(thr[1], A / 2);
	assert_close(adj[0], 0.04);
	assert_close(adj[1], 0.04);
	holm_step_down(fail2, 2, A, rej, thr, adj);
	assert_false(rej[0] || rej[1]);
	assert_close(adj[0], 0.06);
	assert_close(adj[1], 0.06);
	/* 0.01 < 0.05/3, then both 0.02 < 0.05/2 */
	holm_step_down(pass3, 3, A, rej, thr, adj);
	assert_true(rej[0] && rej[1] && rej[2]);
	assert_close(thr[0], A / 2);
	assert_close(thr[2], A / 2);
	assert_close(adj[0], 0.04);
	assert_close(adj[2], 0.04);
	/* 0.02 is not below 0.05/3: none, though 0.02 < 0.05/2, 0.05/1 */
	holm_step_down(fail3, 3, A, rej, thr, adj);
	assert_false(rej[0] || rej[1] || rej[2]);
	assert_close(thr[0], A / 3);
	assert_close(thr[1], A / 3);
	assert_close(thr[2], A / 3);
	assert_close(adj[1], 0.06);
}

/* One test: Holm is the plain p < alpha, strict at alpha itself. */
static void test_one_is_the_plain_test(void **state)
{
	static const double p[] = { 1e-9, 0.01, 0.049, 0.0499999, 0.05,
				    0.0500001, 0.3, 1 };
	unsigned int i;
	bool rej;
	double thr, adj;

	(void)state;
	for (i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		assert_int_equal(holm_step_down(&p[i], 1, A, &rej, &thr, &adj),
				 1);
		assert_int_equal(rej, p[i] < A);
		assert_close(thr, A);
		assert_close(adj, p[i]);
	}
}

/* A NaN p (no test) is out of the family: it neither counts nor rejects. */
static void test_untested(void **state)
{
	const double p[] = { NAN, 0.03, NAN };
	const double none[] = { NAN, NAN };
	bool rej[3];
	double thr[3], adj[3];

	(void)state;
	assert_int_equal(holm_step_down(p, 3, A, rej, thr, adj), 1);
	assert_false(rej[0]);
	assert_true(rej[1]);
	assert_false(rej[2]);
	assert_true(isnan(thr[0]) && isnan(adj[0]));
	assert_close(thr[1], A);
	assert_close(adj[1], 0.03);
	assert_int_equal(holm_step_down(none, 2, A, rej, thr, adj), 0);
	assert_false(rej[0] || rej[1]);
	assert_int_equal(holm_step_down(NULL, 0, A, NULL, NULL, NULL), 0);
}

/*
 * The point of it: seven true nulls (uniform p-values), how often any
 * is rejected. Uncorrected, 1 - 0.95^7 = 30%; Holm rejects any only when
 * the smallest p is below 0.05/7: 1 - (1 - 0.05/7)^7 = 4.89%, at most
 * alpha. And on every draw, rejected exactly when adjusted p < alpha.
 */
static void test_family_wise_rate(void **state)
{
	const unsigned int draws = 40000, m = 7;
	unsigned long long x = 88172645463325252ULL;
	unsigned int d, i, holm = 0, plain = 0;
	double p[7], adj[7];
	bool rej[7], any, anyp;

	(void)state;
	for (d = 0; d < draws; d++) {
		for (i = 0; i < m; i++) {
			/* xorshift64 */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = (double)(x >> 11) / 9007199254740992.0;
		}
		holm_step_down(p, m, A, rej, NULL, adj);
		any = anyp = false;
		for (i = 0; i < m; i++) {
			assert_int_equal(rej[i], adj[i] < A);
			any = any || rej[i];
			anyp = anyp || p[i] < A;
		}
		holm += any;
		plain += anyp;
	}
	/* within 3 standard errors (0.0011 and 0.0023 at 40000 draws) */
	assert_true(fabs((double)holm / draws - 0.0489) < 0.0033);
	assert_true(fabs((double)plain / draws - 0.302) < 0.007);
}

/* A comparison with verdict @v and p-value @p (NaN: no test). */
static struct res_cmp cmp(enum verdict v, double p)
{
	struct res_cmp c;

	memset(&c, 0, sizeof(c));
	c.verdict = v;
	c.has_p = !isnan(p);
	c.p = c.has_p ? p : 0;
	return c;
}

/*
 * Seven gated metrics worse at p = 0.03 each: every one is "worse", none
 * is a regression (the first would need p < 0.05/7). Alone, the same
 * comparison is one.
 */
static void test_gate_seven_at_003(void **state)
{
	struct res_cmp c[8];
	struct res_gate g[8];
	bool in[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		c[i] = cmp(V_WORSE, 0.03);
		in[i] = i < 7;
	}
	assert_int_equal(results_gate_judge(c, in, 8, A, g), 7);
	for (i = 0; i < 7; i++) {
		assert_true(g[i].gated && g[i].tested);
		assert_false(g[i].reject);
		assert_false(g[i].regression);
		assert_int_equal(g[i].m, 7);
		assert_close(g[i].thr, A / 7);
		assert_close(g[i].p_adj, 0.21);
	}
	/* the eighth is not gated: its "worse" is exploratory */
	assert_false(g[7].gated || g[7].regression);
	/* m = 1 */
	assert_int_equal(results_gate_judge(c, in, 1, A, g), 1);
	assert_true(g[0].reject && g[0].regression);
	/* one of the seven clearly worse: that one alone */
	c[3].p = 0.001;
	results_gate_judge(c, in, 8, A, g);
	for (i = 0; i < 7; i++)
		assert_int_equal(g[i].regression, i == 3);
}

/*
 * Better (or changed, or no change) never regresses, however small its p,
 * but it is tested and counts in m: a better metric at p 0.001 takes the
 * strictest threshold, and a worse one at 0.02 then passes at 0.05/2.
 */
static void test_gate_better_never_regresses(void **state)
{
	struct res_cmp c[3] = {
		cmp(V_BETTER, 0.001), cmp(V_WORSE, 0.02), cmp(V_CHANGED, 0.4),
	};
	struct res_gate g[3];
	static const bool in[3] = { true, true, true };

	(void)state;
	assert_int_equal(results_gate_judge(c, in, 3, A, g), 3);
	assert_true(g[0].reject);
	assert_false(g[0].regression);
	assert_true(g[1].reject && g[1].regression);
	assert_false(g[2].reject || g[2].regression);
}

/*
 * Not measured (missing, n/a) and one run: out of m. The worse metric at
 * p 0.02 is compared with 0.05/2, not 0.05/4, so it is a regression. A
 * deterministic count worse with one run (no p) stays a regression, as
 * the verdict: there is no test to correct.
 */
static void test_gate_missing_not_counted(void **state)
{
	struct res_cmp c[5] = {
		cmp(V_NOT_MEASURED, NAN), cmp(V_WORSE, 0.02),
		cmp(V_NO_CHANGE, NAN), cmp(V_NO_CHANGE, 0.5),
		cmp(V_WORSE, NAN),
	};
	struct res_gate g[5];
	static const bool in[5] = { true, true, true, true, true };

	(void)state;
	assert_int_equal(results_gate_judge(c, in, 5, A, g), 2);
	assert_false(g[0].tested || g[0].regression);
	assert_true(isnan(g[0].thr) && isnan(g[0].p_adj));
	assert_true(g[1].tested && g[1].reject && g[1].regression);
	assert_close(g[1].thr, A / 2);
	assert_false(g[2].tested || g[2].regression);
	assert_false(g[3].reject || g[3].regression);
	assert_false(g[4].tested);
	assert_true(g[4].regression);
	/* a not-measured verdict with a stale p is still out of m */
	c[0] = cmp(V_NOT_MEASURED, 0.0001);
	assert_int_equal(results_gate_judge(c, in, 5, A, g), 2);
	assert_false(g[0].tested);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three),
		cmocka_unit_test(test_step_down_stops),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_one_is_the_plain_test),
		cmocka_unit_test(test_untested),
		cmocka_unit_test(test_family_wise_rate),
		cmocka_unit_test(test_gate_seven_at_003),
		cmocka_unit_test(test_gate_better_never_regresses),
		cmocka_unit_test(test_gate_missing_not_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
