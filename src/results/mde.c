// SPDX-License-Identifier: GPL-2.0
/*
 * results: minimum detectable effects (mde) of the comparisons: the
 * repeats that would see an effect, the targets of --repeat auto and
 * their "power" lines, and the --effect and --metric options. See
 * results.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "swapctl.h"

enum res_mde_why results_mde_repeats(const struct res_cmp *c,
				 const struct stats_desc *a,
				 const struct stats_desc *b, double effect,
				 unsigned int limit, unsigned int *repeats)
{
	*repeats = 0;
	if (effect < c->m->min_effect)
		return RES_MDE_THRESHOLD;
	if (!c->has_mde_noise)
		return RES_MDE_NO_SPREAD;
	if (c->blocked)
		*repeats = stats_paired_repeats_needed(c->pair_sd, effect,
						       limit);
	else
		*repeats = stats_repeats_needed(a, b, effect, limit);
	return *repeats ? RES_MDE_OK : RES_MDE_LIMIT;
}

const char *results_mde_why(enum res_mde_why w)
{
	switch (w) {
	case RES_MDE_OK:
		return "ok";
	case RES_MDE_NO_SPREAD:
		return "no spread measured (fewer than 2 repeats or a mean of 0)";
	case RES_MDE_THRESHOLD:
		return "below the metric's minimum effect";
	case RES_MDE_LIMIT:
		return "more repeats than the limit";
	}
	return "?";
}

int results_mde_of(const struct results *r, unsigned int mi,
		     unsigned int k, unsigned int ref, double effect,
		     unsigned int limit, unsigned int *repeats,
		     enum res_mde_why *why)
{
	struct stats_desc a, b;
	struct res_cmp c;

	if (results_desc(r, ref, mi, &a) != STATS_OK ||
	    results_desc(r, k, mi, &b) != STATS_OK)
		return -1;
	results_compare(r, mi, k, ref, &c);
	*why = results_mde_repeats(&c, &a, &b, effect, limit, repeats);
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

unsigned int results_mde_targets(const struct scenario *s, int *mi,
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

bool results_mde_reached(const struct results *r, const int *mi,
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
static void mde_line(FILE *f, const struct results *r, unsigned int mi,
		       unsigned int k)
{
	enum res_mde_why why;
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
	    !results_mde_of(r, mi, k, 0, r->effect, r->effect_limit, &n,
			      &why)) {
		fprintf(f, "; %.3g%%: ", r->effect * 100);
		if (why == RES_MDE_OK)
			fprintf(f, "%u runs", n);
		else if (why == RES_MDE_LIMIT)
			fprintf(f, ">%u runs", r->effect_limit);
		else
			fprintf(f, "below its %.3g%%",
				metric_defs[mi].min_effect * 100);
	}
	fputc('\n', f);
}

void results_print_mde(FILE *f, const struct results *r, const int *mi,
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
			mde_line(f, r, (unsigned int)mi[i], k);
}

int results_opt_effect(const struct popt *opt, const char *arg, char *err,
		       size_t errlen)
{
	struct res_mde_opts *o = opt->value;
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
	struct res_mde_opts *o = opt->value;
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
