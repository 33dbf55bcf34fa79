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

/*
 * Labels for a narrow table (40 columns: 13 cells), used only when the
 * registry's label does not fit: cut, "pages swapped out/s" and "pages
 * swapped in/s" would both read "pages swapped". @rate: the label of
 * the live row (NULL: @boot with "/s").
 */
static const struct {
	const char *key, *boot, *rate;
} shorts[] = {
	{ "pswpout", "pages out", NULL },
	{ "nrswpout", "out I/Os", NULL },
	{ "write_pages_per_io", "out pages/IO", "out pages/IO" },
	{ "pswpin", "pages in", NULL },
	{ "nrswpin", "in I/Os", NULL },
	{ "read_pages_per_io", "in pages/IO", "in pages/IO" },
	{ "nrswpin_deferred", "in deferred", NULL },
	{ "nrswpout_deferred", "out deferred", NULL },
	{ "deferred_share", "deferred I/O", NULL },
	{ "pageout_evicted", "evicted/pgout", NULL },
	{ "thp_swpout", "THPs out", NULL },
	{ "thp_swpout_fallback", "THP fallbacks", NULL },
	{ "mthp_swpout", "mTHPs out", NULL },
	{ "mthp_swpout_fallback", "mTHP fallbks", NULL },
	{ "mthp_64kb_swpout", "64K mTHPs out", NULL },
	{ "mthp_64kb_swpout_fallback", "64K mTHP fb", NULL },
	{ "pgscan_kswapd", "scan kswapd", NULL },
	{ "pgscan_direct", "scan direct", NULL },
	{ "pgsteal_kswapd", "steal kswapd", NULL },
	{ "pgsteal_direct", "steal direct", NULL },
	{ "pgscan_anon", "scan anon", NULL },
	{ "pgsteal_anon", "steal anon", NULL },
	{ "allocstall", "alloc stalls", NULL },
	{ "device_write_ios", "dev wr I/Os", "dev wr I/O/s" },
	{ "device_read_ios", "dev rd I/Os", "dev rd I/O/s" },
	{ "device_write_pages_per_io", "dev wr pg/IO", "dev wr pg/IO" },
	{ "host_write_requests", "host wr reqs", "host wr/s" },
	{ "host_read_requests", "host rd reqs", "host rd/s" },
	{ "pgmajfault", "major faults", "maj faults/s" },
	{ "swapout_mib_per_s", "out MiB/s", NULL },
	{ "swap_peak_mib", "swap peak MiB", NULL },
	{ "free_low_kib", "free low KiB", NULL },
	{ "below_min_s", "below min s", NULL },
	{ "writeback_peak_kib", "wback pk KiB", NULL },
	{ "pages_verified", "pg verified", NULL },
	{ "pages_corrupt", "pg corrupt", NULL },
	{ "pages_failed", "pg SIGBUS", NULL },
	{ "pages_failed_distinct", "distinct fail", NULL },
	{ "swap_read_errors", "rd errors", NULL },
	{ "swap_write_errors", "wr errors", NULL },
	{ "kernel_alloc_failures", "alloc fails", NULL },
	{ "kernel_hung_tasks", "hung tasks", NULL },
	{ "zram_compr_peak_mib", "zram compr pk", NULL },
	{ "zram_mem_used_peak_mib", "zram used pk", NULL },
	{ "zram_huge_pages_peak", "zram huge pk", NULL },
	{ "command_real_seconds", "cmd real s", NULL },
	{ "command_user_seconds", "cmd user s", NULL },
	{ "command_system_seconds", "cmd system s", NULL },
	{ "cg_workingset_refault_anon", "cg refaults", NULL },
	{ "cg_pgscan", "cg scanned", NULL },
	{ "cg_pgsteal", "cg reclaimed", NULL },
	{ "cg_zswpout", "cg zswap out", NULL },
	{ "slab_errors_injected", "slab injected", NULL },
	{ "boot_seconds", "boot s", NULL },
	{ "swapin_faults", "swapins timed", NULL },
	{ "swapin_p50_us", "swapin p50 us", NULL },
	{ "swapin_p99_us", "swapin p99 us", NULL },
	{ "swapin_max_us", "swapin max us", NULL },
	{ "pageout_freed", "freed/pgout", NULL },
	{ "pressure_freed", "freed/press", NULL },
	{ "cpu_user_seconds", "CPU user s", "CPU user s/s" },
	{ "cpu_system_seconds", "CPU system s", "CPU sys s/s" },
	{ "cpu_iowait_seconds", "CPU iowait s", "CPU iowt s/s" },
	{ "cpu_softirq_seconds", "CPU softirq s", "CPU sirq s/s" },
	{ "system_ms_per_mib", "sys ms/MiB", NULL },
	{ "psi_memory_some_seconds", "PSI some s", "PSI some s/s" },
	{ "psi_memory_full_seconds", "PSI full s", "PSI full s/s" },
	{ "host_cpu_seconds", "host CPU s", "host CPU s/s" },
	{ "host_cpu_ms_per_mib", "host ms/MiB", NULL },
};

/* The live metrics and the ones since boot of the summary page. */
static const char *const summary_live[] = {
	"write_pages_per_io", "read_pages_per_io", "pswpout", "pswpin",
	"nrswpout", "nrswpin", "device_write_pages_per_io", "pgmajfault", NULL,
};
static const char *const summary_boot[] = {
	"write_pages_per_io", "read_pages_per_io", "pages_corrupt", NULL,
};

static const char *const page_names[SCREEN_PAGES] = {
	"summary", "rates", "since boot", "history",
};

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
	/* the rates' window of each column, and whether it is the last
	 * one with swap I/O instead of the last one (the guest ended)
	 */
	struct metric_in win[SCREEN_MAX_COLS], tot[SCREEN_MAX_COLS];
	bool held[SCREEN_MAX_COLS];
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

/*
 * @nrswp_row: the metric needs an nrswp* counter; @nrswp: the column's
 * kernel has them (without, a missing value says why: NO_NRSWP).
 */
static void fmt_val(char *buf, size_t len, struct stats_val v, int decimals,
		    bool nrswp_row, bool nrswp)
{
	if (v.state == STATS_MISSING) {
		snprintf(buf, len, "%s", nrswp_row && !nrswp ? NO_NRSWP : "-");
		return;
	}
	if (v.state == STATS_OK && decimals < 0)
		decimals = fabs(v.v) >= 100 ? 0 : 1;
	stats_fmt(buf, len, v, decimals);
}

/*
 * The label of a row: @full when it fits the label column, else the
 * metric @key's short label (live: @rate), else @full cut.
 */
static const char *fit_label(const struct builder *b, const char *full,
			     const char *key, bool rate)
{
	size_t i;

	if (screen_cells(full) < b->label_w || !key)
		return full;
	for (i = 0; i < ARRAY_SIZE(shorts); i++) {
		static char buf[32];

		if (strcmp(shorts[i].key, key))
			continue;
		if (rate && shorts[i].rate)
			return shorts[i].rate;
		if (!rate)
			return shorts[i].boot;
		snprintf(buf, sizeof(buf), "%s/s", shorts[i].boot);
		return buf;
	}
	return full;
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
	bool good = false, nrswp_row;
	unsigned int i;

	nrswp_row = (m->den && !strncmp(m->den, "nrswp", 5)) ||
		    (m->vmstat && !strncmp(m->vmstat, "nrswp", 5));
	line[0] = '\0';
	cell(line, sizeof(line), fit_label(b, label, m->key, rate), b->label_w,
	     false);
	for (i = 0; i < in->ncols; i++) {
		fmt_val(buf, sizeof(buf), v[i], rate ? -1 : m->decimals,
			nrswp_row, has_nrswp(in->cols[i].track));
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

/*
 * A column's name cut to @w cells: "patched-1", or without its
 * repetition ("patched") when that does not fit.
 */
static void col_name(char *buf, size_t len, const char *label, unsigned int w,
		     bool drop_rep)
{
	char *dash;

	snprintf(buf, len, "%s", label);
	dash = strrchr(buf, '-');
	if (dash && (drop_rep || screen_cells(buf) >= w))
		*dash = '\0';
}

/* The row naming the columns: the guests, then each ratio's kernels. */
static void header_row(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[96];
	unsigned int i;

	line[0] = '\0';
	cell(line, sizeof(line), "", b->label_w, false);
	for (i = 0; i < in->ncols; i++) {
		col_name(buf, sizeof(buf), in->cols[i].label, b->col_w, false);
		cell(line, sizeof(line), buf, b->col_w, true);
	}
	for (i = 1; i < in->ncols; i++) {
		char k0[48], ki[48];

		/* "patched/baseline": the kernels, without the repeat */
		col_name(k0, sizeof(k0), in->cols[0].label, 0, true);
		col_name(ki, sizeof(ki), in->cols[i].label, 0, true);
		snprintf(buf, sizeof(buf), "%s/%s", ki, k0);
		/* cut, "patched" would read as a guest: "patched/" */
		if (screen_cells(buf) >= b->ratio_w && in->ncols == 2) {
			snprintf(buf, sizeof(buf), "ratio");
		} else if (screen_cells(buf) >= b->ratio_w && b->ratio_w > 2) {
			cut(ki, b->ratio_w - 2);
			snprintf(buf, sizeof(buf), "%s/", ki);
		}
		cell(line, sizeof(line), buf, b->ratio_w, true);
	}
	add(b, SA_HEADER, "%s", line);
}

/* Each guest's kernel version, from its hello. */
static void kernel_row(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1];
	unsigned int i;

	line[0] = '\0';
	cell(line, sizeof(line), "kernel", b->label_w, false);
	for (i = 0; i < in->ncols; i++)
		cell(line, sizeof(line), in->cols[i].track->kernel[0] ?
		     in->cols[i].track->kernel : "?", b->col_w, true);
	add(b, SA_NORMAL, "%s", line);
}

/* Each guest's phase, then its status (@status_first: the other way). */
static void state_rows(struct builder *b, bool status_first)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[96];
	enum screen_attr attr, worst;
	unsigned int i, k;

	for (k = 0; k < 2; k++) {
		if (k == status_first) {
			line[0] = '\0';
			cell(line, sizeof(line), "phase", b->label_w, false);
			for (i = 0; i < in->ncols; i++) {
				const struct track_phase *p =
					track_phase_now(in->cols[i].track);

				if (p)
					snprintf(buf, sizeof(buf), "%s%s",
						 p->name,
						 p->ended ? " (end)" : "");
				else
					snprintf(buf, sizeof(buf), "-");
				cell(line, sizeof(line), buf, b->col_w, true);
			}
			add(b, SA_NORMAL, "%s", line);
			continue;
		}
		line[0] = '\0';
		worst = SA_NORMAL;
		cell(line, sizeof(line), "status", b->label_w, false);
		for (i = 0; i < in->ncols; i++) {
			status_text(&in->cols[i], in->done, buf, sizeof(buf),
				    &attr);
			if (attr == SA_BAD ||
			    (attr == SA_GOOD && worst != SA_BAD))
				worst = attr;
			cell(line, sizeof(line), buf, b->col_w, true);
		}
		add(b, worst, "%s", line);
	}
}

/*
 * The @i-th metric to show: of @keys, in their order (a key the registry
 * lacks is skipped: &skip), or, @keys NULL, of the registry. NULL: none.
 */
static const struct metric_def *nth(const char *const *keys, unsigned int i)
{
	static const struct metric_def skip = { .key = "" };
	const struct metric_def *m;

	if (!keys)
		return i < metric_count ? &metric_defs[i] : NULL;
	if (!keys[i])
		return NULL;
	m = metric_find(keys[i]);
	return m ? m : &skip;
}

/*
 * The registry's live metrics over the rates' window, one row each:
 * those of @keys, NULL: all. A count is shown as a rate per second.
 */
static void live_rows(struct builder *b, const char *const *keys)
{
	const struct screen_input *in = b->in;
	const struct metric_in *win = b->win;
	const struct metric_def *m;
	unsigned int i, mi;

	for (i = 0; i < in->ncols && !b->held[i]; i++)
		;
	if (i < in->ncols)
		add(b, SA_DIM, "rates: last %.2g s with swap I/O (ended)",
		    in->interval_s);
	for (mi = 0; (m = nth(keys, mi)); mi++) {
		struct stats_val v[SCREEN_MAX_COLS];
		bool rate;
		char label[64];

		if (!m->live)
			continue;
		rate = !m->num && strcmp(m->unit, "pages/I/O");
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
}

/* The registry's metrics since boot, @keys (NULL: all), one row each. */
static void boot_rows(struct builder *b, const char *const *keys)
{
	const struct screen_input *in = b->in;
	const struct metric_def *m;
	unsigned int i, mi;

	add(b, SA_HEADER, "since boot (swapctl metrics)");
	for (mi = 0; (m = nth(keys, mi)); mi++) {
		struct stats_val v[SCREEN_MAX_COLS];

		if (!m->label)
			continue;
		for (i = 0; i < in->ncols; i++)
			v[i] = metric_eval(m, &b->tot[i]);
		metric_row(b, m->label, m, v, false);
	}
}

static uint64_t swapped(const struct track_point *p)
{
	return p->v[TF_PSWPOUT] + p->v[TF_PSWPIN];
}

/*
 * The rates' window of column @i: the last @window_ns of its track; but
 * once the guest ended (its result came, or nothing more will), the last
 * window with swap I/O in it, so that the idle seconds between the
 * workload's end and the guest's power-off do not zero the rates the
 * run ended on. The window then ends at the last sample that swapped,
 * on a copy of the track cut there (its host points cut as many
 * seconds before their end).
 */
static void rates_window(struct builder *b, unsigned int i, uint64_t window_ns)
{
	static struct track cut_at[SCREEN_MAX_COLS];
	const struct track *t = b->in->cols[i].track;
	struct track *c = &cut_at[i];
	size_t j = t->npts;

	b->held[i] = false;
	metric_in_window(&b->win[i], t, window_ns);
	if (!(b->in->done || t->have_result) || t->npts < 2)
		return;
	while (j > 1 && swapped(&t->pts[j - 1]) == swapped(&t->pts[j - 2]))
		j--;
	/* the last window holds the last change: it shows it already */
	if (j < 2 || t->pts[j - 1].t_ns + window_ns > t->pts[t->npts - 1].t_ns)
		return;
	*c = *t;
	c->npts = j;
	while (c->nhost > 1 && t->host[c->nhost - 1].t_ns + t->pts[t->npts -
	       1].t_ns - t->pts[j - 1].t_ns > t->host[t->nhost - 1].t_ns)
		c->nhost--;
	metric_in_window(&b->win[i], c, window_ns);
	b->held[i] = true;
}

static void windows(struct builder *b)
{
	unsigned int i;

	for (i = 0; i < b->in->ncols; i++) {
		rates_window(b, i, (uint64_t)(b->in->interval_s * 1e9));
		metric_in_init(&b->tot[i], b->in->cols[i].track);
	}
}

/*
 * Swap used, the stream's line counts (@quiet: only when some are bad or
 * lost), and each guest's error and fault.
 */
static void tail_rows(struct builder *b, bool quiet)
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
	cell(line, sizeof(line), screen_cells("lines ok/bad/lost") < b->label_w ?
	     "lines ok/bad/lost" : "ok/bad/lost", b->label_w, false);
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
	if (!quiet || worst == SA_BAD)
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

/* Every row of the table: --batch, or a terminal without pages. */
static void table(struct builder *b)
{
	header_row(b);
	kernel_row(b);
	state_rows(b, false);
	live_rows(b, NULL);
	boot_rows(b, NULL);
	tail_rows(b, false);
}

/*
 * Where @t's sparkline ends (guest time from its first point): its end,
 * or, once the guest ended (as rates_window()), the step after its last
 * write (@f changed), so that the reads and idle seconds after the last
 * write do not push every write off the line.
 */
static uint64_t spark_end(const struct builder *b, const struct track *t,
			  enum track_field f, uint64_t step, bool *cut)
{
	uint64_t span = track_span_ns(t), end;
	size_t j = t->npts;

	if (!(b->in->done || t->have_result) || t->npts < 2)
		return span;
	while (j > 1 && t->pts[j - 1].v[f] == t->pts[j - 2].v[f])
		j--;
	if (j < 2)
		return span;
	end = t->pts[j - 1].t_ns - t->pts[0].t_ns + step;
	if (end >= span)
		return span;
	*cut = true;
	return end;
}

/* The sparkline's header: the first form, each shorter, that fits. */
static void spark_header(struct builder *b, double max, bool cut)
{
	char form[3][128];
	unsigned int i;

	snprintf(form[0], sizeof(form[0]),
		 "write pages/IO, one mark per %.2g s, top = %.1f%s",
		 b->in->interval_s, max, cut ? ", to the last write" : "");
	snprintf(form[1], sizeof(form[1]), "write pages/IO per %.2g s, top %.1f%s",
		 b->in->interval_s, max, cut ? ", to last write" : "");
	snprintf(form[2], sizeof(form[2]), "write pages/IO per %.2g s, top %.1f",
		 b->in->interval_s, max);
	for (i = 0; i < 2 && screen_cells(form[i]) > b->width; i++)
		;
	add(b, SA_HEADER, "%s", form[i]);
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
	bool blk[SCREEN_MAX_COLS], cut = false;
	uint64_t step = (uint64_t)(in->interval_s * 1e9);
	double max = 0;
	unsigned int w, i, k;

	if (b->width < SPARK_LABEL_W + 20 || !step)
		return;
	w = b->width - SPARK_LABEL_W - 12;
	for (i = 0; i < in->ncols; i++) {
		const struct track *t = in->cols[i].track;
		uint64_t span, t0;

		blk[i] = !has_nrswp(t);
		span = spark_end(b, t, blk[i] ? TF_DEV_WR_IOS : TF_NRSWPOUT,
				 step, &cut);
		t0 = span > (uint64_t)w * step ? span - (uint64_t)w * step : 0;
		track_series(t, blk[i] ? TRACK_M_DEV_WR_PPIO :
				   TRACK_M_WR_PPIO, t0, step, w, v[i]);
		for (k = 0; k < w; k++)
			if (v[i][k].state == STATS_OK && v[i][k].v > max)
				max = v[i][k].v;
	}
	spark_header(b, max, cut);
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

static void bucket_name(char *buf, size_t len, unsigned int k)
{
	unsigned int lo = track_hist_lo(k);

	if (k == TRACK_HIST_BUCKETS - 1)
		snprintf(buf, len, "%u+", lo);
	else if (track_hist_lo(k + 1) - 1 == lo)
		snprintf(buf, len, "%u", lo);
	else
		snprintf(buf, len, "%u-%u", lo, track_hist_lo(k + 1) - 1);
}

/* Bucket @k's share of column @i's write I/Os, or "-"; "(blk)" in @blk. */
static void bucket_share(char *buf, size_t len, const struct track *t,
			 unsigned int k, bool *blk)
{
	uint64_t total = 0;
	unsigned int j;

	for (j = 0; j < TRACK_HIST_BUCKETS; j++)
		total += t->hist[j];
	if (total)
		snprintf(buf, len, "%.0f%%",
			 100.0 * (double)t->hist[k] / (double)total);
	else
		snprintf(buf, len, "-");
	*blk = total && t->hist_from_dev;
}

/*
 * The histogram one row per bucket, one column per guest: a terminal
 * too narrow for a row of eight buckets per guest.
 */
static void histogram_tall(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[96];
	unsigned int i, k, w = (b->width - 10) / (in->ncols ? in->ncols : 1);
	bool blk;

	if (w > COL_W)
		w = COL_W;
	add(b, SA_HEADER, "write I/Os by pages/IO");
	line[0] = '\0';
	cell(line, sizeof(line), "pages/IO", 10, false);
	for (i = 0; i < in->ncols; i++) {
		col_name(buf, sizeof(buf), in->cols[i].label, w, false);
		cell(line, sizeof(line), buf, w, true);
	}
	add(b, SA_DIM, "%s", line);
	for (k = 0; k < TRACK_HIST_BUCKETS; k++) {
		line[0] = '\0';
		bucket_name(buf, sizeof(buf), k);
		cell(line, sizeof(line), buf, 10, false);
		for (i = 0; i < in->ncols; i++) {
			bucket_share(buf, sizeof(buf), in->cols[i].track, k,
				     &blk);
			cell(line, sizeof(line), buf, w, true);
		}
		add(b, SA_NORMAL, "%s", line);
	}
	for (i = 0; i < in->ncols; i++) {
		bucket_share(buf, sizeof(buf), in->cols[i].track, 0, &blk);
		if (blk)
			add(b, SA_DIM, "%s: from blk stats", in->cols[i].label);
	}
}

static void histogram(struct builder *b)
{
	const struct screen_input *in = b->in;
	char line[SCREEN_MAX_WIDTH * 3 + 1], buf[32];
	unsigned int i, k;
	bool blk = false;

	if (b->width < SPARK_LABEL_W + 7 * TRACK_HIST_BUCKETS) {
		histogram_tall(b);
		return;
	}
	add(b, SA_HEADER,
	    "write I/Os by batch size (pages/IO of their sample interval)");
	line[0] = '\0';
	cell(line, sizeof(line), "", SPARK_LABEL_W, false);
	for (k = 0; k < TRACK_HIST_BUCKETS; k++) {
		bucket_name(buf, sizeof(buf), k);
		cell(line, sizeof(line), buf, 7, true);
	}
	add(b, SA_DIM, "%s", line);
	for (i = 0; i < in->ncols; i++) {
		line[0] = '\0';
		cell(line, sizeof(line), in->cols[i].label, SPARK_LABEL_W,
		     false);
		for (k = 0; k < TRACK_HIST_BUCKETS; k++) {
			bucket_share(buf, sizeof(buf), in->cols[i].track, k,
				     &blk);
			cell(line, sizeof(line), buf, 7, true);
		}
		if (blk)
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
	if (b->in->height) {
		add(b, SA_NORMAL, "  1 to 4   page: %s, %s, %s, %s",
		    page_names[0], page_names[1], page_names[2],
		    page_names[3]);
		add(b, SA_NORMAL, "  left/right  previous / next page");
		add(b, SA_NORMAL, "  up/down, PgUp/PgDn, Home/End  scroll");
	}
	add(b, SA_NORMAL, "  h        this help");
	add(b, SA_DIM,
	    "rates are over the last interval; run: rows are since boot");
	add(b, SA_DIM,
	    "pages/IO = pswpout/nrswpout (write), pswpin/nrswpin (read)");
}

/* The title: the first of the forms, each shorter, that fits. */
static void title(struct builder *b)
{
	const struct screen_input *in = b->in;
	const char *sc = in->scenario ? in->scenario : "";
	char form[3][SCREEN_MAX_WIDTH * 3 + 1], mode[64], clock[32] = "";
	unsigned int i;

	snprintf(mode, sizeof(mode), "[%s%s%s]", in->mode,
		 in->paused ? ", paused" : "",
		 in->done && strcmp(in->mode, "recorded") ? ", ended" : "");
	if (in->clock_s >= 0)
		snprintf(clock, sizeof(clock), "  t=%.1fs", in->clock_s);
	snprintf(form[0], sizeof(form[0]), "swapctl top  %s%s%s  %s%s  rep %u/%u",
		 in->run, sc[0] ? "  " : "", sc, mode, clock, in->rep,
		 in->nreps);
	snprintf(form[1], sizeof(form[1]), "%s  %s%s  rep %u/%u", in->run, mode,
		 clock, in->rep, in->nreps);
	snprintf(form[2], sizeof(form[2]), "%s%s  rep %u/%u  %s", mode, clock,
		 in->rep, in->nreps, in->run);
	for (i = 0; i < 2 && screen_cells(form[i]) > b->width; i++)
		;
	add(b, SA_TITLE, "%s", form[i]);
}

/* The key hint: the first of the forms, each shorter, that fits. */
static void keys_line(struct builder *b)
{
	static const char *const form[] = {
		"q quit  1-4 page  arrows scroll  space pause  +/- interval  tab rep  h help",
		"q quit  1-4 page  arrows scroll  space pause  h help",
		"q quit 1-4 page arrows scroll h help",
	};
	static const char batch[] =
		"q quit  space pause  +/- interval  tab repetition  h help";
	unsigned int i;

	if (!b->in->height) {
		add(b, SA_DIM, "%s", batch);
		return;
	}
	for (i = 0; i + 1 < ARRAY_SIZE(form) &&
		    screen_cells(form[i]) > b->width; i++)
		;
	add(b, SA_DIM, "%s", form[i]);
}

/* The line naming the pages, the one shown first, and where it scrolled. */
static void page_bar(struct builder *b, unsigned int nbody)
{
	const struct screen_input *in = b->in;
	const struct screen *o = b->out;
	char bar[256] = "", pos[64] = "";
	unsigned int i;
	size_t n = 0;

	if (o->scroll_max)
		snprintf(pos, sizeof(pos), "  %u-%u/%u%s", o->scroll + 1,
			 o->scroll + o->rows, nbody,
			 o->scroll < o->scroll_max ? " more" : "");
	if (in->help) {
		add(b, SA_HEADER, "help (h: back to the pages)%s", pos);
		return;
	}
	for (i = 0; i < SCREEN_PAGES && n < sizeof(bar); i++)
		n += (size_t)snprintf(bar + n, sizeof(bar) - n,
				      i == in->page ? "[%u %s] " : " %u %s  ",
				      i + 1, page_names[i]);
	if (screen_cells(bar) + screen_cells(pos) > b->width)
		snprintf(bar, sizeof(bar), "page %u/%u %s", in->page + 1,
			 SCREEN_PAGES, page_names[in->page]);
	add(b, SA_HEADER, "%s%s", bar, pos);
}

/*
 * The page's lines: pinned (the columns' names) and its body. @full: the
 * summary with every live rate and the histogram (a tall terminal).
 */
static void page_lines(struct builder *b, struct screen *pin,
		       struct screen *body, bool full)
{
	const struct screen_input *in = b->in;

	b->out = body;
	if (in->help) {
		help(b);
		return;
	}
	if (in->page != SCREEN_PAGE_HISTORY) {
		b->out = pin;
		header_row(b);
		b->out = body;
	}
	switch (in->page) {
	case SCREEN_PAGE_SUMMARY:
		state_rows(b, true);
		live_rows(b, full ? NULL : summary_live);
		boot_rows(b, summary_boot);
		kernel_row(b);
		tail_rows(b, true);
		sparklines(b);
		if (full) {
			add(b, SA_NORMAL, "%s", "");
			histogram(b);
		}
		break;
	case SCREEN_PAGE_RATES:
		live_rows(b, NULL);
		tail_rows(b, true);
		break;
	case SCREEN_PAGE_BOOT:
		kernel_row(b);
		boot_rows(b, NULL);
		tail_rows(b, false);
		break;
	default:
		sparklines(b);
		add(b, SA_NORMAL, "%s", "");
		histogram(b);
		break;
	}
}

/*
 * A terminal's frame (@height rows): the title (already in), the page
 * bar, the pinned lines, the body from the scroll on, the key hint.
 */
static void paged(struct builder *b)
{
	static struct screen pin, body;
	const struct screen_input *in = b->in;
	struct screen *out = b->out;
	unsigned int h = in->height, fixed, npin, i;

	if (h > SCREEN_MAX_LINES)
		h = SCREEN_MAX_LINES;
	fixed = out->n + 1 + (in->keys ? 1 : 0);
	pin.n = body.n = 0;
	b->limit = 0;
	page_lines(b, &pin, &body, true);
	/* the summary's short form unless the full one fits */
	if (in->page == SCREEN_PAGE_SUMMARY && !in->help &&
	    fixed + pin.n + body.n > h) {
		pin.n = body.n = 0;
		page_lines(b, &pin, &body, false);
	}
	b->out = out;
	npin = h > fixed ? h - fixed : 0;
	if (npin > pin.n)
		npin = pin.n;
	out->rows = h > fixed + npin ? h - fixed - npin : 0;
	out->scroll_max = body.n > out->rows ? body.n - out->rows : 0;
	out->scroll = in->scroll < out->scroll_max ? in->scroll :
		      out->scroll_max;
	if (h > out->n + (in->keys ? 1 : 0))
		page_bar(b, body.n);
	for (i = 0; i < npin; i++)
		out->line[out->n++] = pin.line[i];
	for (i = 0; i < out->rows && out->scroll + i < body.n; i++)
		out->line[out->n++] = body.line[out->scroll + i];
	if (in->keys && out->n < h) {
		/* the key hint on the terminal's last line */
		while (out->n + 1 < h)
			add(b, SA_NORMAL, "%s", "");
		keys_line(b);
	}
}

void screen_build(const struct screen_input *in, struct screen *out)
{
	struct builder b = {
		.in = in, .out = out, .width = in->width,
	};

	out->n = out->scroll = out->scroll_max = out->rows = 0;
	if (b.width > SCREEN_MAX_WIDTH)
		b.width = SCREEN_MAX_WIDTH;
	if (b.width < SCREEN_MIN_WIDTH)
		b.width = SCREEN_MIN_WIDTH;
	fit_columns(&b);
	title(&b);
	if (!in->ncols) {
		add(&b, SA_DIM, "no guest has started yet");
		return;
	}
	windows(&b);
	if (in->height) {
		paged(&b);
		return;
	}
	if (in->help) {
		help(&b);
		add(&b, SA_NORMAL, "%s", "");
	}
	table(&b);
	if (!in->help) {
		add(&b, SA_NORMAL, "%s", "");
		sparklines(&b);
		add(&b, SA_NORMAL, "%s", "");
		histogram(&b);
	}
	if (in->keys) {
		add(&b, SA_NORMAL, "%s", "");
		keys_line(&b);
	}
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
