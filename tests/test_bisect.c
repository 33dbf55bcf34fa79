// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/bisect.c: the first patch from which on the
 * verdict against the baseline is the last kernel's, over results filled
 * by hand (one guest per kernel and repeat, one metric set).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bisect.h"
#include "metrics.h"
#include "results.h"

/* Kernel k's @reps values of metric @key (the others missing). */
static void add(struct results *r, const char *kernel, const char *key,
		const double *v, unsigned int reps)
{
	int mi = metric_index(key);
	unsigned int i, j;

	assert_true(mi >= 0);
	assert_true(results_kernel(r, kernel) >= 0);
	for (j = 0; j < reps; j++) {
		struct res_guest *g;

		if (r->ng >= r->capg) {
			r->capg = r->capg ? r->capg * 2 : 16;
			r->g = realloc(r->g, r->capg * sizeof(*r->g));
			assert_non_null(r->g);
		}
		g = &r->g[r->ng++];
		memset(g, 0, sizeof(*g));
		snprintf(g->kernel, sizeof(g->kernel), "%s", kernel);
		g->rep = j + 1;
		for (i = 0; i < metric_count; i++)
			g->v[i].state = STATS_MISSING;
		g->v[mi] = stats_ok(v[j]);
	}
}

/* One repeat each of pswpout (deterministic: judged on one run). */
static void series1(struct results *r, const double *v, unsigned int n)
{
	char name[32];
	unsigned int k;

	results_init(r);
	for (k = 0; k < n; k++) {
		snprintf(name, sizeof(name), k ? "s.%02u" : "baseline", k);
		add(r, name, "pswpout", &v[k], 1);
	}
}

static unsigned int first(const double *v, unsigned int n, enum verdict *f)
{
	struct bisect_metric bm;
	struct results r;

	series1(&r, v, n);
	bisect_judge(&r, (unsigned int)metric_index("pswpout"), &bm);
	results_free(&r);
	*f = bm.final;
	return bm.first;
}

static void test_first_change(void **state)
{
	/* patch 3 halves what is swapped out, and it stays so */
	static const double drop[] = { 1000, 1000, 1010, 500, 505, 498 };
	/* patch 1 worse, patch 2 back, patch 4 worse for good */
	static const double flip[] = { 1000, 500, 1000, 1000, 500, 500 };
	/* nothing beyond the 5% minimum effect */
	static const double flat[] = { 1000, 1020, 990, 1030 };
	/* better at once */
	static const double up[] = { 100, 200, 200 };
	enum verdict f;

	(void)state;
	assert_int_equal(first(drop, 6, &f), 3);
	assert_int_equal(f, V_WORSE);
	assert_int_equal(first(flip, 6, &f), 4);
	assert_int_equal(f, V_WORSE);
	assert_int_equal(first(flat, 4, &f), 0);
	assert_int_equal(f, V_NO_CHANGE);
	assert_int_equal(first(up, 3, &f), 1);
	assert_int_equal(f, V_BETTER);
}

/* A metric the early kernels lack: named from where it is measured. */
static void test_not_measured_until_the_counter_patch(void **state)
{
	static const double one = 1.0, many = 29.0;
	int mi = metric_index("write_pages_per_io");
	struct bisect_metric bm;
	struct results r;
	struct res_cmp c;

	(void)state;
	results_init(&r);
	add(&r, "baseline", "write_pages_per_io", &one, 1);
	/* s.01 has no value at all: all missing */
	add(&r, "s.01", "pswpout", &one, 1);
	add(&r, "s.02", "write_pages_per_io", &many, 1);
	bisect_judge(&r, (unsigned int)mi, &bm);
	assert_int_equal(bm.final, V_BETTER);
	assert_int_equal(bm.first, 2);
	results_compare(&r, (unsigned int)mi, 2, 1, &c);
	assert_int_equal(c.verdict, V_NOT_MEASURED);
	/* only one kernel: nothing to judge */
	r.nk = 1;
	bisect_judge(&r, (unsigned int)mi, &bm);
	assert_int_equal(bm.first, 0);
	assert_int_equal(bm.final, V_NOT_MEASURED);
	results_free(&r);
}

/* With repeats, Welch's test decides, as in swapctl run. */
static void test_repeats_use_the_run_verdicts(void **state)
{
	static const double base[] = { 10.0, 10.5, 9.5 };
	static const double noisy[] = { 8.0, 12.5, 11.0 };
	static const double slow[] = { 20.0, 20.5, 19.5 };
	int mi = metric_index("workload_seconds");
	struct bisect_metric bm;
	struct results r;

	(void)state;
	results_init(&r);
	add(&r, "baseline", "workload_seconds", base, 3);
	add(&r, "s.01", "workload_seconds", noisy, 3);
	add(&r, "s.02", "workload_seconds", slow, 3);
	bisect_judge(&r, (unsigned int)mi, &bm);
	assert_int_equal(bm.final, V_WORSE);
	assert_int_equal(bm.first, 2);
	results_free(&r);
}

static void test_table_and_json(void **state)
{
	static const double drop[] = { 1000, 1000, 500 };
	struct bisect_names nm = { { NULL, "0001-a.patch", "0002-b.patch" } };
	int mi = metric_index("pswpout");
	char *buf = NULL, *text;
	struct results r;
	size_t len = 0;
	json_t *o, *m;
	FILE *f;

	(void)state;
	series1(&r, drop, 3);
	f = open_memstream(&buf, &len);
	bisect_print(f, &r, &mi, 1, &nm, true);
	fclose(f);
	assert_non_null(strstr(buf, "pages swapped out      == --  worse from 2"));
	assert_non_null(strstr(buf, "worse from patch 2 (s.02 0002-b.patch)"));
	assert_non_null(strstr(buf, "against patch 1: 0.50x worse"));
	free(buf);
	o = bisect_json(&r, &mi, 1, &nm);
	m = json_array_get(json_object_get(o, "metrics"), 0);
	assert_string_equal(json_string_value(json_object_get(m, "final")),
			    "worse");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(m, "first_change"), "index")), 2);
	text = json_dumps(json_object_get(m, "first_change"), JSON_COMPACT |
			  JSON_SORT_KEYS);
	assert_string_equal(text,
		"{\"index\":2,\"kernel\":\"s.02\",\"patch\":\"0002-b.patch\"}");
	free(text);
	json_decref(o);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_change),
		cmocka_unit_test(test_not_measured_until_the_counter_patch),
		cmocka_unit_test(test_repeats_use_the_run_verdicts),
		cmocka_unit_test(test_table_and_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
