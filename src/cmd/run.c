// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl run: boot the kernels of a scenario through libvirt, one guest
 * at a time (interleaved A B A B with --repeat) or, with --parallel N,
 * in waves of up to N guests that start together; record each guest's
 * stream under runs/<id>/ and compare the kernels with the first one.
 *
 * This file is the command: its options, and the glue of the parts:
 *   run/kernels.c     the line, the kernels and the initramfs it boots
 *   run/fit.c         the guest, --icount, --parallel's waves, the plans
 *   run/dryrun.c      --dry-run
 *   run/rundir.c      runs/<id>/ and its files
 *   run/hosts.c       the libvirt hosts and their slots
 *   run/schedule.c    the repeats over the hosts, in waves (threads)
 *   run/guest.c       one guest, from boot to its result
 *   results/summary.c the judgement, summary.json and the table
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dryrun.h"
#include "fit.h"
#include "guest.h"
#include "hostrec.h"
#include "kernels.h"
#include "kline.h"
#include "parse-options.h"
#include "results.h"
#include "rundir.h"
#include "scenario.h"
#include "schedule.h"
#include "summary.h"
#include "swapctl.h"
#include "util.h"
#include "waves.h"

#define POWER_LIMIT	1000	/* the most repeats a "needs N" figure says */
#define BOOT_MARGIN_S	60	/* host limit = timeout_s + this */

struct run {
	struct swapctl_config *cfg;
	struct scenario scn;
	struct guest_env env;
	unsigned int parallel;	/* at most this many guests at once */
	struct run_power pow;	/* the power targets, --repeat auto */
	bool json, dry_run;
	struct run_kernels k;	/* the line, the kernels, the initramfs */
	char uri[4200];
	char id[SCN_NAME_MAX + 32];
	char dir[4096];
	/* slot i's plan: its NFS server listens on nfs_port + i */
	char *plans[WAVES_MAX_PARALLEL];
	struct sched s;		/* the hosts, their slots, the guests */
	struct results res;
};

/* @r as its summary reads it */
static void summary_of(struct run *r, struct run_summary *rs)
{
	*rs = (struct run_summary){
		.scn = &r->scn, .env = &r->env, .k = &r->k, .s = &r->s,
		.pow = &r->pow, .id = r->id, .dir = r->dir, .uri = r->uri,
		.res = &r->res,
	};
}

/* Judge the guests, write summary.json, print; the exit code. */
static int finish(struct run *r)
{
	struct run_summary rs;
	int code;

	r->res.effect = r->pow.pw.effect;
	r->res.effect_limit = POWER_LIMIT;
	summary_of(r, &rs);
	code = summary_finish(&rs, r->json);
	rundir_state(r->dir, "done");
	return code;
}

/* --dry-run (dryrun.h) */
static int dry_run(struct run *r)
{
	struct run_dry d = {
		.cfg = r->cfg, .scn = &r->scn, .env = &r->env, .k = &r->k,
		.plan = r->plans[0], .repeat = r->s.repeat,
		.parallel = r->parallel, .width = r->s.width,
		.nslots = r->s.nslots, .repeat_auto = r->pow.repeat_auto,
		.auto_min = RUN_AUTO_MIN_REPEAT, .auto_limit = r->pow.limit,
		.effect = r->pow.pw.effect, .json = r->json,
		.id = r->id, .idlen = sizeof(r->id), .dir = r->dir,
		.dirlen = sizeof(r->dir), .uri = r->uri,
		.urilen = sizeof(r->uri),
	};

	return run_dry(&d);
}

/* --repeat auto, after @done repeats: enough? (sched.enough) */
static bool enough_repeats(struct sched *s, unsigned int done)
{
	struct run *r = s->arg;
	struct run_summary rs;

	summary_of(r, &rs);
	return summary_repeat_enough(&rs, &r->pow, done);
}

/* --repeat N or auto */
struct repeat_opt {
	int n;		/* 0: the scenario's */
	bool autom;
};

static int opt_repeat(const struct popt *opt, const char *arg, char *err,
		      size_t errlen)
{
	struct repeat_opt *o = opt->value;
	char *end;
	long v;

	if (!strcmp(arg, "auto")) {
		o->autom = true;
		o->n = 0;
		return 0;
	}
	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < 1 || v > SCHED_MAX_REPEAT) {
		snprintf(err, errlen, "'%s': give auto or a whole number from 1 to %d",
			 arg, SCHED_MAX_REPEAT);
		return -1;
	}
	o->n = (int)v;
	o->autom = false;
	return 0;
}

static int opt_kernel(const struct popt *opt, const char *arg, char *err,
		      size_t errlen)
{
	const char *eq = strchr(arg, '=');

	if (!eq) {
		snprintf(err, errlen, "'%s': give NAME=FILE", arg);
		return -1;
	}
	return kernels_add_override(opt->value, arg, (size_t)(eq - arg),
				    eq + 1, err, errlen);
}

static int opt_bk(const struct popt *opt, const char *arg, char *err,
		  size_t errlen)
{
	return kernels_add_override(opt->value, "baseline", 8, arg, err,
				    errlen);
}

static int opt_pk(const struct popt *opt, const char *arg, char *err,
		  size_t errlen)
{
	return kernels_add_override(opt->value, SCN_PATCHED,
				    strlen(SCN_PATCHED), arg, err, errlen);
}

#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * Load and check the scenario (--kernels), the kernel line and the
 * guest; 0 or an exit code.
 */
static int load_scenario(struct run *r, struct popt_cmd *cmd,
			 const char *arg, const char *kernels_opt,
			 const char *line_opt, const char *append)
{
	struct swapctl_config *cfg = r->cfg;
	char err[8192], path[4200];

	if (scenario_load(&r->scn, scenario_find(arg, path, sizeof(path)),
			  err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		return EXIT_CONFIG;
	}
	if (kernels_opt && scn_set_kernels(&r->scn, kernels_opt, err,
					   sizeof(err)))
		return popt_error(cmd, "option '--kernels': %s", err);
	if (scn_check_kernels(&r->scn, cfg->series, err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		return kernels_opt ? EXIT_USAGE : EXIT_CONFIG;
	}
	if (kernels_pick_line(&r->k, line_opt))
		return EXIT_CONFIG;
	if (fit_guest(&r->env, &r->scn, cfg, append, err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		return EXIT_CONFIG;
	}
	return 0;
}

/* Kernels, initramfs and kbuild tree; 0 or an exit code. */
static int prepare(struct run *r, struct popt_cmd *cmd,
		   const struct kernel_overrides *ov, const char *ird,
		   int repeat, int timeout)
{
	struct swapctl_config *cfg = r->cfg;
	char names[SCN_MAX_KERNELS * (SCN_KERNEL_MAX + 1) + 1] = "";
	int code, k;

	r->s.repeat = repeat ? (unsigned int)repeat : r->scn.repeat;
	r->env.host_timeout_s = timeout ? (double)timeout :
		(double)(r->scn.timeout_s + BOOT_MARGIN_S);
	r->env.kvm = fit_accel(&r->env, r->cfg);
	code = kernels_resolve(&r->k, ov);
	if (code <= -2) {
		for (k = 0; k < r->scn.nkernels; k++)
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 k ? ", " : "", r->scn.kernels[k]);
		return popt_error(cmd, "--kernel %s=...: '%s' is not a kernel of this run (%s)",
				  ov->o[-2 - code].name,
				  ov->o[-2 - code].name, names);
	}
	if (code)
		goto toolong;
	if (kernels_initramfs(&r->k, ird))
		goto toolong;
	code = fit_kbuild(&r->scn, r->cfg, r->k.line, r->dry_run);
	if (code)
		return code;
	r->env.initramfs = r->k.initramfs;
	r->env.run_id = r->id;
	r->env.run_dir = r->dir;
	return 0;
toolong:
	fprintf(stderr, "swapctl run: %s: path too long\n", cfg->workdir);
	return EXIT_CONFIG;
}

/* Connect to the hosts, run every guest and judge them; the exit code. */
static int run_connected(struct run *r)
{
	struct hostrec hr;
	int code;

	config_libvirt_uri(r->cfg, r->uri, sizeof(r->uri));
	r->s.enough = r->pow.repeat_auto ? enough_repeats : NULL;
	r->s.arg = r;
	code = sched_alloc(&r->s) ? EXIT_FAILURE_GENERIC : hosts_open(&r->s);
	if (code) {
		if (code == EXIT_SETUP && r->s.nhosts > 1)
			fprintf(stderr, "swapctl run: none of the %u hosts can run a guest\n",
				r->s.nhosts);
		rundir_state(r->dir, "done");
		hosts_close(&r->s);
		return guest_interrupted ? EXIT_INTERRUPTED : code;
	}
	hostrec_run_start(r->dir, &hr);
	sched_run(&r->s);
	hostrec_run_end(r->dir, &hr, (int)(r->env.cpus * r->s.nslots));
	code = finish(r);
	if (guest_interrupted) {
		guest_msg("interrupted by signal %d: %s destroyed, NFS server%s stopped",
			  (int)guest_interrupted,
			  r->s.nslots > 1 ? "guests" : "guest",
			  r->s.nslots > 1 ? "s" : "");
		code = EXIT_INTERRUPTED;
	}
	hosts_close(&r->s);
	return code;
}

/* Under <workdir>/run.lock: the run directory, then the guests. */
static int run_locked(struct run *r)
{
	struct swapctl_config *cfg = r->cfg;
	char err[8192];
	int lockfd, code;

	guest_catch_signals();
	code = rundir_lock(cfg->workdir, &guest_interrupted, &lockfd);
	if (code)
		return code;
	code = guest_interrupted ? EXIT_INTERRUPTED :
		kernels_initramfs_ready(&r->k);
	if (code) {
		/* said */
	} else if (rundir_create(cfg->workdir, r->scn.name, time(NULL), r->id,
				 sizeof(r->id), r->dir, sizeof(r->dir), err,
				 sizeof(err)) ||
		   rundir_write(r->dir, &r->scn, r->plans[0], err,
				sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		code = EXIT_SETUP;
	} else {
		code = run_connected(r);
	}
	close(lockfd);
	return code;
}

static void free_run(struct run *r)
{
	int k;

	sched_free(&r->s);
	results_free(&r->res);
	for (k = 0; k < WAVES_MAX_PARALLEL; k++)
		if (r->plans[k] && (!k || r->plans[k] != r->plans[0]))
			free(r->plans[k]);
	free(r);
}

/* The options of swapctl run, as parsed. */
struct run_opts {
	struct kernel_overrides ov;	/* --kernel, --*-kernel */
	struct res_mde_opts pw;		/* --effect, --metric */
	struct repeat_opt ro;		/* --repeat */
	const char *kernels, *initramfs, *append, *line;
	bool json, dry, keep, debug;
	/* 0 (icount -1): not given */
	int timeout, limit, icount, parallel;
};

/* A run of the options @o, not yet loaded; NULL when out of memory. */
static struct run *new_run(struct swapctl_config *cfg,
			   const struct run_opts *o)
{
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->pow.pw = o->pw;
	r->cfg = cfg;
	r->k.cfg = cfg;
	r->k.scn = &r->scn;
	r->k.debug = o->debug;
	sched_init(&r->s);
	r->s.cfg = cfg;
	r->s.scn = &r->scn;
	r->s.env = &r->env;
	r->s.id = r->id;
	r->s.uri = r->uri;
	r->s.kernel_path = (const char (*)[4096])r->k.kernel_path;
	r->s.plans = r->plans;
	results_init(&r->res);
	r->json = o->json;
	r->dry_run = o->dry;
	r->env.keep_images = o->keep;
	r->env.debug = o->debug;
	return r;
}

/*
 * Everything before a guest starts: the scenario, kernels, power
 * targets, --icount, the waves and the plans. 0 or an exit code.
 */
static int setup_run(struct run *r, struct popt_cmd *cmd, const char *arg,
		     const struct run_opts *o)
{
	int code;

	code = load_scenario(r, cmd, arg, o->kernels, o->line, o->append);
	if (!code)
		code = fit_remote_hosts(&r->scn, r->cfg);
	if (!code)
		code = prepare(r, cmd, &o->ov, o->initramfs, o->ro.n,
			       o->timeout);
	if (!code)
		code = summary_power_setup(&r->pow, &r->scn, o->ro.autom,
					   o->limit, &r->s.repeat);
	if (!code)
		code = fit_icount(&r->env, &r->scn, o->icount);
	if (!code)
		code = fit_parallel(&r->s, o->parallel, &r->parallel);
	if (!code)
		code = fit_plans(&r->s, r->plans);
	r->env.plan = r->plans[0];
	return code;
}

/* swapctl run with its options parsed: the exit code. */
static int run_with(struct popt_cmd *cmd, const char *arg,
		    const struct run_opts *o, struct swapctl_config *cfg)
{
	char err[8192];
	struct run *r;
	int code;

	if (o->append && config_check_append(o->append, err, sizeof(err)))
		return popt_error(cmd, "option '--append': %s", err);
	r = new_run(cfg, o);
	if (!r)
		return EXIT_FAILURE_GENERIC;
	code = setup_run(r, cmd, arg, o);
	if (!code && r->dry_run)
		code = kernels_check_given(&r->k);
	if (!code)
		code = r->dry_run ? dry_run(r) : kernels_check(&r->k);
	if (!code && !r->dry_run)
		code = run_locked(r);
	free_run(r);
	return code;
}

int cmd_run(int argc, char **argv, struct swapctl_config *cfg)
{
	static struct run_opts o;
	struct popt opts[] = {
		OPT_BOOL(0, "json", &o.json, "print the results as one JSON object"),
		OPT_BOOL(0, "dry-run", &o.dry,
			 "print what would start (accelerator and why, URI, disks, plan, domain XML, ganesha.conf), start nothing"),
		OPT_CALLBACK(0, "repeat", &o.ro, "N|auto",
			     "run each kernel N times, interleaved (A B A B); auto: until the power targets' minimum detectable effect is within --effect, at least "
			     STR(RUN_AUTO_MIN_REPEAT) " and at most --repeat-limit times",
			     opt_repeat),
		OPT_INT(0, "repeat-limit", &o.limit, "N",
			"the most runs per kernel of --repeat auto (default "
			STR(RUN_AUTO_LIMIT) ")", RUN_AUTO_MIN_REPEAT, SCHED_MAX_REPEAT),
		OPT_CALLBACK(0, "effect", &o.pw, "E",
			     "the relative difference to detect (2% or 0.02): --repeat auto's goal (default 5%), and the runs each comparison would need to see it",
			     results_opt_effect),
		OPT_CALLBACK(0, "metric", &o.pw, "KEY",
			     "a power target (repeatable; default: the scenario's no_regression timings, workload and system CPU time, system and host CPU ms per MiB)",
			     results_opt_metric),
		OPT_INT(0, "parallel", &o.parallel, "N",
			"run up to N guests at once, the kernels of a repeat together (default: parallel in swapctl.conf, 1)",
			1, WAVES_MAX_PARALLEL),
		OPT_STRING(0, "kernels", &o.kernels, "LIST",
			   "the kernels to compare, comma-separated, the first the reference: baseline, patched (the configured series) or any variant built under <workdir>/kernels/ (default: the scenario's)"),
		OPT_STRING(0, "line", &o.line, "LINE",
			   "run the kernels of this kernel line, MAJOR.MINOR (default: the scenario's kernel_line, else 'kernel_line' in swapctl.conf, 6.1): kernels/<variant>@LINE/ (kernels/<variant>/ for 6.1)"),
		OPT_INT(0, "timeout", &o.timeout, "S",
			"host time limit per guest in seconds (default: the scenario's timeout_s + "
			STR(BOOT_MARGIN_S) ")", 1, 86400),
		OPT_CALLBACK(0, "kernel", &o.ov, "NAME=FILE",
			     "boot this bzImage for kernel NAME", opt_kernel),
		OPT_CALLBACK(0, "baseline-kernel", &o.ov, "FILE",
			     "boot this bzImage instead of the built baseline",
			     opt_bk),
		OPT_CALLBACK(0, "patched-kernel", &o.ov, "FILE",
			     "boot this bzImage instead of the built patched kernel",
			     opt_pk),
		OPT_STRING(0, "initramfs", &o.initramfs, "FILE",
			   "use this initramfs instead of the built one"),
		OPT_STRING(0, "append", &o.append, "ARGS",
			   "add ARGS to the guest kernel command line (after swapctl.conf's append)"),
		OPT_INT(0, "icount", &o.icount, "SHIFT",
			"TCG only: run the guests with QEMU's -icount shift=SHIFT,sleep=off: guest time counts the guest's instructions (2^SHIFT ns each), not the host's clock",
			0, 10),
		OPT_BOOL(0, "keep-images", &o.keep,
			 "keep the swap disk images of each guest"),
		OPT_BOOL(0, "debug", &o.debug,
			 "boot the debug kernels (<workdir>/kernels/<variant>-debug/, from 'swapctl build --debug'); any splat fails"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 4, 7, 8, 9, 10, 12, 16, 130,
		-1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "run", .args = "SCENARIO.json", .min_args = 1,
		.max_args = 1, .opts = opts,
		.desc =
		"Boot the scenario's kernels in QEMU through libvirt, stream the\n"
		"guest's swap counters, record them under\n"
		"<workdir>/runs/<time>-<name>/ and compare every kernel with the\n"
		"first (the reference, normally baseline): per metric the ratio\n"
		"of means with its 95% interval, Welch's p-value and a verdict\n"
		"(better, worse, no significant change, not measured). `swapctl\n"
		"metrics` lists the metrics.\n",
		.epilog = "See swapctl(1) and swapctl-scenario(5).\n",
	};
	int n;

	memset(&o, 0, sizeof(o));
	o.icount = -1;
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if (o.line && !kline_valid(o.line))
		return popt_error(&cmd, "--line: '%s' is not a kernel line (MAJOR.MINOR, as 6.1 or 6.12)",
				  o.line);
	return run_with(&cmd, argv[0], &o, cfg);
}
