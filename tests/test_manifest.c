// SPDX-License-Identifier: GPL-2.0
/*
 * manifest_load() and manifest_line(): the one reader of
 * kernels/<variant>/manifest.json that build, list, run and bisect share.
 * list's reader fell back to kernel_version for the line and run's did
 * not: a manifest of a build before there were lines got line 6.1 in
 * `swapctl list` and none in run (test_line_fallback failed for run's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "util.h"

static void line_of(const char *json, const char *want)
{
	json_error_t jerr;
	json_t *m = json_loads(json, 0, &jerr);
	char line[32] = "x";

	assert_non_null(m);
	manifest_line(m, line, sizeof(line));
	assert_string_equal(line, want);
	json_decref(m);
}

static void test_line(void **state)
{
	(void)state;
	line_of("{\"kernel_line\": \"6.12\", \"kernel_version\": \"6.1.1\"}",
		"6.12");
	line_of("{\"kernel_line\": \"6.1\"}", "6.1");
	/* a git tree's kernel whose release said no line */
	line_of("{\"kernel_line\": null, \"kernel_version\": \"unknown\"}", "");
	line_of("{}", "");
	line_of("{\"kernel_version\": 6}", "");
	line_of("{\"kernel_version\": \"6\"}", "");
}

/* A manifest written before kernel_line: its version says the line. */
static void test_line_fallback(void **state)
{
	char line[32] = "x";

	(void)state;
	line_of("{\"kernel_version\": \"6.1.192+\"}", "6.1");
	line_of("{\"kernel_line\": null, \"kernel_version\": \"6.12.3\"}",
		"6.12");
	manifest_line(NULL, line, sizeof(line));
	assert_string_equal(line, "");
}

static void test_load(void **state)
{
	char dir[] = "/tmp/swapctl-test-manifest-XXXXXX", p[4200];
	const char *text = "{\"variant\": \"baseline@6.12\", \"kernel_line\": \"6.12\"}\n";
	json_error_t jerr;
	json_t *m;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/kernels/baseline@6.12", dir);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	strcat(p, "/manifest.json");
	assert_int_equal(util_write_file_atomic(p, text, strlen(text), 0644),
			 0);
	m = manifest_load(dir, "baseline@6.12", &jerr);
	assert_non_null(m);
	assert_string_equal(json_string_value(json_object_get(m, "variant")),
			    "baseline@6.12");
	json_decref(m);
	/* none: NULL and ENOENT (list says "not built") */
	errno = 0;
	assert_null(manifest_load(dir, "patched", &jerr));
	assert_int_equal(errno, ENOENT);
	/* not JSON: NULL with where */
	assert_int_equal(util_write_file_atomic(p, "{", 1, 0644), 0);
	assert_null(manifest_load(dir, "baseline@6.12", &jerr));
	assert_true(jerr.line > 0);
	assert_int_equal(util_rm_rf(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_line_fallback),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
