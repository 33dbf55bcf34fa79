// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl report: the table of a recorded run (text, JSON or CSV) and an
 * SVG plot over time of pages per I/O and swap throughput per kernel;
 * with two runs, their comparison. The numbers come from the same
 * stream/stats code as swapctl top.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "parse-options.h"
#include "source.h"
#include "stats.h"
#include "svg.h"
#include "swapctl.h"
#include "util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_KERNELS 8

enum fmt { F_TEXT, F_JSON, F_CSV, F_NONE };

enum metric {
	M_DURATION,
	M_PSWPOUT,
	M_NRSWPOUT,
	M_WR_PPIO,
	M_PSWPIN,
	M_NRSWPIN,
	M_RD_PPIO,
	M_DEV_WR_PPIO,
	M_DEV_IOS,
	M_HOST_REQ,
	M_MAJFLT,
	M_OUT_MIBS,
	M_SWAP_PEAK,
	M_VERIFIED,
	M_CORRUPT,
	NMETRICS,
};

static const struct {
	const char *key;	/* JSON and CSV */
	const char *label;	/* text */
	int decimals;
	bool nrswp;		/* needs the nrswp* counters */
} metrics[NMETRICS] = {
	[M_DURATION] = { "seconds", "duration s", 1, false },
	[M_PSWPOUT] = { "pswpout", "pages out (pswpout)", 0, false },
	[M_NRSWPOUT] = { "nrswpout", "write I/Os (nrswpout)", 0, true },
	[M_WR_PPIO] = { "write_pages_per_io", "write pages/IO", 2, true },
	[M_PSWPIN] = { "pswpin", "pages in (pswpin)", 0, false },
	[M_NRSWPIN] = { "nrswpin", "read I/Os (nrswpin)", 0, true },
	[M_RD_PPIO] = { "read_pages_per_io", "read pages/IO", 2, true },
	[M_DEV_WR_PPIO] = { "device_write_pages_per_io",
			    "device wr pages/IO", 2, false },
	[M_DEV_IOS] = { "device_ios", "device I/Os", 0, false },
	[M_HOST_REQ] = { "host_requests", "host requests", 0, false },
	[M_MAJFLT] = { "pgmajfault", "major faults", 0, false },
	[M_OUT_MIBS] = { "swapout_mib_per_s", "swap-out MiB/s", 2, false },
	[M_SWAP_PEAK] = { "swap_peak_mib", "swap peak MiB", 1, false },
	[M_VERIFIED] = { "pages_verified", "pages verified", 0, false },
	[M_CORRUPT] = { "pages_corrupt", "pages corrupt", 0, false },
};

struct kagg {
	char kernel[48];
	unsigned int n;				/* guests */
	struct stats_val v[NMETRICS][SOURCE_MAX_GUESTS];
};

struct run {
	struct source src;
	struct kagg k[MAX_KERNELS];
	unsigned int nk;
};

struct report_opts {
	enum fmt fmt;
	const char *svg;
	const char *dir[2];
	unsigned int ndirs;
};

static int parse_args(int argc, char **argv, struct report_opts *o)
{
	/* 0: not given, else 1 + enum fmt */
	int mode = 0, n;
	struct popt opts[] = {
		OPT_CMDMODE(0, "text", &mode, 1 + F_TEXT, "aligned table (default)"),
		OPT_CMDMODE(0, "json", &mode, 1 + F_JSON, "one JSON object"),
		OPT_CMDMODE(0, "csv", &mode, 1 + F_CSV, "one row per guest"),
		OPT_STRING(0, "svg", &o->svg, "FILE",
			   "also write a plot over time of pages per I/O and swap throughput for each kernel (only the plot when no table format is given)"),
		OPT_END(),
	};
	struct popt_cmd cmd = {
		.name = "report", .args = "[RUN_DIR [RUN_DIR_B]]", .max_args = 2,
		.opts = opts,
		.desc =
		"Summarise a recorded run (default <workdir>/runs/latest; a run\n"
		"id under <workdir>/runs works too): per guest the swap counters,\n"
		"pages per write and read I/O (pswpout/nrswpout, pswpin/nrswpin),\n"
		"device and host I/Os, major faults, the workload's verdict, and\n"
		"per kernel the mean with its 95% confidence interval over the\n"
		"repetitions and the ratio patched/baseline. With two runs, compare\n"
		"them kernel by kernel (B/A).\n",
		.epilog =
		"A value that cannot be computed is \"n/a\" (nothing to divide:\n"
		"no I/O) or \"missing\" (the kernel lacks the counter, e.g. no\n"
		"nrswp* counters), never a number.\n",
	};

	memset(o, 0, sizeof(*o));
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return n == PARSE_OPT_HELP ? -1 : EXIT_USAGE;
	for (o->ndirs = 0; o->ndirs < (unsigned int)n; o->ndirs++)
		o->dir[o->ndirs] = argv[o->ndirs];
	o->fmt = mode ? (enum fmt)(mode - 1) : o->svg ? F_NONE : F_TEXT;
	if (o->svg && !strcmp(o->svg, "-") && o->fmt != F_NONE) {
		fprintf(stderr, "swapctl report: --svg -: standard output already has the table (drop --text/--json/--csv or name a file)\n");
		return EXIT_USAGE;
	}
	if (o->svg && strcmp(o->svg, "-")) {
		char target[PATH_MAX];

		if (util_output_target(o->svg, target, sizeof(target))) {
			fprintf(stderr, "swapctl report: --svg %s: %s\n", o->svg,
				util_output_strerror(errno));
			return EXIT_OUTPUT;
		}
	}
	return 0;
}

static struct stats_val na(void)
{
	struct stats_val v = { STATS_NA, 0 };

	return v;
}

static struct stats_val guest_metric(const struct source_guest *g,
				     enum metric m)
{
	const struct stats_track *t = &g->track;
	struct stats_interval iv;

	stats_track_total(t, &iv);
	switch (m) {
	case M_DURATION:
		return t->npts ? stats_ok(iv.dt_s) : na();
	case M_PSWPOUT:
		return iv.pswpout;
	case M_NRSWPOUT:
		return iv.nrswpout;
	case M_WR_PPIO:
		return iv.wr_ppio;
	case M_PSWPIN:
		return iv.pswpin;
	case M_NRSWPIN:
		return iv.nrswpin;
	case M_RD_PPIO:
		return iv.rd_ppio;
	case M_DEV_WR_PPIO:
		return iv.dev_wr_ppio;
	case M_DEV_IOS:
		return iv.dev_ios;
	case M_HOST_REQ:
		return iv.host_req;
	case M_MAJFLT:
		return iv.majflt;
	case M_OUT_MIBS:
		return iv.pswpout_s.state == STATS_OK ?
		       stats_ok(iv.pswpout_s.v * 4096 / 1048576) :
		       iv.pswpout_s;
	case M_SWAP_PEAK:
		return t->npts ? stats_ok((double)iv.swap_peak_kb / 1024) :
		       na();
	case M_VERIFIED:
		return t->have_result ? stats_ok((double)t->pages_verified) :
		       na();
	case M_CORRUPT:
		return t->have_result ? stats_ok((double)t->pages_corrupt) :
		       na();
	case NMETRICS:
		break;
	}
	return na();
}

static int load_run(struct run *r, const char *workdir, const char *arg,
		    char *err, size_t errlen)
{
	char dir[PATH_MAX];
	unsigned int i, j, m;

	memset(r, 0, sizeof(*r));
	if (source_resolve(workdir, arg, dir, sizeof(dir), err, errlen))
		return -1;
	if (source_open(&r->src, dir, true, 1, err, errlen))
		return -2;	/* there, but not a usable run */
	source_seek_end(&r->src);
	for (i = 0; i < r->src.ng; i++) {
		const struct source_guest *g = r->src.g[i];
		struct kagg *k = NULL;

		for (j = 0; j < r->nk; j++)
			if (!strcmp(r->k[j].kernel, g->kernel))
				k = &r->k[j];
		if (!k) {
			if (r->nk >= MAX_KERNELS)
				continue;
			k = &r->k[r->nk++];
			snprintf(k->kernel, sizeof(k->kernel), "%s",
				 g->kernel);
		}
		for (m = 0; m < NMETRICS; m++)
			k->v[m][k->n] = guest_metric(g, m);
		k->n++;
	}
	return 0;
}

/*
 * Mean over the guests of a kernel: MISSING if any is missing, NA if
 * none has a value; only the numbers count otherwise.
 */
static struct stats_val kernel_mean(const struct kagg *k, enum metric m,
				    struct stats_desc *d)
{
	double x[SOURCE_MAX_GUESTS];
	size_t n = 0;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < k->n; i++) {
		if (k->v[m][i].state == STATS_MISSING)
			return stats_missing();
		if (k->v[m][i].state == STATS_OK)
			x[n++] = k->v[m][i].v;
	}
	if (!n)
		return na();
	stats_describe(x, n, d);
	return stats_ok(d->mean);
}

static const struct kagg *find_kernel(const struct run *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->nk; i++)
		if (!strcmp(r->k[i].kernel, name))
			return &r->k[i];
	return NULL;
}

static struct stats_val kernel_ratio(const struct kagg *num,
				     const struct kagg *den, enum metric m)
{
	struct stats_desc d;

	if (!num || !den)
		return na();
	return stats_ratio(kernel_mean(num, m, &d), kernel_mean(den, m, &d));
}

static const char *status_str(const struct source_guest *g)
{
	if (!g->exists)
		return "no data";
	if (!g->track.have_result)
		return "no result";
	return stream_status_str(g->track.status);
}

static void fmt_val(char *buf, size_t len, struct stats_val v, int dec)
{
	stats_fmt(buf, len, v, dec);
}

/* ---- text ---- */

/*
 * Counters that went backwards are taken as restarts from 0, which
 * inflates the totals when they were not: say so under the table.
 */
static void warn_resets(const struct run *r, const char *which, FILE *f)
{
	unsigned int i;

	for (i = 0; i < r->src.ng; i++) {
		const struct stream_state *st = r->src.g[i]->st;

		if (!st->resets)
			continue;
		fprintf(f, "warning: %s%s: counters went backwards on %llu line%s of samples.jsonl, taken as restarts from 0: the totals may be inflated\n",
			which, r->src.g[i]->name,
			(unsigned long long)st->resets,
			st->resets == 1 ? "" : "s");
	}
}

static void text_run(const struct run *r, FILE *f)
{
	const struct kagg *base = find_kernel(r, "baseline");
	const struct kagg *pat = find_kernel(r, "patched");
	char buf[64];
	unsigned int i, m, kk;
	bool reps = false;

	fprintf(f, "run %s  scenario %s  state %s\n", r->src.id,
		r->src.scenario[0] ? r->src.scenario : "?",
		r->src.state[0] ? r->src.state : "?");
	fprintf(f, "%-24s", "");
	for (i = 0; i < r->src.ng; i++)
		fprintf(f, " %16s", r->src.g[i]->name);
	if (base && pat)
		fprintf(f, " %16s", "patched/baseline");
	fputc('\n', f);
	fprintf(f, "%-24s", "kernel");
	for (i = 0; i < r->src.ng; i++)
		fprintf(f, " %16.16s", r->src.g[i]->track.kernel[0] ?
			r->src.g[i]->track.kernel : "?");
	fputc('\n', f);
	fprintf(f, "%-24s", "status");
	for (i = 0; i < r->src.ng; i++)
		fprintf(f, " %16s", status_str(r->src.g[i]));
	fputc('\n', f);
	for (m = 0; m < NMETRICS; m++) {
		fprintf(f, "%-24s", metrics[m].label);
		for (i = 0; i < r->src.ng; i++) {
			struct stats_val v = guest_metric(r->src.g[i], m);

			if (v.state == STATS_MISSING && metrics[m].nrswp)
				snprintf(buf, sizeof(buf), "no nrswp");
			else
				fmt_val(buf, sizeof(buf), v,
					metrics[m].decimals);
			fprintf(f, " %16s", buf);
		}
		if (base && pat) {
			struct stats_val q = kernel_ratio(pat, base, m);

			if (q.state == STATS_OK)
				snprintf(buf, sizeof(buf), "%.2fx", q.v);
			else
				fmt_val(buf, sizeof(buf), q, 2);
			fprintf(f, " %16s", buf);
		}
		fputc('\n', f);
	}
	fprintf(f, "%-24s", "lines ok/bad/lost");
	for (i = 0; i < r->src.ng; i++) {
		const struct stream_state *st = r->src.g[i]->st;

		snprintf(buf, sizeof(buf), "%llu/%llu/%llu",
			 (unsigned long long)st->ok,
			 (unsigned long long)(st->malformed + st->too_long +
					      st->absurd + st->seq_dups),
			 (unsigned long long)st->seq_missing);
		fprintf(f, " %16s", buf);
	}
	fputc('\n', f);
	warn_resets(r, "", f);

	for (kk = 0; kk < r->nk; kk++)
		if (r->k[kk].n > 1)
			reps = true;
	if (!reps)
		return;
	fprintf(f, "\nper kernel: mean +- 95%% CI (n)\n");
	for (kk = 0; kk < r->nk; kk++) {
		const struct kagg *k = &r->k[kk];
		static const enum metric keym[] = {
			M_WR_PPIO, M_RD_PPIO, M_DEV_WR_PPIO, M_OUT_MIBS,
		};

		for (i = 0; i < ARRAY_SIZE(keym); i++) {
			struct stats_desc d;
			struct stats_val v = kernel_mean(k, keym[i], &d);

			fprintf(f, "%-12s %-24s ", k->kernel,
				metrics[keym[i]].label);
			if (v.state != STATS_OK)
				fprintf(f, "%s\n", v.state == STATS_NA ?
					"n/a" : "missing");
			else if (d.has_ci)
				fprintf(f, "%.2f +- %.2f (n=%zu)\n", d.mean,
					d.ci95, d.n);
			else
				fprintf(f, "%.2f (n=%zu)\n", d.mean, d.n);
		}
	}
}

static void text_compare(const struct run *a, const struct run *b, FILE *f)
{
	static const char *const kernels[] = { "baseline", "patched" };
	char x[32], y[32], q[32];
	unsigned int m, i;

	fprintf(f, "A: %s (%s)\nB: %s (%s)\n", a->src.id, a->src.scenario,
		b->src.id, b->src.scenario);
	fprintf(f, "%-24s", "");
	for (i = 0; i < ARRAY_SIZE(kernels); i++)
		fprintf(f, " %12s %12s %8s", "A", "B", "B/A");
	fputc('\n', f);
	fprintf(f, "%-24s", "kernel");
	for (i = 0; i < ARRAY_SIZE(kernels); i++)
		fprintf(f, " %34s", kernels[i]);
	fputc('\n', f);
	for (m = 0; m < NMETRICS; m++) {
		fprintf(f, "%-24s", metrics[m].label);
		for (i = 0; i < ARRAY_SIZE(kernels); i++) {
			const struct kagg *ka = find_kernel(a, kernels[i]);
			const struct kagg *kb = find_kernel(b, kernels[i]);
			struct stats_desc d;
			struct stats_val va = ka ? kernel_mean(ka, m, &d) :
						   na();
			struct stats_val vb = kb ? kernel_mean(kb, m, &d) :
						   na();
			struct stats_val r = stats_ratio(vb, va);

			fmt_val(x, sizeof(x), va, metrics[m].decimals);
			fmt_val(y, sizeof(y), vb, metrics[m].decimals);
			if (r.state == STATS_OK)
				snprintf(q, sizeof(q), "%.2fx", r.v);
			else
				fmt_val(q, sizeof(q), r, 2);
			fprintf(f, " %12s %12s %8s", x, y, q);
		}
		fputc('\n', f);
	}
	warn_resets(a, "A ", f);
	warn_resets(b, "B ", f);
}

/* ---- JSON ---- */

static json_t *val_json(struct stats_val v)
{
	if (v.state == STATS_OK && v.v == floor(v.v) && fabs(v.v) < 9e15)
		return json_integer((json_int_t)v.v);
	if (v.state == STATS_OK)
		return json_real(v.v);
	return json_string(v.state == STATS_NA ? "n/a" : "missing");
}

static json_t *run_json(const struct run *r)
{
	const struct kagg *base = find_kernel(r, "baseline");
	const struct kagg *pat = find_kernel(r, "patched");
	json_t *o, *guests, *kernels, *ratio;
	unsigned int i, m;

	o = json_object();
	json_object_set_new(o, "run", json_string(r->src.id));
	json_object_set_new(o, "dir", json_string(r->src.dir));
	json_object_set_new(o, "scenario", json_string(r->src.scenario));
	json_object_set_new(o, "state", json_string(r->src.state));
	guests = json_array();
	for (i = 0; i < r->src.ng; i++) {
		const struct source_guest *g = r->src.g[i];
		const struct stream_state *st = g->st;
		json_t *j = json_object();

		json_object_set_new(j, "name", json_string(g->name));
		json_object_set_new(j, "kernel", json_string(g->kernel));
		json_object_set_new(j, "rep", json_integer(g->rep));
		json_object_set_new(j, "release",
				    json_string(g->track.kernel));
		json_object_set_new(j, "status", json_string(status_str(g)));
		for (m = 0; m < NMETRICS; m++)
			json_object_set_new(j, metrics[m].key,
					    val_json(guest_metric(g, m)));
		json_object_set_new(j, "stream", json_pack(
			"{sIsIsIsIsIsIsIsIsI}",
			"lines", (json_int_t)st->lines,
			"ok", (json_int_t)st->ok,
			"malformed", (json_int_t)st->malformed,
			"too_long", (json_int_t)st->too_long,
			"absurd", (json_int_t)st->absurd,
			"seq_gaps", (json_int_t)st->seq_gaps,
			"seq_missing", (json_int_t)st->seq_missing,
			"seq_dups", (json_int_t)st->seq_dups,
			"resets", (json_int_t)st->resets));
		json_array_append_new(guests, j);
	}
	json_object_set_new(o, "guests", guests);
	kernels = json_object();
	for (i = 0; i < r->nk; i++) {
		json_t *k = json_object();

		for (m = 0; m < NMETRICS; m++) {
			struct stats_desc d;
			struct stats_val v = kernel_mean(&r->k[i], m, &d);
			json_t *e = json_object();

			json_object_set_new(e, "n", json_integer((json_int_t)
								 d.n));
			json_object_set_new(e, "mean", val_json(v));
			json_object_set_new(e, "stddev", v.state == STATS_OK ?
					    json_real(d.stddev) :
					    json_null());
			json_object_set_new(e, "ci95", d.has_ci &&
					    v.state == STATS_OK ?
					    json_real(d.ci95) : json_null());
			json_object_set_new(k, metrics[m].key, e);
		}
		json_object_set_new(kernels, r->k[i].kernel, k);
	}
	json_object_set_new(o, "kernels", kernels);
	ratio = json_object();
	for (m = 0; base && pat && m < NMETRICS; m++)
		json_object_set_new(ratio, metrics[m].key,
				    val_json(kernel_ratio(pat, base, m)));
	json_object_set_new(o, "patched_over_baseline", ratio);
	return o;
}

static int json_out(const struct run *a, const struct run *b, FILE *f)
{
	json_t *o;
	int r;

	if (!b) {
		o = run_json(a);
	} else {
		json_t *cmp = json_object();
		unsigned int i, m;

		o = json_object();
		json_object_set_new(o, "a", run_json(a));
		json_object_set_new(o, "b", run_json(b));
		for (i = 0; i < a->nk; i++) {
			const struct kagg *kb = find_kernel(b,
							    a->k[i].kernel);
			json_t *k = json_object();

			for (m = 0; kb && m < NMETRICS; m++)
				json_object_set_new(k, metrics[m].key,
					val_json(kernel_ratio(kb, &a->k[i],
							      m)));
			json_object_set_new(cmp, a->k[i].kernel, k);
		}
		json_object_set_new(o, "b_over_a", cmp);
	}
	r = json_dumpf(o, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	fputc('\n', f);
	json_decref(o);
	return r;
}

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_out(const struct run *a, const struct run *b, FILE *f)
{
	const struct run *runs[2] = { a, b };
	unsigned int ri, i, m;
	char buf[64];

	fprintf(f, "run,guest,kernel,rep,release,status");
	for (m = 0; m < NMETRICS; m++)
		fprintf(f, ",%s", metrics[m].key);
	fprintf(f, ",lines_ok,lines_bad,seq_missing\n");
	for (ri = 0; ri < 2 && runs[ri]; ri++) {
		const struct run *r = runs[ri];

		for (i = 0; i < r->src.ng; i++) {
			const struct source_guest *g = r->src.g[i];
			const struct stream_state *st = g->st;

			csv_field(f, r->src.id);
			fputc(',', f);
			csv_field(f, g->name);
			fputc(',', f);
			csv_field(f, g->kernel);
			fprintf(f, ",%u,", g->rep);
			csv_field(f, g->track.kernel);
			fprintf(f, ",%s", status_str(g));
			for (m = 0; m < NMETRICS; m++) {
				struct stats_val v = guest_metric(g, m);

				if (v.state == STATS_OK)
					snprintf(buf, sizeof(buf), "%.*f",
						 metrics[m].decimals ?
						 metrics[m].decimals + 2 : 0,
						 v.v);
				else
					fmt_val(buf, sizeof(buf), v, 0);
				fprintf(f, ",%s", buf);
			}
			fprintf(f, ",%llu,%llu,%llu\n",
				(unsigned long long)st->ok,
				(unsigned long long)(st->malformed +
						     st->too_long +
						     st->absurd +
						     st->seq_dups),
				(unsigned long long)st->seq_missing);
		}
	}
}

/* ---- SVG ---- */

#define SVG_MAX_SERIES	(2 * SOURCE_MAX_GUESTS)
#define SVG_MAX_POINTS	400

struct plot {
	struct svg_series s[2][SVG_MAX_SERIES];
	size_t n[2];
	char labels[2][SVG_MAX_SERIES][96];
	double *buf[2][SVG_MAX_SERIES][2];
};

static const char *guest_color(const char *kernel, unsigned int run,
			       unsigned int idx)
{
	static const char *const base[2] = { "#1f77b4", "#17becf" };
	static const char *const pat[2] = { "#d62728", "#ff7f0e" };
	static const char *const other[] = {
		"#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
		"#bcbd22",
	};

	if (!strcmp(kernel, "baseline") && idx == 0)
		return base[run & 1];
	if (!strcmp(kernel, "patched") && idx == 0)
		return pat[run & 1];
	return other[(run * 3 + idx) % ARRAY_SIZE(other)];
}

static int add_series(struct plot *p, int panel, const char *label,
		      const char *color, bool dashed,
		      const struct stats_track *t, enum stats_metric m,
		      double scale, uint64_t step)
{
	struct stats_val v[SVG_MAX_POINTS];
	size_t i, n, k = p->n[panel];
	double *x, *y;

	if (k >= SVG_MAX_SERIES)
		return 0;
	n = stats_track_series(t, m, 0, step, SVG_MAX_POINTS, v);
	x = calloc(n ? n : 1, sizeof(double));
	y = calloc(n ? n : 1, sizeof(double));
	if (!x || !y) {
		free(x);
		free(y);
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* each value at the middle of its step */
		x[i] = ((double)i + 0.5) * (double)step / 1e9;
		y[i] = v[i].state == STATS_OK ? v[i].v * scale : NAN;
	}
	p->buf[panel][k][0] = x;
	p->buf[panel][k][1] = y;
	snprintf(p->labels[panel][k], sizeof(p->labels[panel][k]), "%s",
		 label);
	p->s[panel][k].label = p->labels[panel][k];
	p->s[panel][k].color = color;
	p->s[panel][k].dashed = dashed;
	p->s[panel][k].n = n;
	p->s[panel][k].x = x;
	p->s[panel][k].y = y;
	p->n[panel]++;
	return 0;
}

static int svg_out(const struct run *a, const struct run *b,
		   const char *path, char *err, size_t errlen)
{
	const struct run *runs[2] = { a, b };
	struct plot *p = calloc(1, sizeof(*p));
	struct svg_panel panels[2];
	uint64_t span = 0, step;
	char title[512], label[96];
	unsigned int ri, i, j, idx;
	int rc = 0;

	if (!p) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	for (ri = 0; ri < 2 && runs[ri]; ri++)
		for (i = 0; i < runs[ri]->src.ng; i++)
			if (stats_track_span_ns(&runs[ri]->src.g[i]->track) >
			    span)
				span = stats_track_span_ns(
					&runs[ri]->src.g[i]->track);
	/* about 250 points, never finer than 200 ms */
	step = span / 250;
	if (step < 200000000)
		step = 200000000;

	for (ri = 0; ri < 2 && runs[ri] && !rc; ri++) {
		const struct run *r = runs[ri];

		for (i = 0; i < r->src.ng && !rc; i++) {
			const struct source_guest *g = r->src.g[i];
			const struct stats_track *t = &g->track;
			bool blk = !(t->npts && t->pts[t->npts - 1].present &
				     (1u << SF_NRSWPOUT));
			const char *col;

			for (j = 0, idx = 0; j < i; j++)
				if (!strcmp(r->src.g[j]->kernel, g->kernel))
					idx++;
			col = guest_color(g->kernel, ri, idx);
			snprintf(label, sizeof(label), "%s%s%s",
				 b ? (ri ? "B " : "A ") : "", g->name,
				 blk ? " (blk stats)" : "");
			rc = add_series(p, 0, label, col, blk, t,
					blk ? STATS_M_DEV_WR_PPIO :
					STATS_M_WR_PPIO, 1, step);
			if (rc)
				break;
			snprintf(label, sizeof(label), "%s%s out",
				 b ? (ri ? "B " : "A ") : "", g->name);
			rc = add_series(p, 1, label, col, false, t,
					STATS_M_PSWPOUT_S, 4096.0 / 1048576,
					step);
			if (rc)
				break;
			snprintf(label, sizeof(label), "%s%s in",
				 b ? (ri ? "B " : "A ") : "", g->name);
			rc = add_series(p, 1, label, col, true, t,
					STATS_M_PSWPIN_S, 4096.0 / 1048576,
					step);
		}
	}
	if (rc) {
		snprintf(err, errlen, "%s: out of memory", path);
	} else {
		panels[0].title = "Pages per swap write I/O (pswpout / nrswpout)";
		panels[0].xlabel = "time since the guest's first sample (s)";
		panels[0].ylabel = "pages per write I/O";
		panels[0].series = p->s[0];
		panels[0].nseries = p->n[0];
		panels[1].title = "Swap throughput (solid: out, dashed: in)";
		panels[1].xlabel = "time since the guest's first sample (s)";
		panels[1].ylabel = "MiB/s";
		panels[1].series = p->s[1];
		panels[1].nseries = p->n[1];
		if (b)
			snprintf(title, sizeof(title),
				 "swapctl: A %.200s vs B %.200s", a->src.id,
				 b->src.id);
		else
			snprintf(title, sizeof(title), "swapctl: %.200s%s%.100s",
				 a->src.id, a->src.scenario[0] ? " - " : "",
				 a->src.scenario);
		rc = svg_write_file(path, title, panels, 2, err, errlen);
	}
	for (ri = 0; ri < 2; ri++)
		for (i = 0; i < p->n[ri]; i++) {
			free(p->buf[ri][i][0]);
			free(p->buf[ri][i][1]);
		}
	free(p);
	return rc;
}

int cmd_report(int argc, char **argv, struct swapctl_config *cfg)
{
	static struct run runs[2];
	struct report_opts o;
	char err[PATH_MAX + 256];
	unsigned int i, n;
	int r = 0;

	r = parse_args(argc, argv, &o);
	if (r)
		return r < 0 ? EXIT_OK : r;
	n = o.ndirs ? o.ndirs : 1;
	for (i = 0; i < n; i++) {
		r = load_run(&runs[i], cfg->workdir, o.ndirs ? o.dir[i] : NULL,
			     err, sizeof(err));
		if (r) {
			fprintf(stderr, "swapctl report: %s\n", err);
			while (i--)
				source_close(&runs[i].src);
			return r == -2 ? EXIT_DATA : o.ndirs ? EXIT_USAGE :
				EXIT_SETUP;
		}
	}
	switch (o.fmt) {
	case F_TEXT:
		if (n == 1)
			text_run(&runs[0], stdout);
		else
			text_compare(&runs[0], &runs[1], stdout);
		break;
	case F_JSON:
		r = json_out(&runs[0], n > 1 ? &runs[1] : NULL, stdout);
		break;
	case F_CSV:
		csv_out(&runs[0], n > 1 ? &runs[1] : NULL, stdout);
		break;
	case F_NONE:
		break;
	}
	if (fflush(stdout) || r) {
		fprintf(stderr, "swapctl report: <stdout>: write failed\n");
		r = EXIT_OUTPUT;
	}
	if (!r && o.svg && svg_out(&runs[0], n > 1 ? &runs[1] : NULL, o.svg,
				   err, sizeof(err))) {
		fprintf(stderr, "swapctl report: %s\n", err);
		r = EXIT_OUTPUT;
	}
	for (i = 0; i < n; i++) {
		if (!r && runs[i].src.empty[0]) {
			fprintf(stderr, "swapctl report: %s: empty (the guest sent nothing)\n",
				runs[i].src.empty);
			r = EXIT_DATA;
		}
		source_close(&runs[i].src);
	}
	return r;
}
