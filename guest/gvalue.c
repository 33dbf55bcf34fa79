// SPDX-License-Identifier: GPL-2.0
/*
 * "swapctl-value NAME N" lines of a command's output (see gvalue.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gvalue.h"

int gvalue_parse_line(const char *line, struct gvalue *out)
{
	const char *p = line + strlen(GVALUE_PREFIX), *sp;
	unsigned long long v;
	size_t n;
	char *end;

	if (strncmp(line, GVALUE_PREFIX, strlen(GVALUE_PREFIX)))
		return 0;
	sp = strchr(p, ' ');
	if (!sp)
		return -1;
	n = (size_t)(sp - p);
	if (!n || n >= GVALUE_NAME_MAX ||
	    strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_") != n)
		return -1;
	if (sp[1] < '0' || sp[1] > '9')
		return -1;
	errno = 0;
	v = strtoull(sp + 1, &end, 10);
	if (errno || (*end && strcmp(end, "\n")) || v > (1ULL << 53))
		return -1;
	memcpy(out->name, p, n);
	out->name[n] = '\0';
	out->v = v;
	return 1;
}

int gvalue_add(struct gvalue *vals, int n, int max, const struct gvalue *v)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(vals[i].name, v->name)) {
			vals[i].v = v->v;
			return n;
		}
	if (n >= max)
		return n;
	vals[n] = *v;
	return n + 1;
}

void gvalue_print(FILE *f, const char *name, uint64_t v)
{
	fprintf(f, GVALUE_PREFIX "%s %" PRIu64 "\n", name, v);
}
