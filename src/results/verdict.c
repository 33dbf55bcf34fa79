// SPDX-License-Identifier: GPL-2.0
/*
 * results: the verdicts of run and report (doc/HACKING.md "Verdicts"):
 * each kernel's metric against the reference's, blocked by host when the
 * guests ran on more than one; the scenario's expectations and
 * no_regression list; which exit code wins. See results.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "holm.h"
#include "results.h"
#include "swapctl.h"

/*
 * The verdict vocabulary, the one place its words are: each verdict's
 * word (text table, bisect, JSON and KCIDB's "verdict"), its form in at
 * most 7 columns (text-email's verdict column) and its one character
 * (bisect's grid). The legends of text-email and bisect are generated
 * from it; tests/integration/test_verdicts.py checks that no output
 * says a verdict in other words ("no change", "~" for it, "no test").
 */
static const struct {
	const char *word, *abbr;
	char sym;
} vocab[RES_VW_N] = {
	[RES_VW_NOT_MEASURED] = { "not measured", "-", '.' },
	[RES_VW_NO_CHANGE] = { "no significant change", "n.s.", '=' },
	[RES_VW_BETTER] = { "better", "better", '+' },
	[RES_VW_WORSE] = { "worse", "worse", '-' },
	[RES_VW_CHANGED] = { "changed", "changed", '~' },
	[RES_VW_ONE_RUN] = { "not judged (one run)", "1 run", '=' },
};

const char *results_verdict_name(enum verdict v)
{
	switch (v) {
	case V_NOT_MEASURED:
		return vocab[RES_VW_NOT_MEASURED].word;
	case V_NO_CHANGE:
		return vocab[RES_VW_NO_CHANGE].word;
	case V_BETTER:
		return vocab[RES_VW_BETTER].word;
	case V_WORSE:
		return vocab[RES_VW_WORSE].word;
	case V_CHANGED:
		return vocab[RES_VW_CHANGED].word;
	}
	return "?";
}

enum res_vword results_vword(const struct res_cmp *c)
{
	switch (c->verdict) {
	case V_NO_CHANGE:
		/* one run and not a count the workload fixes: no test */
		if (!c->has_p && c->m && !c->m->deterministic)
			return RES_VW_ONE_RUN;
		return RES_VW_NO_CHANGE;
	case V_BETTER:
		return RES_VW_BETTER;
	case V_WORSE:
		return RES_VW_WORSE;
	case V_CHANGED:
		return RES_VW_CHANGED;
	case V_NOT_MEASURED:
		break;
	}
	return RES_VW_NOT_MEASURED;
}

const char *results_vword_word(enum res_vword w)
{
	return w < RES_VW_N ? vocab[w].word : "?";
}

const char *results_vword_abbr(enum res_vword w)
{
	return w < RES_VW_N ? vocab[w].abbr : "?";
}

char results_vword_sym(enum res_vword w)
{
	return w < RES_VW_N ? vocab[w].sym : '?';
}

/* The minimum detectable effect of @c (results.h, struct res_cmp). */
static void set_mde(const struct metric_def *m, const struct stats_desc *a,
		    const struct stats_desc *b, struct res_cmp *c)
{
	if (a->n >= 2 && b->n >= 2 && stats_mde(a, b, &c->mde_noise)) {
		c->has_mde = c->has_mde_noise = true;
		c->mde = fmax(c->mde_noise, m->min_effect);
	} else if (m->deterministic) {
		/* judged on the difference alone (see below) */
		c->has_mde = true;
		c->mde = m->min_effect;
	}
}

static void set_verdict(const struct metric_def *m, bool significant,
			double rel, struct res_cmp *c)
{
	if (!significant)
		c->verdict = V_NO_CHANGE;
	else if (m->dir == METRIC_NEUTRAL)
		c->verdict = V_CHANGED;
	else if ((rel > 0) == (m->dir == METRIC_HIGHER_BETTER))
		c->verdict = V_BETTER;
	else
		c->verdict = V_WORSE;
}

void results_judge(const struct metric_def *m, enum stats_state sa,
		   const struct stats_desc *a, enum stats_state sb,
		   const struct stats_desc *b, struct res_cmp *c)
{
	double rel, p = 1, df;
	bool significant;

	c->m = m;
	c->why[0] = '\0';
	c->has_ratio = c->has_ci = c->has_p = false;
	c->has_mde = c->has_mde_noise = false;
	c->ratio = c->lo = c->hi = c->p = c->mde = c->mde_noise = 0;
	c->blocked = false;
	c->pairs = c->hosts = 0;
	if (sa != STATS_OK || sb != STATS_OK || !a->n || !b->n) {
		c->verdict = V_NOT_MEASURED;
		return;
	}
	c->has_ratio = stats_ratio_ci(a, b, &c->ratio, &c->lo, &c->hi,
				      &c->has_ci);
	if (a->mean != 0)
		rel = b->mean / a->mean - 1;
	else
		rel = b->mean == 0 ? 0 : (b->mean > 0 ? INFINITY : -INFINITY);
	if (a->n >= 2 && b->n >= 2) {
		/* repeats on both sides: Welch's t-test */
		stats_welch(a, b, &p, &df);
		c->has_p = true;
		c->p = p;
		significant = p < RES_P_SIGNIFICANT &&
			      fabs(rel) > m->min_effect;
	} else {
		/*
		 * One run of a side: no test is possible. A count the
		 * workload fixes is judged on its difference alone; any
		 * other metric gets no verdict of change.
		 */
		significant = m->deterministic && fabs(rel) > m->min_effect;
	}
	set_mde(m, a, b, c);
	set_verdict(m, significant, rel, c);
}

/*
 * ---- blocked by host ----
 *
 * A value of guest @g: metric @what, or with @phase the time of phase
 * @what. False when it has none.
 */
static bool guest_val(const struct res_guest *g, unsigned int what,
		      bool phase, double *v)
{
	if (phase) {
		if (what >= g->nphases)
			return false;
		*v = g->phase_s[what];
		return true;
	}
	if (g->v[what].state != STATS_OK)
		return false;
	*v = g->v[what].v;
	return true;
}

/*
 * The pairs of kernel @k's and @ref's guests of one repeat on one host
 * with a value each, into @a and @b (room for r->ng); how many, and in
 * @hosts over how many hosts.
 */
static size_t host_pairs(const struct results *r, unsigned int what,
			 bool phase, unsigned int k, unsigned int ref,
			 double *a, double *b, unsigned int *hosts,
			 const char **seen)
{
	unsigned int i, j;
	size_t n = 0;

	*hosts = 0;
	for (i = 0; i < r->ng; i++) {
		const struct res_guest *ga = &r->g[i];

		if (strcmp(ga->kernel, r->kernels[ref]) || !ga->host[0] ||
		    !guest_val(ga, what, phase, &a[n]))
			continue;
		for (j = 0; j < r->ng; j++) {
			const struct res_guest *gb = &r->g[j];

			if (gb->rep != ga->rep || strcmp(gb->host, ga->host) ||
			    strcmp(gb->kernel, r->kernels[k]) ||
			    !guest_val(gb, what, phase, &b[n]))
				continue;
			results_host_seen(seen, hosts, ga->host);
			n++;
			break;
		}
	}
	return n;
}

/*
 * Comparison @c (judged over the repeats, pooled) again with the host as
 * a blocking factor, when the pairs ran on more than one host: the
 * pairs' ratio, interval, p and mde replace the pooled ones.
 */
static void block_by_host(const struct results *r, unsigned int what,
			  bool phase, unsigned int k, unsigned int ref,
			  struct res_cmp *c)
{
	double *a, *b;
	const char **seen;
	struct stats_paired sp;
	unsigned int hosts;
	size_t n = 0;

	if (c->verdict == V_NOT_MEASURED || !r->ng)
		return;
	a = calloc(r->ng, sizeof(*a));
	b = calloc(r->ng, sizeof(*b));
	seen = calloc(r->ng, sizeof(*seen));
	if (a && b && seen)
		n = host_pairs(r, what, phase, k, ref, a, b, &hosts, seen);
	if (n >= 2 && hosts >= 2 && stats_paired(a, b, n, &sp)) {
		c->pooled_ratio = c->ratio;
		c->pooled_lo = c->lo;
		c->pooled_hi = c->hi;
		c->pooled_p = c->p;
		c->pooled_has_ci = c->has_ci;
		c->pooled_has_p = c->has_p;
		c->blocked = c->has_ratio = c->has_ci = c->has_p = true;
		c->pairs = (unsigned int)n;
		c->hosts = hosts;
		c->pair_sd = sp.sd;
		c->ratio = sp.ratio;
		c->lo = sp.lo;
		c->hi = sp.hi;
		c->p = sp.p;
		c->has_mde = c->has_mde_noise = true;
		c->mde_noise = sp.mde;
		c->mde = fmax(sp.mde, c->m->min_effect);
		set_verdict(c->m, sp.p < RES_P_SIGNIFICANT &&
			    fabs(sp.ratio - 1) > c->m->min_effect,
			    sp.ratio - 1, c);
	}
	free(a);
	free(b);
	free(seen);
}

/*
 * The vmstat counter metric @mi is computed from (through .num/.den)
 * that a guest of kernel @k lacks, or NULL: why it is STATS_MISSING.
 */
static const char *missing_counter(const struct results *r, int mi,
				   unsigned int k, int depth)
{
	const struct metric_def *m;
	const char *why = NULL;
	unsigned int i;

	if (mi < 0 || depth > 4)
		return NULL;
	m = &metric_defs[mi];
	if (!m->vmstat)
		return m->num ? missing_counter(r, metric_index(m->num), k,
						depth + 1) ?:
				missing_counter(r, metric_index(m->den), k,
						depth + 1) : NULL;
	for (i = 0; i < r->ng && !why; i++)
		if (!strcmp(r->g[i].kernel, r->kernels[k]) &&
		    r->g[i].v[mi].state == STATS_MISSING)
			why = m->vmstat;
	return why;
}

void results_compare(const struct results *r, unsigned int mi,
		     unsigned int k, unsigned int ref, struct res_cmp *c)
{
	struct stats_desc a, b;
	enum stats_state sa, sb;
	const char *why = NULL;
	unsigned int side = k;

	sa = results_desc(r, ref, mi, &a);
	sb = results_desc(r, k, mi, &b);
	results_judge(&metric_defs[mi], sa, &a, sb, &b, c);
	block_by_host(r, mi, false, k, ref, c);
	c->kernel = k;
	c->ref = ref;
	if (c->verdict != V_NOT_MEASURED)
		return;
	if (sb == STATS_MISSING)
		why = missing_counter(r, (int)mi, k, 0);
	if (!why && sa == STATS_MISSING) {
		side = ref;
		why = missing_counter(r, (int)mi, ref, 0);
	}
	if (why)
		snprintf(c->why, sizeof(c->why), "no %s in %s", why,
			 r->kernels[side]);
}

void results_phase_compare(const struct results *r, unsigned int idx,
			   unsigned int k, struct res_cmp *c)
{
	static const struct metric_def *wl;
	struct stats_desc a, b;
	bool ha, hb;

	if (!wl)
		wl = metric_find("workload_seconds");
	ha = results_phase_desc(r, 0, idx, &a, NULL);
	hb = results_phase_desc(r, k, idx, &b, NULL);
	results_judge(wl, ha ? STATS_OK : STATS_NA, &a,
		      hb ? STATS_OK : STATS_NA, &b, c);
	block_by_host(r, idx, true, k, 0, c);
	c->kernel = k;
	c->ref = 0;
}

/* Expectation @e of metric @mi on every guest of every kernel. */
static void expect_each(const struct results *r, const struct scn_expect *e,
			int mi, struct res_expect *x)
{
	unsigned int i;
	double v;

	for (i = 0; i < r->ng; i++) {
		const struct res_guest *g = &r->g[i];

		if (g->v[mi].state != STATS_OK) {
			x->pass = x->measured = false;
			snprintf(x->what, sizeof(x->what),
				 "%s-%u: %s not measured", g->kernel, g->rep,
				 e->metric);
			return;
		}
		x->value = v = g->v[mi].v;
		if ((e->has_min && v < e->min) ||
		    (e->has_max && v > e->max)) {
			x->pass = false;
			snprintf(x->what, sizeof(x->what), "%s-%u: %s = %.*f",
				 g->kernel, g->rep, e->metric,
				 metric_defs[mi].decimals + 1, v);
			return;
		}
	}
	if (!r->ng) {
		x->pass = x->measured = false;
		snprintf(x->what, sizeof(x->what), "no guest ran");
	}
}

void results_expect(const struct results *r, const struct scn_expect *e,
		    struct res_expect *x)
{
	int mi = metric_index(e->metric);
	int k = e->kernel[0] ? results_kernel_index(r, e->kernel) : -1;
	int ref = e->vs[0] ? results_kernel_index(r, e->vs) : -1;
	struct stats_desc d, dref;
	double v;

	memset(x, 0, sizeof(*x));
	x->pass = true;
	x->measured = true;
	if (mi < 0) {
		x->pass = x->measured = false;
		snprintf(x->what, sizeof(x->what), "%s: no such metric",
			 e->metric);
		return;
	}
	if ((e->kernel[0] && k < 0) || (e->vs[0] && ref < 0)) {
		x->skipped = true;
		x->measured = false;
		snprintf(x->what, sizeof(x->what), "kernel not run");
		return;
	}
	if (!e->kernel[0]) {
		expect_each(r, e, mi, x);
		return;
	}
	if (results_desc(r, (unsigned int)k, (unsigned int)mi, &d) !=
	    STATS_OK ||
	    (ref >= 0 && results_desc(r, (unsigned int)ref, (unsigned int)mi,
				      &dref) != STATS_OK)) {
		x->pass = x->measured = false;
		snprintf(x->what, sizeof(x->what), "%s not measured",
			 e->metric);
		return;
	}
	if (ref >= 0) {
		if (dref.mean == 0) {
			x->pass = x->measured = false;
			snprintf(x->what, sizeof(x->what),
				 "%s of %s is 0: no ratio", e->metric, e->vs);
			return;
		}
		v = d.mean / dref.mean;
	} else {
		v = d.mean;
	}
	x->value = v;
	if ((e->has_min && v < e->min) || (e->has_max && v > e->max)) {
		x->pass = false;
		if (ref >= 0)
			snprintf(x->what, sizeof(x->what),
				 "%s %s/%s = %.3f", e->metric, e->kernel,
				 e->vs, v);
		else
			snprintf(x->what, sizeof(x->what), "%s = %.*f",
				 e->metric, metric_defs[mi].decimals + 1, v);
	}
}

/*
 * ---- the gate: Holm over the no_regression metrics ----
 */
unsigned int results_gate_judge(const struct res_cmp *c, const bool *in,
				unsigned int n, double alpha,
				struct res_gate *g)
{
	double *p = calloc(n ? n : 1, sizeof(*p));
	double *thr = calloc(n ? n : 1, sizeof(*thr));
	double *adj = calloc(n ? n : 1, sizeof(*adj));
	bool *rej = calloc(n ? n : 1, sizeof(*rej));
	unsigned int i, m = 0;

	memset(g, 0, n * sizeof(*g));
	for (i = 0; p && i < n; i++)
		p[i] = in[i] && c[i].verdict != V_NOT_MEASURED &&
		       c[i].has_p ? c[i].p : NAN;
	if (p && thr && adj && rej)
		m = holm_step_down(p, n, alpha, rej, thr, adj);
	for (i = 0; i < n; i++) {
		g[i].gated = in[i];
		if (!in[i])
			continue;
		g[i].m = m;
		/* out of memory: as if untested, the verdict alone */
		g[i].tested = m && !isnan(p[i]);
		g[i].reject = g[i].tested && rej[i];
		g[i].thr = g[i].tested ? thr[i] : NAN;
		g[i].p_adj = g[i].tested ? adj[i] : NAN;
		/* untested and worse: a count judged on its difference */
		g[i].regression = c[i].verdict == V_WORSE &&
				  (!g[i].tested || g[i].reject);
	}
	free(p);
	free(thr);
	free(adj);
	free(rej);
	return m;
}

unsigned int results_gate_family(const struct results *r, const bool *gated,
				 unsigned int k, struct res_cmp *c,
				 struct res_gate *g)
{
	struct res_cmp *own = NULL;
	unsigned int mi, m;

	if (!c)
		c = own = calloc(metric_count, sizeof(*c));
	if (!c) {
		memset(g, 0, metric_count * sizeof(*g));
		return 0;
	}
	for (mi = 0; mi < metric_count; mi++) {
		memset(&c[mi], 0, sizeof(c[mi]));
		c[mi].verdict = V_NOT_MEASURED;
		if (gated[mi])
			results_compare(r, mi, k, 0, &c[mi]);
	}
	m = results_gate_judge(c, gated, metric_count, RES_FWER_ALPHA, g);
	free(own);
	return m;
}

/* @gated[mi]: whether metric mi is in @s's no_regression list. */
static void gated_of(const struct scenario *s, bool *gated)
{
	int i, mi;

	memset(gated, 0, RES_MAX_METRICS * sizeof(*gated));
	for (i = 0; s && i < s->nnoreg; i++) {
		mi = metric_index(s->no_regression[i]);
		if (mi >= 0 && mi < RES_MAX_METRICS)
			gated[mi] = true;
	}
}

void results_gate(struct results *r, const struct scenario *s)
{
	r->gate_set = s != NULL;
	gated_of(s, r->gated);
}

void results_gate_dir(struct results *r, const char *dir)
{
	struct scenario *s = calloc(1, sizeof(*s));
	char path[4200], err[512];

	snprintf(path, sizeof(path), "%s/scenario.json", dir);
	if (s && scenario_load(s, path, err, sizeof(err))) {
		free(s);
		s = NULL;
	}
	results_gate(r, s);
	free(s);
}

/* One regression of @what: metric @c on kernel @k, with its test. */
static size_t regression_line(const struct results *r, unsigned int k,
			      const struct res_cmp *c,
			      const struct res_gate *g, char *what,
			      size_t len, size_t off)
{
	const struct metric_def *m = c->m;
	const char *sep = off ? "; " : "";

	if (off >= len)
		return off;
	if (c->has_ratio && c->has_ci)
		off += snprintf(what + off, len - off,
			"%s%s (%s) on %s: %.3fx %s [%.3f, %.3f], p=%.2g, Holm p=%.2g of %u",
			sep, m->key, m->label, r->kernels[k], c->ratio,
			r->kernels[0], c->lo, c->hi, c->p, g->p_adj, g->m);
	else if (c->has_ratio)
		off += snprintf(what + off, len - off, "%s%s (%s) on %s: %.3fx %s",
			sep, m->key, m->label, r->kernels[k], c->ratio,
			r->kernels[0]);
	else
		off += snprintf(what + off, len - off,
			"%s%s (%s) on %s: worse than %s", sep, m->key,
			m->label, r->kernels[k], r->kernels[0]);
	return off;
}

int results_regressions(const struct results *r, const struct scenario *s,
			char *what, size_t len)
{
	bool gated[RES_MAX_METRICS];
	struct res_cmp c[RES_MAX_METRICS];
	struct res_gate g[RES_MAX_METRICS];
	size_t off = 0;
	unsigned int k;
	int i, mi, n = 0;

	if (len)
		what[0] = '\0';
	gated_of(s, gated);
	for (i = 0; i < s->nnoreg; i++) {
		mi = metric_index(s->no_regression[i]);
		if (mi < 0)
			continue;
		/* each kernel's family again: a few comparisons each */
		for (k = 1; k < r->nk; k++) {
			results_gate_family(r, gated, k, c, g);
			if (!g[mi].regression)
				continue;
			n++;
			off = regression_line(r, k, &c[mi], &g[mi], what, len,
					      off);
		}
	}
	return n;
}

static int exit_rank(int code)
{
	switch (code) {
	case EXIT_OK:
		return 0;
	case EXIT_EXPECT:
		return 1;
	case EXIT_REGRESSION:
		return 2;
	case EXIT_GUEST:
		return 3;
	case EXIT_CORRUPT:
		return 4;
	case EXIT_INTERRUPTED:
		return 6;
	default:
		return 5;	/* setup and every other error */
	}
}

int results_exit_worst(int a, int b)
{
	return exit_rank(b) > exit_rank(a) ? b : a;
}
