// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the build progress computation (src/core/progress.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

static void test_parse_line(void **state)
{
	char obj[128];

	(void)state;
	assert_true(progress_parse_line("  CC      mm/page_io.o", obj,
					sizeof(obj)));
	assert_string_equal(obj, "mm/page_io.o");
	assert_true(progress_parse_line("  AS      arch/x86/entry/entry_64.o",
					obj, sizeof(obj)));
	assert_string_equal(obj, "arch/x86/entry/entry_64.o");
	assert_true(progress_parse_line("  HOSTCC  scripts/kconfig/conf.o",
					NULL, 0));
	assert_true(progress_parse_line("  LD      vmlinux.o", NULL, 0));
	assert_true(progress_parse_line("  CC [M]  fs/nfs/inode.o", obj,
					sizeof(obj)));
	assert_string_equal(obj, "fs/nfs/inode.o");
	/* truncation keeps a terminated string */
	assert_true(progress_parse_line("  CC      mm/page_io.o", obj, 4));
	assert_string_equal(obj, "mm/");

	/* not objects, or not Kbuild lines at all */
	assert_false(progress_parse_line("  AR      mm/built-in.a", obj,
					 sizeof(obj)));
	assert_false(progress_parse_line("  GEN     Makefile", NULL, 0));
	assert_false(progress_parse_line("  SYNC    include/config/auto.conf.cmd",
					 NULL, 0));
	assert_false(progress_parse_line("mm/page_io.c:12:3: warning: x.o",
					 NULL, 0));
	assert_false(progress_parse_line("make[1]: Entering directory 'x.o'",
					 NULL, 0));
	assert_false(progress_parse_line("   12 |  int x.o", NULL, 0));
	assert_false(progress_parse_line("  CC      ", NULL, 0));
	assert_false(progress_parse_line("  CC      a.o b.o", NULL, 0));
	assert_false(progress_parse_line("  cc      a.o", NULL, 0));
	assert_false(progress_parse_line(" CC      a.o", NULL, 0));
	assert_false(progress_parse_line("", NULL, 0));
	assert_false(progress_parse_line("  CC      .o", NULL, 0));
}

static void feed_objects(struct progress *p, int n, double now)
{
	int i;

	for (i = 0; i < n; i++)
		progress_feed(p, "  CC      kernel/fork.o", now);
}

static void test_eta(void **state)
{
	struct progress p;
	char buf[256];

	(void)state;
	progress_init(&p, NULL, false, "x", 1000, 100.0);
	assert_int_equal(progress_percent(&p), 0);
	assert_true(progress_eta(&p, 100.0) < 0);	/* nothing done */
	feed_objects(&p, 2, 101.0);
	assert_true(progress_eta(&p, 110.0) < 0);	/* too few */
	feed_objects(&p, 98, 110.0);
	progress_feed(&p, "  AR      kernel/built-in.a", 110.0);
	assert_int_equal(p.done, 100);
	assert_int_equal(progress_percent(&p), 10);
	/* 100 objects in 10 s, 900 left: 90 s */
	assert_true(progress_eta(&p, 110.0) > 89.99);
	assert_true(progress_eta(&p, 110.0) < 90.01);
	/* slower later: 100 in 20 s, 900 left: 180 s */
	assert_true(progress_eta(&p, 120.0) > 179.99);
	assert_true(progress_eta(&p, 120.0) < 180.01);
	progress_format(&p, 110.0, buf, sizeof(buf));
	assert_string_equal(buf,
			    "100/1000 objects (10%), 0:10 elapsed, ETA 1:30");
	assert_string_equal(p.current, "kernel/fork.o");

	/* finished: no ETA, 100% */
	feed_objects(&p, 900, 150.0);
	assert_int_equal(progress_percent(&p), 100);
	assert_true(progress_eta(&p, 150.0) < 0);

	/* the estimate was too low: the total becomes unknown */
	feed_objects(&p, 1, 151.0);
	assert_int_equal(p.total, 0);
	assert_int_equal(progress_percent(&p), -1);
	assert_true(progress_eta(&p, 151.0) < 0);
	progress_format(&p, 161.0, buf, sizeof(buf));
	assert_string_equal(buf, "1001 objects, 1:01 elapsed");
}

static void test_unknown_total(void **state)
{
	struct progress p;

	(void)state;
	progress_init(&p, NULL, false, "x", 0, 0.0);
	feed_objects(&p, 50, 5.0);
	assert_int_equal(progress_percent(&p), -1);
	assert_true(progress_eta(&p, 5.0) < 0);
}

static void test_duration(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(progress_duration(0, b, sizeof(b)), "0:00");
	assert_string_equal(progress_duration(59.6, b, sizeof(b)), "1:00");
	assert_string_equal(progress_duration(61, b, sizeof(b)), "1:01");
	assert_string_equal(progress_duration(3599, b, sizeof(b)), "59:59");
	assert_string_equal(progress_duration(3725, b, sizeof(b)), "1:02:05");
	assert_string_equal(progress_duration(-1, b, sizeof(b)), "?");
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Plain mode prints one line per interval, never more. */
static void test_plain_output(void **state)
{
	struct progress p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int t;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	progress_init(&p, f, false, "baseline", 1000, 0.0);
	for (t = 1; t <= 25; t++)
		feed_objects(&p, 10, (double)t);
	fflush(f);
	assert_int_equal(count_lines(buf), 2);	/* at 10 s and at 20 s */
	assert_non_null(strstr(buf,
			       "swapctl build: baseline: 91/1000 objects (9%), 0:10 elapsed, ETA 1:40\n"));
	progress_clear(&p);		/* no-op off a terminal */
	fclose(f);
	assert_null(strchr(buf, '\r'));
	free(buf);
}

/* Terminal mode rewrites one line and clears it at the end. */
static void test_tty_output(void **state)
{
	struct progress p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	progress_init(&p, f, true, "v", 100, 0.0);
	feed_objects(&p, 1, 0.1);	/* too soon: nothing shown */
	fflush(f);
	assert_int_equal(len, 0);
	feed_objects(&p, 1, 1.0);
	fflush(f);
	assert_true(len > 0);
	assert_int_equal(buf[0], '\r');
	assert_null(strchr(buf, '\n'));
	progress_clear(&p);
	fclose(f);
	assert_non_null(strstr(buf, "\r\033[K"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_eta),
		cmocka_unit_test(test_unknown_total),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_plain_output),
		cmocka_unit_test(test_tty_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
