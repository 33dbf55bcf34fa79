// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of hostrec (src/run/hostrec.c): the host's KSM, swap,
 * zswap, THP, load and governor read from a fixture root, malformed
 * files left unknown, the one-line warning, host.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "hostrec.h"
#include "util.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256], *slash;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	assert_int_equal(util_mkdir_p(dir, 0755), 0);
	assert_int_equal(util_write_file_atomic(path, text, strlen(text),
						0644), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/swapctl-test-hostrec.XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", root, NULL };

	(void)state;
	util_run(argv, NULL);
	return 0;
}

/* A quiet host: nothing to warn about. */
static void quiet(void)
{
	put("/sys/kernel/mm/ksm/run", "0\n");
	put("/sys/kernel/mm/ksm/pages_sharing", "0\n");
	put("/sys/module/zswap/parameters/enabled", "N\n");
	put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	put("/proc/meminfo", "MemTotal:       16000000 kB\n"
	    "SwapTotal:             0 kB\nSwapFree:              0 kB\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled",
	    "always [madvise] never\n");
	put("/proc/loadavg", "0.50 0.40 0.30 1/200 1234\n");
	put("/sys/devices/system/cpu/online", "0-1\n");
}

static void test_quiet(void **state)
{
	struct hostrec h;
	char buf[512];

	(void)state;
	quiet();
	hostrec_read(&h, root);
	assert_int_equal(h.ksm_run, 0);
	assert_int_equal(h.ksm_pages_sharing, 0);
	assert_int_equal(h.zswap_enabled, 0);
	assert_int_equal(h.swap_areas, 0);
	assert_int_equal(h.swap_total_kb, 0);
	assert_string_equal(h.thp, "madvise");
	assert_float_equal(h.load1, 0.5, 1e-9);
	assert_int_equal(h.ncpus, 2);
	/* no cpufreq on this host (a VM): unknown, no warning */
	assert_string_equal(h.governor, "");
	assert_int_equal(hostrec_warning(&h, &h, 2, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_busy(void **state)
{
	struct hostrec b, a;
	char buf[512];

	(void)state;
	quiet();
	put("/sys/kernel/mm/ksm/run", "1\n");
	put("/sys/kernel/mm/ksm/pages_sharing", "4096\n");
	put("/sys/module/zswap/parameters/enabled", "Y\n");
	put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sda2  partition\t8388604\t\t204800\t\t-2\n");
	put("/proc/meminfo", "SwapTotal:       8388604 kB\n"
	    "SwapFree:        8183804 kB\n");
	put("/proc/loadavg", "6.86 4.40 2.67 12/214 8092\n");
	put("/sys/devices/system/cpu/online", "0-1,4\n");
	put("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	    "powersave\n");
	hostrec_read(&b, root);
	assert_int_equal(b.swap_areas, 1);
	assert_int_equal(b.ncpus, 3);
	assert_int_equal(b.zswap_enabled, 1);
	assert_string_equal(b.governor, "powersave");
	put("/proc/loadavg", "4.00 4.40 2.67 12/214 8092\n");
	hostrec_read(&a, root);
	assert_int_equal(hostrec_warning(&b, &a, 2, buf, sizeof(buf)), 3);
	assert_non_null(strstr(buf, "load average 6.86 before the run above the host's 3 CPUs"));
	/* after: 4.00 is within the 3 CPUs plus the run's own 2 vCPUs */
	assert_null(strstr(buf, "after it"));
	assert_non_null(strstr(buf, "host swap in use (200 MiB, zswap on)"));
	assert_non_null(strstr(buf, "KSM running (pages_sharing 4096)"));
	assert_null(strchr(buf, '\n'));
	a.load1 = 5.5;
	assert_int_equal(hostrec_warning(&b, &a, 2, buf, sizeof(buf)), 4);
	assert_non_null(strstr(buf, "load average 5.50 after it"));
}

/* Malformed or absent files stay unknown, never a figure. */
static void test_malformed(void **state)
{
	struct hostrec h;
	char buf[512];

	(void)state;
	put("/sys/kernel/mm/ksm/run", "1x\n");
	put("/sys/kernel/mm/ksm/pages_sharing", "-5\n");
	put("/sys/module/zswap/parameters/enabled", "maybe\n");
	put("/proc/swaps", "garbage\n");
	put("/proc/meminfo", "SwapTotal: lots\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "[al\x1bways\n");
	put("/proc/loadavg", "nan inf\n");
	put("/sys/devices/system/cpu/online", "3-1\n");
	hostrec_read(&h, root);
	assert_int_equal(h.ksm_run, -1);
	assert_int_equal(h.ksm_pages_sharing, -1);
	assert_int_equal(h.zswap_enabled, -1);
	assert_int_equal(h.swap_areas, -1);
	assert_int_equal(h.swap_total_kb, -1);
	assert_string_equal(h.thp, "");
	assert_true(h.load1 < 0);
	assert_int_equal(h.ncpus, -1);
	assert_int_equal(hostrec_warning(&h, NULL, 0, buf, sizeof(buf)), 0);
	/* a FIFO is refused, not waited for */
	snprintf(buf, sizeof(buf), "%s/proc/loadavg", root);
	unlink(buf);
	assert_int_equal(mkfifo(buf, 0644), 0);
	hostrec_read(&h, root);
	assert_true(h.load1 < 0);
}

static void test_json(void **state)
{
	struct hostrec h;
	char buf[256], dir[128];
	json_t *o;

	(void)state;
	quiet();
	hostrec_read(&h, root);
	o = hostrec_json(&h, NULL, "host KSM running");
	assert_non_null(o);
	assert_true(json_is_null(json_object_get(o, "after")));
	assert_string_equal(json_string_value(json_object_get(o, "warning")),
			    "host KSM running");
	assert_true(json_is_null(json_object_get(json_object_get(o, "before"),
						 "cpufreq_governor")));
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(o, "before"), "thp_enabled")), "madvise");
	json_decref(o);
	/* report's reading: control bytes never reach a terminal */
	snprintf(dir, sizeof(dir), "%s/run", root);
	put("/run/host.json", "{\"warning\":\"KSM \\u001b[31m on\"}");
	assert_int_equal(hostrec_load_warning(dir, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "KSM ?[31m on");
	put("/run/host.json", "{\"warning\":null}");
	assert_int_equal(hostrec_load_warning(dir, buf, sizeof(buf)), 0);
	put("/run/host.json", "not json");
	assert_int_equal(hostrec_load_warning(dir, buf, sizeof(buf)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
