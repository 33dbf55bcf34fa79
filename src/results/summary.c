// SPDX-License-Identifier: GPL-2.0
/*
 * The end of swapctl run (summary.h): the judgement, summary.json and
 * the table.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "summary.h"
#include "swapctl.h"
#include "util.h"

/*
 * The hosts: [{"uri", "remote", "capacity", "guests", "lost", "why"}],
 * "why" saying why a host was not used or was lost (null: neither).
 */
static json_t *hosts_json(const struct run_summary *rs)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < rs->s->nhosts; i++) {
		const struct sched_host *h = &rs->s->host[i];

		json_array_append_new(a, json_pack("{sssbsisisbso}",
			"uri", h->h.uri, "remote", h->h.remote,
			"capacity", (int)rs->s->hw[i].capacity,
			"guests", (int)h->guests, "lost", rs->s->hw[i].lost,
			"why", h->why[0] ? json_string(h->why) :
			json_null()));
	}
	return a;
}

static json_t *guest_json(const struct run_summary *rs, const struct guest *g,
			  const struct res_guest *rg)
{
	const struct track *t = &g->track;
	json_t *o, *ph, *all, *stj;
	unsigned int i;

	o = json_pack("{sssiss}", "kernel", g->kernel, "rep", (int)g->rep,
		      "status", g->pass ? "pass" : "fail");
	json_object_set_new(o, "reason", json_string(g->why));
	json_object_set_new(o, "host", json_string(g->host[0] ? g->host :
						   rs->uri));
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
	json_object_set_new(o, "debug", json_boolean(rs->env->debug));
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
static json_t *power_json(const struct run_summary *rs)
{
	json_t *o = json_object(), *t = json_array();
	unsigned int i;

	json_object_set_new(o, "effect", rs->pow->pw.effect > 0 ?
			    json_real(rs->pow->pw.effect) : json_null());
	for (i = 0; i < rs->pow->ntargets; i++)
		json_array_append_new(t,
			json_string(metric_defs[rs->pow->targets[i]].key));
	json_object_set_new(o, "targets", t);
	if (!rs->pow->repeat_auto) {
		json_object_set_new(o, "repeat_auto", json_null());
		return o;
	}
	json_object_set_new(o, "repeat_auto", json_pack("{sIsIsbsoss}",
		"limit", (json_int_t)rs->pow->limit,
		"repeats", (json_int_t)rs->s->repeat,
		"reached", rs->pow->reached,
		"worst_mde", isfinite(rs->pow->worst) ?
			json_real(rs->pow->worst) : json_null(),
		"worst_metric", rs->pow->worst_mi >= 0 ?
			metric_defs[rs->pow->worst_mi].key : ""));
	return o;
}

static json_t *summary_json(const struct run_summary *rs,
			    const struct res_expect *xr,
			    const char *regressions, int code)
{
	json_t *o, *arr, *ex, *ks, *nr;
	int i, k;

	o = json_pack("{sssssssi}", "scenario", rs->scn->name, "run_id", rs->id,
		      "dir", rs->dir, "repeat", (int)rs->s->repeat);
	json_object_set_new(o, "accel", json_string(rs->env->kvm ? "kvm" :
						    "tcg"));
	json_object_set_new(o, "icount_shift", rs->env->icount ?
			    json_integer(rs->env->icount_shift) : json_null());
	json_object_set_new(o, "guest", json_pack("{sisi}", "memory_mb",
		(int)rs->env->memory_mb, "cpus", (int)rs->env->cpus));
	json_object_set_new(o, "debug", json_boolean(rs->env->debug));
	json_object_set_new(o, "parallel", json_integer(rs->s->width));
	json_object_set_new(o, "waves", json_incref(rs->s->wave_log));
	json_object_set_new(o, "wall_seconds", json_real(rs->s->wall_s));
	json_object_set_new(o, "hosts", hosts_json(rs));
	json_object_set_new(o, "kernel_line", json_string(rs->k->line));
	ks = json_array();
	for (k = 0; k < rs->scn->nkernels; k++)
		json_array_append_new(ks, json_pack("{sssssb}",
			"name", rs->scn->kernels[k], "variant", rs->k->variant[k],
			"bzImage", rs->k->kernel_path[k], "reference", k == 0));
	json_object_set_new(o, "kernel_images", ks);
	arr = json_array();
	for (i = 0; i < rs->s->ng; i++)
		json_array_append_new(arr, guest_json(rs, &rs->s->g[i],
			i < (int)rs->res->ng ? &rs->res->g[i] : NULL));
	json_object_set_new(o, "results", arr);
	json_object_set_new(o, "kernels", results_kernels_json(rs->res));
	json_object_set_new(o, "comparisons",
			    results_comparisons_json(rs->res));
	json_object_set_new(o, "phases", results_phases_json(rs->res));
	json_object_set_new(o, "power", power_json(rs));
	ex = json_array();
	for (i = 0; i < rs->scn->nexpect; i++)
		json_array_append_new(ex, expect_json(&rs->scn->expect[i],
						      &xr[i]));
	json_object_set_new(o, "expectations", ex);
	nr = json_array();
	for (i = 0; i < rs->scn->nnoreg; i++)
		json_array_append_new(nr,
				      json_string(rs->scn->no_regression[i]));
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
static void print_hosts(const struct run_summary *rs)
{
	unsigned int i;

	for (i = 0; rs->s->nhosts > 1 && i < rs->s->nhosts; i++) {
		const struct sched_host *h = &rs->s->host[i];

		printf("host %s: %u guest%s%s%s%s\n", h->h.uri, h->guests,
		       h->guests == 1 ? "" : "s",
		       rs->s->hw[i].lost ? ", LOST mid-run (its unfinished repeats re-ran on the others)" :
		       "", h->why[0] && !rs->s->hw[i].lost ? ", not used: " : "",
		       h->why[0] && !rs->s->hw[i].lost ? h->why : "");
	}
}

/* Under the table: the host of each repeat, and the re-runs. */
static void print_host_lines(const struct results *res)
{
	char buf[RES_MAX_HOSTS * 2 * CONFIG_URI_MAX + 512];

	if (results_host_lines(res, buf, sizeof(buf)))
		fputs(buf, stdout);
}

static void print_table(const struct run_summary *rs,
			const struct res_expect *xr,
			const char *regressions, int code)
{
	char at_once[32] = "one guest at a time";
	int i;

	if (rs->s->width > 1)
		snprintf(at_once, sizeof(at_once), "%u guests at once",
			 rs->s->width);
	printf("\nscenario %s: line %s, %s, %u MiB, %u CPUs, %u run%s per kernel, %s, reference %s\n",
	       rs->scn->name, rs->k->line, rs->env->kvm ? "KVM" : "TCG",
	       rs->env->memory_mb,
	       rs->env->cpus, rs->s->repeat, rs->s->repeat > 1 ? "s" : "", at_once,
	       rs->scn->kernels[0]);
	results_print_table(stdout, rs->res);
	print_host_lines(rs->res);
	results_print_mde(stdout, rs->res, rs->pow->targets, rs->pow->ntargets);
	if (rs->pow->repeat_auto)
		printf("repeat auto: %u runs per kernel, %s %.3g%% (largest mde %.1f%%, %s)\n",
		       rs->s->repeat, rs->pow->reached ?
		       "every target's mde within" :
		       "the limit reached before every mde was within",
		       rs->pow->pw.effect * 100,
		       isfinite(rs->pow->worst) ? rs->pow->worst * 100 : 100,
		       rs->pow->worst_mi >= 0 ?
		       metric_defs[rs->pow->worst_mi].key : "-");
	print_hosts(rs);
	for (i = 0; i < rs->s->ng; i++) {
		const struct guest *g = &rs->s->g[i];

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
	for (i = 0; i < rs->scn->nexpect; i++) {
		const struct scn_expect *e = &rs->scn->expect[i];

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
	if (rs->scn->nnoreg)
		printf("no regression in");
	for (i = 0; i < rs->scn->nnoreg; i++)
		printf(" %s", rs->scn->no_regression[i]);
	if (rs->scn->nnoreg)
		printf(": %s%s\n", regressions[0] ? "REGRESSION: " : "ok",
		       regressions);
	printf("%s (exit %d); recorded in %s\n",
	       code == EXIT_INTERRUPTED ? "INTERRUPTED" :
	       code == EXIT_REGRESSION ? "REGRESSION" : code ? "FAIL" :
	       "PASS", code, rs->dir);
}

int summary_results(const struct run_summary *rs, struct results *res)
{
	int i, k, bad = 0;

	for (k = 0; k < rs->scn->nkernels; k++)
		results_kernel(res, rs->scn->kernels[k]);
	for (i = 0; i < rs->s->ng; i++)
		if (results_add_on(res, rs->s->g[i].kernel, rs->s->g[i].rep,
				   rs->s->g[i].host[0] ? rs->s->g[i].host :
				   rs->uri,
				   rs->s->g[i].rerun_why, &rs->s->g[i].track))
			bad = -1;
	return bad;
}

int summary_finish(const struct run_summary *rs, bool json)
{
	struct res_expect xr[SCN_MAX_EXPECT];
	char path[4200], *text, regressions[2048];
	int code = EXIT_OK, i;
	json_t *sum;

	if (summary_results(rs, rs->res))
		code = EXIT_FAILURE_GENERIC;
	for (i = 0; i < rs->s->ng; i++)
		code = results_exit_worst(code, rs->s->g[i].exit_class);
	for (i = 0; i < rs->scn->nexpect; i++) {
		results_expect(rs->res, &rs->scn->expect[i], &xr[i]);
		if (!xr[i].pass && !xr[i].skipped)
			code = results_exit_worst(code, EXIT_EXPECT);
	}
	results_gate(rs->res, rs->scn);
	if (results_regressions(rs->res, rs->scn, regressions,
				sizeof(regressions))) {
		code = results_exit_worst(code, EXIT_REGRESSION);
		guest_msg("REGRESSION: %s", regressions);
	}
	if (!rs->s->ng)
		code = results_exit_worst(code, EXIT_SETUP);
	if (guest_interrupted)
		code = EXIT_INTERRUPTED;
	sum = summary_json(rs, xr, regressions, code);
	text = json_dumps(sum, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			  JSON_REAL_PRECISION(6));
	snprintf(path, sizeof(path), "%s/summary.json", rs->dir);
	if (!text || util_write_file_atomic(path, text, strlen(text), 0644))
		guest_msg("%s: %s", path, strerror(errno));
	if (json && text)
		printf("%s\n", text);
	else
		print_table(rs, xr, regressions, code);
	fflush(stdout);
	free(text);
	json_decref(sum);
	return code;
}

/*
 * The power targets (--metric, else the scenario's), and for --repeat
 * auto its effect and limit; 0 or EXIT_USAGE.
 */
int summary_power_setup(struct run_power *p, const struct scenario *scn,
			bool autom, int limit, unsigned int *repeat)
{
	unsigned int i;

	if (p->pw.n) {
		memcpy(p->targets, p->pw.mi, p->pw.n * sizeof(p->targets[0]));
		p->ntargets = p->pw.n;
	} else {
		p->ntargets = results_mde_targets(scn, p->targets,
						  RES_MAX_METRICS);
	}
	p->worst_mi = -1;
	if (limit && !autom) {
		fprintf(stderr, "swapctl run: option '--repeat-limit' is for '--repeat auto'\n");
		return EXIT_USAGE;
	}
	if (!autom)
		return 0;
	p->repeat_auto = true;
	p->limit = limit ? (unsigned int)limit : RUN_AUTO_LIMIT;
	if (!(p->pw.effect > 0))
		p->pw.effect = RUN_AUTO_EFFECT;
	for (i = 0; i < p->ntargets; i++) {
		const struct metric_def *m = &metric_defs[p->targets[i]];

		if (p->pw.effect < m->min_effect)
			guest_msg("repeat auto: %s changes below %.3g%% are noise by its definition (swapctl metrics): its goal is %.3g%%",
			    m->key, m->min_effect * 100, m->min_effect * 100);
	}
	*repeat = p->limit;
	return 0;
}

/*
 * --repeat auto, after a repeat: are the power targets' minimum
 * detectable effects within the effect asked for? Says so either way.
 */
bool summary_repeat_enough(const struct run_summary *rs, struct run_power *p,
			   unsigned int done)
{
	struct results res;

	if (!p->repeat_auto)
		return false;
	if (done < RUN_AUTO_MIN_REPEAT)
		return false;
	results_init(&res);
	if (summary_results(rs, &res)) {
		results_free(&res);
		return false;
	}
	p->reached = results_mde_reached(&res, p->targets, p->ntargets,
					 p->pw.effect, &p->worst,
					 &p->worst_mi);
	results_free(&res);
	guest_msg("repeat auto: after %u runs a kernel the largest mde is %.1f%% (%s)%s%.3g%%",
	    done, isfinite(p->worst) ? p->worst * 100 : 100,
	    p->worst_mi >= 0 ? metric_defs[p->worst_mi].key : "-",
	    p->reached ? " <= " : " > ", p->pw.effect * 100);
	return p->reached;
}
