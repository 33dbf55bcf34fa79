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
#define T_RATIO	43	/* "15.59x [15.59, 15.59] no significant change" */
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

/*
 * One comparison's two columns: the ratio and verdict with its gate's
 * mark (gate_mark()), and the mde.
 */
static void print_cmp(FILE *f, const struct res_cmp *c,
		      const struct res_gate *g, int width);

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
	const char *v = results_vword_word(results_vword(c));

	if (c->verdict == V_NOT_MEASURED && c->why[0])
		snprintf(buf, len, "%s: %.60s", v, c->why);
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

/*
 * The mark after a verdict of change when the gates are known (@g not
 * NULL): "!" a regression (a no_regression metric, worse, and significant
 * by Holm), "?" a no_regression metric worse at p < 0.05 but not by
 * Holm, "*" exploratory (any other metric: p < 0.05 alone).
 */
static const char *gate_mark(const struct res_cmp *c,
			     const struct res_gate *g)
{
	if (!g || (c->verdict != V_BETTER && c->verdict != V_WORSE &&
		   c->verdict != V_CHANGED))
		return "";
	if (!g->gated)
		return "*";
	if (g->regression)
		return "!";
	return c->verdict == V_WORSE ? "?" : "";
}

static void print_cmp(FILE *f, const struct res_cmp *c,
		      const struct res_gate *g, int width)
{
	char buf[96];
	size_t n;

	results_fmt_cmp(buf, sizeof(buf), c);
	/* a cell beyond its column: the interval goes (it is in the JSON) */
	if ((int)strlen(buf) > width && c->has_ratio &&
	    c->verdict != V_NOT_MEASURED)
		snprintf(buf, sizeof(buf), "%.2fx %s", c->ratio,
			 results_vword_word(results_vword(c)));
	n = strlen(buf);
	snprintf(buf + n, sizeof(buf) - n, "%s", gate_mark(c, g));
	/* a table narrowed to the terminal: the reason is in the JSON */
	if (c->verdict == V_NOT_MEASURED && width < T_RATIO &&
	    (int)strlen(buf) > width)
		snprintf(buf, sizeof(buf), "%s",
			 results_vword_word(RES_VW_NOT_MEASURED));
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

/*
 * The gates of every metric of kernels 1.. against the reference, at
 * [k * metric_count + mi]; NULL when they are not known (or no memory).
 */
static struct res_gate *table_gates(const struct results *r)
{
	struct res_gate *g;
	unsigned int k;

	if (!r->gate_set || r->nk < 2)
		return NULL;
	g = calloc((size_t)r->nk * metric_count, sizeof(*g));
	for (k = 1; g && k < r->nk; k++)
		results_gate_family(r, r->gated, k, NULL,
				    &g[k * metric_count]);
	return g;
}

static void print_block(FILE *f, const struct results *r, bool means,
			bool ratios, const struct tw *w)
{
	static const struct res_gate none;	/* a phase: not gated */
	struct res_gate *gates = ratios ? table_gates(r) : NULL;
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
			print_cmp(f, &c, gates ?
				  &gates[k * metric_count + mi] : NULL,
				  w->ratio);
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
			print_cmp(f, &c, gates ? &none : NULL, w->ratio);
		}
		fputc('\n', f);
	}
	free(gates);
}

/* A space that does not break a line of fill(). */
#define GLUE	"\a"

/* @text filled to @width columns (0: 78), words split at spaces. */
static void fill(FILE *f, const char *text, unsigned int width)
{
	const char *p = text, *e;
	unsigned int col = 0, n;

	if (!width)
		width = 78;
	while (*p) {
		while (*p == ' ')
			p++;
		e = strchr(p, ' ');
		if (!e)
			e = p + strlen(p);
		n = (unsigned int)(e - p);
		if (!n)
			break;
		if (col && col + 1 + n > width) {
			fputc('\n', f);
			col = 0;
		}
		if (col)
			fputc(' ', f);
		col += (col ? 1 : 0) + n;
		for (; p < e; p++)
			fputc(*p == GLUE[0] ? ' ' : *p, f);
	}
	if (col)
		fputc('\n', f);
}

/* What the marks of the verdicts say (gate_mark()), filled to @width. */
static void gate_legend(FILE *f, const struct results *r,
			unsigned int width)
{
	char text[2048];
	size_t off = 0;
	unsigned int mi, n = 0;

	if (!r->gate_set || r->nk < 2)
		return;
	for (mi = 0; mi < metric_count; mi++)
		n += r->gated[mi];
	if (n)
		off = (size_t)snprintf(text, sizeof(text),
			"verdicts: the no_regression metrics (%u:", n);
	for (mi = 0; n && mi < metric_count && off < sizeof(text); mi++)
		if (r->gated[mi])
			off += (size_t)snprintf(text + off, sizeof(text) - off,
						" %s", metric_defs[mi].key);
	if (n && off < sizeof(text))
		off += (size_t)snprintf(text + off, sizeof(text) - off,
			") gate exit 12: !" GLUE "a regression, worse and, with repeats, significant by Holm's step-down over the kernel's tested ones at %.0f%% family-wise; ?" GLUE "worse at p" GLUE "<" GLUE "%.2g alone, not by Holm: no regression.",
			RES_FWER_ALPHA * 100, RES_P_SIGNIFICANT);
	if (off < sizeof(text))
		snprintf(text + off, sizeof(text) - off,
			 "%s*" GLUE "exploratory: %s, each at p" GLUE "<" GLUE "%.2g uncorrected (of %u metrics, expect a couple of false verdicts on two identical kernels).",
			 n ? " " : "verdicts: ", n ? "any other metric" :
			 "no no_regression metric gates the exit code; every metric",
			 RES_P_SIGNIFICANT, metric_count);
	fill(f, text, width);
}

/* The means and the ratios, side by side or one under the other. */
static void print_tables(FILE *f, const struct results *r,
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

void results_print_table_fit(FILE *f, const struct results *r,
			     unsigned int width)
{
	char id[1024];

	print_tables(f, r, width);
	gate_legend(f, r, width);
	if (results_identity(r, id, sizeof(id)))
		fprintf(f, "%s\n", id);
}

void results_print_table(FILE *f, const struct results *r)
{
	results_print_table_fit(f, r, 0);
}
