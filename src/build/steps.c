// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build --keep-each: the kernel after patch k of a series,
 * installed as kernels/<series>.<kk>/ (what swapctl bisect runs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "manifest.h"

/*
 * The variant of step @k of @v:
 * kernels/<series>.<kk>[-debug][-cfg-...][@<line>].
 */
static int step_variant(struct build_ctx *c, const struct variant *v,
			const struct series *s, size_t k, struct variant *sv)
{
	*sv = *v;
	if (util_path(sv->name, sizeof(sv->name), "%s.%0*zu%s%s%s", v->series,
		      s->n > 99 ? 3 : 2, k, v->debug ? "-debug" : "",
		      c->set ? c->set->suffix : "", v->git ? "" : c->line_sfx)) {
		build_fail("%s: kernel name too long (--keep-each)", v->name);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * What the kernel after patch @k of @v is built from: the tree's stamp
 * with k patches and the configuration's inputs but the tree's Kconfig
 * (which the stamp fixes). NULL without memory.
 */
static char *step_key(struct build_ctx *c, const struct variant *v,
		      const struct series *s, size_t k)
{
	char *tree = NULL, *patches, *key;

	if (v->git) {
		tree = git_stamp(v->git, s, k);
	} else {
		patches = series_stamp(s, k);
		if (!patches || asprintf(&tree, "pristine %s\n%s",
					 c->pristine_id, patches) < 0)
			tree = NULL;
		free(patches);
	}
	if (!tree || asprintf(&key, "%sfragment %s\ndebug %s\nset %s\n", tree,
			      c->fragment_sha, v->debug ?
			      c->debug_fragment_sha : "",
			      c->set ? c->set->frag : "") < 0)
		key = NULL;
	free(tree);
	return key;
}

/* Is kernels/<@sv>/ the kernel of @key already? Its manifest, else NULL. */
static json_t *step_current(struct build_ctx *c, const struct variant *sv,
			    const char *key)
{
	char p[PATH_MAX], sha[65];
	json_error_t jerr;
	const char *want;
	json_t *m;

	m = manifest_load(c->cfg->workdir, sv->name, &jerr);
	want = json_string_value(json_object_get(m, "bzimage_sha256"));
	util_path(p, sizeof(p), "%s/kernels/%s/bzImage", c->cfg->workdir,
		  sv->name);
	if (m && key && want && !strcmp(key, json_string_value(
			json_object_get(m, "step_key")) ?: "") &&
	    !util_sha256_file(p, sha) && !strcmp(sha, want))
		return m;
	json_decref(m);
	return NULL;
}

/* Install @tree's bzImage, built after patch @k of @v, as its step. */
int step_install(struct build_ctx *c, const struct variant *v,
		 const struct series *s, size_t k, const char *tree,
		 double secs)
{
	struct series part = *s;	/* shallow: the first k patches */
	struct variant sv;
	json_t *m = NULL;
	char *key;
	int ret;

	ret = step_variant(c, v, s, k, &sv);
	if (ret)
		return ret;
	key = step_key(c, v, s, k);
	if (!key) {
		build_fail("%s: out of memory", sv.name);
		return EXIT_FAILURE_GENERIC;
	}
	part.n = k;
	ret = manifest_install(c, &sv, &part, tree, secs, &m);
	if (!ret) {
		json_object_set_new(m, "step_key", json_string(key));
		json_object_set_new(m, "step", json_pack("{s:s,s:I,s:I,s:s}",
			"of", v->name, "patch", (json_int_t)k,
			"patches", (json_int_t)s->n,
			"name", s->patches[k - 1].name));
		ret = manifest_write(c, &sv, m);
	}
	if (!ret)
		build_info("%s: the kernel after patch %zu/%zu %s", sv.name, k,
			   s->n, s->patches[k - 1].name);
	if (!ret)
		json_array_append(c->kernels, m);
	json_decref(m);
	free(key);
	return ret;
}

/* --keep-each: step @k's kernel is there already (and listed): skip it. */
bool step_skip(struct build_ctx *c, const struct variant *v,
	       const struct series *s, size_t k)
{
	struct variant sv;
	char *key;
	json_t *m;

	if (step_variant(c, v, s, k, &sv))
		return false;
	key = step_key(c, v, s, k);
	m = step_current(c, &sv, key);
	free(key);
	if (!m)
		return false;
	build_info("%s: up to date", sv.name);
	json_array_append_new(c->kernels, m);
	return true;
}
