// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the host as a blocking factor: stats_paired() (the
 * per-pair log ratios) in src/model/stats.c, and how results.c uses it
 * when the guests of a run ran on more than one host (doc/HACKING.md
 * "Verdicts"): a fast and a slow host must neither widen nor bias the
 * comparison of the kernels.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "email.h"
#include "metrics.h"
#include "results.h"
#include "track.h"
#include "stream.h"

static void test_paired_figures(void **state)
{
	/* the log ratios' mean, t(.975, 3) interval and paired t-test */
	static const double a[] = { 1.0, 2.0, 4.0, 8.0 };
	static const double b[] = { 1.1, 2.1, 4.5, 8.6 };
	struct stats_paired p;

	(void)state;
	assert_true(stats_paired(a, b, 4, &p));
	assert_int_equal(p.n, 4);
	assert_true(fabs(p.df - 3) < 1e-12);
	/* computed by hand: d = ln(b/a), mean 0.083551, sd 0.029690 */
	assert_true(fabs(p.ratio - 1.0871407) < 1e-6);
	assert_true(fabs(p.sd - 0.0296903) < 1e-6);
	assert_true(fabs(p.lo - 1.0369742) < 1e-5);
	assert_true(fabs(p.hi - 1.1397341) < 1e-5);
	assert_true(fabs(p.p - 0.011094) < 1e-4);
	assert_true(fabs(p.mde - 0.063717) < 1e-4);
	/* a host twice as slow for both kernels changes nothing */
	{
		static const double a2[] = { 1.0, 4.0, 4.0, 16.0 };
		static const double b2[] = { 1.1, 4.2, 4.5, 17.2 };
		struct stats_paired q;

		assert_true(stats_paired(a2, b2, 4, &q));
		assert_true(fabs(q.ratio - p.ratio) < 1e-12);
		assert_true(fabs(q.lo - p.lo) < 1e-12);
		assert_true(fabs(q.p - p.p) < 1e-12);
	}
}

static void test_paired_refusals(void **state)
{
	static const double a[] = { 1.0, 0.0, 3.0 };
	static const double b[] = { 1.0, 1.0, 3.0 };
	static const double same[] = { 2.0, 3.0, 5.0 };
	struct stats_paired p;

	(void)state;
	/* one pair, a zero, a negative value: no ratio to take */
	assert_false(stats_paired(a, b, 1, &p));
	assert_false(stats_paired(a, b, 3, &p));
	assert_false(stats_paired(b, a, 3, &p));
	assert_true(stats_paired(same, same, 3, &p));
	/* no spread: p 1 without a difference, 0 with one */
	assert_true(fabs(p.ratio - 1) < 1e-12 && p.p == 1 && p.mde == 0);
	{
		static const double twice[] = { 4.0, 6.0, 10.0 };

		assert_true(stats_paired(same, twice, 3, &p));
		assert_true(fabs(p.ratio - 2) < 1e-12 && p.p == 0);
	}
	/* the repeats needed only fall as the spread does */
	assert_int_equal(stats_paired_repeats_needed(0, 0.01, 100), 2);
	assert_true(stats_paired_repeats_needed(0.01, 0.02, 100) <
		    stats_paired_repeats_needed(0.02, 0.02, 100));
	assert_int_equal(stats_paired_repeats_needed(1.0, 0.01, 100), 0);
}

/* A guest whose only phase, fill, took @seconds: its workload_seconds. */
static void add_guest(struct results *r, const char *kernel,
		      unsigned int rep, const char *host, double seconds)
{
	struct stream_state st;
	static struct stream_line l;
	struct track t;
	char line[512];
	int n, i;
	const char *fmt[] = {
		"{\"v\":1,\"seq\":0,\"t_ns\":1000,\"type\":\"hello\",\"kernel\":\"6.1\",\"counters\":[\"pswpout\"],\"interval_ms\":100}",
		"{\"v\":1,\"seq\":1,\"t_ns\":2000,\"type\":\"phase\",\"name\":\"fill\",\"state\":\"start\"}",
		"{\"v\":1,\"seq\":2,\"t_ns\":3000,\"type\":\"phase\",\"name\":\"fill\",\"state\":\"end\",\"pages\":100,\"ns\":%.0f,\"corrupt\":0}",
	};

	stream_init(&st);
	track_init(&t);
	for (i = 0; i < 3; i++) {
		n = snprintf(line, sizeof(line), fmt[i], seconds * 1e9);
		assert_int_equal(stream_parse_line(&st, line, (size_t)n, &l),
				 STREAM_OK);
		track_feed(&t, &l);
	}
	assert_int_equal(results_add_on(r, kernel, rep, host,
					rep == 2 ? "re-run: host h3 lost" :
					NULL, &t), 0);
	track_free(&t);
}

/*
 * Four repeats, two on a fast host and two on one twice as slow; the
 * patched kernel 5% faster in each pair (its ratio 0.945 to 0.955).
 */
static const double base_s[] = { 10.0, 10.2, 20.0, 20.4 };
static const double ratio[] = { 0.95, 0.945, 0.955, 0.95 };

static void two_hosts(struct results *r, const char *h1, const char *h2)
{
	unsigned int i;

	results_init(r);
	results_kernel(r, "baseline");
	results_kernel(r, "patched");
	for (i = 0; i < 4; i++) {
		const char *h = i < 2 ? h1 : h2;

		add_guest(r, "baseline", i + 1, h, base_s[i]);
		add_guest(r, "patched", i + 1, h, base_s[i] * ratio[i]);
	}
}

static void test_blocked_verdict(void **state)
{
	int wl = metric_index("workload_seconds");
	struct res_cmp blocked, pooled;
	struct results r;

	(void)state;
	assert_true(wl >= 0);
	/* one host: the repeats pooled, Welch's test sees nothing */
	two_hosts(&r, "local", "local");
	results_compare(&r, (unsigned int)wl, 1, 0, &pooled);
	assert_false(pooled.blocked);
	assert_int_equal(pooled.verdict, V_NO_CHANGE);
	assert_true(pooled.has_ci && pooled.p > 0.5);
	results_free(&r);

	/* two hosts: the pairs' ratios, 5% faster, significant */
	two_hosts(&r, "qemu+tcp://h1/system", "qemu+tcp://h2/system");
	results_compare(&r, (unsigned int)wl, 1, 0, &blocked);
	assert_true(blocked.blocked);
	assert_int_equal(blocked.pairs, 4);
	assert_int_equal(blocked.hosts, 2);
	assert_int_equal(blocked.verdict, V_BETTER);
	assert_true(blocked.p < 0.001);
	assert_true(blocked.lo < 0.95 && blocked.hi > 0.95);
	assert_true(blocked.hi < 0.96 && blocked.lo > 0.94);
	/* pooled (as kept beside): 5 times as wide at least, and across 1 */
	assert_true(blocked.pooled_has_ci);
	assert_true(fabs(blocked.pooled_ratio - pooled.ratio) < 1e-12);
	assert_true(blocked.pooled_lo < 1 && blocked.pooled_hi > 1);
	assert_true(blocked.pooled_hi - blocked.pooled_lo >
		    5 * (blocked.hi - blocked.lo));
	/* its mde and the repeats needed for 2% come from the pairs too */
	assert_true(blocked.has_mde_noise && blocked.mde_noise < 0.02);
	assert_true(pooled.mde_noise > 0.5);
	{
		enum res_mde_why why;
		unsigned int n;

		assert_int_equal(results_mde_of(&r, (unsigned int)wl, 1, 0,
						  0.02, 100, &n, &why), 0);
		assert_int_equal(why, RES_MDE_OK);
		assert_true(n >= 2 && n <= 4);
	}
	/* the phase times are blocked the same way */
	results_phase_compare(&r, 0, 1, &blocked);
	assert_true(blocked.blocked);
	assert_int_equal(blocked.verdict, V_BETTER);
	results_free(&r);
}

/* A pair split over two hosts is no pair; guests without a host none. */
static void test_pairs_only_on_one_host(void **state)
{
	int wl = metric_index("workload_seconds");
	struct res_cmp c;
	struct results r;
	unsigned int i;

	(void)state;
	results_init(&r);
	for (i = 0; i < 4; i++) {
		add_guest(&r, "baseline", i + 1, i < 2 ? "h1" : "h2",
			  base_s[i]);
		add_guest(&r, "patched", i + 1, i < 2 ? "h2" : "h1",
			  base_s[i] * ratio[i]);
	}
	results_compare(&r, (unsigned int)wl, 1, 0, &c);
	assert_false(c.blocked);
	assert_int_equal(c.verdict, V_NO_CHANGE);
	results_free(&r);
	two_hosts(&r, "", "");
	results_compare(&r, (unsigned int)wl, 1, 0, &c);
	assert_false(c.blocked);
	results_free(&r);
}

/* summary.json and report --json: every guest names its host. */
static void test_json_names_hosts(void **state)
{
	int wl = metric_index("workload_seconds");
	json_t *a, *o, *c, *b;
	struct results r;
	unsigned int i;
	size_t j;

	(void)state;
	two_hosts(&r, "qemu+tcp://h1/system", "qemu+tcp://h2/system");
	for (i = 0; i < r.ng; i++) {
		o = json_object();
		results_guest_place_json(o, &r.g[i]);
		assert_string_equal(json_string_value(json_object_get(o,
			"host")), i < 4 ? "qemu+tcp://h1/system" :
			"qemu+tcp://h2/system");
		if (r.g[i].rep == 2)
			assert_string_equal(json_string_value(
				json_object_get(o, "rerun")),
				"re-run: host h3 lost");
		else
			assert_true(json_is_null(json_object_get(o, "rerun")));
		json_decref(o);
	}
	a = results_comparisons_json(&r);
	json_array_foreach(a, j, c) {
		if (strcmp(json_string_value(json_object_get(c, "metric")),
			   metric_defs[wl].key))
			continue;
		b = json_object_get(c, "blocked");
		assert_true(json_is_object(b));
		assert_string_equal(json_string_value(json_object_get(b,
			"by")), "host");
		assert_int_equal(json_integer_value(json_object_get(b,
			"pairs")), 4);
		assert_true(json_is_array(json_object_get(json_object_get(b,
			"pooled"), "ci95")));
		assert_string_equal(json_string_value(json_object_get(c,
			"verdict")), "better");
	}
	json_decref(a);
	results_free(&r);
	/* a run recorded before hosts: null, never a made-up host */
	two_hosts(&r, "", "");
	o = json_object();
	results_guest_place_json(o, &r.g[0]);
	assert_true(json_is_null(json_object_get(o, "host")));
	json_decref(o);
	results_free(&r);
}

/* run, report and text-email: the host of each repeat, the re-runs */
static void test_host_lines(void **state)
{
	char buf[4096], *text = NULL, *line;
	struct email_run e = { 0 };
	struct results r;
	size_t len = 0;
	FILE *f;

	(void)state;
	two_hosts(&r, "qemu+tcp://h1/system", "qemu+tcp://h2/system");
	assert_int_equal(results_host_lines(&r, buf, sizeof(buf)), 3);
	assert_string_equal(buf,
		"repeats on qemu+tcp://h1/system: 1 2 (2 re-run: host h3 lost)\n"
		"repeats on qemu+tcp://h2/system: 3 4\n"
		"ratios over 2 hosts: of each repeat's pair, blocked by host (swapctl(1) VERDICTS)\n");
	/* cut to fit, never past the buffer */
	assert_true(results_host_lines(&r, buf, 20) > 0);
	assert_int_equal(strlen(buf), 19);
	e.res = &r;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	email_print(f, &e);
	fclose(f);
	assert_non_null(strstr(text, "\nrepeats on qemu+tcp://h1/system: 1 2 (2 re-run:"));
	assert_non_null(strstr(text, "\nrepeats on qemu+tcp://h2/system: 3 4\n"));
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		assert_true(strlen(line) <= EMAIL_WIDTH);
	free(text);
	results_free(&r);
	/* one host: its repeats, no word of blocking */
	two_hosts(&r, "local", "local");
	assert_int_equal(results_host_lines(&r, buf, sizeof(buf)), 1);
	assert_string_equal(buf,
		"repeats on local: 1 2 3 4 (2 re-run: host h3 lost)\n");
	results_free(&r);
	/* no host recorded: nothing */
	two_hosts(&r, "", "");
	assert_int_equal(results_host_lines(&r, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired_figures),
		cmocka_unit_test(test_paired_refusals),
		cmocka_unit_test(test_blocked_verdict),
		cmocka_unit_test(test_pairs_only_on_one_host),
		cmocka_unit_test(test_json_names_hosts),
		cmocka_unit_test(test_host_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
