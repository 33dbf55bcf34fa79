// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/kcidb.c against the KCIDB I/O schema v5.3
 * (kernelci/kcidb-io, kcidb_io/schema/v05_03.py): every checkout, build
 * and test has the schema's required fields, ids carry the origin prefix
 * and are unique, links point at objects that exist, paths and statuses
 * match the schema's patterns and enum, nothing is null; and the status
 * of a test follows the guest's outcome and the kernel's verdict.
 */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kcidb.h"
#include "metrics.h"
#include "results.h"

/* A guest of @kernel, every metric @base * (1 + 0.01 rep); @holes: some missing. */
static void fake_guest(struct results *r, const char *kernel,
		       unsigned int rep, double base, bool holes)
{
	struct res_guest *g;
	unsigned int mi;

	results_kernel(r, kernel);
	r->g = realloc(r->g, (r->ng + 1) * sizeof(*r->g));
	assert_non_null(r->g);
	r->capg = r->ng + 1;
	g = &r->g[r->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->kernel, sizeof(g->kernel), "%s", kernel);
	g->rep = rep;
	for (mi = 0; mi < metric_count; mi++)
		g->v[mi] = stats_ok(base * (mi + 1) * (1 + 0.01 * rep));
	if (holes) {
		g->v[metric_index("thp_swpout")] = stats_missing();
		g->v[metric_index("swap_read_errors")].state = STATS_NA;
	}
}

static bool matches(const char *pattern, const char *s)
{
	regex_t re;
	int rc;

	assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
	rc = regexec(&re, s, 0, NULL, 0);
	regfree(&re);
	return rc == 0;
}

/* No member and no element anywhere is null (the schema allows none). */
static void no_nulls(const json_t *v)
{
	const char *key;
	json_t *x;
	size_t i;

	assert_false(json_is_null(v));
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, x)
			no_nulls(x);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			no_nulls(x);
	}
}

/* Member @key of @o, a string (required by the schema). */
static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	if (!s)
		fail_msg("no string \"%s\"", key);
	return s;
}

/* An id: "<origin>:..." with the schema's origin pattern, ours. */
static void check_id(const char *id)
{
	assert_true(matches("^[a-z0-9_]+:", id));
	assert_int_equal(strncmp(id, KCIDB_ORIGIN ":",
				 strlen(KCIDB_ORIGIN) + 1), 0);
}

/* Only the keys of @allowed (NULL-terminated) in object @o. */
static void only_keys(const json_t *o, const char *const *allowed)
{
	const char *key;
	json_t *x;
	size_t i;

	json_object_foreach((json_t *)o, key, x) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp(allowed[i], key))
				break;
		if (!allowed[i])
			fail_msg("unexpected member \"%s\"", key);
	}
}

/* Whether array @a holds an object whose "id" is @id (once). */
static unsigned int count_id(const json_t *a, const char *id)
{
	unsigned int n = 0;
	json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
		n += !strcmp(str(x, "id"), id);
	return n;
}

static bool status_ok(const char *s)
{
	return matches("^(FAIL|ERROR|MISS|PASS|DONE|SKIP)$", s);
}

static void check_checkouts(const json_t *co, const struct results *r)
{
	static const char *const keys[] = { "id", "origin", "valid",
					    "comment", "misc", NULL };
	json_t *c;
	size_t i;

	assert_int_equal(json_array_size(co), r->nk);
	json_array_foreach(co, i, c) {
		only_keys(c, keys);
		check_id(str(c, "id"));
		assert_true(matches("^[a-z0-9_]+$", str(c, "origin")));
		assert_int_equal(count_id(co, str(c, "id")), 1);
		if (json_object_get(c, "valid"))
			assert_true(json_is_boolean(json_object_get(c,
								    "valid")));
	}
}

static void check_builds(const json_t *bu, const json_t *co,
			 const struct results *r)
{
	static const char *const keys[] = { "id", "checkout_id", "origin",
		"architecture", "config_name", "status", "misc", NULL };
	json_t *b;
	size_t i;

	assert_int_equal(json_array_size(bu), r->nk);
	json_array_foreach(bu, i, b) {
		only_keys(b, keys);
		check_id(str(b, "id"));
		check_id(str(b, "checkout_id"));
		assert_int_equal(count_id(co, str(b, "checkout_id")), 1);
		assert_int_equal(count_id(bu, str(b, "id")), 1);
		assert_true(matches("^[a-z0-9_]+$", str(b, "origin")));
		assert_string_equal(str(b, "architecture"), "x86_64");
		assert_true(matches("^[a-z0-9_]*$", str(b, "architecture")));
		str(b, "config_name");
		if (json_object_get(b, "status"))
			assert_true(status_ok(str(b, "status")));
	}
}

static void check_number(const json_t *n)
{
	static const char *const keys[] = { "value", "unit", "prefix", NULL };

	only_keys(n, keys);
	assert_true(json_is_number(json_object_get(n, "value")));
	if (json_object_get(n, "unit"))
		str(n, "unit");
}

/* The tests; @seg the scenario's path segment. */
static void check_tests(const json_t *te, const json_t *bu,
			const struct results *r, const char *seg)
{
	static const char *const keys[] = { "id", "build_id", "origin",
		"path", "comment", "status", "number", "environment", "misc",
		NULL };
	char path[256];
	json_t *t;
	size_t i;

	assert_int_equal(json_array_size(te), r->ng * metric_count);
	json_array_foreach(te, i, t) {
		const struct metric_def *m = &metric_defs[i % metric_count];
		const json_t *n = json_object_get(t, "number");

		only_keys(t, keys);
		check_id(str(t, "id"));
		check_id(str(t, "build_id"));
		assert_int_equal(count_id(bu, str(t, "build_id")), 1);
		assert_true(matches("^[a-z0-9_]+$", str(t, "origin")));
		assert_true(matches("^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$",
				    str(t, "path")));
		snprintf(path, sizeof(path), "swapctl.%s.%s", seg, m->key);
		assert_string_equal(str(t, "path"), path);
		assert_true(status_ok(str(t, "status")));
		if (n)
			check_number(n);
		else
			assert_string_not_equal(str(t, "status"), "PASS");
		assert_true(json_is_object(json_object_get(t, "misc")));
	}
	/* test ids are unique */
	json_array_foreach(te, i, t)
		assert_int_equal(count_id(te, str(t, "id")), 1);
}

static json_t *check_all(const struct kcidb_run *k, const char *seg)
{
	static const char *const top[] = { "version", "checkouts", "builds",
					   "tests", NULL };
	json_t *o = kcidb_json(k);

	assert_non_null(o);
	no_nulls(o);
	only_keys(o, top);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		o, "version"), "major")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		o, "version"), "minor")), KCIDB_MINOR);
	check_checkouts(json_object_get(o, "checkouts"), k->res);
	check_builds(json_object_get(o, "builds"),
		     json_object_get(o, "checkouts"), k->res);
	check_tests(json_object_get(o, "tests"), json_object_get(o, "builds"),
		    k->res, seg);
	return o;
}

/* The test of guest @gi, metric @key in @o. */
static const json_t *test_of(const json_t *o, unsigned int gi,
			     const char *key)
{
	return json_array_get(json_object_get(o, "tests"),
			      gi * metric_count +
			      (unsigned int)metric_index(key));
}

static void test_required_fields(void **state)
{
	struct results r;
	struct kcidb_guest g[6] = {
		{ "baseline-1", "pass" }, { "swap-ops-1", "pass" },
		{ "baseline-2", "pass" }, { "swap-ops-2", "corrupt" },
		{ "baseline-3", "pass" }, { "swap-ops-3", "error" },
	};
	struct kcidb_kernel kk[2] = {
		{ .variant = "baseline", .release = "6.1.192", .built = 1 },
		{ .variant = "swap-ops", .release = "6.1.192", .built = -1 },
	};
	struct kcidb_run k = { .res = &r, .run = "20261204-085857-bdev-swap",
			       .scenario = "bdev-swap", .guests = g,
			       .kernels = kk, .accel = "tcg",
			       .memory_mb = 256, .cpus = 2 };
	unsigned int rep;
	json_t *o;

	(void)state;
	results_init(&r);
	for (rep = 1; rep <= 3; rep++) {
		fake_guest(&r, "baseline", rep, 1.0, true);
		fake_guest(&r, "swap-ops", rep, 1.3, false);
	}
	o = check_all(&k, "bdev-swap");
	assert_string_equal(str(json_array_get(json_object_get(o, "checkouts"),
					       0), "id"),
			    "swapctl:20261204-085857-bdev-swap:baseline");
	assert_string_equal(str(test_of(o, 1, "pswpout"), "id"),
			    "swapctl:20261204-085857-bdev-swap:swap-ops-1:pswpout");
	assert_string_equal(str(test_of(o, 1, "pswpout"), "build_id"),
			    "swapctl:20261204-085857-bdev-swap:swap-ops");
	/* the reference's guests pass; a missing value is skipped */
	assert_string_equal(str(test_of(o, 0, "pswpout"), "status"), "PASS");
	assert_string_equal(str(test_of(o, 0, "thp_swpout"), "status"),
			    "SKIP");
	assert_null(json_object_get(test_of(o, 0, "thp_swpout"), "number"));
	/* a worse verdict fails, a better one passes */
	assert_string_equal(str(test_of(o, 1, "workload_seconds"), "status"),
			    "FAIL");
	assert_string_equal(str(test_of(o, 1, "write_pages_per_io"),
				"status"), "PASS");
	assert_string_equal(str(json_object_get(test_of(o, 1,
		"write_pages_per_io"), "misc"), "verdict"), "better");
	/* corrupt pages fail every test of the guest, an error is one */
	assert_string_equal(str(test_of(o, 3, "write_pages_per_io"),
				"status"), "FAIL");
	assert_string_equal(str(test_of(o, 5, "write_pages_per_io"),
				"status"), "ERROR");
	/* number: the guest's own value, the registry's unit */
	assert_true(json_real_value(json_object_get(json_object_get(
		test_of(o, 1, "pswpout"), "number"), "value")) ==
		r.g[1].v[metric_index("pswpout")].v);
	assert_string_equal(str(json_object_get(test_of(o, 1, "pswpout"),
						"number"), "unit"), "pages");
	json_decref(o);
	results_free(&r);
}

/* Without run facts, a kernel name with dots, a scenario with a dot. */
static void test_bare_run(void **state)
{
	struct results r;
	struct kcidb_run k = { .res = &r, .run = "run-demo",
			       .scenario = "nfs.v4-swap" };
	json_t *o;
	char seg[64];

	(void)state;
	kcidb_path_segment(seg, sizeof(seg), "nfs.v4-swap");
	assert_string_equal(seg, "nfs_v4-swap");
	kcidb_path_segment(seg, sizeof(seg), "");
	assert_string_equal(seg, "unnamed");
	results_init(&r);
	fake_guest(&r, "baseline", 1, 1.0, true);
	fake_guest(&r, "bhe-ops.v2", 1, 2.0, true);
	o = check_all(&k, "nfs_v4-swap");
	/* no guest status known: an error, never a pass */
	assert_string_equal(str(test_of(o, 1, "pswpout"), "status"),
			    "ERROR");
	assert_string_equal(str(test_of(o, 1, "pswpout"), "id"),
			    "swapctl:run-demo:bhe-ops.v2-1:pswpout");
	json_decref(o);
	k.scenario = NULL;
	o = check_all(&k, "unnamed");
	json_decref(o);
	results_free(&r);
}

static void test_status_rule(void **state)
{
	(void)state;
	assert_int_equal(kcidb_test_status("pass", false, true, V_BETTER),
			 KCIDB_PASS);
	assert_int_equal(kcidb_test_status("pass", false, true, V_NO_CHANGE),
			 KCIDB_PASS);
	assert_int_equal(kcidb_test_status("pass", false, true, V_WORSE),
			 KCIDB_FAIL);
	assert_int_equal(kcidb_test_status("pass", false, false, V_WORSE),
			 KCIDB_SKIP);
	assert_int_equal(kcidb_test_status("corrupt", false, true, V_BETTER),
			 KCIDB_FAIL);
	assert_int_equal(kcidb_test_status("error", false, true, V_BETTER),
			 KCIDB_ERROR);
	assert_int_equal(kcidb_test_status("no data", false, false,
					   V_NOT_MEASURED), KCIDB_ERROR);
	assert_int_equal(kcidb_test_status(NULL, false, true, V_BETTER),
			 KCIDB_ERROR);
	/* an OOM kill is what an oom fault expects, a pass is not */
	assert_int_equal(kcidb_test_status("oom", false, true, V_BETTER),
			 KCIDB_ERROR);
	assert_int_equal(kcidb_test_status("oom", true, true, V_BETTER),
			 KCIDB_PASS);
	assert_int_equal(kcidb_test_status("pass", true, true, V_BETTER),
			 KCIDB_ERROR);
	assert_string_equal(kcidb_status_name(KCIDB_SKIP), "SKIP");
	assert_string_equal(kcidb_status_name(KCIDB_ERROR), "ERROR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_required_fields),
		cmocka_unit_test(test_bare_run),
		cmocka_unit_test(test_status_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
