// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/model/stats.c: values (number, n/a, missing), the
 * description of repeated runs, Student's t, Welch's test, the ratio's
 * interval and the minimum detectable effect. The paired comparison is
 * tests/test_blocking.c's, the per-guest track tests/test_track.c's.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stats.h"

static struct stats_desc desc(const double *x, size_t n)
{
	struct stats_desc d;

	stats_describe(x, n, &d);
	return d;
}

static void test_primitives(void **state)
{
	char buf[32];
	bool reset = false;

	(void)state;
	assert_int_equal(stats_delta(10, 15, &reset), 5);
	assert_false(reset);
	assert_int_equal(stats_delta(10, 3, &reset), 3);
	assert_true(reset);
	assert_int_equal(stats_rate(5, 0).state, STATS_NA);
	assert_true(fabs(stats_rate(5, 500000000).v - 10.0) < 1e-9);
	assert_int_equal(stats_ratio(stats_ok(5), stats_ok(0)).state, STATS_NA);
	assert_int_equal(stats_ratio(stats_ok(5), stats_missing()).state,
			 STATS_MISSING);
	assert_true(fabs(stats_ratio(stats_ok(32), stats_ok(2)).v - 16) < 1e-9);
	assert_string_equal(stats_fmt(buf, sizeof(buf),
				      stats_ratio(stats_ok(1), stats_ok(0)), 2),
			    "n/a");
	assert_string_equal(stats_fmt(buf, sizeof(buf), stats_missing(), 2),
			    "missing");
	assert_string_equal(stats_fmt(buf, sizeof(buf), stats_ok(2.5), 1),
			    "2.5");
}

static void test_describe(void **state)
{
	const double x[] = { 1, 2, 3, 4 };
	struct stats_desc d;

	(void)state;
	stats_describe(x, 4, &d);
	assert_true(fabs(d.mean - 2.5) < 1e-12);
	assert_true(fabs(d.stddev - 1.2909944487) < 1e-9);
	assert_true(d.has_ci);
	assert_true(fabs(d.ci95 - 3.182 * 1.2909944487 / 2) < 1e-9);
	stats_describe(x, 1, &d);
	assert_false(d.has_ci);
	assert_true(fabs(d.mean - 1) < 1e-12);
	stats_describe(x, 0, &d);
	assert_int_equal(d.n, 0);
	assert_true(fabs(stats_t95(1) - 12.706) < 1e-9);
	assert_true(fabs(stats_t95(30) - 2.042) < 1e-9);
	assert_true(stats_t95(100000) < 1.97);
	assert_true(isnan(stats_t95(0)));
}

static void test_student_t(void **state)
{
	(void)state;
	assert_true(fabs(stats_t_cdf(0, 5) - 0.5) < 1e-12);
	/* the table of stats_t95 and the quantile agree */
	assert_true(fabs(stats_t_quantile(0.975, 4) - 2.776) < 1e-3);
	assert_true(fabs(stats_t_quantile(0.975, 10) - 2.228) < 1e-3);
	assert_true(fabs(stats_t_quantile(0.975, 1) - 12.706) < 1e-2);
	assert_true(fabs(stats_t_cdf(2.228, 10) - 0.975) < 1e-4);
	assert_true(fabs(stats_t_cdf(-1.812, 10) - 0.05) < 1e-3);
	/* non-integer degrees (Welch) lie between their neighbours */
	assert_true(stats_t_quantile(0.975, 4.5) < 2.776 &&
		    stats_t_quantile(0.975, 4.5) > 2.571);
}

static void test_welch(void **state)
{
	/* Welch's example values: computed with scipy.stats.ttest_ind */
	static const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9,
				    16.9, 20.1, 21.9, 22.6, 23.1, 19.6,
				    19.0, 21.7, 21.4 };
	static const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5,
				    25.8, 22.0, 24.8, 20.2, 21.9, 22.1,
				    22.9, 20.5, 24.4 };
	static const double c[] = { 5, 5, 5 }, d[] = { 6, 6, 6 };
	struct stats_desc da = desc(a, 15), db = desc(b, 15);
	struct stats_desc dc = desc(c, 3), dd = desc(d, 3);
	double p, df;

	(void)state;
	assert_true(stats_welch(&da, &db, &p, &df));
	/* scipy: t = -2.46, p = 0.0210, df = 24.99 */
	assert_true(fabs(p - 0.02101) < 5e-4);
	assert_true(fabs(df - 24.99) < 0.05);
	/* no variance at all: different means are certain */
	assert_true(stats_welch(&dc, &dd, &p, &df));
	assert_true(p == 0);
	assert_true(stats_welch(&dc, &dc, &p, &df));
	assert_true(p == 1);
	assert_false(stats_welch(&dc, &(struct stats_desc){ .n = 1 }, &p,
				 &df));
}

static void test_ratio_ci(void **state)
{
	static const double a[] = { 10, 11, 9, 10, 10 };
	static const double b[] = { 12.5, 12.4, 12.6, 12.5, 12.5 };
	struct stats_desc da = desc(a, 5), db = desc(b, 5);
	double r, lo, hi;
	bool ci;

	(void)state;
	assert_true(stats_ratio_ci(&da, &db, &r, &lo, &hi, &ci));
	assert_true(ci);
	assert_true(fabs(r - 1.25) < 1e-12);
	assert_true(lo < 1.25 && hi > 1.25 && lo > 1.0 && hi < 1.5);
	da.n = 1;
	assert_true(stats_ratio_ci(&da, &db, &r, &lo, &hi, &ci));
	assert_false(ci);
	da.mean = 0;
	assert_false(stats_ratio_ci(&da, &db, &r, &lo, &hi, &ci));
}

/*
 * The minimum detectable effect and the repeats needed, by the formula of
 * stats.h, checked with Student's t from the printed table (not
 * stats_t_quantile).
 */
static void test_mde(void **state)
{
	struct stats_desc cv5 = { .n = 5, .mean = 100, .stddev = 5 };
	double mde;

	(void)state;
	/*
	 * cv 5% both, effect 10%: n 5 gives (2.306 + 0.889) * sqrt(2 *
	 * 0.0025 / 5) = 0.101, n 6 (df 10: 2.228 + 0.879) 0.0897: 6.
	 */
	assert_int_equal(stats_repeats_needed(&cv5, &cv5, 0.10, 100), 6);
	assert_true(stats_mde(&cv5, &cv5, &mde) && fabs(mde - 0.1010) < 5e-4);
	/* no spread yet (one run): no figure */
	assert_int_equal(stats_repeats_needed(&(struct stats_desc){ .n = 1,
		.mean = 100 }, &cv5, 0.10, 100), 0);
	assert_false(stats_mde(&(struct stats_desc){ .n = 1, .mean = 100 },
			       &cv5, &mde));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_primitives),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_student_t),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_ratio_ci),
		cmocka_unit_test(test_mde),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
