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

static void print_metrics(FILE *f, const struct calib *c)
{
	unsigned int mi;
	double lo, hi;

	fprintf(f, "%-26s %-7s %5s %5s %6s  %s\n", "metric", "gate", "pairs",
		"false", "rate", "95% (Wilson)");
	for (mi = 0; mi < metric_count && mi < RES_MAX_METRICS; mi++) {
		const struct calib_metric *t = &c->m[mi];

		if (!t->pairs)
			continue;
		calib_wilson(t->falses, t->pairs, CALIB_Z95, &lo, &hi);
		fprintf(f, "%-26s %-7s %5u %5u %5.1f%%  [%.1f%%, %.1f%%]",
			metric_defs[mi].key, t->gated ? "gated" : "explor",
			t->pairs, t->falses, 100.0 * t->falses / t->pairs,
			100 * lo, 100 * hi);
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

void calib_print(FILE *f, const struct calib *c, const json_t *meta)
{
	char buf[96];

	print_head(f, c, meta);
	print_metrics(f, c);
	fmt_rate(buf, sizeof(buf), c->exit_holm, c->pairs);
	fprintf(f, "\nexit 12 with Holm (the exit code):       %s\n", buf);
	fmt_rate(buf, sizeof(buf), c->exit_plain, c->pairs);
	fprintf(f, "exit 12 before Holm (each gated alone):  %s\n", buf);
	fprintf(f, "stated: at most %.0f%% family-wise, Holm over the %u gated (no_regression) metrics\n",
		100 * RES_FWER_ALPHA, c->ngated);
	print_exits(f, c);
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

static json_t *metrics_json(const struct calib *c)
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
		json_array_append_new(a, o);
	}
	return a;
}

json_t *calib_json(const struct calib *c, const json_t *meta)
{
	json_t *o = json_deep_copy(meta), *ex;
	unsigned int i;
	char code[16];

	if (!o)
		o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "tallied_pairs", json_integer(c->pairs));
	json_object_set_new(o, "metrics", metrics_json(c));
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
static int load_pair(const json_t *p, struct calib *c, char *err,
		     size_t errlen)
{
	const char *dir = json_string_value(json_object_get(p, "run_dir"));
	const json_t *code = json_object_get(p, "exit_code");
	struct results r;

	if (!dir || !dir[0]) {
		snprintf(err, errlen, "pair %d: no run directory",
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
	results_free(&r);
	return 0;
}

int calib_load(const char *dir, json_t **meta, struct calib *c,
	       unsigned int *skipped, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[PATH_MAX + 256];
	json_error_t jerr;
	const json_t *pairs, *p;
	size_t i;

	*meta = NULL;
	*skipped = 0;
	calib_init(c);
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
	json_array_foreach(pairs, i, p) {
		if (!load_pair(p, c, why, sizeof(why)))
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
	struct calib *c = malloc(sizeof(*c));
	unsigned int skipped;
	json_t *meta, *o;
	int rc = 0;

	if (!c || calib_load(dir, &meta, c, &skipped, err, errlen)) {
		if (!c)
			snprintf(err, errlen, "%s: out of memory", dir);
		free(c);
		return -1;
	}
	if (skipped)
		fprintf(stderr, "swapctl report: %s: %u pair%s left out (%s)\n",
			dir, skipped, skipped == 1 ? "" : "s", err);
	if (!json) {
		calib_print(f, c, meta);
	} else {
		o = calib_json(c, meta);
		if (!o || json_dumpf(o, f, JSON_INDENT(2) |
				     JSON_PRESERVE_ORDER) || fputc('\n', f) == EOF)
			rc = -2;
		json_decref(o);
	}
	json_decref(meta);
	free(c);
	return rc;
}
