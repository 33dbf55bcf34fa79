// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/holm.c (Holm's step-down procedure).
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three),
		cmocka_unit_test(test_step_down_stops),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_one_is_the_plain_test),
		cmocka_unit_test(test_untested),
		cmocka_unit_test(test_family_wise_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
