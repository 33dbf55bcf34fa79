// SPDX-License-Identifier: GPL-2.0
/*
 * Text -> JSON for the agent's samples (see gstat.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "gstat.h"

static const char * const prefixes[] = {
	"pswp", "nrswp", "swap_ra", "thp_swpout", "pgsteal", "pgscan",
	"workingset_", "zswp", "allocstall_", NULL
};

static const char * const exact[] = {
	"pgmajfault", "pgpgin", "pgpgout", NULL
};

bool gstat_vmstat_wanted(const char *name)
{
	int i;

	for (i = 0; prefixes[i]; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	for (i = 0; exact[i]; i++)
		if (!strcmp(name, exact[i]))
			return true;
	return false;
}

/*
 * Walk "name value\n" lines; call @fn for each well-formed wanted one.
 * Names are [a-z0-9_]+; values unsigned decimal.
 */
static int walk_vmstat(struct gj *j, const char *text, bool values)
{
	const char *s = text;
	int n = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char name[64];
		size_t k = 0;
		const char *p = s;
		char *end;
		unsigned long long v;

		while (p < s + len && *p != ' ' && k < sizeof(name) - 1)
			name[k++] = *p++;
		name[k] = '\0';
		if (k && p < s + len && *p == ' ' &&
		    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == k &&
		    gstat_vmstat_wanted(name)) {
			v = strtoull(p + 1, &end, 10);
			if (end > p + 1 && end == s + len) {
				if (values)
					gj_u64(j, name, v);
				else
					gj_str(j, NULL, name);
				n++;
			}
		}
		s += len;
		if (*s == '\n')
			s++;
	}
	return n;
}

int gstat_vmstat_members(struct gj *j, const char *text)
{
	return walk_vmstat(j, text, true);
}

int gstat_vmstat_names(struct gj *j, const char *text)
{
	return walk_vmstat(j, text, false);
}

static int parse_u64s(const char *text, uint64_t *v, int max)
{
	const char *s = text;
	int n = 0;

	while (n < max) {
		char *end;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s < '0' || *s > '9')
			break;
		v[n++] = strtoull(s, &end, 10);
		s = end;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (*s && n < max)
		return -1;	/* junk */
	return n;
}

int gstat_blk_member(struct gj *j, const char *dev, const char *text)
{
	static const char * const names[] = {
		"rd_ios", "rd_merges", "rd_sectors", "rd_ticks",
		"wr_ios", "wr_merges", "wr_sectors", "wr_ticks",
		"in_flight", "io_ticks", "time_in_queue",
	};
	uint64_t v[17];
	int n, i;

	n = parse_u64s(text, v, 17);
	if (n < 11)
		return -1;
	gj_obj_open(j, dev);
	for (i = 0; i < 11; i++)
		gj_u64(j, names[i], v[i]);
	gj_obj_close(j);
	return 0;
}

int gstat_mmstat_member(struct gj *j, const char *dev, const char *text)
{
	static const char * const names[] = {
		"orig_data_size", "compr_data_size", "mem_used_total",
		"mem_limit", "mem_used_max", "same_pages", "pages_compacted",
		"huge_pages",
	};
	uint64_t v[9];
	int n, i;

	n = parse_u64s(text, v, 9);
	if (n < 3)
		return -1;
	if (n > 8)
		n = 8;
	gj_obj_open(j, dev);
	for (i = 0; i < n; i++)
		gj_u64(j, names[i], v[i]);
	gj_obj_close(j);
	return 0;
}

/* The line of @text starting with @prefix, or NULL. */
static const char *line_with(const char *text, const char *prefix)
{
	const char *s = text;
	size_t n = strlen(prefix);

	while (s && *s) {
		if (!strncmp(s, prefix, n))
			return s;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return NULL;
}

int gstat_cpu_member(struct gj *j, const char *text, long hz)
{
	static const char * const names[] = {
		"user", "nice", "system", "idle", "iowait", "irq", "softirq",
		"steal",
	};
	const char *s = line_with(text, "cpu ");
	uint64_t v[8];
	char line[256];
	size_t len;
	int n, i;

	if (!s || hz <= 0)
		return -1;
	len = strcspn(s, "\n");
	if (len >= sizeof(line))
		return -1;
	memcpy(line, s + 4, len - 4);
	line[len - 4] = '\0';
	/* guest and guest_nice follow; they are already in user and nice */
	n = parse_u64s(line, v, 8);
	if (n < 8)
		return -1;
	gj_obj_open(j, "cpu_ns");
	for (i = 0; i < 8; i++)
		gj_u64(j, names[i], v[i] * (1000000000ULL / (uint64_t)hz));
	gj_obj_close(j);
	return 0;
}

int gstat_task_member(struct gj *j, const char *key, const char *stat,
		      const char *wchan, long hz)
{
	/* after "pid (comm) ": state is field 3, utime 14, stime 15 */
	const char *p = strrchr(stat, ')');
	unsigned long long v[13];
	char state[2], *end;
	int i;

	if (!p || hz <= 0 || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	state[0] = p[2];
	state[1] = '\0';
	if (state[0] < 'A' || state[0] > 'z')
		return -1;
	p += 4;
	for (i = 0; i < 13; i++) {	/* fields 4 (ppid) to 16 */
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9') {
			if (*p != '-')
				return -1;
			p++;	/* tty_nr and pgrp may be negative */
		}
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		p = end;
	}
	gj_obj_open(j, key);
	gj_str(j, "state", state);
	/* utime and stime: fields 14 and 15 */
	gj_u64(j, "cpu_ns", (v[10] + v[11]) * (1000000000ULL / (uint64_t)hz));
	if (wchan && wchan[0] && strcmp(wchan, "0"))
		gj_str(j, "wchan", wchan);
	gj_obj_close(j);
	return 0;
}

/* The value of "total=N" in the line starting with @prefix. */
static int psi_total(const char *text, const char *prefix, uint64_t *v)
{
	const char *s = line_with(text, prefix);
	const char *nl, *t;
	char *end;

	if (!s)
		return -1;
	nl = s + strcspn(s, "\n");
	t = strstr(s, " total=");
	if (!t || t > nl)
		return -1;
	t += 7;
	if (*t < '0' || *t > '9')
		return -1;
	*v = strtoull(t, &end, 10);
	if (end != nl)
		return -1;
	return 0;
}

int gstat_psi_member(struct gj *j, const char *text)
{
	uint64_t some, full;

	if (psi_total(text, "some ", &some))
		return -1;
	gj_obj_open(j, "psi");
	gj_u64(j, "some_us", some);
	if (!psi_total(text, "full ", &full))
		gj_u64(j, "full_us", full);
	gj_obj_close(j);
	return 0;
}

int gstat_vmstat_value(const char *text, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	const char *s = text;
	char *end;

	while (s && *s) {
		if (!strncmp(s, name, n) && s[n] == ' ' &&
		    s[n + 1] >= '0' && s[n + 1] <= '9') {
			*v = strtoull(s + n + 1, &end, 10);
			return *end == '\n' || !*end ? 0 : -1;
		}
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return -1;
}

/*
 * The sum of every zone's "min N" line of /proc/zoneinfo (pages, its
 * watermark boost included); -1 if there is none or one is malformed.
 */
static int zoneinfo_min(const char *text, uint64_t *v)
{
	const char *s = text;
	bool found = false;
	char *end;

	*v = 0;
	while (s && *s) {
		const char *t = s + strspn(s, " ");

		if (t > s && !strncmp(t, "min ", 4)) {
			t += 4 + strspn(t + 4, " ");
			if (*t < '0' || *t > '9')
				return -1;
			*v += strtoull(t, &end, 10);
			if (*end != '\n' && *end)
				return -1;
			found = true;
		}
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return found ? 0 : -1;
}

int gstat_mem_member(struct gj *j, const char *vmstat, const char *zoneinfo,
		     long page_kb)
{
	uint64_t free, wb, min;

	if (gstat_vmstat_value(vmstat, "nr_free_pages", &free) ||
	    gstat_vmstat_value(vmstat, "nr_writeback", &wb) ||
	    zoneinfo_min(zoneinfo, &min))
		return -1;
	gj_obj_open(j, "mem");
	gj_u64(j, "free_kb", free * (uint64_t)page_kb);
	gj_u64(j, "min_kb", min * (uint64_t)page_kb);
	gj_u64(j, "writeback_kb", wb * (uint64_t)page_kb);
	gj_obj_close(j);
	return 0;
}

int gstat_parse_swaps(const char *text, struct gstat_swap *out, int max)
{
	const char *s = text;
	int n = 0;
	bool header = true;

	while (*s && n < max) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char line[512];
		char name[GSTAT_NAME_LEN], type[16];
		unsigned long long size, used;
		int prio;

		if (len < sizeof(line)) {
			memcpy(line, s, len);
			line[len] = '\0';
			if (header && !strncmp(line, "Filename", 8)) {
				header = false;
			} else if (sscanf(line, "%127s %15s %llu %llu %d", name,
					  type, &size, &used, &prio) == 5) {
				struct gstat_swap *o = &out[n++];

				memset(o, 0, sizeof(*o));
				strcpy(o->name, name);
				strcpy(o->type, type);
				o->size_kb = size;
				o->used_kb = used;
				o->prio = prio;
			}
		}
		s += len;
		if (*s == '\n')
			s++;
	}
	return n;
}

void gstat_swap_element(struct gj *j, const struct gstat_swap *s)
{
	gj_obj_open(j, NULL);
	gj_str(j, "name", s->name);
	gj_str(j, "type", s->type);
	gj_u64(j, "used_kb", s->used_kb);
	gj_u64(j, "size_kb", s->size_kb);
	gj_i64(j, "prio", s->prio);
	gj_obj_close(j);
}

int gstat_mthp_size(const char *entry, char *size, size_t len)
{
	size_t d;

	if (strncmp(entry, "hugepages-", 10))
		return -1;
	entry += 10;
	d = strspn(entry, "0123456789");
	if (!d || d > 8 || strcmp(entry + d, "kB") || d + 3 > len)
		return -1;
	memcpy(size, entry, d + 2);
	size[d + 2] = '\0';
	return 0;
}

int gstat_sysfs_u64(const char *text, uint64_t *v)
{
	size_t d = strspn(text, "0123456789");
	uint64_t n;

	if (!d || d > 16 || (text[d] && strcmp(text + d, "\n")))
		return -1;
	n = strtoull(text, NULL, 10);
	if (n > (1ULL << 53))
		return -1;
	*v = n;
	return 0;
}

int gstat_memstat_member(struct gj *j, const char *text)
{
	static const char * const keys[] = {
		"workingset_refault_anon", "pgscan", "pgsteal", "zswpout",
	};
	unsigned int i;
	uint64_t v;
	int n = 0;

	gj_obj_open(j, "memstat");
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!gstat_vmstat_value(text, keys[i], &v) &&
		    v <= (1ULL << 53)) {
			gj_u64(j, keys[i], v);
			n++;
		}
	gj_obj_close(j);
	return n;
}
