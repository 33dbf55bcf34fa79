// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/calib.c: the tallies of swapctl calibrate
 * over a synthetic A/A set whose false verdicts are known, and the Wilson
 * interval.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calib.h"
#include "metrics.h"
#include "results.h"
#include "track.h"

static void assert_near(double x, double want, double eps)
{
	if (fabs(x - want) > eps)
		fail_msg("%.12g != %.12g", x, want);
}

/* Reference values of the Wilson score interval (z = 1.959964). */
static void test_wilson(void **state)
{
	static const struct {
		unsigned int x, n;
		double lo, hi;
	} t[] = {
		{ 0, 20, 0, 0.161125158053 },
		{ 1, 20, 0.008881448801, 0.236131193447 },
		{ 5, 100, 0.021543679154, 0.111750469232 },
		{ 20, 20, 0.838874841947, 1 },
		{ 3, 7, 0.158219855251, 0.749541635472 },
	};
	double lo, hi;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		calib_wilson(t[i].x, t[i].n, CALIB_Z95, &lo, &hi);
		assert_near(lo, t[i].lo, 1e-9);
		assert_near(hi, t[i].hi, 1e-9);
	}
	/* nothing known: the whole range */
	calib_wilson(0, 0, CALIB_Z95, &lo, &hi);
	assert_near(lo, 0, 0);
	assert_near(hi, 1, 0);
	calib_wilson(3, 2, CALIB_Z95, &lo, &hi);
	assert_near(lo, 0, 0);
	assert_near(hi, 1, 0);
}

#define NREP	3

/*
 * One synthetic A/A pair: kernels A and B, NREP guests each, every
 * metric not measured but workload_seconds, swapin_p99_us (both gated)
 * and cpu_system_seconds, cpu_user_seconds (exploratory), whose B values
 * are A's times the factors given.
 */
static void make_pair(struct results *r, double wl, double p99, double sys,
		      double user)
{
	static const double base[NREP] = { 100, 102, 98 };
	const char *keys[] = { "workload_seconds", "swapin_p99_us",
			       "cpu_system_seconds", "cpu_user_seconds" };
	double f[] = { wl, p99, sys, user };
	struct track t;
	unsigned int i, j;

	results_init(r);
	track_init(&t);
	for (i = 0; i < 2 * NREP; i++)
		assert_int_equal(results_add(r, i % 2 ? "B" : "A", i / 2 + 1,
					     &t), 0);
	track_free(&t);
	for (j = 0; j < 4; j++) {
		int mi = metric_index(keys[j]);

		assert_true(mi >= 0);
		for (i = 0; i < 2 * NREP; i++)
			r->g[i].v[mi] = stats_ok(base[i / 2] *
						 (i % 2 ? f[j] : 1));
	}
	r->gate_set = true;
	memset(r->gated, 0, sizeof(r->gated));
	r->gated[metric_index("workload_seconds")] = true;
	r->gated[metric_index("swapin_p99_us")] = true;
}

/*
 * Five pairs, false verdicts known:
 *   1. all equal: nothing.
 *   2. workload 5.4% slower, p = 0.03: "worse", exit 12 before Holm,
 *      not with it (0.03 is not below 0.05/2).
 *   3. workload 50% slower: p tiny, exit 12 either way.
 *   4. system CPU 5.4% lower (exploratory, better), user CPU 5.4% higher
 *      (neutral: changed): no exit 12.
 *   5. all equal, its run exited 9.
 */
static void tally_five(struct calib *c)
{
	static const double f[5][4] = {
		{ 1, 1, 1, 1 },
		{ 1.054, 1, 1, 1 },
		{ 1.5, 1, 1, 1 },
		{ 1, 1, 0.946, 1.054 },
		{ 1, 1, 1, 1 },
	};
	static const int code[5] = { 0, 0, 12, 0, 9 };
	struct results r;
	unsigned int i;

	calib_init(c);
	for (i = 0; i < 5; i++) {
		make_pair(&r, f[i][0], f[i][1], f[i][2], f[i][3]);
		calib_add(c, &r, code[i]);
		results_free(&r);
	}
}

static void test_tally(void **state)
{
	int wl = metric_index("workload_seconds");
	int p99 = metric_index("swapin_p99_us");
	int sys = metric_index("cpu_system_seconds");
	int user = metric_index("cpu_user_seconds");
	struct calib c;
	unsigned int mi;

	(void)state;
	tally_five(&c);
	assert_int_equal(c.pairs, 5);
	assert_int_equal(c.ngated, 2);
	assert_int_equal(c.m[wl].pairs, 5);
	assert_int_equal(c.m[wl].falses, 2);
	assert_int_equal(c.m[wl].worse, 2);
	assert_true(c.m[wl].gated && c.m[p99].gated && !c.m[sys].gated);
	assert_int_equal(c.m[p99].falses, 0);
	assert_int_equal(c.m[sys].falses, 1);
	assert_int_equal(c.m[sys].better, 1);
	assert_int_equal(c.m[user].changed, 1);
	assert_int_equal(c.false_verdicts, 4);
	assert_int_equal(c.any_false, 3);
	assert_int_equal(c.exit_plain, 2);
	assert_int_equal(c.exit_holm, 1);
	assert_int_equal(c.exits[0], 3);
	assert_int_equal(c.exits[12], 1);
	assert_int_equal(c.exits[9], 1);
	/* the metrics no pair measured have no tally */
	for (mi = 0; mi < metric_count; mi++)
		if ((int)mi != wl && (int)mi != p99 && (int)mi != sys &&
		    (int)mi != user)
			assert_int_equal(c.m[mi].pairs, 0);
}

/* A pair of one kernel only (a run that failed early): counted, no verdict. */
static void test_one_kernel(void **state)
{
	struct results r;
	struct track t;
	struct calib c;

	(void)state;
	results_init(&r);
	track_init(&t);
	assert_int_equal(results_add(&r, "A", 1, &t), 0);
	track_free(&t);
	calib_init(&c);
	calib_add(&c, &r, -1);
	results_free(&r);
	assert_int_equal(c.pairs, 1);
	assert_int_equal(c.exits_unknown, 1);
	assert_int_equal(c.exit_holm + c.exit_plain + c.any_false, 0);
}

static void test_json(void **state)
{
	json_t *meta = json_pack("{ss si}", "scenario", "synthetic", "repeat",
				 NREP);
	json_t *o, *m, *e;
	struct calib c;
	size_t i;
	bool seen = false;

	(void)state;
	tally_five(&c);
	o = calib_json(&c, NULL, meta);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "scenario")),
			    "synthetic");
	e = json_object_get(json_object_get(o, "exit_code"), "holm");
	assert_int_equal(json_integer_value(json_object_get(e, "nonzero")), 1);
	assert_int_equal(json_integer_value(json_object_get(e, "pairs")), 5);
	assert_near(json_real_value(json_object_get(e, "rate")), 0.2, 1e-12);
	e = json_object_get(json_object_get(o, "exit_code"), "before_holm");
	assert_int_equal(json_integer_value(json_object_get(e, "nonzero")), 2);
	json_array_foreach(json_object_get(o, "metrics"), i, m) {
		if (strcmp(json_string_value(json_object_get(m, "metric")),
			   "workload_seconds"))
			continue;
		seen = true;
		assert_true(json_is_true(json_object_get(m, "gated")));
		assert_int_equal(json_integer_value(json_object_get(m,
				 "false_verdicts")), 2);
		assert_near(json_real_value(json_array_get(json_object_get(m,
			    "ci95"), 0)), 0.117621, 1e-5);
	}
	assert_true(seen);
	assert_int_equal(json_array_size(json_object_get(o, "metrics")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o,
			 "runs_exit"), "0")), 3);
	json_decref(o);
	json_decref(meta);
}

static void test_print(void **state)
{
	json_t *meta = json_pack("{ss ss si si sn}", "scenario", "synthetic",
				 "kernel", "baseline", "repeat", NREP,
				 "pairs_asked", 5, "icount_shift");
	struct calib c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	tally_five(&c);
	calib_print(f, &c, NULL, meta);
	fclose(f);
	assert_non_null(strstr(buf, "exit 12 with Holm (the exit code):       1 of 5 = 20.0% [3.6%, 62.4%]"));
	assert_non_null(strstr(buf, "exit 12 before Holm (each gated alone):  2 of 5 = 40.0%"));
	assert_non_null(strstr(buf, "workload_seconds           gated      5     2  40.0%  [11.8%, 76.9%]"));
	assert_non_null(strstr(buf, "cpu_system_seconds         explor     5     1  20.0%"));
	assert_non_null(strstr(buf, "runs' own exit codes: 0 x3, 9 x1, 12 x1"));
	assert_null(strstr(buf, "pswpout"));
	free(buf);
	json_decref(meta);
}

/* A pool of @n guests of kernel K, workload_seconds @v[i] (gated). */
static void make_pool(struct calib_pool *p, const double *v, unsigned int n)
{
	int wl = metric_index("workload_seconds");
	struct results r;
	struct track t;
	unsigned int i;

	results_init(&r);
	track_init(&t);
	for (i = 0; i < n; i++) {
		assert_int_equal(results_add(&r, "K", i + 1, &t), 0);
		r.g[i].v[wl] = stats_ok(v[i]);
	}
	track_free(&t);
	memset(p, 0, sizeof(*p));
	p->g = r.g;
	p->n = p->cap = n;
	p->repeat = NREP;
	p->gate_set = true;
	p->gated[wl] = true;
}

/*
 * Resampling: a pool whose runs agree within the minimum effect (1%) gives no false verdict in any
 * draw; one whose runs fall in two groups (100 and 150) gives one exactly
 * when a draw puts most of a group on one side, and the same count for
 * the same seed.
 */
static void test_resample(void **state)
{
	static const double same[8] = { 100, 100.3, 99.7, 100, 100.3, 99.7, 100, 100 };
	static const double two[8] = { 100, 101, 99, 100, 150, 151, 149, 150 };
	int wl = metric_index("workload_seconds");
	struct calib_pool p;
	struct calib c, d;

	(void)state;
	make_pool(&p, same, 8);
	assert_int_equal(calib_resample(&p, 200, CALIB_SEED, &c), 0);
	assert_int_equal(c.pairs, 200);
	assert_int_equal(c.exits_unknown, 200);
	assert_int_equal(c.m[wl].pairs, 200);
	assert_int_equal(c.m[wl].falses + c.exit_holm + c.exit_plain, 0);
	calib_pool_free(&p);

	make_pool(&p, two, 8);
	assert_int_equal(calib_resample(&p, 200, CALIB_SEED, &c), 0);
	assert_true(c.m[wl].falses > 0 && c.m[wl].falses < 200);
	/* one gated metric: Holm is the plain test */
	assert_int_equal(c.exit_holm, c.exit_plain);
	assert_int_equal(c.m[wl].worse, c.exit_holm);
	assert_int_equal(calib_resample(&p, 200, CALIB_SEED, &d), 0);
	assert_int_equal(d.m[wl].falses, c.m[wl].falses);
	/* too few guests for one draw of 2 x NREP */
	p.n = 5;
	assert_int_equal(calib_resample(&p, 10, CALIB_SEED, &c), -1);
	p.n = 8;
	calib_pool_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_one_kernel),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_resample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
