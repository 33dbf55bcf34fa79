// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl run: boot the kernels of a scenario through libvirt, one guest
 * at a time (interleaved A B A B with --repeat) or, with --parallel N,
 * in waves of up to N guests that start together, each in a thread of
 * its own (waves.h); record each guest's stream under runs/<id>/
 * (guest.c), and compare the kernels with the first one (results.c, the
 * same model `swapctl report` uses).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <jansson.h>

#include "jfile.h"
#include "build.h"
#include "dryrun.h"
#include "guest.h"
#include "kline.h"
#include "kbuild.h"
#include "kernels.h"
#include "manifest.h"
#include "parse-options.h"
#include "plan.h"
#include "results.h"
#include "hostrec.h"
#include "summary.h"
#include "rundir.h"
#include "scenario.h"
#include "schedule.h"
#include "waves.h"
#include "swapctl.h"
#include "util.h"

#define MAX_REPEAT	SCHED_MAX_REPEAT
#define AUTO_MIN_REPEAT	3	/* --repeat auto: spreads from 3 runs on */
#define AUTO_LIMIT	10	/* --repeat auto's default --repeat-limit */
#define AUTO_EFFECT	0.05	/* --repeat auto's default --effect */
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
	char *plan;
	/* slot i's plan: its NFS server listens on nfs_port + i */
	char *plans[WAVES_MAX_PARALLEL];
	struct sched s;		/* the hosts, their slots and the guests */
	struct results res;
};

static int write_state(const struct run *r, const char *state)
{
	char path[4200], text[32];

	snprintf(path, sizeof(path), "%s/state", r->dir);
	snprintf(text, sizeof(text), "%s\n", state);
	return util_write_file_atomic(path, text, strlen(text), 0644);
}

/* ---- the run directory ---- */

static int make_run_dir(struct run *r, char *err, size_t errlen)
{
	return rundir_create(r->cfg->workdir, r->scn.name, time(NULL), r->id,
			     sizeof(r->id), r->dir, sizeof(r->dir), err,
			     errlen);
}

static int write_run_files(struct run *r, char *err, size_t errlen)
{
	char path[4200], list[SCN_MAX_KERNELS * SCN_KERNEL_MAX + 1];
	size_t off = 0;
	int k;

	snprintf(path, sizeof(path), "%s/scenario.json", r->dir);
	if (util_copy_file(r->scn.file, path, 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/plan.txt", r->dir);
	if (util_write_file_atomic(path, r->plan, strlen(r->plan), 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* the kernels compared, reference first (read by report and top) */
	for (k = 0; k < r->scn.nkernels; k++)
		off += snprintf(list + off, sizeof(list) - off, "%s\n",
				r->scn.kernels[k]);
	snprintf(path, sizeof(path), "%s/kernels", r->dir);
	if (util_write_file_atomic(path, list, off, 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (write_state(r, "running")) {
		util_seterr(err, errlen, "%s/state: %s", r->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- results ---- */

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
	write_state(r, "done");
	return code;
}

/* --dry-run (dryrun.h) */
static int dry_run(struct run *r)
{
	struct run_dry d = {
		.cfg = r->cfg, .scn = &r->scn, .env = &r->env, .k = &r->k,
		.plan = r->plan, .repeat = r->s.repeat,
		.parallel = r->parallel, .width = r->s.width,
		.nslots = r->s.nslots, .repeat_auto = r->pow.repeat_auto,
		.auto_min = AUTO_MIN_REPEAT, .auto_limit = r->pow.limit,
		.effect = r->pow.pw.effect, .json = r->json,
		.id = r->id, .idlen = sizeof(r->id), .dir = r->dir,
		.dirlen = sizeof(r->dir), .uri = r->uri,
		.urilen = sizeof(r->uri),
	};

	return run_dry(&d);
}

/* ---- options and setup ---- */

static bool read_cpuinfo_kvm(struct run *r)
{
	char *cpuinfo = util_read_file("/proc/cpuinfo", NULL);
	bool warn, kvm;

	kvm = domain_pick_accel(r->cfg->accel, cpuinfo, "/dev/kvm",
				r->env.accel_why, sizeof(r->env.accel_why),
				&warn);
	free(cpuinfo);
	if (warn)
		fprintf(stderr, "swapctl run: warning: %s (%s)\n",
			r->env.accel_why,
			r->cfg->source[0] ? r->cfg->source : "the default");
	return kvm;
}

/*
 * What run checks beyond the scenario, before anything starts: the work
 * dir (not inside the repository; quotable in ganesha.conf when an NFS
 * backend needs it); and the kernel command line (append + --append).
 */
static int check_setup(struct run *r, const char *append, char *err,
		       size_t errlen)
{
	const struct swapctl_config *cfg = r->cfg;
	const char *from = cfg->source[0] ? cfg->source : "the default";
	char slub[SCN_SLUB_DEBUG_MAX];
	const char *bad;

	if (config_check_workdir(cfg, err, errlen))
		return -1;
	bad = ganesha_bad_char(cfg->workdir);
	if (scn_has_nfs(&r->scn) && bad) {
		snprintf(err, errlen,
			 "%.1024s: workdir %.1024s (from %.1024s) has a '%c', which ganesha.conf cannot quote: the nfsfile backend needs a work dir without '\"', '\\' or control bytes",
			 r->scn.file, cfg->workdir, from,
			 *bad >= ' ' ? *bad : '?');
		return -1;
	}
	/* a slab_error's caches: slub_debug=A,<cache>,... */
	scn_slub_debug(&r->scn, slub, sizeof(slub));
	if (slub[0] && (strstr(cfg->append, "slub_debug") ||
			(append && strstr(append, "slub_debug")))) {
		snprintf(err, errlen,
			 "%.1024s: faults: a slab_error with \"caches\" sets the guest's slub_debug= (%s), and %s sets one too: leave it out there",
			 r->scn.file, slub,
			 append && strstr(append, "slub_debug") ? "--append" :
			 "append in swapctl.conf");
		return -1;
	}
	/* loglevel=5: warnings and worse reach the console log */
	/*
	 * no_timer_check: under TCG a guest starved of host CPU (four at
	 * once on two cores) failed the boot-time check that the timer
	 * interrupt ticks and panicked ("IO-APIC + timer doesn't work!",
	 * make check of 2026-12-07); the timer is QEMU's and works.
	 */
	/* page_owner=on: a debug kernel's Bad page report names the owner */
	snprintf(r->env.cmdline, sizeof(r->env.cmdline),
		 "console=ttyS0 panic=-1 loglevel=5 no_timer_check%s%s%s%s%s%s%s",
		 r->env.debug ? " page_owner=on" : "",
		 slub[0] ? " " : "", slub,
		 cfg->append[0] ? " " : "", cfg->append,
		 append && *append ? " " : "", append ? append : "");
	return 0;
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
	if (end == arg || *end || errno || v < 1 || v > MAX_REPEAT) {
		snprintf(err, errlen, "'%s': give auto or a whole number from 1 to %d",
			 arg, MAX_REPEAT);
		return -1;
	}
	o->n = (int)v;
	o->autom = false;
	return 0;
}

/*
 * The power targets (--metric, else the scenario's), and for --repeat
 * auto its effect and limit; 0 or EXIT_USAGE.
 */
static int setup_power(struct run *r, const struct repeat_opt *ro,
		       int limit)
{
	unsigned int i;

	if (r->pow.pw.n) {
		memcpy(r->pow.targets, r->pow.pw.mi, r->pow.pw.n * sizeof(r->pow.targets[0]));
		r->pow.ntargets = r->pow.pw.n;
	} else {
		r->pow.ntargets = results_mde_targets(&r->scn, r->pow.targets,
						  RES_MAX_METRICS);
	}
	r->pow.worst_mi = -1;
	if (limit && !ro->autom) {
		fprintf(stderr, "swapctl run: option '--repeat-limit' is for '--repeat auto'\n");
		return EXIT_USAGE;
	}
	if (!ro->autom)
		return 0;
	r->pow.repeat_auto = true;
	r->pow.limit = limit ? (unsigned int)limit : AUTO_LIMIT;
	if (!(r->pow.pw.effect > 0))
		r->pow.pw.effect = AUTO_EFFECT;
	for (i = 0; i < r->pow.ntargets; i++) {
		const struct metric_def *m = &metric_defs[r->pow.targets[i]];

		if (r->pow.pw.effect < m->min_effect)
			guest_msg("repeat auto: %s changes below %.3g%% are noise by its definition (swapctl metrics): its goal is %.3g%%",
			    m->key, m->min_effect * 100, m->min_effect * 100);
	}
	r->s.repeat = r->pow.limit;
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
	return kernels_add_override(opt->value, arg, (size_t)(eq - arg), eq + 1, err,
			    errlen);
}

static int opt_bk(const struct popt *opt, const char *arg, char *err,
		  size_t errlen)
{
	return kernels_add_override(opt->value, "baseline", 8, arg, err, errlen);
}

static int opt_pk(const struct popt *opt, const char *arg, char *err,
		  size_t errlen)
{
	return kernels_add_override(opt->value, SCN_PATCHED, strlen(SCN_PATCHED), arg,
			    err, errlen);
}

/*
 * --repeat auto, after a repeat: are the power targets' minimum
 * detectable effects within the effect asked for? Says so either way.
 */
static bool enough_repeats(struct sched *s, unsigned int done, void *arg)
{
	struct run *r = arg;
	struct run_summary rs;
	struct results res;

	(void)s;
	if (!r->pow.repeat_auto)
		return false;
	if (done < AUTO_MIN_REPEAT)
		return false;
	results_init(&res);
	summary_of(r, &rs);
	if (summary_results(&rs, &res)) {
		results_free(&res);
		return false;
	}
	r->pow.reached = results_mde_reached(&res, r->pow.targets,
					       r->pow.ntargets, r->pow.pw.effect,
					       &r->pow.worst,
					       &r->pow.worst_mi);
	results_free(&res);
	guest_msg("repeat auto: after %u runs a kernel the largest mde is %.1f%% (%s)%s%.3g%%",
	    done, isfinite(r->pow.worst) ? r->pow.worst * 100 : 100,
	    r->pow.worst_mi >= 0 ? metric_defs[r->pow.worst_mi].key : "-",
	    r->pow.reached ? " <= " : " > ", r->pow.pw.effect * 100);
	return r->pow.reached;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* Load and check the scenario and the guest's size; 0 or an exit code. */

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
	r->env.cfg = cfg;
	r->env.scn = &r->scn;
	r->env.memory_mb = r->scn.memory_mb ? r->scn.memory_mb :
		cfg->guest_memory_mb ? cfg->guest_memory_mb : 256;
	r->env.cpus = r->scn.cpus ? r->scn.cpus :
		cfg->guest_cpus ? cfg->guest_cpus : 1;
	if (scenario_check_fit(&r->scn, r->env.memory_mb, err, sizeof(err)) ||
	    scenario_check_host(&r->scn, r->env.memory_mb, r->env.cpus,
				cfg->source, err, sizeof(err)) ||
	    check_setup(r, append, err, sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		return EXIT_CONFIG;
	}
	return 0;
}

/* The host-side kernel-build tree of a kernel-build scenario. */
static int prepare_kbuild(struct run *r)
{
	struct swapctl_config *cfg = r->cfg;
	char log[4200], err[4400], tarball[PATH_MAX];

	if (!r->scn.kbuild[0])
		return 0;
	snprintf(log, sizeof(log), "%s/logs/kbuild-%s.log", cfg->workdir,
		 r->scn.kbuild);
	/* the source of the run's line, as `swapctl build` extracted it */
	if (config_tarball(cfg, r->k.line, tarball, sizeof(tarball))) {
		fprintf(stderr, "swapctl run: %s: path too long\n",
			cfg->workdir);
		return EXIT_CONFIG;
	}
	if (kbuild_prepare(cfg->workdir, tarball, r->scn.kbuild, log,
			   r->dry_run,
			   r->scn.kbuild_src, sizeof(r->scn.kbuild_src),
			   r->scn.kbuild_out, sizeof(r->scn.kbuild_out), err,
			   sizeof(err))) {
		fprintf(stderr, "swapctl run: %s: %s\n", r->scn.file, err);
		return EXIT_SETUP;
	}
	return 0;
}

/*
 * The plan of each slot: the same text but for the NFS port of its
 * server (nfs_port + slot), so one plan for all when there is no NFS.
 */
static int make_plans(struct run *r)
{
	bool nfs = scn_has_nfs(&r->scn);
	char err[8192];
	unsigned int i;

	for (i = 0; i < r->s.nslots; i++) {
		if (i && !nfs) {
			r->plans[i] = r->plans[0];
			continue;
		}
		r->plans[i] = plan_text(&r->scn, r->env.memory_mb,
					r->cfg->nfs_port + i);
		if (!r->plans[i])
			return EXIT_FAILURE_GENERIC;
		if (plan_check(r->scn.file, r->plans[i], err, sizeof(err))) {
			fprintf(stderr, "swapctl run: %s\n", err);
			return EXIT_CONFIG;
		}
	}
	r->plan = r->plans[0];
	r->env.plan = r->plan;
	return 0;
}

/*
 * The MiB a guest's swap images and NFS swap files take in the host's
 * RAM: all of them when the work dir is on a tmpfs, else none.
 */
static unsigned int images_in_ram_mb(const struct run *r)
{
	struct statfs sf;
	unsigned int mb = 0;
	int i;

	if (statfs(r->cfg->workdir, &sf) || sf.f_type != TMPFS_MAGIC)
		return 0;
	for (i = 0; i < r->scn.nswap; i++) {
		const struct scn_swap *sw = &r->scn.swap[i];

		if (sw->type == SWAP_EXT4FILE)
			mb += sw->disk_mb;
		else if (sw->dev[0] || sw->type == SWAP_NFSFILE)
			mb += sw->size_mb;
	}
	return mb;
}

/* Whether the run uses this machine's own libvirt (no hosts, or local). */
static bool local_host(const struct swapctl_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nhosts; i++)
		if (!strcmp(cfg->hosts[i], "local"))
			return true;
	return !cfg->nhosts;
}

/*
 * --parallel N (or parallel in swapctl.conf): the waves of this run,
 * and whether they fit the host: refused (EXIT_USAGE) when the widest
 * wave's guests need more memory than MemAvailable, a warning when their
 * vCPUs outnumber the host's CPUs. 0 or an exit code.
 */
static int plan_parallel(struct run *r, int parallel)
{
	const struct swapctl_config *cfg = r->cfg;
	unsigned int total, guest_mb, ram;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char what[4200], why[256];

	r->parallel = parallel ? (unsigned int)parallel : cfg->parallel;
	if (parallel)
		snprintf(what, sizeof(what), "--parallel %u", r->parallel);
	else
		snprintf(what, sizeof(what), "parallel = %u (%s)", r->parallel,
			 cfg->source);
	total = r->s.repeat * (unsigned int)r->scn.nkernels;
	r->s.width = waves_width((unsigned int)r->scn.nkernels, total,
			       r->parallel);
	/* every host may run that many: a slot (and NFS port) each */
	r->s.nslots = r->s.width * (cfg->nhosts ? cfg->nhosts : 1);
	if (r->s.nslots > WAVES_MAX_PARALLEL)
		r->s.nslots = WAVES_MAX_PARALLEL;
	if (scn_has_nfs(&r->scn) && cfg->nfs_port + r->s.nslots - 1 > 65535) {
		fprintf(stderr, "swapctl run: %s: nfs_port %u: the NFS servers need ports %u to %u, past 65535\n",
			what, cfg->nfs_port, cfg->nfs_port,
			cfg->nfs_port + r->s.nslots - 1);
		return EXIT_USAGE;
	}
	if (r->s.width <= 1 || !local_host(cfg))
		return 0;
	ram = images_in_ram_mb(r);
	guest_mb = waves_guest_host_mb(r->env.memory_mb,
				       scn_has_nfs(&r->scn)) + ram;
	if (waves_check_memory(r->s.width, guest_mb, waves_mem_available_mb(),
			       why, sizeof(why))) {
		fprintf(stderr, "swapctl run: %s: %s (MemAvailable; a guest is %u MiB of RAM + %u MiB for QEMU%s%s)\n",
			what, why, r->env.memory_mb, WAVES_QEMU_OVERHEAD_MB,
			scn_has_nfs(&r->scn) ? " and its NFS server" : "",
			ram ? " + its images on the tmpfs work dir" : "");
		return EXIT_USAGE;
	}
	if (waves_check_cpus(r->s.width, r->env.cpus,
			     ncpu > 0 ? (unsigned int)ncpu : 0, why,
			     sizeof(why)))
		fprintf(stderr, "swapctl run: warning: %s: %s: the guests share the CPUs and each runs slower\n",
			what, why);
	return 0;
}

/* Kernels, initramfs and kbuild tree; 0 or an exit code. */
static int prepare(struct run *r, struct popt_cmd *cmd,
		   const struct kernel_overrides *ov, const char *ird, int repeat,
		   int timeout)
{
	struct swapctl_config *cfg = r->cfg;
	char names[SCN_MAX_KERNELS * (SCN_KERNEL_MAX + 1) + 1] = "";
	int code, k;

	r->s.repeat = repeat ? (unsigned int)repeat : r->scn.repeat;
	r->env.host_timeout_s = timeout ? (double)timeout :
		(double)(r->scn.timeout_s + BOOT_MARGIN_S);
	r->env.kvm = read_cpuinfo_kvm(r);
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
	r->k.initramfs_given = ird;
	if (ird)
		snprintf(r->k.initramfs, sizeof(r->k.initramfs), "%s", ird);
	else if (util_path(r->k.initramfs, sizeof(r->k.initramfs),
			   "%s/kernels/initramfs.cpio", cfg->workdir))
		goto toolong;
	code = prepare_kbuild(r);
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
		write_state(r, "done");
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
	char err[8192], lockpath[4200];
	int lockfd, code;

	guest_catch_signals();

	/*
	 * One run at a time per work directory: the embedded driver allows
	 * one process per root, and two TCG guests would skew each other.
	 */
	util_path(lockpath, sizeof(lockpath), "%s/run.lock", cfg->workdir);
	util_mkdir_p(cfg->workdir, 0755);
	lockfd = util_lock(lockpath, "another swapctl run",
			   &guest_interrupted);
	if (lockfd < 0 && errno == EINTR) {
		fprintf(stderr, "swapctl run: %s: interrupted waiting for another swapctl run\n",
			lockpath);
		return EXIT_INTERRUPTED;
	}
	if (lockfd < 0) {
		fprintf(stderr, "swapctl run: %s: %s\n", lockpath,
			strerror(errno));
		return EXIT_SETUP;
	}
	code = guest_interrupted ? EXIT_INTERRUPTED :
		kernels_initramfs_ready(&r->k);
	if (code) {
		/* said */
	} else if (make_run_dir(r, err, sizeof(err)) ||
		   write_run_files(r, err, sizeof(err))) {
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
	struct kernel_overrides ov;		/* --kernel, --baseline/patched-kernel */
	struct res_mde_opts pw;		/* --effect, --metric */
	struct repeat_opt ro;		/* --repeat */
	const char *kernels, *initramfs, *append, *line;
	bool json, dry, keep, debug;
	int timeout, limit, icount, parallel;	/* 0 (icount -1): not given */
};

/*
 * --icount: TCG only, and one vCPU (-icount runs every vCPU in one TCG
 * thread in turn: with 2 the kernel did not get past bringing up CPU 1
 * in a minute, with 1 it booted in 2 s). A command group that asks for
 * more CPUs (cpuset.cpus) gets the guest's one, said once per group, so
 * that kernel-build's memcg and global halves both run under icount.
 * The guest's own watchdog gets the plan's longest timeout_s: with
 * sleep=off its clock jumps over every idle wait, so a guest waiting
 * for virtio-blk I/O saw 240 s pass in 42 s of host time (bdev-swap);
 * the scenario's timeout_s stays the host's limit, in host time
 * (prepare() set it). Before the plans are written; 0 or EXIT_USAGE.
 */
static int setup_icount(struct run *r, int icount)
{
	struct scn_group *g;
	int i;

	if (icount >= 0 && r->env.kvm) {
		fprintf(stderr, "swapctl run: option '--icount': the guests run under KVM here (%s); -icount is TCG's (accel = tcg in swapctl.conf)\n",
			r->env.accel_why);
		return EXIT_USAGE;
	}
	r->env.icount = icount >= 0;
	r->env.icount_shift = icount >= 0 ? (unsigned int)icount : 0;
	if (!r->env.icount)
		return 0;
	if (r->env.cpus > 1)
		guest_msg("--icount: the guests get 1 vCPU instead of %u (icount runs the vCPUs in turn)",
			  r->env.cpus);
	r->env.cpus = 1;
	r->scn.timeout_s = PLAN_TIMEOUT_S_MAX;
	for (i = 0; i < r->scn.ngroups; i++) {
		g = &r->scn.group[i];
		if (g->cpus <= 1)
			continue;
		guest_msg("--icount: group %s gets the guest's 1 CPU instead of cpus %u",
			  g->name, g->cpus);
		g->cpus = 1;
	}
	return 0;
}

/*
 * An NFS backend's server and a command workload's 9p share of the root
 * are this machine's: a guest on another machine reaches neither, so a
 * host of `hosts` that is not this machine is refused for them (one
 * line naming the scenario and the host). 0 or EXIT_CONFIG.
 */
static int check_remote_hosts(const struct run *r)
{
	const struct swapctl_config *cfg = r->cfg;
	const char *what = scn_has_nfs(&r->scn) ?
		"its nfsfile backend's NFS server (ganesha)" :
		"its command workload's share of the root (9p)";
	unsigned int i;

	if (!scn_has_nfs(&r->scn) && !r->scn.command)
		return 0;
	for (i = 0; i < cfg->nhosts; i++) {
		if (waves_uri_loopback(cfg->hosts[i]))
			continue;
		fprintf(stderr, "swapctl run: %s: host %s (hosts in %s): %s runs on this machine, which a guest on another machine cannot reach; run it on this machine's hosts only\n",
			r->scn.file, cfg->hosts[i],
			cfg->source[0] ? cfg->source : "swapctl.conf", what);
		return EXIT_CONFIG;
	}
	return 0;
}

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
		code = check_remote_hosts(r);
	if (!code)
		code = prepare(r, cmd, &o->ov, o->initramfs, o->ro.n,
			       o->timeout);
	if (!code)
		code = setup_power(r, &o->ro, o->limit);
	if (!code)
		code = setup_icount(r, o->icount);
	if (!code)
		code = plan_parallel(r, o->parallel);
	if (!code)
		code = make_plans(r);
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
			     STR(AUTO_MIN_REPEAT) " and at most --repeat-limit times",
			     opt_repeat),
		OPT_INT(0, "repeat-limit", &o.limit, "N",
			"the most runs per kernel of --repeat auto (default "
			STR(AUTO_LIMIT) ")", AUTO_MIN_REPEAT, MAX_REPEAT),
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
