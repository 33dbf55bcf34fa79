// SPDX-License-Identifier: GPL-2.0
/*
 * screen: the model of `swapctl top`'s view. See screen.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "screen.h"
#include "util.h"

#define LABEL_W		24
#define COL_W		18
#define RATIO_W		17
#define SPARK_LABEL_W	14
#define NO_NRSWP	"no nrswp counters"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

unsigned int screen_cells(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Cut @s to @cells terminal cells, on a code point boundary. */
static void cut(char *s, unsigned int cells)
{
	unsigned int n = 0;
	char *p;

	for (p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80) {
			if (n == cells) {
				*p = '\0';
				return;
			}
			n++;
		}
	}
}

struct builder {
	const struct screen_input *in;
	struct screen *out;
	unsigned int width;
	unsigned int limit;		/* lines add() may fill, 0: no limit */
	/* the table's columns, fitted to the width: fit_columns() */
	unsigned int label_w, col_w, ratio_w;
};

/*
 * Shrink the label, value and ratio columns (never below a floor that
 * still shows "6.1.192-swa", "13.94x") until the table fits the width,
 * so that a narrow terminal keeps the ratio columns instead of cutting
 * them off the right edge.
 */
static void fit_columns(struct builder *b)
{
	unsigned int n = b->in->ncols, nr = n ? n - 1 : 0;

	b->label_w = LABEL_W;
	b->col_w = COL_W;
	b->ratio_w = RATIO_W;
	while (b->label_w + n * b->col_w + nr * b->ratio_w > b->width) {
		if (b->col_w > 12 && b->col_w >= b->ratio_w)
			b->col_w--;
		else if (nr && b->ratio_w > 8)
			b->ratio_w--;
		else if (b->label_w > 18)
			b->label_w--;
		else if (b->col_w > 9)
			b->col_w--;
		else if (b->label_w > 12)
			b->label_w--;
		else
			break;	/* the right-most columns are cut */
	}
}

static struct screen_line *add(struct builder *b, enum screen_attr attr,
			       const char *fmt, ...) __printf(3, 4);

static struct screen_line *add(struct builder *b, enum screen_attr attr,
			       const char *fmt, ...)
{
	static struct screen_line spare;
	struct screen_line *l;
	va_list ap;

	if (b->out->n >= SCREEN_MAX_LINES ||
	    (b->limit && b->out->n >= b->limit)) {
		spare.text[0] = '\0';
		return &spare;
	}
	l = &b->out->line[b->out->n++];
	l->attr = attr;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
	cut(l->text, b->width);
	return l;
}

/* Append @s padded (right-aligned if @right) to @w cells to @line. */
static void cell(char *line, size_t len, const char *s, unsigned int w,
		 bool right)
{
	char tmp[SCREEN_MAX_WIDTH * 3 + 1];
	unsigned int n;
	size_t used = strlen(line);

	snprintf(tmp, sizeof(tmp), "%s", s);
	/* keep one blank between columns */
	cut(tmp, w > 1 ? w - 1 : w);
	n = screen_cells(tmp);
	if (right)
		snprintf(line + used, len - used, "%*s%s", (int)(w - n), "",
			 tmp);
	else
		snprintf(line + used, len - used, "%s%*s", tmp, (int)(w - n),
			 "");
}

static bool has_nrswp(const struct track *t)
{
	if (t->npts)
		return t->pts[t->npts - 1].present & (1u << TF_NRSWPOUT);
	return t->hello_nrswp || !t->hello;
}

static void fmt_val(char *buf, size_t len, struct stats_val v, int decimals,
		    bool nrswp_row)
{
	if (v.state == STATS_MISSING) {
		snprintf(buf, len, "%s", nrswp_row ? NO_NRSWP : "-");
		return;
	}
	if (v.state == STATS_OK && decimals < 0)
		decimals = fabs(v.v) >= 100 ? 0 : 1;
	stats_fmt(buf, len, v, decimals);
}

/*
 * Value cells of one metric: the columns, then each other column's ratio
 * to the first (the run's reference kernel).
 */
static void metric_row(struct builder *b, const char *label,
		       const struct metric_def *m, const struct stats_val *v,
		       bool rate)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[96];
	bool good = false;
	unsigned int i;

	line[0] = '\0';
	cell(line, sizeof(line), label, b->label_w, false);
	for (i = 0; i < in->ncols; i++) {
		fmt_val(buf, sizeof(buf), v[i], rate ? -1 : m->decimals,
			(m->den && !strncmp(m->den, "nrswp", 5)) ||
			(m->vmstat && !strncmp(m->vmstat, "nrswp", 5)));
		cell(line, sizeof(line), buf, b->col_w, true);
	}
	for (i = 1; i < in->ncols; i++) {
		struct stats_val q = stats_ratio(v[i], v[0]);

		if (q.state == STATS_OK) {
			snprintf(buf, sizeof(buf), "%.2fx", q.v);
			good = good || (m->dir == METRIC_HIGHER_BETTER &&
					m->num && q.v > 1.5);
		} else {
			snprintf(buf, sizeof(buf), "%s",
				 q.state == STATS_NA ? "n/a" : "-");
		}
		cell(line, sizeof(line), buf, b->ratio_w, true);
	}
	add(b, good ? SA_GOOD : SA_NORMAL, "%s", line);
}

static void status_text(const struct screen_col *c, bool done, char *buf,
			size_t len, enum screen_attr *attr)
{
	const struct track *t = c->track;

	*attr = SA_NORMAL;
	if (!c->exists) {
		snprintf(buf, len, "%s", done ? "no data" : "waiting");
		*attr = SA_DIM;
	} else if (!t->have_result) {
		snprintf(buf, len, "%s", done ? "no result" : "running");
		if (done)
			*attr = SA_BAD;
	} else if (t->status == STREAM_PASS) {
		snprintf(buf, len, "pass");
		*attr = SA_GOOD;
	} else if (t->status == STREAM_CORRUPT) {
		snprintf(buf, len, "CORRUPT %llu pages",
			 (unsigned long long)t->pages_corrupt);
		*attr = SA_BAD;
	} else if (t->status == STREAM_OOM) {
		snprintf(buf, len, "oom");
	} else {
		snprintf(buf, len, "error");
		*attr = SA_BAD;
	}
}

/* The rows naming the columns: kernels and their ratios, phase, status. */
static void head_rows(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[96];
	enum screen_attr attr, worst;
	unsigned int i;

	line[0] = '\0';
	cell(line, sizeof(line), "", b->label_w, false);
	for (i = 0; i < in->ncols; i++)
		cell(line, sizeof(line), in->cols[i].label, b->col_w, true);
	for (i = 1; i < in->ncols; i++) {
		char k0[48], ki[48], *dash;

		/* "patched/baseline": the kernels, without the repeat */
		snprintf(k0, sizeof(k0), "%s", in->cols[0].label);
		snprintf(ki, sizeof(ki), "%s", in->cols[i].label);
		dash = strrchr(k0, '-');
		if (dash)
			*dash = '\0';
		dash = strrchr(ki, '-');
		if (dash)
			*dash = '\0';
		snprintf(buf, sizeof(buf), "%s/%s", ki, k0);
		cell(line, sizeof(line), buf, b->ratio_w, true);
	}
	add(b, SA_HEADER, "%s", line);

	line[0] = '\0';
	cell(line, sizeof(line), "kernel", b->label_w, false);
	for (i = 0; i < in->ncols; i++)
		cell(line, sizeof(line), in->cols[i].track->kernel[0] ?
		     in->cols[i].track->kernel : "?", b->col_w, true);
	add(b, SA_NORMAL, "%s", line);

	line[0] = '\0';
	cell(line, sizeof(line), "phase", b->label_w, false);
	for (i = 0; i < in->ncols; i++) {
		const struct track_phase *p =
			track_phase_now(in->cols[i].track);

		if (p)
			snprintf(buf, sizeof(buf), "%s%s", p->name,
				 p->ended ? " (end)" : "");
		else
			snprintf(buf, sizeof(buf), "-");
		cell(line, sizeof(line), buf, b->col_w, true);
	}
	add(b, SA_NORMAL, "%s", line);

	line[0] = '\0';
	worst = SA_NORMAL;
	cell(line, sizeof(line), "status", b->label_w, false);
	for (i = 0; i < in->ncols; i++) {
		status_text(&in->cols[i], in->done, buf, sizeof(buf), &attr);
		if (attr == SA_BAD || (attr == SA_GOOD && worst != SA_BAD))
			worst = attr;
		cell(line, sizeof(line), buf, b->col_w, true);
	}
	add(b, worst, "%s", line);
}

/*
 * The registry's live metrics over the last interval (@win), then every
 * metric since boot (@tot), one row each.
 */
static void metric_rows(struct builder *b, const struct metric_in *win,
			const struct metric_in *tot)
{
	const struct screen_input *in = b->in;
	unsigned int i, mi;

	/* the registry's live metrics over the last interval */
	for (mi = 0; mi < metric_count; mi++) {
		const struct metric_def *m = &metric_defs[mi];
		struct stats_val v[SCREEN_MAX_COLS];
		bool rate = !m->num && strcmp(m->unit, "pages/I/O");
		char label[64];

		if (!m->live)
			continue;
		for (i = 0; i < in->ncols; i++) {
			v[i] = metric_eval(m, &win[i]);
			if (rate && v[i].state == STATS_OK)
				v[i] = win[i].total.dt_s > 0 ?
				       stats_ok(v[i].v / win[i].total.dt_s) :
				       stats_ratio(v[i], stats_ok(0));
		}
		snprintf(label, sizeof(label), "%s%s", m->label,
			 rate ? "/s" : "");
		metric_row(b, label, m, v, rate);
	}
	/* and every metric of the registry since boot */
	add(b, SA_HEADER, "since boot (swapctl metrics)");
	for (mi = 0; mi < metric_count; mi++) {
		const struct metric_def *m = &metric_defs[mi];
		struct stats_val v[SCREEN_MAX_COLS];

		for (i = 0; i < in->ncols; i++)
			v[i] = metric_eval(m, &tot[i]);
		metric_row(b, m->label, m, v, false);
	}
}

/* Swap used, the stream's line counts, and each guest's error and fault. */
static void tail_rows(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[96];
	enum screen_attr worst;
	unsigned int i;

	/* swap used: a level, not a rate */
	line[0] = '\0';
	cell(line, sizeof(line), "swap used MiB", b->label_w, false);
	for (i = 0; i < in->ncols; i++) {
		const struct track *t = in->cols[i].track;

		if (t->npts)
			snprintf(buf, sizeof(buf), "%.1f/%.0f",
				 (double)t->pts[t->npts - 1].swap_used_kb /
				 1024,
				 (double)t->pts[t->npts - 1].swap_size_kb /
				 1024);
		else
			snprintf(buf, sizeof(buf), "-");
		cell(line, sizeof(line), buf, b->col_w, true);
	}
	add(b, SA_NORMAL, "%s", line);

	line[0] = '\0';
	worst = SA_DIM;
	cell(line, sizeof(line), "lines ok/bad/lost", b->label_w, false);
	for (i = 0; i < in->ncols; i++) {
		const struct stream_state *st = in->cols[i].st;

		if (st) {
			unsigned long long bad = st->malformed + st->too_long +
						 st->absurd + st->seq_dups;

			snprintf(buf, sizeof(buf), "%llu/%llu/%llu",
				 (unsigned long long)st->ok, bad,
				 (unsigned long long)st->seq_missing);
			if (bad || st->seq_missing)
				worst = SA_BAD;
		} else {
			snprintf(buf, sizeof(buf), "-");
		}
		cell(line, sizeof(line), buf, b->col_w, true);
	}
	add(b, worst, "%s", line);

	for (i = 0; i < in->ncols; i++) {
		const struct track *t = in->cols[i].track;

		if (t->have_result && t->status == STREAM_ERROR)
			add(b, SA_BAD, "%s: error: %s", in->cols[i].label,
			    t->reason);
		/* the newest fault event of each guest */
		if (t->nfaults) {
			const struct track_fault *f = &t->faults[t->nfaults - 1];

			add(b, SA_NORMAL, "%s: fault %s %s%s%.160s",
			    in->cols[i].label, f->name,
			    f->end ? "end" : "start", f->detail[0] ? ": " : "",
			    f->detail);
		}
	}
}

static void table(struct builder *b)
{
	const struct screen_input *in = b->in;
	static struct metric_in win[SCREEN_MAX_COLS], tot[SCREEN_MAX_COLS];
	unsigned int i;

	for (i = 0; i < in->ncols; i++) {
		metric_in_window(&win[i], in->cols[i].track,
				 (uint64_t)(in->interval_s * 1e9));
		metric_in_init(&tot[i], in->cols[i].track);
	}
	head_rows(b);
	metric_rows(b, win, tot);
	tail_rows(b);
}

static void sparklines(struct builder *b)
{
	static const char *const utf8[] = {
		"\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char ascii[] = "_.-=+*#@";
	const struct screen_input *in = b->in;
	struct stats_val v[SCREEN_MAX_COLS][SCREEN_MAX_WIDTH];
	bool blk[SCREEN_MAX_COLS];
	uint64_t step = (uint64_t)(in->interval_s * 1e9);
	double max = 0;
	unsigned int w, i, k;

	if (b->width < SPARK_LABEL_W + 20 || !step)
		return;
	w = b->width - SPARK_LABEL_W - 12;
	for (i = 0; i < in->ncols; i++) {
		const struct track *t = in->cols[i].track;
		uint64_t span = track_span_ns(t);
		uint64_t t0 = span > (uint64_t)w * step ?
			      span - (uint64_t)w * step : 0;

		blk[i] = !has_nrswp(t);
		track_series(t, blk[i] ? TRACK_M_DEV_WR_PPIO :
				   TRACK_M_WR_PPIO, t0, step, w, v[i]);
		for (k = 0; k < w; k++)
			if (v[i][k].state == STATS_OK && v[i][k].v > max)
				max = v[i][k].v;
	}
	add(b, SA_HEADER, "write pages/IO, one mark per %.2g s, top = %.1f",
	    in->interval_s, max);
	for (i = 0; i < in->ncols; i++) {
		char line[SCREEN_MAX_WIDTH * 3 + 1];
		size_t used;

		line[0] = '\0';
		cell(line, sizeof(line), in->cols[i].label, SPARK_LABEL_W,
		     false);
		used = strlen(line);
		for (k = 0; k < w && used + 4 < sizeof(line); k++) {
			const struct stats_val *x = &v[i][k];
			int lvl;

			if (x->state != STATS_OK || max <= 0) {
				line[used++] = ' ';
				continue;
			}
			lvl = (int)ceil(x->v / max * 8) - 1;
			if (lvl < 0)
				lvl = 0;
			if (lvl > 7)
				lvl = 7;
			if (in->utf8) {
				memcpy(line + used, utf8[lvl], 3);
				used += 3;
			} else {
				line[used++] = ascii[lvl];
			}
		}
		line[used] = '\0';
		if (blk[i])
			snprintf(line + used, sizeof(line) - used, " (blk)");
		add(b, SA_NORMAL, "%s", line);
	}
	for (i = 0; i < in->ncols; i++)
		if (blk[i])
			add(b, SA_DIM,
			    "%s: %s: pages/IO from the swap device's blk stats",
			    in->cols[i].label, NO_NRSWP);
}

static void histogram(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[32];
	unsigned int i, k;

	add(b, SA_HEADER,
	    "write I/Os by batch size (pages/IO of their sample interval)");
	line[0] = '\0';
	cell(line, sizeof(line), "", SPARK_LABEL_W, false);
	for (k = 0; k < TRACK_HIST_BUCKETS; k++) {
		unsigned int lo = track_hist_lo(k);

		if (k == TRACK_HIST_BUCKETS - 1)
			snprintf(buf, sizeof(buf), "%u+", lo);
		else if (track_hist_lo(k + 1) - 1 == lo)
			snprintf(buf, sizeof(buf), "%u", lo);
		else
			snprintf(buf, sizeof(buf), "%u-%u", lo,
				 track_hist_lo(k + 1) - 1);
		cell(line, sizeof(line), buf, 7, true);
	}
	add(b, SA_DIM, "%s", line);
	for (i = 0; i < in->ncols; i++) {
		const struct track *t = in->cols[i].track;
		uint64_t total = 0;

		for (k = 0; k < TRACK_HIST_BUCKETS; k++)
			total += t->hist[k];
		line[0] = '\0';
		cell(line, sizeof(line), in->cols[i].label, SPARK_LABEL_W,
		     false);
		for (k = 0; k < TRACK_HIST_BUCKETS; k++) {
			if (total)
				snprintf(buf, sizeof(buf), "%.0f%%",
					 100.0 * (double)t->hist[k] /
					 (double)total);
			else
				snprintf(buf, sizeof(buf), "-");
			cell(line, sizeof(line), buf, 7, true);
		}
		if (total && t->hist_from_dev)
			snprintf(line + strlen(line),
				 sizeof(line) - strlen(line), "  (blk)");
		add(b, SA_NORMAL, "%s", line);
	}
}

static void help(struct builder *b)
{
	add(b, SA_HEADER, "keys");
	add(b, SA_NORMAL, "  q        quit");
	add(b, SA_NORMAL, "  space    pause / resume");
	add(b, SA_NORMAL, "  + / -    longer / shorter interval (%.2g s)",
	    b->in->interval_s);
	add(b, SA_NORMAL, "  tab      next repetition (%u of %u)", b->in->rep,
	    b->in->nreps);
	add(b, SA_NORMAL, "  h        this help");
	add(b, SA_DIM,
	    "rates are over the last interval; run: rows are since boot");
	add(b, SA_DIM,
	    "pages/IO = pswpout/nrswpout (write), pswpin/nrswpin (read)");
}

void screen_build(const struct screen_input *in, struct screen *out)
{
	static const char keys[] =
		"q quit  space pause  +/- interval  tab repetition  h help";
	struct builder b = {
		.in = in, .out = out, .width = in->width, .limit = in->height,
	};
	char clock[32] = "";

	out->n = 0;
	if (b.width > SCREEN_MAX_WIDTH)
		b.width = SCREEN_MAX_WIDTH;
	if (b.width < SCREEN_MIN_WIDTH)
		b.width = SCREEN_MIN_WIDTH;
	fit_columns(&b);
	/* a short terminal: the last line stays for the keys */
	if (in->height && in->keys)
		b.limit = in->height > 2 ? in->height - 1 : 1;
	if (in->clock_s >= 0)
		snprintf(clock, sizeof(clock), "  t=%.1fs", in->clock_s);
	add(&b, SA_TITLE, "swapctl top  %s%s%s  [%s%s]%s  rep %u/%u",
	    in->run, in->scenario && in->scenario[0] ? "  " : "",
	    in->scenario ? in->scenario : "", in->mode,
	    in->paused ? ", paused" : "", clock, in->rep, in->nreps);
	if (!in->ncols) {
		add(&b, SA_DIM, "no guest has started yet");
		return;
	}
	if (in->help) {
		/* first, so that a short terminal shows it */
		help(&b);
		add(&b, SA_NORMAL, "%s", "");
		table(&b);
		goto keys;
	}
	table(&b);
	add(&b, SA_NORMAL, "%s", "");
	sparklines(&b);
	add(&b, SA_NORMAL, "%s", "");
	histogram(&b);
	if (in->keys && !in->height)
		add(&b, SA_NORMAL, "%s", "");
keys:
	if (!in->keys)
		return;
	b.limit = 0;
	if (in->height && out->n >= in->height)
		out->n = in->height - 1;
	add(&b, SA_DIM, "%s", keys);
}

void screen_print(const struct screen *s, FILE *f)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		size_t n = strlen(s->line[i].text);

		while (n && s->line[i].text[n - 1] == ' ')
			n--;
		fprintf(f, "%.*s\n", (int)n, s->line[i].text);
	}
}
