// SPDX-License-Identifier: GPL-2.0
/*
 * email: a run's results as a plain-text table for a cover letter
 * (report --format=text-email). See email.h.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "email.h"
#include "metrics.h"
#include "results.h"

/*
 * Column widths: label (the registry's labels are at most 22), each
 * mean, ratio with interval ("31.98 [31.90, 32.06]"), verdict. A row is
 * the minimum detectable effect ("1.5%", ">999%"). A row is 78 columns.
 */
#define E_LABEL		22
#define E_MEAN		9
#define E_RATIO		20
#define E_MDE		5
#define E_VERDICT	7
#define E_ROW		(E_LABEL + 1 + E_MEAN + 1 + E_MEAN + 2 + E_RATIO + \
			 1 + E_MDE + 1 + E_VERDICT)

_Static_assert(E_ROW <= EMAIL_WIDTH, "a row fits the mail");

/* Columns of @s: its code points (UTF-8 continuation bytes do not count). */
static size_t cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* The bytes of the first @n code points of @s. */
static size_t head_bytes(const char *s, size_t n)
{
	size_t b = 0;

	while (s[b] && n) {
		b++;
		while (((unsigned char)s[b] & 0xc0) == 0x80)
			b++;
		n--;
	}
	return b;
}

#define GLUE		"\a"

/*
 * A paragraph filled to EMAIL_WIDTH: words separated by one space,
 * continuation lines indented by @indent, a word longer than a line cut
 * where the line ends.
 */
struct para {
	FILE *f;
	char buf[4 * EMAIL_WIDTH + 1];
	size_t len, cols;
	unsigned int indent;
	bool words;		/* the line has a word */
};

static void para_start(struct para *p, FILE *f, unsigned int indent)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->indent = indent;
}

static void para_append(struct para *p, const char *s, size_t bytes)
{
	size_t i;

	/* GLUE: a space that does not break the line */
	for (i = 0; i < bytes; i++)
		p->buf[p->len + i] = s[i] == GLUE[0] ? ' ' : s[i];
	p->len += bytes;
	p->buf[p->len] = 0;
	p->cols = cols(p->buf);
	p->words = true;
}

static void para_flush(struct para *p)
{
	if (p->words)
		fprintf(p->f, "%s\n", p->buf);
	memset(p->buf, ' ', p->indent);
	p->buf[p->indent] = 0;
	p->len = p->cols = p->indent;
	p->words = false;
}

static void para_word(struct para *p, const char *w)
{
	size_t wc = cols(w), room, b;

	if (!wc)
		return;
	if (p->words && p->cols + 1 + wc > EMAIL_WIDTH)
		para_flush(p);
	if (p->words)
		para_append(p, " ", 1);
	while (p->cols + wc > EMAIL_WIDTH) {
		room = EMAIL_WIDTH - p->cols;
		b = head_bytes(w, room);
		para_append(p, w, b);
		para_flush(p);
		w += b;
		wc -= room;
	}
	para_append(p, w, strlen(w));
}

/* The words of @text (split at spaces). */
static void para_text(struct para *p, const char *text)
{
	char word[4 * EMAIL_WIDTH + 1];
	const char *s = text, *e;

	while (*s) {
		while (*s == ' ')
			s++;
		e = strchr(s, ' ');
		if (!e)
			e = s + strlen(s);
		if (e > s) {
			if ((size_t)(e - s) < sizeof(word)) {
				memcpy(word, s, (size_t)(e - s));
				word[e - s] = 0;
				para_word(p, word);
			} else {
				/* a word beyond the buffer: cut anyway */
				snprintf(word, sizeof(word), "%.*s",
					 (int)(e - s), s);
				para_word(p, word);
			}
		}
		s = e;
	}
}

static void para_end(struct para *p)
{
	para_flush(p);
}

/* One paragraph of @text, continuation lines indented by @indent. */
static void paragraph(FILE *f, unsigned int indent, const char *text)
{
	struct para p;

	para_start(&p, f, indent);
	para_text(&p, text);
	para_end(&p);
}

const char *email_verdict(const struct res_cmp *c)
{
	return results_vword_abbr(results_vword(c));
}

/*
 * A mean in E_MEAN columns: the metric's decimals, else fewer
 * significant digits until it fits ("%.1g" always does).
 */
static void fmt_mean(char *buf, size_t len, enum stats_state st,
		     const struct stats_desc *d, int dec)
{
	int prec;

	if (st == STATS_MISSING) {
		snprintf(buf, len, "missing");
		return;
	}
	if (st != STATS_OK) {
		snprintf(buf, len, "n/a");
		return;
	}
	/* the metric's decimals, unless they would say 0 of a non-zero */
	if (snprintf(buf, len, "%.*f", dec, d->mean) <= E_MEAN &&
	    (d->mean == 0 || fabs(d->mean) >= 0.5 * pow(10, -dec)))
		return;
	for (prec = 4; prec > 1; prec--)
		if (snprintf(buf, len, "%.*g", prec, d->mean) <= E_MEAN)
			return;
	snprintf(buf, len, "%.1g", d->mean);
}

/* "R [LO, HI]" with @prec: %.2f (prec 0) or %.<prec>g; fits E_RATIO? */
static bool try_ratio(char *buf, size_t len, const struct res_cmp *c,
		      int prec, bool ci)
{
	int n;

	/* two decimals would say 0.00 of a ratio that is not 0 */
	if (!prec && c->ratio != 0 && fabs(c->ratio) < 0.005)
		return false;
	if (!prec && ci)
		n = snprintf(buf, len, "%.2f [%.2f, %.2f]", c->ratio, c->lo,
			     c->hi);
	else if (!prec)
		n = snprintf(buf, len, "%.2f", c->ratio);
	else if (ci)
		n = snprintf(buf, len, "%.*g [%.*g, %.*g]", prec, c->ratio,
			     prec, c->lo, prec, c->hi);
	else
		n = snprintf(buf, len, "%.*g", prec, c->ratio);
	return n >= 0 && n <= E_RATIO;
}

/*
 * The ratio and its interval in E_RATIO columns: two decimals, else 3
 * or 2 significant digits, else the ratio alone ("%.2g" always fits).
 */
static void fmt_ratio(char *buf, size_t len, const struct res_cmp *c)
{
	if (c->verdict == V_NOT_MEASURED) {
		snprintf(buf, len, "-");
		return;
	}
	if (!c->has_ratio) {
		snprintf(buf, len, "ref mean 0");
		return;
	}
	if (c->has_ci && (try_ratio(buf, len, c, 0, true) ||
			  try_ratio(buf, len, c, 3, true) ||
			  try_ratio(buf, len, c, 2, true)))
		return;
	if (!try_ratio(buf, len, c, 0, false) &&
	    !try_ratio(buf, len, c, 3, false))
		try_ratio(buf, len, c, 2, false);
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

static void print_header(FILE *f, const struct email_run *e)
{
	const struct results *r = e->res;
	unsigned int k, n0 = r->nk ? repeats(r, 0) : 0;
	char word[SCN_NAME_MAX + SCN_KERNEL_MAX + 32];
	bool same = true;
	struct para p;

	para_start(&p, f, 2);
	para_text(&p, "swapctl: scenario");
	snprintf(word, sizeof(word), "%.*s%s", SCN_NAME_MAX,
		 e->scenario && *e->scenario ? e->scenario : "?",
		 e->run && *e->run ? "," : "");
	para_word(&p, word);
	if (e->run && *e->run) {
		para_word(&p, "run");
		para_word(&p, e->run);
	}
	para_end(&p);

	para_start(&p, f, 2);
	para_word(&p, "kernels:");
	for (k = 0; k < r->nk; k++) {
		snprintf(word, sizeof(word), "%s%s", r->kernels[k],
			 !k ? " (reference)" : "");
		if (k + 1 < r->nk)
			strcat(word, ",");
		para_text(&p, word);
	}
	para_end(&p);

	for (k = 1; k < r->nk; k++)
		same = same && repeats(r, k) == n0;
	para_start(&p, f, 2);
	para_word(&p, "repeats:");
	if (same) {
		snprintf(word, sizeof(word), "%u per kernel", n0);
		para_text(&p, word);
	}
	for (k = 0; !same && k < r->nk; k++) {
		snprintf(word, sizeof(word), "%s %u%s", r->kernels[k],
			 repeats(r, k), k + 1 < r->nk ? "," : "");
		para_text(&p, word);
	}
	para_end(&p);
}

/* The guests whose status is not "pass", or that all passed. */
static void print_guests(FILE *f, const struct email_run *e)
{
	const struct results *r = e->res;
	char word[SCN_KERNEL_MAX + 64];
	unsigned int i, bad = 0;
	struct para p;

	if (!e->status)
		return;
	for (i = 0; i < r->ng; i++)
		bad += !e->status[i] || strcmp(e->status[i], "pass");
	if (!bad) {
		fprintf(f, "guests: %u, all passed\n", r->ng);
		return;
	}
	para_start(&p, f, 2);
	snprintf(word, sizeof(word), "guests: %u, %u did not pass:", r->ng,
		 bad);
	para_text(&p, word);
	for (i = 0; i < r->ng; i++) {
		if (e->status[i] && !strcmp(e->status[i], "pass"))
			continue;
		snprintf(word, sizeof(word), "%s-%u (%s)%s", r->g[i].kernel,
			 r->g[i].rep, e->status[i] ? e->status[i] : "?",
			 --bad ? "," : "");
		para_text(&p, word);
	}
	para_end(&p);
}

/* A row; a label beyond E_LABEL columns is cut on a code point. */
static void row(FILE *f, const char *label, const char *a, const char *b,
		const char *ratio, const char *mde, const char *verdict)
{
	size_t lb = head_bytes(label, E_LABEL), lc = cols(label);

	fprintf(f, "%.*s%*s %*s %*s  %-*s %*s %s\n", (int)lb, label,
		lc < E_LABEL ? (int)(E_LABEL - lc) : 0, "", E_MEAN, a,
		E_MEAN, b, E_RATIO, ratio, E_MDE, mde, verdict);
}

static void phase_rows(FILE *f, const struct results *r, unsigned int k)
{
	unsigned int idx, np = results_nphases(r);
	char label[64], base[32], mean[32], ratio[64], mde[16];

	for (idx = 0; idx < np; idx++) {
		const char *name = "?";
		struct stats_desc d;
		struct res_cmp c;
		bool have;

		if (!results_phase_desc(r, 0, idx, &d, &name))
			results_phase_desc(r, k, idx, &d, &name);
		snprintf(label, sizeof(label), "phase %u %s s", idx + 1, name);
		have = results_phase_desc(r, 0, idx, &d, NULL);
		fmt_mean(base, sizeof(base), have ? STATS_OK : STATS_NA, &d,
			 2);
		have = results_phase_desc(r, k, idx, &d, NULL);
		fmt_mean(mean, sizeof(mean), have ? STATS_OK : STATS_NA, &d,
			 2);
		results_phase_compare(r, idx, k, &c);
		fmt_ratio(ratio, sizeof(ratio), &c);
		results_fmt_mde(mde, sizeof(mde), &c);
		row(f, label, base, mean, ratio, mde, email_verdict(&c));
	}
}

/* Whether metric @mi has a value on kernel @k. */
static bool measured(const struct results *r, unsigned int k,
		     unsigned int mi)
{
	struct stats_desc d;

	return results_desc(r, k, mi, &d) == STATS_OK;
}

/* Whether metric @mi has a value on some kernel of the run. */
static bool measured_any(const struct results *r, unsigned int mi)
{
	unsigned int k;

	for (k = 0; k < r->nk; k++)
		if (measured(r, k, mi))
			return true;
	return false;
}

/*
 * The block heading: "B vs A", columns named after the kernels when
 * they fit, else "A: ..." and "B: ..." lines and columns A and B.
 */
static void block_heading(FILE *f, const struct results *r, unsigned int k)
{
	const char *a = r->kernels[0], *b = r->kernels[k];

	if (cols(a) <= E_MEAN && cols(b) <= E_MEAN) {
		fprintf(f, "%s vs %s\n", b, a);
	} else {
		fprintf(f, "A: %s (reference)\nB: %s\n", a, b);
		a = "A";
		b = "B";
	}
	row(f, "metric", a, b, "ratio [95% CI]", "mde", "verdict");
}

/* Kernel @k against the reference: a heading, then a row per metric. */
static void print_block(FILE *f, const struct results *r, unsigned int k)
{
	char base[32], mean[32], ratio[64], mde[16];
	unsigned int mi;

	block_heading(f, r, k);
	for (mi = 0; mi < metric_count; mi++) {
		const struct metric_def *m = &metric_defs[mi];
		struct stats_desc d;
		enum stats_state st;
		struct res_cmp c;

		if (!measured_any(r, mi))
			continue;	/* listed under the footnote */
		st = results_desc(r, 0, mi, &d);
		fmt_mean(base, sizeof(base), st, &d, m->decimals);
		st = results_desc(r, k, mi, &d);
		fmt_mean(mean, sizeof(mean), st, &d, m->decimals);
		results_compare(r, mi, k, 0, &c);
		fmt_ratio(ratio, sizeof(ratio), &c);
		if (!c.has_ratio && c.verdict != V_NOT_MEASURED &&
		    st == STATS_OK && d.mean == 0)
			snprintf(ratio, sizeof(ratio), "both 0");
		results_fmt_mde(mde, sizeof(mde), &c);
		row(f, m->label, base, mean, ratio, mde, email_verdict(&c));
	}
	phase_rows(f, r, k);
}

static const char footnote_head[] =
	"Means over each kernel's repeats. ratio: the kernel's mean over "
	"the reference's, with its 95% interval (delta method). mde: the "
	"smallest change these repeats could have called significant (80% "
	"power), never below the metric's minimum effect. verdict: "
	"better" GLUE "or" GLUE "worse: significant (Welch's p < 0.05 and a "
	"change beyond the metric's minimum effect, see swapctl metrics); "
	"changed: significant on a neutral metric;";

static const char footnote_tail[] =
	"only counts the workload fixes are judged on one run. "
	"n/a: nothing to divide; missing: the kernel lacks the counter; "
	"ref" GLUE "mean" GLUE "0: no ratio; both" GLUE "0: no ratio, no "
	"difference. phase" GLUE "N: the time of the workload's Nth "
	"phase, judged like workload s. Each verdict is a test of its own "
	"(exploratory): over all the metrics, expect a couple of false "
	"ones on two identical kernels. Only the scenario's no_regression "
	"metrics decide swapctl run's exit code, tested together with "
	"Holm's correction at 5% (swapctl(1)).";

/* "<abbr>: <word><end>", its spaces glued: the legend of a short verdict */
static void legend(struct para *p, enum res_vword w, const char *end)
{
	char buf[80], *c;

	snprintf(buf, sizeof(buf), "%s: %s%s", results_vword_abbr(w),
		 results_vword_word(w), end);
	for (c = buf; *c; c++)
		if (*c == ' ')
			*c = GLUE[0];
	para_text(p, buf);
}

/* The footnote; its verdicts' legend from the vocabulary (verdict.c). */
static void print_legend(FILE *f)
{
	struct para p;

	para_start(&p, f, 0);
	para_text(&p, footnote_head);
	legend(&p, RES_VW_NO_CHANGE, ";");
	legend(&p, RES_VW_NOT_MEASURED, ";");
	legend(&p, RES_VW_ONE_RUN, ";");
	para_text(&p, footnote_tail);
	para_end(&p);
}

/* The footnote, then the metrics no kernel has a value of. */
static void print_footnote(FILE *f, const struct results *r)
{
	unsigned int mi, n = 0;
	char word[SCN_METRIC_MAX + 2];
	struct para p;

	print_legend(f);
	for (mi = 0; mi < metric_count; mi++)
		n += !measured_any(r, mi);
	if (!n)
		return;
	para_start(&p, f, 2);
	para_text(&p, "Not measured on any kernel:");
	for (mi = 0; mi < metric_count; mi++) {
		if (measured_any(r, mi))
			continue;
		snprintf(word, sizeof(word), "%s%s", metric_defs[mi].key,
			 --n ? "," : ".");
		para_word(&p, word);
	}
	para_end(&p);
}

/* Under the table: the host of each repeat, and the re-runs. */
static void print_hosts(FILE *f, const struct results *r)
{
	char buf[RES_MAX_HOSTS * 2 * CONFIG_URI_MAX + 512], *line, *nl;

	if (!results_host_lines(r, buf, sizeof(buf)))
		return;
	fputc('\n', f);
	for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		paragraph(f, 2, line);
	}
}

void email_print(FILE *f, const struct email_run *e)
{
	const struct results *r = e->res;
	char line[1200];
	unsigned int k;

	print_header(f, e);
	print_guests(f, e);
	if (r->nk < 2) {
		fprintf(f, "\nOne kernel: nothing to compare.\n");
		return;
	}
	for (k = 1; k < r->nk; k++) {
		fputc('\n', f);
		print_block(f, r, k);
	}
	print_hosts(f, r);
	if (results_identity(r, line, sizeof(line))) {
		fputc('\n', f);
		paragraph(f, 2, line);
	}
	if (e->host_warning && e->host_warning[0]) {
		snprintf(line, sizeof(line), "Host: %s (host.json).",
			 e->host_warning);
		fputc('\n', f);
		paragraph(f, 2, line);
	}
	fputc('\n', f);
	print_footnote(f, r);
}
