// SPDX-License-Identifier: GPL-2.0
/* Which patch changed a metric: see bisect.h. */
#include <math.h>
#include <string.h>

#include "bisect.h"
#include "metrics.h"

void bisect_judge(const struct results *r, unsigned int mi,
		  struct bisect_metric *bm)
{
	unsigned int n = r->nk ? r->nk - 1 : 0, k;
	struct res_cmp c;

	bm->mi = mi;
	bm->first = 0;
	bm->final = V_NOT_MEASURED;
	bm->final_word = RES_VW_NOT_MEASURED;
	if (!n)
		return;
	results_compare(r, mi, n, 0, &c);
	bm->final = c.verdict;
	bm->final_word = results_vword(&c);
	if (c.verdict == V_NO_CHANGE || c.verdict == V_NOT_MEASURED)
		return;
	for (k = n; k >= 1; k--) {
		results_compare(r, mi, k, 0, &c);
		if (c.verdict != bm->final)
			break;
		bm->first = k;
	}
}

char bisect_verdict_char(enum verdict v)
{
	struct res_cmp c = { .verdict = v };

	return results_vword_sym(results_vword(&c));
}

static const char *patch_of(const struct bisect_names *nm, unsigned int k)
{
	return k && nm && nm->patch[k] ? nm->patch[k] : "";
}

static void print_kernels(FILE *f, const struct results *r,
			  const struct bisect_names *nm)
{
	unsigned int k;

	fprintf(f, "kernels (0 the baseline, K the kernel after patch K):\n");
	for (k = 0; k < r->nk; k++)
		fprintf(f, "  %2u %s%*s%s\n", k, r->kernels[k],
			*patch_of(nm, k) ? 21 - (int)strlen(r->kernels[k]) : 0,
			"", patch_of(nm, k));
}

/* One row: the label, per patch two characters, the final verdict. */
static void print_row(FILE *f, const struct results *r, unsigned int mi)
{
	struct bisect_metric bm;
	struct res_cmp c;
	unsigned int k;

	fprintf(f, "%-22.22s", metric_defs[mi].label);
	for (k = 1; k < r->nk; k++) {
		results_compare(r, mi, k, k - 1, &c);
		fprintf(f, " %c", bisect_verdict_char(c.verdict));
		results_compare(r, mi, k, 0, &c);
		fputc(bisect_verdict_char(c.verdict), f);
	}
	bisect_judge(r, mi, &bm);
	fprintf(f, "  %s", results_vword_word(bm.final_word));
	if (bm.first)
		fprintf(f, " from %u", bm.first);
	fputc('\n', f);
}

static void fmt_mean(char *buf, size_t len, const struct results *r,
		     unsigned int k, unsigned int mi)
{
	struct stats_desc d;
	enum stats_state st = results_desc(r, k, mi, &d);
	int dec = metric_defs[mi].decimals;

	if (st == STATS_MISSING)
		snprintf(buf, len, "missing");
	else if (st != STATS_OK || !d.n)
		snprintf(buf, len, "n/a");
	else if (d.has_ci)
		snprintf(buf, len, "%.*f ±%.*f", dec, d.mean, dec, d.ci95);
	else
		snprintf(buf, len, "%.*f", dec, d.mean);
}

/* "  write pages/I/O: better from patch 8 (swap-ops.08 0008-...)" ... */
static void print_first(FILE *f, const struct results *r,
			const struct bisect_metric *bm,
			const struct bisect_names *nm)
{
	unsigned int k = bm->first;
	char a[64], b[64], z[64], cmp[160];
	struct res_cmp c;

	fmt_mean(a, sizeof(a), r, 0, bm->mi);
	fmt_mean(b, sizeof(b), r, k - 1, bm->mi);
	fmt_mean(z, sizeof(z), r, k, bm->mi);
	fprintf(f, "  %s: %s from patch %u (%s%s%s)\n",
		metric_defs[bm->mi].label, results_verdict_name(bm->final), k,
		r->kernels[k], *patch_of(nm, k) ? " " : "", patch_of(nm, k));
	if (k > 1)
		fprintf(f, "    baseline %s, patch %u %s, patch %u %s\n", a,
			k - 1, b, k, z);
	else
		fprintf(f, "    baseline %s, patch 1 %s\n", a, z);
	results_compare(r, bm->mi, k, k - 1, &c);
	results_fmt_cmp(cmp, sizeof(cmp), &c);
	if (k > 1)
		fprintf(f, "    against patch %u: %s\n", k - 1, cmp);
	results_compare(r, bm->mi, k, 0, &c);
	results_fmt_cmp(cmp, sizeof(cmp), &c);
	fprintf(f, "    against the baseline: %s\n", cmp);
}

/* Every kernel's value of @mi and its two comparisons. */
static void print_detail(FILE *f, const struct results *r, unsigned int mi)
{
	const struct metric_def *m = &metric_defs[mi];
	char v[64], p[160], b[160];
	struct res_cmp c;
	unsigned int k;

	fprintf(f, "\n%s (%s) [%s, %s is better]:\n", m->key, m->label, m->unit,
		metric_dir_name(m->dir));
	fprintf(f, "  %2s %-16s %-16s %-34s %s\n", "K", "kernel", "mean",
		"against the previous", "against the baseline");
	for (k = 0; k < r->nk; k++) {
		fmt_mean(v, sizeof(v), r, k, mi);
		if (!k) {
			fprintf(f, "  %2u %-16.16s %s\n", k, r->kernels[k], v);
			continue;
		}
		results_compare(r, mi, k, k - 1, &c);
		results_fmt_cmp(p, sizeof(p), &c);
		results_compare(r, mi, k, 0, &c);
		results_fmt_cmp(b, sizeof(b), &c);
		fprintf(f, "  %2u %-16.16s %-16s %-34s %s\n", k, r->kernels[k],
			v, p, b);
	}
}

void bisect_print(FILE *f, const struct results *r, const int *mi,
		  unsigned int n, const struct bisect_names *names,
		  bool detail)
{
	struct bisect_metric bm;
	unsigned int i, k, changes = 0;
	int w;

	print_kernels(f, r, names);
	fprintf(f, "\neach cell: against the previous kernel, then against the baseline\n(");
	for (w = 0; w < RES_VW_ONE_RUN; w++)
		fprintf(f, "%s%c %s", w ? ", " : "", results_vword_sym(w),
			results_vword_word(w));
	fprintf(f, ")\n");
	fprintf(f, "%-22s", "patch");
	for (k = 1; k < r->nk; k++)
		fprintf(f, " %02u", k);
	fprintf(f, "  final verdict\n");
	for (i = 0; i < n; i++)
		print_row(f, r, (unsigned int)mi[i]);
	fprintf(f, "\nfirst changes (the first patch from which on the verdict against the\nbaseline is the last kernel's):\n");
	for (i = 0; i < n; i++) {
		bisect_judge(r, (unsigned int)mi[i], &bm);
		if (!bm.first)
			continue;
		print_first(f, r, &bm, names);
		changes++;
	}
	if (!changes)
		fprintf(f, "  none: every final verdict is %s or %s\n",
			results_vword_word(RES_VW_NO_CHANGE),
			results_vword_word(RES_VW_NOT_MEASURED));
	for (i = 0; detail && i < n; i++)
		print_detail(f, r, (unsigned int)mi[i]);
}

static json_t *kernel_json(const struct results *r, unsigned int k,
			   const struct bisect_names *nm)
{
	const char *p = patch_of(nm, k);

	return json_pack("{s:I,s:s,s:o}", "index", (json_int_t)k,
			 "kernel", r->kernels[k],
			 "patch", *p ? json_string(p) : json_null());
}

static json_t *step_json(const struct results *r, unsigned int mi,
			 unsigned int k)
{
	const char *key = metric_defs[mi].key;
	struct stats_desc d;
	enum stats_state st = results_desc(r, k, mi, &d);
	struct res_cmp c;
	json_t *o;

	o = json_pack("{s:I,s:s,s:I,s:o}", "index", (json_int_t)k,
		      "kernel", r->kernels[k], "n", (json_int_t)d.n,
		      "mean", st == STATS_OK && d.n ?
		      results_val_json(stats_ok(d.mean)) : json_null());
	if (!o || !k)
		return o;
	results_compare(r, mi, k, k - 1, &c);
	json_object_set_new(o, "vs_previous", results_cmp_json(&c, key,
			    r->kernels[k], r->kernels[k - 1]));
	results_compare(r, mi, k, 0, &c);
	json_object_set_new(o, "vs_baseline", results_cmp_json(&c, key,
			    r->kernels[k], r->kernels[0]));
	return o;
}

static json_t *metric_json(const struct results *r, unsigned int mi,
			   const struct bisect_names *nm)
{
	struct bisect_metric bm;
	json_t *steps = json_array();
	unsigned int k;

	bisect_judge(r, mi, &bm);
	for (k = 0; k < r->nk; k++)
		json_array_append_new(steps, step_json(r, mi, k));
	return json_pack("{s:s,s:s,s:o,s:o}", "metric", metric_defs[mi].key,
			 "final", results_verdict_name(bm.final),
			 "first_change", bm.first ?
			 kernel_json(r, bm.first, nm) : json_null(),
			 "steps", steps);
}

json_t *bisect_json(const struct results *r, const int *mi, unsigned int n,
		    const struct bisect_names *names)
{
	json_t *ks = json_array(), *ms = json_array();
	unsigned int i, k;

	for (k = 0; k < r->nk; k++)
		json_array_append_new(ks, kernel_json(r, k, names));
	for (i = 0; i < n; i++)
		json_array_append_new(ms, metric_json(r, (unsigned int)mi[i],
						      names));
	return json_pack("{s:o,s:o}", "kernels", ks, "metrics", ms);
}
