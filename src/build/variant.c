// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the variants (struct variant), which the options select,
 * whether each is built already, and its build: the tree, the .config,
 * make, and kernels/<variant>/ (manifest.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "manifest.h"

/*
 * The key of a finished build: config inputs + tree stamp. When it matches
 * and the installed kernel is the one built, there is nothing to do.
 */
static char *built_key(const char *tree)
{
	char p[PATH_MAX], *a, *b, *k = NULL;

	util_path(p, sizeof(p), "%s/.swapctl-stamp", tree);
	a = util_read_file(p, NULL);
	util_path(p, sizeof(p), "%s/out/.swapctl-config", tree);
	b = util_read_file(p, NULL);
	if (a && b && asprintf(&k, "%s%s", a, b) < 0)
		k = NULL;
	free(a);
	free(b);
	return k;
}

static bool up_to_date(struct build_ctx *c, const struct variant *v,
		       const char *tree, json_t **manifest)
{
	char p[PATH_MAX], sha[65], *key;
	json_error_t jerr;
	const char *want;
	bool ok = false;
	json_t *m;

	key = built_key(tree);
	util_path(p, sizeof(p), "%s/out/.swapctl-built", tree);
	if (!key || !build_file_equals(p, key))
		goto out;
	m = manifest_load(c->cfg->workdir, v->name, &jerr);
	if (!m)
		goto out;
	want = json_string_value(json_object_get(m, "bzimage_sha256"));
	util_path(p, sizeof(p), "%s/kernels/%s/bzImage", c->cfg->workdir,
		  v->name);
	if (want && !util_sha256_file(p, sha) && !strcmp(sha, want)) {
		ok = true;
		*manifest = m;
	} else {
		json_decref(m);
	}
out:
	free(key);
	return ok;
}

static int mark_built(const char *tree)
{
	char p[PATH_MAX], *key = built_key(tree);
	int r;

	util_path(p, sizeof(p), "%s/out/.swapctl-built", tree);
	r = key ? util_write_file_atomic(p, key, strlen(key), 0644) : -1;
	free(key);
	return r;
}

/* The patches of @v: its series under the root, or what --apply gave. */
int variant_series(struct build_ctx *c, const struct variant *v,
		   struct series *s, char *err, size_t errlen)
{
	if (!v->git)
		return series_load(s, c->patches_root, v->series, err, errlen);
	memset(s, 0, sizeof(*s));
	if (v->git->apply && series_copy(s, v->git->apply)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/*
 * Without the lock: is everything about @v already built from the
 * current inputs? Only reads stamps (written atomically), so a build
 * running meanwhile can at worst make this say no.
 */
bool variant_current(struct build_ctx *c, const struct variant *v)
{
	struct variant_state vs;
	char err[1024];
	struct series s;

	if (variant_series(c, v, &s, err, sizeof(err)))
		return false;
	variant_state(c, v, &s, &vs);
	series_free(&s);
	if (!vs.manifest)
		return false;
	json_array_append_new(c->kernels, vs.manifest);
	return true;
}

/* Steps @k of @v: the tree with k patches, its .config, make. */
static int build_step(struct build_ctx *c, const struct variant *v,
		      const struct series *s, size_t k, bool each,
		      bool keep, json_t **manifest)
{
	char tree[PATH_MAX], label[PATH_MAX], p[PATH_MAX], donor[PATH_MAX];
	double secs = 0;
	bool changed;
	int ret;

	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, v->name);
	util_path(donor, sizeof(donor), "%s/trees/%s", c->cfg->workdir,
		  v->donor);
	if (each && s->n)
		util_path(label, sizeof(label), "%s [%zu/%zu %s]", v->name, k,
			  s->n, s->patches[k - 1].name);
	else
		util_path(label, sizeof(label), "%s", v->name);
	if (v->git)
		ret = git_prepare(c, v->git, s, k, tree, v->donor[0] ?
				  donor : NULL, &changed);
	else
		ret = tree_prepare(c, s, k, tree, v->donor[0] ? donor : NULL,
				   &changed);
	if (!ret)
		ret = kconfig_configure(c, tree);
	if (ret)
		return ret;
	if (k == s->n && up_to_date(c, v, tree, manifest)) {
		build_info("%s: up to date", v->name);
		if (keep && !step_skip(c, v, s, k))
			ret = step_install(c, v, s, k, tree, 0);
		return ret;
	}
	util_path(p, sizeof(p), "%s/out/.swapctl-built", tree);
	unlink(p);
	ret = kmake_bzimage(c, tree, label, &secs);
	if (ret == EXIT_BUILD && each && s->n)
		build_fail("%s: patch %zu/%zu %s (%s line %d) is the first that breaks the build",
			   v->name, k, s->n, s->patches[k - 1].name, s->file,
			   s->patches[k - 1].line);
	if (ret)
		return ret;
	mark_built(tree);
	if (keep)
		ret = step_install(c, v, s, k, tree, secs);
	if (!ret && k == s->n)
		ret = manifest_install(c, v, s, tree, secs, manifest);
	return ret;
}

int build_variant(struct build_ctx *c, const struct variant *v,
		  bool each, bool keep)
{
	char err[1024], p[PATH_MAX];
	json_t *manifest = NULL;
	struct series s;
	size_t k;
	int ret;

	if (variant_series(c, v, &s, err, sizeof(err))) {
		build_fail("%s", err);
		return EXIT_PATCH;
	}
	c->cur = v;
	util_path(p, sizeof(p), "%s/trees", c->cfg->workdir);
	util_mkdir_p(p, 0755);
	ret = kmake_open_log(c, v->name);
	/* --keep-each: the baseline's (a donor) steps are not kept */
	keep = keep && v->donor[0] && s.n;
	for (k = each && s.n ? 1 : s.n; !ret && k <= s.n && !manifest; k++)
		if (!(keep && k < s.n && step_skip(c, v, &s, k)))
			ret = build_step(c, v, &s, k, each, keep, &manifest);
	if (manifest)
		json_array_append_new(c->kernels, manifest);
	kmake_close_log(c);
	series_free(&s);
	return ret;
}

int variant_clean(struct build_ctx *c, const struct variant *v)
{
	static const char *const suffix[] = { "", ".new", ".old" };
	char p[PATH_MAX];
	size_t i;

	util_path(p, sizeof(p), "%s/trees/%s", c->cfg->workdir, v->name);
	if (v->git && util_exists(p)) {
		if (git_remove(c, v->git->top, p))
			return EXIT_SETUP;
		build_info("removed %s (a worktree of %s)", p, v->git->top);
	}
	for (i = 0; i < 3; i++) {
		if (util_path(p, sizeof(p), "%s/trees/%s%s", c->cfg->workdir,
			      v->name, suffix[i]))
			return EXIT_SETUP;
		if (!util_exists(p))
			continue;
		if (util_rm_rf(p)) {
			build_fail("%s: %s", p, strerror(errno));
			return EXIT_SETUP;
		}
		build_info("removed %s", p);
	}
	return 0;
}

bool variant_valid_name(const char *v)
{
	const char *p;

	if (!*v || *v == '.')
		return false;
	for (p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return false;
	return strlen(v) < 64;
}

/* "x-debug" is the debug variant of x, never a series of its own. */
bool variant_debug_name(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, "-debug");
}

int variant_check_inputs(struct build_ctx *c, const struct variant *vs,
			 int nvar, bool clean)
{
	char err[1024];
	struct series s;
	int i;

	if (clean)
		return 0;
	if (!vs[0].git && access(c->tarball, R_OK)) {
		build_fail("%s: %s (%s)", c->tarball, strerror(errno),
			   tree_tarball_origin(c, err, sizeof(err)));
		return EXIT_SETUP;
	}
	for (i = 0; i < nvar; i++) {
		if (!vs[i].git && variant_debug_name(vs[i].series)) {
			build_fail("%s/%s: a series name must not end in -debug (the name of a debug variant)",
				   c->patches_root, vs[i].series);
			return EXIT_PATCH;
		}
		if (variant_series(c, &vs[i], &s, err, sizeof(err))) {
			build_fail("%s", err);
			return EXIT_PATCH;
		}
		series_free(&s);
		if (vs[i].debug && !c->debug_fragment_sha[0] &&
		    util_sha256_file(c->debug_fragment, c->debug_fragment_sha)) {
			build_fail("%s: %s (the debug fragment, for --debug)",
				   c->debug_fragment, strerror(errno));
			return EXIT_SETUP;
		}
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * --all: baseline, then every directory under the series root that holds
 * a series file, by name. The names come from the directories.
 */
static int discover_series(struct build_ctx *c, char names[][64], int max)
{
	char p[PATH_MAX], *sorted[BUILD_MAX_VARIANTS];
	char found[BUILD_MAX_VARIANTS][64];
	struct dirent *d;
	int n = 0, i;
	DIR *dh;

	dh = opendir(c->patches_root);
	if (!dh) {
		build_fail("%s: %s (the series root)", c->patches_root,
			   strerror(errno));
		return -EXIT_PATCH;
	}
	while ((d = readdir(dh))) {
		if (!variant_valid_name(d->d_name) || !strcmp(d->d_name, "baseline") ||
		    util_path(p, sizeof(p), "%s/%s/series", c->patches_root,
			      d->d_name) || access(p, R_OK))
			continue;
		if (n + 1 >= max || n >= BUILD_MAX_VARIANTS) {
			closedir(dh);
			build_fail("%s: more than %d series", c->patches_root,
				   max - 1);
			return -EXIT_PATCH;
		}
		if (snprintf(found[n], sizeof(found[n]), "%s", d->d_name) >=
		    (int)sizeof(found[n]))
			continue;
		sorted[n] = found[n];
		n++;
	}
	closedir(dh);
	qsort(sorted, n, sizeof(sorted[0]), cmp_names);
	snprintf(names[0], 64, "baseline");
	for (i = 0; i < n; i++)
		snprintf(names[i + 1], 64, "%s", sorted[i]);
	return n + 1;
}

/* The variants the options select; their number, or -exit code. */
int variant_select(struct build_ctx *c, const struct build_opts *o,
		   struct variant *vs)
{
	char names[BUILD_MAX_VARIANTS][64];
	int n = 0, i;

	if (o->series) {
		snprintf(names[n++], 64, "%s", o->series);
	} else if (o->baseline) {
		snprintf(names[n++], 64, "baseline");
	} else if (o->all) {
		n = discover_series(c, names, BUILD_MAX_VARIANTS);
		if (n < 0)
			return n;
	} else {
		snprintf(names[n++], 64, "baseline");
		if (strcmp(c->cfg->series, "baseline"))
			snprintf(names[n++], 64, "%s", c->cfg->series);
	}
	for (i = 0; i < n; i++) {
		memset(&vs[i], 0, sizeof(vs[i]));
		vs[i].debug = o->debug;
		if (snprintf(vs[i].series, sizeof(vs[i].series), "%s",
			     names[i]) >= (int)sizeof(vs[i].series) ||
		    snprintf(vs[i].name, sizeof(vs[i].name), "%s%s%s%s",
			     names[i], o->debug ? "-debug" : "",
			     o->set.suffix, c->line_sfx) >=
		    (int)sizeof(vs[i].name)) {
			build_fail("%s: series name too long", names[i]);
			return -EXIT_USAGE;
		}
		/* the baseline of the same debug and --config-set suffix */
		if (strcmp(names[i], "baseline"))
			util_path(vs[i].donor, sizeof(vs[i].donor),
				  "baseline%s%s%s", o->debug ? "-debug" : "",
				  o->set.suffix, c->line_sfx);
	}
	return n;
}

void variant_state(struct build_ctx *c, const struct variant *v,
		   const struct series *s, struct variant_state *vs)
{
	char tree[PATH_MAX], p[PATH_MAX], *patches, *stamp = NULL;
	char *key = NULL;

	memset(vs, 0, sizeof(*vs));
	c->cur = v;
	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, v->name);
	patches = series_stamp(s, s->n);
	if (v->git)
		stamp = git_stamp(v->git, s, s->n);
	else if (!patches || asprintf(&stamp, "pristine %s\n%s",
				      c->pristine_id, patches) < 0)
		stamp = NULL;
	util_path(p, sizeof(p), "%s/.swapctl-stamp", tree);
	vs->tree_current = stamp && build_file_equals(p, stamp);
	key = vs->tree_current ? kconfig_key(c, tree) : NULL;
	util_path(p, sizeof(p), "%s/out/.swapctl-config", tree);
	vs->config_current = key && build_file_equals(p, key);
	if (vs->config_current && !up_to_date(c, v, tree, &vs->manifest))
		vs->manifest = NULL;
	free(key);
	free(stamp);
	free(patches);
}
