// SPDX-License-Identifier: GPL-2.0
/*
 * results: the text table of run and report (means, ratios, intervals,
 * verdicts, mde), fitted to a width. See results.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "swapctl.h"

#define T_LABEL	24
#define T_COL	18
#define T_RATIO	36
#define T_MDE	6	/* "12.3%", ">999%", "-" */

void results_fmt_mde(char *buf, size_t len, const struct res_cmp *c)
{
	if (c->verdict == V_NOT_MEASURED || !c->has_mde)
		snprintf(buf, len, "-");
	else if (c->mde >= 9.995)
		snprintf(buf, len, ">999%%");
	else if (c->mde >= 0.0995)
		snprintf(buf, len, "%.0f%%", c->mde * 100);
	else
		snprintf(buf, len, "%.1f%%", c->mde * 100);
}

/* One comparison's two columns: the ratio and verdict, and the mde. */
static void print_cmp(FILE *f, const struct res_cmp *c, int width);

static void fmt_desc(char *buf, size_t len, enum stats_state st,
		     const struct stats_desc *d, int dec)
{
	if (st == STATS_MISSING)
		snprintf(buf, len, "missing");
	else if (st != STATS_OK)
		snprintf(buf, len, "n/a");
	else if (d->has_ci)
		snprintf(buf, len, "%.*f ±%.*f", dec, d->mean, dec, d->ci95);
	else
		snprintf(buf, len, "%.*f", dec, d->mean);
}

void results_fmt_cmp(char *buf, size_t len, const struct res_cmp *c)
{
	const char *v = results_verdict_name(c->verdict);

	/* in the table: say why there is no verdict */
	if (c->verdict == V_NO_CHANGE && !c->has_p && !c->m->deterministic)
		v = "1 run: no test";
	else if (c->verdict == V_NO_CHANGE)
		v = "no change";

	if (c->verdict == V_NOT_MEASURED && c->why[0])
		snprintf(buf, len, "not measured: %.60s", c->why);
	else if (c->verdict == V_NOT_MEASURED)
		snprintf(buf, len, "-");
	else if (c->has_ratio && c->has_ci)
		snprintf(buf, len, "%.2fx [%.2f, %.2f] %s", c->ratio, c->lo,
			 c->hi, v);
	else if (c->has_ratio)
		snprintf(buf, len, "%.2fx %s", c->ratio, v);
	else
		snprintf(buf, len, "%s", v);
}

/* printf %-*s counts bytes: pad by characters for the ± sign */
static void pad(FILE *f, const char *s, int w, bool right)
{
	int n = 0;
	const char *p;

	for (p = s; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			n++;
	if (!right && n > w) {
		/* a label in a narrowed column: cut on a code point */
		for (p = s, n = 0; *p && n < w; p++)
			if (((unsigned char)p[1] & 0xc0) != 0x80)
				n++;
		fprintf(f, "%.*s", (int)(p - s), s);
		return;
	}
	if (right)
		fprintf(f, "%*s%s", w > n ? w - n : 0, "", s);
	else
		fprintf(f, "%s%*s", s, w > n ? w - n : 0, "");
}

static void print_cmp(FILE *f, const struct res_cmp *c, int width)
{
	char buf[96];

	results_fmt_cmp(buf, sizeof(buf), c);
	/* a table narrowed to the terminal: the reason is in the JSON */
	if (c->verdict == V_NOT_MEASURED && width < T_RATIO &&
	    (int)strlen(buf) > width)
		snprintf(buf, sizeof(buf), "not measured");
	fputc(' ', f);
	pad(f, buf, width, true);
	results_fmt_mde(buf, sizeof(buf), c);
	fputc(' ', f);
	pad(f, buf, T_MDE, true);
}

/* The widths of the table's label, value and ratio columns. */
struct tw {
	int label, col, ratio;
};

static void print_block(FILE *f, const struct results *r, bool means,
			bool ratios, const struct tw *w)
{
	char buf[96];
	unsigned int k, mi, idx, np = results_nphases(r);

	pad(f, "", w->label, false);
	for (k = 0; means && k < r->nk; k++) {
		fputc(' ', f);
		pad(f, r->kernels[k], w->col, true);
	}
	for (k = 1; ratios && k < r->nk; k++) {
		snprintf(buf, sizeof(buf), "%s/%s", r->kernels[k],
			 r->kernels[0]);
		fputc(' ', f);
		pad(f, buf, w->ratio, true);
		fputc(' ', f);
		pad(f, "mde", T_MDE, true);
	}
	fputc('\n', f);
	for (mi = 0; mi < metric_count; mi++) {
		const struct metric_def *m = &metric_defs[mi];

		pad(f, m->label, w->label, false);
		for (k = 0; means && k < r->nk; k++) {
			struct stats_desc d;
			enum stats_state st = results_desc(r, k, mi, &d);

			fmt_desc(buf, sizeof(buf), st, &d, m->decimals);
			fputc(' ', f);
			pad(f, buf, w->col, true);
		}
		for (k = 1; ratios && k < r->nk; k++) {
			struct res_cmp c;

			results_compare(r, mi, k, 0, &c);
			print_cmp(f, &c, w->ratio);
		}
		fputc('\n', f);
	}
	for (idx = 0; idx < np; idx++) {
		const char *name = "?";
		char label[64];

		for (k = 0; k < r->nk; k++) {
			struct stats_desc d;

			if (results_phase_desc(r, k, idx, &d, &name))
				break;
		}
		snprintf(label, sizeof(label), "  %u %s s", idx + 1, name);
		pad(f, label, w->label, false);
		for (k = 0; means && k < r->nk; k++) {
			struct stats_desc d;
			bool have = results_phase_desc(r, k, idx, &d, NULL);

			fmt_desc(buf, sizeof(buf), have ? STATS_OK : STATS_NA,
				 &d, 2);
			fputc(' ', f);
			pad(f, buf, w->col, true);
		}
		for (k = 1; ratios && k < r->nk; k++) {
			struct res_cmp c;

			results_phase_compare(r, idx, k, &c);
			print_cmp(f, &c, w->ratio);
		}
		fputc('\n', f);
	}
}

void results_print_table_fit(FILE *f, const struct results *r,
			     unsigned int width)
{
	struct tw w = { T_LABEL, T_COL, T_RATIO };
	int nk = (int)r->nk, nr = nk ? nk - 1 : 0;
	int full = T_LABEL + nk * (T_COL + 1) + nr * (T_RATIO + T_MDE + 2);

	if (!width || full <= (int)width || nk < 2) {
		print_block(f, r, true, true, &w);
		return;
	}
	/*
	 * Too wide: the means, then the ratios under them, each block
	 * narrowed down to floors that still hold "15.59 ±0.00" and
	 * "15.59x [15.59, 15.59] better".
	 */
	while (w.label + nk * (w.col + 1) > (int)width && w.col > 12)
		w.col--;
	while (w.label + nk * (w.col + 1) > (int)width && w.label > 16)
		w.label--;
	while (w.label + w.ratio + T_MDE + 2 > (int)width && w.ratio > 30)
		w.ratio--;
	while (w.label + w.ratio + T_MDE + 2 > (int)width && w.label > 16)
		w.label--;
	print_block(f, r, true, false, &w);
	fputc('\n', f);
	print_block(f, r, false, true, &w);
}

void results_print_table(FILE *f, const struct results *r)
{
	results_print_table_fit(f, r, 0);
}
