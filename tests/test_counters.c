// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the counters that swap cover letters cite, as registry
 * metrics (issue 35): reclaim (pgscan/pgsteal, refaults, allocstall),
 * THP and per-size mTHP swap-out, zram's mm_stat, the kernel log's
 * allocation failures and hung tasks; a metric of another kernel line is
 * n/a; the stream's "mthp" member and the guest's parsers refuse
 * malformed input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "feed.h"

#include "metrics.h"
#include "results.h"
#include "rundir.h"
#include "guest/gstat.h"

FEED_TRACK_FIXTURE()

#define feed(...) feed_line(&st, &tr, __VA_ARGS__)

static double val(const char *key, enum stats_state want)
{
	const struct metric_def *m = metric_find(key);
	struct metric_in in;
	struct stats_val v;

	if (!m)
		fail_msg("no metric %s", key);
	metric_in_init(&in, &tr);
	v = metric_eval(m, &in);
	if (v.state != want)
		fail_msg("%s: state %d, expected %d", key, v.state, want);
	return v.v;
}

static void hello(const char *kernel)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"hello\","
	     "\"kernel\":\"%s\",\"counters\":[\"pswpout\"],"
	     "\"interval_ms\":100}", seq++, kernel);
}

/* Every metric has a slot in results' per-guest arrays, a short label. */
static void test_registry_fits(void **state)
{
	unsigned int i;

	(void)state;
	assert_true(metric_count <= RES_MAX_METRICS);
	for (i = 0; i < metric_count; i++)
		if (strlen(metric_defs[i].label) > 22)
			fail_msg("%s: label \"%s\" longer than 22",
				 metric_defs[i].key, metric_defs[i].label);
}

static void test_reclaim(void **state)
{
	(void)state;
	hello("6.1.192");
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":2,\"type\":\"sample\",\"vmstat\":{"
	     "\"pswpout\":10,\"pgscan_kswapd\":100,\"pgscan_direct\":5,"
	     "\"pgsteal_kswapd\":90,\"pgsteal_direct\":4,"
	     "\"pgscan_anon\":80,\"pgsteal_anon\":70,"
	     "\"workingset_refault_anon\":7,\"allocstall_normal\":2,"
	     "\"allocstall_movable\":1,\"allocstall_dma32\":3,"
	     "\"thp_swpout\":0,\"thp_swpout_fallback\":6}}", seq++);
	assert_float_equal(val("pgscan_kswapd", STATS_OK), 100, 0);
	assert_float_equal(val("pgscan_direct", STATS_OK), 5, 0);
	assert_float_equal(val("pgsteal_kswapd", STATS_OK), 90, 0);
	assert_float_equal(val("pgsteal_direct", STATS_OK), 4, 0);
	assert_float_equal(val("pgscan_anon", STATS_OK), 80, 0);
	assert_float_equal(val("pgsteal_anon", STATS_OK), 70, 0);
	assert_float_equal(val("workingset_refault_anon", STATS_OK), 7, 0);
	/* 6.1 splits it by zone: the zones summed */
	assert_float_equal(val("allocstall", STATS_OK), 6, 0);
	assert_float_equal(val("thp_swpout_fallback", STATS_OK), 6, 0);
	/* per-size mTHP is 6.12's: n/a on 6.1, not 0 */
	val("mthp_swpout", STATS_NA);
	val("mthp_64kb_swpout", STATS_NA);
	assert_true(metric_on_line(metric_find("mthp_swpout"), "6.12"));
	assert_false(metric_on_line(metric_find("mthp_swpout"), "6.1"));
	assert_true(metric_on_line(metric_find("pswpout"), "6.1"));
}

/* A kernel without a counter: missing, never 0. */
static void test_reclaim_missing(void **state)
{
	(void)state;
	hello("6.12.5");
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":2,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":1}}", seq++);
	val("pgscan_direct", STATS_MISSING);
	val("allocstall", STATS_MISSING);
	val("mthp_swpout", STATS_MISSING);
}

static void test_mthp(void **state)
{
	(void)state;
	hello("6.12.5-swapctl");
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":2,\"type\":\"sample\","
	     "\"vmstat\":{\"thp_swpout\":3},\"mthp\":{"
	     "\"64kB\":{\"swpout\":10,\"swpout_fallback\":1},"
	     "\"16kB\":{\"swpout\":5,\"swpout_fallback\":2},"
	     "\"2048kB\":{\"swpout\":3,\"swpout_fallback\":4}}}", seq++);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":3,\"type\":\"sample\","
	     "\"vmstat\":{\"thp_swpout\":3},\"mthp\":{"
	     "\"64kB\":{\"swpout\":20,\"swpout_fallback\":1},"
	     "\"16kB\":{\"swpout\":5,\"swpout_fallback\":2},"
	     "\"2048kB\":{\"swpout\":3,\"swpout_fallback\":4}}}", seq++);
	/* below the PMD size only: 2048 kB is thp_swpout */
	assert_float_equal(val("mthp_swpout", STATS_OK), 25, 0);
	assert_float_equal(val("mthp_swpout_fallback", STATS_OK), 3, 0);
	assert_float_equal(val("mthp_64kb_swpout", STATS_OK), 20, 0);
	assert_float_equal(val("mthp_64kb_swpout_fallback", STATS_OK), 1, 0);
	assert_float_equal(val("thp_swpout", STATS_OK), 3, 0);
}

static void zram_sample(unsigned int t, long compr, long used,
			const char *huge)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%u,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":%u},\"zram\":{\"zram0\":{"
	     "\"orig_data_size\":1,\"compr_data_size\":%ld,"
	     "\"mem_used_total\":%ld%s}}}", seq++, t, t, compr, used, huge);
}

static void test_zram(void **state)
{
	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":0}}", seq++);
	/* no zram device: n/a */
	val("zram_compr_peak_mib", STATS_NA);
	val("zram_mem_used_peak_mib", STATS_NA);
	val("zram_huge_pages_peak", STATS_NA);
	zram_sample(2, 1048576, 2097152, "");
	/* an mm_stat cut before huge_pages: missing, not 0 */
	val("zram_huge_pages_peak", STATS_MISSING);
	zram_sample(3, 4 * 1048576, 5 * 1048576, ",\"huge_pages\":9");
	zram_sample(4, 1048576, 3 * 1048576, ",\"huge_pages\":2");
	/* the peaks, not the last sample (the reads free zram's slots) */
	assert_float_equal(val("zram_compr_peak_mib", STATS_OK), 4, 1e-12);
	assert_float_equal(val("zram_mem_used_peak_mib", STATS_OK), 5, 1e-12);
	assert_float_equal(val("zram_huge_pages_peak", STATS_OK), 9, 0);
}

static void test_kernel_log(void **state)
{
	char text[] =
		"[ 1.0] workload: page allocation failure: order:0, mode:0x0\n"
		"[ 2.0] INFO: task kworker/0:1:12 blocked for more than 120 seconds.\n"
		"[ 3.0] swapper: page allocation failure: order:2\n"
		"[ 4.0] Write-error on swap-device (254:0:128)\n";
	struct console_scan cs;

	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":0}}", seq++);
	val("kernel_alloc_failures", STATS_NA);
	val("kernel_hung_tasks", STATS_NA);
	console_scan_text(text, &cs);
	assert_int_equal(cs.alloc_failures, 2);
	assert_int_equal(cs.hung_tasks, 1);
	assert_int_equal(cs.swap_write_errors, 1);
	tr.console_scanned = true;
	tr.alloc_failures = cs.alloc_failures;
	tr.hung_tasks = cs.hung_tasks;
	assert_float_equal(val("kernel_alloc_failures", STATS_OK), 2, 0);
	assert_float_equal(val("kernel_hung_tasks", STATS_OK), 1, 0);
}

static void refused(const char *line)
{
	struct stream_line *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	if (stream_parse_line(&st, line, strlen(line), l) == STREAM_OK)
		fail_msg("accepted: %s", line);
	free(l);
}

#define S "{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\"," \
	  "\"vmstat\":{},\"mthp\":"

static void test_stream_mthp_refused(void **state)
{
	(void)state;
	refused(S "[]}");
	refused(S "{\"64\":{\"swpout\":1}}}");
	refused(S "{\"kB\":{\"swpout\":1}}}");
	refused(S "{\"64kBx\":{\"swpout\":1}}}");
	refused(S "{\"-64kB\":{\"swpout\":1}}}");
	refused(S "{\"64kB\":1}}");
	refused(S "{\"64kB\":{\"Swpout\":1}}}");
	refused(S "{\"64kB\":{\"swp out\":1}}}");
	refused(S "{\"64kB\":{\"swpout\":-1}}}");
	refused(S "{\"64kB\":{\"swpout\":1.5}}}");
	refused(S "{\"64kB\":{\"swpout\":\"1\"}}}");
	refused(S "{\"64kB\":{\"swpout\":9007199254740993}}}");
	refused(S "{\"64kB\":{\"swpout_fallback_and_a_very_long_stat_name\":1}}}");
	refused(S "{\"123456789012345kB\":{\"swpout\":1}}}");
	refused("{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\","
		"\"vmstat\":{},\"zram\":{\"zram0\":{\"orig_data_size\":1,"
		"\"compr_data_size\":1,\"mem_used_total\":1,"
		"\"huge_pages\":-3}}}");
}

static void test_guest_parsers(void **state)
{
	char size[16];
	uint64_t v = 77;

	(void)state;
	assert_int_equal(gstat_mthp_size("hugepages-64kB", size, sizeof(size)),
			 0);
	assert_string_equal(size, "64kB");
	assert_int_equal(gstat_mthp_size("hugepages-2048kB", size, 16), 0);
	assert_string_equal(size, "2048kB");
	assert_int_equal(gstat_mthp_size("hugepages-kB", size, 16), -1);
	assert_int_equal(gstat_mthp_size("hugepages-64", size, 16), -1);
	assert_int_equal(gstat_mthp_size("hugepages-64kBx", size, 16), -1);
	assert_int_equal(gstat_mthp_size("hugepages-64MB", size, 16), -1);
	assert_int_equal(gstat_mthp_size("enabled", size, 16), -1);
	assert_int_equal(gstat_mthp_size("hugepages-123456789kB", size, 16),
			 -1);
	assert_int_equal(gstat_mthp_size("hugepages-64kB", size, 4), -1);
	assert_int_equal(gstat_sysfs_u64("12\n", &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(gstat_sysfs_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(gstat_sysfs_u64("", &v), -1);
	assert_int_equal(gstat_sysfs_u64("\n", &v), -1);
	assert_int_equal(gstat_sysfs_u64("-1\n", &v), -1);
	assert_int_equal(gstat_sysfs_u64("12 13\n", &v), -1);
	assert_int_equal(gstat_sysfs_u64("12\n\n", &v), -1);
	assert_int_equal(gstat_sysfs_u64("99999999999999999999\n", &v), -1);
	assert_int_equal(gstat_sysfs_u64("9007199254740993\n", &v), -1);
	assert_int_equal(v, 0);
}

static void command_end(const char *run, long ns, const char *extra)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%u,\"type\":\"command\","
	     "\"group\":\"build\",\"run\":\"%s\",\"state\":\"end\","
	     "\"exit\":0,\"signal\":0,\"ns\":%ld,\"outputs\":0%s}",
	     seq, seq + 10, run, ns, extra);
	seq++;
}

static void test_command(void **state)
{
	(void)state;
	hello("6.1.192");
	val("command_real_seconds", STATS_NA);
	val("command_user_seconds", STATS_NA);
	val("cg_pgscan", STATS_NA);
	/* the reference run (no limits) is left out */
	command_end("reference", 9000000000L, ",\"user_ns\":1,\"sys_ns\":1,"
		    "\"memstat\":{\"pgscan\":1000}");
	val("command_real_seconds", STATS_NA);
	command_end("limited", 12000000000L,
		    ",\"user_ns\":9700000000,\"sys_ns\":6200000000,"
		    "\"memstat\":{\"workingset_refault_anon\":50,"
		    "\"pgscan\":300,\"pgsteal\":200,\"zswpout\":0}");
	assert_float_equal(val("command_real_seconds", STATS_OK), 12, 1e-9);
	assert_float_equal(val("command_user_seconds", STATS_OK), 9.7, 1e-9);
	assert_float_equal(val("command_system_seconds", STATS_OK), 6.2, 1e-9);
	assert_float_equal(val("cg_workingset_refault_anon", STATS_OK), 50, 0);
	assert_float_equal(val("cg_pgscan", STATS_OK), 300, 0);
	assert_float_equal(val("cg_pgsteal", STATS_OK), 200, 0);
	assert_float_equal(val("cg_zswpout", STATS_OK), 0, 0);
	/* a second run without zswpout (a kernel without zswap): missing */
	command_end("limited", 1000000000L,
		    ",\"user_ns\":300000000,\"sys_ns\":0,"
		    "\"memstat\":{\"workingset_refault_anon\":1,"
		    "\"pgscan\":2,\"pgsteal\":3}");
	assert_float_equal(val("command_real_seconds", STATS_OK), 13, 1e-9);
	assert_float_equal(val("command_user_seconds", STATS_OK), 10, 1e-9);
	assert_float_equal(val("cg_pgsteal", STATS_OK), 203, 0);
	val("cg_zswpout", STATS_MISSING);
	/* an older guest's end line: no CPU times */
	command_end("limited", 1000000000L, "");
	val("command_user_seconds", STATS_MISSING);
	val("cg_pgscan", STATS_MISSING);
	assert_float_equal(val("command_real_seconds", STATS_OK), 14, 1e-9);
}

#define C "{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"command\"," \
	  "\"group\":\"b\",\"run\":\"limited\",\"state\":\"end\"," \
	  "\"exit\":0,\"signal\":0,\"ns\":5,\"outputs\":0,"

static void test_command_refused(void **state)
{
	(void)state;
	refused(C "\"user_ns\":-1}");
	refused(C "\"sys_ns\":\"1\"}");
	refused(C "\"memstat\":[]}");
	refused(C "\"memstat\":{\"pgscan\":-4}}");
	refused(C "\"memstat\":{\"pgsteal\":1e3}}");
	refused(C "\"memstat\":{\"zswpout\":9007199254740993}}");
}

/* One kernel's guest whose build took @user_s of user CPU. */
static void add_build(struct results *r, const char *kernel,
		      unsigned int rep, double user_s)
{
	setup(NULL);
	hello("6.1.192");
	command_end("limited", 12000000000L, "");
	tr.cmd_cpu_runs = 1;
	tr.cmd_user_ns = (uint64_t)(user_s * 1e9);
	assert_int_equal(results_add(r, kernel, rep, &tr), 0);
	teardown(NULL);
}

static void test_identity(void **state)
{
	struct results r;
	char buf[512];

	(void)state;
	results_init(&r);
	add_build(&r, "baseline", 1, 9.7);
	add_build(&r, "swap-ops", 1, 9.9);
	add_build(&r, "bhe-ops", 1, 11.0);
	/* 2% is within the 5% noise; 13% is not */
	assert_int_equal(results_identity(&r, buf, sizeof(buf)), 1);
	assert_non_null(strstr(buf, "identity check FAILED"));
	assert_non_null(strstr(buf, "bhe-ops 1.13x baseline"));
	assert_null(strstr(buf, "swap-ops"));
	results_free(&r);
	/* not a command workload: nothing to check */
	results_init(&r);
	setup(NULL);
	hello("6.1.192");
	assert_int_equal(results_add(&r, "baseline", 1, &tr), 0);
	assert_int_equal(results_add(&r, "swap-ops", 1, &tr), 0);
	teardown(NULL);
	assert_int_equal(results_identity(&r, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	results_free(&r);
}

static void test_guest_memstat(void **state)
{
	char buf[512];
	struct gj j;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_memstat_member(&j, "anon 4096\n"
		"workingset_refault_anon 12\npgscan_kswapd 5\npgscan 7\n"
		"pgsteal x\nzswpout 99999999999999999999\n"), 2);
	gj_obj_close(&j);
	assert_true(gj_finish(&j) > 0);
	assert_non_null(strstr(buf, "\"memstat\":{\"workingset_refault_anon\":12,\"pgscan\":7}"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_fits),
		cmocka_unit_test_setup_teardown(test_reclaim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reclaim_missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mthp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zram, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_log, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stream_mthp_refused, setup,
						teardown),
		cmocka_unit_test(test_guest_parsers),
		cmocka_unit_test_setup_teardown(test_command, setup, teardown),
		cmocka_unit_test_setup_teardown(test_command_refused, setup,
						teardown),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_guest_memstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
