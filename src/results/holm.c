// SPDX-License-Identifier: GPL-2.0
/*
 * holm: Holm's step-down procedure over a family of p-values. See holm.h.
 */
#include <math.h>
#include <stdlib.h>

#include "holm.h"

/* The tested indexes of @p (not NaN) in @ord, by ascending p, stable. */
static unsigned int order(const double *p, unsigned int n, unsigned int *ord)
{
	unsigned int i, j, m = 0;

	for (i = 0; i < n; i++) {
		if (isnan(p[i]))
			continue;
		for (j = m; j > 0 && p[ord[j - 1]] > p[i]; j--)
			ord[j] = ord[j - 1];
		ord[j] = i;
		m++;
	}
	return m;
}

unsigned int holm_step_down(const double *p, unsigned int n, double alpha,
			    bool *reject, double *thr, double *adj)
{
	unsigned int *ord = calloc(n ? n : 1, sizeof(*ord));
	unsigned int i, m, tie = 0;
	double t = NAN, a = 0;
	bool go = true;

	for (i = 0; i < n; i++) {
		if (reject)
			reject[i] = false;
		if (thr)
			thr[i] = NAN;
		if (adj)
			adj[i] = NAN;
	}
	if (!ord)
		return 0;
	m = order(p, n, ord);
	for (i = 0; i < m; i++) {
		double x = p[ord[i]];

		/* a tie keeps the threshold of the first of its p-values */
		if (!i || x != p[ord[tie]]) {
			tie = i;
			t = alpha / (double)(m - i);
		}
		go = go && x < t;
		a = fmax(a, fmin(1, (double)(m - i) * x));
		if (reject)
			reject[ord[i]] = go;
		if (thr)
			thr[ord[i]] = t;
		if (adj)
			adj[ord[i]] = a;
	}
	free(ord);
	return m;
}
