// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/screen.c (the view of swapctl top) against fixed
 * streams, and of src/results/source.c replaying tests/fixtures/run-demo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "feed.h"

#include "screen.h"
#include "source.h"

static struct stream_state st[3];
static struct track tr[3];
static struct screen scr;

#define feed(k, ...) feed_line(&st[k], &tr[k], __VA_ARGS__)

/*
 * Guest @k: 21 samples 100 ms apart writing 160 pages per sample in
 * 160 / @batch I/Os; @nrswp false: a kernel without nrswp* counters.
 */
static void guest(int k, unsigned int batch, bool nrswp)
{
	unsigned int i, seq = 0;

	stream_init(&st[k]);
	track_init(&tr[k]);
	feed(k, "{\"v\":1,\"seq\":%u,\"t_ns\":0,\"type\":\"hello\",\"kernel\":"
	     "\"6.1.192\",\"counters\":[\"pswpout\"%s],\"interval_ms\":100}",
	     seq++, nrswp ? ",\"nrswpout\"" : "");
	feed(k, "{\"v\":1,\"seq\":%u,\"t_ns\":1,\"type\":\"phase\",\"name\":"
	     "\"pageout\",\"state\":\"start\"}", seq++);
	for (i = 0; i <= 20; i++) {
		char nr[64] = "";

		if (nrswp)
			snprintf(nr, sizeof(nr),
				 ",\"nrswpout\":%u,\"nrswpin\":0",
				 160 / batch * i);
		feed(k, "{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"sample\","
		     "\"vmstat\":{\"pswpout\":%u,\"pswpin\":0%s},\"blk\":{"
		     "\"vda\":{\"rd_ios\":0,\"rd_sectors\":0,\"wr_ios\":%u,"
		     "\"wr_sectors\":%u}},\"swaps\":[{\"name\":\"/dev/vda\","
		     "\"used_kb\":%u,\"size_kb\":524288}]}",
		     seq++, 100000000ULL * i + 2, 160 * i, nr,
		     160 / batch * i, 1280 * i, 640 * i);
	}
}

static void input(struct screen_input *in, unsigned int width)
{
	static const char *const labels[] = { "baseline-1", "patched-1" };
	unsigned int k;

	memset(in, 0, sizeof(*in));
	in->run = "20261203-100000-blk";
	in->scenario = "blk";
	in->mode = "replay x1";
	in->clock_s = 2;
	in->interval_s = 1;
	in->rep = 1;
	in->nreps = 1;
	in->utf8 = true;
	in->width = width;
	in->ncols = 2;
	for (k = 0; k < 2; k++) {
		in->cols[k].label = labels[k];
		in->cols[k].track = &tr[k];
		in->cols[k].st = &st[k];
		in->cols[k].exists = true;
	}
}

/* The first line starting with the word(s) @label, or fail. */
static const char *row(const char *label)
{
	size_t n = strlen(label);
	unsigned int i;

	for (i = 0; i < scr.n; i++)
		if (!strncmp(scr.line[i].text, label, n) &&
		    (scr.line[i].text[n] == ' ' || !scr.line[i].text[n]))
			return scr.line[i].text;
	fail_msg("no line '%s'", label);
	return NULL;
}

/* The histogram line of @label: the last line starting with it. */
static const char *hist_row(const char *label)
{
	const char *found = NULL;
	unsigned int i;

	for (i = 0; i < scr.n; i++)
		if (!strncmp(scr.line[i].text, label, strlen(label)) &&
		    strchr(scr.line[i].text, '%'))
			found = scr.line[i].text;
	if (!found)
		fail_msg("no histogram line '%s'", label);
	return found;
}

static void assert_row(const char *label, const char *a, const char *b,
		       const char *ratio)
{
	char expect[256], got[256];
	const char *r = row(label);
	int n;

	/* collapse runs of blanks for comparison */
	n = snprintf(expect, sizeof(expect), "%s %s%s%s%s%s", label, a,
		     b[0] ? " " : "", b, ratio ? " " : "", ratio ? ratio : "");
	assert_true(n > 0);
	{
		size_t i, j = 0;
		bool sp = false;

		for (i = 0; r[i] && j + 1 < sizeof(got); i++) {
			if (r[i] == ' ') {
				sp = true;
				continue;
			}
			if (sp && j)
				got[j++] = ' ';
			sp = false;
			got[j++] = r[i];
		}
		got[j] = '\0';
	}
	assert_string_equal(got, expect);
}

static int teardown(void **state)
{
	(void)state;
	track_free(&tr[0]);
	track_free(&tr[1]);
	track_free(&tr[2]);
	return 0;
}

static void test_table(void **state)
{
	struct screen_input in;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	input(&in, 110);
	screen_build(&in, &scr);
	assert_true(scr.n > 10);
	assert_int_equal(scr.line[0].attr, SA_TITLE);
	assert_non_null(strstr(scr.line[0].text, "20261203-100000-blk"));
	/* the registry's live metrics over the interval */
	assert_row("pages swapped out/s", "1600", "1600", "1.00x");
	assert_row("swap write I/Os/s", "1600", "100", "0.06x");
	assert_row("write pages/I/O", "1.00", "16.00", "16.00x");
	assert_row("device wr pages/I/O", "1.00", "16.00", "16.00x");
	/* no reads at all: zero divisors are n/a, never a number */
	assert_row("read pages/I/O", "n/a", "n/a", "n/a");
	/* and all of them since boot */
	assert_row("pages swapped out", "3200", "3200", "1.00x");
	assert_row("swap write I/Os", "3200", "200", "0.06x");
	assert_row("host write requests", "-", "-", "-");
	assert_row("evicted per pageout", "n/a", "n/a", "n/a");
	assert_non_null(strstr(scr.line[1].text, "patched/baseline"));
	assert_row("phase", "pageout", "pageout", NULL);
	assert_row("status", "running", "running", NULL);
	assert_row("lines ok/bad/lost", "23/0/0", "23/0/0", NULL);
	assert_row("swap used MiB", "12.5/512", "12.5/512", NULL);
	/* the ratio of pages per I/O is highlighted */
	assert_int_equal(strstr(row("write pages/I/O"), "16.00x") ? 1 : 0, 1);
}

static void test_missing_and_sparkline(void **state)
{
	struct screen_input in;
	const char *s;

	(void)state;
	guest(0, 1, false);
	guest(1, 16, true);
	input(&in, 110);
	screen_build(&in, &scr);
	assert_row("write pages/I/O", "no nrswp counters", "16.00", "-");
	assert_row("swap write I/Os/s", "no nrswp counters", "100", "-");
	assert_row("device wr pages/I/O", "1.00", "16.00", "16.00x");
	/* sparklines: full blocks for 16, lowest for 1 (from blk stats) */
	s = row("patched-1");
	assert_non_null(strstr(s, "\u2588\u2588"));
	s = row("baseline-1");
	assert_non_null(strstr(s, "\u2581\u2581"));
	assert_non_null(strstr(s, "(blk)"));
	assert_null(strstr(s, "\u2588"));
	/* the histogram: all baseline I/Os at 1 page, patched at 9-16 */
	s = hist_row("baseline-1");
	/* from the blk stats, as the kernel has no nrswpout */
	assert_string_equal(s + 14, "   100%     0%     0%     0%     0%     0%"
			    "     0%     0%  (blk)");
	s = hist_row("patched-1");
	assert_string_equal(s + 14, "     0%     0%     0%     0%   100%     0%"
			    "     0%     0%");
	/* plain ASCII when the terminal is not UTF-8 */
	in.utf8 = false;
	screen_build(&in, &scr);
	assert_non_null(strstr(row("patched-1"), "@@"));
}

static void test_width_height_help(void **state)
{
	struct screen_input in;
	unsigned int i;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	input(&in, 50);
	in.height = 8;
	screen_build(&in, &scr);
	assert_int_equal(scr.n, 8);
	for (i = 0; i < scr.n; i++)
		assert_true(screen_cells(scr.line[i].text) <= 50);
	input(&in, 110);
	in.help = true;
	screen_build(&in, &scr);
	assert_non_null(row("  tab      next repetition (1 of 1)"));
	/* one guest only: no ratio column (nothing to divide by) */
	in.help = false;
	in.ncols = 1;
	screen_build(&in, &scr);
	assert_null(strstr(scr.line[1].text, "patched/base"));
	assert_row("write pages/I/O", "1.00", "", NULL);
	in.ncols = 0;
	screen_build(&in, &scr);
	assert_int_equal(scr.n, 2);
}

/* 60x15: the ratio column, the help and the key line all stay. */
static void test_small_terminal(void **state)
{
	struct screen_input in;
	unsigned int i;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	input(&in, 60);
	in.height = 15;
	in.keys = true;
	screen_build(&in, &scr);
	assert_int_equal(scr.n, 15);
	for (i = 0; i < scr.n; i++)
		assert_true(screen_cells(scr.line[i].text) <= 60);
	assert_non_null(strstr(row("write pages/I/O"), "16.00x"));
	assert_non_null(strstr(scr.line[14].text, "q quit"));
	assert_non_null(strstr(scr.line[14].text, "h help"));
	in.help = true;
	screen_build(&in, &scr);
	assert_int_equal(scr.n, 15);
	assert_non_null(row("  q        quit"));
	assert_non_null(row("  h        this help"));
	assert_non_null(strstr(scr.line[14].text, "q quit"));
}

/* A third kernel: one more column and one more ratio to the first. */
static void test_three_kernels(void **state)
{
	struct screen_input in;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	guest(2, 32, true);
	input(&in, 200);
	in.ncols = 3;
	in.cols[2].label = "bhe-ops-1";
	in.cols[2].track = &tr[2];
	in.cols[2].st = &st[2];
	in.cols[2].exists = true;
	screen_build(&in, &scr);
	assert_non_null(strstr(scr.line[1].text, "patched/baseline"));
	assert_non_null(strstr(scr.line[1].text, "bhe-ops/baseline"));
	assert_row("write pages/I/O", "1.00 16.00 32.00 16.00x", "32.00x",
		   NULL);
	assert_row("swap write I/Os", "3200 200 100 0.06x", "0.03x", NULL);
}

static void test_replay_fixture(void **state)
{
	static struct source src;
	struct track_interval a, b;
	char err[512];
	unsigned int reps[4];

	(void)state;
	if (source_open(&src, "tests/fixtures/run-demo", true, 1000, err,
			sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(src.ng, 2);
	assert_string_equal(src.g[0]->name, "baseline-1");
	assert_string_equal(src.g[1]->name, "patched-1");
	assert_string_equal(src.scenario, "demo-blk");
	assert_int_equal(source_reps(&src, reps, 4), 1);
	assert_false(src.live);
	/* 1 s of wall time at x1000 plays the whole ~17 s run */
	source_poll(&src, 0.001);
	assert_false(source_done(&src));
	source_poll(&src, 1);
	assert_true(source_done(&src));
	assert_int_equal(src.g[1]->st->ok, 205);
	assert_int_equal(src.g[1]->st->malformed, 0);
	track_total(&src.g[0]->track, &a);
	track_total(&src.g[1]->track, &b);
	assert_true(a.wr_ppio.state == STATS_OK && a.wr_ppio.v == 1.0);
	assert_true(b.wr_ppio.v > 14 && b.wr_ppio.v < 18);
	assert_true(src.g[1]->track.have_result);
	source_close(&src);
	assert_int_not_equal(source_open(&src, "tests/fixtures/nonexistent",
					 true, 1, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "nonexistent"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_table, teardown),
		cmocka_unit_test_teardown(test_missing_and_sparkline, teardown),
		cmocka_unit_test_teardown(test_width_height_help, teardown),
		cmocka_unit_test_teardown(test_small_terminal, teardown),
		cmocka_unit_test_teardown(test_three_kernels, teardown),
		cmocka_unit_test(test_replay_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
