// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the command, its variants and kernels/<variant>/ (the
 * bzImage and its manifest). The other parts are listed in build.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jfile.h"
#include "build.h"
#include "manifest.h"
#include "parse-options.h"


/* ---- kernels/<variant>/ ---- */

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

/* What building @v would do, from its stamps (read only). */
struct variant_state {
	bool tree_current;	/* the tree holds the series */
	bool config_current;	/* its .config is from the same inputs */
	json_t *manifest;	/* the installed kernel is the one built */
};

static void variant_state(struct build_ctx *c, const struct variant *v,
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

/* The patches of @v: its series under the root, or what --apply gave. */
static int variant_series(struct build_ctx *c, const struct variant *v,
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
static bool variant_current(struct build_ctx *c, const struct variant *v)
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

/* ---- --keep-each: kernels/<series>.<k>/, the kernel after patch k ---- */

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
static int install_step(struct build_ctx *c, const struct variant *v,
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
static bool step_skip(struct build_ctx *c, const struct variant *v,
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
			ret = install_step(c, v, s, k, tree, 0);
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
		ret = install_step(c, v, s, k, tree, secs);
	if (!ret && k == s->n)
		ret = manifest_install(c, v, s, tree, secs, manifest);
	return ret;
}

static int build_variant(struct build_ctx *c, const struct variant *v,
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

/* ---- the command ---- */

/*
 * @path made absolute: its longest existing part resolved by realpath(),
 * the components that do not exist yet appended as they are. -1 when
 * the existing part cannot be resolved or the result is too long.
 */
static int resolve_partial(const char *path, char *out, size_t len)
{
	char head[PATH_MAX], tail[PATH_MAX] = "", t[2 * PATH_MAX];
	char *slash;

	if (util_path(head, sizeof(head), "%s", path))
		return -1;
	while (!realpath(head[0] ? head : ".", out)) {
		if (errno != ENOENT)
			return -1;
		slash = strrchr(head, '/');
		snprintf(t, sizeof(t), "/%s%s", slash ? slash + 1 : head, tail);
		if (util_path(tail, sizeof(tail), "%s", t))
			return -1;
		if (!slash)
			head[0] = '\0';
		else if (slash == head)
			strcpy(head, "/");
		else
			*slash = '\0';
	}
	if (!strcmp(out, "/") && tail[0])
		out[0] = '\0';
	if (strlen(out) + strlen(tail) >= len)
		return -1;
	strcat(out, tail);
	return 0;
}

/*
 * The work dir is not inside the repository: checked before anything is
 * created, and by --dry-run as by the build. 0 or EXIT_CONFIG.
 */
static int check_workdir_place(struct build_ctx *c)
{
	char wd[PATH_MAX], repo[PATH_MAX];
	size_t n;

	if (strlen(c->cfg->workdir) > PATH_MAX / 2) {
		build_fail("%s: path too long (workdir, from %s)",
			   c->cfg->workdir, c->cfg->source);
		return EXIT_CONFIG;
	}
	if (resolve_partial(c->cfg->workdir, wd, sizeof(wd)) ||
	    !realpath(c->datadir, repo))
		return 0;
	n = strlen(repo);
	if (!strncmp(wd, repo, n) && (wd[n] == '/' || !wd[n])) {
		build_fail("%s: the work directory must not be inside the repository %s (workdir, from %s)",
			   c->cfg->workdir, repo, c->cfg->source);
		return EXIT_CONFIG;
	}
	return 0;
}

static int check_workdir(struct build_ctx *c)
{
	int ret = check_workdir_place(c);

	if (ret)
		return ret;
	if (util_mkdir_p(c->cfg->workdir, 0755)) {
		build_fail("%s: %s (workdir, from %s)", c->cfg->workdir,
			   strerror(errno), c->cfg->source);
		return EXIT_SETUP;
	}
	return 0;
}

static int clean_variant(struct build_ctx *c, const struct variant *v)
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

static bool valid_name(const char *v)
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
static bool debug_name(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, "-debug");
}

static int check_inputs(struct build_ctx *c, const struct variant *vs,
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
		if (!vs[i].git && debug_name(vs[i].series)) {
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

static void print_summary(struct build_ctx *c, const char *initramfs,
			  bool json)
{
	json_t *m, *o;
	size_t i;
	char *s;

	if (json) {
		o = json_pack("{s:O,s:s}", "kernels", c->kernels,
			      "initramfs", initramfs);
		s = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) :
			NULL;
		if (s)
			printf("%s\n", s);
		free(s);
		json_decref(o);
		return;
	}
	printf("kernels:\n");
	json_array_foreach(c->kernels, i, m)
		printf("  %-14s %s  (%s, %zu patch%s)\n",
		       json_string_value(json_object_get(m, "variant")),
		       json_string_value(json_object_get(m, "kernel")),
		       json_string_value(json_object_get(m, "kernel_version")),
		       json_array_size(json_object_get(m, "patches")),
		       json_array_size(json_object_get(m, "patches")) == 1 ?
		       "" : "es");
	printf("initramfs:\n  %s\n", initramfs);
}

struct build_opts {
	const char *series, *patches;
	const char *tree, *range, *apply, *base, *names, *line;
	bool baseline, all, each, keep_each, clean, json, initramfs_only;
	bool dry_run;
	bool debug;
	int jobs;
	struct kconfig_set set;
};

static int opt_config_set(const struct popt *opt, const char *arg, char *err,
			  size_t errlen)
{
	return kconfig_set_add(opt->value, arg, err, errlen);
}

/* Parse the command line into @o; 0, or the exit code (help: -1). */
static int parse_args(int argc, char **argv, struct build_opts *o)
{
	struct popt opts[] = {
		OPT_STRING(0, "series", &o->series, "NAME",
			   "build only the variant of patches/NAME/series (any directory under patches/)"),
		OPT_BOOL(0, "baseline", &o->baseline,
			 "build only the baseline (patches/baseline/series)"),
		OPT_BOOL(0, "all", &o->all,
			 "build every series under patches/: baseline first, then each directory holding a series file, by name"),
		OPT_STRING(0, "line", &o->line, "LINE",
			   "the kernel line to build, MAJOR.MINOR (default: 'kernel_line' in swapctl.conf, 6.1): the tarball /usr/src/linux-source-LINE.tar.xz, the series under patches/LINE/ (patches/ for 6.1), its kernels kernels/<variant>@LINE/ (kernels/<variant>/ for 6.1)"),
		OPT_BOOL(0, "debug", &o->debug,
			 "build the debug variant of each selected kernel instead (guest/kernel.config + guest/debug.config, into kernels/<variant>-debug/)"),
		OPT_CALLBACK(0, "config-set", &o->set, "CONFIG_X=V",
			     "set one Kconfig symbol (y, m, n or an integer) after the fragments, repeatable; the variants become kernels/<variant>-cfg-<x>_<v>/ (the fragments' options that depend on it may drop)",
			     opt_config_set),
		OPT_BOOL(0, "each", &o->each,
			 "build after every patch of the series and name the first patch that breaks the build"),
		OPT_BOOL(0, "keep-each", &o->keep_each,
			 "--each, and install the kernel built after patch K of a series as kernels/<series>.<KK>/ too (two digits; what swapctl bisect runs)"),
		OPT_BOOL(0, "dry-run", &o->dry_run,
			 "print what would be extracted, applied, configured and built, per variant; start nothing"),
		OPT_INT('j', "jobs", &o->jobs, "N",
			"parallel make jobs (default: 'jobs' in swapctl.conf; 0: the number of CPUs)",
			0, 256),
		OPT_STRING(0, "tree", &o->tree, "DIR",
			   "build from this git tree (default: 'kernel_tree' in swapctl.conf) with --range or --apply; it is never written: each kernel is a worktree under <workdir>/trees/"),
		OPT_STRING(0, "range", &o->range, "BASE..TOPIC",
			   "with --tree: the baseline from commit BASE, the patched kernel from TOPIC, named after the refs"),
		OPT_STRING(0, "apply", &o->apply, "PATH",
			   "with --tree: the patched kernel is --base plus this series, applied with git am: a directory of patches (its series file, else *.patch by name), a quilt series file or an mbox"),
		OPT_STRING(0, "base", &o->base, "REF",
			   "with --apply: the commit the baseline is built from and the series applied to (default: HEAD)"),
		OPT_STRING(0, "names", &o->names, "BASE,PATCHED",
			   "with --tree: the two kernels' names under <workdir>/kernels/ (default: the refs', and the series' for --apply)"),
		OPT_STRING(0, "patches", &o->patches, "DIR",
			   "root of the series directories (default: the patches/ directory next to swapctl)"),
		OPT_BOOL(0, "clean", &o->clean,
			 "remove the variants' trees and build directories and exit (the next build starts from scratch)"),
		OPT_BOOL(0, "json", &o->json,
			 "print the manifests of the kernels (with --dry-run: the plan) as JSON"),
		OPT_BOOL(0, "initramfs-only", &o->initramfs_only,
			 "write only <workdir>/kernels/initramfs.cpio from the guest programs, build no kernel"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 4, 5, 6, 10, 13, 14, 15, 130,
		-1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "build", .opts = opts,
		.desc =
		"Apply the patch series onto the kernel source and build bootable\n"
		"guest kernels plus the guest initramfs in the work directory.\n"
		"Without a variant option, builds 'baseline' and the series named\n"
		"by 'series' in swapctl.conf. With --tree DIR (or kernel_tree)\n"
		"and --range BASE..TOPIC or --apply SERIES, builds two kernels\n"
		"from your git tree instead, without writing it. With -v\n"
		"(swapctl -v build), the output of make is shown instead of the\n"
		"progress line.\n",
		.epilog =
		"Kernels: <workdir>/kernels/<variant>/bzImage and manifest.json;\n"
		"initramfs: <workdir>/kernels/initramfs.cpio; logs: <workdir>/logs/.\n"
		"Exit 3 covers a Kconfig option of a fragment that olddefconfig\n"
		"dropped too.\n",
	};
	int n;

	memset(o, 0, sizeof(*o));
	o->jobs = -1;
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return n == PARSE_OPT_HELP ? -1 : EXIT_USAGE;
	if ((o->series != NULL) + o->baseline + o->all > 1)
		return popt_error(&cmd, "--series, --baseline and --all exclude each other");
	if (o->series && !valid_name(o->series))
		return popt_error(&cmd, "--series: '%s' is not a series name",
				  o->series);
	if (o->initramfs_only + o->clean + o->dry_run > 1)
		return popt_error(&cmd, "--initramfs-only, --clean and --dry-run exclude each other");
	if (o->line && !kline_valid(o->line))
		return popt_error(&cmd, "--line: '%s' is not a kernel line (MAJOR.MINOR, as 6.1 or 6.12)",
				  o->line);
	if (o->line && (o->range || o->apply))
		return popt_error(&cmd, "--line selects a Debian tarball: --range and --apply build from your git tree, whose line is its own");
	if (o->range && o->apply)
		return popt_error(&cmd, "--range and --apply exclude each other (--base names the commit --apply applies to)");
	if ((o->range || o->apply) &&
	    (o->series || o->baseline || o->all || o->patches))
		return popt_error(&cmd, "--range and --apply build from a git tree: they exclude --series, --baseline, --all and --patches");
	if ((o->tree || o->base || o->names) && !o->range && !o->apply &&
	    !o->initramfs_only)
		return popt_error(&cmd, "--tree, --base and --names need --range BASE..TOPIC or --apply PATH");
	if (o->base && !o->apply)
		return popt_error(&cmd, "--base goes with --apply (with --range, BASE is the part before '..')");
	if (o->range && (!strstr(o->range, "..") || strstr(o->range, "...") ||
			 o->range[0] == '.' ||
			 !o->range[strlen(o->range) - 1] ||
			 o->range[strlen(o->range) - 1] == '.'))
		return popt_error(&cmd, "--range: '%s' is not BASE..TOPIC", o->range);
	if (o->keep_each)
		o->each = true;
	if (o->series && !strcmp(o->series, "baseline")) {
		o->baseline = true;
		o->series = NULL;
	}
	return 0;
}

static int hash_fragment(struct build_ctx *c)
{
	if (util_sha256_file(c->fragment, c->fragment_sha)) {
		build_fail("%s: %s", c->fragment, strerror(errno));
		return -1;
	}
	return 0;
}

/* The data directory, the series root, the fragments and the jobs. */
static int setup_ctx(struct build_ctx *c, const struct build_opts *o)
{
	c->datadir = util_data_dir();
	if (!c->datadir) {
		build_fail("cannot find swapctl's data directory (guest/kernel.config next to the swapctl binary, in the current directory or in <prefix>/share/swapctl)");
		return EXIT_SETUP;
	}
	if (o->patches && !realpath(o->patches, c->patches_root)) {
		build_fail("--patches: %s: %s", o->patches, strerror(errno));
		return EXIT_USAGE;
	}
	snprintf(c->line, sizeof(c->line), "%s",
		 o->line ? o->line : c->cfg->kernel_line);
	kline_suffix(c->line, c->line_sfx, sizeof(c->line_sfx));
	if (config_tarball(c->cfg, c->line, c->tarball, sizeof(c->tarball))) {
		build_fail("kernel line %s: tarball path too long", c->line);
		return EXIT_CONFIG;
	}
	/* patches/ for 6.1, patches/<line>/ for the others */
	if (!o->patches && kline_is_first(c->line))
		util_path(c->patches_root, sizeof(c->patches_root),
			  "%s/patches", c->datadir);
	else if (!o->patches)
		util_path(c->patches_root, sizeof(c->patches_root),
			  "%s/patches/%s", c->datadir, c->line);
	/* the series root's guest fragment, else guest/kernel.config */
	util_path(c->fragment, sizeof(c->fragment), "%s/kernel.config",
		  c->patches_root);
	if (!util_exists(c->fragment))
		util_path(c->fragment, sizeof(c->fragment),
			  "%s/guest/kernel.config", c->datadir);
	util_path(c->debug_fragment, sizeof(c->debug_fragment),
		  "%s/guest/debug.config", c->datadir);
	if (hash_fragment(c))
		return EXIT_SETUP;
	c->set = o->set.n ? &o->set : NULL;
	c->jobs = o->jobs >= 0 ? o->jobs : c->cfg->jobs;
	if (c->jobs == 0)
		c->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (c->jobs < 1)
		c->jobs = 1;
	c->tty = isatty(STDERR_FILENO);
	c->dry_run = o->dry_run;
	return o->dry_run ? check_workdir_place(c) : check_workdir(c);
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
		if (!valid_name(d->d_name) || !strcmp(d->d_name, "baseline") ||
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
static int select_variants(struct build_ctx *c, const struct build_opts *o,
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

/* ---- --tree: kernels from the user's git tree ---- */

/* The two commits (and the series) of --range or --apply. */
struct tree_mode {
	struct git_src g[2];
	struct series apply;
	char what[PATH_MAX + 64];	/* where the tree was named */
};

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
		if (!valid_name(names[i]) || debug_name(names[i])) {
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
	return hash_fragment(c) ? EXIT_SETUP : 0;
}

/* Refuse to replace a kernel the user built from another source. */
static int check_owners(struct build_ctx *c, const struct variant *vs,
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
static int tree_variants(struct build_ctx *c, const struct build_opts *o,
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
		ret = check_owners(c, vs, 2);
	return ret ? -ret : 2;
}

/* ---- --dry-run ---- */

static json_t *dry_variant(struct build_ctx *c, const struct variant *v,
			   const struct series *s, bool each)
{
	char tree[PATH_MAX], kernel[PATH_MAX], jobs[16];
	struct variant_state st;
	json_t *o, *frags, *make;

	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, v->name);
	util_path(kernel, sizeof(kernel), "%s/kernels/%s/bzImage",
		  c->cfg->workdir, v->name);
	variant_state(c, v, s, &st);
	frags = json_pack("[s]", c->fragment);
	if (v->debug)
		json_array_append_new(frags, json_string(c->debug_fragment));
	if (c->set) {
		util_path(kernel, sizeof(kernel),
			  "%s/out/swapctl-config-set.config", tree);
		json_array_append_new(frags, json_string(kernel));
	}
	util_path(kernel, sizeof(kernel), "%s/kernels/%s/bzImage",
		  c->cfg->workdir, v->name);
	snprintf(jobs, sizeof(jobs), "-j%d", c->jobs);
	make = json_pack("[s,s,s,s,s,s,s]", "make", "-C", tree, "O=out",
			 "ARCH=x86_64", jobs, "bzImage");
	if (c->cfg->ccache)
		json_array_append_new(make, json_string("CC=ccache gcc"));
	o = json_pack("{s:s,s:s,s:b,s:s,s:b,s:o,s:o,s:b,s:o,s:b,s:b,s:s}",
		      "variant", v->name, "series", s->n ? s->file : "",
		      "debug", v->debug, "tree", tree,
		      "tree_current", st.tree_current,
		      "patches", manifest_patches(s), "fragments", frags,
		      "config_current", st.config_current, "make", make,
		      "each", each && s->n, "build_current", st.manifest != NULL,
		      "kernel", kernel);
	if (o)
		json_object_set_new(o, "source", manifest_source(c, v, s));
	if (o && c->set)
		json_object_set_new(o, "config_set",
				    json_string(c->set->frag));
	json_decref(st.manifest);
	return o;
}

static void dry_print_variant(const json_t *v)
{
	const json_t *p, *f;
	size_t i, n = json_array_size(json_object_get(v, "patches"));
	bool tree_ok = json_is_true(json_object_get(v, "tree_current"));
	const char *cs, *nl;

	printf("variant %s%s\n", json_string_value(json_object_get(v, "variant")),
	       json_is_true(json_object_get(v, "debug")) ? " (debug)" : "");
	const json_t *src = json_object_get(v, "source");
	bool git = !strcmp(json_string_value(json_object_get(src, "kind")) ?:
			   "", "git");

	if (git)
		printf("  source     %s %s (%s)\n",
		       json_string_value(json_object_get(src, "tree")),
		       json_string_value(json_object_get(src, "ref")),
		       json_string_value(json_object_get(src, "commit")));
	printf("  tree       %s: %s\n",
	       json_string_value(json_object_get(v, "tree")),
	       tree_ok ? "holds the series already" : git ?
	       "to make: a git worktree at the commit, then git am" :
	       "to make: a hard-link copy of the source, then the patches");
	if (!n)
		printf("  apply      no patches\n");
	json_array_foreach(json_object_get(v, "patches"), i, p)
		printf("  apply      %zu/%zu %s -p%lld (sha256 %.16s)\n", i + 1, n,
		       json_string_value(json_object_get(p, "path")),
		       (long long)json_integer_value(json_object_get(p, "strip")),
		       json_string_value(json_object_get(p, "sha256")));
	printf("  configure  tinyconfig");
	json_array_foreach(json_object_get(v, "fragments"), i, f)
		printf(" + %s", json_string_value(f));
	printf(" + olddefconfig: %s\n",
	       json_is_true(json_object_get(v, "config_current")) ?
	       "up to date" : "to do");
	for (cs = json_string_value(json_object_get(v, "config_set"));
	     cs && *cs; cs = nl + 1) {
		nl = strchrnul(cs, '\n');
		printf("  config-set %.*s\n", (int)(nl - cs), cs);
		if (!*nl)
			break;
	}
	printf("  build     ");
	json_array_foreach(json_object_get(v, "make"), i, f)
		printf(" %s", json_string_value(f));
	printf(": %s%s\n",
	       json_is_true(json_object_get(v, "build_current")) ?
	       "up to date" : "to do",
	       json_is_true(json_object_get(v, "each")) ?
	       " (after every patch)" : "");
	printf("  kernel     %s\n",
	       json_string_value(json_object_get(v, "kernel")));
}

/* --dry-run: what a build would do, from the stamps; starts nothing. */
static int build_dry_run(struct build_ctx *c, const struct variant *vs,
			 int nvar, bool each, bool json)
{
	char src[PATH_MAX], ird[PATH_MAX], err[1024], *text;
	json_t *o, *arr = json_array(), *v;
	struct series s;
	size_t i;
	int k, ret;

	ret = vs[0].git ? 0 : tree_tarball_sha(c);
	if (ret)
		return ret;
	util_path(src, sizeof(src), "%s/src/%s", c->cfg->workdir,
		  c->pristine_id);
	util_path(ird, sizeof(ird), "%s/kernels/initramfs.cpio",
		  c->cfg->workdir);
	for (k = 0; k < nvar; k++) {
		if (variant_series(c, &vs[k], &s, err, sizeof(err))) {
			build_fail("%s", err);
			json_decref(arr);
			return EXIT_PATCH;
		}
		json_array_append_new(arr, dry_variant(c, &vs[k], &s, each));
		series_free(&s);
	}
	o = json_pack("{s:b,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:i,s:b,s:s,s:o}",
		      "dry_run", 1, "kernel_line", c->line,
		      "fragment", c->fragment,
		      "series_root", c->patches_root, "tarball", c->tarball,
		      "tarball_sha256", c->tarball_sha, "source", src,
		      "extracted", util_exists(src), "jobs", c->jobs,
		      "ccache", c->cfg->ccache, "initramfs", ird,
		      "variants", arr);
	if (json) {
		text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) :
			NULL;
		if (text)
			printf("%s\n", text);
		free(text);
		json_decref(o);
		return text ? 0 : EXIT_FAILURE_GENERIC;
	}
	if (vs[0].git) {
		printf("git tree     %s (not written: a worktree per kernel)\n",
		       vs[0].git->top);
		printf("kernel line  %s (its Makefile; guest fragment %s)\n",
		       c->line, c->fragment);
	} else {
		printf("kernel line  %s (series under %s)\n", c->line,
		       c->patches_root);
		printf("tarball      %s (sha256 %.16s)\n", c->tarball,
		       c->tarball_sha);
		printf("extract      %s: %s\n", src, util_exists(src) ?
		       "done already" : "to do (tar -xf, once per tarball)");
	}
	printf("initramfs    %s (from guest/build/)\n", ird);
	json_array_foreach(arr, i, v)
		dry_print_variant(v);
	printf("(dry run: nothing was started)\n");
	json_decref(o);
	return 0;
}

/* Without the lock: if every variant is built already, say so. */
static bool all_current(struct build_ctx *c, const struct variant *vs,
			int nvar, bool json, int *ret)
{
	char initramfs[PATH_MAX];
	int i;

	if (!vs[0].git && tree_tarball_sha(c))
		return false;
	for (i = 0; i < nvar && variant_current(c, &vs[i]); i++)
		;
	if (i < nvar) {
		json_array_clear(c->kernels);
		return false;
	}
	*ret = initramfs_write(c, initramfs, sizeof(initramfs));
	for (i = 0; i < nvar && !*ret; i++)
		build_info("%s: up to date", vs[i].name);
	if (!*ret)
		print_summary(c, initramfs, json);
	return true;
}

/* Under the lock: clean, or build the initramfs and every variant. */
static int build_locked(struct build_ctx *c, const struct variant *vs,
			int nvar, const struct build_opts *o)
{
	char lockpath[PATH_MAX], initramfs[PATH_MAX];
	int i, lockfd, ret = 0;
	double t0;

	util_path(lockpath, sizeof(lockpath), "%s/build.lock",
		  c->cfg->workdir);
	lockfd = util_lock(lockpath, "another kernel build", NULL);
	if (lockfd < 0) {
		build_fail("%s: %s", lockpath, strerror(errno));
		return EXIT_SETUP;
	}
	if (o->clean) {
		for (i = 0; i < nvar && !ret; i++)
			ret = clean_variant(c, &vs[i]);
		close(lockfd);
		return ret;
	}
	t0 = util_now();
	ret = initramfs_write(c, initramfs, sizeof(initramfs));
	if (!ret && !vs[0].git)
		ret = tree_extract(c);
	for (i = 0; i < nvar && !ret; i++)
		ret = build_variant(c, &vs[i], o->each, o->keep_each);
	close(lockfd);
	if (!ret) {
		build_info("done in %.1f s (after the lock was taken)",
			   util_now() - t0);
		print_summary(c, initramfs, o->json);
	}
	return ret;
}

int cmd_build(int argc, char **argv, struct swapctl_config *cfg)
{
	struct build_ctx c = { .cfg = cfg, .logfd = -1 };
	struct variant vs[BUILD_MAX_VARIANTS];
	struct tree_mode tm = { 0 };
	char initramfs[PATH_MAX];
	struct build_opts o;
	int nvar, ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = setup_ctx(&c, &o);
	if (ret)
		return ret;
	if (o.initramfs_only) {
		/* the guest programs only: no kernel, no lock */
		ret = initramfs_write(&c, initramfs, sizeof(initramfs));
		if (!ret)
			build_info("initramfs: %s", initramfs);
		return ret;
	}
	if (o.range || o.apply)
		nvar = tree_variants(&c, &o, &tm, vs);
	else
		nvar = select_variants(&c, &o, vs);
	if (nvar < 0) {
		series_free(&tm.apply);
		return -nvar;
	}
	/* fail on bad inputs before waiting for the lock */
	ret = check_inputs(&c, vs, nvar, o.clean);
	if (!ret && !o.clean && !(o.range || o.apply))
		ret = check_owners(&c, vs, nvar);
	if (!ret && o.dry_run)
		ret = build_dry_run(&c, vs, nvar, o.each, o.json);
	if (ret || o.dry_run) {
		series_free(&tm.apply);
		return ret;
	}
	c.kernels = json_array();
	/* nothing to do needs no lock: a no-op build takes no time */
	if (o.clean || o.each || !all_current(&c, vs, nvar, o.json, &ret))
		ret = build_locked(&c, vs, nvar, &o);
	json_decref(c.kernels);
	series_free(&tm.apply);
	return ret;
}
