// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the guest's I/O helpers (guest/util.c, guest/netcfg.c):
 * the shared progress record init reads after a timeout, small file
 * reads/writes, netmasks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../guest/gstat.h"
#include "../guest/json.h"
#include "../guest/netcfg.h"
#include "../guest/gutil.h"

static void test_progress_shared(void **state)
{
	char path[] = "/tmp/test_guest_progressXXXXXX";
	struct gu_progress *w, r;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	w = gu_progress_map(path);
	assert_non_null(w);
	assert_int_equal(w->first_corrupt, -1);
	w->pages_written = 76800;
	w->pages_verified = 1000;
	w->pages_corrupt = 3;
	w->corrupt_distinct = 2;
	w->first_corrupt = 17;
	/* Another process reads the file, not the mapping. */
	assert_int_equal(gu_progress_read(path, &r), 0);
	assert_int_equal(r.pages_written, 76800);
	assert_int_equal(r.pages_verified, 1000);
	assert_int_equal(r.pages_corrupt, 3);
	assert_int_equal(r.corrupt_distinct, 2);
	assert_int_equal(r.first_corrupt, 17);
	unlink(path);
	/* No file (the workload never ran): zeroes and -1. */
	assert_int_equal(gu_progress_read(path, &r), -1);
	assert_int_equal(r.pages_corrupt, 0);
	assert_int_equal(r.first_corrupt, -1);
	/* An unwritable place still gives a usable record. */
	w = gu_progress_map("/nonexistent-dir/progress");
	assert_non_null(w);
	w->pages_verified++;
}

static void test_files(void **state)
{
	char path[] = "/tmp/test_guest_fileXXXXXX";
	char buf[8];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(gu_write_file(path, "hello world"), 0);
	/* Truncated to the buffer, always NUL-terminated. */
	assert_int_equal(gu_read_file(path, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "hello w");
	unlink(path);
	assert_true(gu_read_file(path, buf, sizeof(buf)) < 0);
	assert_true(gu_write_file(path, "x") < 0);	/* never creates */
	assert_int_equal(gu_wait_path(path, 40), -2);
}

/* The one reader of /proc/vmstat counters (init's and the faults'). */
static void test_vmstat(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(gstat_vmstat_value("a 1\nab 22\nabc 3\n", "ab", &v),
			 0);
	assert_int_equal(v, 22);
	assert_int_equal(gstat_vmstat_value("ab 22", "ab", &v), 0);
	assert_int_equal(v, 22);
	assert_int_equal(gstat_vmstat_value("abc 3\n", "ab", &v), -1);
	assert_int_equal(gstat_vmstat_value("ab x\n", "ab", &v), -1);
	assert_int_equal(gstat_vmstat_value("ab 2x\n", "ab", &v), -1);
	/* /proc/vmstat of the host running the test */
	assert_true(gu_vmstat("nr_free_pages") > 0);
	assert_int_equal(gu_vmstat("no_such_counter"), 0);
	assert_int_equal(gu_vmstat_read("no_such_counter", &v), -1);
	assert_int_equal(gu_vmstat_read("nr_free_pages", &v), 0);
	assert_true(v > 0);
	assert_true(gu_meminfo_kb("MemTotal") >= gu_meminfo_kb("MemFree"));
	assert_true(gu_meminfo_kb("MemFree") > 0);
	assert_int_equal(gu_meminfo_kb("Mem"), 0);
}

static void extra_members(struct gj *j)
{
	gj_u64(j, "commands", 3);
}

/* What gu_result() writes to stdout, into @buf. */
static void result_line(char *buf, size_t cap)
{
	int fds[2], out = dup(STDOUT_FILENO);
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	dup2(fds[1], STDOUT_FILENO);
	gu_result("pass", "why");
	dup2(out, STDOUT_FILENO);
	close(out);
	close(fds[1]);
	n = read(fds[0], buf, cap - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	close(fds[0]);
}

/* The result line of the workload and of the command runner. */
static void test_result(void **state)
{
	struct gu_progress p = { .pages_written = 7, .pages_corrupt = 1,
				 .first_corrupt = 5, .pages_failed = 2 };
	size_t pages = 9;
	struct gu_result r = { .name = "t", .pages = &pages, .progress = &p };
	char buf[GU_PIPE_LINE + 1];

	(void)state;
	gu_result_setup(&r);
	result_line(buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"type\":\"result\",\"status\":\"pass\","
				    "\"pages\":9,\"pages_written\":7,"));
	assert_non_null(strstr(buf, "\"first_corrupt\":5,\"pages_failed\":2,"));
	assert_non_null(strstr(buf, "\"reason\":\"why\"}\n"));
	r = (struct gu_result){ .name = "t", .members = extra_members };
	result_line(buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"pages\":0,"));
	assert_non_null(strstr(buf, "\"first_corrupt\":-1,\"commands\":3,"
				    "\"reason\":\"why\"}"));
	assert_null(strstr(buf, "pages_failed"));
}

static void test_netmask(void **state)
{
	(void)state;
	assert_int_equal(gnet_mask(24), 0xffffff00u);
	assert_int_equal(gnet_mask(32), 0xffffffffu);
	assert_int_equal(gnet_mask(1), 0x80000000u);
	assert_int_equal(gnet_mask(0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress_shared),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_vmstat),
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_netmask),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
