// SPDX-License-Identifier: GPL-2.0
/*
 * email: a run's results as a plain-text table for a cover letter
 * (report --format=text-email). See email.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "email.h"
#include "metrics.h"
#include "results.h"

/* column widths: label, each mean, ratio with interval, verdict */
#define E_LABEL		22
#define E_MEAN		11
#define E_RATIO		21
#define E_VERDICT	7

_Static_assert(E_LABEL + 1 + 2 * (E_MEAN + 1) + 1 + E_RATIO + 1 +
	       E_VERDICT <= EMAIL_WIDTH, "a row fits the mail");

/* One line, cut at EMAIL_WIDTH bytes (so columns) when longer. */
static void emit(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(FILE *f, const char *fmt, ...)
{
	char line[EMAIL_WIDTH + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(f, "%s\n", line);
}

const char *email_verdict(enum verdict v)
{
	switch (v) {
	case V_BETTER:
		return "better";
	case V_WORSE:
		return "worse";
	case V_CHANGED:
		return "changed";
	case V_NO_CHANGE:
		return "~";
	case V_NOT_MEASURED:
		break;
	}
	return "-";
}

/* A mean in E_MEAN columns: fixed decimals, else 4 significant digits. */
static void fmt_mean(char *buf, size_t len, enum stats_state st,
		     const struct stats_desc *d, int dec)
{
	if (st == STATS_MISSING)
		snprintf(buf, len, "missing");
	else if (st != STATS_OK)
		snprintf(buf, len, "n/a");
	else if (snprintf(buf, len, "%.*f", dec, d->mean) > E_MEAN)
		snprintf(buf, len, "%.4g", d->mean);
}

/* The ratio and its interval in E_RATIO columns, shorter if need be. */
static void fmt_ratio(char *buf, size_t len, const struct res_cmp *c)
{
	if (c->verdict == V_NOT_MEASURED || !c->has_ratio) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->has_ci &&
	    snprintf(buf, len, "%.2f [%.2f, %.2f]", c->ratio, c->lo,
		     c->hi) <= E_RATIO)
		return;
	if (c->has_ci &&
	    snprintf(buf, len, "%.3g [%.3g, %.3g]", c->ratio, c->lo,
		     c->hi) <= E_RATIO)
		return;
	if (snprintf(buf, len, "%.2f", c->ratio) > E_RATIO)
		snprintf(buf, len, "%.3g", c->ratio);
}

/* How many guests (repeats) kernel @k has. */
static unsigned int repeats(const struct results *r, unsigned int k)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->ng; i++)
		if (!strcmp(r->g[i].kernel, r->kernels[k]))
			n++;
	return n;
}

/* "kernels: a (reference), b, c", wrapped under its first name. */
static void print_kernels(FILE *f, const struct results *r)
{
	char line[EMAIL_WIDTH + 1], word[SCN_KERNEL_MAX + 16];
	unsigned int k;
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "kernels:");
	for (k = 0; k < r->nk; k++) {
		snprintf(word, sizeof(word), " %s%s", r->kernels[k],
			 !k ? " (reference)" : k + 1 < r->nk ? "," : "");
		if (n > 9 && n + strlen(word) > EMAIL_WIDTH) {
			emit(f, "%s", line);
			n = (size_t)snprintf(line, sizeof(line), "%8s", "");
		}
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s", word);
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
	}
	emit(f, "%s", line);
}

/* "repeats: 3 per kernel", or each kernel's count when they differ. */
static void print_repeats(FILE *f, const struct results *r)
{
	char line[EMAIL_WIDTH + 1];
	unsigned int k, n0 = r->nk ? repeats(r, 0) : 0;
	bool same = true;
	size_t n;

	for (k = 1; k < r->nk; k++)
		same = same && repeats(r, k) == n0;
	if (same) {
		emit(f, "repeats: %u per kernel", n0);
		return;
	}
	n = (size_t)snprintf(line, sizeof(line), "repeats:");
	for (k = 0; k < r->nk; k++) {
		char word[SCN_KERNEL_MAX + 16];

		snprintf(word, sizeof(word), " %s %u%s", r->kernels[k],
			 repeats(r, k), k + 1 < r->nk ? "," : "");
		if (n > 9 && n + strlen(word) > EMAIL_WIDTH) {
			emit(f, "%s", line);
			n = (size_t)snprintf(line, sizeof(line), "%8s", "");
		}
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s", word);
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
	}
	emit(f, "%s", line);
}

/* Kernel @k against the reference: a heading, then a row per metric. */
static void print_block(FILE *f, const struct results *r, unsigned int k)
{
	char base[32], mean[32], ratio[64];
	unsigned int mi;

	emit(f, "%s vs %s", r->kernels[k], r->kernels[0]);
	emit(f, "%-*s %*.*s %*.*s  %-*s %s", E_LABEL, "metric",
	     E_MEAN, E_MEAN, r->kernels[0], E_MEAN, E_MEAN, r->kernels[k],
	     E_RATIO, "ratio [95% CI]", "verdict");
	for (mi = 0; mi < metric_count; mi++) {
		const struct metric_def *m = &metric_defs[mi];
		struct stats_desc d;
		enum stats_state st;
		struct res_cmp c;

		st = results_desc(r, 0, mi, &d);
		fmt_mean(base, sizeof(base), st, &d, m->decimals);
		st = results_desc(r, k, mi, &d);
		fmt_mean(mean, sizeof(mean), st, &d, m->decimals);
		results_compare(r, mi, k, 0, &c);
		fmt_ratio(ratio, sizeof(ratio), &c);
		emit(f, "%-*.*s %*s %*s  %-*s %s", E_LABEL, E_LABEL,
		     m->label, E_MEAN, base, E_MEAN, mean, E_RATIO, ratio,
		     email_verdict(c.verdict));
	}
}

static void print_footnote(FILE *f, const struct results *r)
{
	unsigned int k;
	bool single = false;

	for (k = 0; k < r->nk; k++)
		single = single || repeats(r, k) < 2;
	emit(f, "Means over the repeats; ratio: kernel mean / %s mean with",
	     r->nk ? r->kernels[0] : "reference");
	emit(f, "its 95%% interval (delta method). better/worse: significant");
	emit(f, "(Welch p < 0.05 and beyond the metric's noise threshold);");
	emit(f, "changed: significant on a neutral metric; ~: no significant");
	emit(f, "change; -: not measured; n/a: nothing to divide; missing:");
	emit(f, "the kernel lacks the counter.");
	if (single)
		emit(f, "With one run of a kernel only counts fixed by the workload get a verdict.");
}

void email_print(FILE *f, const struct results *r, const char *scenario,
		 const char *run)
{
	unsigned int k;

	emit(f, "swapctl: scenario %s%s%s",
	     scenario && *scenario ? scenario : "?",
	     run && *run ? ", run " : "", run && *run ? run : "");
	print_kernels(f, r);
	print_repeats(f, r);
	if (r->nk < 2) {
		emit(f, "%s", "");
		emit(f, "One kernel: nothing to compare.");
		return;
	}
	for (k = 1; k < r->nk; k++) {
		emit(f, "%s", "");
		print_block(f, r, k);
	}
	emit(f, "%s", "");
	print_footnote(f, r);
}
