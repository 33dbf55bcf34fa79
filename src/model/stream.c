// SPDX-License-Identifier: GPL-2.0
/*
 * stream: parse and validate the lines of the agent protocol, version 1:
 * one JSON object into a struct stream_line, member by member (feed.c
 * frames the bytes into lines and checks each against the ones before).
 * See stream.h and doc/HACKING.md.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "stream-int.h"
#include "util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static __printf(3, 4) int fail(struct stream_state *st, enum stream_err err,
			       const char *fmt, ...);

static int vfail(struct stream_state *st, enum stream_err err,
		 const char *fmt, va_list ap)
{
	if (st->last_err != STREAM_OK)
		return -1;
	st->last_err = err;
	vsnprintf(st->last_error, sizeof(st->last_error), fmt, ap);
	return -1;
}

static int fail(struct stream_state *st, enum stream_err err,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(st, err, fmt, ap);
	va_end(ap);
	return -1;
}

int stream_fail(struct stream_state *st, enum stream_err err,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(st, err, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * An object of named unsigned counters ("vmstat", "values") into @arr of
 * @max; those past @max are counted in out->dropped.
 */
static int parse_named(struct stream_state *st, json_t *obj,
		       const char *where, struct stream_counter *arr,
		       unsigned int *n, unsigned int max,
		       struct stream_line *out)
{
	char name[STREAM_NAME_MAX];
	const char *key;
	size_t keylen;
	json_t *val;

	json_object_keylen_foreach(obj, key, keylen, val) {
		uint64_t v;

		if (fld_check(st, where, key, keylen, name, sizeof(name)) < 0 ||
		    fld_val(st, val, where, name, &v) < 0)
			return -1;
		if (*n >= max) {
			out->dropped++;
			continue;
		}
		strcpy(arr[*n].name, name);
		arr[*n].value = v;
		(*n)++;
	}
	return 0;
}

static int parse_vmstat(struct stream_state *st, json_t *obj,
			struct stream_line *out)
{
	return parse_named(st, obj, "vmstat.", out->counters,
			   &out->ncounters, STREAM_MAX_COUNTERS, out);
}

/*
 * "mthp":{"64kB":{"swpout":N,"swpout_fallback":N},..}: each stat becomes
 * counter "mthp_64kB_swpout". A size is digits and "kB", a stat a name
 * of [a-z_]; the whole counter name must fit STREAM_NAME_MAX.
 */
static int parse_mthp(struct stream_state *st, json_t *obj,
		      struct stream_line *out)
{
	const char *key, *k2;
	size_t keylen, k2len, d;
	json_t *val, *v2;
	char size[16], stat[STREAM_NAME_MAX], name[STREAM_NAME_MAX];

	json_object_keylen_foreach(obj, key, keylen, val) {
		if (fld_check(st, "mthp.", key, keylen, size, sizeof(size)) < 0)
			return -1;
		d = strspn(size, "0123456789");
		if (!d || d + 2 != keylen || strcmp(size + d, "kB"))
			return fail(st, STREAM_E_FIELD,
				    "mthp.%s: not a size (<digits>kB)", size);
		if (!json_is_object(val))
			return fail(st, STREAM_E_FIELD,
				    "mthp.%s: not an object", size);
		json_object_keylen_foreach(val, k2, k2len, v2) {
			uint64_t v;

			if (fld_check(st, "mthp.*.", k2, k2len, stat,
				      sizeof(stat)) < 0)
				return -1;
			if (strspn(stat, "abcdefghijklmnopqrstuvwxyz_") != k2len ||
			    snprintf(name, sizeof(name), "mthp_%s_%s", size,
				     stat) >= (int)sizeof(name))
				return fail(st, STREAM_E_FIELD,
					    "mthp.%s.%s: not a stat name",
					    size, stat);
			if (fld_val(st, v2, "mthp.*.", stat, &v) < 0)
				return -1;
			if (out->ncounters >= STREAM_MAX_COUNTERS) {
				out->dropped++;
				continue;
			}
			strcpy(out->counters[out->ncounters].name, name);
			out->counters[out->ncounters++].value = v;
		}
	}
	return 0;
}

/* "values": {"name": integer...} of a result or command end line */
static int parse_values(struct stream_state *st, json_t *root,
			struct stream_line *out)
{
	json_t *obj = fld_typed(st, root, "", "values", false, JSON_OBJECT);

	if (!obj)	/* absent, or not an object (failed) */
		return json_object_get(root, "values") ? -1 : 0;
	return parse_named(st, obj, "values.", out->values, &out->nvalues,
			   STREAM_MAX_VALUES, out);
}

static int parse_blk(struct stream_state *st, json_t *obj, bool host,
		     struct stream_line *out)
{
	const char *key;
	size_t keylen;
	json_t *val;
	char name[STREAM_NAME_MAX];

	json_object_keylen_foreach(obj, key, keylen, val) {
		struct stream_blk b;

		memset(&b, 0, sizeof(b));
		if (fld_check(st, "blk.", key, keylen, name, sizeof(name)) < 0)
			return -1;
		if (!json_is_object(val))
			return fail(st, STREAM_E_FIELD,
				    "blk.%s: not an object", name);
		strcpy(b.dev, name);
		if (host) {
			if (fld_u64(st, val, "blk.*.", "rd_req", true,
				    &b.rd_ios) < 0 ||
			    fld_u64(st, val, "blk.*.", "wr_req", true,
				    &b.wr_ios) < 0 ||
			    fld_u64(st, val, "blk.*.", "rd_bytes", true,
				    &b.rd_bytes) < 0 ||
			    fld_u64(st, val, "blk.*.", "wr_bytes", true,
				    &b.wr_bytes) < 0)
				return -1;
		} else {
			if (fld_u64(st, val, "blk.*.", "rd_ios", true,
				    &b.rd_ios) < 0 ||
			    fld_u64(st, val, "blk.*.", "rd_sectors", true,
				    &b.rd_sectors) < 0 ||
			    fld_u64(st, val, "blk.*.", "wr_ios", true,
				    &b.wr_ios) < 0 ||
			    fld_u64(st, val, "blk.*.", "wr_sectors", true,
				    &b.wr_sectors) < 0 ||
			    fld_u64(st, val, "blk.*.", "in_flight", false,
				    &b.in_flight) < 0)
				return -1;
		}
		if (out->nblk >= STREAM_MAX_DEVS) {
			out->dropped++;
			continue;
		}
		out->blk[out->nblk++] = b;
	}
	return 0;
}

/* "swaps" of a sample (@backends false) or "backends" of a swap line. */
static int parse_swaps(struct stream_state *st, json_t *arr, bool backends,
		       struct stream_line *out)
{
	const char *w = backends ? "backends[]." : "swaps[].";
	size_t i;
	json_t *val;

	json_array_foreach(arr, i, val) {
		struct stream_swap s;
		int r;

		memset(&s, 0, sizeof(s));
		if (!json_is_object(val))
			return fail(st, STREAM_E_FIELD, "%s: not an object",
				    backends ? "backends[]" : "swaps[]");
		if (fld_str(st, val, w, "name", true, s.name, sizeof(s.name),
			    STR_PATH) < 0)
			return -1;
		if (backends) {
			if (fld_str(st, val, w, "type", true, s.type,
				    sizeof(s.type), STR_NAME) < 0 ||
			    /* "": a backend without a block device (NFS) */
			    fld_str(st, val, w, "dev", false, s.dev,
				    sizeof(s.dev), STR_NAME0) < 0 ||
			    fld_u64(st, val, w, "size_kb", false,
				    &s.size_kb) < 0)
				return -1;
		} else {
			if (fld_u64(st, val, w, "used_kb", true,
				    &s.used_kb) < 0 ||
			    fld_u64(st, val, w, "size_kb", true,
				    &s.size_kb) < 0)
				return -1;
			if (s.used_kb > s.size_kb)
				return fail(st, STREAM_E_ABSURD,
					    "swaps[].used_kb %" PRIu64
					    " > size_kb %" PRIu64,
					    s.used_kb, s.size_kb);
		}
		r = fld_s64(st, val, w, "prio", false, -(1LL << 31), &s.prio);
		if (r < 0)
			return -1;
		s.has_prio = r > 0;
		if (out->nswaps >= STREAM_MAX_SWAPS) {
			out->dropped++;
			continue;
		}
		out->swaps[out->nswaps++] = s;
	}
	return 0;
}

static int parse_zram(struct stream_state *st, json_t *obj,
		      struct stream_line *out)
{
	const char *key;
	size_t keylen;
	json_t *val;
	char name[STREAM_NAME_MAX];

	json_object_keylen_foreach(obj, key, keylen, val) {
		struct stream_zram z;
		int r;

		memset(&z, 0, sizeof(z));
		if (fld_check(st, "zram.", key, keylen, name, sizeof(name)) < 0)
			return -1;
		if (!json_is_object(val))
			return fail(st, STREAM_E_FIELD,
				    "zram.%s: not an object", name);
		strcpy(z.name, name);
		if (fld_u64(st, val, "zram.*.", "orig_data_size", true,
			    &z.orig_data_size) < 0 ||
		    fld_u64(st, val, "zram.*.", "compr_data_size", true,
			    &z.compr_data_size) < 0 ||
		    fld_u64(st, val, "zram.*.", "mem_used_total", true,
			    &z.mem_used_total) < 0)
			return -1;
		r = fld_u64(st, val, "zram.*.", "huge_pages", false,
			    &z.huge_pages);
		if (r < 0)
			return -1;
		z.has_huge_pages = r > 0;
		if (out->nzram >= STREAM_MAX_ZRAM) {
			out->dropped++;
			continue;
		}
		out->zram[out->nzram++] = z;
	}
	return 0;
}

static int parse_cpu(struct stream_state *st, json_t *obj,
		     struct stream_line *out)
{
	struct stream_cpu *c = &out->cpu;
	const char *w = "cpu_ns.";

	if (fld_u64(st, obj, w, "user", true, &c->user) < 0 ||
	    fld_u64(st, obj, w, "nice", true, &c->nice) < 0 ||
	    fld_u64(st, obj, w, "system", true, &c->system) < 0 ||
	    fld_u64(st, obj, w, "idle", true, &c->idle) < 0 ||
	    fld_u64(st, obj, w, "iowait", true, &c->iowait) < 0 ||
	    fld_u64(st, obj, w, "irq", true, &c->irq) < 0 ||
	    fld_u64(st, obj, w, "softirq", true, &c->softirq) < 0 ||
	    fld_u64(st, obj, w, "steal", true, &c->steal) < 0)
		return -1;
	out->has_cpu = true;
	return 0;
}

static int parse_psi(struct stream_state *st, json_t *obj,
		     struct stream_line *out)
{
	int r;

	if (fld_u64(st, obj, "psi.", "some_us", true, &out->psi_some_us) < 0)
		return -1;
	r = fld_u64(st, obj, "psi.", "full_us", false, &out->psi_full_us);
	if (r < 0)
		return -1;
	out->has_psi = true;
	out->has_psi_full = r > 0;
	return 0;
}

/* "mem":{"free_kb":N,"min_kb":N,"writeback_kb":N}, all three. */
static int parse_mem(struct stream_state *st, json_t *obj,
		     struct stream_line *out)
{
	if (fld_u64(st, obj, "mem.", "free_kb", true, &out->mem_free_kb) < 0 ||
	    fld_u64(st, obj, "mem.", "min_kb", true, &out->mem_min_kb) < 0 ||
	    fld_u64(st, obj, "mem.", "writeback_kb", true,
		    &out->mem_writeback_kb) < 0)
		return -1;
	out->has_mem = true;
	return 0;
}

/* Host "cpu_ns":{"total":N[,"user":N,"system":N]}. */
static int parse_host_cpu(struct stream_state *st, json_t *obj,
			  struct stream_line *out)
{
	int ru, rs;

	if (fld_u64(st, obj, "cpu_ns.", "total", true, &out->host_cpu_ns) < 0)
		return -1;
	ru = fld_u64(st, obj, "cpu_ns.", "user", false,
		     &out->host_cpu_user_ns);
	if (ru < 0)
		return -1;
	rs = fld_u64(st, obj, "cpu_ns.", "system", false,
		     &out->host_cpu_sys_ns);
	if (rs < 0)
		return -1;
	if (ru != rs)
		return fail(st, STREAM_E_FIELD,
			    "cpu_ns: user and system go together");
	out->has_host_cpu = true;
	out->has_host_cpu_split = ru > 0;
	return 0;
}

static int parse_host(struct stream_state *st, json_t *root,
		      struct stream_line *out)
{
	json_t *blk, *cpu;

	blk = fld_typed(st, root, "", "blk", false, JSON_OBJECT);
	if (st->last_err || (blk && parse_blk(st, blk, true, out) < 0))
		return -1;
	cpu = fld_typed(st, root, "", "cpu_ns", false, JSON_OBJECT);
	if (st->last_err || (cpu && parse_host_cpu(st, cpu, out) < 0))
		return -1;
	if (!blk && !cpu)
		return fail(st, STREAM_E_FIELD, "host: neither blk nor cpu_ns");
	return 0;
}

static int parse_hello(struct stream_state *st, json_t *root,
		       struct stream_line *out)
{
	json_t *arr, *val;
	size_t i;

	if (fld_str(st, root, "", "kernel", true, out->kernel,
		    sizeof(out->kernel), STR_PATH) < 0 ||
	    fld_u64(st, root, "", "interval_ms", true,
		    &out->interval_ms) < 0)
		return -1;
	arr = fld_typed(st, root, "", "counters", true, JSON_ARRAY);
	if (!arr)
		return -1;
	json_array_foreach(arr, i, val) {
		char name[STREAM_NAME_MAX];

		if (!json_is_string(val))
			return fail(st, STREAM_E_FIELD,
				    "counters[%zu]: not a string", i);
		if (fld_copy(st, "counters[]", "", json_string_value(val),
			     json_string_length(val), name, sizeof(name),
			     STR_NAME) < 0)
			return -1;
		if (out->ncounters >= STREAM_MAX_COUNTERS) {
			out->dropped++;
			continue;
		}
		strcpy(out->counters[out->ncounters++].name, name);
	}
	return 0;
}

static int parse_sample(struct stream_state *st, json_t *root,
			struct stream_line *out)
{
	json_t *j;
	int r;

	j = fld_typed(st, root, "", "vmstat", true, JSON_OBJECT);
	if (!j || parse_vmstat(st, j, out) < 0)
		return -1;
	j = fld_typed(st, root, "", "blk", false, JSON_OBJECT);
	if (st->last_err || (j && parse_blk(st, j, false, out) < 0))
		return -1;
	j = fld_typed(st, root, "", "swaps", false, JSON_ARRAY);
	if (st->last_err || (j && parse_swaps(st, j, false, out) < 0))
		return -1;
	j = fld_typed(st, root, "", "zram", false, JSON_OBJECT);
	if (st->last_err || (j && parse_zram(st, j, out) < 0))
		return -1;
	j = fld_typed(st, root, "", "mthp", false, JSON_OBJECT);
	if (st->last_err || (j && parse_mthp(st, j, out) < 0))
		return -1;
	j = fld_typed(st, root, "", "cpu_ns", false, JSON_OBJECT);
	if (st->last_err || (j && parse_cpu(st, j, out) < 0))
		return -1;
	j = fld_typed(st, root, "", "psi", false, JSON_OBJECT);
	if (st->last_err || (j && parse_psi(st, j, out) < 0))
		return -1;
	j = fld_typed(st, root, "", "mem", false, JSON_OBJECT);
	if (st->last_err || (j && parse_mem(st, j, out) < 0))
		return -1;
	r = fld_u64(st, root, "", "agent_cpu_ns", false, &out->agent_cpu_ns);
	if (r < 0)
		return -1;
	out->has_agent_cpu = r > 0;
	return 0;
}

/* asked/resident_before/resident/evicted: all four or none. */
static int parse_residency(struct stream_state *st, json_t *root,
			   struct stream_line *out)
{
	int r;

	r = fld_u64(st, root, "", "asked", false, &out->asked);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	if (fld_u64(st, root, "", "resident_before", true,
		    &out->resident_before) < 0 ||
	    fld_u64(st, root, "", "resident", true, &out->resident) < 0 ||
	    fld_u64(st, root, "", "evicted", true, &out->evicted) < 0)
		return -1;
	if (out->resident_before > out->asked || out->resident > out->asked)
		return fail(st, STREAM_E_ABSURD,
			    "resident %" PRIu64 " / %" PRIu64
			    " of %" PRIu64 " pages asked",
			    out->resident_before, out->resident, out->asked);
	if (out->evicted > out->resident_before)
		return fail(st, STREAM_E_ABSURD,
			    "evicted %" PRIu64 " > resident_before %" PRIu64,
			    out->evicted, out->resident_before);
	out->phase_has_residency = true;
	return 0;
}

/*
 * swapin_faults/_p50_us/_p99_us/_max_us: all four or none, ordered, at
 * most @pages touches of at most @max_us each (common/agentproto.h);
 * @result: of a result line (pages verified, the guest's uptime), else
 * of a phase's end (its pages and ns).
 */
static int parse_swapin(struct stream_state *st, json_t *root,
			uint64_t pages, uint64_t max_us, bool result,
			struct stream_line *out)
{
	int r;

	r = fld_u64(st, root, "", "swapin_faults", false, &out->swapin_faults);
	if (r <= 0)
		return r < 0 ? -1 : 0;
	if (fld_u64(st, root, "", "swapin_p50_us", true,
		    &out->swapin_p50_us) < 0 ||
	    fld_u64(st, root, "", "swapin_p99_us", true,
		    &out->swapin_p99_us) < 0 ||
	    fld_u64(st, root, "", "swapin_max_us", true,
		    &out->swapin_max_us) < 0)
		return -1;
	if (out->swapin_faults > pages)
		return fail(st, STREAM_E_ABSURD,
			    "swapin_faults %" PRIu64 " > %" PRIu64 " pages%s",
			    out->swapin_faults, pages,
			    result ? " verified" : " of the phase");
	if (out->swapin_p50_us > out->swapin_p99_us ||
	    out->swapin_p99_us > out->swapin_max_us)
		return fail(st, STREAM_E_ABSURD,
			    "swapin p50 %" PRIu64 " p99 %" PRIu64
			    " max %" PRIu64 " us: not in order",
			    out->swapin_p50_us, out->swapin_p99_us,
			    out->swapin_max_us);
	if (out->swapin_max_us > max_us)
		return fail(st, STREAM_E_ABSURD,
			    "swapin_max_us %" PRIu64 " > %" PRIu64 " us %s",
			    out->swapin_max_us, max_us,
			    result ? "of guest uptime" : "the phase took");
	if (!out->swapin_faults && out->swapin_max_us)
		return fail(st, STREAM_E_ABSURD,
			    "swapin_max_us %" PRIu64 " without a fault",
			    out->swapin_max_us);
	out->has_swapin = true;
	return 0;
}

static int parse_phase(struct stream_state *st, json_t *root,
		       struct stream_line *out)
{
	char state[8];
	int r;

	if (fld_str(st, root, "", "name", true, out->phase,
		    sizeof(out->phase), STR_NAME) < 0 ||
	    fld_str(st, root, "", "state", true, state, sizeof(state),
		    STR_NAME) < 0)
		return -1;
	if (!strcmp(state, "start"))
		out->phase_state = STREAM_PHASE_START;
	else if (!strcmp(state, "end"))
		out->phase_state = STREAM_PHASE_END;
	else
		return fail(st, STREAM_E_FIELD, "state: '%s' is not start|end",
			    state);
	r = fld_u64(st, root, "", "pages", false, &out->pages);
	if (r < 0 || fld_u64(st, root, "", "ns", false, &out->ns) < 0 ||
	    fld_u64(st, root, "", "corrupt", false, &out->corrupt) < 0 ||
	    fld_u64(st, root, "", "failed", false, &out->failed) < 0 ||
	    parse_residency(st, root, out) < 0)
		return -1;
	out->phase_has_stats = r > 0;
	out->phase_index = -1;
	if (fld_s64(st, root, "", "index", false, 0, &out->phase_index) < 0)
		return -1;
	if (out->failed > out->pages)
		return fail(st, STREAM_E_ABSURD,
			    "failed %" PRIu64 " > pages %" PRIu64,
			    out->failed, out->pages);
	if (json_object_get(root, "swapin_faults") && !out->phase_has_stats)
		return fail(st, STREAM_E_FIELD,
			    "swapin_faults: without pages and ns");
	return parse_swapin(st, root, out->pages, out->ns / 1000, false, out);
}

/*
 * {"type":"fault","name":..,"state":"start|end","index":N,"detail":..},
 * the end line of a slab_error with "injected":N
 */
static int parse_fault(struct stream_state *st, json_t *root,
		       struct stream_line *out)
{
	char state[8];
	int r;

	if (fld_str(st, root, "", "name", true, out->phase,
		    sizeof(out->phase), STR_NAME) < 0 ||
	    fld_str(st, root, "", "state", true, state, sizeof(state),
		    STR_NAME) < 0)
		return -1;
	if (!strcmp(state, "start"))
		out->phase_state = STREAM_PHASE_START;
	else if (!strcmp(state, "end"))
		out->phase_state = STREAM_PHASE_END;
	else
		return fail(st, STREAM_E_FIELD, "state: '%s' is not start|end",
			    state);
	out->phase_index = -1;
	if (fld_s64(st, root, "", "index", false, 0, &out->phase_index) < 0 ||
	    fld_str(st, root, "", "detail", false, out->msg,
		    sizeof(out->msg), STR_TEXT) < 0)
		return -1;
	r = fld_u64(st, root, "", "injected", false, &out->injected);
	if (r < 0)
		return -1;
	out->has_injected = r > 0;
	if (out->has_injected && out->phase_state != STREAM_PHASE_END)
		return fail(st, STREAM_E_FIELD,
			    "injected: only on a fault's end line");
	return 0;
}

static int parse_result(struct stream_state *st, json_t *root,
			struct stream_line *out)
{
	char status[16];
	int r;

	if (fld_str(st, root, "", "status", true, status, sizeof(status),
		    STR_NAME) < 0)
		return -1;
	if (!strcmp(status, "pass"))
		out->status = STREAM_PASS;
	else if (!strcmp(status, "corrupt"))
		out->status = STREAM_CORRUPT;
	else if (!strcmp(status, "error"))
		out->status = STREAM_ERROR;
	else if (!strcmp(status, "oom"))
		out->status = STREAM_OOM;
	else
		return fail(st, STREAM_E_FIELD,
			    "status: '%s' is not pass|corrupt|error|oom",
			    status);
	if (fld_u64(st, root, "", "pages_written", true,
		    &out->pages_written) < 0 ||
	    fld_u64(st, root, "", "pages_verified", true,
		    &out->pages_verified) < 0 ||
	    fld_u64(st, root, "", "pages_corrupt", true,
		    &out->pages_corrupt) < 0 ||
	    fld_s64(st, root, "", "first_corrupt", true, -1,
		    &out->first_corrupt) < 0 ||
	    fld_str(st, root, "", "reason", false, out->msg,
		    sizeof(out->msg), STR_TEXT) < 0)
		return -1;
	r = fld_u64(st, root, "", "pages_failed", false, &out->pages_failed);
	if (r < 0 || fld_u64(st, root, "", "pages_failed_distinct", false,
			     &out->pages_failed_distinct) < 0)
		return -1;
	out->has_pages_failed = r > 0;
	if (parse_swapin(st, root, out->pages_verified, out->t_ns / 1000, true,
			 out) < 0)
		return -1;
	if (out->pages_failed_distinct > out->pages_failed)
		return fail(st, STREAM_E_ABSURD,
			    "pages_failed_distinct %" PRIu64
			    " > pages_failed %" PRIu64,
			    out->pages_failed_distinct, out->pages_failed);
	r = fld_u64(st, root, "", "agent_cpu_ns", false, &out->agent_cpu_ns);
	if (r < 0)
		return -1;
	out->has_agent_cpu = r > 0;
	return 0;
}

/* The extra members of a command workload's result (all or none). */
static int parse_result_command(struct stream_state *st, json_t *root,
				struct stream_line *out)
{
	int r;

	r = fld_u64(st, root, "", "commands", false, &out->commands);
	if (r <= 0)
		return r;
	if (fld_u64(st, root, "", "commands_failed", true,
		    &out->commands_failed) < 0 ||
	    fld_u64(st, root, "", "outputs_compared", true,
		    &out->outputs_compared) < 0 ||
	    fld_u64(st, root, "", "outputs_differ", true,
		    &out->outputs_differ) < 0)
		return -1;
	r = fld_bool(st, root, "host_root_ro", &out->host_root_ro);
	if (r < 0)
		return -1;
	out->has_host_root_ro = r > 0;
	if (out->commands_failed > out->commands)
		return fail(st, STREAM_E_ABSURD,
			    "commands_failed: %llu of %llu commands",
			    (unsigned long long)out->commands_failed,
			    (unsigned long long)out->commands);
	if (out->outputs_differ > out->outputs_compared + out->commands *
	    4096)
		return fail(st, STREAM_E_ABSURD,
			    "outputs_differ: %llu is absurd",
			    (unsigned long long)out->outputs_differ);
	out->has_commands = true;
	return 0;
}

static bool hex64(const char *s)
{
	int i;

	for (i = 0; i < 64; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return !s[64];
}

const char *const stream_cg_stat_names[STREAM_CG_NSTATS] = {
	"workingset_refault_anon", "pgscan", "pgsteal", "zswpout",
};

/* A command end line's CPU times and "memstat" (all optional). */
static int parse_command_stats(struct stream_state *st, json_t *root,
			       struct stream_line *out)
{
	json_t *ms;
	int r1, r2, r, i;

	r1 = fld_u64(st, root, "", "user_ns", false, &out->cmd_user_ns);
	r2 = fld_u64(st, root, "", "sys_ns", false, &out->cmd_sys_ns);
	if (r1 < 0 || r2 < 0)
		return -1;
	out->has_cmd_cpu = r1 > 0 && r2 > 0;
	ms = fld_typed(st, root, "", "memstat", false, JSON_OBJECT);
	if (st->last_err)
		return -1;
	for (i = 0; ms && i < STREAM_CG_NSTATS; i++) {
		r = fld_u64(st, ms, "memstat.", stream_cg_stat_names[i], false,
			    &out->cg_stat[i]);
		if (r < 0)
			return -1;
		if (r > 0)
			out->cg_has |= 1u << i;
	}
	return 0;
}

static int parse_command(struct stream_state *st, json_t *root,
			 struct stream_line *out)
{
	char run[16], state[8];

	if (fld_str(st, root, "", "group", true, out->group,
		    sizeof(out->group), STR_NAME) < 0 ||
	    fld_str(st, root, "", "run", true, run, sizeof(run),
		    STR_NAME) < 0 ||
	    fld_str(st, root, "", "state", true, state, sizeof(state),
		    STR_NAME) < 0)
		return -1;
	if (!strcmp(run, "reference"))
		out->cmd_reference = true;
	else if (strcmp(run, "limited"))
		return fail(st, STREAM_E_FIELD,
			    "run: '%s' is not reference|limited", run);
	if (!strcmp(state, "start")) {
		out->phase_state = STREAM_PHASE_START;
		return 0;
	}
	if (strcmp(state, "end"))
		return fail(st, STREAM_E_FIELD, "state: '%s' is not start|end",
			    state);
	out->phase_state = STREAM_PHASE_END;
	if (fld_s64(st, root, "", "exit", true, -1, &out->cmd_exit) < 0 ||
	    fld_u64(st, root, "", "signal", true, &out->cmd_signal) < 0 ||
	    fld_u64(st, root, "", "ns", true, &out->ns) < 0 ||
	    fld_u64(st, root, "", "outputs", true, &out->cmd_outputs) < 0 ||
	    fld_u64(st, root, "", "memory_peak_kb", false,
		    &out->memory_peak_kb) < 0 ||
	    fld_u64(st, root, "", "oom_kill", false, &out->oom_kill) < 0)
		return -1;
	if (parse_command_stats(st, root, out) < 0 ||
	    parse_values(st, root, out) < 0)
		return -1;
	if (out->cmd_exit > 255 || out->cmd_signal > 64)
		return fail(st, STREAM_E_ABSURD, "exit %lld / signal %llu",
			    (long long)out->cmd_exit,
			    (unsigned long long)out->cmd_signal);
	if (out->cmd_outputs) {
		if (fld_str(st, root, "", "outputs_sha256", true,
			    out->outputs_sha256, sizeof(out->outputs_sha256),
			    STR_NAME) < 0)
			return -1;
		if (!hex64(out->outputs_sha256))
			return fail(st, STREAM_E_FIELD,
				    "outputs_sha256: not 64 lowercase hex digits");
	}
	return 0;
}

static const struct {
	const char *name;
	enum stream_type type;
} types[] = {
	{ "hello", STREAM_T_HELLO },
	{ "log", STREAM_T_LOG },
	{ "swap", STREAM_T_SWAP },
	{ "sample", STREAM_T_SAMPLE },
	{ "phase", STREAM_T_PHASE },
	{ "result", STREAM_T_RESULT },
	{ "host", STREAM_T_HOST },
	{ "fault", STREAM_T_FAULT },
	{ "command", STREAM_T_COMMAND },
};

const char *stream_type_str(enum stream_type type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (types[i].type == type)
			return types[i].name;
	return "none";
}

static enum stream_type type_of(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(types[i].name, s))
			return types[i].type;
	return STREAM_T_NONE;
}

int stream_parse_root(struct stream_state *st, json_t *root,
		      struct stream_line *out)
{
	char type[16];
	bool host;
	json_t *v;
	int r;

	r = fld_str(st, root, "", "type", true, type, sizeof(type), STR_NAME);
	if (r < 0) {
		if (st->last_err == STREAM_E_FIELD &&
		    json_is_string(json_object_get(root, "type"))) {
			/* a well-formed but unknown (long) type */
			st->last_err = STREAM_E_TYPE;
		}
		return -1;
	}
	out->type = type_of(type);
	if (out->type == STREAM_T_NONE)
		return fail(st, STREAM_E_TYPE, "type: unknown '%s'", type);

	/* host and fault lines may come from the host: no v, no seq */
	host = out->type == STREAM_T_HOST ||
	       (out->type == STREAM_T_FAULT && !json_object_get(root, "seq"));
	v = json_object_get(root, "v");
	if (v || !host) {
		if (!v)
			return fail(st, STREAM_E_FIELD, "v: missing");
		if (!json_is_integer(v))
			return fail(st, STREAM_E_FIELD, "v: not an integer");
		if (json_integer_value(v) != AGENT_PROTO_VERSION)
			return fail(st, STREAM_E_VERSION,
				    "v: version %lld, expected %d",
				    (long long)json_integer_value(v),
				    AGENT_PROTO_VERSION);
	}
	r = fld_u64(st, root, "", "seq", !host, &out->seq);
	if (r < 0)
		return -1;
	out->has_seq = r > 0;
	if (fld_u64(st, root, "", "t_ns", true, &out->t_ns) < 0)
		return -1;

	switch (out->type) {
	case STREAM_T_HELLO:
		return parse_hello(st, root, out);
	case STREAM_T_LOG:
		if (fld_str(st, root, "", "level", true, out->level,
			    sizeof(out->level), STR_NAME) < 0 ||
		    fld_str(st, root, "", "msg", true, out->msg,
			    sizeof(out->msg), STR_TEXT) < 0)
			return -1;
		return 0;
	case STREAM_T_SWAP:
		v = fld_typed(st, root, "", "backends", true, JSON_ARRAY);
		if (!v)
			return -1;
		return parse_swaps(st, v, true, out);
	case STREAM_T_SAMPLE:
		return parse_sample(st, root, out);
	case STREAM_T_PHASE:
		return parse_phase(st, root, out);
	case STREAM_T_RESULT:
		if (parse_result(st, root, out) < 0 ||
		    parse_values(st, root, out) < 0)
			return -1;
		return parse_result_command(st, root, out) < 0 ? -1 : 0;
	case STREAM_T_FAULT:
		return parse_fault(st, root, out);
	case STREAM_T_COMMAND:
		return parse_command(st, root, out);
	case STREAM_T_HOST:
		return parse_host(st, root, out);
	case STREAM_T_NONE:
		break;
	}
	return fail(st, STREAM_E_TYPE, "type: unknown");
}
