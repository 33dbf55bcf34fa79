// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build --tree with --range or --apply: the two variants of the
 * user's git tree (gittree.c does the git work), and the check that a
 * build never replaces a kernel another source built.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "manifest.h"

/* --range BASE..TOPIC or --base REF: the refs, resolved. */
static int tree_refs(struct tree_mode *t, const struct build_opts *o)
{
	const char *dots = o->range ? strstr(o->range, "..") : NULL;
	char err[1024];
	int i, ret;

	if (dots) {
		snprintf(t->g[0].ref, sizeof(t->g[0].ref), "%.*s",
			 (int)(dots - o->range), o->range);
		snprintf(t->g[1].ref, sizeof(t->g[1].ref), "%s", dots + 2);
	} else {
		snprintf(t->g[0].ref, sizeof(t->g[0].ref), "%s",
			 o->base ? o->base : "HEAD");
		snprintf(t->g[1].ref, sizeof(t->g[1].ref), "%s", t->g[0].ref);
		if (series_load_path(&t->apply, o->apply, err, sizeof(err))) {
			build_fail("--apply: %s", err);
			return EXIT_PATCH;
		}
		t->g[1].apply = &t->apply;
	}
	memcpy(t->g[1].top, t->g[0].top, sizeof(t->g[1].top));
	for (i = 0; i < 2; i++) {
		ret = git_resolve(&t->g[i], o->range ? "--range" : "--base");
		if (ret)
			return ret;
	}
	return 0;
}

/* The names of the two kernels: --names, else the refs' (the series'). */
static int tree_names(const struct tree_mode *t, const struct build_opts *o,
		      char names[2][64])
{
	const char *comma = o->names ? strchr(o->names, ',') : NULL;
	int i;

	if (o->names && !comma) {
		build_fail("--names: '%s' is not BASE,PATCHED", o->names);
		return EXIT_USAGE;
	}
	if (comma) {
		snprintf(names[0], 64, "%.*s", (int)(comma - o->names),
			 o->names);
		snprintf(names[1], 64, "%s", comma + 1);
	} else {
		git_ref_name(t->g[0].ref, names[0], 64);
		if (o->range)
			git_ref_name(t->g[1].ref, names[1], 64);
		else
			git_ref_name(t->apply.name, names[1], 64);
	}
	for (i = 0; i < 2; i++)
		if (!variant_valid_name(names[i]) ||
		    variant_debug_name(names[i])) {
			build_fail("%s: '%s' cannot name a kernel (letters, digits, '.', '_', '-', not ending in -debug): give --names BASE,PATCHED",
				   o->names ? "--names" : t->g[i].ref, names[i]);
			return EXIT_USAGE;
		}
	if (!strcmp(names[0], names[1])) {
		build_fail("both kernels would be named '%s': give --names BASE,PATCHED",
			   names[0]);
		return EXIT_USAGE;
	}
	return 0;
}

/* What kernels/<v> (or trees/<v>) was built from, if not from @v's. */
static bool other_source(struct build_ctx *c, const struct variant *v,
			 char *was, size_t len)
{
	char p[PATH_MAX];
	json_error_t jerr;
	const char *kind, *tree;
	json_t *m, *src;
	bool other;

	util_path(p, sizeof(p), "%s/trees/%s/.git", c->cfg->workdir, v->name);
	if (!v->git && util_exists(p)) {
		snprintf(was, len, "a git tree");
		return true;
	}
	m = manifest_load(c->cfg->workdir, v->name, &jerr);
	if (!m)
		return false;
	src = json_object_get(m, "source");
	kind = json_string_value(json_object_get(src, "kind")) ?: "tarball";
	tree = json_string_value(json_object_get(src, "tree")) ?: "";
	other = v->git ? strcmp(kind, "git") || strcmp(tree, v->git->top) :
		!strcmp(kind, "git");
	snprintf(was, len, "%s%s%s", !strcmp(kind, "git") ? "the git tree " :
		 "the tarball ", !strcmp(kind, "git") ? tree :
		 json_string_value(json_object_get(m, "tarball")) ?: "",
		 "");
	json_decref(m);
	return other;
}

/* Whether kernel line @a (valid) is newer than @b. */
static bool line_newer(const char *a, const char *b)
{
	unsigned int major, minor;

	return sscanf(a, "%u.%u", &major, &minor) == 2 &&
	       kline_before(b, major, minor);
}

/*
 * The guest fragment for a git tree of kernel line @line: that of the
 * newest line swapctl ships a fragment for (patches/<L>/kernel.config)
 * that is not newer than @line, else guest/kernel.config (6.1's).
 */
static void line_fragment(const struct build_ctx *c, const char *line,
			  char *frag, size_t len, char *from, size_t flen)
{
	char dir[PATH_MAX], p[PATH_MAX];
	struct dirent *d;
	DIR *dh;

	util_path(frag, len, "%s/guest/kernel.config", c->datadir);
	snprintf(from, flen, "%s", KLINE_FIRST);
	util_path(dir, sizeof(dir), "%s/patches", c->datadir);
	dh = opendir(dir);
	if (!dh)
		return;
	while ((d = readdir(dh))) {
		if (!kline_valid(d->d_name) ||
		    line_newer(d->d_name, line) ||
		    !line_newer(d->d_name, from))
			continue;
		if (util_path(p, sizeof(p), "%s/%s/kernel.config", dir,
			      d->d_name) || !util_exists(p))
			continue;
		snprintf(frag, len, "%s", p);
		/* kline_valid(): shorter than KLINE_MAX */
		snprintf(from, flen, "%.*s", KLINE_MAX - 1, d->d_name);
	}
	closedir(dh);
}

/*
 * A git tree's kernel line (its top Makefile at BASE and TOPIC) selects
 * the guest fragment, as --line does for a tarball. Both commits must
 * take the same fragment: one build has one .config recipe.
 */
static int tree_line(struct build_ctx *c, const struct tree_mode *t)
{
	char line[2][KLINE_MAX], frag[2][PATH_MAX], from[2][KLINE_MAX];
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = git_line(&t->g[i], line[i], sizeof(line[i]));
		if (ret)
			return ret;
		line_fragment(c, line[i], frag[i], sizeof(frag[i]), from[i],
			      sizeof(from[i]));
	}
	if (strcmp(frag[0], frag[1])) {
		build_fail("%s: %s is kernel line %s and %s is %s: they need different guest fragments (%s, %s); build each with --apply",
			   t->g[0].top, t->g[0].ref, line[0], t->g[1].ref,
			   line[1], frag[0], frag[1]);
		return EXIT_USAGE;
	}
	snprintf(c->line, sizeof(c->line), "%s", line[1]);
	snprintf(c->fragment, sizeof(c->fragment), "%s", frag[0]);
	return build_hash_fragment(c) ? EXIT_SETUP : 0;
}

/* Refuse to replace a kernel the user built from another source. */
int tree_check_owners(struct build_ctx *c, const struct variant *vs,
		      int nvar)
{
	char was[PATH_MAX + 32];
	int i;

	for (i = 0; i < nvar; i++) {
		if (!other_source(c, &vs[i], was, sizeof(was)))
			continue;
		build_fail("%s/kernels/%s: built from %s; this build would replace it (%s)",
			   c->cfg->workdir, vs[i].name, was, vs[i].git ?
			   "give other names: --names BASE,PATCHED" :
			   "remove it first: swapctl build --clean with the --tree options that built it");
		return EXIT_USAGE;
	}
	return 0;
}

/* --range / --apply: the two variants; their number, or -exit code. */
int tree_variants(struct build_ctx *c, const struct build_opts *o,
		  struct tree_mode *t, struct variant *vs)
{
	const char *dir = o->tree ? o->tree : c->cfg->kernel_tree;
	char names[2][64];
	int i, ret;

	if (!*dir) {
		build_fail("--range and --apply need a git tree: --tree DIR, or kernel_tree in %s",
			   c->cfg->source);
		return -EXIT_USAGE;
	}
	if (o->tree)
		snprintf(t->what, sizeof(t->what), "--tree");
	else
		snprintf(t->what, sizeof(t->what), "kernel_tree, from %s",
			 c->cfg->source);
	ret = git_tree_open(dir, t->what, t->g[0].top, sizeof(t->g[0].top));
	if (!ret)
		ret = tree_refs(t, o);
	if (!ret)
		ret = tree_line(c, t);
	if (!ret && !o->clean)
		ret = git_check_clean(t->g, 2);
	if (!ret)
		ret = tree_names(t, o, names);
	for (i = 0; i < 2 && !ret; i++) {
		memset(&vs[i], 0, sizeof(vs[i]));
		vs[i].debug = o->debug;
		vs[i].git = &t->g[i];
		memcpy(vs[i].series, names[i], sizeof(vs[i].series));
		if (util_path(vs[i].name, sizeof(vs[i].name), "%s%s%s",
			      names[i], o->debug ? "-debug" : "",
			      o->set.suffix)) {
			build_fail("%s: kernel name too long", names[i]);
			ret = EXIT_USAGE;
		}
		if (i)
			snprintf(vs[i].donor, sizeof(vs[i].donor), "%s",
				 vs[0].name);
	}
	if (!ret && !o->clean)
		ret = tree_check_owners(c, vs, 2);
	return ret ? -ret : 2;
}
