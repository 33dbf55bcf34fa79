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

#include "metrics.h"
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

/*
 * Guest @k after guest(): 40 more samples 100 ms apart that swap
 * nothing, as between a workload's end and the guest's power-off.
 */
static void idle_tail(int k, unsigned int batch)
{
	unsigned int i, seq = 23;

	for (i = 21; i <= 60; i++)
		feed(k, "{\"v\":1,\"seq\":%u,\"t_ns\":%llu,\"type\":\"sample\","
		     "\"vmstat\":{\"pswpout\":3200,\"pswpin\":0,\"nrswpout\":%u,"
		     "\"nrswpin\":0},\"swaps\":[{\"name\":\"/dev/vda\","
		     "\"used_kb\":12800,\"size_kb\":524288}]}",
		     seq++, 100000000ULL * i + 2, 3200 / batch);
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

/* Every line of the frame fits @w x @h; the key hint is the last line. */
static void assert_fits(unsigned int w, unsigned int h)
{
	unsigned int i;

	assert_true(scr.n <= h);
	for (i = 0; i < scr.n; i++)
		if (screen_cells(scr.line[i].text) > w)
			fail_msg("%ux%u: line %u is %u cells: '%s'", w, h, i,
				 screen_cells(scr.line[i].text),
				 scr.line[i].text);
	assert_int_equal(scr.n, h);
	assert_non_null(strstr(scr.line[h - 1].text, "q quit"));
	assert_non_null(strstr(scr.line[h - 1].text, "h help"));
}

/*
 * Every line of every page at @w x @h, scrolled from top to bottom,
 * into @seen (one line per line, '\n' between); asserts each frame fits.
 */
static void walk_pages(struct screen_input *in, unsigned int w,
		       unsigned int h, char *seen, size_t len)
{
	size_t used = 0;
	unsigned int p, sc, i;

	seen[0] = '\0';
	for (p = 0; p < SCREEN_PAGES; p++) {
		in->page = (enum screen_page)p;
		for (sc = 0;; sc++) {
			in->scroll = sc;
			screen_build(in, &scr);
			assert_fits(w, h);
			for (i = 0; i < scr.n && used + 1 < len; i++)
				used += (size_t)snprintf(seen + used,
							 len - used, "%s\n",
							 scr.line[i].text);
			if (sc >= scr.scroll_max)
				break;
		}
	}
	in->page = SCREEN_PAGE_SUMMARY;
	in->scroll = 0;
}

/* Whether a line of the frame starts with @label followed by a blank. */
static bool has_row(const char *label)
{
	size_t n = strlen(label);
	unsigned int i;

	for (i = 0; i < scr.n; i++)
		if (!strncmp(scr.line[i].text, label, n) &&
		    scr.line[i].text[n] == ' ')
			return true;
	return false;
}

/*
 * 80x24 and 120x40: the first page holds the status and the pages per
 * I/O and swap rates of each direction; paging and scrolling reach every
 * metric of the registry since boot, the sparkline and the histogram.
 */
static void test_frame_80_120(void **state)
{
	static const unsigned int size[][2] = { { 80, 24 }, { 120, 40 } };
	static char seen[1 << 22];
	struct screen_input in;
	unsigned int k, mi;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	for (k = 0; k < 2; k++) {
		unsigned int w = size[k][0], h = size[k][1];

		input(&in, w);
		in.height = h;
		in.keys = true;
		screen_build(&in, &scr);
		assert_fits(w, h);
		assert_non_null(strstr(scr.line[1].text, "[1 summary]"));
		assert_non_null(strstr(scr.line[2].text, "patched/baseline"));
		assert_true(has_row("status"));
		assert_non_null(strstr(row("write pages/I/O"), "16.00x"));
		assert_true(has_row("read pages/I/O"));
		assert_true(has_row("pages swapped out/s"));
		assert_true(has_row("pages swapped in/s"));
		assert_true(has_row("pages corrupt"));
		assert_true(has_row("swap used MiB"));
		assert_true(has_row("patched-1"));	/* the sparkline */
		walk_pages(&in, w, h, seen, sizeof(seen));
		for (mi = 0; mi < metric_count; mi++) {
			char want[64];

			snprintf(want, sizeof(want), "\n%s ",
				 metric_defs[mi].label);
			if (!strstr(seen, want))
				fail_msg("%ux%u: no page shows '%s'", w, h,
					 metric_defs[mi].label);
		}
		assert_non_null(strstr(seen, "\nsince boot"));
		assert_non_null(strstr(seen, "\nwrite pages/IO, one mark"));
		assert_non_null(strstr(seen, "\nwrite I/Os by batch size"));
		assert_non_null(strstr(seen, "65+"));
		assert_non_null(strstr(seen, "\nlines ok/bad/lost "));
	}
	/* 120x40: the whole summary, every live rate and the histogram */
	screen_build(&in, &scr);
	assert_int_equal(scr.scroll_max, 0);
	assert_true(has_row("PSI memory full s/s"));
	assert_non_null(hist_row("patched-1"));
}

/* Each line's label: its first @w cells, without trailing blanks. */
static void label_of(char *buf, const char *line, unsigned int w)
{
	snprintf(buf, 64, "%.*s", (int)w, line);
	while (buf[0] && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
}

/*
 * 40 columns: the labels of the live rows, and those since boot, are
 * each different ("pages swapped" for both directions was not).
 */
static void test_labels_at_40(void **state)
{
	static char labels[SCREEN_MAX_LINES][64];
	struct screen_input in;
	unsigned int i, j, n = 0, first = 0;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	input(&in, 40);
	screen_build(&in, &scr);
	for (i = 0; i < scr.n && strncmp(scr.line[i].text, "status", 6); i++)
		;
	assert_true(i < scr.n);
	for (i++; i < scr.n && strncmp(scr.line[i].text, "swap used", 9);
	     i++) {
		if (!strncmp(scr.line[i].text, "since boot", 10)) {
			first = n;	/* a new block */
			continue;
		}
		label_of(labels[n], scr.line[i].text, 13);
		assert_null(strstr(labels[n], "pages swapped"));
		for (j = first; j < n; j++)
			if (!strcmp(labels[j], labels[n]))
				fail_msg("two rows read '%s'", labels[n]);
		n++;
	}
	assert_true(n > metric_count);
	assert_true(has_row("pages out/s"));
	assert_true(has_row("pages in/s"));
	assert_true(has_row("out pages/IO"));
	assert_true(has_row("in pages/IO"));
}

/*
 * 40x10: the first page starts with the status and the pages per I/O of
 * both directions; every page and its scroll fit, and reach the
 * registry's last metric, the sparkline and the histogram's last bucket.
 */
static void test_frame_40x10(void **state)
{
	static char seen[1 << 22];
	struct screen_input in;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	input(&in, 40);
	in.height = 10;
	in.keys = true;
	screen_build(&in, &scr);
	assert_fits(40, 10);
	assert_non_null(strstr(scr.line[1].text, "1/4 summary"));
	assert_non_null(strstr(scr.line[1].text, "more"));
	assert_true(has_row("status"));
	assert_non_null(strstr(row("out pages/IO"), "16.00x"));
	assert_non_null(strstr(row("in pages/IO"), "n/a"));
	walk_pages(&in, 40, 10, seen, sizeof(seen));
	assert_non_null(strstr(seen, "\nhost ms/MiB "));
	assert_non_null(strstr(seen, "\nwrite pages/IO per"));
	assert_non_null(strstr(seen, "\n65+ "));
	assert_non_null(strstr(seen, "\npatched-1 "));
	/* scrolled to the end of a page: the bar says where */
	in.page = SCREEN_PAGE_BOOT;
	in.scroll = 1000;
	screen_build(&in, &scr);
	assert_int_equal(scr.scroll, scr.scroll_max);
	assert_true(scr.scroll_max > 40);
	assert_null(strstr(scr.line[1].text, "more"));
	/* the help is a page of its own, and fits too */
	in.help = true;
	in.scroll = 0;
	screen_build(&in, &scr);
	assert_fits(40, 10);
	assert_true(has_row("q"));
}

/*
 * When the guests ended, idle samples after their workload do not zero
 * the rates: those of their last second of swap I/O stay, and say so.
 */
static void test_rates_kept_at_the_end(void **state)
{
	struct screen_input in;
	unsigned int i;

	(void)state;
	guest(0, 1, true);
	guest(1, 16, true);
	idle_tail(0, 1);
	idle_tail(1, 16);
	input(&in, 110);
	screen_build(&in, &scr);
	/* still running: the last second swapped nothing */
	assert_row("pages swapped out/s", "0.0", "0.0", "n/a");
	in.done = true;
	screen_build(&in, &scr);
	assert_non_null(row("rates: last 1 s with swap I/O (ended)"));
	assert_row("pages swapped out/s", "1600", "1600", "1.00x");
	assert_row("write pages/I/O", "1.00", "16.00", "16.00x");
	/* since boot is since boot either way */
	assert_row("pages swapped out", "3200", "3200", "1.00x");
	/*
	 * 0.1 s per mark, 24 marks: 2.4 s, all idle; once ended the line
	 * ends at the last write, its marks full height for patched-1
	 */
	input(&in, 50);
	in.interval_s = 0.1;
	screen_build(&in, &scr);
	assert_null(strstr(row("patched-1"), "\u2588"));
	in.done = true;
	screen_build(&in, &scr);
	assert_non_null(strstr(row("patched-1"), "\u2588\u2588\u2588"));
	for (i = 0; i < scr.n && strncmp(scr.line[i].text, "write pages/IO",
					 14); i++)
		;
	assert_true(i < scr.n);
	assert_string_equal(scr.line[i].text, "write pages/IO per 0.1 s, "
			    "top 16.0, to last write");
}

/* "no nrswp counters" only in the column of a kernel without them. */
static void test_no_nrswp_per_kernel(void **state)
{
	struct screen_input in;

	(void)state;
	guest(0, 1, false);
	guest(1, 16, true);
	input(&in, 110);
	screen_build(&in, &scr);
	/* the swap-ops kernel has nrswp*, not the deferred ones: "-" */
	assert_row("write batches deferred", "no nrswp counters", "-", "-");
	assert_row("read batches deferred", "no nrswp counters", "-", "-");
	guest(0, 1, true);
	screen_build(&in, &scr);
	assert_row("write batches deferred", "-", "-", "-");
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
		cmocka_unit_test_teardown(test_frame_80_120, teardown),
		cmocka_unit_test_teardown(test_labels_at_40, teardown),
		cmocka_unit_test_teardown(test_frame_40x10, teardown),
		cmocka_unit_test_teardown(test_rates_kept_at_the_end, teardown),
		cmocka_unit_test_teardown(test_no_nrswp_per_kernel, teardown),
		cmocka_unit_test(test_replay_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
