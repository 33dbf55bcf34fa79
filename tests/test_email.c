// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/results/email.c: every line of the text-email table
 * is at most EMAIL_WIDTH columns, with long kernel names, a long run id,
 * missing and n/a values, huge numbers; and nothing is cut off to get
 * there (the names, the id and every measured metric are in the text).
 */
#include <setjmp.h>
#include <stdbool.h>
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

/*
 * A guest of @kernel whose every metric is @base times a per-metric
 * factor, varied by repeat (so the repeats have a spread); pages_corrupt
 * 0; with @holes thp_swpout missing and swap_read_errors n/a; three
 * phases.
 */
static void fake_guest_h(struct results *r, const char *kernel,
			 unsigned int rep, double base, bool holes)
{
	static const char *const ph[] = { "fill", "pageout", "read" };
	struct res_guest *g;
	unsigned int mi, i;

	results_kernel(r, kernel);
	r->g = realloc(r->g, (r->ng + 1) * sizeof(*r->g));
	assert_non_null(r->g);
	r->capg = r->ng + 1;
	g = &r->g[r->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->kernel, sizeof(g->kernel), "%s", kernel);
	g->rep = rep;
	for (mi = 0; mi < metric_count; mi++)
		g->v[mi] = stats_ok(base * (mi + 1) * (1 + 0.01 * rep));
	if (holes) {
		g->v[metric_index("thp_swpout")] = stats_missing();
		g->v[metric_index("swap_read_errors")].state = STATS_NA;
	}
	g->v[metric_index("pages_corrupt")] = stats_ok(0);
	for (i = 0; i < 3; i++) {
		snprintf(g->phase[i], sizeof(g->phase[i]), "%s", ph[i]);
		g->phase_s[i] = base * (i + 1) * (1 + 0.02 * rep);
	}
	g->nphases = 3;
}

static void fake_guest(struct results *r, const char *kernel,
		       unsigned int rep, double base)
{
	fake_guest_h(r, kernel, rep, base, true);
}

/* The table of @e as one string (free it). */
static char *print(const struct email_run *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	email_print(f, e);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static size_t cols(const char *s, size_t n)
{
	size_t c = 0, i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* Every line at most EMAIL_WIDTH columns; the widest. */
static size_t check_width(const char *text)
{
	const char *s = text, *nl;
	size_t widest = 0, w;

	while ((nl = strchr(s, '\n'))) {
		w = cols(s, (size_t)(nl - s));
		if (w > EMAIL_WIDTH)
			fail_msg("%zu columns: %.*s", w, (int)(nl - s), s);
		if (w > widest)
			widest = w;
		s = nl + 1;
	}
	assert_true(*s == 0);	/* ends in a newline */
	return widest;
}

/*
 * @text with each line break and the indent after it made one space
 * (@sep " "), or removed with every other space (@sep NULL: for a word
 * cut across lines).
 */
static char *joined(const char *text, const char *sep)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *s;

	assert_non_null(out);
	for (s = text; *s; s++) {
		if (*s == '\n') {
			while (s[1] == ' ')
				s++;
			if (sep)
				*o++ = ' ';
			continue;
		}
		if (*s != ' ' || sep)
			*o++ = *s;
	}
	*o = 0;
	return out;
}

/* The row of @label: its line (a failure when there is none). */
static const char *row_of(const char *text, const char *label)
{
	const char *s = text;

	while (s && *s) {
		if (!strncmp(s, label, strlen(label)) &&
		    s[strlen(label)] == ' ')
			return s;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	fail_msg("no row \"%s\" in:\n%s", label, text);
	return NULL;
}

static void test_short_names(void **state)
{
	struct results r;
	struct email_run e = { .res = &r, .scenario = "bdev-swap",
			       .run = "20261203-160800-bdev-swap" };
	unsigned int rep;
	char *t;

	(void)state;
	results_init(&r);
	for (rep = 1; rep <= 5; rep++) {
		fake_guest_h(&r, "baseline", rep, 1.0, true);
		fake_guest_h(&r, "swap-ops", rep, 1.3, false);
	}
	t = print(&e);
	check_width(t);
	assert_non_null(strstr(t, "swapctl: scenario bdev-swap, run "
				  "20261203-160800-bdev-swap\n"));
	assert_non_null(strstr(t, "repeats: 5 per kernel\n"));
	assert_non_null(strstr(t, "\nswap-ops vs baseline\n"));
	/* column heads named after the kernels */
	assert_non_null(strstr(t, " baseline  swap-ops  ratio [95% CI]"));
	/* a ratio with its interval; 1.3 is significant on every metric */
	assert_non_null(strstr(row_of(t, "write pages/I/O"), "1.30 ["));
	assert_non_null(strstr(row_of(t, "write pages/I/O"), "better"));
	assert_non_null(strstr(row_of(t, "workload s"), "worse"));
	/* missing and n/a on one kernel are shown, 0 = 0 too */
	assert_non_null(strstr(row_of(t, "THPs swapped out whole"),
			       " missing "));
	assert_non_null(strstr(row_of(t, "THPs swapped out whole"),
			       "  -                        - -\n"));
	assert_non_null(strstr(row_of(t, "swap read errors"), "     n/a "));
	assert_null(strstr(t, "Not measured on any kernel"));
	assert_non_null(strstr(row_of(t, "pages corrupt"), "both 0"));
	/* the phase times */
	assert_non_null(row_of(t, "phase 1 fill s"));
	assert_non_null(strstr(row_of(t, "phase 3 read s"), "worse"));
	free(t);
	results_free(&r);
}

static void test_long_names_and_values(void **state)
{
	static const char ka[] = "baseline-cfg-CONFIG_SWAP_n-debug";
	static const char kb[] = "swap-ops-cfg-CONFIG_SWAP_n-debug";
	static const char kc[] = "bhe-ops.with.a.32-character-name";
	char run[201], *t, *j, *nosp, line[128];
	struct results r;
	struct email_run e = { .res = &r, .run = run,
		.scenario = "a-scenario-name-of-forty-eight-characters-long.x" };
	const char *status[7] = { "pass", "pass", "corrupt", "pass", "pass",
				  "error", "pass" };
	unsigned int mi;

	(void)state;
	assert_int_equal(strlen(ka), SCN_KERNEL_MAX - 1);
	assert_int_equal(strlen(kc), SCN_KERNEL_MAX - 1);
	memset(run, 'r', sizeof(run) - 1);
	run[sizeof(run) - 1] = 0;
	results_init(&r);
	fake_guest(&r, ka, 1, 1.0);
	fake_guest(&r, ka, 2, 1.0);
	fake_guest(&r, kb, 1, 3e13);	/* means beyond 9 columns */
	fake_guest(&r, kb, 2, 3e13);
	fake_guest(&r, kc, 1, 1e-9);
	fake_guest(&r, kc, 2, 1e-9);
	fake_guest(&r, kc, 3, 1e-9);
	e.status = status;
	t = print(&e);
	assert_int_equal(check_width(t), EMAIL_WIDTH);
	j = joined(t, " ");
	nosp = joined(t, NULL);
	/* nothing cut: the run id, the scenario, every kernel's name */
	assert_non_null(strstr(nosp, run));
	free(nosp);
	assert_non_null(strstr(j, e.scenario));
	snprintf(line, sizeof(line), "\nA: %s (reference)\nB: %s\n", ka, kb);
	assert_non_null(strstr(t, line));
	snprintf(line, sizeof(line), "\nA: %s (reference)\nB: %s\n", ka, kc);
	assert_non_null(strstr(t, line));
	assert_non_null(strstr(j, "repeats: " "baseline-cfg-CONFIG_SWAP_n-debug 2,"));
	assert_non_null(strstr(j, "guests: 7, 2 did not pass: "
			       "swap-ops-cfg-CONFIG_SWAP_n-debug-1 (corrupt),"));
	assert_non_null(strstr(j, "bhe-ops.with.a.32-character-name-2 (error)"));
	/* every metric measured somewhere has its rows, the others are named */
	for (mi = 0; mi < metric_count; mi++) {
		if (!strcmp(metric_defs[mi].key, "thp_swpout") ||
		    !strcmp(metric_defs[mi].key, "swap_read_errors")) {
			assert_non_null(strstr(j, metric_defs[mi].key));
			continue;
		}
		assert_non_null(row_of(t, metric_defs[mi].label));
	}
	/* a ratio of 1e-9 is no "0.00", nor a mean of 1e-9 "0" */
	assert_non_null(strstr(strstr(t, "\nB: bhe-ops"), " 1.02e-09  1e-09 "));
	assert_non_null(strstr(j, "Not measured on any kernel: thp_swpout, "
			       "swap_read_errors."));
	free(j);
	free(t);
	results_free(&r);
}

/* One repeat of a kernel: timing metrics are not tested, counts are. */
static void test_one_run(void **state)
{
	struct results r;
	struct email_run e = { .res = &r };
	char *t;

	(void)state;
	results_init(&r);
	fake_guest(&r, "baseline", 1, 1.0);
	fake_guest(&r, "patched", 1, 2.0);
	t = print(&e);
	check_width(t);
	assert_non_null(strstr(t, "swapctl: scenario ?\n"));
	assert_non_null(strstr(row_of(t, "workload s"), "1 run"));
	assert_non_null(strstr(row_of(t, "write pages/I/O"), "better"));
	/* no interval with one run */
	assert_null(strstr(row_of(t, "write pages/I/O"), "["));
	free(t);
	results_free(&r);
}

static void test_verdict_words(void **state)
{
	struct res_cmp c = { .m = metric_find("workload_seconds") };

	(void)state;
	c.verdict = V_NO_CHANGE;
	assert_string_equal(email_verdict(&c), "1 run");
	c.has_p = true;
	assert_string_equal(email_verdict(&c), "n.s.");
	c.verdict = V_NOT_MEASURED;
	assert_string_equal(email_verdict(&c), "-");
	c.verdict = V_CHANGED;
	assert_string_equal(email_verdict(&c), "changed");
	c.m = metric_find("pswpout");	/* deterministic: judged on one run */
	c.has_p = false;
	c.verdict = V_NO_CHANGE;
	assert_string_equal(email_verdict(&c), "n.s.");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_names),
		cmocka_unit_test(test_long_names_and_values),
		cmocka_unit_test(test_one_run),
		cmocka_unit_test(test_verdict_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
