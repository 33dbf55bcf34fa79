// SPDX-License-Identifier: GPL-2.0
/* Unit tests of src/results/svg.c: ticks, escaping, gaps, legend, atomic write. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "svg.h"

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void test_nice_step(void **state)
{
	(void)state;
	assert_true(fabs(svg_nice_step(16, 10) - 2) < 1e-12);
	assert_true(fabs(svg_nice_step(100, 10) - 10) < 1e-12);
	assert_true(fabs(svg_nice_step(23, 10) - 2.5) < 1e-12);
	assert_true(fabs(svg_nice_step(0.7, 6) - 0.2) < 1e-12);
	assert_true(fabs(svg_nice_step(0, 6) - 1) < 1e-12);
	assert_true(fabs(svg_nice_step(NAN, 6) - 1) < 1e-12);
}

static void test_render(void **state)
{
	const double x[] = { 0, 1, 2, 3, 4, 5 };
	const double y1[] = { 1, 1, NAN, 1, NAN, 1 };
	const double y2[] = { 16, 15, 17, 16, 16, 14 };
	const struct svg_series s[] = {
		{ "baseline <1>", "#1f77b4", false, 6, x, y1 },
		{ "patched & co", "red\"onload=\"x", true, 6, x, y2 },
	};
	const struct svg_panel p = { "Pages per I/O", "time (s)",
				     "pages per write I/O", s, 2 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	svg_render(f, "run <A>", &p, 1);
	fclose(f);
	assert_non_null(strstr(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	assert_non_null(strstr(buf, "</svg>\n"));
	/* labels escaped, a bad colour never reaches an attribute */
	assert_non_null(strstr(buf, "baseline &lt;1&gt;"));
	assert_non_null(strstr(buf, "patched &amp; co"));
	assert_non_null(strstr(buf, "run &lt;A&gt;"));
	assert_null(strstr(buf, "onload"));
	/* axis labels and a legend entry per series */
	assert_non_null(strstr(buf, ">time (s)</text>"));
	assert_non_null(strstr(buf, ">pages per write I/O</text>"));
	assert_int_equal(count(buf, "<g class=\"legend\">"), 1);
	/* baseline split at the gaps: [0, 1], lone [3] and [5] (dots) */
	assert_int_equal(count(buf, "<polyline"), 4);
	assert_int_equal(count(buf, "<circle"), 2);
	assert_int_equal(count(buf, "stroke-dasharray"), 2);
	/* y axis: 17 * 1.05 in steps of 5 up to 20 */
	assert_non_null(strstr(buf, ">20</text>"));
	assert_null(strstr(buf, ">25</text>"));
	free(buf);
}

static void test_write_file(void **state)
{
	const double x[] = { 0, 1 }, y[] = { 1, 2 };
	const struct svg_series s = { "a", "#000000", false, 2, x, y };
	const struct svg_panel p = { "t", "x", "y", &s, 1 };
	char path[] = "/tmp/test_svg.XXXXXX", file[64], err[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof(file), "%s/plot.svg", path);
	assert_int_equal(svg_write_file(file, "t", &p, 1, err, sizeof(err)),
			 0);
	f = fopen(file, "r");
	assert_non_null(f);
	fclose(f);
	unlink(file);
	assert_int_equal(rmdir(path), 0);	/* no temp file left */
	assert_int_equal(svg_write_file("/nonexistent/dir/p.svg", "t", &p, 1,
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/dir/p.svg"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_write_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
