// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl calibrate: one kernel run as both A and B of a scenario, N
 * times, to measure swapctl's own false verdicts and the exit code's A/A
 * rate. Each pair is a `swapctl run` of its own (this binary, exec'd from
 * /proc/self/exe with an argument vector) whose output goes to the
 * calibration directory; the tallies are src/results/calib.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "calib.h"
#include "jfile.h"
#include "kline.h"
#include "parse-options.h"
#include "results.h"
#include "scenario.h"
#include "swapctl.h"
#include "util.h"

/*
 * 20 pairs: a false-verdict rate of 5% then has a Wilson interval of
 * about [1%, 24%], narrow enough to tell a 5% rate from a 30% one (what
 * an uncorrected family of seven gated metrics gives), in about 20 * 2R
 * guests (zram-swap at R = 3: 20 minutes under TCG).
 */
#define DEF_PAIRS	20
#define MAX_PAIRS	1000
#define DEF_REPEAT	3	/* the fewest runs that have a spread */
#define MAX_ARGS	24
#define SETUP_TRIES	3	/* runs of a pair that exit 4 (setup) */
#define SETUP_WAIT_S	20
#define STR_(x)		#x
#define STR(x)		STR_(x)

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

struct calib_run {
	struct swapctl_config *cfg;
	struct scenario scn;
	char scn_path[PATH_MAX];
	const char *kernel;
	char line[KLINE_MAX];
	char variant[80];
	char bzimage[PATH_MAX];
	int repeat, icount, pairs;
	bool json, dry;
	char dir[PATH_MAX];		/* the calibration directory */
	char id[NAME_MAX + 1];
	/* the run's argument vector and its storage */
	const char *argv[MAX_ARGS];
	char kopt[2][PATH_MAX + 8], rep[16], ic[16];
	json_t *meta;
	struct calib tally;
};

/*
 * A kernel of a git tree keeps the name it was built under (swapctl build
 * --tree): kernels/@name/ when there is no @name@<line> and its manifest
 * says it is of c->line, as swapctl run picks it.
 */
static void tree_kernel(struct calib_run *c, const char *name)
{
	char path[PATH_MAX], bz[PATH_MAX];
	json_t *man;

	if (util_path(path, sizeof(path), "%s/kernels/%s/manifest.json",
		      c->cfg->workdir, name) ||
	    util_path(bz, sizeof(bz), "%s/kernels/%s/bzImage",
		      c->cfg->workdir, name))
		return;
	man = jfile_load(path, 0, NULL);
	if (!strcmp(json_string_value(json_object_get(man, "kernel_line")) ?:
		    "", c->line) && util_exists(bz)) {
		snprintf(c->variant, sizeof(c->variant), "%s", name);
		snprintf(c->bzimage, sizeof(c->bzimage), "%s", bz);
	}
	json_decref(man);
}

/* The kernel to run: its line, variant and bzImage (which must exist). */
static int pick_kernel(struct calib_run *c, struct popt_cmd *cmd,
		       const char *line)
{
	const char *name;

	if (line && !kline_valid(line))
		return popt_error(cmd, "--line: '%s' is not a kernel line (MAJOR.MINOR, as 6.1 or 6.12)",
				  line);
	snprintf(c->line, sizeof(c->line), "%s", line ? line :
		 c->scn.kernel_line[0] ? c->scn.kernel_line :
		 c->cfg->kernel_line);
	if (!c->kernel)
		c->kernel = c->scn.kernels[0];
	name = strcmp(c->kernel, SCN_PATCHED) ? c->kernel : c->cfg->series;
	if (kline_kernel_name(c->variant, sizeof(c->variant), name, c->line) ||
	    strchr(c->kernel, '/') ||
	    util_path(c->bzimage, sizeof(c->bzimage), "%s/kernels/%s/bzImage",
		      c->cfg->workdir, c->variant))
		return popt_error(cmd, "--kernel: '%s' is not a kernel name",
				  c->kernel);
	if (!util_exists(c->bzimage) && !kline_is_first(c->line))
		tree_kernel(c, name);
	if (!util_exists(c->bzimage)) {
		fprintf(stderr, "swapctl calibrate: kernel '%s' of line %s is not built (no %s); run 'swapctl build --line %s %s%s' first\n",
			c->kernel, c->line, c->bzimage, c->line,
			strcmp(name, "baseline") ? "--series " : "--baseline",
			strcmp(name, "baseline") ? name : "");
		return EXIT_NO_KERNEL;
	}
	return 0;
}

/* The argument vector of one pair's `swapctl run`. */
static void make_argv(struct calib_run *c)
{
	int n = 0;

	snprintf(c->kopt[0], sizeof(c->kopt[0]), "A=%s", c->bzimage);
	snprintf(c->kopt[1], sizeof(c->kopt[1]), "B=%s", c->bzimage);
	snprintf(c->rep, sizeof(c->rep), "%d", c->repeat);
	c->argv[n++] = "swapctl";
	if (strcmp(c->cfg->source, "built-in defaults")) {
		c->argv[n++] = "--config";
		c->argv[n++] = c->cfg->source;
	}
	c->argv[n++] = "run";
	c->argv[n++] = "--json";
	c->argv[n++] = "--kernels";
	c->argv[n++] = "A,B";
	c->argv[n++] = "--kernel";
	c->argv[n++] = c->kopt[0];
	c->argv[n++] = "--kernel";
	c->argv[n++] = c->kopt[1];
	c->argv[n++] = "--line";
	c->argv[n++] = c->line;
	c->argv[n++] = "--repeat";
	c->argv[n++] = c->rep;
	if (c->icount >= 0) {
		snprintf(c->ic, sizeof(c->ic), "%d", c->icount);
		c->argv[n++] = "--icount";
		c->argv[n++] = c->ic;
	}
	c->argv[n++] = c->scn_path;
	c->argv[n] = NULL;
}

/* <workdir>/calibrations/<YYYYmmdd-HHMMSS>-<scenario>[-icountN][-K]/ */
static int make_dir(struct calib_run *c)
{
	char top[PATH_MAX], base[64], ic[24] = "";
	time_t now = time(NULL);
	struct tm tm;
	int i;

	if (util_path(top, sizeof(top), "%s/calibrations", c->cfg->workdir) ||
	    util_mkdir_p(top, 0755)) {
		fprintf(stderr, "swapctl calibrate: %s/calibrations: %s\n",
			c->cfg->workdir, strerror(errno));
		return EXIT_SETUP;
	}
	localtime_r(&now, &tm);
	strftime(base, sizeof(base), "%Y%m%d-%H%M%S", &tm);
	if (c->icount >= 0)
		snprintf(ic, sizeof(ic), "-icount%d", c->icount);
	for (i = 1; i < 100; i++) {
		snprintf(c->id, sizeof(c->id), i == 1 ? "%s-%s%s" :
			 "%s-%s%s-%d", base, c->scn.name, ic, i);
		if (util_path(c->dir, sizeof(c->dir), "%s/%s", top, c->id))
			break;
		if (!mkdir(c->dir, 0755))
			return 0;
		if (errno != EEXIST)
			break;
	}
	fprintf(stderr, "swapctl calibrate: %s/%s: %s\n", top, c->id,
		strerror(errno));
	return EXIT_SETUP;
}

/* calibration.json's heading: what was run, where, when. */
static json_t *make_meta(const struct calib_run *c)
{
	char host[256] = "", when[32];
	time_t now = time(NULL);
	json_t *o, *cmd;
	struct tm tm;
	int i;

	gethostname(host, sizeof(host) - 1);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cmd = json_array();
	for (i = 0; c->argv[i]; i++)
		json_array_append_new(cmd, json_string(c->argv[i]));
	o = json_pack("{si ss ss ss ss ss ss si so si ss ss so so}",
		      "version", CALIB_VERSION, "scenario", c->scn.name,
		      "scenario_file", c->scn_path, "kernel", c->kernel,
		      "variant", c->variant, "kernel_line", c->line,
		      "bzimage", c->bzimage, "repeat", c->repeat,
		      "icount_shift", c->icount >= 0 ?
		      json_integer(c->icount) : json_null(),
		      "pairs_asked", c->pairs, "host", host, "started", when,
		      "run_argv", cmd, "pairs", json_array());
	if (o)
		json_object_set_new(o, "dir", json_string(c->dir));
	return o;
}

static int save_meta(const struct calib_run *c)
{
	char path[PATH_MAX + 32], *text;
	int rc = -1;

	util_path(path, sizeof(path), "%s/%s", c->dir, CALIB_FILE);
	text = json_dumps(c->meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text && !util_write_file_atomic(path, text, strlen(text), 0644))
		rc = 0;
	else
		fprintf(stderr, "swapctl calibrate: %s: %s\n", path,
			strerror(errno));
	free(text);
	return rc;
}

/* A new file of the calibration directory, for a child's output. */
static int open_out(const struct calib_run *c, const char *name,
		    const char *ext)
{
	char path[PATH_MAX + 64];
	int fd;

	util_path(path, sizeof(path), "%s/%s.%s", c->dir, name, ext);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		fprintf(stderr, "swapctl calibrate: %s: %s\n", path,
			strerror(errno));
	return fd;
}

/* Wait for @pid, passing a signal we get on to it; its exit code. */
static int wait_child(pid_t pid)
{
	bool passed = false;
	int st;

	for (;;) {
		if (waitpid(pid, &st, 0) == pid)
			break;
		if (errno != EINTR)
			return EXIT_FAILURE_GENERIC;
		if (stop_sig && !passed) {
			kill(pid, stop_sig);
			passed = true;
		}
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : EXIT_FAILURE_GENERIC;
}

/*
 * One pair's `swapctl run` with its standard output (the summary JSON)
 * in @name.json, its standard error in @name.log. Its exit code, or -1
 * when it did not start.
 */
static int run_pair(const struct calib_run *c, const char *name)
{
	int out = open_out(c, name, "json"), log = -1, nul = -1;
	pid_t pid = -1;

	if (out >= 0)
		log = open_out(c, name, "log");
	if (log >= 0)
		nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (nul >= 0)
		pid = fork();
	if (!pid) {
		if (dup2(nul, 0) < 0 || dup2(out, 1) < 0 || dup2(log, 2) < 0)
			_exit(EXIT_FAILURE_GENERIC);
		execv("/proc/self/exe", (char *const *)c->argv);
		dprintf(2, "swapctl calibrate: /proc/self/exe: %s\n",
			strerror(errno));
		_exit(EXIT_SETUP);
	}
	if (pid < 0 && nul >= 0)
		fprintf(stderr, "swapctl calibrate: fork: %s\n",
			strerror(errno));
	if (out >= 0)
		close(out);
	if (log >= 0)
		close(log);
	if (nul >= 0)
		close(nul);
	return pid < 0 ? -1 : wait_child(pid);
}

/* The run directory that @name.json, a run's summary, names ("": none). */
static void pair_run_dir(const struct calib_run *c, const char *name,
			 char *dir, size_t len)
{
	char path[PATH_MAX + 64];
	json_t *sum;

	util_path(path, sizeof(path), "%s/%s.json", c->dir, name);
	sum = jfile_load(path, 0, NULL);
	snprintf(dir, len, "%s",
		 json_string_value(json_object_get(sum, "dir")) ?: "");
	json_decref(sum);
}

/* "pswpin worse, swapin_p99_us better": what pair's tally added. */
static void pair_falses(const struct calib *before, const struct calib *after,
			char *buf, size_t len)
{
	size_t off = 0;
	unsigned int mi;

	buf[0] = '\0';
	for (mi = 0; mi < metric_count && off < len; mi++) {
		const struct calib_metric *a = &before->m[mi], *b = &after->m[mi];

		if (a->falses == b->falses)
			continue;
		off += snprintf(buf + off, len - off, "%s%s %s",
				off ? ", " : "", metric_defs[mi].key,
				b->worse > a->worse ? "worse" :
				b->better > a->better ? "better" : "changed");
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* Tally pair @pair (run directory @dir) and say so on one line. */
static void tally_pair(struct calib_run *c, int pair, const char *name,
		       const char *dir, int code, double secs, double t0)
{
	char err[PATH_MAX + 256], falses[512];
	struct calib before = c->tally;
	struct results r;
	double left;

	if (code == CALIB_INTERRUPTED)
		return;
	results_init(&r);
	if (!dir[0] || calib_load_run(dir, &r, err, sizeof(err))) {
		fprintf(stderr, "swapctl calibrate: pair %d/%d: exit %d, no results (%s): see %s/%s.log\n",
			pair, c->pairs, code, dir[0] ? err : "no run directory",
			c->dir, name);
		results_free(&r);
		return;
	}
	results_gate_dir(&r, dir);
	calib_add(&c->tally, &r, code);
	results_free(&r);
	pair_falses(&before, &c->tally, falses, sizeof(falses));
	left = (util_now() - t0) / pair * (c->pairs - pair);
	fprintf(stderr, "swapctl calibrate: pair %d/%d: exit %d, %.0f s, false verdicts: %s; exit 12 so far: %u with Holm, %u before it; about %.0f min left\n",
		pair, c->pairs, code, secs, falses, c->tally.exit_holm,
		c->tally.exit_plain, left / 60);
}

/* A code after which no pair can give results: stop. */
static bool fatal(int code)
{
	return code < 0 || code == EXIT_INTERRUPTED || code == EXIT_SETUP ||
	       code == EXIT_NO_KERNEL || code == EXIT_CONFIG ||
	       code == EXIT_USAGE || code == EXIT_FAILURE_GENERIC;
}

/*
 * Pair @pair's run, tried again (after SETUP_WAIT_S) while it fails to
 * set up: a libvirt driver another process still holds is a moment's
 * matter on a shared host. Its exit code; @name its files' base name.
 */
static int try_pair(struct calib_run *c, int pair, char *name, size_t len)
{
	int code = -1, attempt;

	for (attempt = 1; attempt <= SETUP_TRIES && !stop_sig; attempt++) {
		if (attempt > 1) {
			fprintf(stderr, "swapctl calibrate: pair %d: the run did not set up (exit %d, %s/%s.log): again in %d s\n",
				pair, code, c->dir, name, SETUP_WAIT_S);
			sleep(SETUP_WAIT_S);
		}
		snprintf(name, len, attempt > 1 ? "pair-%02d-try%d" :
			 "pair-%02d", pair, attempt);
		code = run_pair(c, name);
		if (code != EXIT_SETUP)
			break;
	}
	return code;
}

/* Every pair in turn; the exit code. */
static int run_pairs(struct calib_run *c)
{
	char dir[PATH_MAX], name[48];
	double t0 = util_now(), t;
	int pair, code;

	for (pair = 1; pair <= c->pairs && !stop_sig; pair++) {
		t = util_now();
		code = try_pair(c, pair, name, sizeof(name));
		pair_run_dir(c, name, dir, sizeof(dir));
		json_array_append_new(json_object_get(c->meta, "pairs"),
			json_pack("{si si ss ss sf}", "pair", pair,
				  "exit_code", code, "run_dir", dir,
				  "files", name, "wall_seconds",
				  util_now() - t));
		if (save_meta(c))
			return EXIT_OUTPUT;
		tally_pair(c, pair, name, dir, code, util_now() - t, t0);
		if (stop_sig || fatal(code)) {
			fprintf(stderr, "swapctl calibrate: pair %d's run exited %d: stopping after %d pair%s (see %s/%s.log)\n",
				pair, code, pair - 1, pair == 2 ? "" : "s",
				c->dir, name);
			return stop_sig ? EXIT_INTERRUPTED :
				code < 0 ? EXIT_SETUP : code;
		}
	}
	return stop_sig ? EXIT_INTERRUPTED : 0;
}

/*
 * The table or JSON of what was tallied: the calibration directory read
 * back, as `swapctl report DIR` prints it.
 */
static int output(const struct calib_run *c)
{
	char err[PATH_MAX + 256];
	int rc;

	fflush(stderr);
	rc = calib_report(c->dir, c->json, stdout, err, sizeof(err));
	if (rc == -1)
		fprintf(stderr, "swapctl calibrate: %s\n", err);
	return rc == -1 ? EXIT_FAILURE_GENERIC : rc ? EXIT_OUTPUT : 0;
}

/* --dry-run: the calibration that would start. */
static int dry_run(const struct calib_run *c)
{
	int i;

	printf("# %d pairs of kernel %s (%s) as A and B, %d runs each per pair, interleaved\n",
	       c->pairs, c->kernel, c->bzimage, c->repeat);
	printf("# into %s/calibrations/<time>-%s%s/\n", c->cfg->workdir,
	       c->scn.name, c->icount >= 0 ? "-icount<N>" : "");
	for (i = 0; c->argv[i]; i++)
		printf("%s%s", i ? " " : "", c->argv[i]);
	printf("\n");
	return 0;
}

static int calibrate_with(struct calib_run *c)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int code;

	make_argv(c);
	if (c->dry)
		return dry_run(c);
	code = make_dir(c);
	if (code)
		return code;
	c->meta = make_meta(c);
	if (!c->meta || save_meta(c))
		return EXIT_OUTPUT;
	fprintf(stderr, "swapctl calibrate: %d pairs of %s on %s, %d runs of each side a pair, into %s\n",
		c->pairs, c->kernel, c->scn.name, c->repeat, c->dir);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	calib_init(&c->tally);
	code = run_pairs(c);
	if (c->tally.pairs)
		code = results_exit_worst(code, output(c));
	return code;
}

int cmd_calibrate(int argc, char **argv, struct swapctl_config *cfg)
{
	static struct calib_run c;
	const char *line = NULL;
	struct popt opts[] = {
		OPT_INT(0, "pairs", &c.pairs, "N",
			"how many A/A comparisons to run (default " STR(DEF_PAIRS) ")",
			1, MAX_PAIRS),
		OPT_INT(0, "repeat", &c.repeat, "N",
			"runs of each side per pair, interleaved (default: the scenario's repeat when 2 or more, else "
			STR(DEF_REPEAT) ")", 2, 100),
		OPT_INT(0, "icount", &c.icount, "SHIFT",
			"run the guests with QEMU's -icount shift=SHIFT (swapctl run --icount)",
			0, 10),
		OPT_STRING(0, "kernel", &c.kernel, "NAME",
			   "the kernel to run as A and B (default: the scenario's first, its reference)"),
		OPT_STRING(0, "line", &line, "LINE",
			   "the kernel line, MAJOR.MINOR (default: the scenario's kernel_line, else swapctl.conf's)"),
		OPT_BOOL(0, "json", &c.json, "print the tallies as one JSON object"),
		OPT_BOOL(0, "dry-run", &c.dry,
			 "print the run each pair would start, start nothing"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 4, 10, 16, 130, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "calibrate", .args = "SCENARIO.json", .min_args = 1,
		.max_args = 1, .opts = opts,
		.desc =
		"Run one kernel as both A and B of a scenario, --pairs times (each\n"
		"pair a swapctl run of --repeat runs per side), and count the\n"
		"verdicts other than \"no significant change\": per metric the\n"
		"false-verdict rate with its 95% Wilson interval, and per pair\n"
		"whether the exit code would have been 12 (a regression), with\n"
		"Holm's correction over the no_regression metrics (the exit code)\n"
		"and without it. Recorded under <workdir>/calibrations/<id>/;\n"
		"swapctl report prints such a directory again.\n",
		.epilog = "See swapctl-calibrate(1).\n",
	};
	char err[8192], found[PATH_MAX];
	const char *path;
	int n;

	memset(&c, 0, sizeof(c));
	c.icount = -1;
	c.cfg = cfg;
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if (!c.pairs)
		c.pairs = DEF_PAIRS;
	path = scenario_find(argv[0], found, sizeof(found));
	if (scenario_load(&c.scn, path, err, sizeof(err))) {
		fprintf(stderr, "swapctl calibrate: %s\n", err);
		return EXIT_CONFIG;
	}
	/* the runs and calibration.json name it wherever they start */
	if (!realpath(path, c.scn_path))
		snprintf(c.scn_path, sizeof(c.scn_path), "%s", path);
	if (!c.repeat)
		c.repeat = c.scn.repeat >= 2 ? (int)c.scn.repeat : DEF_REPEAT;
	n = pick_kernel(&c, &cmd, line);
	if (!n)
		n = calibrate_with(&c);
	json_decref(c.meta);
	c.meta = NULL;
	return n;
}
