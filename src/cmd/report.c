// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl report: the table of a recorded run (text, JSON, CSV, the
 * plain-text table for a cover letter, or KCIDB JSON) and an SVG plot
 * over time of pages per I/O and swap throughput per kernel; with two
 * runs, their comparison. The numbers come from the same stream/stats
 * code as swapctl top.
 */
#include <inttypes.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <jansson.h>

#include "calib.h"
#include "jfile.h"
#include "email.h"
#include "kcidb.h"
#include "metrics.h"
#include "hostrec.h"
#include "parse-options.h"
#include "results.h"
#include "scenario.h"
#include "source.h"
#include "stats.h"
#include "svg.h"
#include "swapctl.h"
#include "util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_GUEST_COLS	6	/* per-guest columns in the text table */

enum fmt { F_TEXT, F_JSON, F_CSV, F_EMAIL, F_KCIDB, F_NONE };

/* --format's names, by enum fmt; --text, --json, --csv, --kcidb alike */
static const char *const fmt_names[] = {
	"text", "json", "csv", "text-email", "kcidb",
};

struct run {
	struct source src;
	struct results res;	/* res.g[i] is src.g[i] */
	int targets[RES_MAX_METRICS];	/* power targets (--metric) */
	unsigned int ntargets;
	char line[16];		/* summary.json's kernel_line, "" unknown */
};

#define POWER_LIMIT	1000	/* the most repeats a "needs N" figure says */

struct report_opts {
	enum fmt fmt;
	const char *svg;
	const char *dir[2];
	unsigned int ndirs;
	struct res_mde_opts pw;		/* --effect, --metric */
};

/* --format=FMT: 1 + its enum fmt into the int; twice only the same. */
static int format_cb(const struct popt *opt, const char *arg, char *err,
		     size_t errlen)
{
	int *v = opt->value;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fmt_names); i++)
		if (!strcmp(arg, fmt_names[i]))
			break;
	if (i == ARRAY_SIZE(fmt_names)) {
		snprintf(err, errlen, "unknown format '%s' (text, json, csv, text-email, kcidb)",
			 arg);
		return -1;
	}
	if (*v && *v != (int)i + 1) {
		snprintf(err, errlen, "'%s' after '%s': give one format",
			 arg, fmt_names[*v - 1]);
		return -1;
	}
	*v = (int)i + 1;
	return 0;
}

static int parse_args(int argc, char **argv, struct report_opts *o)
{
	/* 0: not given, else 1 + enum fmt */
	int mode = 0, format = 0, n;
	struct popt opts[] = {
		OPT_CALLBACK(0, "format", &format, "FMT",
			     "text (the default), json, csv, text-email (a table for a cover letter, at most 78 columns) or kcidb (KCIDB v5 JSON)",
			     format_cb),
		OPT_CMDMODE(0, "text", &mode, 1 + F_TEXT, "aligned table (--format=text)"),
		OPT_CMDMODE(0, "json", &mode, 1 + F_JSON, "one JSON object (--format=json)"),
		OPT_CMDMODE(0, "csv", &mode, 1 + F_CSV, "one row per guest (--format=csv)"),
		OPT_CMDMODE(0, "kcidb", &mode, 1 + F_KCIDB, "KCIDB I/O schema v5.3 JSON (--format=kcidb)"),
		OPT_CALLBACK(0, "effect", &o->pw, "E",
			     "also say how many runs per kernel each comparison would need to detect a relative difference E (2% or 0.02)",
			     results_opt_effect),
		OPT_CALLBACK(0, "metric", &o->pw, "KEY",
			     "a metric whose power the text table's foot shows (repeatable; default: the run's no_regression timings, workload and system CPU time, system and host CPU ms per MiB)",
			     results_opt_metric),
		OPT_STRING(0, "svg", &o->svg, "FILE",
			   "also write a plot over time of pages per I/O and swap throughput for each kernel (only the plot when no table format is given)"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 4, 10, 11, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "report", .args = "[RUN_DIR [RUN_DIR_B]]", .max_args = 2,
		.opts = opts,
		.desc =
		"Summarise a recorded run (default <workdir>/runs/latest; a run\n"
		"id under <workdir>/runs works too): per guest every metric of\n"
		"the registry (swapctl metrics), per kernel the mean with its 95%\n"
		"confidence interval over the repetitions, and per metric and\n"
		"kernel the ratio to the run's first kernel (the reference) with\n"
		"its 95% interval, Welch's p-value and a verdict: better, worse,\n"
		"no significant change, not measured (the same as swapctl run).\n"
		"With two runs, compare them kernel by kernel (B/A; text, json\n"
		"and csv).\n",
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
	if (mode && format && mode != format)
		return popt_error(&cmd, "'--format=%s' and '--%s' exclude each other",
				  fmt_names[format - 1], fmt_names[mode - 1]);
	if (format)
		mode = format;
	o->fmt = mode ? (enum fmt)(mode - 1) : o->svg ? F_NONE : F_TEXT;
	if ((o->fmt == F_EMAIL || o->fmt == F_KCIDB) && o->ndirs > 1)
		return popt_error(&cmd, "--format=%s: one run directory, not two (compare runs with text, json or csv)",
				  fmt_names[o->fmt]);
	if (o->svg && !strcmp(o->svg, "-") && o->fmt != F_NONE) {
		fprintf(stderr, "swapctl report: --svg -: standard output already has the table (drop --text/--json/--csv/--format or name a file)\n");
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

/*
 * summary.json's "host" and "rerun" of guest @kernel-@rep (NULL each:
 * not recorded, e.g. a run from before hosts or one interrupted).
 */
static void guest_place(json_t *sum, const char *kernel, unsigned int rep,
			const char **host, const char **rerun)
{
	json_t *g;
	size_t i;

	*host = *rerun = NULL;
	json_array_foreach(json_object_get(sum, "results"), i, g) {
		if (!json_is_string(json_object_get(g, "kernel")) ||
		    strcmp(json_string_value(json_object_get(g, "kernel")),
			   kernel) ||
		    json_integer_value(json_object_get(g, "rep")) !=
		    (json_int_t)rep)
			continue;
		*host = json_string_value(json_object_get(g, "host"));
		*rerun = json_string_value(json_object_get(g, "rerun"));
		return;
	}
}

/* @path (a run's summary.json), or NULL with a warning if not usable */
static json_t *summary_load(const char *path)
{
	char why[PATH_MAX + 200];
	json_error_t jerr;
	json_t *sum;

	sum = jfile_load(path, 0, &jerr);
	if (!sum && errno != ENOENT) {
		jfile_error(&jerr, path, why, sizeof(why));
		fprintf(stderr, "swapctl report: warning: %s: the guests' hosts and reruns are not known\n",
			why);
	}
	return sum;
}

static int load_run(struct run *r, const char *workdir, const char *arg,
		    char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	const char *host, *rerun;
	unsigned int i;
	json_t *sum;

	memset(r, 0, sizeof(*r));
	results_init(&r->res);
	if (source_resolve(workdir, arg, dir, sizeof(dir), err, errlen))
		return -1;
	if (source_open(&r->src, dir, true, 1, err, errlen))
		return -2;	/* there, but not a usable run */
	source_seek_end(&r->src);
	/* the run's order, reference first; then whatever else is there */
	for (i = 0; i < r->src.nkernels; i++)
		results_kernel(&r->res, r->src.kernels[i]);
	/* each guest's host, which blocks the comparisons (results.h) */
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	sum = summary_load(path);
	for (i = 0; i < r->src.ng; i++) {
		guest_place(sum, r->src.g[i]->kernel, r->src.g[i]->rep, &host,
			    &rerun);
		if (results_add_on(&r->res, r->src.g[i]->kernel,
				   r->src.g[i]->rep, host, rerun,
				   &r->src.g[i]->track)) {
			snprintf(err, errlen, "%s: out of memory", dir);
			json_decref(sum);
			source_close(&r->src);
			results_free(&r->res);
			return -1;
		}
	}
	snprintf(r->line, sizeof(r->line), "%s",
		 json_string_value(json_object_get(sum, "kernel_line")) ?: "");
	json_decref(sum);
	return 0;
}

static void close_run(struct run *r)
{
	source_close(&r->src);
	results_free(&r->res);
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

/*
 * The width the text fits: $COLUMNS when set (>= 40), else the terminal's
 * when standard output is one, else 0 (no limit: a file or a pipe).
 */
static unsigned int text_width(void)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;

	if (c && atoi(c) >= 40)
		return (unsigned int)atoi(c);
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col)
		return ws.ws_col;
	return 0;
}

/* Under the table: the host of each repeat, and the re-runs. */
static void host_lines(const struct run *r, FILE *f)
{
	char buf[RES_MAX_HOSTS * 2 * CONFIG_URI_MAX + 512];

	if (results_host_lines(&r->res, buf, sizeof(buf)))
		fputs(buf, f);
}

static void text_run(const struct run *r, FILE *f)
{
	unsigned int i, m, kk, ng = r->src.ng, width = text_width();
	char buf[64], title[512], hw[1024];

	/* one line, or two when it would not fit */
	snprintf(title, sizeof(title), "scenario %s%s%s  state %s  reference %s",
		 r->src.scenario[0] ? r->src.scenario : "?",
		 r->line[0] ? "  line " : "", r->line,
		 r->src.state[0] ? r->src.state : "?",
		 r->res.nk ? r->res.kernels[0] : "?");
	if (width && strlen(r->src.id) + 6 + strlen(title) > width)
		fprintf(f, "run %s\n%s\n", r->src.id, title);
	else
		fprintf(f, "run %s  %s\n", r->src.id, title);
	if (ng > MAX_GUEST_COLS || (width && 24 + 17 * ng > width)) {
		fprintf(f, "(%u guests: per guest values with --csv or --json)\n",
			ng);
		ng = 0;
	}
	if (ng) {
		fprintf(f, "%-24s", "");
		for (i = 0; i < ng; i++)
			fprintf(f, " %16s", r->src.g[i]->name);
		fputc('\n', f);
		fprintf(f, "%-24s", "kernel");
		for (i = 0; i < ng; i++)
			fprintf(f, " %16.16s", r->src.g[i]->track.kernel[0] ?
				r->src.g[i]->track.kernel : "?");
		fputc('\n', f);
		fprintf(f, "%-24s", "status");
		for (i = 0; i < ng; i++)
			fprintf(f, " %16s", status_str(r->src.g[i]));
		fputc('\n', f);
		for (m = 0; m < metric_count; m++) {
			fprintf(f, "%-24s", metric_defs[m].label);
			for (i = 0; i < ng; i++) {
				fmt_val(buf, sizeof(buf), r->res.g[i].v[m],
					metric_defs[m].decimals);
				fprintf(f, " %16s", buf);
			}
			fputc('\n', f);
		}
		fprintf(f, "%-24s", "lines ok/bad/lost");
		for (i = 0; i < ng; i++) {
			const struct stream_state *st = r->src.g[i]->st;

			snprintf(buf, sizeof(buf), "%llu/%llu/%llu",
				 (unsigned long long)st->ok,
				 (unsigned long long)(st->malformed +
						      st->too_long +
						      st->absurd +
						      st->seq_dups),
				 (unsigned long long)st->seq_missing);
			fprintf(f, " %16s", buf);
		}
		fputc('\n', f);
	}
	warn_resets(r, "", f);
	/* the events: faults injected into each guest, in order */
	for (i = 0; i < r->src.ng; i++) {
		const struct track *t = &r->src.g[i]->track;

		for (kk = 0; kk < t->nfaults; kk++)
			fprintf(f, "%s: fault %s %s%s%s\n", r->src.g[i]->name,
				t->faults[kk].name,
				t->faults[kk].end ? "end" : "start",
				t->faults[kk].detail[0] ? ": " : "",
				t->faults[kk].detail);
	}
	fprintf(f, "\nper kernel: mean ±95%% CI; ratio to %s [95%% CI]\n",
		r->res.nk ? r->res.kernels[0] : "?");
	results_print_table_fit(f, &r->res, width);
	host_lines(r, f);
	if (hostrec_load_warning(r->src.dir, hw, sizeof(hw)))
		fprintf(f, "host: %s (host.json)\n", hw);
	results_print_mde(f, &r->res, r->targets, r->ntargets);
}

/* The power targets of @r: --metric, else those of its scenario. */
static void power_targets(struct run *r, const struct report_opts *o)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char path[PATH_MAX], err[512];

	r->res.effect = o->pw.effect;
	r->res.effect_limit = POWER_LIMIT;
	if (o->pw.n) {
		memcpy(r->targets, o->pw.mi, o->pw.n * sizeof(r->targets[0]));
		r->ntargets = o->pw.n;
		free(s);
		return;
	}
	/* a scenario that no longer loads still gets the cost metrics */
	if (s && (util_path(path, sizeof(path), "%s/scenario.json",
			    r->src.dir) ||
		  scenario_load(s, path, err, sizeof(err)))) {
		free(s);
		s = NULL;
	}
	r->ntargets = results_mde_targets(s, r->targets, RES_MAX_METRICS);
	free(s);
}

/* Kernel @k of run @b against the same kernel of run @a. */
static bool cross(const struct run *a, const struct run *b, unsigned int k,
		  unsigned int m, struct res_cmp *c)
{
	int kb = results_kernel_index(&b->res, a->res.kernels[k]);
	struct stats_desc da, db;
	enum stats_state sa, sb;

	if (kb < 0)
		return false;
	sa = results_desc(&a->res, k, m, &da);
	sb = results_desc(&b->res, (unsigned int)kb, m, &db);
	results_judge(&metric_defs[m], sa, &da, sb, &db, c);
	return true;
}

static void text_compare(const struct run *a, const struct run *b, FILE *f)
{
	char x[48], y[48], q[64];
	unsigned int m, k;

	fprintf(f, "A: %s (%s)\nB: %s (%s)\n", a->src.id, a->src.scenario,
		b->src.id, b->src.scenario);
	warn_resets(a, "A ", f);
	warn_resets(b, "B ", f);
	for (k = 0; k < a->res.nk; k++) {
		if (results_kernel_index(&b->res, a->res.kernels[k]) < 0)
			continue;
		fprintf(f, "\n%-24s %14s %14s %30s\n", a->res.kernels[k],
			"A", "B", "B/A [95% CI] verdict");
		for (m = 0; m < metric_count; m++) {
			struct stats_desc d;
			enum stats_state st;
			struct res_cmp c;
			int kb = results_kernel_index(&b->res,
						      a->res.kernels[k]);

			st = results_desc(&a->res, k, m, &d);
			fmt_val(x, sizeof(x), st == STATS_OK ?
				stats_ok(d.mean) : (struct stats_val){ st, 0 },
				metric_defs[m].decimals);
			st = results_desc(&b->res, (unsigned int)kb, m, &d);
			fmt_val(y, sizeof(y), st == STATS_OK ?
				stats_ok(d.mean) : (struct stats_val){ st, 0 },
				metric_defs[m].decimals);
			cross(a, b, k, m, &c);
			if (c.has_ratio && c.has_ci)
				snprintf(q, sizeof(q), "%.2fx [%.2f, %.2f] %s",
					 c.ratio, c.lo, c.hi,
					 results_verdict_name(c.verdict));
			else if (c.has_ratio)
				snprintf(q, sizeof(q), "%.2fx %s", c.ratio,
					 results_verdict_name(c.verdict));
			else
				snprintf(q, sizeof(q), "%s",
					 results_verdict_name(c.verdict));
			fprintf(f, "%-24s %14s %14s %30s\n",
				metric_defs[m].label, x, y, q);
		}
	}
}

/* ---- JSON ---- */

static json_t *run_json(const struct run *r)
{
	json_t *o, *guests;
	char hw[1024];
	unsigned int i;

	o = json_object();
	json_object_set_new(o, "run", json_string(r->src.id));
	json_object_set_new(o, "dir", json_string(r->src.dir));
	json_object_set_new(o, "scenario", json_string(r->src.scenario));
	json_object_set_new(o, "host_warning",
			    hostrec_load_warning(r->src.dir, hw, sizeof(hw)) ?
			    json_string(hw) : json_null());
	json_object_set_new(o, "state", json_string(r->src.state));
	json_object_set_new(o, "kernel_line", r->line[0] ?
			    json_string(r->line) : json_null());
	json_object_set_new(o, "reference", r->res.nk ?
			    json_string(r->res.kernels[0]) : json_null());
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
		results_guest_place_json(j, &r->res.g[i]);
		json_object_set_new(j, "metrics",
				    results_guest_json(&r->res.g[i]));
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
	json_object_set_new(o, "kernels", results_kernels_json(&r->res));
	json_object_set_new(o, "comparisons",
			    results_comparisons_json(&r->res));
	json_object_set_new(o, "phases", results_phases_json(&r->res));
	return o;
}

static int json_out(const struct run *a, const struct run *b, FILE *f)
{
	json_t *o;
	int r;

	if (!b) {
		o = run_json(a);
	} else {
		json_t *cmp = json_array();
		unsigned int k, m;

		o = json_object();
		json_object_set_new(o, "a", run_json(a));
		json_object_set_new(o, "b", run_json(b));
		for (k = 0; k < a->res.nk; k++)
			for (m = 0; m < metric_count; m++) {
				struct res_cmp c;

				if (!cross(a, b, k, m, &c))
					break;
				json_array_append_new(cmp, json_pack(
					"{sssssssosososs}",
					"metric", metric_defs[m].key,
					"kernel", a->res.kernels[k],
					"reference", "A",
					"ratio", c.has_ratio ?
						 json_real(c.ratio) :
						 json_null(),
					"ci95", c.has_ci ?
						json_pack("[ff]", c.lo, c.hi) :
						json_null(),
					"p_value", c.has_p ? json_real(c.p) :
						   json_null(),
					"verdict",
					results_verdict_name(c.verdict)));
			}
		json_object_set_new(o, "b_over_a", cmp);
	}
	r = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
		       JSON_REAL_PRECISION(6));
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
	for (m = 0; m < metric_count; m++)
		fprintf(f, ",%s", metric_defs[m].key);
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
			for (m = 0; m < metric_count; m++) {
				struct stats_val v = r->res.g[i].v[m];

				if (v.state == STATS_OK)
					snprintf(buf, sizeof(buf), "%.*f",
						 metric_defs[m].decimals ?
						 metric_defs[m].decimals + 2 :
						 0, v.v);
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

/* ---- text-email ---- */

static int email_out(const struct run *r, FILE *f)
{
	const char **status = calloc(r->src.ng ? r->src.ng : 1,
				     sizeof(*status));
	struct email_run e = {
		.res = &r->res, .scenario = r->src.scenario, .run = r->src.id,
		.status = status,
	};
	char hw[1024];
	unsigned int i;

	if (!status)
		return -1;
	if (hostrec_load_warning(r->src.dir, hw, sizeof(hw)))
		e.host_warning = hw;
	for (i = 0; i < r->src.ng; i++)
		status[i] = status_str(r->src.g[i]);
	email_print(f, &e);
	free(status);
	return 0;
}

/* ---- KCIDB ---- */

/*
 * What the run directory records of the kernels and guests beside the
 * samples: summary.json's kernel_images (variant, bzImage), debug,
 * accel and guest; the scenario's oom fault from scenario.json. Both
 * are optional (a run that was interrupted, or a fixture, has none).
 */
struct kcidb_facts {
	json_t *summary;
	struct kcidb_kernel k[RES_MAX_KERNELS];
	struct kcidb_guest *g;
};

static void summary_facts(const struct run *r, struct kcidb_facts *x,
			  struct kcidb_run *k)
{
	json_t *imgs, *img, *gu;
	unsigned int i;
	size_t j;

	imgs = json_object_get(x->summary, "kernel_images");
	json_array_foreach(imgs, j, img) {
		int ki = results_kernel_index(&r->res, json_string_value(
			json_object_get(img, "name")) ?: "");

		if (ki < 0)
			continue;
		x->k[ki].variant = json_string_value(json_object_get(img,
								     "variant"));
		if (json_is_boolean(json_object_get(img, "bzImage")))
			x->k[ki].built = json_is_true(json_object_get(img,
								      "bzImage"));
	}
	for (i = 0; i < r->res.nk; i++)
		x->k[i].debug = json_is_true(json_object_get(x->summary,
							     "debug"));
	k->accel = json_string_value(json_object_get(x->summary, "accel"));
	gu = json_object_get(x->summary, "guest");
	k->memory_mb = (unsigned int)json_integer_value(
		json_object_get(gu, "memory_mb"));
	k->cpus = (unsigned int)json_integer_value(json_object_get(gu,
								   "cpus"));
}

static bool run_expects_oom(const struct run *r)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char path[PATH_MAX + 16], err[PATH_MAX + 256];
	bool oom = false;

	if (!s)
		return false;
	snprintf(path, sizeof(path), "%s/scenario.json", r->src.dir);
	if (!scenario_load(s, path, err, sizeof(err)))
		oom = scn_expects_oom(s);
	free(s);
	return oom;
}

static int kcidb_out(const struct run *r, FILE *f)
{
	struct kcidb_facts x = { 0 };
	struct kcidb_run k = {
		.res = &r->res, .run = r->src.id, .scenario = r->src.scenario,
		.kernels = x.k,
	};
	char path[PATH_MAX + 16];
	unsigned int i;
	json_t *o;
	int rc;

	x.g = calloc(r->src.ng ? r->src.ng : 1, sizeof(*x.g));
	if (!x.g)
		return -1;
	for (i = 0; i < RES_MAX_KERNELS; i++)
		x.k[i].built = -1;
	for (i = 0; i < r->src.ng; i++) {
		const struct source_guest *g = r->src.g[i];
		int ki = results_kernel_index(&r->res, g->kernel);

		x.g[i].name = g->name;
		x.g[i].status = status_str(g);
		if (ki >= 0 && !x.k[ki].release && g->track.kernel[0])
			x.k[ki].release = g->track.kernel;
	}
	k.guests = x.g;
	snprintf(path, sizeof(path), "%s/summary.json", r->src.dir);
	x.summary = jfile_load(path, 0, NULL);
	if (x.summary)
		summary_facts(r, &x, &k);
	k.expects_oom = run_expects_oom(r);
	o = kcidb_json(&k);
	rc = o ? json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			    JSON_REAL_PRECISION(6)) : -1;
	fputc('\n', f);
	json_decref(o);
	json_decref(x.summary);
	free(x.g);
	return rc;
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

/*
 * One color per kernel (in the run's order, the reference first), a
 * lighter one for run B; further repeats of a kernel take the next.
 */
static const char *guest_color(const struct run *r, const char *kernel,
			       unsigned int run, unsigned int idx)
{
	static const char *const dark[] = {
		"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b",
		"#e377c2", "#7f7f7f", "#bcbd22",
	};
	static const char *const light[] = {
		"#17becf", "#ff7f0e", "#98df8a", "#c5b0d5", "#c49c94",
		"#f7b6d2", "#c7c7c7", "#dbdb8d",
	};
	int k = results_kernel_index(&r->res, kernel);

	if (k < 0)
		k = 0;
	k = (k + (int)idx) % (int)ARRAY_SIZE(dark);
	return run & 1 ? light[k] : dark[k];
}

static int add_series(struct plot *p, int panel, const char *label,
		      const char *color, bool dashed,
		      const struct track *t, enum track_metric m,
		      double scale, uint64_t step)
{
	struct stats_val v[SVG_MAX_POINTS];
	size_t i, n, k = p->n[panel];
	double *x, *y;

	if (k >= SVG_MAX_SERIES)
		return 0;
	n = track_series(t, m, 0, step, SVG_MAX_POINTS, v);
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
			if (track_span_ns(&runs[ri]->src.g[i]->track) > span)
				span = track_span_ns(
					&runs[ri]->src.g[i]->track);
	/* about 250 points, never finer than 200 ms */
	step = span / 250;
	if (step < 200000000)
		step = 200000000;

	for (ri = 0; ri < 2 && runs[ri] && !rc; ri++) {
		const struct run *r = runs[ri];

		for (i = 0; i < r->src.ng && !rc; i++) {
			const struct source_guest *g = r->src.g[i];
			const struct track *t = &g->track;
			bool blk = !(t->npts && t->pts[t->npts - 1].present &
				     (1u << TF_NRSWPOUT));
			const char *col;

			for (j = 0, idx = 0; j < i; j++)
				if (!strcmp(r->src.g[j]->kernel, g->kernel))
					idx++;
			col = guest_color(r, g->kernel, ri, idx);
			snprintf(label, sizeof(label), "%s%s%s",
				 b ? (ri ? "B " : "A ") : "", g->name,
				 blk ? " (blk stats)" : "");
			rc = add_series(p, 0, label, col, blk, t,
					blk ? TRACK_M_DEV_WR_PPIO :
					TRACK_M_WR_PPIO, 1, step);
			if (rc)
				break;
			snprintf(label, sizeof(label), "%s%s out",
				 b ? (ri ? "B " : "A ") : "", g->name);
			rc = add_series(p, 1, label, col, false, t,
					TRACK_M_PSWPOUT_S, 4096.0 / 1048576,
					step);
			if (rc)
				break;
			snprintf(label, sizeof(label), "%s%s in",
				 b ? (ri ? "B " : "A ") : "", g->name);
			rc = add_series(p, 1, label, col, true, t,
					TRACK_M_PSWPIN_S, 4096.0 / 1048576,
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

/* A calibration directory (swapctl calibrate): its tallies again. */
static int calib_out(const struct report_opts *o)
{
	char err[PATH_MAX + 256];
	int rc;

	if ((o->fmt != F_TEXT && o->fmt != F_JSON) || o->svg) {
		fprintf(stderr, "swapctl report: %s: a calibration directory has text and json only\n",
			o->dir[0]);
		return EXIT_USAGE;
	}
	rc = calib_report(o->dir[0], o->fmt == F_JSON, stdout, err,
			  sizeof(err));
	if (rc == -1)
		fprintf(stderr, "swapctl report: %s\n", err);
	return rc == -1 ? EXIT_DATA : rc ? EXIT_OUTPUT : EXIT_OK;
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
	if (o.ndirs == 1 && calib_is_dir(o.dir[0]))
		return calib_out(&o);
	n = o.ndirs ? o.ndirs : 1;
	for (i = 0; i < n; i++) {
		r = load_run(&runs[i], cfg->workdir, o.ndirs ? o.dir[i] : NULL,
			     err, sizeof(err));
		if (r) {
			fprintf(stderr, "swapctl report: %s\n", err);
			while (i--)
				close_run(&runs[i]);
			return r == -2 ? EXIT_DATA : o.ndirs ? EXIT_USAGE :
				EXIT_SETUP;
		}
		power_targets(&runs[i], &o);
		results_gate_dir(&runs[i].res, runs[i].src.dir);
	}
	if (n == 2 && strcmp(runs[0].src.scenario, runs[1].src.scenario))
		fprintf(stderr, "swapctl report: warning: %s is a run of scenario '%s', %s of '%s': the verdicts compare two different set-ups\n",
			runs[0].src.id, runs[0].src.scenario[0] ?
			runs[0].src.scenario : "?", runs[1].src.id,
			runs[1].src.scenario[0] ? runs[1].src.scenario : "?");
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
	case F_EMAIL:
		r = email_out(&runs[0], stdout);
		break;
	case F_KCIDB:
		r = kcidb_out(&runs[0], stdout);
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
		const struct source_guest *bw = source_backwards(&runs[i].src);

		if (!r && bw) {
			fprintf(stderr, "swapctl report: %s: %" PRIu64 " samples went back in time (t_ns) and were dropped: its rates and the verdicts over it are not to be trusted\n",
				bw->path, bw->track.backwards);
			r = EXIT_DATA;
		}
		if (!r && runs[i].src.empty[0]) {
			fprintf(stderr, "swapctl report: %s: %s\n",
				runs[i].src.empty, runs[i].src.empty_why);
			r = EXIT_DATA;
		}
		close_run(&runs[i]);
	}
	return r;
}
