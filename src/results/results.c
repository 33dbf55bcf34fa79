// SPDX-License-Identifier: GPL-2.0
/*
 * results: the model of a run's results shared by run and report: the
 * guests' metric values by kernel, their descriptions and phases. See
 * results.h. The verdicts are in verdict.c, the minimum detectable
 * effects in mde.c, the JSON in json.c, the text table in table.c.
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
		const struct track *t)
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
		   const struct track *t)
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
		const struct track_phase *p = &t->phases[i];

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

bool results_host_seen(const char **seen, unsigned int *n, const char *host)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(seen[i], host))
			return true;
	seen[(*n)++] = host;
	return false;
}
