// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl bisect: which patch of a series changed a metric. Builds the
 * kernel after every patch (swapctl build --keep-each: kernels/<series>.
 * <KK>/), runs the scenario on the baseline and on each of them in one
 * run (swapctl run --kernels baseline,<series>.01,...: the same
 * interleaving and the same recording), and judges every kernel against
 * the previous one and the baseline with the results model (bisect.c in
 * results/).
 */
#include <inttypes.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "jfile.h"
#include "bisect.h"
#include "kline.h"
#include "manifest.h"
#include "metrics.h"
#include "parse-options.h"
#include "results.h"
#include "scenario.h"
#include "series.h"
#include "source.h"
#include "swapctl.h"
#include "util.h"

struct bisect {
	struct swapctl_config *cfg;
	const char *series, *patches, *run_dir, *scenario, *line_opt;
	char line[KLINE_MAX];	/* --line, the scenario's, kernel_line */
	int repeat;
	bool json;
	struct res_mde_opts metrics;	/* --metric, in order */
	/* the run's kernels: baseline, <series>.01, ... */
	char kernels[RES_MAX_KERNELS][SCN_KERNEL_MAX];
	unsigned int nk;
	char patch[RES_MAX_KERNELS][256];
	struct bisect_names names;
	char dir[PATH_MAX];
	struct source src;
	struct results res;
};

static void msg(const char *fmt, ...) __printf(1, 2);

static void msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "swapctl bisect: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The kernels' names from the series: baseline, then <series>.<KK>. */
static int series_kernels(struct bisect *b)
{
	char root[PATH_MAX], err[1024];
	const char *dd = util_data_dir();
	struct series s;
	size_t k;

	if (b->patches)
		snprintf(root, sizeof(root), "%s", b->patches);
	else if (kline_is_first(b->line))
		util_path(root, sizeof(root), "%s/patches", dd ? dd : ".");
	else
		util_path(root, sizeof(root), "%s/patches/%s", dd ? dd : ".",
			  b->line);
	if (series_load(&s, root, b->series, err, sizeof(err))) {
		msg("%s", err);
		return EXIT_PATCH;
	}
	if (!s.n || s.n + 1 > RES_MAX_KERNELS) {
		msg("%s: %zu patches: bisect takes 1 to %d", s.file, s.n,
		    RES_MAX_KERNELS - 1);
		series_free(&s);
		return EXIT_PATCH;
	}
	snprintf(b->kernels[0], SCN_KERNEL_MAX, "baseline");
	for (k = 1; k <= s.n; k++) {
		if (util_path(b->kernels[k], SCN_KERNEL_MAX, "%s.%0*zu",
			      b->series, s.n > 99 ? 3 : 2, k)) {
			msg("%s: series name too long for a kernel name",
			    b->series);
			series_free(&s);
			return EXIT_USAGE;
		}
		snprintf(b->patch[k], sizeof(b->patch[k]), "%s",
			 s.patches[k - 1].name);
	}
	b->nk = (unsigned int)s.n + 1;
	series_free(&s);
	return 0;
}

/*
 * Run @fn (cmd_build, cmd_run) with its standard output sent to our
 * standard error: stdout is bisect's table or JSON alone.
 */
static int quiet(int (*fn)(int, char **, struct swapctl_config *),
		 int argc, const char **argv, struct swapctl_config *cfg)
{
	int saved, ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		msg("dup: %s", strerror(errno));
		return EXIT_FAILURE_GENERIC;
	}
	ret = fn(argc, (char **)argv, cfg);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return ret;
}

static int build_kernels(struct bisect *b)
{
	const char *base[7] = { "build", "--baseline", "--line", b->line };
	const char *each[9] = { "build", "--series", b->series, "--keep-each",
				"--line", b->line };
	int n = 4, ret;

	if (b->patches) {
		base[n++] = "--patches";
		base[n++] = b->patches;
		each[6] = "--patches";
		each[7] = b->patches;
	}
	msg("building the baseline and the kernel after each of the %u patches of %s",
	    b->nk - 1, b->series);
	ret = quiet(cmd_build, n, base, b->cfg);
	if (!ret)
		ret = quiet(cmd_build, b->patches ? 8 : 6, each, b->cfg);
	if (ret)
		msg("the build failed (exit %d): no kernel is run", ret);
	return ret;
}

/* A run's exit code that leaves no results to judge. */
static bool run_fatal(int code)
{
	return code == EXIT_INTERRUPTED || code == EXIT_SETUP ||
	       code == EXIT_NO_KERNEL ||
	       code == EXIT_CONFIG || code == EXIT_USAGE ||
	       code == EXIT_FAILURE_GENERIC;
}

static int run_kernels(struct bisect *b)
{
	char list[RES_MAX_KERNELS * SCN_KERNEL_MAX + 1] = "", rep[16];
	const char *argv[10];
	unsigned int k;
	int n = 0, ret;

	for (k = 0; k < b->nk; k++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", k ? "," : "", b->kernels[k]);
	argv[n++] = "run";
	argv[n++] = "--kernels";
	argv[n++] = list;
	argv[n++] = "--line";
	argv[n++] = b->line;
	if (b->repeat) {
		snprintf(rep, sizeof(rep), "%d", b->repeat);
		argv[n++] = "--repeat";
		argv[n++] = rep;
	}
	argv[n++] = b->scenario;
	argv[n] = NULL;
	msg("running %s on %u kernels", b->scenario, b->nk);
	ret = quiet(cmd_run, n, argv, b->cfg);
	if (run_fatal(ret)) {
		msg("the run failed (exit %d): nothing to judge", ret);
		return ret;
	}
	if (ret)
		msg("the run exited %d (its expectations or regressions against the baseline); judging every patch",
		    ret);
	return 0;
}

/* The last patch's name of kernels/<k>/manifest.json, for --run. */
static void manifest_patch(struct bisect *b, unsigned int k)
{
	char name[PATH_MAX];
	json_error_t jerr;
	json_t *m, *step;

	kline_kernel_name(name, sizeof(name), b->res.kernels[k], b->line);
	m = manifest_load(b->cfg->workdir, name, &jerr);
	step = json_object_get(m, "step");
	snprintf(b->patch[k], sizeof(b->patch[k]), "%s",
		 json_string_value(json_object_get(step, "name")) ?: "");
	json_decref(m);
}

/*
 * --run: the line the recorded run names, if any, is the line; --line
 * may only repeat it (another would relabel the run). 0 or EXIT_USAGE.
 */
static int run_line(struct bisect *b)
{
	const char *rec;
	char path[PATH_MAX];
	json_error_t jerr;
	json_t *run;
	int ret = 0;

	if (util_path(path, sizeof(path), "%s/summary.json", b->dir))
		return 0;
	run = jfile_load(path, 0, &jerr);
	if (!run && errno != ENOENT) {
		char why[PATH_MAX + 200];

		jfile_error(&jerr, path, why, sizeof(why));
		msg("warning: %s: the run's kernel line is not known", why);
	}
	rec = json_string_value(json_object_get(run, "kernel_line"));
	if (rec && b->line_opt && strcmp(rec, b->line_opt)) {
		msg("--line %s: %s is a run of line %.16s (its summary.json): a line is not relabelled",
		    b->line_opt, b->dir, rec);
		ret = EXIT_USAGE;
	} else if (rec && !b->line_opt) {
		snprintf(b->line, sizeof(b->line), "%s", rec);
	}
	json_decref(run);
	return ret;
}

/* Load the run directory into b->res; check its kernels when we ran it. */
static int load_run(struct bisect *b, const char *arg)
{
	char err[2 * PATH_MAX];
	unsigned int i;

	/* the codes of report and top for the same causes (swapctl(1)) */
	if (source_resolve(b->cfg->workdir, arg, b->dir, sizeof(b->dir), err,
			   sizeof(err))) {
		msg("%s", err);
		return arg ? EXIT_USAGE : EXIT_SETUP;
	}
	if (source_open(&b->src, b->dir, true, 1, err, sizeof(err))) {
		msg("%s", err);
		return EXIT_DATA;
	}
	source_seek_end(&b->src);
	for (i = 0; i < b->src.nkernels; i++)
		results_kernel(&b->res, b->src.kernels[i]);
	for (i = 0; i < b->src.ng; i++)
		if (results_add(&b->res, b->src.g[i]->kernel,
				b->src.g[i]->rep, &b->src.g[i]->track)) {
			msg("%s: out of memory", b->dir);
			return EXIT_FAILURE_GENERIC;
		}
	if (b->res.nk < 2) {
		msg("%s: %u kernel%s: bisect needs the baseline and at least one patch",
		    b->dir, b->res.nk, b->res.nk == 1 ? "" : "s");
		/* a run, but not one to bisect: as unusable runs are */
		return b->run_dir ? EXIT_DATA : EXIT_SETUP;
	}
	for (i = 0; b->nk && i < b->nk; i++)
		if (i >= b->res.nk || strcmp(b->res.kernels[i], b->kernels[i])) {
			msg("%s: not the run of these kernels (another run took runs/latest?)",
			    b->dir);
			return EXIT_SETUP;
		}
	if (!b->nk && run_line(b))
		return EXIT_USAGE;
	for (i = 1; i < b->res.nk; i++)
		if (!b->nk)
			manifest_patch(b, i);
	for (i = 1; i < b->res.nk; i++)
		b->names.patch[i] = b->patch[i];
	return 0;
}

/*
 * The line: --line, else the scenario's kernel_line, else kernel_line
 * of swapctl.conf (with --run: the recorded run's, run_line()). 0 or
 * an exit code.
 */
static int pick_line(struct bisect *b, struct popt_cmd *cmd)
{
	static struct scenario scn;
	char err[1024], path[PATH_MAX];

	snprintf(b->line, sizeof(b->line), "%s", b->cfg->kernel_line);
	if (b->line_opt && !kline_valid(b->line_opt))
		return popt_error(cmd, "--line: '%s' is not a kernel line (MAJOR.MINOR, as 6.1 or 6.12)",
				  b->line_opt);
	if (b->line_opt) {
		snprintf(b->line, sizeof(b->line), "%s", b->line_opt);
	} else if (b->scenario) {
		if (scenario_load(&scn, scenario_find(b->scenario, path,
						      sizeof(path)),
				  err, sizeof(err))) {
			msg("%s", err);
			return EXIT_CONFIG;
		}
		if (scn.kernel_line[0])
			snprintf(b->line, sizeof(b->line), "%s",
				 scn.kernel_line);
	}
	return 0;
}

static int output(struct bisect *b)
{
	int all[RES_MAX_METRICS], *mi = b->metrics.mi;
	unsigned int n = b->metrics.n, i;
	json_t *o;
	char *text;

	if (!n) {
		for (i = 0; i < metric_count && i < RES_MAX_METRICS; i++)
			all[i] = (int)i;
		mi = all;
		n = i;
	}
	if (!b->json) {
		printf("bisect of %s (%s, line %s): %s\n\n", b->series ?
		       b->series : "a recorded run", b->src.scenario, b->line,
		       b->dir);
		bisect_print(stdout, &b->res, mi, n, &b->names,
			     b->metrics.n > 0);
		return EXIT_OK;
	}
	o = bisect_json(&b->res, mi, n, &b->names);
	if (o) {
		json_object_set_new(o, "run_dir", json_string(b->dir));
		json_object_set_new(o, "scenario", json_string(
			b->src.scenario));
		json_object_set_new(o, "series", b->series ?
				    json_string(b->series) : json_null());
		json_object_set_new(o, "kernel_line", json_string(b->line));
	}
	text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			      JSON_REAL_PRECISION(6)) : NULL;
	if (text)
		printf("%s\n", text);
	free(text);
	json_decref(o);
	return text ? EXIT_OK : EXIT_FAILURE_GENERIC;
}

int cmd_bisect(int argc, char **argv, struct swapctl_config *cfg)
{
	static struct bisect b;
	struct popt opts[] = {
		OPT_STRING(0, "series", &b.series, "NAME",
			   "the series to bisect, patches/NAME/series (default: 'series' in swapctl.conf)"),
		OPT_STRING(0, "patches", &b.patches, "DIR",
			   "root of the series directories (default: the patches/ directory next to swapctl)"),
		OPT_STRING(0, "line", &b.line_opt, "LINE",
			   "the kernel line to build and run, MAJOR.MINOR (default: the scenario's kernel_line, else 'kernel_line' in swapctl.conf): its series under patches/LINE/ (patches/ for 6.1)"),
		OPT_CALLBACK(0, "metric", &b.metrics, "KEY",
			     "judge this metric only, with its values per patch (repeatable; default: every metric, as a table of verdicts)",
			     results_opt_metric),
		OPT_INT(0, "repeat", &b.repeat, "N",
			"run each kernel N times, interleaved as swapctl run does (default: the scenario's repeat)",
			1, 100),
		OPT_STRING(0, "run", &b.run_dir, "DIR",
			   "judge this recorded run instead of building and running (its first kernel the baseline, the others the patches in order)"),
		OPT_BOOL(0, "json", &b.json, "print the judgement as one JSON object"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 4, 5, 6, 10, 11, 16, 130, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "bisect", .args = "[SCENARIO.json]", .min_args = 0,
		.max_args = 1, .opts = opts,
		.desc =
		"Find the patch of a series that changed each metric: build the\n"
		"kernel after every patch (swapctl build --keep-each), run the\n"
		"scenario on the baseline and each of them in one run, and judge\n"
		"every kernel against the previous one and against the baseline\n"
		"(the verdicts of swapctl run). For each metric whose verdict on\n"
		"the last kernel is a change, name the first patch from which on\n"
		"every verdict against the baseline is that one.\n",
		.epilog =
		"A run that fails its expectations or regresses is still judged\n"
		"(exit 0, whatever the verdicts).\n",
	};
	int n, ret;

	memset(&b, 0, sizeof(b));
	b.cfg = cfg;
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if (!!b.run_dir == (n == 1))
		return popt_error(&cmd, b.run_dir ?
				  "--run judges a recorded run: no SCENARIO" :
				  "give SCENARIO.json (or --run DIR)");
	if (b.run_dir && (b.series || b.patches || b.repeat))
		return popt_error(&cmd, "--run excludes --series, --patches and --repeat");
	results_init(&b.res);
	b.scenario = n ? argv[0] : NULL;
	ret = pick_line(&b, &cmd);
	if (ret)
		return ret;
	if (!b.run_dir && !b.series)
		b.series = cfg->series;
	if (!b.run_dir && !strcmp(b.series, "baseline"))
		return popt_error(&cmd, "--series: the baseline has nothing to bisect");
	ret = b.run_dir ? 0 : series_kernels(&b);
	if (!ret && !b.run_dir)
		ret = build_kernels(&b);
	if (!ret && !b.run_dir)
		ret = run_kernels(&b);
	if (!ret)
		ret = load_run(&b, b.run_dir);
	if (!ret)
		ret = output(&b);
	if (!ret && b.src.empty[0]) {
		msg("%s: %s", b.src.empty, b.src.empty_why);
		ret = EXIT_DATA;
	}
	if ((!ret || ret == EXIT_REGRESSION) && source_backwards(&b.src)) {
		msg("%s: %" PRIu64 " samples went back in time (t_ns) and were dropped: the verdicts over it are not to be trusted",
		    source_backwards(&b.src)->path,
		    source_backwards(&b.src)->track.backwards);
		ret = EXIT_DATA;
	}
	source_close(&b.src);
	results_free(&b.res);
	return ret;
}
