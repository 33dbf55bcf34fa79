// SPDX-License-Identifier: GPL-2.0
/*
 * kcidb: the results model (results.h) as KCIDB I/O JSON.
 *
 * Checked against the schema of kernelci/kcidb-io,
 * kcidb_io/schema/v05_03.py ("Kernel CI reporting I/O schema v5.3",
 * LATEST in kcidb_io/schema/__init__.py at commit 8971c02), which
 * inherits its patterns from v05_00.py and v03_00.py:
 *
 *   - top level: "version" is required, {"major": 5 (const), "minor":
 *     0..3}; "checkouts", "builds", "tests" are arrays; no other
 *     property; no property may be null (so absent facts are left out);
 *   - every "id" and "*_id": "^[a-z0-9_]+:[^\0]*$" (origin, ':', then
 *     unique among the objects of that type from that origin); "origin":
 *     "^[a-z0-9_]+$";
 *   - checkout: requires "id", "origin"; "valid" is a boolean;
 *   - build: requires "checkout_id", "id", "origin"; "architecture"
 *     "^[a-z0-9_]*$"; "config_name"; "status" (v5 replaced v4's "valid"
 *     of builds and tests with it);
 *   - test: requires "build_id", "id", "origin"; "path" dot-separated,
 *     "^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$"; "status" one of FAIL,
 *     ERROR, MISS, PASS, DONE, SKIP; "number" {"value" (required),
 *     "unit", "prefix"} with no other property; "environment"
 *     {"comment", "misc", "compatible"}; "misc" free-form.
 *
 * The unit tests check the required fields and the id patterns.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kcidb.h"
#include "metrics.h"
#include "results.h"

const char *kcidb_status_name(enum kcidb_status s)
{
	switch (s) {
	case KCIDB_PASS:
		return "PASS";
	case KCIDB_FAIL:
		return "FAIL";
	case KCIDB_ERROR:
		return "ERROR";
	case KCIDB_SKIP:
		break;
	}
	return "SKIP";
}

enum kcidb_status kcidb_test_status(const char *guest_status,
				    bool expects_oom, bool has_value,
				    enum verdict v)
{
	const char *want = expects_oom ? "oom" : "pass";

	if (guest_status && !strcmp(guest_status, "corrupt"))
		return KCIDB_FAIL;
	if (!guest_status || strcmp(guest_status, want))
		return KCIDB_ERROR;
	if (!has_value)
		return KCIDB_SKIP;
	return v == V_WORSE ? KCIDB_FAIL : KCIDB_PASS;
}

void kcidb_path_segment(char *out, size_t len, const char *name)
{
	size_t i;

	if (!len)
		return;
	if (!name || !*name)
		name = "unnamed";
	for (i = 0; name[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)name[i];

		out[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '-' ?
			 (char)c : '_';
	}
	out[i] = 0;
}

/* "swapctl:<run>:<a>" or "swapctl:<run>:<a>:<b>" */
static json_t *id_json(const char *run, const char *a, const char *b)
{
	return b ? json_sprintf("%s:%s:%s:%s", KCIDB_ORIGIN, run, a, b) :
		json_sprintf("%s:%s:%s", KCIDB_ORIGIN, run, a);
}

static const struct kcidb_kernel *kernel_facts(const struct kcidb_run *k,
					       unsigned int i)
{
	static const struct kcidb_kernel none = { .built = -1 };

	return k->kernels ? &k->kernels[i] : &none;
}

/* Whether kernel @i was built: its bzImage, or a guest that said hello. */
static int built(const struct kcidb_run *k, unsigned int i)
{
	const struct kcidb_kernel *kf = kernel_facts(k, i);

	if (kf->built >= 0)
		return kf->built;
	return kf->release && *kf->release ? 1 : -1;
}

/* Set @key to string @s unless it is NULL or "" (the schema has no null). */
static void set_str(json_t *o, const char *key, const char *s)
{
	if (s && *s)
		json_object_set_new(o, key, json_string(s));
}

static json_t *checkout_json(const struct kcidb_run *k, unsigned int i)
{
	const struct kcidb_kernel *kf = kernel_facts(k, i);
	const char *name = k->res->kernels[i];
	json_t *o = json_object(), *misc = json_object();

	json_object_set_new(o, "id", id_json(k->run, name, NULL));
	json_object_set_new(o, "origin", json_string(KCIDB_ORIGIN));
	if (built(k, i) == 1)	/* built: its series applied */
		json_object_set_new(o, "valid", json_true());
	json_object_set_new(o, "comment", json_sprintf(
		"swapctl kernel %s (variant %s%s%s)", name,
		kf->variant ? kf->variant : "unknown",
		kf->release && *kf->release ? ", release " : "",
		kf->release && *kf->release ? kf->release : ""));
	json_object_set_new(misc, "kernel", json_string(name));
	set_str(misc, "variant", kf->variant);
	set_str(misc, "release", kf->release);
	json_object_set_new(misc, "reference", json_boolean(i == 0));
	json_object_set_new(o, "misc", misc);
	return o;
}

static json_t *build_json(const struct kcidb_run *k, unsigned int i)
{
	const struct kcidb_kernel *kf = kernel_facts(k, i);
	const char *name = k->res->kernels[i];
	json_t *o = json_object(), *misc = json_object();
	int b = built(k, i);

	json_object_set_new(o, "id", id_json(k->run, name, NULL));
	json_object_set_new(o, "checkout_id", id_json(k->run, name, NULL));
	json_object_set_new(o, "origin", json_string(KCIDB_ORIGIN));
	json_object_set_new(o, "architecture", json_string("x86_64"));
	json_object_set_new(o, "config_name", json_string(kf->debug ?
		"tinyconfig+guest/kernel.config+guest/debug.config" :
		"tinyconfig+guest/kernel.config"));
	if (b >= 0)
		json_object_set_new(o, "status",
				    json_string(b ? "PASS" : "FAIL"));
	set_str(misc, "variant", kf->variant);
	set_str(misc, "release", kf->release);
	json_object_set_new(o, "misc", misc);
	return o;
}

static json_t *environment_json(const struct kcidb_run *k)
{
	json_t *o = json_object(), *misc = json_object();
	char comment[160];

	snprintf(comment, sizeof(comment), "QEMU guest through libvirt%s%s",
		 k->accel && *k->accel ? ", accel " : "",
		 k->accel && *k->accel ? k->accel : "");
	set_str(misc, "accel", k->accel);
	if (k->memory_mb) {
		json_object_set_new(misc, "memory_mb",
				    json_integer(k->memory_mb));
		snprintf(comment + strlen(comment),
			 sizeof(comment) - strlen(comment), ", %u MiB",
			 k->memory_mb);
	}
	if (k->cpus) {
		json_object_set_new(misc, "cpus", json_integer(k->cpus));
		snprintf(comment + strlen(comment),
			 sizeof(comment) - strlen(comment), ", %u CPUs",
			 k->cpus);
	}
	json_object_set_new(o, "comment", json_string(comment));
	json_object_set_new(o, "misc", misc);
	return o;
}

/* misc of a test: the guest, the value's state, the comparison. */
static json_t *test_misc(const struct kcidb_run *k, unsigned int gi,
			 unsigned int mi, int ki, const struct res_cmp *c)
{
	const struct res_guest *g = &k->res->g[gi];
	json_t *misc = json_object();

	json_object_set_new(misc, "kernel", json_string(g->kernel));
	json_object_set_new(misc, "rep", json_integer(g->rep));
	if (k->guests)
		set_str(misc, "guest_status", k->guests[gi].status);
	json_object_set_new(misc, "metric", json_string(metric_defs[mi].key));
	if (g->v[mi].state != STATS_OK)
		json_object_set_new(misc, "value", json_string(
			g->v[mi].state == STATS_MISSING ? "missing" : "n/a"));
	json_object_set_new(misc, "reference",
			    json_string(k->res->nk ? k->res->kernels[0] : ""));
	if (ki <= 0)	/* the reference itself, or a kernel not listed */
		return misc;
	json_object_set_new(misc, "verdict",
			    json_string(results_verdict_name(c->verdict)));
	if (c->has_ratio && isfinite(c->ratio))
		json_object_set_new(misc, "ratio", json_real(c->ratio));
	if (c->has_ci && isfinite(c->lo) && isfinite(c->hi))
		json_object_set_new(misc, "ci95",
				    json_pack("[ff]", c->lo, c->hi));
	if (c->has_p && isfinite(c->p))
		json_object_set_new(misc, "p_value", json_real(c->p));
	return misc;
}

static json_t *test_json(const struct kcidb_run *k, unsigned int gi,
			 unsigned int mi, const char *seg, json_t *env)
{
	const struct res_guest *g = &k->res->g[gi];
	const struct metric_def *m = &metric_defs[mi];
	int ki = results_kernel_index(k->res, g->kernel);
	bool has = g->v[mi].state == STATS_OK && isfinite(g->v[mi].v);
	struct res_cmp c = { .m = m, .verdict = V_NOT_MEASURED };
	json_t *o = json_object();
	char gname[80];

	if (ki > 0)
		results_compare(k->res, mi, (unsigned int)ki, 0, &c);
	if (k->guests && k->guests[gi].name)
		snprintf(gname, sizeof(gname), "%s", k->guests[gi].name);
	else
		snprintf(gname, sizeof(gname), "%s-%u", g->kernel, g->rep);
	json_object_set_new(o, "id", id_json(k->run, gname, m->key));
	json_object_set_new(o, "build_id", id_json(k->run, g->kernel, NULL));
	json_object_set_new(o, "origin", json_string(KCIDB_ORIGIN));
	json_object_set_new(o, "path", json_sprintf("swapctl.%s.%s", seg,
						    m->key));
	json_object_set_new(o, "comment", json_sprintf("%s, guest %s",
						       m->label, gname));
	json_object_set_new(o, "status", json_string(kcidb_status_name(
		kcidb_test_status(k->guests ? k->guests[gi].status : NULL,
				  k->expects_oom, has, c.verdict))));
	if (has)
		json_object_set_new(o, "number", m->unit && *m->unit ?
			json_pack("{sfss}", "value", g->v[mi].v, "unit",
				  m->unit) :
			json_pack("{sf}", "value", g->v[mi].v));
	json_object_set_new(o, "environment", json_deep_copy(env));
	json_object_set_new(o, "misc", test_misc(k, gi, mi, ki, &c));
	return o;
}

json_t *kcidb_json(const struct kcidb_run *k)
{
	json_t *o = json_object(), *co = json_array(), *bu = json_array();
	json_t *te = json_array(), *env = environment_json(k);
	char seg[128];
	unsigned int i, mi;

	kcidb_path_segment(seg, sizeof(seg), k->scenario);
	json_object_set_new(o, "version", json_pack("{sisi}", "major",
						    KCIDB_MAJOR, "minor",
						    KCIDB_MINOR));
	for (i = 0; i < k->res->nk; i++) {
		json_array_append_new(co, checkout_json(k, i));
		json_array_append_new(bu, build_json(k, i));
	}
	for (i = 0; i < k->res->ng; i++)
		for (mi = 0; mi < metric_count; mi++)
			json_array_append_new(te, test_json(k, i, mi, seg,
							    env));
	json_decref(env);
	json_object_set_new(o, "checkouts", co);
	json_object_set_new(o, "builds", bu);
	json_object_set_new(o, "tests", te);
	return o;
}
