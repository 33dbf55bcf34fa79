// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the per-run plan (guest side). Pure: no I/O, no globals.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "gplan.h"

#define MAX_WORDS PLAN_WORDS_MAX

struct line_ctx {
	int lineno;
	char *err;
	size_t errlen;
};

static __printf(2, 3) int fail(struct line_ctx *c, const char *fmt, ...);

static int fail(struct line_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "line %d: ", c->lineno);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

const struct gplan_fault *gplan_dm_fault(const struct gplan *p, int swap)
{
	int i;

	for (i = 0; i < p->nfault; i++)
		if (p->fault[i].kind == FAULT_IO_ERROR &&
		    p->fault[i].swap == swap && p->fault[i].op != FOP_BOTH)
			return &p->fault[i];
	return NULL;
}

static const char * const thp_keys[] = {
	"enabled", "defrag", "shmem_enabled", "use_zero_page", NULL
};

static const char * const zswap_keys[] = {
	"enabled", "compressor", "zpool", "max_pool_percent",
	"accept_threshold_percent", "same_filled_pages_enabled",
	"non_same_filled_pages_enabled", NULL
};

static bool in_list(const char *s, const char * const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* Unsigned decimal, no sign, no trailing junk, within [min, max]. */
static int parse_u64(struct line_ctx *c, const char *key, const char *s,
		     uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return fail(c, "%s: '%s' is not an unsigned integer", key, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return fail(c, "%s: '%s' is not an unsigned integer", key, s);
	if (v < min || v > max)
		return fail(c, "%s: %llu out of range [%llu, %llu]", key, v,
			    (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

static int parse_frac(struct line_ctx *c, const char *key, const char *s,
		      double min, double max, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s))
		return fail(c, "%s: '%s' is not a number", key, s);
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return fail(c, "%s: '%s' is not a number", key, s);
	if (v <= min || v > max)
		return fail(c, "%s: %s out of range (%g, %g]", key, s, min, max);
	*out = v;
	return 0;
}

/* A multiple of the guest's memory: [PLAN_RAM_MIN, PLAN_RAM_MAX]. */
static int parse_ram(struct line_ctx *c, const char *key, const char *s,
		     double *out)
{
	if (parse_frac(c, key, s, 0, PLAN_RAM_MAX, out))
		return -1;
	if (*out < PLAN_RAM_MIN)
		return fail(c, "%s: %s out of range [%g, %g]", key, s,
			    PLAN_RAM_MIN, PLAN_RAM_MAX);
	return 0;
}

static int copy_val(struct line_ctx *c, const char *key, const char *val,
		    char *dst, size_t len)
{
	if (strlen(val) >= len)
		return fail(c, "%s: value too long", key);
	strcpy(dst, val);
	return 0;
}

/* Split "key=value" in place. */
static int split_kv(struct line_ctx *c, char *word, char **key, char **val)
{
	char *eq = strchr(word, '=');

	if (!eq || eq == word)
		return fail(c, "expected key=value, got '%s'", word);
	*eq = '\0';
	*key = word;
	*val = eq + 1;
	if (!**val)
		return fail(c, "%s: empty value", *key);
	return 0;
}

static bool safe_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.", *s))
			return false;
	return true;
}

/* A value written to /proc or /sys: printable, no '/', not too odd. */
static bool safe_value(const char *s)
{
	for (; *s; s++)
		if (!isgraph((unsigned char)*s) || *s == '/')
			return false;
	return true;
}

static bool safe_path(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)))
		return false;
	if (strstr(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-./", *s))
			return false;
	return true;
}

int gplan_sysctl_path(const char *key, char *buf, size_t len)
{
	size_t i, n = strlen(key);

	if (!safe_name(key) || key[0] == '.' || key[n - 1] == '.' ||
	    strstr(key, ".."))
		return -1;
	if (strlen("/proc/sys/") + n >= len)
		return -1;
	strcpy(buf, "/proc/sys/");
	for (i = 0; i <= n; i++)
		buf[10 + i] = key[i] == '.' ? '/' : key[i];
	return 0;
}

static int add_kv(struct line_ctx *c, const char *what, int nw, char **w,
		  struct gplan_kv *arr, int *n, int max,
		  const char * const *allowed)
{
	int i;

	if (nw < 2)
		return fail(c, "%s: expected key=value", what);
	for (i = 1; i < nw; i++) {
		char *key, *val;
		char path[GPLAN_PATH_LEN];

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (allowed && !in_list(key, allowed))
			return fail(c, "%s: unknown key '%s'", what, key);
		if (!allowed && gplan_sysctl_path(key, path, sizeof(path)))
			return fail(c, "%s: bad key '%s'", what, key);
		if (!safe_value(val))
			return fail(c, "%s: bad value '%s'", key, val);
		if (*n >= max)
			return fail(c, "%s: more than %d settings", what, max);
		if (copy_val(c, key, key, arr[*n].key, GPLAN_KEY_LEN) ||
		    copy_val(c, key, val, arr[*n].val, GPLAN_VAL_LEN))
			return -1;
		(*n)++;
	}
	return 0;
}

static int parse_ipv4(struct line_ctx *c, const char *key, const char *s,
		      uint32_t *out)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return fail(c, "%s: '%s' is not an IPv4 address", key, s);
	*out = ntohl(a.s_addr);
	return 0;
}

static int parse_swap(struct line_ctx *c, struct gplan *p, int nw, char **w)
{
	struct gplan_swap *s;
	bool have_type = false, have_size = false, have_port = false;
	int i;

	if (p->nswap >= GPLAN_MAX_SWAP)
		return fail(c, "swap: more than %d backends", GPLAN_MAX_SWAP);
	s = &p->swap[p->nswap];
	memset(s, 0, sizeof(*s));
	s->prio = -1;
	strcpy(s->export, "/export");
	strcpy(s->vers, "4.1");

	for (i = 1; i < nw; i++) {
		char *key, *val;
		uint64_t v;
		int t;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (i == 1 && strcmp(key, "type"))
			return fail(c, "swap: first key must be type=");
		if (!strcmp(key, "type")) {
			if (have_type)
				return fail(c, "swap: duplicate type");
			t = plan_backend_parse(val);
			if (t < 0)
				return fail(c, "swap: unknown type '%s'", val);
			s->type = t;
			have_type = true;
		} else if (!strcmp(key, "prio")) {
			if (parse_u64(c, key, val, 0, PLAN_PRIO_MAX, &v))
				return -1;
			s->prio = (int)v;
		} else if (!strcmp(key, "size_mb") && s->type != SWAP_BLK) {
			if (parse_u64(c, key, val, 1, PLAN_MB_MAX, &v))
				return -1;
			s->size_mb = v;
			have_size = true;
		} else if (!strcmp(key, "dev") && (s->type == SWAP_BLK ||
						   s->type == SWAP_EXT4FILE ||
						   s->type == SWAP_BRD)) {
			if (!safe_path(val, "/dev/"))
				return fail(c, "dev: '%s' is not a /dev path",
					    val);
			if (copy_val(c, key, val, s->dev, sizeof(s->dev)))
				return -1;
		} else if (!strcmp(key, "nonrot") && s->type == SWAP_BLK) {
			if (parse_u64(c, key, val, 0, 1, &v))
				return -1;
			s->nonrot = v;
		} else if (!strcmp(key, "comp") && s->type == SWAP_ZRAM) {
			if (!safe_name(val))
				return fail(c, "comp: bad value '%s'", val);
			if (copy_val(c, key, val, s->comp, sizeof(s->comp)))
				return -1;
		} else if (!strcmp(key, "mem_limit_mb") && s->type == SWAP_ZRAM) {
			if (parse_u64(c, key, val, 1, PLAN_MB_MAX,
				      &s->mem_limit_mb))
				return -1;
		} else if (!strcmp(key, "server") && s->type == SWAP_NFSFILE) {
			uint32_t a;

			if (parse_ipv4(c, key, val, &a))
				return -1;
			if (copy_val(c, key, val, s->server, sizeof(s->server)))
				return -1;
		} else if (!strcmp(key, "port") && s->type == SWAP_NFSFILE) {
			if (parse_u64(c, key, val, 1, 65535, &v))
				return -1;
			s->port = (unsigned int)v;
			have_port = true;
		} else if (!strcmp(key, "export") && s->type == SWAP_NFSFILE) {
			if (!safe_path(val, "/"))
				return fail(c, "export: bad path '%s'", val);
			if (copy_val(c, key, val, s->export, sizeof(s->export)))
				return -1;
		} else if (!strcmp(key, "file") && s->type == SWAP_NFSFILE) {
			if (!safe_name(val) || val[0] == '.')
				return fail(c, "file: bad name '%s'", val);
			if (copy_val(c, key, val, s->file, sizeof(s->file)))
				return -1;
		} else if (!strcmp(key, "vers") && s->type == SWAP_NFSFILE) {
			if (strcmp(val, "4") && strcmp(val, "4.0") &&
			    strcmp(val, "4.1") && strcmp(val, "4.2"))
				return fail(c, "vers: '%s' unsupported (4, 4.0, 4.1, 4.2)",
					    val);
			strcpy(s->vers, val);
		} else {
			return fail(c, "swap type=%s: unknown key '%s'",
				    plan_backend_name(s->type), key);
		}
	}
	if (!have_type)
		return fail(c, "swap: missing type=");
	if ((s->type == SWAP_BLK || s->type == SWAP_EXT4FILE ||
	     s->type == SWAP_BRD) && !s->dev[0])
		return fail(c, "swap type=%s: missing dev=", plan_backend_name(s->type));
	if (s->type != SWAP_BLK && !have_size)
		return fail(c, "swap type=%s: missing size_mb=",
			    plan_backend_name(s->type));
	if (s->type == SWAP_NFSFILE && !s->server[0])
		return fail(c, "swap type=nfsfile: missing server=");
	if (s->type == SWAP_NFSFILE && !have_port)
		return fail(c, "swap type=nfsfile: missing port=");
	for (i = 0; s->type == SWAP_BRD && i < p->nswap; i++)
		if (p->swap[i].type == SWAP_BRD)
			return fail(c, "swap type=brd: one per plan (brd.rd_size sizes every device)");
	p->nswap++;
	return 0;
}

/* "mthp size_kb=K enabled=P": one size per line, each size once. */
static int parse_mthp(struct line_ctx *c, struct gplan *p, int nw, char **w)
{
	struct gplan_mthp m = { 0 };
	uint64_t kb = 0;
	int i;

	for (i = 1; i < nw; i++) {
		char *key, *val;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (!strcmp(key, "size_kb")) {
			if (parse_u64(c, key, val, PLAN_MTHP_KB_MIN,
				      PLAN_MTHP_KB_MAX, &kb))
				return -1;
			if (!plan_mthp_size_ok(kb))
				return fail(c, "size_kb: %s is not a power of two",
					    val);
		} else if (!strcmp(key, "enabled")) {
			if (plan_mthp_policy_parse(val) < 0)
				return fail(c, "enabled: '%s' is not always, inherit, madvise or never",
					    val);
			strcpy(m.enabled, val);
		} else {
			return fail(c, "mthp: unknown key '%s'", key);
		}
	}
	if (!kb || !m.enabled[0])
		return fail(c, "mthp: expected size_kb= and enabled=");
	for (i = 0; i < p->nmthp; i++)
		if (p->mthp[i].size_kb == kb)
			return fail(c, "mthp: size_kb=%llu given twice",
				    (unsigned long long)kb);
	if (p->nmthp >= GPLAN_MAX_MTHP)
		return fail(c, "mthp: more than %d sizes", GPLAN_MAX_MTHP);
	m.size_kb = (unsigned int)kb;
	p->mthp[p->nmthp++] = m;
	return 0;
}

static int parse_net(struct line_ctx *c, struct gplan *p, int nw, char **w)
{
	bool have_addr = false;
	int i;

	if (p->has_net)
		return fail(c, "net: duplicate directive");
	for (i = 1; i < nw; i++) {
		char *key, *val, *slash;
		uint64_t v;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (!strcmp(key, "addr")) {
			slash = strchr(val, '/');
			if (!slash)
				return fail(c, "addr: expected A.B.C.D/PREFIX");
			*slash = '\0';
			if (parse_ipv4(c, key, val, &p->net_addr) ||
			    parse_u64(c, "prefix", slash + 1, 1, 32, &v))
				return -1;
			p->net_prefix = (int)v;
			have_addr = true;
		} else if (!strcmp(key, "gw")) {
			if (parse_ipv4(c, key, val, &p->net_gw))
				return -1;
		} else {
			return fail(c, "net: unknown key '%s'", key);
		}
	}
	if (!have_addr)
		return fail(c, "net: missing addr=");
	p->has_net = true;
	return 0;
}

static int parse_workload(struct line_ctx *c, struct gplan *p, int nw,
			  char **w)
{
	bool have_seed = false;
	int i;

	if (p->has_workload)
		return fail(c, "workload: duplicate directive");
	for (i = 1; i < nw; i++) {
		char *key, *val;
		uint64_t v;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (!strcmp(key, "seed")) {
			if (parse_u64(c, key, val, 0, PLAN_SEED_MAX, &p->seed))
				return -1;
			have_seed = true;
		} else if (!strcmp(key, "size_mb")) {
			if (parse_u64(c, key, val, 1, PLAN_MB_MAX, &p->size_mb))
				return -1;
		} else if (!strcmp(key, "size_ram")) {
			if (parse_ram(c, key, val, &p->size_ram))
				return -1;
		} else if (!strcmp(key, "shmem_mb")) {
			if (parse_u64(c, key, val, 0, PLAN_MB_MAX, &p->shmem_mb))
				return -1;
		} else if (!strcmp(key, "thp")) {
			if (parse_u64(c, key, val, 0, 1, &v))
				return -1;
			p->thp_area = v;
		} else if (!strcmp(key, "unique_words")) {
			if (parse_u64(c, key, val, 1, PLAN_UNIQUE_WORDS_MAX, &v))
				return -1;
			p->uniq_words = (unsigned int)v;
		} else {
			return fail(c, "workload: unknown key '%s'", key);
		}
	}
	if (!have_seed)
		return fail(c, "workload: missing seed=");
	if (!p->size_mb && p->size_ram == 0)
		return fail(c, "workload: missing size_mb= or size_ram=");
	if (p->size_mb && p->size_ram != 0)
		return fail(c, "workload: size_mb= and size_ram= are exclusive");
	p->has_workload = true;
	return 0;
}

static int parse_phase(struct line_ctx *c, struct gplan *p, int nw, char **w)
{
	struct gplan_phase *ph;
	int t, i;

	if (nw < 2)
		return fail(c, "phase: missing name");
	t = plan_phase_parse(w[1]);
	if (t < 0)
		return fail(c, "phase: unknown phase '%s'", w[1]);
	if (p->nphase >= GPLAN_MAX_PHASE)
		return fail(c, "phase: more than %d phases", GPLAN_MAX_PHASE);
	if (p->nphase == 0 && t != PHASE_FILL)
		return fail(c, "phase %s: the first phase must be fill",
			    w[1]);
	if (p->nphase > 0 && t == PHASE_FILL)
		return fail(c, "phase fill: only once, as the first phase");
	ph = &p->phase[p->nphase];
	memset(ph, 0, sizeof(*ph));
	ph->type = t;
	for (i = 2; i < nw; i++) {
		char *key, *val;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (t == PHASE_READ && !strcmp(key, "order")) {
			if (!strcmp(val, "seq"))
				ph->random = false;
			else if (!strcmp(val, "random"))
				ph->random = true;
			else
				return fail(c, "order: '%s' is not seq or random",
					    val);
		} else if (t == PHASE_PRESSURE && !strcmp(key, "mb")) {
			if (parse_u64(c, key, val, 1, PLAN_MB_MAX, &ph->mb))
				return -1;
		} else if (t == PHASE_PRESSURE && !strcmp(key, "ram")) {
			if (parse_ram(c, key, val, &ph->ram))
				return -1;
		} else if (t == PHASE_PAGEOUT && !strcmp(key, "wait")) {
			if (strcmp(val, "writeback"))
				return fail(c, "wait: '%s' is not writeback",
					    val);
			ph->wait_writeback = true;
		} else if (t == PHASE_PAGEOUT && !strcmp(key, "drain")) {
			if (strcmp(val, "lru"))
				return fail(c, "drain: '%s' is not lru", val);
			ph->drain_lru = true;
		} else if (t == PHASE_REWRITE && !strcmp(key, "frac")) {
			if (parse_frac(c, key, val, 0, 1, &ph->frac))
				return -1;
		} else {
			return fail(c, "phase %s: unknown key '%s'", w[1], key);
		}
	}
	if (t == PHASE_PRESSURE && !ph->mb && ph->ram == 0)
		return fail(c, "phase pressure: missing mb= or ram=");
	if (t == PHASE_PRESSURE && ph->mb && ph->ram != 0)
		return fail(c, "phase pressure: mb= and ram= are exclusive");
	if (t == PHASE_REWRITE && ph->frac == 0)
		return fail(c, "phase rewrite: missing frac=");
	p->nphase++;
	return 0;
}

int gplan_unescape(const char *in, char *out, size_t len)
{
	size_t n = 0;
	int hi, lo;

	for (; *in; in++) {
		char ch = *in;

		if (ch == '%') {
			hi = isxdigit((unsigned char)in[1]) ? in[1] : 0;
			lo = hi && isxdigit((unsigned char)in[2]) ? in[2] : 0;
			if (!lo)
				return -1;
			hi = isdigit(hi) ? hi - '0' : (tolower(hi) - 'a' + 10);
			lo = isdigit(lo) ? lo - '0' : (tolower(lo) - 'a' + 10);
			ch = (char)(hi * 16 + lo);
			if (!ch)
				return -1;
			in += 2;
		}
		if (n + 1 >= len)
			return -1;
		out[n++] = ch;
	}
	if (!len)
		return -1;
	out[n] = '\0';
	return 0;
}

static int decode_word(struct line_ctx *c, const char *what, const char *val,
		       char *dst)
{
	if (gplan_unescape(val, dst, GPLAN_STR_LEN))
		return fail(c, "%s: bad %%XX escape, escaped NUL or longer than %d bytes",
			    what, GPLAN_STR_LEN - 1);
	if (!*dst)
		return fail(c, "%s: empty", what);
	return 0;
}

static int parse_hostroot(struct line_ctx *c, struct gplan *p, int nw,
			  char **w)
{
	char *key, *val;

	if (p->has_hostroot)
		return fail(c, "hostroot: duplicate directive");
	if (nw != 2)
		return fail(c, "hostroot: expected tag=NAME");
	if (split_kv(c, w[1], &key, &val))
		return -1;
	if (strcmp(key, "tag"))
		return fail(c, "hostroot: unknown key '%s'", key);
	if (!safe_name(val))
		return fail(c, "tag: bad value '%s'", val);
	if (copy_val(c, key, val, p->hostroot_tag, sizeof(p->hostroot_tag)))
		return -1;
	p->has_hostroot = true;
	return 0;
}

static int parse_command(struct line_ctx *c, struct gplan *p, int nw,
			 char **w)
{
	int i;

	if (p->has_command)
		return fail(c, "command: duplicate directive");
	for (i = 1; i < nw; i++) {
		char *key, *val;
		uint64_t v;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (strcmp(key, "reference"))
			return fail(c, "command: unknown key '%s'", key);
		if (parse_u64(c, key, val, 0, 1, &v))
			return -1;
		p->reference = v;
	}
	p->has_command = true;
	return 0;
}

/* The io.max limit called @name (rbps, wbps, riops, wiops), or -1. */
static int io_limit_parse(const char *name)
{
	int k;

	for (k = 0; k < PLAN_IO_LIMITS; k++)
		if (!strcmp(name, plan_io_limit_name(k)))
			return k;
	return -1;
}

static int parse_group(struct line_ctx *c, struct gplan *p, int nw, char **w)
{
	struct gplan_group *g;
	int i, k;

	if (!p->has_command)
		return fail(c, "group: needs a command directive before it");
	if (p->ngroup >= GPLAN_MAX_GROUP)
		return fail(c, "group: more than %d groups", GPLAN_MAX_GROUP);
	g = &p->group[p->ngroup];
	memset(g, 0, sizeof(*g));
	for (i = 1; i < nw; i++) {
		char *key, *val;
		uint64_t v;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (!strcmp(key, "name")) {
			if (!safe_name(val) || val[0] == '.')
				return fail(c, "name: bad value '%s'", val);
			if (copy_val(c, key, val, g->name, sizeof(g->name)))
				return -1;
		} else if (!strcmp(key, "memory_max_mb")) {
			if (parse_u64(c, key, val, 1, 1 << 20,
				      &g->memory_max_mb))
				return -1;
		} else if (!strcmp(key, "memory_high_mb")) {
			if (parse_u64(c, key, val, 1, 1 << 20,
				      &g->memory_high_mb))
				return -1;
		} else if (!strcmp(key, "swap_max_mb")) {
			if (parse_u64(c, key, val, 0, 1 << 20,
				      &g->swap_max_mb))
				return -1;
			g->has_swap_max = true;
		} else if (!strcmp(key, "cpus")) {
			if (parse_u64(c, key, val, 1, 64, &v))
				return -1;
			g->cpus = (unsigned int)v;
		} else if (!strcmp(key, "cpu_max_pct")) {
			if (parse_u64(c, key, val, PLAN_CPU_MAX_PCT_MIN,
				      PLAN_CPU_MAX_PCT_MAX, &v))
				return -1;
			g->cpu_max_pct = (unsigned int)v;
		} else if (!strcmp(key, "cpu_max_period_ms")) {
			if (parse_u64(c, key, val, PLAN_CPU_PERIOD_MS_MIN,
				      PLAN_CPU_PERIOD_MS_MAX, &v))
				return -1;
			g->cpu_max_period_ms = (unsigned int)v;
		} else if (!strncmp(key, "io_", 3) &&
			   (k = io_limit_parse(key + 3)) >= 0) {
			if (g->io_max[k])
				return fail(c, "group: %s given twice", key);
			if (parse_u64(c, key, val, plan_io_limit_min(k),
				      plan_io_limit_max(k), &g->io_max[k]))
				return -1;
		} else if (!strcmp(key, "cwd")) {
			if (decode_word(c, key, val, g->cwd))
				return -1;
			if (g->cwd[0] != '/')
				return fail(c, "cwd: '%s' is not absolute",
					    g->cwd);
		} else {
			return fail(c, "group: unknown key '%s'", key);
		}
	}
	if (!g->name[0])
		return fail(c, "group: missing name=");
	for (k = 0; k < p->ngroup; k++)
		if (!strcmp(p->group[k].name, g->name))
			return fail(c, "group: duplicate name '%s'", g->name);
	p->ngroup++;
	return 0;
}

/* arg, env and output add one decoded word to the last group. */
static int parse_group_word(struct line_ctx *c, struct gplan *p, int nw,
			    char **w)
{
	struct gplan_group *g;
	char *dst;

	if (!p->ngroup)
		return fail(c, "%s: needs a group directive before it", w[0]);
	if (nw != 2)
		return fail(c, "%s: expected one word", w[0]);
	g = &p->group[p->ngroup - 1];
	if (!strcmp(w[0], "arg")) {
		if (g->nargs >= GPLAN_MAX_ARGS)
			return fail(c, "arg: more than %d", GPLAN_MAX_ARGS);
		dst = g->args[g->nargs];
		if (decode_word(c, "arg", w[1], dst))
			return -1;
		g->nargs++;
	} else if (!strcmp(w[0], "env")) {
		if (g->nenv >= GPLAN_MAX_ENV)
			return fail(c, "env: more than %d", GPLAN_MAX_ENV);
		dst = g->env[g->nenv];
		if (decode_word(c, "env", w[1], dst))
			return -1;
		if (dst[0] == '=' || !strchr(dst, '='))
			return fail(c, "env: '%s' is not KEY=VALUE", dst);
		g->nenv++;
	} else {
		if (g->nout >= GPLAN_MAX_OUT)
			return fail(c, "output: more than %d", GPLAN_MAX_OUT);
		dst = g->out[g->nout];
		if (decode_word(c, "output", w[1], dst))
			return -1;
		g->nout++;
	}
	return 0;
}

/* The kinds that act on no swap backend. */
static bool no_swap(enum plan_fault k)
{
	return k == FAULT_OOM || k == FAULT_SLAB_ERROR;
}

/* caches=A,B,...: slab cache names (slab_error) */
static int parse_caches(struct line_ctx *c, struct gplan_fault *f,
			char *val)
{
	char *name, *save = NULL;
	int j;

	if (!*val || *val == ',' || val[strlen(val) - 1] == ',' ||
	    strstr(val, ",,"))
		return fail(c, "caches: expected NAME[,NAME...]");
	f->ncaches = 0;
	for (name = strtok_r(val, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (!plan_slab_cache_ok(name))
			return fail(c, "caches: '%s' is not a slab cache name",
				    name);
		if (f->ncaches >= PLAN_SLAB_MAX_CACHES)
			return fail(c, "caches: more than %d",
				    PLAN_SLAB_MAX_CACHES);
		for (j = 0; j < f->ncaches; j++)
			if (!strcmp(f->caches[j], name))
				return fail(c, "caches: '%s' twice", name);
		strcpy(f->caches[f->ncaches++], name);
	}
	return 0;
}

static bool is_slab_key(const char *key)
{
	return !strcmp(key, "tasks") || !strcmp(key, "atomic_only") ||
	       !strcmp(key, "caches");
}

/* tasks=workload|all, atomic_only=0|1, caches=NAME,... */
static int parse_slab_key(struct line_ctx *c, struct gplan_fault *f,
			  const char *key, char *val)
{
	uint64_t v;
	int t;

	if (!strcmp(key, "caches"))
		return parse_caches(c, f, val);
	if (!strcmp(key, "atomic_only")) {
		if (parse_u64(c, key, val, 0, 1, &v))
			return -1;
		f->atomic_only = v;
		return 0;
	}
	t = plan_slab_tasks_parse(val);
	if (t < 0)
		return fail(c, "tasks: '%s' is not workload or all", val);
	f->tasks = t;
	return 0;
}

/* A slab_error as a whole; @io_keys: it has op= or slots= */
static int check_slab(struct line_ctx *c, const struct gplan *p,
		      const struct gplan_fault *f, bool io_keys)
{
	int i;

	if (io_keys)
		return fail(c, "fault slab_error: op= and slots= are for io_error");
	if (!f->probability)
		return fail(c, "fault slab_error: probability= is required (failslab)");
	if (f->times > PLAN_SLAB_TIMES_MAX)
		return fail(c, "fault slab_error: times= beyond %llu (failslab's atomic_t)",
			    PLAN_SLAB_TIMES_MAX);
	for (i = 0; i < p->nfault; i++)
		if (p->fault[i].kind == FAULT_SLAB_ERROR)
			return fail(c, "fault slab_error: one per plan (failslab has one set of settings)");
	return 0;
}

/*
 * fault index=N kind=K [swap=N] phase=N|after_ms=N|after_swap_ios=N
 *       [duration_ms=N] [until_phase=N] [op=read|write|both]
 *       [slots=FIRST+COUNT] [probability=P] [times=N] [interval=N]
 *       [period_ms=N] [tasks=workload|all] [atomic_only=0|1]
 *       [caches=NAME,...]
 */
static int parse_fault(struct line_ctx *c, struct gplan *p, int nw, char **w)
{
	bool have_kind = false, have_index = false, have_trig = false;
	bool have_slots = false, have_op = false, have_slab = false;
	struct gplan_fault *f;
	int i, t;

	if (p->nfault >= GPLAN_MAX_FAULT)
		return fail(c, "fault: more than %d faults", GPLAN_MAX_FAULT);
	f = &p->fault[p->nfault];
	memset(f, 0, sizeof(*f));
	f->swap = -1;
	f->until_phase = -1;
	f->atomic_only = true;
	for (i = 1; i < nw; i++) {
		char *key, *val, *plus;
		uint64_t v;

		if (split_kv(c, w[i], &key, &val))
			return -1;
		if (!strcmp(key, "index")) {
			if (parse_u64(c, key, val, 0, 63, &v))
				return -1;
			f->index = (unsigned int)v;
			have_index = true;
		} else if (!strcmp(key, "kind")) {
			t = plan_fault_parse(val);
			if (t < 0)
				return fail(c, "fault: unknown kind '%s'", val);
			if (plan_fault_on_host(t))
				return fail(c, "fault: kind '%s' is the host's (it acts on the NFS server), not the guest's",
					    val);
			f->kind = t;
			have_kind = true;
		} else if (!strcmp(key, "swap")) {
			if (parse_u64(c, key, val, 0, GPLAN_MAX_SWAP - 1, &v))
				return -1;
			f->swap = (int)v;
		} else if (plan_trigger_parse(key) >= 0) {
			if (have_trig)
				return fail(c, "fault: more than one trigger");
			f->trig = plan_trigger_parse(key);
			if (parse_u64(c, key, val, 0, f->trig == TRIG_PHASE ?
				      GPLAN_MAX_PHASE - 1 : 1ULL << 40, &f->at))
				return -1;
			have_trig = true;
		} else if (!strcmp(key, "duration_ms")) {
			if (parse_u64(c, key, val, 0, 86400000, &f->duration_ms))
				return -1;
		} else if (!strcmp(key, "until_phase")) {
			if (parse_u64(c, key, val, 1, GPLAN_MAX_PHASE - 1, &v))
				return -1;
			f->until_phase = (int)v;
		} else if (!strcmp(key, "op")) {
			t = plan_fault_op_parse(val);
			if (t < 0)
				return fail(c, "op: '%s' is not read, write or both",
					    val);
			f->op = t;
			have_op = true;
		} else if (!strcmp(key, "slots")) {
			plus = strchr(val, '+');
			if (!plus)
				return fail(c, "slots: expected FIRST+COUNT");
			*plus = '\0';
			if (parse_u64(c, "slots", val, 1, 1ULL << 32, &f->slot) ||
			    parse_u64(c, "slots count", plus + 1, 1,
				      GPLAN_MAX_BAD_SLOTS, &f->nslots))
				return -1;
			have_slots = true;
		} else if (!strcmp(key, "probability")) {
			if (parse_u64(c, key, val, 1, 100, &v))
				return -1;
			f->probability = (unsigned int)v;
		} else if (!strcmp(key, "times")) {
			if (parse_u64(c, key, val, 1, 1ULL << 32, &f->times))
				return -1;
		} else if (!strcmp(key, "interval")) {
			if (parse_u64(c, key, val, 1, 1ULL << 32, &f->interval))
				return -1;
		} else if (!strcmp(key, "period_ms")) {
			if (parse_u64(c, key, val, 10, 3600000, &f->period_ms))
				return -1;
		} else if (is_slab_key(key)) {
			if (parse_slab_key(c, f, key, val))
				return -1;
			have_slab = true;
		} else {
			return fail(c, "fault: unknown key '%s'", key);
		}
	}
	if (!have_index || !have_kind || !have_trig)
		return fail(c, "fault: needs index=, kind= and a trigger (phase=, after_ms= or after_swap_ios=)");
	if (no_swap(f->kind) ? f->swap >= 0 : f->swap < 0)
		return fail(c, "fault %s: %s", plan_fault_name(f->kind),
			    no_swap(f->kind) ? "takes no swap=" :
			    "missing swap=");
	if (f->swap >= 0 && f->swap >= p->nswap)
		return fail(c, "fault: swap=%d but only %d swap backends before it",
			    f->swap, p->nswap);
	if (f->kind == FAULT_IO_ERROR) {
		if (!have_op)
			return fail(c, "fault io_error: missing op=");
		if ((f->op == FOP_READ) != have_slots)
			return fail(c, "fault io_error: slots= %s",
				    have_slots ? "is for op=read only" :
				    "is required with op=read (dm-dust bad blocks)");
		if ((f->op == FOP_BOTH) != (f->probability > 0))
			return fail(c, "fault io_error: probability= %s",
				    f->probability ? "is for op=both only" :
				    "is required with op=both (fail_make_request)");
		if (f->op != FOP_BOTH && (f->times || f->interval))
			return fail(c, "fault io_error: times= and interval= are for op=both");
		if (f->op != FOP_BOTH &&
		    p->swap[f->swap].type != SWAP_BLK)
			return fail(c, "fault io_error op=%s: only on a blk backend (device-mapper)",
				    plan_fault_op_name(f->op));
		if (f->op != FOP_BOTH && gplan_dm_fault(p, f->swap))
			return fail(c, "fault io_error: one read or write fault per backend");
	} else if (f->kind == FAULT_SLAB_ERROR) {
		if (check_slab(c, p, f, have_op || have_slots))
			return -1;
	} else if (have_op || have_slots || f->probability || f->times ||
		   f->interval) {
		return fail(c, "fault %s: op=, slots=, probability=, times= and interval= are for io_error",
			    plan_fault_name(f->kind));
	}
	if (have_slab && f->kind != FAULT_SLAB_ERROR)
		return fail(c, "fault %s: tasks=, atomic_only= and caches= are for slab_error",
			    plan_fault_name(f->kind));
	if (f->until_phase >= 0 && ((f->kind != FAULT_IO_ERROR &&
				     f->kind != FAULT_SWAPOFF &&
				     f->kind != FAULT_SLAB_ERROR) ||
				    f->trig != TRIG_PHASE ||
				    (uint64_t)f->until_phase <= f->at))
		return fail(c, "fault: until_phase= is for an io_error, a slab_error or a swapoff with a later phase= trigger");
	if (f->until_phase >= 0 && f->kind == FAULT_SWAPOFF && f->duration_ms)
		return fail(c, "fault swapoff: until_phase= and duration_ms= are exclusive");
	if ((f->kind == FAULT_SWAP_CHURN) != (f->period_ms > 0))
		return fail(c, "fault: period_ms= %s",
			    f->period_ms ? "is for swap_churn only" :
			    "is required for swap_churn");
	if (f->kind == FAULT_SWAP_CHURN && !f->duration_ms)
		return fail(c, "fault swap_churn: missing duration_ms=");
	p->nfault++;
	return 0;
}

/*
 * The words of @line into @w (cut in place, a '#' and what follows it
 * left out): how many, or -1 past MAX_WORDS.
 */
static int split_words(struct line_ctx *c, char *line, char **w)
{
	char *s = line, *hash;
	int nw = 0;

	hash = strchr(s, '#');
	if (hash)
		*hash = '\0';
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			break;
		if (nw >= MAX_WORDS)
			return fail(c, "more than %d words", MAX_WORDS);
		w[nw++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return nw;
}

/* "version N": once, and the one this guest speaks. */
static int parse_version(struct line_ctx *c, struct gplan *p, int nw,
			 char **w, bool *seen_version)
{
	uint64_t v;

	if (*seen_version)
		return fail(c, "version: duplicate directive");
	if (nw != 2)
		return fail(c, "version: expected one number");
	if (parse_u64(c, "version", w[1], 0, 1000, &v))
		return -1;
	if (v != GPLAN_VERSION)
		return fail(c, "version %llu unsupported (this guest speaks %d)",
			    (unsigned long long)v, GPLAN_VERSION);
	p->version = (int)v;
	*seen_version = true;
	return 0;
}

static int parse_line(struct line_ctx *c, struct gplan *p, char *line,
		      bool *seen_version)
{
	char *w[MAX_WORDS];
	uint64_t v;
	int nw;

	nw = split_words(c, line, w);
	if (nw <= 0)
		return nw;
	if (!*seen_version && strcmp(w[0], "version"))
		return fail(c, "the first directive must be 'version %d'",
			    GPLAN_VERSION);

	if (!strcmp(w[0], "version")) {
		return parse_version(c, p, nw, w, seen_version);
	} else if (!strcmp(w[0], "interval_ms")) {
		if (nw != 2)
			return fail(c, "interval_ms: expected one number");
		if (parse_u64(c, "interval_ms", w[1], PLAN_INTERVAL_MS_MIN,
			      PLAN_INTERVAL_MS_MAX, &v))
			return -1;
		p->interval_ms = (unsigned int)v;
	} else if (!strcmp(w[0], "timeout_s")) {
		if (nw != 2)
			return fail(c, "timeout_s: expected one number");
		if (parse_u64(c, "timeout_s", w[1], PLAN_TIMEOUT_S_MIN,
			      PLAN_TIMEOUT_S_MAX, &v))
			return -1;
		p->timeout_s = (unsigned int)v;
	} else if (!strcmp(w[0], "sysctl")) {
		return add_kv(c, "sysctl", nw, w, p->sysctl, &p->nsysctl,
			      GPLAN_MAX_SYSCTL, NULL);
	} else if (!strcmp(w[0], "thp")) {
		return add_kv(c, "thp", nw, w, p->thp, &p->nthp,
			      GPLAN_MAX_KV, thp_keys);
	} else if (!strcmp(w[0], "mthp")) {
		return parse_mthp(c, p, nw, w);
	} else if (!strcmp(w[0], "zswap")) {
		return add_kv(c, "zswap", nw, w, p->zswap, &p->nzswap,
			      GPLAN_MAX_KV, zswap_keys);
	} else if (!strcmp(w[0], "swap")) {
		return parse_swap(c, p, nw, w);
	} else if (!strcmp(w[0], "net")) {
		return parse_net(c, p, nw, w);
	} else if (!strcmp(w[0], "workload")) {
		return parse_workload(c, p, nw, w);
	} else if (!strcmp(w[0], "phase")) {
		return parse_phase(c, p, nw, w);
	} else if (!strcmp(w[0], "fault")) {
		return parse_fault(c, p, nw, w);
	} else if (!strcmp(w[0], "hostroot")) {
		return parse_hostroot(c, p, nw, w);
	} else if (!strcmp(w[0], "command")) {
		return parse_command(c, p, nw, w);
	} else if (!strcmp(w[0], "group")) {
		return parse_group(c, p, nw, w);
	} else if (!strcmp(w[0], "arg") || !strcmp(w[0], "env") ||
		   !strcmp(w[0], "output")) {
		return parse_group_word(c, p, nw, w);
	} else if (!strcmp(w[0], "verify_seed")) {
		if (p->has_verify_seed)
			return fail(c, "verify_seed: duplicate directive");
		if (nw != 2)
			return fail(c, "verify_seed: expected one number");
		if (parse_u64(c, "verify_seed", w[1], 0, PLAN_SEED_MAX,
			      &p->verify_seed))
			return -1;
		p->has_verify_seed = true;
	} else {
		return fail(c, "unknown directive '%s'", w[0]);
	}
	return 0;
}

static void default_phases(struct gplan *p)
{
	static const struct gplan_phase def[] = {
		{ .type = PHASE_FILL },
		{ .type = PHASE_PAGEOUT },
		{ .type = PHASE_READ, .random = false },
		{ .type = PHASE_READ, .random = true },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(def); i++)
		p->phase[i] = def[i];
	p->nphase = (int)ARRAY_SIZE(def);
}

int gplan_parse(const char *text, struct gplan *p, char *err, size_t errlen)
{
	struct line_ctx c = { .lineno = 0, .err = err, .errlen = errlen };
	char line[GPLAN_MAX_LINE + 1];
	bool seen_version = false;
	const char *s = text;
	int i;

	memset(p, 0, sizeof(*p));
	p->interval_ms = GPLAN_DEF_INTERVAL_MS;
	p->uniq_words = PLAN_UNIQUE_WORDS_MAX;
	p->timeout_s = GPLAN_DEF_TIMEOUT_S;
	if (errlen)
		err[0] = '\0';

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		c.lineno++;
		if (len > GPLAN_MAX_LINE)
			return fail(&c, "longer than %d bytes", GPLAN_MAX_LINE);
		memcpy(line, s, len);
		line[len] = '\0';
		for (i = 0; i < (int)len; i++)
			if (!isprint((unsigned char)line[i]) &&
			    line[i] != '\t' && line[i] != '\r')
				return fail(&c, "control or non-ASCII byte 0x%02x",
					    (unsigned char)line[i]);
		if (parse_line(&c, p, line, &seen_version))
			return -1;
		s += len;
		if (*s == '\n')
			s++;
	}
	c.lineno++;
	if (!seen_version)
		return fail(&c, "end of plan: missing 'version %d'",
			    GPLAN_VERSION);
	if (p->has_command) {
		if (p->has_workload || p->nphase)
			return fail(&c, "end of plan: command excludes workload and phase");
		if (!p->ngroup)
			return fail(&c, "end of plan: command without a group");
		if (!p->has_hostroot)
			return fail(&c, "end of plan: command needs a hostroot directive");
		for (i = 0; i < p->ngroup; i++)
			if (!p->group[i].nargs)
				return fail(&c, "end of plan: group %s has no arg",
					    p->group[i].name);
		return 0;
	}
	if (!p->has_workload)
		return fail(&c, "end of plan: missing workload directive");
	for (i = 0; i < p->nswap; i++)
		if (p->swap[i].type == SWAP_NFSFILE && !p->has_net)
			return fail(&c, "end of plan: nfsfile backend needs a net directive");
	if (!p->nphase)
		default_phases(p);
	for (i = 0; i < p->nfault; i++)
		if ((p->fault[i].trig == TRIG_PHASE &&
		     p->fault[i].at >= (uint64_t)p->nphase) ||
		    p->fault[i].until_phase >= p->nphase)
			return fail(&c, "end of plan: fault index=%u: phase=%llu (until %d) but the plan has %d phases",
				    p->fault[i].index,
				    (unsigned long long)p->fault[i].at,
				    p->fault[i].until_phase, p->nphase);
	return 0;
}
