// SPDX-License-Identifier: GPL-2.0
/*
 * hostrec: the host as a source of error (hostrec.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostrec.h"
#include "jfile.h"
#include "meminfo.h"
#include "util.h"

/* every file read here is a line or a few: /proc/swaps may be longer */
#define HOSTREC_READ_MAX	(64 * 1024)

/* The text of @root@rel (NUL-terminated, malloc'ed), or NULL. */
static char *read_rel(const char *root, const char *rel)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s%s", root, rel) >=
	    (int)sizeof(path))
		return NULL;
	return util_read_input(path, HOSTREC_READ_MAX, NULL);
}

/* A file of one decimal number (and a '\n'): the number, or -1. */
static long long read_num(const char *root, const char *rel)
{
	char *t = read_rel(root, rel), *end;
	long long v = -1;

	if (!t)
		return -1;
	if (t[0] >= '0' && t[0] <= '9') {
		errno = 0;
		v = strtoll(t, &end, 10);
		if (errno || (*end && strcmp(end, "\n")))
			v = -1;
	}
	free(t);
	return v;
}

/* The first word of a one-line file into @buf ("" if none). */
static void read_word(const char *root, const char *rel, char *buf,
		      size_t len, bool bracketed)
{
	char *t = read_rel(root, rel), *s, *e;
	size_t n;

	buf[0] = '\0';
	if (!t)
		return;
	s = t;
	if (bracketed) {
		s = strchr(t, '[');
		e = s ? strchr(s, ']') : NULL;
		if (!s || !e) {
			free(t);
			return;
		}
		s++;
		n = (size_t)(e - s);
	} else {
		n = strcspn(s, " \t\n");
	}
	if (n && n < len && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") >= n) {
		memcpy(buf, s, n);
		buf[n] = '\0';
	}
	free(t);
}

/* "0-1,4,6-7": the CPUs of a cpulist, or -1 when malformed. */
static int cpulist_count(const char *s)
{
	int n = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a > 65535)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b > 65535)
				return -1;
			s = end;
		}
		n += (int)(b - a + 1);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return n ? n : -1;
}

static void read_swaps(struct hostrec *h, const char *root)
{
	char *t = read_rel(root, "/proc/swaps"), *s;
	unsigned long long kb;

	h->swap_areas = -1;
	if (t && !strncmp(t, "Filename", 8)) {
		h->swap_areas = 0;
		for (s = strchr(t, '\n'); s && s[1]; s = strchr(s + 1, '\n'))
			h->swap_areas++;
	}
	free(t);
	t = read_rel(root, "/proc/meminfo");
	h->swap_total_kb = h->swap_free_kb = -1;
	if (t && !meminfo_parse(t, "SwapTotal", &kb))
		h->swap_total_kb = (long long)kb;
	if (t && !meminfo_parse(t, "SwapFree", &kb))
		h->swap_free_kb = (long long)kb;
	free(t);
}

static void read_load(struct hostrec *h, const char *root)
{
	char *t = read_rel(root, "/proc/loadavg");

	h->load1 = h->load5 = -1;
	if (t && sscanf(t, "%lf %lf", &h->load1, &h->load5) != 2)
		h->load1 = h->load5 = -1;
	if (h->load1 < 0 || h->load1 > 1e6 || h->load5 < 0 || h->load5 > 1e6)
		h->load1 = h->load5 = -1;
	free(t);
	t = read_rel(root, "/sys/devices/system/cpu/online");
	h->ncpus = t ? cpulist_count(t) : -1;
	free(t);
}

void hostrec_read(struct hostrec *h, const char *root)
{
	char yn[8];
	long long v;

	memset(h, 0, sizeof(*h));
	v = read_num(root, "/sys/kernel/mm/ksm/run");
	h->ksm_run = v >= 0 && v < 16 ? (int)v : -1;
	h->ksm_pages_sharing = read_num(root, "/sys/kernel/mm/ksm/pages_sharing");
	read_word(root, "/sys/module/zswap/parameters/enabled", yn, sizeof(yn),
		  false);
	h->zswap_enabled = !strcmp(yn, "Y") ? 1 : !strcmp(yn, "N") ? 0 : -1;
	read_swaps(h, root);
	read_word(root, "/sys/kernel/mm/transparent_hugepage/enabled", h->thp,
		  sizeof(h->thp), true);
	read_load(h, root);
	read_word(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  h->governor, sizeof(h->governor), false);
}

static long long swap_used_kb(const struct hostrec *h)
{
	if (h->swap_total_kb < 0 || h->swap_free_kb < 0 ||
	    h->swap_free_kb > h->swap_total_kb)
		return 0;
	return h->swap_total_kb - h->swap_free_kb;
}

/* Append "@what" to @buf, separated by "; ". */
static void add(char *buf, size_t len, int *n, const char *what)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", *n ? "; " : "", what);
	(*n)++;
}

int hostrec_warning(const struct hostrec *before, const struct hostrec *after,
		    int own_cpus, char *buf, size_t len)
{
	char what[160];
	long long used = swap_used_kb(before);
	int n = 0;

	buf[0] = '\0';
	if (before->ncpus > 0 && before->load1 > before->ncpus) {
		snprintf(what, sizeof(what), "load average %.2f before the run above the host's %d CPUs",
			 before->load1, before->ncpus);
		add(buf, len, &n, what);
	}
	if (after && after->ncpus > 0 &&
	    after->load1 > after->ncpus + (own_cpus > 0 ? own_cpus : 0)) {
		snprintf(what, sizeof(what), "load average %.2f after it above the host's %d CPUs + the run's %d vCPUs",
			 after->load1, after->ncpus, own_cpus);
		add(buf, len, &n, what);
	}
	if (after && swap_used_kb(after) > used)
		used = swap_used_kb(after);
	if (used > 0) {
		snprintf(what, sizeof(what), "host swap in use (%lld MiB%s)",
			 used / 1024,
			 before->zswap_enabled == 1 ? ", zswap on" : "");
		add(buf, len, &n, what);
	}
	if (before->ksm_run == 1 || (after && after->ksm_run == 1)) {
		snprintf(what, sizeof(what), "host KSM running (pages_sharing %lld)",
			 after ? after->ksm_pages_sharing :
			 before->ksm_pages_sharing);
		add(buf, len, &n, what);
	}
	return n;
}

static json_t *num_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static json_t *one_json(const struct hostrec *h)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "ksm_run", num_or_null(h->ksm_run));
	json_object_set_new(o, "ksm_pages_sharing",
			    num_or_null(h->ksm_pages_sharing));
	json_object_set_new(o, "zswap_enabled", h->zswap_enabled < 0 ?
			    json_null() : json_boolean(h->zswap_enabled));
	json_object_set_new(o, "swap_areas", num_or_null(h->swap_areas));
	json_object_set_new(o, "swap_total_kb", num_or_null(h->swap_total_kb));
	json_object_set_new(o, "swap_free_kb", num_or_null(h->swap_free_kb));
	json_object_set_new(o, "thp_enabled", str_or_null(h->thp));
	json_object_set_new(o, "load1", h->load1 < 0 ? json_null() :
			    json_real(h->load1));
	json_object_set_new(o, "load5", h->load5 < 0 ? json_null() :
			    json_real(h->load5));
	json_object_set_new(o, "cpus", num_or_null(h->ncpus));
	json_object_set_new(o, "cpufreq_governor", str_or_null(h->governor));
	return o;
}

json_t *hostrec_json(const struct hostrec *before,
		     const struct hostrec *after, const char *warning)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "before", one_json(before));
	json_object_set_new(o, "after", after ? one_json(after) : json_null());
	json_object_set_new(o, "warning", warning && warning[0] ?
			    json_string(warning) : json_null());
	return o;
}

static void write_json(const char *dir, const struct hostrec *before,
		       const struct hostrec *after, const char *warning)
{
	char path[4200], *text = NULL;
	json_t *o = hostrec_json(before, after, warning);

	if (o)
		text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				  JSON_REAL_PRECISION(4));
	json_decref(o);
	snprintf(path, sizeof(path), "%s/host.json", dir);
	if (!text || util_write_file_atomic(path, text, strlen(text), 0644))
		fprintf(stderr, "swapctl run: %s: %s\n", path,
			text ? strerror(errno) : "out of memory");
	free(text);
}

void hostrec_run_start(const char *dir, struct hostrec *before)
{
	hostrec_read(before, "");
	write_json(dir, before, NULL, NULL);
}

void hostrec_run_end(const char *dir, const struct hostrec *before,
		     int own_cpus)
{
	struct hostrec after;
	char warning[1024];

	hostrec_read(&after, "");
	hostrec_warning(before, &after, own_cpus, warning, sizeof(warning));
	write_json(dir, before, &after, warning);
	if (warning[0])
		fprintf(stderr, "swapctl run: warning: the host can distort the comparison: %s (%s/host.json)\n",
			warning, dir);
}

int hostrec_load_warning(const char *dir, char *buf, size_t len)
{
	char path[4200], *p;
	json_error_t jerr;
	json_t *o, *w;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/host.json", dir);
	o = jfile_load(path, 0, &jerr);
	if (!o)
		return 0;
	w = json_object_get(o, "warning");
	if (json_is_string(w))
		snprintf(buf, len, "%s", json_string_value(w));
	json_decref(o);
	/* what a file says reaches a terminal without its control bytes */
	for (p = buf; *p; p++)
		if ((unsigned char)*p < ' ' || (unsigned char)*p == 0x7f)
			*p = '?';
	return buf[0] != '\0';
}
