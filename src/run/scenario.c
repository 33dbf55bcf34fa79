// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario parser. jansson checks the syntax (and rejects duplicate keys)
 * and gives line and column of syntax errors; for a semantic error on a
 * value, jansson keeps no positions, so the text is scanned again along
 * the key path to find the line and column of the value at fault.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "jfile.h"
#include "kbuild.h"
#include "kline.h"
#include "metrics.h"
#include "scenario.h"
#include "util.h"

#define MAX_DEPTH 8

struct comp {
	const char *key;	/* NULL: array index */
	int idx;
};

struct pctx {
	const char *text;
	size_t len;
	const char *file;
	struct comp path[MAX_DEPTH];
	int depth;
	char *err;
	size_t errlen;
};

int scn_kernel_index(const struct scenario *s, const char *name)
{
	int i;

	for (i = 0; i < s->nkernels; i++)
		if (!strcmp(s->kernels[i], name))
			return i;
	return -1;
}

/* A kernel name: a variant directory under kernels/ (or "patched"). */
static const char *kernel_name_problem(const char *name)
{
	const char *p;

	if (!name[0])
		return "is empty";
	if (strlen(name) >= SCN_KERNEL_MAX)
		return "is longer than 32 characters";
	if (name[0] == '.' || name[0] == '-')
		return "must not start with '.' or '-'";
	if (!strcmp(name, "each"))
		return "is reserved (\"kernel\": \"each\" of an expectation means every kernel)";
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			return "must be letters, digits, '_', '.' and '-' (a variant under <workdir>/kernels/)";
	return NULL;
}

int scn_set_kernels(struct scenario *s, const char *list, char *err,
		    size_t errlen)
{
	char buf[SCN_MAX_KERNELS * SCN_KERNEL_MAX + 16], *tok, *comma;
	const char *why;

	if (strlen(list) >= sizeof(buf)) {
		util_seterr(err, errlen, "'%s': too long", list);
		return -1;
	}
	strcpy(buf, list);
	s->nkernels = 0;
	/* every name between commas counts: "a,,b" has an empty one */
	for (tok = buf; tok; tok = comma ? comma + 1 : NULL) {
		comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		why = kernel_name_problem(tok);
		if (why) {
			util_seterr(err, errlen, "'%s': '%s' %s", list, tok,
				    why);
			return -1;
		}
		if (scn_kernel_index(s, tok) >= 0) {
			util_seterr(err, errlen, "'%s' is listed twice", tok);
			return -1;
		}
		if (s->nkernels >= SCN_MAX_KERNELS) {
			util_seterr(err, errlen, "more than %d kernels",
				    SCN_MAX_KERNELS);
			return -1;
		}
		snprintf(s->kernels[s->nkernels++], SCN_KERNEL_MAX, "%.*s",
			 SCN_KERNEL_MAX - 1, tok);
	}
	return 0;
}

int scn_check_kernels(const struct scenario *s, const char *series,
		      char *err, size_t errlen)
{
	if (series && series[0] && scn_kernel_index(s, SCN_PATCHED) >= 0 &&
	    scn_kernel_index(s, series) >= 0) {
		util_seterr(err, errlen,
			    "%s: kernels: \"%s\" is \"%s\" (series in swapctl.conf): one kernel listed twice would be compared with itself",
			    s->file, SCN_PATCHED, series);
		return -1;
	}
	return 0;
}

int scn_check_line(const struct scenario *s, const char *line,
		   const char *from, char *err, size_t errlen)
{
	if (s->nmthp && kline_before(line, PLAN_MTHP_LINE_MAJOR,
				     PLAN_MTHP_LINE_MINOR)) {
		util_seterr(err, errlen,
			    "%s: mthp: kernel line %s (%s) has no per-size mTHP (hugepages-<size>kB, %d.%d and later): run it on 6.12 (--line 6.12)",
			    s->file, line, from, PLAN_MTHP_LINE_MAJOR,
			    PLAN_MTHP_LINE_MINOR);
		return -1;
	}
	return 0;
}

bool scn_has_nfs(const struct scenario *s)
{
	int i;

	for (i = 0; i < s->nswap; i++)
		if (s->swap[i].type == SWAP_NFSFILE)
			return true;
	return false;
}

bool scn_expects_oom(const struct scenario *s)
{
	int i;

	for (i = 0; i < s->nfaults; i++)
		if (s->fault[i].kind == FAULT_OOM)
			return true;
	return false;
}

int scn_slub_debug(const struct scenario *s, char *buf, size_t len)
{
	int i, j, n;
	size_t off;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < s->nfaults; i++)
		if (s->fault[i].kind == FAULT_SLAB_ERROR &&
		    s->fault[i].ncaches)
			break;
	if (i == s->nfaults)
		return 0;
	/* A: SLAB_FAILSLAB, the mark failslab's cache-filter looks for */
	n = snprintf(buf, len, "slub_debug=A");
	for (j = 0; j < s->fault[i].ncaches; j++) {
		off = (size_t)n < len ? (size_t)n : len;
		n += snprintf(buf + off, len - off, ",%s",
			      s->fault[i].caches[j]);
	}
	return n;
}

int scn_brd_args(const struct scenario *s, char *buf, size_t len)
{
	int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < s->nswap; i++)
		if (s->swap[i].type == SWAP_BRD)
			return snprintf(buf, len, PLAN_BRD_ARGS_FMT,
					s->swap[i].size_mb * 1024);
	return 0;
}

/* ---- locating a key path in the (already valid) JSON text ---- */

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
			   *p == '\r'))
		p++;
	return p;
}

/* @p at the opening quote; returns the position after the closing one. */
static const char *skip_string(const char *p, const char *end)
{
	p++;
	while (p < end && *p != '"') {
		if (*p == '\\' && p + 1 < end)
			p++;
		p++;
	}
	return p < end ? p + 1 : end;
}

static const char *skip_value(const char *p, const char *end)
{
	int depth = 0;

	p = skip_ws(p, end);
	if (p < end && *p == '"')
		return skip_string(p, end);
	if (p < end && *p != '{' && *p != '[') {
		while (p < end && !strchr(",]} \t\r\n", *p))
			p++;
		return p;
	}
	while (p < end) {
		if (*p == '"') {
			p = skip_string(p, end);
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			depth--;
		p++;
		if (!depth)
			break;
	}
	return p;
}

/* Position of the value at @comps[0..n) below the value at @p. */
static const char *find_path(const char *p, const char *end,
			     const struct comp *comps, int n)
{
	int i;

	p = skip_ws(p, end);
	if (!n || p >= end)
		return p;
	if (comps->key && *p == '{') {
		size_t klen = strlen(comps->key);

		p = skip_ws(p + 1, end);
		while (p < end && *p == '"') {
			const char *k = p + 1, *v;

			p = skip_string(p, end);
			v = skip_ws(p, end);
			if (v < end && *v == ':')
				v = skip_ws(v + 1, end);
			if ((size_t)(p - 1 - k) == klen &&
			    !memcmp(k, comps->key, klen))
				return find_path(v, end, comps + 1, n - 1);
			p = skip_ws(skip_value(v, end), end);
			if (p < end && *p == ',')
				p = skip_ws(p + 1, end);
		}
		return NULL;
	}
	if (!comps->key && *p == '[') {
		p = skip_ws(p + 1, end);
		for (i = 0; p < end && *p != ']'; i++) {
			if (i == comps->idx)
				return find_path(p, end, comps + 1, n - 1);
			p = skip_ws(skip_value(p, end), end);
			if (p < end && *p == ',')
				p = skip_ws(p + 1, end);
		}
	}
	return NULL;
}

static void locate(const struct pctx *c, int *line, int *col)
{
	const char *end = c->text + c->len, *pos = NULL, *p;
	int depth;

	/* The deepest prefix of the path that is found. */
	for (depth = c->depth; depth >= 0 && !pos; depth--)
		pos = find_path(c->text, end, c->path, depth);
	if (!pos)
		pos = c->text;
	*line = 1;
	*col = 1;
	for (p = c->text; p < pos; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static void format_path(const struct pctx *c, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->depth && off < len; i++) {
		if (c->path[i].key)
			off += snprintf(buf + off, len - off, "%s%s",
					i ? "." : "", c->path[i].key);
		else
			off += snprintf(buf + off, len - off, "[%d]",
					c->path[i].idx);
	}
}

__printf(2, 3)
static int fail(struct pctx *c, const char *fmt, ...)
{
	char msg[512], path[256];
	int line, col;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	locate(c, &line, &col);
	format_path(c, path, sizeof(path));
	if (path[0])
		snprintf(c->err, c->errlen, "%s:%d:%d: %s: %s", c->file, line,
			 col, path, msg);
	else
		snprintf(c->err, c->errlen, "%s:%d:%d: %s", c->file, line,
			 col, msg);
	return -1;
}

static void push_key(struct pctx *c, const char *key)
{
	if (c->depth < MAX_DEPTH) {
		c->path[c->depth].key = key;
		c->path[c->depth].idx = 0;
	}
	c->depth++;
}

static void push_idx(struct pctx *c, int idx)
{
	if (c->depth < MAX_DEPTH) {
		c->path[c->depth].key = NULL;
		c->path[c->depth].idx = idx;
	}
	c->depth++;
}

static void pop(struct pctx *c)
{
	c->depth--;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* ---- typed getters: each pushes the key for its messages ---- */

static int check_keys(struct pctx *c, json_t *obj, const char *const *keys)
{
	const char *key, *const *k;
	char list[256];
	size_t off = 0;
	json_t *v;

	json_object_foreach(obj, key, v) {
		for (k = keys; *k; k++)
			if (!strcmp(*k, key))
				break;
		if (*k)
			continue;
		for (k = keys; *k && off < sizeof(list); k++)
			off += snprintf(list + off, sizeof(list) - off, "%s%s",
					k == keys ? "" : ", ", *k);
		push_key(c, key);
		return fail(c, "unknown key (known: %s)", list);
	}
	return 0;
}

static int get_uint(struct pctx *c, json_t *obj, const char *key,
		    unsigned long long min, unsigned long long max,
		    bool required, unsigned long long *out)
{
	json_t *v = json_object_get(obj, key);
	json_int_t n;
	int ret = 0;

	if (!v) {
		if (required)
			return fail(c, "missing key \"%s\"", key);
		return 0;
	}
	push_key(c, key);
	if (!json_is_integer(v)) {
		ret = fail(c, "expected an integer, got %s", type_name(v));
	} else {
		n = json_integer_value(v);
		if (n < 0 || (unsigned long long)n < min ||
		    (unsigned long long)n > max)
			ret = fail(c, "%lld is out of range %llu..%llu",
				   (long long)n, min, max);
		else
			*out = n;
	}
	pop(c);
	return ret;
}

static int get_uint32(struct pctx *c, json_t *obj, const char *key,
		      unsigned int min, unsigned int max, bool required,
		      unsigned int *out)
{
	unsigned long long v = *out;

	if (get_uint(c, obj, key, min, max, required, &v))
		return -1;
	*out = v;
	return 0;
}

static int get_double(struct pctx *c, json_t *obj, const char *key,
		      double min, double max, bool *present, double *out)
{
	json_t *v = json_object_get(obj, key);
	int ret = 0;
	double d;

	if (!v)
		return 0;
	push_key(c, key);
	if (!json_is_number(v)) {
		ret = fail(c, "expected a number, got %s", type_name(v));
	} else {
		d = json_number_value(v);
		if (!isfinite(d) || d < min || d > max) {
			ret = fail(c, "%g is out of range %g..%g", d, min, max);
		} else {
			*out = d;
			if (present)
				*present = true;
		}
	}
	pop(c);
	return ret;
}

static int get_bool(struct pctx *c, json_t *obj, const char *key, bool *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return 0;
	if (!json_is_boolean(v)) {
		push_key(c, key);
		fail(c, "expected true or false, got %s", type_name(v));
		pop(c);
		return -1;
	}
	*out = json_is_true(v);
	return 0;
}

/*
 * Words that go into the plan: no spaces, no '=', and what guest/gplan.c
 * accepts. NAME_CHARS for names (sysctl keys, compressors, values of
 * fixed lists), VALUE_CHARS for values written to /proc or /sys.
 */
#define NAME_CHARS "_.-"
#define VALUE_CHARS "_.:+-,"

static bool plan_word(const char *s, const char *extra)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

/* @word: NULL for any text, else the characters allowed beside alnum */
static int get_string(struct pctx *c, json_t *obj, const char *key,
		      char *buf, size_t len, bool required, const char *word)
{
	json_t *v = json_object_get(obj, key);
	int ret = 0;
	const char *s;

	if (!v) {
		if (required)
			return fail(c, "missing key \"%s\"", key);
		return 0;
	}
	push_key(c, key);
	if (!json_is_string(v)) {
		ret = fail(c, "expected a string, got %s", type_name(v));
		goto out;
	}
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v)) {
		ret = fail(c, "contains a NUL character");
	} else if (strlen(s) >= len) {
		ret = fail(c, "longer than %zu characters", len - 1);
	} else if (word && !plan_word(s, word)) {
		ret = fail(c, "\"%s\" must be one word of letters, digits and %s",
			   s, word);
	} else {
		memcpy(buf, s, strlen(s) + 1);
	}
out:
	pop(c);
	return ret;
}

static int one_of(struct pctx *c, const char *key, const char *val,
		  const char *const *allowed)
{
	const char *const *a;
	char list[256];
	size_t off = 0;

	for (a = allowed; *a; a++)
		if (!strcmp(*a, val))
			return 0;
	for (a = allowed; *a && off < sizeof(list); a++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s",
				a == allowed ? "" : ", ", *a);
	push_key(c, key);
	fail(c, "\"%s\" is not one of: %s", val, list);
	pop(c);
	return -1;
}

/* @val: one of the NULL-terminated @names, its index in @out */
static int one_of_enum(struct pctx *c, const char *key, const char *val,
		       const char *const *names, int *out)
{
	int i;

	if (one_of(c, key, val, names))
		return -1;
	for (i = 0; strcmp(names[i], val); i++)
		;
	*out = i;
	return 0;
}

/* The fault kinds and io_error ops (common/planspec.h), NULL-terminated. */
static const char *const *fault_names(const char **names)
{
	int i;

	for (i = 0; i < PLAN_FAULTS; i++)
		names[i] = plan_fault_name(i);
	names[i] = NULL;
	return names;
}

static const char *const *fault_op_names(const char **names)
{
	int i;

	for (i = 0; i < PLAN_FAULT_OPS; i++)
		names[i] = plan_fault_op_name(i);
	names[i] = NULL;
	return names;
}

/* "type": one of the plan's backends (common/planspec.h) */
static int one_of_backends(struct pctx *c, const char *val, int *out)
{
	const char *names[PLAN_BACKENDS + 1];
	int b;

	for (b = 0; b < PLAN_BACKENDS; b++)
		names[b] = plan_backend_name(b);
	names[b] = NULL;
	if (one_of(c, "type", val, names))
		return -1;
	*out = plan_backend_parse(val);
	return 0;
}

static int get_object(struct pctx *c, json_t *obj, const char *key,
		      json_t **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_object(v)) {
		push_key(c, key);
		fail(c, "expected an object, got %s", type_name(v));
		pop(c);
		return -1;
	}
	*out = v;
	return 0;
}

static int get_array(struct pctx *c, json_t *obj, const char *key,
		     size_t min, size_t max, json_t **out)
{
	json_t *v = json_object_get(obj, key);
	int ret = 0;

	*out = NULL;
	if (!v)
		return 0;
	push_key(c, key);
	if (!json_is_array(v))
		ret = fail(c, "expected an array, got %s", type_name(v));
	else if (json_array_size(v) < min || json_array_size(v) > max)
		ret = fail(c, "needs %zu to %zu entries, has %zu", min, max,
			   json_array_size(v));
	else
		*out = v;
	pop(c);
	return ret;
}

/* ---- the sections ---- */

static int fit_problem(const struct scenario *s, unsigned int memory_mb,
		       int *swap_idx, char *msg, size_t len);

static int parse_kernels(struct pctx *c, struct scenario *s, json_t *root)
{
	const char *why, *name;
	json_t *arr, *v;
	size_t i;

	s->nkernels = 2;
	strcpy(s->kernels[0], "baseline");
	strcpy(s->kernels[1], SCN_PATCHED);
	if (get_array(c, root, "kernels", 1, SCN_MAX_KERNELS, &arr))
		return -1;
	if (!arr)
		return 0;
	s->nkernels = 0;
	push_key(c, "kernels");
	json_array_foreach(arr, i, v) {
		push_idx(c, i);
		if (!json_is_string(v))
			return fail(c, "expected a kernel name (\"baseline\", \"patched\" or a variant under <workdir>/kernels/), got %s",
				    type_name(v));
		name = json_string_value(v);
		why = kernel_name_problem(name);
		if (why)
			return fail(c, "\"%s\" %s", name, why);
		if (scn_kernel_index(s, name) >= 0)
			return fail(c, "\"%s\" is listed twice", name);
		snprintf(s->kernels[s->nkernels++], SCN_KERNEL_MAX, "%s",
			 name);
		pop(c);
	}
	pop(c);
	return 0;
}

static int parse_sysctl(struct pctx *c, struct scenario *s, json_t *root)
{
	const char *key;
	json_t *obj, *v;
	int ret = 0;

	if (get_object(c, root, "sysctl", &obj))
		return -1;
	if (!obj)
		return 0;
	push_key(c, "sysctl");
	json_object_foreach(obj, key, v) {
		struct scn_sysctl *sc = &s->sysctl[s->nsysctl];

		push_key(c, key);
		if (s->nsysctl >= SCN_MAX_SYSCTL) {
			ret = fail(c, "more than %d sysctls", SCN_MAX_SYSCTL);
			break;
		}
		if (!plan_word(key, NAME_CHARS) ||
		    strlen(key) >= sizeof(sc->key) || strstr(key, "..") ||
		    key[0] == '.' || key[strlen(key) - 1] == '.') {
			ret = fail(c, "not a sysctl name like vm.swappiness");
			break;
		}
		strcpy(sc->key, key);
		if (json_is_integer(v)) {
			snprintf(sc->value, sizeof(sc->value), "%lld",
				 (long long)json_integer_value(v));
		} else if (json_is_string(v) &&
			   strlen(json_string_value(v)) < sizeof(sc->value) &&
			   plan_word(json_string_value(v), VALUE_CHARS)) {
			strcpy(sc->value, json_string_value(v));
		} else {
			ret = fail(c, "expected an integer or a one-word string, got %s",
				   type_name(v));
			break;
		}
		s->nsysctl++;
		pop(c);
	}
	if (ret)
		return ret;
	pop(c);
	return 0;
}

/*
 * "mthp": {"<KiB>": "always" | "inherit" | "madvise" | "never"}: the
 * policy of each mTHP size (common/planspec.h), sizes in KiB as keys.
 */
static int parse_mthp(struct pctx *c, struct scenario *s, json_t *root)
{
	const char *key, *val, *p;
	unsigned long long kb;
	json_t *obj, *v;

	if (get_object(c, root, "mthp", &obj))
		return -1;
	if (!obj)
		return 0;
	push_key(c, "mthp");
	if (s->kernel_line[0] && kline_before(s->kernel_line,
					      PLAN_MTHP_LINE_MAJOR,
					      PLAN_MTHP_LINE_MINOR))
		return fail(c, "kernel line %s has no per-size mTHP (%d.%d and later): give \"kernel_line\": \"6.12\"",
			    s->kernel_line, PLAN_MTHP_LINE_MAJOR,
			    PLAN_MTHP_LINE_MINOR);
	json_object_foreach(obj, key, v) {
		push_key(c, key);
		for (p = key; isdigit((unsigned char)*p); p++)
			;
		kb = *key && !*p && p - key < 6 ? strtoull(key, NULL, 10) : 0;
		if (!plan_mthp_size_ok(kb))
			return fail(c, "not an mTHP size: a size in KiB, a power of two from %d to %d (\"64\")",
				    PLAN_MTHP_KB_MIN, PLAN_MTHP_KB_MAX);
		if (s->nmthp >= SCN_MAX_MTHP)
			return fail(c, "more than %d mTHP sizes", SCN_MAX_MTHP);
		val = json_string_value(v);
		if (!val || plan_mthp_policy_parse(val) < 0)
			return fail(c, "expected \"always\", \"inherit\", \"madvise\" or \"never\"");
		s->mthp[s->nmthp].size_kb = (unsigned int)kb;
		snprintf(s->mthp[s->nmthp].enabled,
			 sizeof(s->mthp[s->nmthp].enabled), "%s", val);
		s->nmthp++;
		pop(c);
	}
	pop(c);
	return 0;
}

static int parse_thp_zswap(struct pctx *c, struct scenario *s, json_t *root)
{
	static const char *const thp_keys[] = { "enabled", "defrag", NULL };
	static const char *const thp_en[] = {
		"always", "madvise", "never", NULL };
	static const char *const thp_df[] = {
		"always", "defer", "defer+madvise", "madvise", "never", NULL };
	static const char *const zs_keys[] = {
		"enabled", "compressor", "max_pool_percent",
		"accept_threshold_percent", NULL };
	json_t *obj;
	bool b;

	s->zswap_enabled = -1;
	if (get_object(c, root, "thp", &obj))
		return -1;
	if (obj) {
		push_key(c, "thp");
		if (check_keys(c, obj, thp_keys) ||
		    get_string(c, obj, "enabled", s->thp_enabled,
			       sizeof(s->thp_enabled), false, VALUE_CHARS) ||
		    (s->thp_enabled[0] &&
		     one_of(c, "enabled", s->thp_enabled, thp_en)) ||
		    get_string(c, obj, "defrag", s->thp_defrag,
			       sizeof(s->thp_defrag), false, VALUE_CHARS) ||
		    (s->thp_defrag[0] &&
		     one_of(c, "defrag", s->thp_defrag, thp_df)))
			return -1;
		pop(c);
	}
	if (parse_mthp(c, s, root))
		return -1;
	if (get_object(c, root, "zswap", &obj))
		return -1;
	if (obj) {
		push_key(c, "zswap");
		b = false;
		if (check_keys(c, obj, zs_keys) ||
		    get_bool(c, obj, "enabled", &b) ||
		    get_string(c, obj, "compressor", s->zswap_compressor,
			       sizeof(s->zswap_compressor), false,
			       NAME_CHARS) ||
		    get_uint32(c, obj, "max_pool_percent", 1, 100, false,
			       &s->zswap_max_pool_percent) ||
		    get_uint32(c, obj, "accept_threshold_percent", 1, 100,
			       false, &s->zswap_accept_percent))
			return -1;
		if (json_object_get(obj, "enabled"))
			s->zswap_enabled = b;
		pop(c);
	}
	return 0;
}

/* The keys of a swap backend that only one type takes. */
static int swap_only_for(struct pctx *c, json_t *o, enum plan_backend type)
{
	static const struct {
		const char *key;
		enum plan_backend type;
		const char *msg;
	} only[] = {
		{ "comp", SWAP_ZRAM, "only zram has a compressor" },
		{ "mem_limit_mb", SWAP_ZRAM, "only zram has a mem_limit" },
		{ "vers", SWAP_NFSFILE, "only nfsfile has an NFS version" },
		{ "nonrot", SWAP_BLK,
		  "only blk disks can be marked non-rotational" },
		{ "disk_mb", SWAP_EXT4FILE,
		  "only ext4file has a disk_mb (blk disks are size_mb)" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(only); i++) {
		if (type == only[i].type || !json_object_get(o, only[i].key))
			continue;
		push_key(c, only[i].key);
		return fail(c, "%s", only[i].msg);
	}
	return 0;
}

/* The kinds of which a scenario may hold one: zram, nfsfile and brd. */
static int only_one(struct pctx *c, const struct scn_swap *sw,
		    unsigned int *seen)
{
	if (sw->type != SWAP_ZRAM && sw->type != SWAP_NFSFILE &&
	    sw->type != SWAP_BRD)
		return 0;
	if (*seen & (1u << sw->type))
		return fail(c, "only one %s backend per scenario%s",
			    plan_backend_name(sw->type),
			    sw->type == SWAP_BRD ?
			    " (brd's size is a boot parameter of all its devices)" :
			    "");
	*seen |= 1u << sw->type;
	return 0;
}

static int parse_swap_one(struct pctx *c, struct scenario *s, json_t *o,
			  unsigned int *seen)
{
	static const char *const keys[] = {
		"type", "size_mb", "prio", "comp", "vers", "disk_mb", "nonrot",
		"mem_limit_mb", NULL };
	static const char *const vers[] = { "4.0", "4.1", "4.2", NULL };
	struct scn_swap *sw = &s->swap[s->nswap];
	char type[16] = "";
	json_t *prio;
	int t;

	if (!json_is_object(o))
		return fail(c, "expected an object, got %s", type_name(o));
	if (check_keys(c, o, keys) ||
	    get_string(c, o, "type", type, sizeof(type), true,
		       NAME_CHARS) ||
	    one_of_backends(c, type, &t))
		return -1;
	sw->type = t;
	sw->prio = -1;
	if (get_uint32(c, o, "size_mb", 1, PLAN_MB_MAX, true, &sw->size_mb))
		return -1;
	prio = json_object_get(o, "prio");
	if (prio) {
		push_key(c, "prio");
		if (!json_is_integer(prio))
			return fail(c, "expected an integer, got %s",
				    type_name(prio));
		if (json_integer_value(prio) < -1 ||
		    json_integer_value(prio) > PLAN_PRIO_MAX)
			return fail(c, "%lld is out of range -1..%d",
				    (long long)json_integer_value(prio),
				    PLAN_PRIO_MAX);
		sw->prio = json_integer_value(prio);
		pop(c);
	}
	if (swap_only_for(c, o, sw->type) ||
	    get_uint32(c, o, "mem_limit_mb", 1, PLAN_MB_MAX, false,
		       &sw->mem_limit_mb) ||
	    get_bool(c, o, "nonrot", &sw->nonrot))
		return -1;
	if (get_string(c, o, "comp", sw->comp, sizeof(sw->comp), false,
		       NAME_CHARS))
		return -1;
	strcpy(sw->vers, "4.1");
	if (get_string(c, o, "vers", sw->vers, sizeof(sw->vers), false,
		       NAME_CHARS) ||
	    one_of(c, "vers", sw->vers, vers))
		return -1;
	/* ext4 metadata, journal and the file: leave some room. */
	sw->disk_mb = sw->size_mb + sw->size_mb / 16 + 64;
	if (get_uint32(c, o, "disk_mb", 1, 1048576 * 2, false, &sw->disk_mb))
		return -1;
	if (sw->type == SWAP_EXT4FILE &&
	    sw->disk_mb < sw->size_mb + sw->size_mb / 32 + 16) {
		push_key(c, "disk_mb");
		return fail(c, "%u MiB is too small for an ext4 file system holding a %u MiB file",
			    sw->disk_mb, sw->size_mb);
	}
	if (only_one(c, sw, seen))
		return -1;
	if (sw->type == SWAP_BLK || sw->type == SWAP_EXT4FILE) {
		snprintf(sw->dev, sizeof(sw->dev), "vd%c", 'a' + s->ndisks);
		s->ndisks++;
	}
	return 0;
}

static int parse_swap(struct pctx *c, struct scenario *s, json_t *root)
{
	unsigned int seen = 0;
	json_t *arr, *v;
	size_t i;

	if (!json_object_get(root, "swap"))
		return fail(c, "missing key \"swap\"");
	if (get_array(c, root, "swap", 1, SCN_MAX_SWAP, &arr))
		return -1;
	push_key(c, "swap");
	json_array_foreach(arr, i, v) {
		push_idx(c, i);
		if (parse_swap_one(c, s, v, &seen))
			return -1;
		s->nswap++;
		pop(c);
	}
	pop(c);
	return 0;
}

static int parse_phase(struct pctx *c, struct scn_phase *ph, json_t *v)
{
	static const char *const pkeys[] = {
		"name", "mb", "order", "frac", "wait_writeback", "drain_lru",
		NULL };
	static const char *const orders[] = { "seq", "random", NULL };
	char name[16] = "", order[16] = "seq";
	bool has_frac = false;
	json_t *o = NULL;
	int k;

	if (json_is_string(v)) {
		snprintf(name, sizeof(name), "%s", json_string_value(v));
	} else if (json_is_object(v)) {
		o = v;
		if (check_keys(c, o, pkeys) ||
		    get_string(c, o, "name", name, sizeof(name), true,
			       NAME_CHARS))
			return -1;
	} else {
		return fail(c, "expected a phase name or an object, got %s",
			    type_name(v));
	}
	k = plan_phase_parse(name);
	if (k < 0) {
		char known[128] = "";
		int i;

		for (i = 0; i < PLAN_PHASES; i++)
			snprintf(known + strlen(known),
				 sizeof(known) - strlen(known), "%s%s",
				 i ? ", " : "", plan_phase_name(i));
		if (o)
			push_key(c, "name");
		return fail(c, "unknown phase \"%s\" (known: %s)", name,
			    known);
	}
	ph->kind = k;
	ph->frac = PLAN_REWRITE_FRAC_DEF;
	if (k == PHASE_PRESSURE && !o)
		return fail(c, "pressure needs {\"name\": \"pressure\", \"mb\": N}");
	if (!o)
		return 0;
	if (json_object_get(o, "wait_writeback") && k != PHASE_PAGEOUT) {
		push_key(c, "wait_writeback");
		return fail(c, "phase %s takes no \"wait_writeback\"", name);
	}
	if (json_object_get(o, "drain_lru") && k != PHASE_PAGEOUT) {
		push_key(c, "drain_lru");
		return fail(c, "phase %s takes no \"drain_lru\"", name);
	}
	if ((json_object_get(o, "mb") && k != PHASE_PRESSURE) ||
	    (json_object_get(o, "order") && k != PHASE_READ) ||
	    (json_object_get(o, "frac") && k != PHASE_REWRITE)) {
		const char *bad = json_object_get(o, "mb") &&
			k != PHASE_PRESSURE ? "mb" :
			json_object_get(o, "order") && k != PHASE_READ ?
			"order" : "frac";

		push_key(c, bad);
		return fail(c, "phase %s takes no \"%s\"", name, bad);
	}
	if (get_uint32(c, o, "mb", 1, PLAN_MB_MAX, k == PHASE_PRESSURE,
		       &ph->mb) ||
	    get_string(c, o, "order", order, sizeof(order), false,
		       NAME_CHARS) ||
	    one_of(c, "order", order, orders) ||
	    get_double(c, o, "frac", 0.0, 1.0, &has_frac, &ph->frac) ||
	    get_bool(c, o, "wait_writeback", &ph->wait_writeback) ||
	    get_bool(c, o, "drain_lru", &ph->drain_lru))
		return -1;
	if (has_frac && ph->frac <= 0.0) {
		push_key(c, "frac");
		return fail(c, "must be greater than 0");
	}
	ph->random = !strcmp(order, "random");
	return 0;
}

/* A string of any bytes but NUL and control characters, into @buf. */
static int text_value(struct pctx *c, json_t *v, char *buf, size_t len)
{
	const char *s, *p;

	if (!json_is_string(v))
		return fail(c, "expected a string, got %s", type_name(v));
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v))
		return fail(c, "contains a NUL character");
	if (!*s)
		return fail(c, "empty");
	if (strlen(s) >= len)
		return fail(c, "longer than %zu characters", len - 1);
	for (p = s; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			return fail(c, "contains a control character");
	memcpy(buf, s, strlen(s) + 1);
	return 0;
}

static int string_list(struct pctx *c, json_t *o, const char *key,
		       size_t min, size_t max, char (*dst)[SCN_STR_MAX],
		       int *n)
{
	json_t *arr, *v;
	size_t i;

	if (min && !json_object_get(o, key))
		return fail(c, "missing key \"%s\"", key);
	if (get_array(c, o, key, min, max, &arr))
		return -1;
	if (!arr)
		return 0;
	push_key(c, key);
	json_array_foreach(arr, i, v) {
		push_idx(c, i);
		if (text_value(c, v, dst[i], SCN_STR_MAX))
			return -1;
		(*n)++;
		pop(c);
	}
	pop(c);
	return 0;
}

/*
 * A group's "io_max": {"rbps", "wbps", "riops", "wiops"}, at least one,
 * on the disks of the swap devices, so there must be one on a block
 * device (not only NFS swap files).
 */
static int parse_io_max(struct pctx *c, const struct scenario *s,
			struct scn_group *g, json_t *o)
{
	static const char *const keys[] = {
		"rbps", "wbps", "riops", "wiops", NULL };
	bool any = false;
	json_t *io;
	int k;

	if (get_object(c, o, "io_max", &io))
		return -1;
	if (!io)
		return 0;
	push_key(c, "io_max");
	if (check_keys(c, io, keys))
		return -1;
	for (k = 0; k < PLAN_IO_LIMITS; k++) {
		if (get_uint(c, io, plan_io_limit_name(k),
			     plan_io_limit_min(k), plan_io_limit_max(k),
			     false, &g->io_max[k]))
			return -1;
		any |= g->io_max[k] != 0;
	}
	if (!any)
		return fail(c, "names no limit (rbps, wbps, riops or wiops)");
	for (k = 0; k < s->nswap; k++)
		if (s->swap[k].type != SWAP_NFSFILE)
			break;
	if (k == s->nswap)
		return fail(c, "no swap device on a block device to limit (only nfsfile)");
	pop(c);
	return 0;
}

static int parse_group(struct pctx *c, struct scenario *s, json_t *o)
{
	static const char *const keys[] = {
		"name", "argv", "cwd", "env", "memory_max_mb",
		"memory_high_mb", "swap_max_mb", "cpus", "cpu_max_pct",
		"cpu_max_period_ms", "io_max", "outputs", NULL };
	struct scn_group *g = &s->group[s->ngroups];
	const char *key;
	json_t *env, *v;
	int k;

	if (!json_is_object(o))
		return fail(c, "expected an object, got %s", type_name(o));
	if (check_keys(c, o, keys) ||
	    get_string(c, o, "name", g->name, sizeof(g->name), true,
		       NAME_CHARS))
		return -1;
	for (k = 0; k < s->ngroups; k++)
		if (!strcmp(s->group[k].name, g->name)) {
			push_key(c, "name");
			return fail(c, "\"%s\" names two groups", g->name);
		}
	if (g->name[0] == '.') {
		push_key(c, "name");
		return fail(c, "must not start with '.'");
	}
	if (string_list(c, o, "argv", 1, SCN_MAX_ARGS, g->args, &g->nargs) ||
	    string_list(c, o, "outputs", 0, SCN_MAX_OUT, g->out, &g->nout) ||
	    get_uint32(c, o, "memory_max_mb", 1, 1048576, false,
		       &g->memory_max_mb) ||
	    get_uint32(c, o, "memory_high_mb", 1, 1048576, false,
		       &g->memory_high_mb) ||
	    get_uint32(c, o, "swap_max_mb", 0, 1048576, false,
		       &g->swap_max_mb) ||
	    get_uint32(c, o, "cpus", 1, 64, false, &g->cpus) ||
	    get_uint32(c, o, "cpu_max_pct", PLAN_CPU_MAX_PCT_MIN,
		       PLAN_CPU_MAX_PCT_MAX, false, &g->cpu_max_pct) ||
	    get_uint32(c, o, "cpu_max_period_ms", PLAN_CPU_PERIOD_MS_MIN,
		       PLAN_CPU_PERIOD_MS_MAX, false, &g->cpu_max_period_ms) ||
	    parse_io_max(c, s, g, o))
		return -1;
	g->has_swap_max = json_object_get(o, "swap_max_mb") != NULL;
	if (json_object_get(o, "cwd")) {
		push_key(c, "cwd");
		if (text_value(c, json_object_get(o, "cwd"), g->cwd,
			       sizeof(g->cwd)))
			return -1;
		if (g->cwd[0] != '/' && g->cwd[0] != '@')
			return fail(c, "\"%s\" is not an absolute path",
				    g->cwd);
		pop(c);
	}
	if (get_object(c, o, "env", &env))
		return -1;
	if (env) {
		push_key(c, "env");
		json_object_foreach(env, key, v) {
			char val[SCN_STR_MAX];

			push_key(c, key);
			if (g->nenv >= SCN_MAX_ENV)
				return fail(c, "more than %d variables",
					    SCN_MAX_ENV);
			if (!plan_word(key, "_"))
				return fail(c, "not a variable name");
			if (text_value(c, v, val, sizeof(val)) ||
			    snprintf(g->env[g->nenv], SCN_STR_MAX, "%s=%s",
				     key, val) >= SCN_STR_MAX)
				return fail(c, "KEY=VALUE longer than %d characters",
					    SCN_STR_MAX - 1);
			g->nenv++;
			pop(c);
		}
		pop(c);
	}
	if (g->memory_high_mb && g->memory_max_mb &&
	    g->memory_high_mb > g->memory_max_mb) {
		push_key(c, "memory_high_mb");
		return fail(c, "%u is above memory_max_mb %u",
			    g->memory_high_mb, g->memory_max_mb);
	}
	if (s->cpus && g->cpus > s->cpus) {
		push_key(c, "cpus");
		return fail(c, "%u is more than the guest's %u CPUs", g->cpus,
			    s->cpus);
	}
	if (g->cpu_max_pct &&
	    g->cpu_max_pct > 100 * (g->cpus ? g->cpus : s->cpus ? s->cpus : 64)) {
		push_key(c, "cpu_max_pct");
		return fail(c, "%u is more than 100 per CPU of the group's %u",
			    g->cpu_max_pct, g->cpus ? g->cpus :
			    s->cpus ? s->cpus : 64);
	}
	if (g->cpu_max_period_ms && !g->cpu_max_pct) {
		push_key(c, "cpu_max_period_ms");
		return fail(c, "needs cpu_max_pct (the quota)");
	}
	if (g->cpu_max_period_ms && (uint64_t)g->cpu_max_pct *
	    g->cpu_max_period_ms * 10 < PLAN_CPU_QUOTA_US_MIN) {
		push_key(c, "cpu_max_period_ms");
		return fail(c, "%u%% of %u ms is a quota under 1 ms",
			    g->cpu_max_pct, g->cpu_max_period_ms);
	}
	return 0;
}

static int parse_command(struct pctx *c, struct scenario *s, json_t *w)
{
	static const char *const keys[] = {
		"reference", "kbuild", "groups", NULL };
	json_t *o, *arr, *v;
	size_t i;
	bool any_out = false;

	if (json_object_size(w) != 1) {
		const char *key;

		json_object_foreach(w, key, v)
			if (strcmp(key, "command"))
				break;
		push_key(c, key);
		return fail(c, "a command workload takes no other key");
	}
	if (get_object(c, w, "command", &o))
		return -1;
	push_key(c, "command");
	s->command = true;
	s->reference = true;
	if (check_keys(c, o, keys) ||
	    get_bool(c, o, "reference", &s->reference) ||
	    get_string(c, o, "kbuild", s->kbuild, sizeof(s->kbuild), false,
		       NAME_CHARS) ||
	    (s->kbuild[0] && one_of(c, "kbuild", s->kbuild, kbuild_configs)))
		return -1;
	if (!json_object_get(o, "groups"))
		return fail(c, "missing key \"groups\"");
	if (get_array(c, o, "groups", 1, SCN_MAX_GROUPS, &arr))
		return -1;
	push_key(c, "groups");
	json_array_foreach(arr, i, v) {
		push_idx(c, i);
		if (parse_group(c, s, v))
			return -1;
		any_out |= s->group[s->ngroups].nout > 0;
		s->ngroups++;
		pop(c);
	}
	pop(c);
	if (s->reference && !any_out)
		return fail(c, "\"reference\": true needs a group with \"outputs\"");
	pop(c);
	pop(c);
	return 0;
}

static int parse_workload(struct pctx *c, struct scenario *s, json_t *root)
{
	static const char *const keys[] = {
		"seed", "size_mb", "size_ram", "shmem_mb", "thp", "phases",
		"verify_seed", "unique_words", "command", NULL };
	unsigned long long seed = PLAN_SEED_DEF, vseed = 0;
	bool has_ram = false;
	json_t *w, *arr, *v;
	size_t i;

	if (!json_object_get(root, "workload"))
		return fail(c, "missing key \"workload\"");
	if (get_object(c, root, "workload", &w))
		return -1;
	push_key(c, "workload");
	if (json_object_get(w, "command"))
		return parse_command(c, s, w);
	if (check_keys(c, w, keys) ||
	    get_uint(c, w, "seed", 0, PLAN_SEED_MAX, false, &seed) ||
	    get_uint32(c, w, "size_mb", 1, PLAN_MB_MAX, false, &s->size_mb) ||
	    get_double(c, w, "size_ram", PLAN_RAM_MIN, PLAN_RAM_MAX, &has_ram,
		       &s->size_ram) ||
	    get_uint32(c, w, "shmem_mb", 0, PLAN_MB_MAX, false, &s->shmem_mb) ||
	    get_uint32(c, w, "unique_words", 1, PLAN_UNIQUE_WORDS_MAX, false,
		       &s->unique_words) ||
	    get_bool(c, w, "thp", &s->wl_thp) ||
	    get_uint(c, w, "verify_seed", 0, PLAN_SEED_MAX, false,
		     &vseed))
		return -1;
	s->seed = seed;
	if (json_object_get(w, "verify_seed")) {
		s->has_verify_seed = true;
		s->verify_seed = vseed;
	}
	if (!!s->size_mb == has_ram) {
		if (has_ram)
			push_key(c, "size_ram");
		return fail(c, "give exactly one of size_mb and size_ram");
	}
	if (!json_object_get(w, "phases"))
		return fail(c, "missing key \"phases\"");
	if (get_array(c, w, "phases", 1, SCN_MAX_PHASES, &arr))
		return -1;
	push_key(c, "phases");
	json_array_foreach(arr, i, v) {
		push_idx(c, i);
		if (parse_phase(c, &s->phase[i], v))
			return -1;
		if (!i && s->phase[i].kind != PHASE_FILL)
			return fail(c, "the first phase must be \"fill\"");
		if (i && s->phase[i].kind == PHASE_FILL)
			return fail(c, "\"fill\" only once, as the first phase");
		s->nphases++;
		pop(c);
	}
	pop(c);
	pop(c);
	return 0;
}

/* @key must name a registry metric */
static int metric_key(struct pctx *c, const char *key, const char *val)
{
	char list[1024];
	size_t off = 0;
	unsigned int i;

	if (metric_index(val) >= 0)
		return 0;
	for (i = 0; i < metric_count && off < sizeof(list); i++)
		off += snprintf(list + off, sizeof(list) - off, "%s%s",
				i ? ", " : "", metric_defs[i].key);
	if (key)
		push_key(c, key);
	fail(c, "\"%s\" is not a metric (swapctl metrics lists them: %s)",
	     val, list);
	if (key)
		pop(c);
	return -1;
}

static int expect_kernel(struct pctx *c, const struct scenario *s,
			 const char *key, const char *name)
{
	if (scn_kernel_index(s, name) >= 0)
		return 0;
	push_key(c, key);
	fail(c, "\"%s\" is not in \"kernels\"", name);
	pop(c);
	return -1;
}

static int parse_expect(struct pctx *c, struct scenario *s, json_t *root)
{
	static const char *const keys[] = {
		"metric", "kernel", "vs", "min", "max", "min_ratio",
		"max_ratio", NULL };
	json_t *arr, *o;
	char on[SCN_KERNEL_MAX];
	bool hmin_r, hmax_r;
	double min_r, max_r;
	size_t i;

	if (get_array(c, root, "expect", 0, SCN_MAX_EXPECT, &arr))
		return -1;
	if (!arr)
		return 0;
	push_key(c, "expect");
	json_array_foreach(arr, i, o) {
		struct scn_expect *e = &s->expect[i];

		push_idx(c, i);
		memset(e, 0, sizeof(*e));
		hmin_r = hmax_r = false;
		min_r = max_r = 0;
		if (!json_is_object(o))
			return fail(c, "expected an object, got %s",
				    type_name(o));
		strcpy(on, "each");
		if (check_keys(c, o, keys) ||
		    get_string(c, o, "metric", e->metric, sizeof(e->metric),
			       true, NAME_CHARS) ||
		    metric_key(c, "metric", e->metric) ||
		    get_string(c, o, "kernel", on, sizeof(on), false,
			       NAME_CHARS) ||
		    get_string(c, o, "vs", e->vs, sizeof(e->vs), false,
			       NAME_CHARS) ||
		    get_double(c, o, "min", -1e18, 1e18, &e->has_min,
			       &e->min) ||
		    get_double(c, o, "max", -1e18, 1e18, &e->has_max,
			       &e->max) ||
		    get_double(c, o, "min_ratio", 0, 1e9, &hmin_r, &min_r) ||
		    get_double(c, o, "max_ratio", 0, 1e9, &hmax_r, &max_r))
			return -1;
		if (strcmp(on, "each")) {
			if (expect_kernel(c, s, "kernel", on))
				return -1;
			snprintf(e->kernel, sizeof(e->kernel), "%s", on);
		}
		if (e->vs[0]) {
			if (expect_kernel(c, s, "vs", e->vs))
				return -1;
			if (!e->kernel[0]) {
				push_key(c, "vs");
				return fail(c, "needs a \"kernel\" to compare with \"%s\"",
					    e->vs);
			}
			if (!strcmp(e->kernel, e->vs)) {
				push_key(c, "vs");
				return fail(c, "compares \"%s\" with itself",
					    e->vs);
			}
			if (e->has_min || e->has_max)
				return fail(c, "with \"vs\" give \"min_ratio\"/\"max_ratio\", not \"min\"/\"max\"");
			if (!hmin_r && !hmax_r)
				return fail(c, "give \"min_ratio\", \"max_ratio\" or both");
			e->has_min = hmin_r;
			e->min = min_r;
			e->has_max = hmax_r;
			e->max = max_r;
		} else {
			if (hmin_r || hmax_r)
				return fail(c, "\"min_ratio\"/\"max_ratio\" need \"vs\"");
			if (!e->has_min && !e->has_max)
				return fail(c, "give \"min\", \"max\" or both");
		}
		if (e->has_min && e->has_max && e->min > e->max)
			return fail(c, "min %g is above max %g", e->min, e->max);
		s->nexpect++;
		pop(c);
	}
	pop(c);
	return 0;
}

static int parse_no_regression(struct pctx *c, struct scenario *s,
			       json_t *root)
{
	const struct metric_def *m;
	json_t *arr, *v;
	size_t i;
	int j;

	if (get_array(c, root, "no_regression", 0, SCN_MAX_NOREG, &arr))
		return -1;
	if (!arr)
		return 0;
	push_key(c, "no_regression");
	json_array_foreach(arr, i, v) {
		push_idx(c, i);
		if (!json_is_string(v))
			return fail(c, "expected a metric name, got %s",
				    type_name(v));
		if (metric_key(c, NULL, json_string_value(v)))
			return -1;
		m = metric_find(json_string_value(v));
		if (m->dir == METRIC_NEUTRAL)
			return fail(c, "\"%s\" is neutral (neither higher nor lower is better): it cannot regress",
				    m->key);
		for (j = 0; j < s->nnoreg; j++)
			if (!strcmp(s->no_regression[j], m->key))
				return fail(c, "\"%s\" is listed twice",
					    m->key);
		snprintf(s->no_regression[s->nnoreg++], SCN_METRIC_MAX, "%s",
			 m->key);
		pop(c);
	}
	pop(c);
	return 0;
}

static int parse_trigger(struct pctx *c, struct scn_fault *f, json_t *o)
{
	static const char *const keys[] = {
		"phase", "after_s", "after_swap_ios", NULL };
	unsigned long long v = 0;
	json_t *t;
	int n = 0;

	if (!json_object_get(o, "trigger"))
		return fail(c, "missing key \"trigger\" ({\"phase\": N}, {\"after_s\": S} or {\"after_swap_ios\": N})");
	if (get_object(c, o, "trigger", &t))
		return -1;
	push_key(c, "trigger");
	if (check_keys(c, t, keys))
		return -1;
	n = !!json_object_get(t, "phase") + !!json_object_get(t, "after_s") +
	    !!json_object_get(t, "after_swap_ios");
	if (n != 1)
		return fail(c, "give exactly one of \"phase\", \"after_s\" and \"after_swap_ios\"");
	if (json_object_get(t, "phase")) {
		f->trig = TRIG_PHASE;
		if (get_uint(c, t, "phase", 0, SCN_MAX_PHASES - 1, true, &v))
			return -1;
		f->at = (double)v;
	} else if (json_object_get(t, "after_s")) {
		f->trig = TRIG_AFTER_TIME;
		if (get_double(c, t, "after_s", 0, 86400, NULL, &f->at))
			return -1;
	} else {
		f->trig = TRIG_AFTER_SWAP_IOS;
		if (get_uint(c, t, "after_swap_ios", 0, 1ULL << 40, true, &v))
			return -1;
		f->at = (double)v;
	}
	pop(c);
	return 0;
}

/*
 * The members only some kinds take: op and slots (io_error), probability,
 * times and interval (io_error, slab_error), tasks, atomic_only and
 * caches (slab_error).
 */
static int only_for(struct pctx *c, json_t *o, enum plan_fault kind)
{
	static const struct {
		const char *key, *who;
		bool io, slab;
	} only[] = {
		{ "op", "io_error", true, false },
		{ "slots", "io_error", true, false },
		{ "probability", "io_error and slab_error", true, true },
		{ "times", "io_error and slab_error", true, true },
		{ "interval", "io_error and slab_error", true, true },
		{ "tasks", "slab_error", false, true },
		{ "atomic_only", "slab_error", false, true },
		{ "caches", "slab_error", false, true },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(only); i++) {
		if ((kind == FAULT_IO_ERROR && only[i].io) ||
		    (kind == FAULT_SLAB_ERROR && only[i].slab) ||
		    !json_object_get(o, only[i].key))
			continue;
		push_key(c, only[i].key);
		return fail(c, "only %s take%s \"%s\"", only[i].who,
			    strchr(only[i].who, ' ') ? "" : "s", only[i].key);
	}
	return 0;
}

/* slab_error's "caches": slab cache names, each once */
static int parse_slab_caches(struct pctx *c, struct scn_fault *f, json_t *o)
{
	json_t *arr, *v;
	size_t i;
	int j;

	if (get_array(c, o, "caches", 1, PLAN_SLAB_MAX_CACHES, &arr))
		return -1;
	if (!arr)
		return 0;
	push_key(c, "caches");
	json_array_foreach(arr, i, v) {
		const char *name = json_string_value(v);

		push_idx(c, i);
		if (!json_is_string(v))
			return fail(c, "expected a slab cache name (a string), got %s",
				    type_name(v));
		if (strlen(name) != json_string_length(v) ||
		    !plan_slab_cache_ok(name))
			return fail(c, "\"%.64s\" is not a slab cache name (1 to %d letters, digits, '_', '-', '.' and ':', as in /proc/slabinfo)",
				    name, PLAN_SLAB_CACHE_LEN);
		for (j = 0; j < f->ncaches; j++)
			if (!strcmp(f->caches[j], name))
				return fail(c, "\"%s\" is listed twice", name);
		snprintf(f->caches[f->ncaches++], sizeof(f->caches[0]), "%s",
			 name);
		pop(c);
	}
	pop(c);
	return 0;
}

/*
 * slab_error: failslab fails slab allocations (swapctl-scenario(5)
 * FAULTS). "probability" is required; "tasks" workload (default) or all;
 * "atomic_only" true (default) fails only allocations that may not
 * reclaim; "caches" limits it to those slab caches.
 */
static int parse_slab_error(struct pctx *c, struct scn_fault *f, json_t *o)
{
	const char *tnames[PLAN_SLAB_TASKS + 1];
	char tasks[16] = "workload";
	int i;

	for (i = 0; i < PLAN_SLAB_TASKS; i++)
		tnames[i] = plan_slab_tasks_name(i);
	tnames[i] = NULL;
	f->atomic_only = true;
	if (get_uint32(c, o, "probability", 1, 100, true, &f->probability) ||
	    get_uint(c, o, "times", 1, PLAN_SLAB_TIMES_MAX, false,
		     &f->times) ||
	    get_uint(c, o, "interval", 1, 1ULL << 32, false, &f->interval) ||
	    get_string(c, o, "tasks", tasks, sizeof(tasks), false,
		       NAME_CHARS) ||
	    one_of_enum(c, "tasks", tasks, tnames, &i) ||
	    get_bool(c, o, "atomic_only", &f->atomic_only))
		return -1;
	f->tasks = i;
	return parse_slab_caches(c, f, o);
}

static int parse_fault_one(struct pctx *c, struct scenario *s,
			   struct scn_fault *f, json_t *o)
{
	static const char *const keys[] = {
		"kind", "swap", "trigger", "duration_s", "until_phase", "op",
		"slots", "probability", "times", "interval", "period_ms",
		"tasks", "atomic_only", "caches", NULL };
	static const char *const skeys[] = { "first", "count", NULL };
	const char *knames[PLAN_FAULTS + 1], *onames[PLAN_FAULT_OPS + 1];
	char kind[16] = "", op[8] = "";
	unsigned long long v = 0;
	bool has_dur = false;
	json_t *slots;
	int k;

	if (!json_is_object(o))
		return fail(c, "expected an object, got %s", type_name(o));
	if (check_keys(c, o, keys) ||
	    get_string(c, o, "kind", kind, sizeof(kind), true, NAME_CHARS) ||
	    one_of_enum(c, "kind", kind, fault_names(knames), &k))
		return -1;
	f->kind = k;
	f->swap = -1;
	f->until_phase = -1;
	if (json_object_get(o, "until_phase")) {
		if (get_uint(c, o, "until_phase", 1, SCN_MAX_PHASES - 1, true,
			     &v))
			return -1;
		f->until_phase = (int)v;
	}
	if (json_object_get(o, "swap")) {
		if (get_uint(c, o, "swap", 0, SCN_MAX_SWAP - 1, true, &v))
			return -1;
		f->swap = (int)v;
	}
	if (parse_trigger(c, f, o) ||
	    get_double(c, o, "duration_s", 0, 86400, &has_dur,
		       &f->duration_s))
		return -1;
	if (f->until_phase >= 0 &&
	    ((f->kind != FAULT_IO_ERROR && f->kind != FAULT_SWAPOFF &&
	      f->kind != FAULT_SLAB_ERROR) ||
	     f->trig != TRIG_PHASE ||
	     f->until_phase <= f->at || f->until_phase >= s->nphases)) {
		push_key(c, "until_phase");
		return fail(c, "%s with a phase trigger ends at a later phase of the workload (%d phases)",
			    f->kind == FAULT_SLAB_ERROR ? "a slab_error" :
			    "an io_error or a swapoff", s->nphases);
	}
	if (f->until_phase >= 0 && f->kind == FAULT_SWAPOFF && has_dur) {
		push_key(c, "until_phase");
		return fail(c, "a swapoff ends at until_phase or after duration_s, not both");
	}
	if (f->trig == TRIG_PHASE && f->at >= s->nphases) {
		push_key(c, "trigger");
		push_key(c, "phase");
		return fail(c, "phase %.0f: the workload has %d phases (0-based)",
			    f->at, s->nphases);
	}
	/* which backend: the kinds that act on one need one */
	if (f->kind == FAULT_OOM || f->kind == FAULT_SLAB_ERROR ||
	    plan_fault_on_host(f->kind)) {
		if (f->swap >= 0) {
			push_key(c, "swap");
			return fail(c, "%s takes no \"swap\"", kind);
		}
	} else if (f->swap < 0) {
		return fail(c, "%s needs \"swap\" (the index of a swap backend)",
			    kind);
	} else if (f->swap >= s->nswap) {
		push_key(c, "swap");
		return fail(c, "swap %d: the scenario has %d swap backends",
			    f->swap, s->nswap);
	}
	if (plan_fault_on_host(f->kind) && !scn_has_nfs(s))
		return fail(c, "%s needs an nfsfile swap backend", kind);
	if ((f->kind == FAULT_NFS_STALL || f->kind == FAULT_NFS_RESTART ||
	     f->kind == FAULT_SWAP_CHURN) && f->duration_s <= 0) {
		if (has_dur)
			push_key(c, "duration_s");
		return fail(c, "%s needs a \"duration_s\" greater than 0",
			    kind);
	}
	if (f->kind == FAULT_OOM && has_dur) {
		push_key(c, "duration_s");
		return fail(c, "oom takes no \"duration_s\": it lasts until the OOM killer runs");
	}
	if (only_for(c, o, f->kind))
		return -1;
	if (f->kind != FAULT_SWAP_CHURN && json_object_get(o, "period_ms")) {
		push_key(c, "period_ms");
		return fail(c, "only swap_churn takes \"period_ms\"");
	}
	if (f->kind == FAULT_SWAP_CHURN &&
	    get_uint32(c, o, "period_ms", 10, 3600000, true, &f->period_ms))
		return -1;
	if (f->kind == FAULT_SLAB_ERROR)
		return parse_slab_error(c, f, o);
	if (f->kind != FAULT_IO_ERROR)
		return 0;

	if (get_string(c, o, "op", op, sizeof(op), true, NAME_CHARS) ||
	    one_of_enum(c, "op", op, fault_op_names(onames), &k))
		return -1;
	f->op = k;
	if (f->op != FOP_BOTH && s->swap[f->swap].type != SWAP_BLK) {
		push_key(c, "op");
		return fail(c, "op \"%s\" needs a blk backend (device-mapper under the swap partition); \"both\" also works on zram",
			    op);
	}
	if (f->op == FOP_BOTH && s->swap[f->swap].type != SWAP_BLK &&
	    s->swap[f->swap].type != SWAP_ZRAM) {
		push_key(c, "swap");
		return fail(c, "io_error needs a blk or zram backend");
	}
	if ((f->op == FOP_READ) != !!json_object_get(o, "slots")) {
		if (f->op != FOP_READ)
			push_key(c, "slots");
		return fail(c, f->op == FOP_READ ?
			    "op \"read\" needs \"slots\": {\"first\": N, \"count\": N} (the bad swap slots)" :
			    "only op \"read\" takes \"slots\"");
	}
	if ((f->op == FOP_BOTH) != !!json_object_get(o, "probability")) {
		if (f->op != FOP_BOTH)
			push_key(c, "probability");
		return fail(c, f->op == FOP_BOTH ?
			    "op \"both\" needs \"probability\" (percent of I/Os that fail)" :
			    "only op \"both\" takes \"probability\"");
	}
	if (f->op != FOP_BOTH && (json_object_get(o, "times") ||
				  json_object_get(o, "interval"))) {
		push_key(c, json_object_get(o, "times") ? "times" : "interval");
		return fail(c, "only op \"both\" takes \"times\" and \"interval\"");
	}
	if (get_uint32(c, o, "probability", 1, 100, false, &f->probability) ||
	    get_uint(c, o, "times", 1, 1ULL << 32, false, &f->times) ||
	    get_uint(c, o, "interval", 1, 1ULL << 32, false, &f->interval) ||
	    get_object(c, o, "slots", &slots))
		return -1;
	if (slots) {
		push_key(c, "slots");
		if (check_keys(c, slots, skeys) ||
		    get_uint(c, slots, "first", 1, 1ULL << 32, true,
			     &f->slot) ||
		    get_uint(c, slots, "count", 1, SCN_MAX_BAD_SLOTS, true,
			     &f->nslots))
			return -1;
		if ((f->slot + f->nslots) * 4 > s->swap[f->swap].size_mb * 1024ULL)
			return fail(c, "slots %llu-%llu are beyond the %u MiB swap area",
				    f->slot, f->slot + f->nslots - 1,
				    s->swap[f->swap].size_mb);
		pop(c);
	}
	return 0;
}

static int parse_faults(struct pctx *c, struct scenario *s, json_t *root)
{
	json_t *arr, *v;
	size_t i;
	int j;

	if (get_array(c, root, "faults", 0, SCN_MAX_FAULTS, &arr))
		return -1;
	if (!arr)
		return 0;
	if (s->command && json_array_size(arr)) {
		push_key(c, "faults");
		return fail(c, "faults need the synthetic workload (phases), not a command");
	}
	push_key(c, "faults");
	json_array_foreach(arr, i, v) {
		struct scn_fault *f = &s->fault[i];

		push_idx(c, i);
		if (parse_fault_one(c, s, f, v))
			return -1;
		/* failslab is one set of settings: one slab_error */
		for (j = 0; j < (int)i; j++)
			if (f->kind == FAULT_SLAB_ERROR &&
			    s->fault[j].kind == FAULT_SLAB_ERROR)
				return fail(c, "faults[%d] already is a slab_error: one per scenario (failslab has one set of settings)",
					    j);
		/* one dm target per disk: one read or write io_error each */
		for (j = 0; j < (int)i; j++)
			if (f->kind == FAULT_IO_ERROR && f->op != FOP_BOTH &&
			    s->fault[j].kind == FAULT_IO_ERROR &&
			    s->fault[j].op != FOP_BOTH &&
			    s->fault[j].swap == f->swap)
				return fail(c, "swap %d already has a read or write io_error (faults[%d]): one per backend",
					    f->swap, j);
		s->nfaults++;
		pop(c);
	}
	pop(c);
	return 0;
}

/* "kernel_line": "MAJOR.MINOR" (6.1, 6.12): digits, one dot, digits. */
static int parse_kernel_line(struct pctx *c, struct scenario *s,
			     json_t *root)
{
	if (get_string(c, root, "kernel_line", s->kernel_line,
		       sizeof(s->kernel_line), false, NULL))
		return -1;
	if (s->kernel_line[0] && !kline_valid(s->kernel_line)) {
		push_key(c, "kernel_line");
		return fail(c, "\"%s\" is not a kernel line: MAJOR.MINOR, as 6.1 or 6.12",
			    s->kernel_line);
	}
	return 0;
}

static int parse_root(struct pctx *c, struct scenario *s, json_t *root)
{
	static const char *const keys[] = {
		"name", "description", "kernels", "guest", "interval_ms",
		"timeout_s", "repeat", "sysctl", "thp", "mthp", "zswap", "swap",
		"workload", "expect", "no_regression", "faults",
		"kernel_line", NULL };
	static const char *const gkeys[] = { "memory_mb", "cpus", NULL };
	char msg[256];
	json_t *g;
	const char *p;
	int idx;

	if (!json_is_object(root))
		return fail(c, "a scenario is a JSON object, not %s",
			    type_name(root));
	if (check_keys(c, root, keys) ||
	    get_string(c, root, "name", s->name, sizeof(s->name), true, NULL))
		return -1;
	for (p = s->name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			break;
	if (*p || !s->name[0] || s->name[0] == '.') {
		push_key(c, "name");
		return fail(c, "\"%s\" must be letters, digits, '_', '.' and '-' (it names the run directory)",
			    s->name);
	}
	if (get_string(c, root, "description", s->description,
		       sizeof(s->description), false, NULL) ||
	    parse_kernel_line(c, s, root) ||
	    parse_kernels(c, s, root) ||
	    get_object(c, root, "guest", &g))
		return -1;
	if (g) {
		push_key(c, "guest");
		if (check_keys(c, g, gkeys) ||
		    get_uint32(c, g, "memory_mb", 64, 65536, false,
			       &s->memory_mb) ||
		    get_uint32(c, g, "cpus", 1, 64, false, &s->cpus))
			return -1;
		pop(c);
	}
	s->interval_ms = PLAN_INTERVAL_MS_DEF;
	s->timeout_s = PLAN_TIMEOUT_S_DEF;
	s->repeat = 1;
	if (get_uint32(c, root, "interval_ms", PLAN_INTERVAL_MS_MIN,
		       PLAN_INTERVAL_MS_MAX, false,
		       &s->interval_ms) ||
	    get_uint32(c, root, "timeout_s", PLAN_TIMEOUT_S_MIN,
		       PLAN_TIMEOUT_S_MAX, false, &s->timeout_s) ||
	    get_uint32(c, root, "repeat", 1, 100, false, &s->repeat) ||
	    parse_sysctl(c, s, root) ||
	    parse_thp_zswap(c, s, root) ||
	    parse_swap(c, s, root) ||
	    parse_workload(c, s, root) ||
	    parse_expect(c, s, root) ||
	    parse_no_regression(c, s, root) ||
	    parse_faults(c, s, root))
		return -1;
	if (s->memory_mb && !s->command &&
	    fit_problem(s, s->memory_mb, &idx, msg, sizeof(msg))) {
		if (idx >= 0) {
			push_key(c, "swap");
			push_idx(c, idx);
			push_key(c, "size_mb");
		} else {
			push_key(c, "workload");
			push_key(c, s->size_mb ? "size_mb" : "size_ram");
		}
		return fail(c, "%s", msg);
	}
	return 0;
}

static int one_line(char *err);

#define SCENARIO_MAX_FILE	((size_t)64 << 20)

int scenario_parse(struct scenario *s, const char *text, size_t len,
		   const char *file, char *err, size_t errlen)
{
	struct pctx c = {
		.text = text, .len = len, .file = file,
		.err = err, .errlen = errlen,
	};
	json_error_t jerr;
	json_t *root;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file);
	root = jfile_parse(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		jfile_error(&jerr, file, err, errlen);
		return one_line(err);
	}
	ret = parse_root(&c, s, root);
	json_decref(root);
	return ret ? one_line(err) : 0;
}

/* One line, always: keys and jansson's "near" text may hold anything. */
static int one_line(char *err)
{
	for (; *err; err++)
		if ((unsigned char)*err < ' ' || *err == 0x7f)
			*err = '?';
	return -1;
}

int scenario_load(struct scenario *s, const char *path,
		  char *err, size_t errlen)
{
	size_t len;
	char *buf;
	int ret;

	buf = util_read_input(path, SCENARIO_MAX_FILE, &len);
	if (!buf) {
		if (errno == EFBIG)
			snprintf(err, errlen, "%s: larger than %zu MiB", path,
				 SCENARIO_MAX_FILE >> 20);
		else
			snprintf(err, errlen, "%s: %s", path,
				 util_input_strerror(errno));
		return one_line(err);
	}
	ret = scenario_parse(s, buf, len, path, err, errlen);
	free(buf);
	return ret;
}

const char *scenario_find(const char *arg, char *buf, size_t len)
{
	const char *data;

	if (strchr(arg, '/') || util_exists(arg))
		return arg;
	data = util_data_dir();
	if (!data || util_path(buf, len, "%s/scenarios/%s%s", data, arg,
			       strstr(arg, ".json") ? "" : ".json") ||
	    !util_exists(buf))
		return arg;
	return buf;
}

unsigned int scenario_size_mb(const struct scenario *s,
			      unsigned int memory_mb)
{
	double mb;

	if (s->size_mb)
		return s->size_mb;
	mb = s->size_ram * memory_mb;
	return mb < 1 ? 1 : (unsigned int)mb;
}

/*
 * What a MiB of the workload costs in guest RAM once zram holds it: the
 * page pattern repeats its unique_words random words over the page, so
 * it compresses to about unique_words/512 of a page, plus zsmalloc's
 * overhead; an incompressible page (the default) costs a whole page.
 */
static double zram_cost(const struct scenario *s)
{
	double c;

	if (!s->unique_words)
		return 1.0;
	c = s->unique_words / 512.0 + 1.0 / 16;
	return c > 1.0 ? 1.0 : c;
}

/*
 * Does the workload fit? Returns 0, or 1 with @msg set and *@swap_idx the
 * backend at fault (-1: the workload). The rules:
 * - swap_map, one byte per swap page, must stay under 1/16 of the guest's
 *   RAM (swapon fails otherwise): at most 256 MiB of swap per MiB of RAM;
 * - a zram device is at most 4x the guest's RAM;
 * - the workload, its shmem and the largest pressure phase fit in the
 *   disk swap, 1/4 of the RAM, and what zram can hold in another 1/4 of
 *   the RAM at the pattern's compressibility (zram_cost()): data in zram
 *   stays in the guest's RAM, so incompressible pages gain nothing there.
 */
static int fit_problem(const struct scenario *s, unsigned int memory_mb,
		       int *swap_idx, char *msg, size_t len)
{
	unsigned long long disk_mb = 0, zram_mb = 0, all_mb = 0, zram_eff;
	unsigned long long brd_mb = 0, brd_eff;
	unsigned int size = scenario_size_mb(s, memory_mb), press = 0;
	int i, big = 0;

	/* a pressure phase allocates beside the whole area */
	for (i = 0; i < s->nphases; i++)
		if (s->phase[i].kind == PHASE_PRESSURE &&
		    s->phase[i].mb > press)
			press = s->phase[i].mb;
	for (i = 0; i < s->nswap; i++) {
		all_mb += s->swap[i].size_mb;
		if (s->swap[i].size_mb > s->swap[big].size_mb)
			big = i;
		if (s->swap[i].type == SWAP_BRD) {
			brd_mb += s->swap[i].size_mb;
			if (s->swap[i].size_mb <= memory_mb)
				continue;
			*swap_idx = i;
			snprintf(msg, len,
				 "a %u MiB brd device is more than the guest's %u MiB of RAM (brd keeps every page in it, uncompressed)",
				 s->swap[i].size_mb, memory_mb);
			return 1;
		}
		if (s->swap[i].type != SWAP_ZRAM) {
			disk_mb += s->swap[i].size_mb;
			continue;
		}
		zram_mb += s->swap[i].size_mb;
		if (s->swap[i].size_mb > 4ull * memory_mb) {
			*swap_idx = i;
			snprintf(msg, len,
				 "a %u MiB zram device is more than 4x the guest's %u MiB of RAM",
				 s->swap[i].size_mb, memory_mb);
			return 1;
		}
	}
	if (all_mb > 256ull * memory_mb) {
		*swap_idx = big;
		snprintf(msg, len,
			 "%llu MiB of swap needs %llu KiB of swap map, more than 1/16 of the guest's %u MiB of RAM (at most %llu MiB of swap)",
			 all_mb, all_mb / 4, memory_mb, 256ull * memory_mb);
		return 1;
	}
	*swap_idx = -1;
	/* brd and zram share the second quarter: brd a page per page */
	brd_eff = brd_mb < memory_mb / 4 ? brd_mb : memory_mb / 4;
	zram_eff = (unsigned long long)((memory_mb / 4 - brd_eff) /
					zram_cost(s));
	if (zram_eff > zram_mb)
		zram_eff = zram_mb;
	if ((unsigned long long)size + s->shmem_mb + press <=
	    disk_mb + zram_eff + brd_eff + memory_mb / 4)
		return 0;
	if (brd_mb)
		snprintf(msg, len,
			 "%u MiB (+%u shmem, +%u pressure) cannot fit in %llu MiB of disk swap, %llu of zram, %llu of brd (of its %llu: in RAM, uncompressed) and 1/4 of the guest's %u MiB",
			 size, s->shmem_mb, press, disk_mb, zram_eff, brd_eff,
			 brd_mb, memory_mb);
	else if (!zram_mb)
		snprintf(msg, len,
			 "%u MiB (+%u MiB shmem, +%u MiB pressure) cannot fit in %llu MiB of swap plus 1/4 of the guest's %u MiB of RAM",
			 size, s->shmem_mb, press, disk_mb, memory_mb);
	else
		snprintf(msg, len,
			 "%u MiB (+%u MiB shmem, +%u MiB pressure) cannot fit in %llu MiB of disk swap, %llu MiB of zram (of its %llu MiB: zram keeps the data in RAM, %s) plus 1/4 of the guest's %u MiB of RAM",
			 size, s->shmem_mb, press, disk_mb, zram_eff, zram_mb,
			 s->unique_words ? "compressed by unique_words" :
			 "incompressible without unique_words", memory_mb);
	return 1;
}

int scenario_check_fit(const struct scenario *s, unsigned int memory_mb,
		       char *err, size_t errlen)
{
	char msg[256];
	int idx, i;

	if (s->command) {
		/* the limits are the groups' own; they must fit the guest */
		for (i = 0; i < s->ngroups; i++) {
			if (s->group[i].memory_max_mb < memory_mb)
				continue;
			snprintf(err, errlen,
				 "%s: workload.command.groups[%d].memory_max_mb: %u MiB is not below the guest's %u MiB",
				 s->file, i, s->group[i].memory_max_mb,
				 memory_mb);
			return -1;
		}
		return 0;
	}
	if (!fit_problem(s, memory_mb, &idx, msg, sizeof(msg)))
		return 0;
	if (idx >= 0)
		snprintf(err, errlen, "%s: swap[%d].size_mb: %s", s->file, idx,
			 msg);
	else
		snprintf(err, errlen, "%s: workload: %s", s->file, msg);
	return -1;
}

int scenario_host_problem(unsigned int memory_mb, unsigned int cpus,
			  unsigned long long host_mb, unsigned int host_cpus,
			  bool *is_cpus, char *msg, size_t len)
{
	*is_cpus = false;
	if (host_mb && memory_mb > host_mb * 3 / 4) {
		snprintf(msg, len,
			 "a %u MiB guest is more than 3/4 of this host's %llu MiB of RAM",
			 memory_mb, host_mb);
		return 1;
	}
	if (host_cpus && cpus > host_cpus) {
		*is_cpus = true;
		snprintf(msg, len, "%u vCPUs are more than this host's %u CPUs",
			 cpus, host_cpus);
		return 1;
	}
	return 0;
}

/* MemTotal of /proc/meminfo in MiB, 0 if unknown. */
static unsigned long long host_mem_mb(void)
{
	unsigned long long kb = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb / 1024;
}

int scenario_check_host(const struct scenario *s, unsigned int memory_mb,
			unsigned int cpus, const char *conf, char *err,
			size_t errlen)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char msg[256];
	bool is_cpus;

	if (!scenario_host_problem(memory_mb, cpus, host_mem_mb(),
				   n > 0 ? (unsigned int)n : 0, &is_cpus, msg,
				   sizeof(msg)))
		return 0;
	if (is_cpus ? s->cpus : s->memory_mb)
		snprintf(err, errlen, "%s: guest.%s: %s", s->file,
			 is_cpus ? "cpus" : "memory_mb", msg);
	else
		snprintf(err, errlen, "%s: %s (%s): %s", s->file,
			 is_cpus ? "guest_cpus" : "guest_memory_mb",
			 conf && conf[0] ? conf : "the default", msg);
	return -1;
}
