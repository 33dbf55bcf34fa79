// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/model/track.c: one guest's track, its intervals' rates
 * and ratios, resets, missing counters.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "feed.h"

#include "metrics.h"
#include "track.h"

FEED_TRACK_FIXTURE()

#define feed(...) feed_line(&st, &tr, __VA_ARGS__)


/* A sample at @t_ms with the given counters (nrswp < 0: absent). */
static void sample(unsigned int t_ms, long po, long nro, long pi, long nri,
		   long wr_ios, long wr_sect)
{
	char nr[128] = "";

	if (nro >= 0)
		snprintf(nr, sizeof(nr), ",\"nrswpout\":%ld,\"nrswpin\":%ld",
			 nro, nri);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":%ld,\"pswpin\":%ld,\"pgmajfault\":%ld%s},"
	     "\"blk\":{\"vda\":{\"rd_ios\":0,\"rd_sectors\":0,\"wr_ios\":%ld,"
	     "\"wr_sectors\":%ld}},\"swaps\":[{\"name\":\"/dev/vda\","
	     "\"used_kb\":%ld,\"size_kb\":1000000}]}",
	     seq++, t_ms * 1000000ULL, po, pi, nri < 0 ? 0 : nri, nr, wr_ios, wr_sect,
	     po * 4);
}

/* Start @tr afresh with two samples of an older guest: no cpu, psi, mem. */
static void old_guest_track(void)
{
	track_free(&tr);
	track_init(&tr);
	stream_init(&st);
	seq = 0;
	sample(0, 0, 0, 0, 0, 0, 0);
	sample(1000, 10, 1, 0, 0, 0, 0);
}

static void test_window_and_total(void **state)
{
	struct track_interval iv;
	unsigned int i;

	(void)state;
	for (i = 0; i <= 20; i++)	/* 160 pages in 10 I/Os per 100 ms */
		sample(100 * i, 160 * i, 10 * i, 8 * i, 1 * i, 5 * i,
		       1280 * i);
	track_window(&tr, 1000000000, &iv);
	assert_true(fabs(iv.dt_s - 1.0) < 1e-9);
	assert_true(fabs(iv.pswpout_s.v - 1600) < 1e-6);
	assert_true(fabs(iv.nrswpout_s.v - 100) < 1e-6);
	assert_true(fabs(iv.wr_ppio.v - 16) < 1e-9);
	assert_true(fabs(iv.rd_ppio.v - 8) < 1e-9);
	assert_true(fabs(iv.dev_wr_ppio.v - 32) < 1e-9);
	assert_int_equal(iv.host_req_s.state, STATS_MISSING);
	track_total(&tr, &iv);
	assert_true(fabs(iv.pswpout.v - 3200) < 1e-9);
	assert_true(fabs(iv.nrswpout.v - 200) < 1e-9);
	assert_true(fabs(iv.wr_ppio.v - 16) < 1e-9);
	assert_int_equal(iv.swap_peak_kb, 3200 * 4);
	/* no swap activity: zero divisor, n/a, not a number */
	sample(2100, 3200, 200, 160, 20, 100, 25600);
	sample(2200, 3200, 200, 160, 20, 100, 25600);
	track_window(&tr, 100000000, &iv);
	assert_int_equal(iv.wr_ppio.state, STATS_NA);
	assert_int_equal(iv.rd_ppio.state, STATS_NA);
	assert_int_equal(iv.dev_wr_ppio.state, STATS_NA);
	assert_true(iv.pswpout_s.state == STATS_OK && iv.pswpout_s.v == 0);
}

static void test_counter_reset(void **state)
{
	struct track_interval iv;

	(void)state;
	sample(0, 1000, 100, 0, 0, 0, 0);
	sample(100, 2000, 200, 0, 0, 0, 0);
	/* counters restart (e.g. the agent restarted): 2000 -> 300 */
	sample(200, 300, 30, 0, 0, 0, 0);
	sample(300, 1300, 130, 0, 0, 0, 0);
	assert_int_equal(tr.resets, 1);
	assert_int_equal(st.resets, 1);
	track_total(&tr, &iv);
	/* 2000 before the reset, 300 + 1000 after */
	assert_true(fabs(iv.pswpout.v - 3300) < 1e-9);
	assert_true(fabs(iv.nrswpout.v - 330) < 1e-9);
	track_window(&tr, 200000000, &iv);
	assert_true(fabs(iv.pswpout.v - 1300) < 1e-9);
	assert_true(fabs(iv.wr_ppio.v - 10) < 1e-9);
}

static void test_missing_nrswp(void **state)
{
	struct track_interval iv;
	char buf[32];
	unsigned int i;

	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"hello\",\"kernel\":\"6.1\","
	     "\"counters\":[\"pswpin\",\"pswpout\"],\"interval_ms\":100}", seq++);
	assert_false(tr.hello_nrswp);
	for (i = 0; i <= 10; i++)
		sample(100 * i, 100 * i, -1, 0, -1, 50 * i, 800 * i);
	track_window(&tr, 500000000, &iv);
	assert_int_equal(iv.nrswpout_s.state, STATS_MISSING);
	assert_int_equal(iv.wr_ppio.state, STATS_MISSING);
	assert_int_equal(iv.rd_ppio.state, STATS_MISSING);
	assert_string_equal(stats_fmt(buf, sizeof(buf), iv.wr_ppio, 1),
			    "missing");
	/* the blk stats still give pages per device write */
	assert_true(fabs(iv.dev_wr_ppio.v - 2) < 1e-9);
	assert_true(fabs(iv.pswpout_s.v - 1000) < 1e-6);
	assert_true(tr.hist_from_dev);
	assert_int_equal(tr.hist[1], 500);	/* 2 pages per I/O */
}

static void test_host_and_hist(void **state)
{
	struct track_interval iv;
	uint64_t total = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i <= 10; i++) {
		/* 1 page/IO for 5 intervals, then 16 */
		long po = i <= 5 ? 10 * i : 50 + 160 * (i - 5);
		long nr = 10 * i;

		sample(100 * i, po, nr, 0, 0, 0, 0);
		feed("{\"type\":\"host\",\"t_ns\":%lu,\"blk\":{\"vda\":{"
		     "\"rd_req\":0,\"wr_req\":%u,\"rd_bytes\":0,"
		     "\"wr_bytes\":0}}}", 5000000000u + i * 100000000u,
		     7 * i);
	}
	track_window(&tr, 1000000000, &iv);
	assert_true(fabs(iv.host_req_s.v - 70) < 1e-6);
	for (i = 0; i < TRACK_HIST_BUCKETS; i++)
		total += tr.hist[i];
	assert_int_equal(total, 100);
	assert_int_equal(tr.hist[0], 50);	/* 1 page */
	assert_int_equal(tr.hist[4], 50);	/* 9-16 pages */
	assert_false(tr.hist_from_dev);
	assert_int_equal(track_hist_lo(4), 9);
	assert_int_equal(track_hist_lo(7), 65);
}

static void test_series_phase(void **state)
{
	struct stats_val v[8];
	const struct track_phase *p;
	unsigned int i;

	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":0,\"type\":\"phase\",\"name\":"
	     "\"pageout\",\"state\":\"start\"}", seq++);
	for (i = 0; i <= 10; i++)
		sample(100 * i, i <= 5 ? 10 * i : 50 + 160 * (i - 5), 10 * i,
		       0, 0, 0, 0);
	assert_int_equal(track_series(&tr, TRACK_M_WR_PPIO, 0,
					    500000000, 4, v), 2);
	assert_true(fabs(v[0].v - 1) < 1e-9);
	assert_true(fabs(v[1].v - 16) < 1e-9);
	assert_int_equal(v[2].state, STATS_NA);
	assert_int_equal(track_span_ns(&tr), 1000000000);
	p = track_phase_now(&tr);
	assert_non_null(p);
	assert_string_equal(p->name, "pageout");
	assert_false(p->ended);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":1000000001,\"type\":\"phase\","
	     "\"name\":\"pageout\",\"state\":\"end\"}", seq++);
	assert_true(track_phase_now(&tr)->ended);
}

/* Fault events: kept in order, the newest TRACK_MAX_FAULTS, last_log. */
static void test_faults(void **state)
{
	unsigned int i;

	(void)state;
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":5,\"type\":\"fault\",\"name\":"
	     "\"io_error\",\"state\":\"start\",\"index\":0,\"detail\":\"dm-dust\"}",
	     seq++);
	feed("{\"type\":\"fault\",\"t_ns\":7,\"name\":\"nfs_stall\","
	     "\"state\":\"end\"}");
	assert_int_equal(tr.nfaults, 2);
	assert_string_equal(tr.faults[0].name, "io_error");
	assert_false(tr.faults[0].end);
	assert_false(tr.faults[0].host);
	assert_string_equal(tr.faults[0].detail, "dm-dust");
	assert_true(tr.faults[1].end);
	assert_true(tr.faults[1].host);
	assert_string_equal(tr.last_log, "fault nfs_stall end");
	for (i = 0; i < TRACK_MAX_FAULTS + 3; i++)
		feed("{\"v\":1,\"seq\":%u,\"t_ns\":9,\"type\":\"fault\","
		     "\"name\":\"oom\",\"state\":\"start\",\"detail\":\"n%u\"}",
		     seq++, i);
	assert_int_equal(tr.nfaults, TRACK_MAX_FAULTS);
	assert_int_equal(tr.nfaults_seen, TRACK_MAX_FAULTS + 5);
	assert_string_equal(tr.faults[TRACK_MAX_FAULTS - 1].detail, "n18");
	assert_string_equal(tr.last_log, "fault oom start: n18");
}

/*
 * A sample with guest CPU (ms of user, system, iowait, softirq, idle) and
 * PSI (us); pswpout/pswpin in pages.
 */
static void cpu_sample(unsigned int t_ms, long po, long pi, long user,
		       long sys, long iow, long sirq, long idle, long some,
		       long full)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"sample\","
	     "\"vmstat\":{\"pswpout\":%ld,\"pswpin\":%ld},\"cpu_ns\":{"
	     "\"user\":%lld,\"nice\":0,\"system\":%lld,"
	     "\"idle\":%lld,\"iowait\":%lld,\"irq\":0,"
	     "\"softirq\":%lld,\"steal\":0},"
	     "\"psi\":{\"some_us\":%ld,\"full_us\":%ld}}",
	     seq++, t_ms * 1000000ULL, po, pi, user * 1000000LL,
	     sys * 1000000LL, idle * 1000000LL, iow * 1000000LL,
	     sirq * 1000000LL, some, full);
}

static void test_cpu_psi_host_cpu(void **state)
{
	struct track_interval iv;

	(void)state;
	cpu_sample(0, 0, 0, 100, 100, 0, 0, 800, 0, 0);
	feed("{\"type\":\"host\",\"t_ns\":5000000000,\"cpu_ns\":"
	     "{\"total\":1000000000}}");
	/* 1 s later: 2 s of CPU time (2 CPUs), 1 MiB swapped out + 1 in */
	cpu_sample(1000, 256, 256, 300, 500, 200, 100, 1700, 250000, 50000);
	feed("{\"type\":\"host\",\"t_ns\":6000000000,\"cpu_ns\":"
	     "{\"total\":1800000000}}");
	track_window(&tr, 10000000000ULL, &iv);
	assert_int_equal(iv.cpu_sys.state, STATS_OK);
	assert_float_equal(iv.cpu_user.v, 0.2, 1e-9);
	assert_float_equal(iv.cpu_sys.v, 0.4, 1e-9);
	assert_float_equal(iv.cpu_iowait.v, 0.2, 1e-9);
	assert_float_equal(iv.cpu_softirq.v, 0.1, 1e-9);
	/* all: 0.2 + 0.4 + 0.2 + 0.1 + 0.9 idle = 1.8 s */
	assert_float_equal(iv.cpu_sys_pct.v, 0.4 / 1.8, 1e-9);
	assert_float_equal(iv.cpu_iowait_pct.v, 0.2 / 1.8, 1e-9);
	assert_float_equal(iv.cpu_softirq_pct.v, 0.1 / 1.8, 1e-9);
	assert_float_equal(iv.cpu_busy.v, 0.7, 1e-9);
	/* 400 ms of system time for 2 MiB */
	assert_float_equal(iv.sys_ms_per_mib.v, 200, 1e-9);
	assert_float_equal(iv.psi_some.v, 0.25, 1e-9);
	assert_float_equal(iv.psi_some_pct.v, 0.25, 1e-9);
	assert_float_equal(iv.psi_full.v, 0.05, 1e-9);
	assert_float_equal(iv.host_cpu.v, 0.8, 1e-9);
	assert_float_equal(iv.host_cpu_pct.v, 0.8, 1e-9);
	/* a cpu-only host line has no requests */
	assert_int_equal(iv.host_req.state, STATS_MISSING);
	assert_float_equal(track_metric(&iv, TRACK_M_PSI_SOME_PCT).v, 0.25,
			   1e-9);

	/* PSI going back (a counter reset) counts from 0 again */
	cpu_sample(2000, 256, 256, 300, 500, 200, 100, 2700, 1000, 50000);
	track_total(&tr, &iv);
	assert_float_equal(iv.psi_some.v, 0.251, 1e-9);
	assert_float_equal(iv.host_cpu.v, 1.8, 1e-9);
	assert_int_equal(tr.resets, 1);
	/* nothing swapped in the last second: n/a, not a division by 0 */
	track_window(&tr, 1000000000ULL, &iv);
	assert_int_equal(iv.sys_ms_per_mib.state, STATS_NA);

	/* samples without cpu/psi: missing, not 0 */
	old_guest_track();
	track_total(&tr, &iv);
	assert_int_equal(iv.cpu_sys.state, STATS_MISSING);
	assert_int_equal(iv.cpu_sys_pct.state, STATS_MISSING);
	assert_int_equal(iv.sys_ms_per_mib.state, STATS_MISSING);
	assert_int_equal(iv.psi_some.state, STATS_MISSING);
	assert_int_equal(iv.host_cpu.state, STATS_MISSING);
}

/* A sample at @t_ms with only the "mem" gauges (KiB). */
static void mem_sample(unsigned int t_ms, long free, long min, long wb)
{
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"sample\","
	     "\"vmstat\":{},\"mem\":{\"free_kb\":%ld,\"min_kb\":%ld,"
	     "\"writeback_kb\":%ld}}", seq++, t_ms * 1000000ULL, free, min,
	     wb);
}

/* Gauges are not counters: a fall is not a reset, the total is min/max. */
static void test_mem_gauges(void **state)
{
	struct track_interval iv;

	(void)state;
	mem_sample(0, 9000, 6000, 0);
	mem_sample(100, 5000, 6000, 400);	/* below min for 100 ms */
	mem_sample(300, 3520, 6084, 360);	/* and 200 ms more */
	mem_sample(400, 7000, 6000, 1200);
	mem_sample(500, 6000, 6000, 0);		/* at min: not below */
	track_total(&tr, &iv);
	assert_int_equal(tr.resets, 0);
	assert_int_equal(iv.free_low_kb.state, STATS_OK);
	assert_float_equal(iv.free_low_kb.v, 3520, 1e-9);
	assert_float_equal(iv.writeback_peak_kb.v, 1200, 1e-9);
	assert_float_equal(iv.below_min_s.v, 0.3, 1e-9);
	assert_float_equal(metric_eval(metric_find("free_low_kib"),
			   &(struct metric_in){ .t = &tr, .total = iv }).v,
			   3520, 1e-9);
	assert_float_equal(metric_eval(metric_find("below_min_s"),
			   &(struct metric_in){ .t = &tr, .total = iv }).v,
			   0.3, 1e-9);
	assert_float_equal(metric_eval(metric_find("writeback_peak_kib"),
			   &(struct metric_in){ .t = &tr, .total = iv }).v,
			   1200, 1e-9);
	/* a window: its last sample */
	track_window(&tr, 150000000ULL, &iv);
	assert_float_equal(iv.free_low_kb.v, 6000, 1e-9);
	assert_float_equal(iv.below_min_s.v, 0, 1e-9);

	/* samples without "mem" (older guests): missing, not 0 */
	old_guest_track();
	track_total(&tr, &iv);
	assert_int_equal(iv.free_low_kb.state, STATS_MISSING);
	assert_int_equal(iv.writeback_peak_kb.state, STATS_MISSING);
	assert_int_equal(iv.below_min_s.state, STATS_MISSING);
}

static void test_phase_model(void **state)
{
	struct track_interval iv;
	const struct track_phase *p;

	(void)state;
	cpu_sample(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":50000000,\"type\":\"phase\","
	     "\"name\":\"pageout\",\"state\":\"start\",\"index\":1}", seq++);
	cpu_sample(100, 500, 0, 10, 50, 0, 0, 140, 1000, 0);
	cpu_sample(200, 1000, 0, 20, 100, 0, 0, 280, 3000, 0);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":250000000,\"type\":\"phase\","
	     "\"name\":\"pageout\",\"state\":\"end\",\"index\":1,"
	     "\"pages\":2000,\"ns\":200000000,\"corrupt\":0,\"asked\":2000,"
	     "\"resident_before\":2000,\"resident\":1000,\"evicted\":1000}",
	     seq++);
	cpu_sample(300, 1000, 0, 30, 100, 0, 0, 470, 3000, 0);
	cpu_sample(400, 1000, 100, 40, 100, 0, 0, 660, 3500, 0);
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":410000000,\"type\":\"phase\","
	     "\"name\":\"read\",\"state\":\"start\",\"index\":2}", seq++);

	assert_int_equal(tr.nphases, 2);
	p = &tr.phases[0];
	assert_true(p->ended);
	assert_true(p->has_stats);
	assert_int_equal(p->ns, 200000000);
	assert_int_equal(p->pages, 2000);
	assert_true(p->has_residency);
	assert_int_equal(p->evicted, 1000);
	assert_float_equal(track_phase_evicted_ratio(p).v, 0.5, 1e-9);
	/* the samples around it: 0 ms .. 300 ms */
	track_phase_interval(&tr, 0, &iv);
	assert_float_equal(iv.dt_s, 0.3, 1e-9);
	assert_float_equal(iv.pswpout.v, 1000, 1e-9);
	assert_float_equal(iv.cpu_sys.v, 0.1, 1e-9);
	assert_float_equal(iv.psi_some.v, 0.003, 1e-9);
	/* still running: up to the last sample, which is before it */
	p = &tr.phases[1];
	assert_false(p->ended);
	assert_int_equal(track_phase_evicted_ratio(p).state, STATS_MISSING);
	track_phase_interval(&tr, 1, &iv);
	assert_int_equal(iv.pswpout.state, STATS_NA);
	track_phase_interval(&tr, 7, &iv);
	assert_int_equal(iv.pswpout.state, STATS_NA);
	cpu_sample(500, 1000, 300, 50, 100, 0, 0, 850, 3500, 0);
	track_phase_interval(&tr, 1, &iv);
	assert_float_equal(iv.pswpin.v, 200, 1e-9);
	/* asked for nothing: n/a */
	feed("{\"v\":1,\"seq\":%u,\"t_ns\":510000000,\"type\":\"phase\","
	     "\"name\":\"read\",\"state\":\"end\",\"index\":2,"
	     "\"pages\":0,\"ns\":1,\"corrupt\":0,\"asked\":0,"
	     "\"resident_before\":0,\"resident\":0,\"evicted\":0}", seq++);
	assert_int_equal(track_phase_evicted_ratio(&tr.phases[1]).state,
			 STATS_NA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_window_and_total, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_counter_reset, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_nrswp, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_and_hist, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_series_phase, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mem_gauges, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cpu_psi_host_cpu, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_phase_model, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
