// SPDX-License-Identifier: GPL-2.0
/*
 * results: metric values, comparisons, verdicts, expectations, the table
 * and the JSON shared by run and report. See results.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "swapctl.h"

_Static_assert(RES_MAX_METRICS >= 32, "room for the registry");

void results_init(struct results *r)
{
	memset(r, 0, sizeof(*r));
}

void results_free(struct results *r)
{
	free(r->g);
	results_init(r);
}

int results_kernel_index(const struct results *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->nk; i++)
		if (!strcmp(r->kernels[i], name))
			return (int)i;
	return -1;
}

int results_kernel(struct results *r, const char *name)
{
	int i = results_kernel_index(r, name);

	if (i >= 0)
		return i;
	if (r->nk >= RES_MAX_KERNELS)
		return -1;
	snprintf(r->kernels[r->nk], SCN_KERNEL_MAX, "%s", name);
	return (int)r->nk++;
}

int results_add(struct results *r, const char *kernel, unsigned int rep,
		const struct stats_track *t)
{
	return results_add_on(r, kernel, rep, NULL, NULL, t);
}

/* Control bytes (C0, DEL, C1 in UTF-8 too) of @s replaced by '?'. */
static void printable(char *s)
{
	unsigned char *p = (unsigned char *)s;

	for (; *p; p++) {
		if (*p < ' ' || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = '?';
	}
}

int results_add_on(struct results *r, const char *kernel, unsigned int rep,
		   const char *host, const char *rerun,
		   const struct stats_track *t)
{
	struct metric_in in;
	struct res_guest *g;
	unsigned int i;

	if (results_kernel(r, kernel) < 0)
		return -1;
	if (r->ng >= r->capg) {
		unsigned int cap = r->capg ? r->capg * 2 : 16;
		void *p = realloc(r->g, cap * sizeof(*r->g));

		if (!p)
			return -1;
		r->g = p;
		r->capg = cap;
	}
	g = &r->g[r->ng++];
	memset(g, 0, sizeof(*g));
	snprintf(g->kernel, sizeof(g->kernel), "%s", kernel);
	g->rep = rep;
	snprintf(g->host, sizeof(g->host), "%s", host ? host : "");
	snprintf(g->rerun, sizeof(g->rerun), "%s", rerun ? rerun : "");
	/* from summary.json: shown on terminals and in mails, never raw */
	printable(g->host);
	printable(g->rerun);
	metric_in_init(&in, t);
	for (i = 0; i < metric_count && i < RES_MAX_METRICS; i++)
		g->v[i] = metric_eval(&metric_defs[i], &in);
	for (i = 0; i < t->nphases && g->nphases < RES_MAX_PHASES; i++) {
		const struct stats_phase *p = &t->phases[i];

		if (!p->ended)
			continue;
		snprintf(g->phase[g->nphases], sizeof(g->phase[0]), "%s",
			 p->name);
		g->phase_s[g->nphases++] = p->has_stats ? (double)p->ns / 1e9 :
			(double)(p->end_ns - p->start_ns) / 1e9;
	}
	return 0;
}

enum stats_state results_desc(const struct results *r, unsigned int k,
			      unsigned int mi, struct stats_desc *d)
{
	double *x;
	size_t n = 0;
	unsigned int i;
	enum stats_state st = STATS_NA;

	memset(d, 0, sizeof(*d));
	if (k >= r->nk || mi >= metric_count)
		return STATS_NA;
	x = calloc(r->ng ? r->ng : 1, sizeof(*x));
	if (!x)
		return STATS_NA;
	for (i = 0; i < r->ng; i++) {
		const struct res_guest *g = &r->g[i];

		if (strcmp(g->kernel, r->kernels[k]))
			continue;
		if (g->v[mi].state == STATS_MISSING) {
			st = STATS_MISSING;
			break;
		}
		if (g->v[mi].state == STATS_OK)
			x[n++] = g->v[mi].v;
	}
	if (st != STATS_MISSING && n) {
		stats_describe(x, n, d);
		st = STATS_OK;
	}
	free(x);
	return st;
}

unsigned int results_nphases(const struct results *r)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->ng; i++)
		if (r->g[i].nphases > n)
			n = r->g[i].nphases;
	return n;
}

bool results_phase_desc(const struct results *r, unsigned int k,
			unsigned int idx, struct stats_desc *d,
			const char **name)
{
	double *x;
	size_t n = 0;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	if (k >= r->nk)
		return false;
	x = calloc(r->ng ? r->ng : 1, sizeof(*x));
	if (!x)
		return false;
	for (i = 0; i < r->ng; i++) {
		const struct res_guest *g = &r->g[i];

		if (strcmp(g->kernel, r->kernels[k]) || idx >= g->nphases)
			continue;
		if (name)
			*name = g->phase[idx];
		x[n++] = g->phase_s[idx];
	}
	if (n)
		stats_describe(x, n, d);
	free(x);
	return n > 0;
}

const char *results_verdict_name(enum verdict v)
{
	switch (v) {
	case V_NOT_MEASURED:
		return "not measured";
	case V_NO_CHANGE:
		return "no significant change";
	case V_BETTER:
		return "better";
	case V_WORSE:
		return "worse";
	case V_CHANGED:
		return "changed";
	}
	return "?";
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

/* Whether @host is among the first @n of @seen; else it is added. */
static bool host_seen(const char **seen, unsigned int *n, const char *host)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(seen[i], host))
			return true;
	seen[(*n)++] = host;
	return false;
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
			host_seen(seen, hosts, ga->host);
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

enum res_power_why results_power(const struct res_cmp *c,
				 const struct stats_desc *a,
				 const struct stats_desc *b, double effect,
				 unsigned int limit, unsigned int *repeats)
{
	*repeats = 0;
	if (effect < c->m->min_effect)
		return RES_POWER_THRESHOLD;
	if (!c->has_mde_noise)
		return RES_POWER_NO_SPREAD;
	if (c->blocked)
		*repeats = stats_paired_repeats_needed(c->pair_sd, effect,
						       limit);
	else
		*repeats = stats_repeats_needed(a, b, effect, limit);
	return *repeats ? RES_POWER_OK : RES_POWER_LIMIT;
}

const char *results_power_why(enum res_power_why w)
{
	switch (w) {
	case RES_POWER_OK:
		return "ok";
	case RES_POWER_NO_SPREAD:
		return "no spread measured (fewer than 2 repeats or a mean of 0)";
	case RES_POWER_THRESHOLD:
		return "below the metric's minimum effect";
	case RES_POWER_LIMIT:
		return "more repeats than the limit";
	}
	return "?";
}

int results_power_of(const struct results *r, unsigned int mi,
		     unsigned int k, unsigned int ref, double effect,
		     unsigned int limit, unsigned int *repeats,
		     enum res_power_why *why)
{
	struct stats_desc a, b;
	struct res_cmp c;

	if (results_desc(r, ref, mi, &a) != STATS_OK ||
	    results_desc(r, k, mi, &b) != STATS_OK)
		return -1;
	results_compare(r, mi, k, ref, &c);
	*why = results_power(&c, &a, &b, effect, limit, repeats);
	return 0;
}


static bool have_target(const int *mi, unsigned int n, int m)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (mi[i] == m)
			return true;
	return false;
}

unsigned int results_power_targets(const struct scenario *s, int *mi,
				   unsigned int max)
{
	static const char *const cost[] = {
		"workload_seconds", "cpu_system_seconds",
		"system_ms_per_mib", "host_cpu_ms_per_mib",
	};
	unsigned int n = 0, i;
	int m;

	for (i = 0; s && i < (unsigned int)s->nnoreg && n < max; i++) {
		m = metric_index(s->no_regression[i]);
		if (m >= 0 && !metric_defs[m].deterministic &&
		    !have_target(mi, n, m))
			mi[n++] = m;
	}
	for (i = 0; i < sizeof(cost) / sizeof(cost[0]) && n < max; i++) {
		m = metric_index(cost[i]);
		if (m >= 0 && !have_target(mi, n, m))
			mi[n++] = m;
	}
	return n;
}

bool results_power_reached(const struct results *r, const int *mi,
			   unsigned int n, double effect, double *worst,
			   int *worst_mi)
{
	bool reached = true;
	unsigned int i, k;
	struct res_cmp c;

	*worst = 0;
	*worst_mi = n ? mi[0] : -1;
	for (i = 0; i < n; i++)
		for (k = 1; k < r->nk; k++) {
			double m;

			results_compare(r, (unsigned int)mi[i], k, 0, &c);
			if (c.verdict == V_NOT_MEASURED)
				continue;
			m = c.has_mde_noise ? c.mde : INFINITY;
			if (m > *worst) {
				*worst = m;
				*worst_mi = mi[i];
			}
			/* c.mde is never below min_effect: nor is the goal */
			if (m > fmax(effect, c.m->min_effect))
				reached = false;
		}
	return reached;
}

/*
 * "  workload s               mde 8.3%; 2%: 34 runs" (the kernel's name
 * first with more than two kernels): short enough for 60 columns.
 */
static void power_line(FILE *f, const struct results *r, unsigned int mi,
		       unsigned int k)
{
	enum res_power_why why;
	struct res_cmp c;
	unsigned int n;
	char mde[16];

	results_compare(r, mi, k, 0, &c);
	if (c.verdict == V_NOT_MEASURED || !c.has_mde_noise)
		return;
	results_fmt_mde(mde, sizeof(mde), &c);
	if (r->nk > 2)
		fprintf(f, "  %s:", r->kernels[k]);
	fprintf(f, "  %-24.24s mde %s", metric_defs[mi].label, mde);
	if (r->effect > 0 &&
	    !results_power_of(r, mi, k, 0, r->effect, r->effect_limit, &n,
			      &why)) {
		fprintf(f, "; %.3g%%: ", r->effect * 100);
		if (why == RES_POWER_OK)
			fprintf(f, "%u runs", n);
		else if (why == RES_POWER_LIMIT)
			fprintf(f, ">%u runs", r->effect_limit);
		else
			fprintf(f, "below its %.3g%%",
				metric_defs[mi].min_effect * 100);
	}
	fputc('\n', f);
}

void results_print_power(FILE *f, const struct results *r, const int *mi,
			 unsigned int n)
{
	unsigned int i, k, have = 0;
	struct res_cmp c;

	if (r->nk < 2 || !n)
		return;
	for (i = 0; i < n; i++)
		for (k = 1; k < r->nk; k++) {
			results_compare(r, (unsigned int)mi[i], k, 0, &c);
			have += c.verdict != V_NOT_MEASURED && c.has_mde_noise;
		}
	if (!have) {
		fprintf(f, "power: one run per kernel, no spread: no mde\n");
		return;
	}
	fprintf(f, "power: mde = the smallest change these runs could call\n");
	if (r->effect > 0)
		fprintf(f, "(Welch 5%%, 80%%); %.3g%%: the runs per kernel to see it\n",
			r->effect * 100);
	else
		fprintf(f, "(Welch's test at 5%%, 80%% power; see --effect)\n");
	for (i = 0; i < n; i++)
		for (k = 1; k < r->nk; k++)
			power_line(f, r, (unsigned int)mi[i], k);
}

int results_opt_effect(const struct popt *opt, const char *arg, char *err,
		       size_t errlen)
{
	struct res_power_opts *o = opt->value;
	size_t len = strlen(arg);
	bool pct = len && arg[len - 1] == '%';
	char num[32], *end;
	double v;

	if (!len || len >= sizeof(num)) {
		snprintf(err, errlen, "'%s': give a percentage (2%%) or a fraction (0.02)",
			 arg);
		return -1;
	}
	memcpy(num, arg, len + 1);
	if (pct)
		num[len - 1] = 0;
	errno = 0;
	v = strtod(num, &end);
	if (pct)
		v /= 100;
	if (end == num || *end || errno || !(v > 0 && v < 1)) {
		snprintf(err, errlen, "'%s': give a percentage (2%%) or a fraction (0.02) above 0 and below 100%%",
			 arg);
		return -1;
	}
	o->effect = v;
	return 0;
}

int results_opt_metric(const struct popt *opt, const char *arg, char *err,
		       size_t errlen)
{
	struct res_power_opts *o = opt->value;
	int m = metric_index(arg);

	if (m < 0) {
		snprintf(err, errlen, "'%s': no such metric (swapctl metrics lists them)",
			 arg);
		return -1;
	}
	if (have_target(o->mi, o->n, m))
		return 0;
	if (o->n >= RES_MAX_METRICS) {
		snprintf(err, errlen, "'%s': too many metrics", arg);
		return -1;
	}
	o->mi[o->n++] = m;
	return 0;
}

/* ---- expectations and regressions ---- */

void results_expect(const struct results *r, const struct scn_expect *e,
		    struct res_expect *x)
{
	int mi = metric_index(e->metric);
	int k = e->kernel[0] ? results_kernel_index(r, e->kernel) : -1;
	int ref = e->vs[0] ? results_kernel_index(r, e->vs) : -1;
	struct stats_desc d, dref;
	unsigned int i;
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
		/* every guest of every kernel */
		for (i = 0; i < r->ng; i++) {
			const struct res_guest *g = &r->g[i];

			if (g->v[mi].state != STATS_OK) {
				x->pass = x->measured = false;
				snprintf(x->what, sizeof(x->what),
					 "%s-%u: %s not measured", g->kernel,
					 g->rep, e->metric);
				return;
			}
			x->value = v = g->v[mi].v;
			if ((e->has_min && v < e->min) ||
			    (e->has_max && v > e->max)) {
				x->pass = false;
				snprintf(x->what, sizeof(x->what),
					 "%s-%u: %s = %.*f", g->kernel, g->rep,
					 e->metric,
					 metric_defs[mi].decimals + 1, v);
				return;
			}
		}
		if (!r->ng) {
			x->pass = x->measured = false;
			snprintf(x->what, sizeof(x->what), "no guest ran");
		}
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

int results_regressions(const struct results *r, const struct scenario *s,
			char *what, size_t len)
{
	size_t off = 0;
	unsigned int k;
	int i, n = 0;

	if (len)
		what[0] = '\0';
	for (i = 0; i < s->nnoreg; i++) {
		int mi = metric_index(s->no_regression[i]);

		if (mi < 0)
			continue;
		for (k = 1; k < r->nk; k++) {
			struct res_cmp c;

			results_compare(r, (unsigned int)mi, k, 0, &c);
			if (c.verdict != V_WORSE)
				continue;
			n++;
			if (off >= len)
				continue;
			if (c.has_ratio && c.has_ci)
				off += snprintf(what + off, len - off,
					"%s%s (%s) on %s: %.3fx %s [%.3f, %.3f], p=%.2g",
					off ? "; " : "", metric_defs[mi].key,
					metric_defs[mi].label, r->kernels[k],
					c.ratio, r->kernels[0], c.lo, c.hi,
					c.p);
			else if (c.has_ratio)
				off += snprintf(what + off, len - off,
					"%s%s (%s) on %s: %.3fx %s",
					off ? "; " : "", metric_defs[mi].key,
					metric_defs[mi].label, r->kernels[k],
					c.ratio, r->kernels[0]);
			else
				off += snprintf(what + off, len - off,
					"%s%s (%s) on %s: worse than %s",
					off ? "; " : "", metric_defs[mi].key,
					metric_defs[mi].label, r->kernels[k],
					r->kernels[0]);
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

/* ---- JSON ---- */

json_t *results_val_json(struct stats_val v)
{
	if (v.state != STATS_OK || !isfinite(v.v))
		return json_null();
	if (v.v == floor(v.v) && fabs(v.v) < 9e15)
		return json_integer((json_int_t)v.v);
	return json_real(v.v);
}

/* Whether a guest before @i has @g's repeat on @g's host. */
static bool rep_seen(const struct results *r, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (r->g[j].rep == r->g[i].rep &&
		    !strcmp(r->g[j].host, r->g[i].host))
			return true;
	return false;
}

/* Append to @buf at *@off, never past @len (which is > 0). */
static void __printf(4, 5) add(char *buf, size_t len, size_t *off,
			       const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off = *off + (size_t)n < len ? *off + (size_t)n : len - 1;
}

/* The line of the host of guest @first: its repeats, and the re-runs. */
static void host_line(const struct results *r, unsigned int first,
		      char *buf, size_t len, size_t *off)
{
	const char *host = r->g[first].host, *sep = " (";
	unsigned int i;

	add(buf, len, off, "repeats on %s:", host);
	for (i = first; i < r->ng; i++)
		if (!strcmp(r->g[i].host, host) && !rep_seen(r, i))
			add(buf, len, off, " %u", r->g[i].rep);
	for (i = first; i < r->ng; i++)
		if (!strcmp(r->g[i].host, host) && !rep_seen(r, i) &&
		    r->g[i].rerun[0]) {
			add(buf, len, off, "%s%u %s", sep, r->g[i].rep,
			    r->g[i].rerun);
			sep = "; ";
		}
	add(buf, len, off, "%s\n", *sep == ';' ? ")" : "");
}

unsigned int results_host_lines(const struct results *r, char *buf,
				size_t len)
{
	const char *seen[RES_MAX_HOSTS];
	unsigned int i, n = 0, nseen = 0;
	size_t off = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < r->ng; i++) {
		if (!r->g[i].host[0] || nseen >= RES_MAX_HOSTS ||
		    host_seen(seen, &nseen, r->g[i].host))
			continue;
		host_line(r, i, buf, len, &off);
		n++;
	}
	if (nseen > 1) {
		add(buf, len, &off,
		    "ratios over %u hosts: of each repeat's pair, blocked by host (swapctl(1) VERDICTS)\n",
		    nseen);
		n++;
	}
	return n;
}

void results_guest_place_json(json_t *o, const struct res_guest *g)
{
	json_object_set_new(o, "host", g->host[0] ? json_string(g->host) :
			    json_null());
	json_object_set_new(o, "rerun", g->rerun[0] ? json_string(g->rerun) :
			    json_null());
}

json_t *results_guest_json(const struct res_guest *g)
{
	json_t *o = json_object();
	unsigned int i;

	for (i = 0; i < metric_count; i++)
		json_object_set_new(o, metric_defs[i].key,
				    results_val_json(g->v[i]));
	return o;
}

static json_t *desc_json(enum stats_state st, const struct stats_desc *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "n", json_integer((json_int_t)d->n));
	json_object_set_new(o, "mean", st == STATS_OK ?
			    results_val_json(stats_ok(d->mean)) : json_null());
	json_object_set_new(o, "stddev", st == STATS_OK && d->n > 1 ?
			    json_real(d->stddev) : json_null());
	json_object_set_new(o, "ci95", st == STATS_OK && d->has_ci ?
			    json_real(d->ci95) : json_null());
	return o;
}

json_t *results_kernels_json(const struct results *r)
{
	json_t *o = json_object();
	unsigned int k, mi;

	for (k = 0; k < r->nk; k++) {
		json_t *j = json_object();

		for (mi = 0; mi < metric_count; mi++) {
			struct stats_desc d;
			enum stats_state st = results_desc(r, k, mi, &d);

			json_object_set_new(j, metric_defs[mi].key,
					    desc_json(st, &d));
		}
		json_object_set_new(o, r->kernels[k], j);
	}
	return o;
}

/* {"by": "host", "pairs", "hosts", "pooled": {"ratio", "ci95", "p_value"}} */
static json_t *blocked_json(const struct res_cmp *c)
{
	return json_pack("{sssIsIs{sfsoso}}", "by", "host",
		"pairs", (json_int_t)c->pairs, "hosts", (json_int_t)c->hosts,
		"pooled", "ratio", c->pooled_ratio,
		"ci95", c->pooled_has_ci ?
			json_pack("[ff]", c->pooled_lo, c->pooled_hi) :
			json_null(),
		"p_value", c->pooled_has_p ? json_real(c->pooled_p) :
			json_null());
}

json_t *results_cmp_json(const struct res_cmp *c, const char *metric,
			 const char *kernel, const char *ref)
{
	json_t *o = json_object();

	json_object_set_new(o, "metric", json_string(metric));
	json_object_set_new(o, "kernel", json_string(kernel));
	json_object_set_new(o, "reference", json_string(ref));
	json_object_set_new(o, "ratio", c->has_ratio ? json_real(c->ratio) :
			    json_null());
	json_object_set_new(o, "ci95", c->has_ci ?
			    json_pack("[ff]", c->lo, c->hi) : json_null());
	json_object_set_new(o, "p_value", c->has_p ? json_real(c->p) :
			    json_null());
	json_object_set_new(o, "verdict",
			    json_string(results_verdict_name(c->verdict)));
	if (c->why[0])
		json_object_set_new(o, "reason", json_string(c->why));
	json_object_set_new(o, "mde", c->has_mde ? json_real(c->mde) :
			    json_null());
	json_object_set_new(o, "mde_noise", c->has_mde_noise ?
			    json_real(c->mde_noise) : json_null());
	json_object_set_new(o, "blocked", c->blocked ? blocked_json(c) :
			    json_null());
	return o;
}

/* {"effect", "limit", "repeats" (null: none within it), "why"} */
static json_t *power_json(const struct results *r, unsigned int mi,
			  unsigned int k)
{
	enum res_power_why why;
	unsigned int n;

	if (results_power_of(r, mi, k, 0, r->effect, r->effect_limit, &n,
			     &why))
		return json_null();
	return json_pack("{sfsIsoss}", "effect", r->effect,
			 "limit", (json_int_t)r->effect_limit,
			 "repeats", n ? json_integer(n) : json_null(),
			 "why", results_power_why(why));
}

json_t *results_comparisons_json(const struct results *r)
{
	json_t *a = json_array();
	unsigned int k, mi;

	for (mi = 0; mi < metric_count; mi++)
		for (k = 1; k < r->nk; k++) {
			struct res_cmp c;

			json_t *o;

			results_compare(r, mi, k, 0, &c);
			o = results_cmp_json(&c, metric_defs[mi].key, r->kernels[k],
				     r->kernels[0]);
			if (r->effect > 0)
				json_object_set_new(o, "repeats_needed",
						    power_json(r, mi, k));
			json_array_append_new(a, o);
		}
	return a;
}

json_t *results_phases_json(const struct results *r)
{
	json_t *arr = json_array();
	unsigned int idx, k, n = results_nphases(r);

	for (idx = 0; idx < n; idx++) {
		json_t *o = json_object(), *ks = json_object();
		json_t *cs = json_array();
		const char *name = "";
		char key[48];

		for (k = 0; k < r->nk; k++) {
			struct stats_desc d;
			bool have = results_phase_desc(r, k, idx, &d, &name);

			json_object_set_new(ks, r->kernels[k],
				desc_json(have ? STATS_OK : STATS_NA, &d));
		}
		snprintf(key, sizeof(key), "phase_%u_seconds", idx + 1);
		for (k = 1; k < r->nk; k++) {
			struct res_cmp c;

			results_phase_compare(r, idx, k, &c);
			json_array_append_new(cs, results_cmp_json(&c, key,
				r->kernels[k], r->kernels[0]));
		}
		json_object_set_new(o, "index", json_integer(idx + 1));
		json_object_set_new(o, "name", json_string(name));
		json_object_set_new(o, "seconds", ks);
		json_object_set_new(o, "comparisons", cs);
		json_array_append_new(arr, o);
	}
	return arr;
}

/* ---- the table ---- */

#define T_LABEL	24
#define T_COL	18
#define T_RATIO	36
#define T_MDE	6	/* "12.3%", ">999%", "-" */

void results_fmt_mde(char *buf, size_t len, const struct res_cmp *c)
{
	if (c->verdict == V_NOT_MEASURED || !c->has_mde)
		snprintf(buf, len, "-");
	else if (c->mde >= 9.995)
		snprintf(buf, len, ">999%%");
	else if (c->mde >= 0.0995)
		snprintf(buf, len, "%.0f%%", c->mde * 100);
	else
		snprintf(buf, len, "%.1f%%", c->mde * 100);
}

/* One comparison's two columns: the ratio and verdict, and the mde. */
static void print_cmp(FILE *f, const struct res_cmp *c, int width);

static void fmt_desc(char *buf, size_t len, enum stats_state st,
		     const struct stats_desc *d, int dec)
{
	if (st == STATS_MISSING)
		snprintf(buf, len, "missing");
	else if (st != STATS_OK)
		snprintf(buf, len, "n/a");
	else if (d->has_ci)
		snprintf(buf, len, "%.*f ±%.*f", dec, d->mean, dec, d->ci95);
	else
		snprintf(buf, len, "%.*f", dec, d->mean);
}

void results_fmt_cmp(char *buf, size_t len, const struct res_cmp *c)
{
	const char *v = results_verdict_name(c->verdict);

	/* in the table: say why there is no verdict */
	if (c->verdict == V_NO_CHANGE && !c->has_p && !c->m->deterministic)
		v = "1 run: no test";
	else if (c->verdict == V_NO_CHANGE)
		v = "no change";

	if (c->verdict == V_NOT_MEASURED && c->why[0])
		snprintf(buf, len, "not measured: %.60s", c->why);
	else if (c->verdict == V_NOT_MEASURED)
		snprintf(buf, len, "-");
	else if (c->has_ratio && c->has_ci)
		snprintf(buf, len, "%.2fx [%.2f, %.2f] %s", c->ratio, c->lo,
			 c->hi, v);
	else if (c->has_ratio)
		snprintf(buf, len, "%.2fx %s", c->ratio, v);
	else
		snprintf(buf, len, "%s", v);
}

/* printf %-*s counts bytes: pad by characters for the ± sign */
static void pad(FILE *f, const char *s, int w, bool right)
{
	int n = 0;
	const char *p;

	for (p = s; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			n++;
	if (!right && n > w) {
		/* a label in a narrowed column: cut on a code point */
		for (p = s, n = 0; *p && n < w; p++)
			if (((unsigned char)p[1] & 0xc0) != 0x80)
				n++;
		fprintf(f, "%.*s", (int)(p - s), s);
		return;
	}
	if (right)
		fprintf(f, "%*s%s", w > n ? w - n : 0, "", s);
	else
		fprintf(f, "%s%*s", s, w > n ? w - n : 0, "");
}

static void print_cmp(FILE *f, const struct res_cmp *c, int width)
{
	char buf[96];

	results_fmt_cmp(buf, sizeof(buf), c);
	/* a table narrowed to the terminal: the reason is in the JSON */
	if (c->verdict == V_NOT_MEASURED && width < T_RATIO &&
	    (int)strlen(buf) > width)
		snprintf(buf, sizeof(buf), "not measured");
	fputc(' ', f);
	pad(f, buf, width, true);
	results_fmt_mde(buf, sizeof(buf), c);
	fputc(' ', f);
	pad(f, buf, T_MDE, true);
}

/* The widths of the table's label, value and ratio columns. */
struct tw {
	int label, col, ratio;
};

static void print_block(FILE *f, const struct results *r, bool means,
			bool ratios, const struct tw *w)
{
	char buf[96];
	unsigned int k, mi, idx, np = results_nphases(r);

	pad(f, "", w->label, false);
	for (k = 0; means && k < r->nk; k++) {
		fputc(' ', f);
		pad(f, r->kernels[k], w->col, true);
	}
	for (k = 1; ratios && k < r->nk; k++) {
		snprintf(buf, sizeof(buf), "%s/%s", r->kernels[k],
			 r->kernels[0]);
		fputc(' ', f);
		pad(f, buf, w->ratio, true);
		fputc(' ', f);
		pad(f, "mde", T_MDE, true);
	}
	fputc('\n', f);
	for (mi = 0; mi < metric_count; mi++) {
		const struct metric_def *m = &metric_defs[mi];

		pad(f, m->label, w->label, false);
		for (k = 0; means && k < r->nk; k++) {
			struct stats_desc d;
			enum stats_state st = results_desc(r, k, mi, &d);

			fmt_desc(buf, sizeof(buf), st, &d, m->decimals);
			fputc(' ', f);
			pad(f, buf, w->col, true);
		}
		for (k = 1; ratios && k < r->nk; k++) {
			struct res_cmp c;

			results_compare(r, mi, k, 0, &c);
			print_cmp(f, &c, w->ratio);
		}
		fputc('\n', f);
	}
	for (idx = 0; idx < np; idx++) {
		const char *name = "?";
		char label[64];

		for (k = 0; k < r->nk; k++) {
			struct stats_desc d;

			if (results_phase_desc(r, k, idx, &d, &name))
				break;
		}
		snprintf(label, sizeof(label), "  %u %s s", idx + 1, name);
		pad(f, label, w->label, false);
		for (k = 0; means && k < r->nk; k++) {
			struct stats_desc d;
			bool have = results_phase_desc(r, k, idx, &d, NULL);

			fmt_desc(buf, sizeof(buf), have ? STATS_OK : STATS_NA,
				 &d, 2);
			fputc(' ', f);
			pad(f, buf, w->col, true);
		}
		for (k = 1; ratios && k < r->nk; k++) {
			struct res_cmp c;

			results_phase_compare(r, idx, k, &c);
			print_cmp(f, &c, w->ratio);
		}
		fputc('\n', f);
	}
}

void results_print_table_fit(FILE *f, const struct results *r,
			     unsigned int width)
{
	struct tw w = { T_LABEL, T_COL, T_RATIO };
	int nk = (int)r->nk, nr = nk ? nk - 1 : 0;
	int full = T_LABEL + nk * (T_COL + 1) + nr * (T_RATIO + T_MDE + 2);

	if (!width || full <= (int)width || nk < 2) {
		print_block(f, r, true, true, &w);
		return;
	}
	/*
	 * Too wide: the means, then the ratios under them, each block
	 * narrowed down to floors that still hold "15.59 ±0.00" and
	 * "15.59x [15.59, 15.59] better".
	 */
	while (w.label + nk * (w.col + 1) > (int)width && w.col > 12)
		w.col--;
	while (w.label + nk * (w.col + 1) > (int)width && w.label > 16)
		w.label--;
	while (w.label + w.ratio + T_MDE + 2 > (int)width && w.ratio > 30)
		w.ratio--;
	while (w.label + w.ratio + T_MDE + 2 > (int)width && w.label > 16)
		w.label--;
	print_block(f, r, true, false, &w);
	fputc('\n', f);
	print_block(f, r, false, true, &w);
}

void results_print_table(FILE *f, const struct results *r)
{
	results_print_table_fit(f, r, 0);
}
