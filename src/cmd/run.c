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
#include "guest.h"
#include "kline.h"
#include "kbuild.h"
#include "kernels.h"
#include "manifest.h"
#include "parse-options.h"
#include "plan.h"
#include "results.h"
#include "hostrec.h"
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
	/*
	 * --repeat auto: repeat until every power target's minimum
	 * detectable effect is at most pw.effect, or repeat_limit repeats.
	 */
	bool repeat_auto, power_reached;
	unsigned int repeat_limit;
	double power_worst;		/* the largest target mde at the end */
	int power_worst_mi;
	struct res_mde_opts pw;		/* --effect, --metric */
	int targets[RES_MAX_METRICS];	/* pw.mi, or results_mde_targets */
	unsigned int ntargets;
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

/*
 * The waves of the run (--parallel), each the names of the guests that
 * start together: [["baseline-1", "patched-1"], ...].
 */
static json_t *waves_json(const struct run *r)
{
	unsigned int nk = (unsigned int)r->scn.nkernels;
	unsigned int total = r->s.repeat * nk, first = 0, n, i;
	json_t *a = json_array(), *w;
	char name[SCN_KERNEL_MAX + 16];

	while ((n = waves_size(nk, total, r->parallel, first))) {
		w = json_array();
		for (i = first; i < first + n; i++) {
			snprintf(name, sizeof(name), "%s-%u",
				 r->scn.kernels[i % nk], i / nk + 1);
			json_array_append_new(w, json_string(name));
		}
		json_array_append_new(a, w);
		first += n;
	}
	return a;
}

/*
 * The hosts: [{"uri", "remote", "capacity", "guests", "lost", "why"}],
 * "why" saying why a host was not used or was lost (null: neither).
 */
static json_t *hosts_json(const struct run *r)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < r->s.nhosts; i++) {
		const struct sched_host *h = &r->s.host[i];

		json_array_append_new(a, json_pack("{sssbsisisbso}",
			"uri", h->h.uri, "remote", h->h.remote,
			"capacity", (int)r->s.hw[i].capacity,
			"guests", (int)h->guests, "lost", r->s.hw[i].lost,
			"why", h->why[0] ? json_string(h->why) :
			json_null()));
	}
	return a;
}

static json_t *guest_json(const struct run *r, const struct guest *g,
			  const struct res_guest *rg)
{
	const struct track *t = &g->track;
	json_t *o, *ph, *all, *stj;
	unsigned int i;

	o = json_pack("{sssiss}", "kernel", g->kernel, "rep", (int)g->rep,
		      "status", g->pass ? "pass" : "fail");
	json_object_set_new(o, "reason", json_string(g->why));
	json_object_set_new(o, "host", json_string(g->host[0] ? g->host :
						   r->uri));
	json_object_set_new(o, "rerun", g->rerun_why[0] ?
			    json_string(g->rerun_why) : json_null());
	json_object_set_new(o, "release", json_string(t->kernel));
	json_object_set_new(o, "metrics", rg ? results_guest_json(rg) :
			    json_object());
	all = json_object();
	for (i = 0; i < g->nlast_ctr; i++)
		json_object_set_new(all, g->last_ctr[i].name,
				    json_integer((json_int_t)
						 g->last_ctr[i].value));
	json_object_set_new(o, "vmstat_all", all);
	json_object_set_new(o, "pages_written", t->have_result ?
			    json_integer((json_int_t)t->pages_written) :
			    json_null());
	json_object_set_new(o, "host_boot_seconds", t->hello ?
			    json_real(g->boot_s) : json_null());
	json_object_set_new(o, "run_seconds", json_real(g->run_s));
	json_object_set_new(o, "agent_cpu_seconds", g->has_agent_cpu ?
			    json_real(g->agent_cpu_ns / 1e9) : json_null());
	ph = json_array();
	for (i = 0; i < t->nphases; i++) {
		const struct track_phase *p = &t->phases[i];

		if (!p->ended)
			continue;
		json_array_append_new(ph, json_pack("{sssfsIsI}",
			"name", p->name,
			"seconds", p->has_stats ? p->ns / 1e9 :
				   (p->end_ns - p->start_ns) / 1e9,
			"pages", (json_int_t)p->pages,
			"corrupt", (json_int_t)p->corrupt));
	}
	json_object_set_new(o, "phases", ph);
	json_object_set_new(o, "console_problems",
			    json_integer(g->console_problems));
	json_object_set_new(o, "console_first_problem",
			    g->console_problems ?
			    json_string(g->console_first) : json_null());
	json_object_set_new(o, "console_splats",
			    console_scan_json(&g->console));
	json_object_set_new(o, "debug", json_boolean(r->env.debug));
	json_object_set_new(o, "oom_kills", json_integer(g->oom_kills));
	json_object_set_new(o, "timeout", json_boolean(g->timeout));
	stj = json_pack("{sIsIsIsIsIsIsIsIss}",
		"lines", (json_int_t)g->st.lines,
		"ok", (json_int_t)g->st.ok,
		"malformed", (json_int_t)g->st.malformed,
		"too_long", (json_int_t)g->st.too_long,
		"absurd", (json_int_t)g->st.absurd,
		"seq_gaps", (json_int_t)g->st.seq_gaps,
		"seq_missing", (json_int_t)g->st.seq_missing,
		"seq_dups", (json_int_t)g->st.seq_dups,
		"last_error", g->st.last_error);
	json_object_set_new(o, "stream", stj);
	json_object_set_new(o, "dir", json_string(g->dir));
	return o;
}

static json_t *expect_json(const struct scn_expect *e,
			   const struct res_expect *x)
{
	json_t *j = json_pack("{sssssbsb}", "metric", e->metric,
			      "kernel", e->kernel[0] ? e->kernel : "each",
			      "pass", x->pass, "skipped", x->skipped);

	json_object_set_new(j, "vs", e->vs[0] ? json_string(e->vs) :
			    json_null());
	json_object_set_new(j, e->vs[0] ? "min_ratio" : "min", e->has_min ?
			    json_real(e->min) : json_null());
	json_object_set_new(j, e->vs[0] ? "max_ratio" : "max", e->has_max ?
			    json_real(e->max) : json_null());
	json_object_set_new(j, "value", x->measured ? json_real(x->value) :
			    json_null());
	json_object_set_new(j, "detail", json_string(x->what));
	return j;
}

/*
 * {"effect", "targets": [keys], "repeat_auto": {"limit", "repeats",
 * "reached", "worst_mde", "worst_metric"} or null}
 */
static json_t *power_json(const struct run *r)
{
	json_t *o = json_object(), *t = json_array();
	unsigned int i;

	json_object_set_new(o, "effect", r->pw.effect > 0 ?
			    json_real(r->pw.effect) : json_null());
	for (i = 0; i < r->ntargets; i++)
		json_array_append_new(t,
			json_string(metric_defs[r->targets[i]].key));
	json_object_set_new(o, "targets", t);
	if (!r->repeat_auto) {
		json_object_set_new(o, "repeat_auto", json_null());
		return o;
	}
	json_object_set_new(o, "repeat_auto", json_pack("{sIsIsbsoss}",
		"limit", (json_int_t)r->repeat_limit,
		"repeats", (json_int_t)r->s.repeat,
		"reached", r->power_reached,
		"worst_mde", isfinite(r->power_worst) ?
			json_real(r->power_worst) : json_null(),
		"worst_metric", r->power_worst_mi >= 0 ?
			metric_defs[r->power_worst_mi].key : ""));
	return o;
}

static json_t *summary_json(struct run *r, const struct res_expect *xr,
			    const char *regressions, int code)
{
	json_t *o, *arr, *ex, *ks, *nr;
	int i, k;

	o = json_pack("{sssssssi}", "scenario", r->scn.name, "run_id", r->id,
		      "dir", r->dir, "repeat", (int)r->s.repeat);
	json_object_set_new(o, "accel", json_string(r->env.kvm ? "kvm" :
						    "tcg"));
	json_object_set_new(o, "icount_shift", r->env.icount ?
			    json_integer(r->env.icount_shift) : json_null());
	json_object_set_new(o, "guest", json_pack("{sisi}", "memory_mb",
		(int)r->env.memory_mb, "cpus", (int)r->env.cpus));
	json_object_set_new(o, "debug", json_boolean(r->env.debug));
	json_object_set_new(o, "parallel", json_integer(r->s.width));
	json_object_set_new(o, "waves", json_incref(r->s.wave_log));
	json_object_set_new(o, "wall_seconds", json_real(r->s.wall_s));
	json_object_set_new(o, "hosts", hosts_json(r));
	json_object_set_new(o, "kernel_line", json_string(r->k.line));
	ks = json_array();
	for (k = 0; k < r->scn.nkernels; k++)
		json_array_append_new(ks, json_pack("{sssssb}",
			"name", r->scn.kernels[k], "variant", r->k.variant[k],
			"bzImage", r->k.kernel_path[k], "reference", k == 0));
	json_object_set_new(o, "kernel_images", ks);
	arr = json_array();
	for (i = 0; i < r->s.ng; i++)
		json_array_append_new(arr, guest_json(r, &r->s.g[i],
			i < (int)r->res.ng ? &r->res.g[i] : NULL));
	json_object_set_new(o, "results", arr);
	json_object_set_new(o, "kernels", results_kernels_json(&r->res));
	json_object_set_new(o, "comparisons",
			    results_comparisons_json(&r->res));
	json_object_set_new(o, "phases", results_phases_json(&r->res));
	json_object_set_new(o, "power", power_json(r));
	ex = json_array();
	for (i = 0; i < r->scn.nexpect; i++)
		json_array_append_new(ex, expect_json(&r->scn.expect[i],
						      &xr[i]));
	json_object_set_new(o, "expectations", ex);
	nr = json_array();
	for (i = 0; i < r->scn.nnoreg; i++)
		json_array_append_new(nr, json_string(r->scn.no_regression[i]));
	json_object_set_new(o, "no_regression", nr);
	json_object_set_new(o, "regressions", regressions[0] ?
			    json_string(regressions) : json_null());
	json_object_set_new(o, "status", json_string(
		code == EXIT_INTERRUPTED ? "interrupted" :
		code == EXIT_REGRESSION ? "regression" :
		code ? "fail" : "pass"));
	json_object_set_new(o, "exit_code", json_integer(code));
	return o;
}

/* With several hosts: each host's guests, and which was lost or unused. */
static void print_hosts(const struct run *r)
{
	unsigned int i;

	for (i = 0; r->s.nhosts > 1 && i < r->s.nhosts; i++) {
		const struct sched_host *h = &r->s.host[i];

		printf("host %s: %u guest%s%s%s%s\n", h->h.uri, h->guests,
		       h->guests == 1 ? "" : "s",
		       r->s.hw[i].lost ? ", LOST mid-run (its unfinished repeats re-ran on the others)" :
		       "", h->why[0] && !r->s.hw[i].lost ? ", not used: " : "",
		       h->why[0] && !r->s.hw[i].lost ? h->why : "");
	}
}

/* Under the table: the host of each repeat, and the re-runs. */
static void print_host_lines(const struct results *res)
{
	char buf[RES_MAX_HOSTS * 2 * CONFIG_URI_MAX + 512];

	if (results_host_lines(res, buf, sizeof(buf)))
		fputs(buf, stdout);
}

static void print_table(struct run *r, const struct res_expect *xr,
			const char *regressions, int code)
{
	char at_once[32] = "one guest at a time";
	int i;

	if (r->s.width > 1)
		snprintf(at_once, sizeof(at_once), "%u guests at once",
			 r->s.width);
	printf("\nscenario %s: line %s, %s, %u MiB, %u CPUs, %u run%s per kernel, %s, reference %s\n",
	       r->scn.name, r->k.line, r->env.kvm ? "KVM" : "TCG",
	       r->env.memory_mb,
	       r->env.cpus, r->s.repeat, r->s.repeat > 1 ? "s" : "", at_once,
	       r->scn.kernels[0]);
	results_print_table(stdout, &r->res);
	print_host_lines(&r->res);
	results_print_mde(stdout, &r->res, r->targets, r->ntargets);
	if (r->repeat_auto)
		printf("repeat auto: %u runs per kernel, %s %.3g%% (largest mde %.1f%%, %s)\n",
		       r->s.repeat, r->power_reached ?
		       "every target's mde within" :
		       "the limit reached before every mde was within",
		       r->pw.effect * 100,
		       isfinite(r->power_worst) ? r->power_worst * 100 : 100,
		       r->power_worst_mi >= 0 ?
		       metric_defs[r->power_worst_mi].key : "-");
	print_hosts(r);
	for (i = 0; i < r->s.ng; i++) {
		const struct guest *g = &r->s.g[i];

		printf("%s-%u: %s%s%s%s%s\n", g->kernel, g->rep,
		       g->pass ? "pass" : "FAIL", g->why[0] ? ": " : "",
		       g->why, g->rerun_why[0] ? "; " : "", g->rerun_why);
		console_scan_print(stdout, &g->console, "  ");
		if (g->st.malformed || g->st.seq_gaps || g->st.absurd ||
		    g->st.too_long)
			printf("  stream: %llu malformed, %llu too long, %llu absurd, %llu seq gaps (%llu lines lost)\n",
			       (unsigned long long)g->st.malformed,
			       (unsigned long long)g->st.too_long,
			       (unsigned long long)g->st.absurd,
			       (unsigned long long)g->st.seq_gaps,
			       (unsigned long long)g->st.seq_missing);
	}
	for (i = 0; i < r->scn.nexpect; i++) {
		const struct scn_expect *e = &r->scn.expect[i];

		printf("expect %s %s", e->kernel[0] ? e->kernel : "each",
		       e->metric);
		if (e->vs[0])
			printf(" / %s", e->vs);
		if (e->has_min)
			printf(" >= %g", e->min);
		if (e->has_max)
			printf(" <= %g", e->max);
		printf(": %s%s%s\n", xr[i].skipped ? "skipped" :
		       xr[i].pass ? "ok" : "FAILED",
		       xr[i].what[0] ? ", " : "", xr[i].what);
	}
	if (r->scn.nnoreg)
		printf("no regression in");
	for (i = 0; i < r->scn.nnoreg; i++)
		printf(" %s", r->scn.no_regression[i]);
	if (r->scn.nnoreg)
		printf(": %s%s\n", regressions[0] ? "REGRESSION: " : "ok",
		       regressions);
	printf("%s (exit %d); recorded in %s\n",
	       code == EXIT_INTERRUPTED ? "INTERRUPTED" :
	       code == EXIT_REGRESSION ? "REGRESSION" : code ? "FAIL" :
	       "PASS", code, r->dir);
}

/* The results of the guests run so far (@res initialised); -1: no memory */
static int guests_results(const struct run *r, struct results *res)
{
	int i, k, bad = 0;

	for (k = 0; k < r->scn.nkernels; k++)
		results_kernel(res, r->scn.kernels[k]);
	for (i = 0; i < r->s.ng; i++)
		if (results_add_on(res, r->s.g[i].kernel, r->s.g[i].rep,
				   r->s.g[i].host[0] ? r->s.g[i].host : r->uri,
				   r->s.g[i].rerun_why, &r->s.g[i].track))
			bad = -1;
	return bad;
}

static int finish(struct run *r)
{
	struct res_expect xr[SCN_MAX_EXPECT];
	char path[4200], *text, regressions[2048];
	int code = EXIT_OK, i;
	json_t *sum;

	r->res.effect = r->pw.effect;
	r->res.effect_limit = POWER_LIMIT;
	if (guests_results(r, &r->res))
		code = EXIT_FAILURE_GENERIC;
	for (i = 0; i < r->s.ng; i++)
		code = results_exit_worst(code, r->s.g[i].exit_class);
	for (i = 0; i < r->scn.nexpect; i++) {
		results_expect(&r->res, &r->scn.expect[i], &xr[i]);
		if (!xr[i].pass && !xr[i].skipped)
			code = results_exit_worst(code, EXIT_EXPECT);
	}
	results_gate(&r->res, &r->scn);
	if (results_regressions(&r->res, &r->scn, regressions,
				sizeof(regressions))) {
		code = results_exit_worst(code, EXIT_REGRESSION);
		guest_msg("REGRESSION: %s", regressions);
	}
	if (!r->s.ng)
		code = results_exit_worst(code, EXIT_SETUP);
	if (guest_interrupted)
		code = EXIT_INTERRUPTED;
	sum = summary_json(r, xr, regressions, code);
	text = json_dumps(sum, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			  JSON_REAL_PRECISION(6));
	snprintf(path, sizeof(path), "%s/summary.json", r->dir);
	if (!text || util_write_file_atomic(path, text, strlen(text), 0644))
		guest_msg("%s: %s", path, strerror(errno));
	if (r->json && text)
		printf("%s\n", text);
	else
		print_table(r, xr, regressions, code);
	fflush(stdout);
	free(text);
	json_decref(sum);
	write_state(r, "done");
	return code;
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

/* The disks of a guest, as guest.c's make_disks() creates them. */
static json_t *dry_disks(const struct run *r)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < r->scn.nswap; i++) {
		const struct scn_swap *sw = &r->scn.swap[i];

		if (!sw->dev[0])
			continue;
		json_array_append_new(a, json_pack("{sssisssI}",
			"dev", sw->dev, "swap_index", i,
			"backend", plan_backend_name(sw->type),
			"size_mb", (json_int_t)(sw->type == SWAP_EXT4FILE ?
						 sw->disk_mb : sw->size_mb)));
	}
	return a;
}

/* `hosts` as configured: [] without it (the one local driver). */
static json_t *dry_hosts(const struct run *r)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < r->cfg->nhosts; i++)
		json_array_append_new(a, json_string(r->cfg->hosts[i]));
	return a;
}

/* The --dry-run object: see dry_run(). */
static json_t *dry_json(struct run *r, struct guest *g)
{
	char nfs[4200], exp[4300], rec[4300], *xml, *conf;
	json_t *o, *doms;
	int k;

	o = json_pack("{sbsssssssssisiss}", "dry_run", 1,
		      "scenario", r->scn.name,
		      "accel", r->env.kvm ? "kvm" : "tcg",
		      "accel_why", r->env.accel_why, "uri", r->uri,
		      "memory_mb", (int)r->env.memory_mb,
		      "cpus", (int)r->env.cpus, "cmdline", r->env.cmdline);
	doms = json_array();
	if (!o || !doms) {
		json_decref(o);
		json_decref(doms);
		return NULL;
	}
	json_object_set_new(o, "kernel_line", json_string(r->k.line));
	json_object_set_new(o, "disks", dry_disks(r));
	json_object_set_new(o, "parallel", json_integer(r->s.width));
	json_object_set_new(o, "waves", waves_json(r));
	json_object_set_new(o, "hosts", dry_hosts(r));
	json_object_set_new(o, "plan", json_string(r->plan));
	json_object_set_new(o, "domains", doms);
	for (k = 0; k < r->scn.nkernels; k++) {
		snprintf(g->kernel, sizeof(g->kernel), "%s",
			 r->scn.kernels[k]);
		snprintf(g->kernel_path, sizeof(g->kernel_path), "%s",
			 r->k.kernel_path[k]);
		g->rep = 1;
		util_path(g->dir, sizeof(g->dir), "%s/%s-1", r->dir,
			  r->scn.kernels[k]);
		xml = guest_domain_xml(&r->env, g);
		if (!xml) {
			json_decref(o);
			return NULL;
		}
		json_array_append_new(doms, json_pack("{ss+sssssssbss}",
			"guest", r->scn.kernels[k], "-1",
			"kernel", r->scn.kernels[k], "variant", r->k.variant[k],
			"bzImage", r->k.kernel_path[k],
			"built", !access(r->k.kernel_path[k], R_OK), "xml", xml));
		free(xml);
	}
	if (!scn_has_nfs(&r->scn)) {
		json_object_set_new(o, "nfs", json_null());
		return o;
	}
	snprintf(nfs, sizeof(nfs), "%s/%s-1/nfs", r->dir, r->scn.kernels[0]);
	snprintf(exp, sizeof(exp), "%s/export", nfs);
	snprintf(rec, sizeof(rec), "%s/recovery", nfs);
	conf = ganesha_config(exp, rec, r->cfg->nfs_port);
	if (!conf) {
		json_decref(o);
		return NULL;
	}
	snprintf(rec, sizeof(rec), "%s/ganesha.conf", nfs);
	json_object_set_new(o, "nfs", json_pack("{sisissssssss}",
		"port", (int)r->cfg->nfs_port,
		"last_port", (int)(r->cfg->nfs_port + r->s.nslots - 1),
		"export", "/export", "dir", exp, "ganesha_conf", conf,
		"conf_path", rec));
	free(conf);
	return o;
}

/* "# hosts: local, qemu+ssh://box/session (remote: ...)" */
static void dry_print_hosts(const struct run *r)
{
	unsigned int i;

	if (!r->cfg->nhosts)
		return;
	printf("# hosts:");
	for (i = 0; i < r->cfg->nhosts; i++)
		printf("%s %s", i ? "," : "", r->cfg->hosts[i]);
	printf(" (remote: volumes in its pool '%s'); a free host, the most capacity first, takes the next whole repeats and runs them in the waves below\n",
	       VM_POOL);
}

/* The schedule: "# wave 1 (together): baseline-1 patched-1". */
static void dry_waves(const struct run *r, json_t *waves)
{
	json_t *w, *name;
	size_t i, j;

	printf("# schedule: %u guest%s at once (--parallel %u), %zu wave%s; a wave starts when the one before has ended\n",
	       r->s.width, r->s.width > 1 ? "s" : "", r->parallel,
	       json_array_size(waves), json_array_size(waves) > 1 ? "s" : "");
	json_array_foreach(waves, i, w) {
		printf("#   wave %zu:", i + 1);
		json_array_foreach(w, j, name)
			printf(" %s", json_string_value(name));
		putchar('\n');
	}
}

/*
 * --dry-run: everything run would start, without starting it: the
 * accelerator and why, the libvirt URI, the guest's size, command line
 * and disks, the plan, each domain's XML and the NFS server's
 * configuration. --json: the same as one object.
 */
static int dry_run(struct run *r)
{
	struct guest *g = calloc(1, sizeof(*g));
	json_t *o, *d, *nfs;
	int ret = EXIT_OK;
	size_t i;

	if (!g)
		return EXIT_FAILURE_GENERIC;
	snprintf(r->id, sizeof(r->id), "YYYYmmdd-HHMMSS-%s", r->scn.name);
	util_path(r->dir, sizeof(r->dir), "%s/runs/%s", r->cfg->workdir,
		  r->id);
	config_libvirt_uri(r->cfg, r->uri, sizeof(r->uri));
	o = dry_json(r, g);
	free(g);
	if (!o) {
		fprintf(stderr, "swapctl run: --dry-run: %s\n",
			strerror(errno));
		return EXIT_FAILURE_GENERIC;
	}
	if (r->json) {
		if (json_dumpf(o, stdout, JSON_INDENT(2)) || puts("") == EOF)
			ret = EXIT_OUTPUT;
		json_decref(o);
		return ret;
	}
	printf("# accelerator: %s (%s)\n", r->env.kvm ? "KVM" : "TCG",
	       r->env.accel_why);
	printf("# libvirt URI: %s\n", r->uri);
	printf("# kernel line: %s (%s)\n", r->k.line, r->k.line_from);
	if (r->repeat_auto)
		printf("# repeats: auto, %u to %u runs per kernel, until every power target's mde <= %.3g%%\n",
		       AUTO_MIN_REPEAT, r->repeat_limit, r->pw.effect * 100);
	else
		printf("# repeats: %u run%s per kernel, interleaved\n",
		       r->s.repeat, r->s.repeat == 1 ? "" : "s");
	printf("# guest: %u MiB, %u vCPU%s; kernel command line: %s\n",
	       r->env.memory_mb, r->env.cpus, r->env.cpus == 1 ? "" : "s",
	       r->env.cmdline);
	dry_print_hosts(r);
	dry_waves(r, json_object_get(o, "waves"));
	json_array_foreach(json_object_get(o, "disks"), i, d)
		printf("# disk %s: %lld MiB sparse image for swap[%lld] (%s)\n",
		       json_string_value(json_object_get(d, "dev")),
		       (long long)json_integer_value(json_object_get(d, "size_mb")),
		       (long long)json_integer_value(json_object_get(d, "swap_index")),
		       json_string_value(json_object_get(d, "backend")));
	printf("\n# plan (%s/plan.txt and /swapctl/plan in each initrd)\n%s",
	       r->dir, r->plan);
	json_array_foreach(json_object_get(o, "domains"), i, d)
		printf("\n# domain XML of %s (variant %s%s)\n%s",
		       json_string_value(json_object_get(d, "guest")),
		       json_string_value(json_object_get(d, "variant")),
		       json_is_true(json_object_get(d, "built")) ? "" :
		       ", not built yet",
		       json_string_value(json_object_get(d, "xml")));
	nfs = json_object_get(o, "nfs");
	if (json_is_object(nfs) && r->s.nslots > 1)
		printf("\n# NFS: one ganesha.nfsd per guest of a wave, the i-th on 127.0.0.1:%u + i (up to %u), each guest's plan naming its port\n",
		       r->cfg->nfs_port, r->cfg->nfs_port + r->s.nslots - 1);
	if (json_is_object(nfs))
		printf("\n# NFS: ganesha.nfsd on 127.0.0.1:%u, export /export; %s:\n%s",
		       r->cfg->nfs_port,
		       json_string_value(json_object_get(nfs, "conf_path")),
		       json_string_value(json_object_get(nfs, "ganesha_conf")));
	json_decref(o);
	return EXIT_OK;
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

	if (r->pw.n) {
		memcpy(r->targets, r->pw.mi, r->pw.n * sizeof(r->targets[0]));
		r->ntargets = r->pw.n;
	} else {
		r->ntargets = results_mde_targets(&r->scn, r->targets,
						  RES_MAX_METRICS);
	}
	r->power_worst_mi = -1;
	if (limit && !ro->autom) {
		fprintf(stderr, "swapctl run: option '--repeat-limit' is for '--repeat auto'\n");
		return EXIT_USAGE;
	}
	if (!ro->autom)
		return 0;
	r->repeat_auto = true;
	r->repeat_limit = limit ? (unsigned int)limit : AUTO_LIMIT;
	if (!(r->pw.effect > 0))
		r->pw.effect = AUTO_EFFECT;
	for (i = 0; i < r->ntargets; i++) {
		const struct metric_def *m = &metric_defs[r->targets[i]];

		if (r->pw.effect < m->min_effect)
			guest_msg("repeat auto: %s changes below %.3g%% are noise by its definition (swapctl metrics): its goal is %.3g%%",
			    m->key, m->min_effect * 100, m->min_effect * 100);
	}
	r->s.repeat = r->repeat_limit;
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
	struct results res;

	(void)s;
	if (!r->repeat_auto)
		return false;
	if (done < AUTO_MIN_REPEAT)
		return false;
	results_init(&res);
	if (guests_results(r, &res)) {
		results_free(&res);
		return false;
	}
	r->power_reached = results_mde_reached(&res, r->targets,
					       r->ntargets, r->pw.effect,
					       &r->power_worst,
					       &r->power_worst_mi);
	results_free(&res);
	guest_msg("repeat auto: after %u runs a kernel the largest mde is %.1f%% (%s)%s%.3g%%",
	    done, isfinite(r->power_worst) ? r->power_worst * 100 : 100,
	    r->power_worst_mi >= 0 ? metric_defs[r->power_worst_mi].key : "-",
	    r->power_reached ? " <= " : " > ", r->pw.effect * 100);
	return r->power_reached;
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
	r->s.enough = r->repeat_auto ? enough_repeats : NULL;
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
	r->pw = o->pw;
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
