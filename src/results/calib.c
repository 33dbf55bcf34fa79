// SPDX-License-Identifier: GPL-2.0
/*
 * calib: the tallies of swapctl calibrate (A/A pairs). See calib.h.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"
#include "jfile.h"
#include "metrics.h"
#include "source.h"

void calib_init(struct calib *c)
{
	memset(c, 0, sizeof(*c));
}

void calib_wilson(unsigned int x, unsigned int n, double z, double *lo,
		  double *hi)
{
	double p, z2n, den, mid, half;

	if (!n || x > n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = (double)x / n;
	z2n = z * z / n;
	den = 1 + z2n;
	mid = (p + z2n / 2) / den;
	half = z * sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / den;
	/* the bounds are exact at 0 and n: no rounding past them */
	*lo = x == 0 ? 0 : fmax(0, mid - half);
	*hi = x == n ? 1 : fmin(1, mid + half);
}

/* One metric's comparison (B against A) into its tally. */
static bool tally_metric(struct calib_metric *t, const struct res_cmp *cmp)
{
	if (cmp->verdict == V_NOT_MEASURED)
		return false;
	t->pairs++;
	switch (cmp->verdict) {
	case V_WORSE:
		t->worse++;
		break;
	case V_BETTER:
		t->better++;
		break;
	case V_CHANGED:
		t->changed++;
		break;
	default:
		return false;
	}
	t->falses++;
	return true;
}

void calib_add(struct calib *c, const struct results *r, int exit_code)
{
	struct res_cmp cmp[RES_MAX_METRICS], gcmp[RES_MAX_METRICS];
	struct res_gate g[RES_MAX_METRICS];
	bool holm = false, plain = false, any = false;
	unsigned int mi, ngated = 0;

	c->pairs++;
	if (exit_code >= 0 && exit_code <= CALIB_MAX_CODE)
		c->exits[exit_code]++;
	else
		c->exits_unknown++;
	if (r->nk < 2)
		return;
	if (r->gate_set)
		results_gate_family(r, r->gated, 1, gcmp, g);
	for (mi = 0; mi < metric_count && mi < RES_MAX_METRICS; mi++) {
		bool gated = r->gate_set && r->gated[mi];

		results_compare(r, mi, 1, 0, &cmp[mi]);
		if (tally_metric(&c->m[mi], &cmp[mi])) {
			c->false_verdicts++;
			any = true;
		}
		c->m[mi].gated = c->m[mi].gated || gated;
		ngated += gated;
		if (!gated)
			continue;
		holm = holm || g[mi].regression;
		/* before Holm: each gated metric's own verdict decided */
		plain = plain || cmp[mi].verdict == V_WORSE;
	}
	c->ngated = ngated > c->ngated ? ngated : c->ngated;
	c->exit_holm += holm;
	c->exit_plain += plain;
	c->any_false += any;
}

/* xorshift64*: a fixed sequence for a fixed seed, on every host */
static unsigned long long next_rand(unsigned long long *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 2685821657736338717ULL;
}

/* One draw: 2 * repeat guests of @p, indexes shuffled in @idx, as A|B. */
static int draw_one(const struct calib_pool *p, unsigned int *idx,
		    unsigned long long *x, struct calib *c)
{
	unsigned int j, k, t, n2 = 2 * p->repeat;
	struct results r;

	results_init(&r);
	r.g = calloc(n2, sizeof(*r.g));
	if (!r.g)
		return -1;
	results_kernel(&r, "A");
	results_kernel(&r, "B");
	for (j = 0; j < n2; j++) {
		k = j + (unsigned int)(next_rand(x) % (p->n - j));
		t = idx[j];
		idx[j] = idx[k];
		idx[k] = t;
		r.g[j] = p->g[idx[j]];
		snprintf(r.g[j].kernel, sizeof(r.g[j].kernel), "%s",
			 j < p->repeat ? "A" : "B");
		r.g[j].rep = j % p->repeat + 1;
		r.g[j].host[0] = '\0';
	}
	r.ng = r.capg = n2;
	r.gate_set = p->gate_set;
	memcpy(r.gated, p->gated, sizeof(r.gated));
	calib_add(c, &r, -1);
	results_free(&r);
	return 0;
}

int calib_resample(const struct calib_pool *p, unsigned int draws,
		   unsigned long seed, struct calib *c)
{
	unsigned long long x = seed * 0x9e3779b97f4a7c15ULL + 1;
	unsigned int *idx, i;
	int rc = 0;

	calib_init(c);
	if (!p->repeat || p->n < 2 * p->repeat)
		return -1;
	idx = calloc(p->n, sizeof(*idx));
	if (!idx)
		return -1;
	for (i = 0; i < p->n; i++)
		idx[i] = i;
	for (i = 0; i < draws && !rc; i++)
		rc = draw_one(p, idx, &x, c);
	free(idx);
	return rc;
}

void calib_pool_free(struct calib_pool *p)
{
	free(p->g);
	memset(p, 0, sizeof(*p));
}

/* Add @r's guests to @p. */
static int pool_add(struct calib_pool *p, const struct results *r)
{
	struct res_guest *g;
	unsigned int cap;

	if (p->n + r->ng > p->cap) {
		cap = (p->n + r->ng) * 2;
		g = realloc(p->g, cap * sizeof(*g));
		if (!g)
			return -1;
		p->g = g;
		p->cap = cap;
	}
	memcpy(p->g + p->n, r->g, r->ng * sizeof(*g));
	p->n += r->ng;
	if (r->gate_set && !p->gate_set) {
		p->gate_set = true;
		memcpy(p->gated, r->gated, sizeof(p->gated));
	}
	return 0;
}

/* "3 of 20 = 15.0% [5.2%, 36.0%]" */
static void fmt_rate(char *buf, size_t len, unsigned int x, unsigned int n)
{
	double lo, hi;

	calib_wilson(x, n, CALIB_Z95, &lo, &hi);
	if (!n)
		snprintf(buf, len, "0 of 0");
	else
		snprintf(buf, len, "%u of %u = %.1f%% [%.1f%%, %.1f%%]", x, n,
			 100.0 * x / n, 100 * lo, 100 * hi);
}

static const char *meta_str(const json_t *meta, const char *key)
{
	return json_string_value(json_object_get(meta, key)) ?: "?";
}

static void print_head(FILE *f, const struct calib *c, const json_t *meta)
{
	const json_t *ic = json_object_get(meta, "icount_shift");

	fprintf(f, "calibration of %s: kernel %s (%s) as both A and B\n",
		meta_str(meta, "scenario"), meta_str(meta, "kernel"),
		meta_str(meta, "variant"));
	fprintf(f, "%u pair%s of %d runs per side (of %d asked), ",
		c->pairs, c->pairs == 1 ? "" : "s",
		(int)json_integer_value(json_object_get(meta, "repeat")),
		(int)json_integer_value(json_object_get(meta, "pairs_asked")));
	if (json_is_integer(ic))
		fprintf(f, "-icount shift=%d\n", (int)json_integer_value(ic));
	else
		fprintf(f, "no -icount\n");
	fprintf(f, "%s on %s, started %s\n\n", meta_str(meta, "dir"),
		meta_str(meta, "host"), meta_str(meta, "started"));
}

/* " resampled" column: the rate of metric @mi over the draws of @rs */
static void print_rs(FILE *f, const struct calib *rs, unsigned int mi)
{
	if (!rs)
		return;
	if (rs->m[mi].pairs)
		fprintf(f, " %9.1f%%", 100.0 * rs->m[mi].falses /
			rs->m[mi].pairs);
	else
		fprintf(f, " %10s", "-");
}

static void print_metrics(FILE *f, const struct calib *c,
			  const struct calib *rs)
{
	unsigned int mi;
	double lo, hi;
	char ci[40];

	fprintf(f, "%-26s %-6s %5s %5s %6s  %-15s%s\n", "metric", "gate",
		"pairs", "false", "rate", "95% (Wilson)",
		rs ? "  resampled" : "");
	for (mi = 0; mi < metric_count && mi < RES_MAX_METRICS; mi++) {
		const struct calib_metric *t = &c->m[mi];

		if (!t->pairs)
			continue;
		calib_wilson(t->falses, t->pairs, CALIB_Z95, &lo, &hi);
		snprintf(ci, sizeof(ci), "[%.1f%%, %.1f%%]", 100 * lo, 100 * hi);
		fprintf(f, "%-26s %-6s %5u %5u %5.1f%%  %-15s",
			metric_defs[mi].key, t->gated ? "gated" : "explor",
			t->pairs, t->falses, 100.0 * t->falses / t->pairs, ci);
		print_rs(f, rs, mi);
		if (t->falses)
			fprintf(f, "  %u worse, %u better%s", t->worse,
				t->better, t->changed ? ", some changed" : "");
		fputc('\n', f);
	}
}

static void print_exits(FILE *f, const struct calib *c)
{
	char buf[96];
	unsigned int i;
	bool first = true;

	fprintf(f, "\nruns' own exit codes:");
	for (i = 0; i <= CALIB_MAX_CODE; i++) {
		if (!c->exits[i])
			continue;
		fprintf(f, "%s %u x%u", first ? "" : ",", i, c->exits[i]);
		first = false;
	}
	if (c->exits_unknown)
		fprintf(f, "%s unknown x%u", first ? "" : ",",
			c->exits_unknown);
	fputc('\n', f);
	fmt_rate(buf, sizeof(buf), c->any_false, c->pairs);
	fprintf(f, "pairs with a verdict of change on any metric: %s\n", buf);
}

/* The family-wise rates of the resampled comparisons @rs. */
static void print_resampled(FILE *f, const struct calib *rs)
{
	if (!rs || !rs->pairs)
		return;
	fprintf(f, "\nresampled: %u A/A comparisons drawn from the pairs' guests (seed %d)\n",
		rs->pairs, CALIB_SEED);
	fprintf(f, "  exit 12 with Holm %.1f%%, before Holm %.1f%%, a verdict of change on any metric %.1f%%\n",
		100.0 * rs->exit_holm / rs->pairs,
		100.0 * rs->exit_plain / rs->pairs,
		100.0 * rs->any_false / rs->pairs);
}

void calib_print(FILE *f, const struct calib *c, const struct calib *rs,
		 const json_t *meta)
{
	char buf[96];

	print_head(f, c, meta);
	print_metrics(f, c, rs);
	fmt_rate(buf, sizeof(buf), c->exit_holm, c->pairs);
	fprintf(f, "\nexit 12 with Holm (the exit code):       %s\n", buf);
	fmt_rate(buf, sizeof(buf), c->exit_plain, c->pairs);
	fprintf(f, "exit 12 before Holm (each gated alone):  %s\n", buf);
	fprintf(f, "stated: at most %.0f%% family-wise, Holm over the %u gated (no_regression) metrics\n",
		100 * RES_FWER_ALPHA, c->ngated);
	print_exits(f, c);
	print_resampled(f, rs);
	fprintf(f, "\n%s\n%s\n%s\n",
		"gated: in the exit code's family (Holm-corrected). explor: exploratory,",
		"each tested alone (p < 0.05 and its minimum effect): up to 5% of its",
		"A/A verdicts are false by design, and no exit code depends on them.");
}

static json_t *rate_json(unsigned int x, unsigned int n)
{
	double lo, hi;

	calib_wilson(x, n, CALIB_Z95, &lo, &hi);
	return json_pack("{si si so s[ff]}", "pairs", (json_int_t)n,
			 "nonzero", (json_int_t)x, "rate",
			 n ? json_real((double)x / n) : json_null(), "ci95",
			 lo, hi);
}

static json_t *metrics_json(const struct calib *c, const struct calib *rs)
{
	json_t *a = json_array(), *o;
	unsigned int mi;
	double lo, hi;

	for (mi = 0; a && mi < metric_count && mi < RES_MAX_METRICS; mi++) {
		const struct calib_metric *t = &c->m[mi];

		if (!t->pairs)
			continue;
		calib_wilson(t->falses, t->pairs, CALIB_Z95, &lo, &hi);
		o = json_pack("{ss sb si si si si si sf s[ff]}",
			      "metric", metric_defs[mi].key, "gated", t->gated,
			      "pairs", (json_int_t)t->pairs, "false_verdicts",
			      (json_int_t)t->falses, "worse",
			      (json_int_t)t->worse, "better",
			      (json_int_t)t->better, "changed",
			      (json_int_t)t->changed, "rate",
			      (double)t->falses / t->pairs, "ci95", lo, hi);
		if (rs)
			json_object_set_new(o, "resampled_rate",
				rs->m[mi].pairs ? json_real((double)
				rs->m[mi].falses / rs->m[mi].pairs) :
				json_null());
		json_array_append_new(a, o);
	}
	return a;
}

json_t *calib_json(const struct calib *c, const struct calib *rs,
		   const json_t *meta)
{
	json_t *o = json_deep_copy(meta), *ex;
	unsigned int i;
	char code[16];

	if (!o)
		o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "tallied_pairs", json_integer(c->pairs));
	json_object_set_new(o, "metrics", metrics_json(c, rs));
	json_object_set_new(o, "exit_code", json_pack("{so so sf si}",
		"holm", rate_json(c->exit_holm, c->pairs),
		"before_holm", rate_json(c->exit_plain, c->pairs),
		"stated", RES_FWER_ALPHA, "gated_metrics",
		(json_int_t)c->ngated));
	json_object_set_new(o, "any_false", rate_json(c->any_false, c->pairs));
	json_object_set_new(o, "false_verdicts",
			    json_integer(c->false_verdicts));
	ex = json_object();
	for (i = 0; ex && i <= CALIB_MAX_CODE; i++) {
		if (!c->exits[i])
			continue;
		snprintf(code, sizeof(code), "%u", i);
		json_object_set_new(ex, code, json_integer(c->exits[i]));
	}
	if (ex && c->exits_unknown)
		json_object_set_new(ex, "unknown",
				    json_integer(c->exits_unknown));
	json_object_set_new(o, "runs_exit", ex);
	if (rs && rs->pairs)
		json_object_set_new(o, "resampled", json_pack(
			"{si si so so so}", "draws", (json_int_t)rs->pairs,
			"seed", CALIB_SEED, "holm",
			rate_json(rs->exit_holm, rs->pairs), "before_holm",
			rate_json(rs->exit_plain, rs->pairs), "any_false",
			rate_json(rs->any_false, rs->pairs)));
	return o;
}

/* ---- reading a calibration directory ---- */

int calib_load_run(const char *dir, struct results *r, char *err,
		   size_t errlen)
{
	struct source *s = calloc(1, sizeof(*s));
	unsigned int i;
	int rc = 0;

	if (!s) {
		snprintf(err, errlen, "%s: out of memory", dir);
		return -1;
	}
	if (source_open(s, dir, true, 1, err, errlen)) {
		free(s);
		return -1;
	}
	source_seek_end(s);
	for (i = 0; i < s->nkernels; i++)
		results_kernel(r, s->kernels[i]);
	for (i = 0; i < s->ng && !rc; i++)
		if (results_add(r, s->g[i]->kernel, s->g[i]->rep,
				&s->g[i]->track)) {
			snprintf(err, errlen, "%s: out of memory", dir);
			rc = -1;
		}
	source_close(s);
	free(s);
	return rc;
}

/* Tally pair @p of calibration.json (an object); -1 when it did not load. */
static int load_pair(const json_t *p, struct calib *c,
		     struct calib_pool *pool, char *err, size_t errlen)
{
	const char *dir = json_string_value(json_object_get(p, "run_dir"));
	const json_t *code = json_object_get(p, "exit_code");
	struct results r;

	if (!dir || !dir[0]) {
		snprintf(err, errlen, "pair %d: no run directory",
			 (int)json_integer_value(json_object_get(p, "pair")));
		return -1;
	}
	/* an interrupted run has some of its guests: not a pair */
	if (json_integer_value(code) == CALIB_INTERRUPTED) {
		snprintf(err, errlen, "pair %d: interrupted",
			 (int)json_integer_value(json_object_get(p, "pair")));
		return -1;
	}
	results_init(&r);
	if (calib_load_run(dir, &r, err, errlen)) {
		results_free(&r);
		return -1;
	}
	results_gate_dir(&r, dir);
	calib_add(c, &r, json_is_integer(code) ?
		  (int)json_integer_value(code) : -1);
	if (pool && pool_add(pool, &r))
		snprintf(err, errlen, "%s: out of memory", dir);
	results_free(&r);
	return 0;
}

int calib_load(const char *dir, json_t **meta, struct calib *c,
	       struct calib_pool *pool, unsigned int *skipped, char *err,
	       size_t errlen)
{
	char path[PATH_MAX + 32], why[PATH_MAX + 256];
	json_error_t jerr;
	const json_t *pairs, *p;
	size_t i;

	*meta = NULL;
	*skipped = 0;
	calib_init(c);
	if (pool)
		memset(pool, 0, sizeof(*pool));
	snprintf(path, sizeof(path), "%s/%s", dir, CALIB_FILE);
	*meta = jfile_load(path, 0, &jerr);
	if (!*meta) {
		snprintf(err, errlen, "%s: %s", path, jerr.text);
		return -1;
	}
	pairs = json_object_get(*meta, "pairs");
	if (!json_is_object(*meta) || !json_is_array(pairs)) {
		snprintf(err, errlen, "%s: not a calibration (no \"pairs\" array)",
			 path);
		json_decref(*meta);
		*meta = NULL;
		return -1;
	}
	err[0] = '\0';
	if (pool)
		pool->repeat = (unsigned int)json_integer_value(
			json_object_get(*meta, "repeat"));
	json_array_foreach(pairs, i, p) {
		if (!load_pair(p, c, pool, why, sizeof(why)))
			continue;
		if (!(*skipped)++)
			snprintf(err, errlen, "%s", why);
	}
	return 0;
}

bool calib_is_dir(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, CALIB_FILE);
	return !access(path, F_OK);
}

int calib_report(const char *dir, bool json, FILE *f, char *err,
		 size_t errlen)
{
	struct calib *c = malloc(2 * sizeof(*c)), *rs = c + 1;
	struct calib_pool pool;
	unsigned int skipped;
	json_t *meta, *o;
	int rc = 0;

	if (!c || calib_load(dir, &meta, c, &pool, &skipped, err, errlen)) {
		if (!c)
			snprintf(err, errlen, "%s: out of memory", dir);
		free(c);
		return -1;
	}
	if (skipped)
		fprintf(stderr, "swapctl report: %s: %u pair%s left out (%s)\n",
			dir, skipped, skipped == 1 ? "" : "s", err);
	if (calib_resample(&pool, CALIB_DRAWS, CALIB_SEED, rs))
		rs = NULL;
	calib_pool_free(&pool);
	if (!json) {
		calib_print(f, c, rs, meta);
	} else {
		o = calib_json(c, rs, meta);
		if (!o || json_dumpf(o, f, JSON_INDENT(2) |
				     JSON_PRESERVE_ORDER) || fputc('\n', f) == EOF)
			rc = -2;
		json_decref(o);
	}
	json_decref(meta);
	free(c);
	return rc;
}
