// SPDX-License-Identifier: GPL-2.0
/*
 * results: the JSON of the results model shared by run's summary.json
 * and report --json (guests, kernels, comparisons, phases). See
 * results.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "swapctl.h"

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
		    results_host_seen(seen, &nseen, r->g[i].host))
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
static json_t *mde_json(const struct results *r, unsigned int mi,
			  unsigned int k)
{
	enum res_mde_why why;
	unsigned int n;

	if (results_mde_of(r, mi, k, 0, r->effect, r->effect_limit, &n,
			     &why))
		return json_null();
	return json_pack("{sfsIsoss}", "effect", r->effect,
			 "limit", (json_int_t)r->effect_limit,
			 "repeats", n ? json_integer(n) : json_null(),
			 "why", results_mde_why(why));
}

/* A real, or null when it is NaN. */
static json_t *real_or_null(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

void results_gate_json(json_t *o, const struct results *r,
		       const struct res_gate *g)
{
	if (!r->gate_set) {
		json_object_set_new(o, "gated", json_null());
		return;
	}
	json_object_set_new(o, "gated", json_boolean(g && g->gated));
	if (g && g->gated) {
		json_object_set_new(o, "holm_m", json_integer(g->m));
		json_object_set_new(o, "holm_threshold", g->tested ?
				    real_or_null(g->thr) : json_null());
		json_object_set_new(o, "holm_p", g->tested ?
				    real_or_null(g->p_adj) : json_null());
		json_object_set_new(o, "holm_reject", g->tested ?
				    json_boolean(g->reject) : json_null());
	}
	json_object_set_new(o, "regression",
			    json_boolean(g && g->regression));
}

json_t *results_comparisons_json(const struct results *r)
{
	json_t *a = json_array();
	struct res_gate *g = NULL;
	unsigned int k, mi;

	if (r->gate_set && r->nk > 1)
		g = calloc((size_t)r->nk * metric_count, sizeof(*g));
	for (k = 1; g && k < r->nk; k++)
		results_gate_family(r, r->gated, k, NULL,
				    &g[k * metric_count]);
	for (mi = 0; mi < metric_count; mi++)
		for (k = 1; k < r->nk; k++) {
			struct res_cmp c;
			json_t *o;

			results_compare(r, mi, k, 0, &c);
			o = results_cmp_json(&c, metric_defs[mi].key,
					     r->kernels[k], r->kernels[0]);
			results_gate_json(o, r, g ? &g[k * metric_count + mi] :
					  NULL);
			if (r->effect > 0)
				json_object_set_new(o, "repeats_needed",
						    mde_json(r, mi, k));
			json_array_append_new(a, o);
		}
	free(g);
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
			json_t *o;

			results_phase_compare(r, idx, k, &c);
			o = results_cmp_json(&c, key, r->kernels[k],
					     r->kernels[0]);
			results_gate_json(o, r, NULL);	/* never gated */
			json_array_append_new(cs, o);
		}
		json_object_set_new(o, "index", json_integer(idx + 1));
		json_object_set_new(o, "name", json_string(name));
		json_object_set_new(o, "seconds", ks);
		json_object_set_new(o, "comparisons", cs);
		json_array_append_new(arr, o);
	}
	return arr;
}
