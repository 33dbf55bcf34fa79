// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the registry entries for what reviewers ask beyond pages
 * per I/O: guest CPU by class, system CPU per MiB, PSI, host CPU, the
 * residency check of push-out phases, the workload's time per phase and
 * its swap-in latency.
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

FEED_TRACK_FIXTURE()

#define feed(...) feed_line(&st, &tr, __VA_ARGS__)

/* CPU times in ms, PSI in us */
static void sample(unsigned int t_ms, long po, long pi, long sys, long sirq,
		   long some)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":%ld,\"pswpin\":%ld},\"cpu_ns\":{"
	     "\"user\":%lld,\"nice\":0,\"system\":%lld,\"idle\":0,"
	     "\"iowait\":0,\"irq\":0,\"softirq\":%lld,\"steal\":0},"
	     "\"psi\":{\"some_us\":%ld,\"full_us\":%ld}}",
	     seq++, t_ms * 1000000ULL, po, pi, t_ms * 100000LL,
	     sys * 1000000LL, sirq * 1000000LL, some, some / 2);
}

static void phase(const char *name, int idx, bool end, unsigned int t_ms,
		  long ns, long asked, long before, long after)
{
	char res[160] = "";

	if (asked >= 0)
		snprintf(res, sizeof(res), ",\"asked\":%ld,\"resident_before\":"
			 "%ld,\"resident\":%ld,\"evicted\":%ld", asked, before,
			 after, before - after);
	if (!end) {
		feed("{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"phase\","
		     "\"name\":\"%s\",\"state\":\"start\",\"index\":%d}", seq++,
		     t_ms * 1000000ULL, name, idx);
		return;
	}
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"phase\","
	     "\"name\":\"%s\",\"state\":\"end\",\"index\":%d,\"pages\":1000,"
	     "\"ns\":%ld,\"corrupt\":0%s}", seq++, t_ms * 1000000ULL, name,
	     idx, ns, res);
}

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

static void test_cpu_psi_host(void **state)
{
	(void)state;
	sample(0, 0, 0, 0, 0, 0);
	feed("{\"type\":\"host\",\"t_ns\":900,\"cpu_ns\":{\"total\":500000000}}");
	sample(1000, 512, 256, 300, 20, 250000);
	feed("{\"type\":\"host\",\"t_ns\":1000,\"cpu_ns\":{\"total\":2000000000}}");
	/* since boot: the last sample's totals */
	assert_float_equal(val("cpu_system_seconds", STATS_OK), 0.3, 1e-9);
	assert_float_equal(val("cpu_softirq_seconds", STATS_OK), 0.02, 1e-9);
	assert_float_equal(val("cpu_user_seconds", STATS_OK), 0.1, 1e-9);
	assert_float_equal(val("cpu_iowait_seconds", STATS_OK), 0, 1e-9);
	/* 300 ms for 3 MiB out and in */
	assert_float_equal(val("system_ms_per_mib", STATS_OK), 100, 1e-9);
	assert_float_equal(val("psi_memory_some_seconds", STATS_OK), 0.25,
			   1e-9);
	assert_float_equal(val("psi_memory_full_seconds", STATS_OK), 0.125,
			   1e-9);
	assert_float_equal(val("host_cpu_seconds", STATS_OK), 2.0, 1e-9);
	/* a host line with only the CPU time has no disk requests */
	val("host_write_requests", STATS_MISSING);
}

static void test_older_guest_is_missing(void **state)
{
	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":1}}", seq++);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":2,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":2}}", seq++);
	phase("pageout", 0, false, 0, 0, -1, 0, 0);
	phase("pageout", 0, true, 0, 5, -1, 0, 0);
	val("cpu_system_seconds", STATS_MISSING);
	val("system_ms_per_mib", STATS_MISSING);
	val("psi_memory_some_seconds", STATS_MISSING);
	val("host_cpu_seconds", STATS_MISSING);
	val("pageout_freed", STATS_MISSING);
	/* no pressure phase at all: nothing to divide */
	val("pressure_freed", STATS_NA);
	val("read_seconds", STATS_NA);
}

static void test_phases(void **state)
{
	(void)state;
	sample(0, 0, 0, 0, 0, 0);
	phase("fill", 0, false, 10, 0, -1, 0, 0);
	phase("fill", 0, true, 20, 10000000, -1, 0, 0);
	phase("pageout", 1, false, 30, 0, -1, 0, 0);
	phase("pageout", 1, true, 40, 2000000000, 1000, 1000, 40);
	phase("read", 2, false, 50, 0, -1, 0, 0);
	phase("read", 2, true, 60, 1500000000, -1, 0, 0);
	phase("pageout", 3, false, 70, 0, -1, 0, 0);
	phase("pageout", 3, true, 80, 500000000, 1000, 1000, 960);
	phase("pressure", 4, false, 90, 0, -1, 0, 0);
	phase("pressure", 4, true, 95, 250000000, 1000, 960, 460);
	phase("read", 5, false, 100, 0, -1, 0, 0);
	phase("read", 5, true, 110, 500000000, -1, 0, 0);
	sample(200, 0, 0, 0, 0, 0);
	/* (960 + 40) evicted of 2000 asked */
	assert_float_equal(val("pageout_freed", STATS_OK), 0.5, 1e-9);
	assert_float_equal(val("pressure_freed", STATS_OK), 0.5, 1e-9);
	assert_float_equal(val("fill_seconds", STATS_OK), 0.01, 1e-9);
	assert_float_equal(val("pageout_seconds", STATS_OK), 2.5, 1e-9);
	assert_float_equal(val("read_seconds", STATS_OK), 2.0, 1e-9);
	assert_float_equal(val("pressure_seconds", STATS_OK), 0.25, 1e-9);
	val("willneed_seconds", STATS_NA);
	val("rewrite_seconds", STATS_NA);
	/* the per-phase figures sum to the workload's time */
	assert_float_equal(val("workload_seconds", STATS_OK), 4.76, 1e-9);
}

static void result(const char *swapin)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":9000000000,\"type\":\"result\","
	     "\"status\":\"pass\",\"pages_written\":100,"
	     "\"pages_verified\":300,\"pages_corrupt\":0,"
	     "\"first_corrupt\":-1%s}", seq++, swapin);
}

/* Swap-in latency: the result line's figures, n/a before it or without
 * a timed swap-in, missing from a guest that does not time them.
 */
static void test_swapin(void **state)
{
	static const char *const keys[] = {
		"swapin_faults", "swapin_p50_us", "swapin_p99_us",
		"swapin_max_us",
	};
	unsigned int i;

	(void)state;
	sample(0, 0, 0, 0, 0, 0);
	for (i = 0; i < 4; i++)
		val(keys[i], STATS_NA);
	result(",\"swapin_faults\":250,\"swapin_p50_us\":17,"
	       "\"swapin_p99_us\":340,\"swapin_max_us\":22000");
	assert_float_equal(val("swapin_faults", STATS_OK), 250, 0);
	assert_float_equal(val("swapin_p50_us", STATS_OK), 17, 0);
	assert_float_equal(val("swapin_p99_us", STATS_OK), 340, 0);
	assert_float_equal(val("swapin_max_us", STATS_OK), 22000, 0);
	/* nothing timed (every page was read ahead): a count, no latency */
	result(",\"swapin_faults\":0,\"swapin_p50_us\":0,"
	       "\"swapin_p99_us\":0,\"swapin_max_us\":0");
	assert_float_equal(val("swapin_faults", STATS_OK), 0, 0);
	val("swapin_p50_us", STATS_NA);
	val("swapin_max_us", STATS_NA);
	/* an older guest */
	result("");
	for (i = 0; i < 4; i++)
		val(keys[i], STATS_MISSING);
	/* the registry's view: lower is better, not judged on one run */
	for (i = 1; i < 4; i++) {
		assert_int_equal(metric_find(keys[i])->dir,
				 METRIC_LOWER_BETTER);
		assert_false(metric_find(keys[i])->deterministic);
	}
	assert_true(metric_find("swapin_max_us")->min_effect >
		    metric_find("swapin_p99_us")->min_effect);
}

/* slab_errors_injected: the end line's count, n/a without one */
static void test_slab_errors_injected(void **state)
{
	(void)state;
	sample(0, 0, 0, 0, 0, 0);
	val("slab_errors_injected", STATS_NA);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":5,\"type\":\"fault\","
	     "\"name\":\"slab_error\",\"state\":\"start\",\"index\":0,"
	     "\"detail\":\"failslab\"}", seq++);
	val("slab_errors_injected", STATS_NA);
	/* another kind's count is not a slab error */
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":6,\"type\":\"fault\","
	     "\"name\":\"io_error\",\"state\":\"end\",\"index\":1,"
	     "\"injected\":7}", seq++);
	val("slab_errors_injected", STATS_NA);
	/* 0 is a value: it was on and failed nothing */
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":7,\"type\":\"fault\","
	     "\"name\":\"slab_error\",\"state\":\"end\",\"index\":0,"
	     "\"injected\":0}", seq++);
	assert_float_equal(val("slab_errors_injected", STATS_OK), 0, 0);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":8,\"type\":\"fault\","
	     "\"name\":\"slab_error\",\"state\":\"end\",\"index\":0,"
	     "\"injected\":16384}", seq++);
	assert_float_equal(val("slab_errors_injected", STATS_OK), 16384, 0);
	assert_true(metric_find("slab_errors_injected")->deterministic);
	assert_int_equal(metric_find("slab_errors_injected")->dir,
			 METRIC_NEUTRAL);
}

/* the deferred batches: missing on a kernel without them, their share */
static void test_deferred(void **state)
{
	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":64,\"nrswpout\":2,\"pswpin\":8,"
	     "\"nrswpin\":4}}", seq++);
	val("nrswpin_deferred", STATS_MISSING);
	val("nrswpout_deferred", STATS_MISSING);
	val("deferred_share", STATS_MISSING);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":2,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":640,\"nrswpout\":20,\"pswpin\":80,"
	     "\"nrswpin\":40,\"nrswpin_deferred\":12,"
	     "\"nrswpout_deferred\":3}}", seq++);
	assert_float_equal(val("nrswpin_deferred", STATS_OK), 12, 0);
	assert_float_equal(val("nrswpout_deferred", STATS_OK), 3, 0);
	/* 15 of 60 I/Os */
	assert_float_equal(val("deferred_share", STATS_OK), 0.25, 1e-12);
	assert_int_equal(metric_find("deferred_share")->dir, METRIC_NEUTRAL);
	assert_false(metric_find("nrswpout_deferred")->live);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cpu_psi_host, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_older_guest_is_missing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_phases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swapin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slab_errors_injected,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_deferred, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
