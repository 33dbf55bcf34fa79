// SPDX-License-Identifier: GPL-2.0
/*
 * stats: values (a number, n/a or missing) and the statistics of repeated
 * runs: descriptions, Student's t, Welch's and the paired test, minimum
 * detectable effects. See stats.h. The per-guest track is track.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

uint64_t stats_delta(uint64_t prev, uint64_t cur, bool *reset)
{
	if (cur >= prev)
		return cur - prev;
	if (reset)
		*reset = true;
	return cur;
}

struct stats_val stats_ok(double v)
{
	struct stats_val r = { STATS_OK, v };

	return r;
}

struct stats_val stats_missing(void)
{
	struct stats_val r = { STATS_MISSING, 0 };

	return r;
}

struct stats_val stats_na(void)
{
	struct stats_val r = { STATS_NA, 0 };

	return r;
}

struct stats_val stats_rate(uint64_t delta, uint64_t dt_ns)
{
	if (!dt_ns)
		return stats_na();
	return stats_ok((double)delta * 1e9 / (double)dt_ns);
}

struct stats_val stats_ratio(struct stats_val num, struct stats_val den)
{
	if (num.state == STATS_MISSING || den.state == STATS_MISSING)
		return stats_missing();
	if (num.state != STATS_OK || den.state != STATS_OK || den.v == 0)
		return stats_na();
	return stats_ok(num.v / den.v);
}

char *stats_fmt(char *buf, size_t len, struct stats_val v, int decimals)
{
	switch (v.state) {
	case STATS_OK:
		snprintf(buf, len, "%.*f", decimals, v.v);
		break;
	case STATS_NA:
		snprintf(buf, len, "n/a");
		break;
	case STATS_MISSING:
		snprintf(buf, len, "missing");
		break;
	}
	return buf;
}

double stats_t95(unsigned int df)
{
	static const double t[] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110,
		2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
		2.052, 2.048, 2.045, 2.042,
	};

	if (df == 0)
		return NAN;
	if (df <= 30)
		return t[df];
	/* between table rows take the smaller df: a slightly wider CI */
	if (df < 40)
		return 2.042;
	if (df < 60)
		return 2.021;
	if (df < 120)
		return 2.000;
	if (df < 1000)
		return 1.980;
	return 1.960;
}

void stats_describe(const double *x, size_t n, struct stats_desc *d)
{
	double s = 0, ss = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->n = n;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		s += x[i];
	d->mean = s / (double)n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - d->mean) * (x[i] - d->mean);
	d->stddev = sqrt(ss / (double)(n - 1));
	d->ci95 = stats_t95((unsigned int)(n - 1)) * d->stddev /
		  sqrt((double)n);
	d->has_ci = true;
}

/*
 * The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), used for Student's t distribution.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d, h, num;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double dm = m;

		num = dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		num = -(a + dm) * (a + b + dm) * x /
		      ((a + 2 * dm) * (a + 2 * dm + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		if (fabs(d * c - 1) < 1e-14)
			break;
	}
	return h;
}

static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6, mid = 0;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
		if (hi - lo < 1e-10 * (1 + fabs(mid)))
			break;
	}
	return mid;
}

bool stats_welch(const struct stats_desc *a, const struct stats_desc *b,
		 double *p, double *df)
{
	double va, vb, se2, t;

	if (a->n < 2 || b->n < 2)
		return false;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0 || !isfinite(se2)) {
		*df = (double)(a->n + b->n - 2);
		*p = a->mean == b->mean ? 1 : 0;
		return true;
	}
	*df = se2 * se2 / (va * va / (double)(a->n - 1) +
			   vb * vb / (double)(b->n - 1));
	t = (b->mean - a->mean) / sqrt(se2);
	*p = 2 * stats_t_cdf(-fabs(t), *df);
	if (*p > 1)
		*p = 1;
	return true;
}

bool stats_ratio_ci(const struct stats_desc *a, const struct stats_desc *b,
		    double *ratio, double *lo, double *hi, bool *has_ci)
{
	double r, rel2, half, p, df;

	*has_ci = false;
	if (!a->n || !b->n || a->mean == 0)
		return false;
	r = b->mean / a->mean;
	*ratio = *lo = *hi = r;
	if (a->n < 2 || b->n < 2)
		return true;
	rel2 = a->stddev * a->stddev / ((double)a->n * a->mean * a->mean);
	if (b->mean != 0)
		rel2 += b->stddev * b->stddev /
			((double)b->n * b->mean * b->mean);
	stats_welch(a, b, &p, &df);
	if (b->mean != 0)
		half = stats_t_quantile(0.975, df) * fabs(r) * sqrt(rel2);
	else
		half = stats_t_quantile(0.975, df) * b->stddev /
		       sqrt((double)b->n) / fabs(a->mean);
	*lo = r - half;
	*hi = r + half;
	*has_ci = true;
	return true;
}

/* The relative variances of @a and @b as if each had @na, @nb repeats. */
static bool mde_at(const struct stats_desc *a, const struct stats_desc *b,
		   double na, double nb, double *mde)
{
	double cva, cvb, va, vb, se2, df;

	if (na < 2 || nb < 2 || a->mean == 0 || b->mean == 0)
		return false;
	cva = a->stddev / fabs(a->mean);
	cvb = b->stddev / fabs(b->mean);
	va = cva * cva / na;
	vb = cvb * cvb / nb;
	se2 = va + vb;
	if (!isfinite(se2))
		return false;
	if (se2 <= 0) {
		*mde = 0;
		return true;
	}
	df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	*mde = (stats_t_quantile(0.975, df) + stats_t_quantile(0.80, df)) *
	       sqrt(se2);
	return true;
}

bool stats_mde(const struct stats_desc *a, const struct stats_desc *b,
	       double *mde)
{
	return mde_at(a, b, (double)a->n, (double)b->n, mde);
}

unsigned int stats_repeats_needed(const struct stats_desc *a,
				  const struct stats_desc *b, double effect,
				  unsigned int limit)
{
	unsigned int lo = 2, hi = limit, mid;
	double m;

	/* the mde only falls as n grows: bisect for the first n it fits */
	if (a->n < 2 || b->n < 2 || limit < 2 || !mde_at(a, b, limit, limit, &m) || m > effect)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (mde_at(a, b, mid, mid, &m) && m <= effect)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* ---- blocked comparisons: pairs of one block (stats.h) ---- */

static double paired_mde(double sd, double n)
{
	double df = n - 1;

	return expm1((stats_t_quantile(0.975, df) +
		      stats_t_quantile(0.80, df)) * sd / sqrt(n));
}

bool stats_paired(const double *a, const double *b, size_t n,
		  struct stats_paired *out)
{
	double *d, half;
	struct stats_desc dd;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) ||
		    !isfinite(b[i]))
			return false;
	d = calloc(n, sizeof(*d));
	if (!d)
		return false;
	for (i = 0; i < n; i++)
		d[i] = log(b[i] / a[i]);
	stats_describe(d, n, &dd);
	free(d);
	out->n = n;
	out->df = (double)(n - 1);
	out->sd = dd.stddev;
	out->ratio = exp(dd.mean);
	half = stats_t_quantile(0.975, out->df) * dd.stddev / sqrt((double)n);
	out->lo = exp(dd.mean - half);
	out->hi = exp(dd.mean + half);
	if (dd.stddev > 0)
		out->p = 2 * stats_t_cdf(-fabs(dd.mean) /
					 (dd.stddev / sqrt((double)n)),
					 out->df);
	else
		out->p = dd.mean != 0 ? 0 : 1;
	if (out->p > 1)
		out->p = 1;
	out->mde = paired_mde(dd.stddev, (double)n);
	return true;
}

unsigned int stats_paired_repeats_needed(double sd, double effect,
					 unsigned int limit)
{
	unsigned int lo = 2, hi = limit, mid;

	/* as stats_repeats_needed(): the mde only falls as n grows */
	if (limit < 2 || !(sd >= 0) || paired_mde(sd, limit) > effect)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (paired_mde(sd, mid) <= effect)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
