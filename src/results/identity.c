// SPDX-License-Identifier: GPL-2.0
/*
 * The identity check of command workloads (results.h): the same build on
 * two kernels does the same user-space work, so its user CPU time must
 * agree within the noise; when it does not, the kernels did not run the
 * same workload (other compiler flags, another tree, a run cut short)
 * and their system and real times are not comparable.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics.h"
#include "results.h"

unsigned int results_identity(const struct results *r, char *buf, size_t len)
{
	int mi = metric_index("command_user_seconds");
	unsigned int k, n = 0;
	size_t used;

	buf[0] = '\0';
	if (mi < 0 || !len)
		return 0;
	for (k = 1; k < r->nk; k++) {
		struct res_cmp c;
		double noise;

		results_compare(r, (unsigned int)mi, k, 0, &c);
		if (!c.has_ratio || !isfinite(c.ratio))
			continue;
		noise = c.has_mde ? c.mde : metric_defs[mi].min_effect;
		if (fabs(c.ratio - 1) <= noise || (c.has_p && c.p >= 0.05))
			continue;
		used = strlen(buf);
		if (!n)
			used += (size_t)snprintf(buf + used, len - used,
				"identity check FAILED: command user CPU time");
		if (used >= len)
			break;
		snprintf(buf + used, len - used, "%s %s %.2fx %s (noise %.0f%%)",
			 n ? ";" : "", r->kernels[k], c.ratio, r->kernels[0],
			 noise * 100);
		n++;
	}
	if (n && strlen(buf) + 1 < len)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 ": the kernels did not run the same work, their system and real times do not compare");
	return n;
}
