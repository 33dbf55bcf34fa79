// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the run directory and of the console log scan. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rundir.h"
#include "util.h"

static void scan(const char *text, struct console_scan *cs)
{
	char *copy = strdup(text);

	assert_non_null(copy);
	console_scan_text(copy, cs);
	free(copy);
}

static void test_clean_console(void **state)
{
	struct console_scan cs;

	(void)state;
	/* the command line says panic=-1: that is no panic */
	scan("Command line: console=ttyS0 panic=-1 loglevel=5\n"
	     "swapctl-init: power off\nreboot: Power down\n", &cs);
	assert_int_equal(cs.problems, 0);
	assert_int_equal(cs.oom_kills, 0);
	assert_string_equal(cs.first, "");
	scan("", &cs);
	assert_int_equal(cs.problems, 0);
}

static void test_problems(void **state)
{
	struct console_scan cs;

	(void)state;
	scan("ok\r\n------------[ cut here ]------------\r\n"
	     "WARNING: CPU: 0 PID: 1 at mm/page_io.c:42 swap_write+0x1\r\n"
	     "Call Trace:\r\n <TASK>\r\n", &cs);
	assert_int_equal(cs.problems, 2);
	/* the first line, the \r made a space */
	assert_string_equal(cs.first,
		"WARNING: CPU: 0 PID: 1 at mm/page_io.c:42 swap_write+0x1 ");
	scan("BUG: kernel NULL pointer dereference, address: 0\n", &cs);
	assert_int_equal(cs.problems, 1);
	scan("Oops: 0002 [#1] SMP\n", &cs);
	assert_int_equal(cs.problems, 1);
	scan("Kernel panic - not syncing: Fatal exception\n", &cs);
	assert_int_equal(cs.problems, 1);
	scan("general protection fault, probably for non-canonical address\n",
	     &cs);
	assert_int_equal(cs.problems, 1);
}

static void test_oom_is_not_a_bug(void **state)
{
	static const char oom[] =
		"workload invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0\n"
		"CPU: 1 PID: 48 Comm: workload Not tainted 6.1.192+ #1\n"
		"Call Trace:\n <TASK>\n dump_stack_lvl+0x1\n </TASK>\n"
		"Mem-Info:\n"
		"Out of memory: Killed process 48 (workload) total-vm:328900kB\n";
	struct console_scan cs;
	char both[1024];

	(void)state;
	scan(oom, &cs);
	assert_int_equal(cs.problems, 0);
	assert_int_equal(cs.oom_kills, 1);
	/* a Call Trace after the report is a problem again */
	snprintf(both, sizeof(both), "%sCall Trace:\n", oom);
	scan(both, &cs);
	assert_int_equal(cs.problems, 1);
	assert_string_equal(cs.first, "Call Trace:");
	/* and a BUG inside the report always is */
	snprintf(both, sizeof(both), "x invoked oom-killer: y\nBUG: z\n");
	scan(both, &cs);
	assert_int_equal(cs.problems, 1);
	assert_int_equal(cs.oom_kills, 1);
}

static void test_swap_io_errors(void **state)
{
	static const char text[] =
		"[    5.1] Write-error on swap-device (253:0:8200)\n"
		"[    5.2] Write-error on swap-device (253:0:8208)\n"
		"[    6.0] Read-error on swap-device (253:0:8000)\n"
		"[   11.0] end_swap_bio_read: 7 callbacks suppressed\n"
		"[   11.0] Read-error on swap-device (253:0:8008)\n"
		"[   12.0] end_swap_bio_write: 3 callbacks suppressed\n"
		"[   12.0] swap_fs_read_complete: 2 callbacks suppressed\n"
		/* not ours: another function's suppressed messages */
		"[   13.0] blk_update_request: 5 callbacks suppressed\n"
		"[   13.1] end_swap_bio_read: -4 callbacks suppressed\n"
		"[   13.2] end_swap_bio_read: x callbacks suppressed\n";
	struct console_scan cs;

	(void)state;
	scan(text, &cs);
	assert_int_equal(cs.problems, 0);
	assert_int_equal(cs.swap_write_errors, 2 + 3);
	assert_int_equal(cs.swap_read_errors, 2 + 7 + 2);
	scan("Read-error on swap-device\nBUG: bad\n", &cs);
	assert_int_equal(cs.swap_read_errors, 1);
	assert_int_equal(cs.swap_write_errors, 0);
	assert_int_equal(cs.problems, 1);
}

static void test_missing_file(void **state)
{
	struct console_scan cs = { .problems = 9 };

	(void)state;
	console_scan_file("/nonexistent/console.log", &cs);
	assert_int_equal(cs.problems, 0);
}

static void test_create(void **state)
{
	char wd[] = "/tmp/test_rundir.XXXXXX", id[128], dir[PATH_MAX];
	char id2[128], dir2[PATH_MAX], link[PATH_MAX], path[PATH_MAX];
	char err[512];
	time_t now = 1764754200;	/* any fixed time */
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(wd));
	assert_int_equal(rundir_create(wd, "bdev-swap", now, id, sizeof(id),
				       dir, sizeof(dir), err, sizeof(err)),
			 0);
	assert_int_equal(strlen(id), strlen("YYYYmmdd-HHMMSS-bdev-swap"));
	assert_string_equal(id + 16, "bdev-swap");
	assert_true(util_exists(dir));
	/* the same second: a distinct directory, latest moves to it */
	assert_int_equal(rundir_create(wd, "bdev-swap", now, id2, sizeof(id2),
				       dir2, sizeof(dir2), err, sizeof(err)),
			 0);
	assert_string_not_equal(dir, dir2);
	assert_int_equal(strlen(id2), strlen(id) + 2);
	assert_string_equal(id2 + strlen(id), "-2");
	snprintf(path, sizeof(path), "%s/runs/latest", wd);
	n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, id2);
	/* an id that does not fit */
	assert_int_equal(rundir_create(wd, "x", now, id, 8, dir, sizeof(dir),
				       err, sizeof(err)), -1);
	assert_non_null(strstr(err, "path too long"));
	assert_int_equal(util_rm_rf(wd), 0);
	/* a work directory that cannot be made */
	assert_int_equal(rundir_create("/proc/nope", "x", now, id, sizeof(id),
				       dir, sizeof(dir), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/nope/runs: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_console),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_oom_is_not_a_bug),
		cmocka_unit_test(test_swap_io_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_create),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
