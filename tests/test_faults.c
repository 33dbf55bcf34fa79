// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/run/faults.c: the host's fault triggers (phase start,
 * time, swap I/Os) and actions (stall, restart), with fake actions, and
 * the fault lines they write.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "faults.h"
#include "scenario.h"
#include "stream.h"

static struct scenario scn;
static char err[1024];
static int paused, resumed, killed, restarted, fail_restart;
static char log_buf[8192];

static int f_pause(void *ctx)
{
	(void)ctx;
	paused++;
	return 0;
}

static int f_resume(void *ctx)
{
	(void)ctx;
	resumed++;
	return 0;
}

static int f_kill(void *ctx)
{
	(void)ctx;
	killed++;
	return 0;
}

static int f_restart(void *ctx, char *e, size_t len)
{
	(void)ctx;
	restarted++;
	if (fail_restart)
		snprintf(e, len, "port busy");
	return fail_restart ? -1 : 0;
}

static const struct faults_ops fake = {
	.pause = f_pause, .resume = f_resume, .kill = f_kill,
	.restart = f_restart,
};

#define NFS_SCN(faults) \
	"{\"name\": \"f\", \"swap\": [{\"type\": \"nfsfile\", \"size_mb\": 64}],\n" \
	" \"workload\": {\"size_mb\": 32, \"phases\": [\"fill\", \"pageout\", \"read\"]},\n" \
	" \"faults\": [" faults "]}"

static void load(const char *text)
{
	paused = resumed = killed = restarted = fail_restart = 0;
	if (scenario_parse(&scn, text, strlen(text), "t.json", err,
			   sizeof(err)))
		fail_msg("%s", err);
}

static void phase_start(struct faults *fs, int idx, double now)
{
	struct stream_line l;

	memset(&l, 0, sizeof(l));
	l.type = STREAM_T_PHASE;
	l.phase_state = STREAM_PHASE_START;
	l.phase_index = idx;
	faults_line(fs, &l, now);
}

static void sample(struct faults *fs, uint64_t in, uint64_t out, double now)
{
	struct stream_line l;

	memset(&l, 0, sizeof(l));
	l.type = STREAM_T_SAMPLE;
	strcpy(l.counters[0].name, "nrswpin");
	l.counters[0].value = in;
	strcpy(l.counters[1].name, "nrswpout");
	l.counters[1].value = out;
	l.ncounters = 2;
	faults_line(fs, &l, now);
}

static void test_stall_on_phase(void **state)
{
	struct faults fs;
	struct stream_state st;
	struct stream_line l;
	FILE *out;
	char *line, *save = NULL;
	int n = 0;

	(void)state;
	load(NFS_SCN("{\"kind\": \"nfs_stall\", \"trigger\": {\"phase\": 1}, \"duration_s\": 10}"));
	out = fmemopen(log_buf, sizeof(log_buf), "w");
	assert_non_null(out);
	faults_init(&fs, &scn, &fake, NULL, out);
	assert_true(faults_any(&fs));
	faults_tick(&fs, 100);
	phase_start(&fs, 0, 100);
	assert_int_equal(paused, 0);
	phase_start(&fs, 1, 101);
	assert_int_equal(paused, 1);
	faults_tick(&fs, 110.5);
	assert_int_equal(resumed, 0);
	faults_tick(&fs, 111);
	assert_int_equal(resumed, 1);
	/* a fault runs once */
	phase_start(&fs, 2, 112);
	faults_tick(&fs, 200);
	faults_finish(&fs, 201);
	assert_int_equal(paused, 1);
	assert_int_equal(resumed, 1);
	assert_int_equal(fs.events, 2);
	assert_int_equal(fs.failures, 0);
	fclose(out);
	/* the lines are host fault lines the stream parser accepts */
	stream_init(&st);
	for (line = strtok_r(log_buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		assert_int_equal(stream_parse_line(&st, line, strlen(line), &l),
				 STREAM_OK);
		assert_int_equal(l.type, STREAM_T_FAULT);
		assert_string_equal(l.phase, "nfs_stall");
		assert_int_equal(l.phase_index, 0);
		assert_int_equal(l.phase_state, n ? STREAM_PHASE_END :
				 STREAM_PHASE_START);
		n++;
	}
	assert_int_equal(n, 2);
}

static void test_restart_after_time_and_finish(void **state)
{
	struct faults fs;

	(void)state;
	load(NFS_SCN("{\"kind\": \"nfs_restart\", \"trigger\": {\"after_s\": 2.5}, \"duration_s\": 5}"));
	faults_init(&fs, &scn, &fake, NULL, NULL);
	/* no clock before the first phase */
	faults_tick(&fs, 1000);
	assert_int_equal(killed, 0);
	phase_start(&fs, 0, 10);
	faults_tick(&fs, 12.4);
	assert_int_equal(killed, 0);
	faults_tick(&fs, 12.5);
	assert_int_equal(killed, 1);
	assert_int_equal(restarted, 0);
	/* the guest went away mid-fault: the server is started again */
	faults_finish(&fs, 13);
	assert_int_equal(restarted, 1);
	faults_finish(&fs, 14);
	assert_int_equal(restarted, 1);
	assert_int_equal(fs.events, 2);
}

static void test_swap_ios_and_failures(void **state)
{
	struct faults fs;

	(void)state;
	load(NFS_SCN("{\"kind\": \"nfs_restart\", \"trigger\": {\"after_swap_ios\": 100}, \"duration_s\": 1},"
		     "{\"kind\": \"nfs_stall\", \"trigger\": {\"after_swap_ios\": 50}, \"duration_s\": 3}"));
	faults_init(&fs, &scn, &fake, NULL, NULL);
	sample(&fs, 500, 500, 1);	/* before the workload: no base yet */
	phase_start(&fs, 0, 2);
	sample(&fs, 500, 500, 3);	/* the base: 1000 */
	sample(&fs, 520, 520, 4);	/* +40 */
	assert_int_equal(paused, 0);
	sample(&fs, 530, 530, 5);	/* +60: the stall */
	assert_int_equal(paused, 1);
	/* +200, but one fault on the server at a time */
	sample(&fs, 600, 600, 6);
	assert_int_equal(killed, 0);
	faults_tick(&fs, 8);
	assert_int_equal(resumed, 1);
	assert_int_equal(killed, 1);
	fail_restart = 1;
	faults_tick(&fs, 9);
	assert_int_equal(restarted, 1);
	assert_int_equal(fs.failures, 1);
	assert_string_equal(fs.last_error, "port busy");
}

/* Guest faults are not the host's business. */
static void test_guest_faults_ignored(void **state)
{
	struct faults fs;
	static const char text[] =
		"{\"name\": \"f\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 64}],\n"
		" \"workload\": {\"size_mb\": 32, \"phases\": [\"fill\", \"pageout\"]},\n"
		" \"faults\": [{\"kind\": \"swapoff\", \"swap\": 0, \"trigger\": {\"phase\": 1}}]}";

	(void)state;
	load(text);
	faults_init(&fs, &scn, &fake, NULL, NULL);
	assert_false(faults_any(&fs));
	phase_start(&fs, 0, 1);
	phase_start(&fs, 1, 2);
	faults_finish(&fs, 3);
	assert_int_equal(paused + killed, 0);
	assert_true(scn_expects_oom(&scn) == false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stall_on_phase),
		cmocka_unit_test(test_restart_after_time_and_finish),
		cmocka_unit_test(test_swap_ios_and_failures),
		cmocka_unit_test(test_guest_faults_ignored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
