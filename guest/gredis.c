// SPDX-License-Identifier: GPL-2.0
/*
 * redis-benchmark --csv and the data set's values (see gredis.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gredis.h"

#define CSV_FIELDS	16
#define CSV_FIELD_LEN	64

/* The quoted fields of the line at @s into @f: their number, or -1. */
static int csv_fields(const char *s, char f[][CSV_FIELD_LEN])
{
	int n = 0;
	size_t k;

	while (*s && *s != '\n') {
		if (n >= CSV_FIELDS || *s != '"')
			return -1;
		s++;
		for (k = 0; *s && *s != '"' && *s != '\n'; s++) {
			if (k + 1 >= CSV_FIELD_LEN)
				return -1;
			f[n][k++] = *s;
		}
		if (*s != '"')
			return -1;
		f[n++][k] = '\0';
		s++;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n' && *s != '\r')
			return -1;
		if (*s == '\r')
			s++;
	}
	return n;
}

/*
 * Split one line (up to '\n' or NUL) of quoted fields into @f; returns
 * the number of fields, -1 if malformed. Advances *@p past the line,
 * malformed or not.
 */
static int csv_row(const char **p, char f[][CSV_FIELD_LEN])
{
	const char *nl = strchr(*p, '\n');
	int n = csv_fields(*p, f);

	*p = nl ? nl + 1 : *p + strlen(*p);
	return n;
}

/* "12.345" (ms) or requests/s into *@v (@scale: 1000 for ms -> us) */
static int number(const char *s, double scale, uint64_t *v)
{
	char *end;
	double d;

	if (!*s || !strchr("0123456789.", *s))
		return -1;
	errno = 0;
	d = strtod(s, &end);
	if (errno || *end || !isfinite(d) || d < 0 || d * scale > 9e15)
		return -1;
	*v = (uint64_t)(d * scale + 0.5);
	return 0;
}

static int column(char h[][CSV_FIELD_LEN], int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(h[i], name))
			return i;
	return -1;
}

int gredis_parse_csv(const char *text, const char *test,
		     struct gredis_csv *out, char *err, size_t errlen)
{
	static const char *const lat[] = {
		"avg_latency_ms", "p50_latency_ms", "p99_latency_ms",
		"max_latency_ms",
	};
	char h[CSV_FIELDS][CSV_FIELD_LEN], r[CSV_FIELDS][CSV_FIELD_LEN];
	uint64_t *dst[] = { &out->avg_us, &out->p50_us, &out->p99_us,
			    &out->max_us };
	const char *p = text;
	int nh = -1, nr, ct = -1, crps = -1, i, c;

	memset(out, 0, sizeof(*out));
	/* the header: the first row with a "test" column */
	while (*p && ct < 0) {
		nh = csv_row(&p, h);
		ct = nh > 0 ? column(h, nh, "test") : -1;
	}
	crps = ct >= 0 ? column(h, nh, "rps") : -1;
	if (ct < 0 || crps < 0) {
		snprintf(err, errlen, "no header row with \"test\" and \"rps\"");
		return -1;
	}
	while (*p) {
		nr = csv_row(&p, r);
		if (nr <= ct || strcmp(r[ct], test))
			continue;
		if (nr != nh) {
			snprintf(err, errlen, "row %s: %d fields, the header has %d",
				 test, nr, nh);
			return -1;
		}
		if (number(r[crps], 1, &out->rps)) {
			snprintf(err, errlen, "row %s: rps \"%s\" is not a number",
				 test, r[crps]);
			return -1;
		}
		for (i = 0; i < 4; i++) {
			c = column(h, nh, lat[i]);
			if (c >= 0 && number(r[c], 1000, dst[i])) {
				snprintf(err, errlen, "row %s: %s \"%s\" is not a number",
					 test, lat[i], r[c]);
				return -1;
			}
		}
		return 0;
	}
	snprintf(err, errlen, "no row for test %s", test);
	return -1;
}

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void gredis_value(uint64_t seed, uint64_t idx, unsigned int uniq,
		  char *buf, size_t len)
{
	uint64_t base = splitmix64(seed ^ splitmix64(idx)), w;
	size_t off;

	if (!uniq)
		uniq = 1;
	for (off = 0; off < len; off += sizeof(w)) {
		w = splitmix64(base + (off / sizeof(w)) % uniq);
		memcpy(buf + off, &w, len - off < sizeof(w) ? len - off :
		       sizeof(w));
	}
}
