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

#include "build.h"
#include "parse-options.h"


/* ---- kernels/<variant>/ ---- */

static char *utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static json_t *patch_list(const struct series *s)
{
	json_t *pl = json_array();
	size_t i;

	for (i = 0; i < s->n; i++)
		json_array_append_new(pl, json_pack("{s:s,s:s,s:s,s:i}",
			"name", s->patches[i].name,
			"path", s->patches[i].path,
			"sha256", s->patches[i].sha256,
			"strip", s->patches[i].strip));
	return pl;
}

static int install_kernel(struct build_ctx *c, const struct variant *v,
			  const struct series *s, const char *tree,
			  double secs, json_t **manifest)
{
	char dir[PATH_MAX], src[PATH_MAX], dst[PATH_MAX], mpath[PATH_MAX];
	char rel[PATH_MAX], cfgpath[PATH_MAX], ksha[65], csha[65], when[32];
	char *release, *text;
	json_t *m;

	util_path(dir, sizeof(dir), "%s/kernels/%s", c->cfg->workdir, v->name);
	util_path(src, sizeof(src), "%s/out/arch/x86/boot/bzImage", tree);
	util_path(dst, sizeof(dst), "%s/bzImage", dir);
	util_path(mpath, sizeof(mpath), "%s/manifest.json", dir);
	util_path(rel, sizeof(rel), "%s/out/include/config/kernel.release",
		  tree);
	util_path(cfgpath, sizeof(cfgpath), "%s/out/.config", tree);
	if (util_mkdir_p(dir, 0755) || util_sha256_file(src, ksha) ||
	    util_sha256_file(cfgpath, csha) ||
	    util_copy_file(src, dst, 0644)) {
		build_fail("%s: %s", dst, strerror(errno));
		return EXIT_BUILD;
	}
	release = util_read_file(rel, NULL);
	m = json_pack("{s:s,s:s,s:b,s:s,s:s,s:o,s:s,s:s,s:s,s:s,s:s,s:s,s:f}",
		      "variant", v->name,
		      "kernel", dst,
		      "debug", v->debug,
		      "kernel_version",
		      release ? build_trim_nl(release) : "unknown",
		      "series", s->n ? s->file : "",
		      "patches", patch_list(s),
		      "bzimage_sha256", ksha,
		      "config_sha256", csha,
		      "fragment_sha256", c->fragment_sha,
		      "tarball", c->cfg->tarball,
		      "tarball_sha256", c->tarball_sha,
		      "built_at", utc_now(when, sizeof(when)),
		      "build_seconds", secs);
	free(release);
	if (m && v->debug)
		json_object_set_new(m, "debug_fragment_sha256",
				    json_string(c->debug_fragment_sha));
	if (m && c->set && c->set->n)
		json_object_set_new(m, "config_set",
				    json_string(c->set->frag));
	if (!m) {
		build_fail("%s: cannot make the manifest", mpath);
		return EXIT_FAILURE_GENERIC;
	}
	text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text || util_write_file_atomic(mpath, text, strlen(text), 0644)) {
		build_fail("%s: %s", mpath, strerror(errno));
		free(text);
		json_decref(m);
		return EXIT_BUILD;
	}
	free(text);
	*manifest = m;
	return 0;
}

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
	util_path(p, sizeof(p), "%s/kernels/%s/manifest.json",
		  c->cfg->workdir, v->name);
	m = json_load_file(p, 0, &jerr);
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
	if (!patches || asprintf(&stamp, "pristine %s\n%s", c->pristine_id,
				 patches) < 0)
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

	if (series_load(&s, c->patches_root, v->series, err, sizeof(err)))
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
		      json_t **manifest)
{
	char tree[PATH_MAX], label[PATH_MAX], p[PATH_MAX], donor[PATH_MAX];
	double secs = 0;
	bool changed;
	int ret;

	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, v->name);
	/* the baseline of the same debug and --config-set suffix */
	util_path(donor, sizeof(donor), "%s/trees/baseline%s", c->cfg->workdir,
		  v->name + strlen(v->series));
	if (each && s->n)
		util_path(label, sizeof(label), "%s [%zu/%zu %s]", v->name, k,
			  s->n, s->patches[k - 1].name);
	else
		util_path(label, sizeof(label), "%s", v->name);
	ret = tree_prepare(c, s, k, tree, strcmp(v->series, "baseline") ?
			   donor : NULL, &changed);
	if (!ret)
		ret = kconfig_configure(c, tree);
	if (ret)
		return ret;
	if (k == s->n && up_to_date(c, v, tree, manifest)) {
		build_info("%s: up to date", v->name);
		return 0;
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
	if (k == s->n)
		ret = install_kernel(c, v, s, tree, secs, manifest);
	return ret;
}

static int build_variant(struct build_ctx *c, const struct variant *v,
			 bool each)
{
	char err[1024], p[PATH_MAX];
	json_t *manifest = NULL;
	struct series s;
	size_t k;
	int ret;

	if (series_load(&s, c->patches_root, v->series, err, sizeof(err))) {
		build_fail("%s", err);
		return EXIT_PATCH;
	}
	c->cur = v;
	util_path(p, sizeof(p), "%s/trees", c->cfg->workdir);
	util_mkdir_p(p, 0755);
	ret = kmake_open_log(c, v->name);
	for (k = each && s.n ? 1 : s.n; !ret && k <= s.n && !manifest; k++)
		ret = build_step(c, v, &s, k, each, &manifest);
	if (manifest)
		json_array_append_new(c->kernels, manifest);
	kmake_close_log(c);
	series_free(&s);
	return ret;
}

/* ---- the command ---- */

static int check_workdir(struct build_ctx *c)
{
	char wd[PATH_MAX], repo[PATH_MAX];
	size_t n;

	if (strlen(c->cfg->workdir) > PATH_MAX / 2) {
		build_fail("%s: path too long (workdir, from %s)",
			   c->cfg->workdir, c->cfg->source);
		return EXIT_CONFIG;
	}
	if (util_mkdir_p(c->cfg->workdir, 0755)) {
		build_fail("%s: %s (workdir, from %s)", c->cfg->workdir,
			   strerror(errno), c->cfg->source);
		return EXIT_SETUP;
	}
	if (!realpath(c->cfg->workdir, wd) || !realpath(c->datadir, repo))
		return 0;
	n = strlen(repo);
	if (!strncmp(wd, repo, n) && (wd[n] == '/' || !wd[n])) {
		build_fail("%s: the work directory must not be inside the repository %s (workdir, from %s)",
			   c->cfg->workdir, repo, c->cfg->source);
		return EXIT_CONFIG;
	}
	return 0;
}

static int clean_variant(struct build_ctx *c, const struct variant *v)
{
	static const char *const suffix[] = { "", ".new", ".old" };
	char p[PATH_MAX];
	size_t i;

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
	if (access(c->cfg->tarball, R_OK)) {
		build_fail("%s: %s (kernel_tarball, from %s; 'make deps' installs linux-source-6.1)",
			   c->cfg->tarball, strerror(errno), c->cfg->source);
		return EXIT_SETUP;
	}
	for (i = 0; i < nvar; i++) {
		if (debug_name(vs[i].series)) {
			build_fail("%s/%s: a series name must not end in -debug (the name of a debug variant)",
				   c->patches_root, vs[i].series);
			return EXIT_PATCH;
		}
		if (series_load(&s, c->patches_root, vs[i].series, err,
				sizeof(err))) {
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
	bool baseline, all, each, clean, json, initramfs_only, dry_run;
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
		OPT_BOOL(0, "debug", &o->debug,
			 "build the debug variant of each selected kernel instead (guest/kernel.config + guest/debug.config, into kernels/<variant>-debug/)"),
		OPT_CALLBACK(0, "config-set", &o->set, "CONFIG_X=V",
			     "set one Kconfig symbol (y, m, n or an integer) after the fragments, repeatable; the variants become kernels/<variant>-cfg-<x>_<v>/ (the fragments' options that depend on it may drop)",
			     opt_config_set),
		OPT_BOOL(0, "each", &o->each,
			 "build after every patch of the series and name the first patch that breaks the build"),
		OPT_BOOL(0, "dry-run", &o->dry_run,
			 "print what would be extracted, applied, configured and built, per variant; start nothing"),
		OPT_INT('j', "jobs", &o->jobs, "N",
			"parallel make jobs (default: 'jobs' in swapctl.conf; 0: the number of CPUs)",
			0, 256),
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
	struct popt_cmd cmd = {
		.name = "build", .opts = opts,
		.desc =
		"Apply the patch series onto the kernel source and build bootable\n"
		"guest kernels plus the guest initramfs in the work directory.\n"
		"Without a variant option, builds 'baseline' and the series named\n"
		"by 'series' in swapctl.conf. With -v (swapctl -v build), the\n"
		"output of make is shown instead of the progress line.\n",
		.epilog =
		"Kernels: <workdir>/kernels/<variant>/bzImage and manifest.json;\n"
		"initramfs: <workdir>/kernels/initramfs.cpio; logs: <workdir>/logs/.\n"
		"Exit codes: 0 ok, 2 usage, 3 configuration (swapctl.conf or a\n"
		"Kconfig option of a fragment dropped), 4 setup (missing tarball,\n"
		"tool, guest program or fragment), 5 patch series (bad series file\n"
		"or a patch that does not apply), 6 build failed.\n",
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
	if (o->series && !strcmp(o->series, "baseline")) {
		o->baseline = true;
		o->series = NULL;
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
	if (!o->patches)
		util_path(c->patches_root, sizeof(c->patches_root),
			  "%s/patches", c->datadir);
	util_path(c->fragment, sizeof(c->fragment), "%s/guest/kernel.config",
		  c->datadir);
	util_path(c->debug_fragment, sizeof(c->debug_fragment),
		  "%s/guest/debug.config", c->datadir);
	if (util_sha256_file(c->fragment, c->fragment_sha)) {
		build_fail("%s: %s", c->fragment, strerror(errno));
		return EXIT_SETUP;
	}
	c->set = o->set.n ? &o->set : NULL;
	c->jobs = o->jobs >= 0 ? o->jobs : c->cfg->jobs;
	if (c->jobs == 0)
		c->jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (c->jobs < 1)
		c->jobs = 1;
	c->tty = isatty(STDERR_FILENO);
	c->dry_run = o->dry_run;
	return o->dry_run ? 0 : check_workdir(c);
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
		    snprintf(vs[i].name, sizeof(vs[i].name), "%s%s%s", names[i],
			     o->debug ? "-debug" : "",
			     o->set.suffix) >= (int)sizeof(vs[i].name)) {
			build_fail("%s: series name too long", names[i]);
			return -EXIT_USAGE;
		}
	}
	return n;
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
		      "patches", patch_list(s), "fragments", frags,
		      "config_current", st.config_current, "make", make,
		      "each", each && s->n, "build_current", st.manifest != NULL,
		      "kernel", kernel);
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
	printf("  tree       %s: %s\n",
	       json_string_value(json_object_get(v, "tree")),
	       tree_ok ? "holds the series already" :
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

	ret = tree_tarball_sha(c);
	if (ret)
		return ret;
	util_path(src, sizeof(src), "%s/src/%s", c->cfg->workdir,
		  c->pristine_id);
	util_path(ird, sizeof(ird), "%s/kernels/initramfs.cpio",
		  c->cfg->workdir);
	for (k = 0; k < nvar; k++) {
		if (series_load(&s, c->patches_root, vs[k].series, err,
				sizeof(err))) {
			build_fail("%s", err);
			json_decref(arr);
			return EXIT_PATCH;
		}
		json_array_append_new(arr, dry_variant(c, &vs[k], &s, each));
		series_free(&s);
	}
	o = json_pack("{s:b,s:s,s:s,s:s,s:b,s:i,s:b,s:s,s:o}", "dry_run", 1,
		      "tarball", c->cfg->tarball,
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
	printf("tarball      %s (sha256 %.16s)\n", c->cfg->tarball,
	       c->tarball_sha);
	printf("extract      %s: %s\n", src, util_exists(src) ?
	       "done already" : "to do (tar -xf, once per tarball)");
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

	if (tree_tarball_sha(c))
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
	lockfd = util_lock(lockpath, "another kernel build");
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
	if (!ret)
		ret = tree_extract(c);
	for (i = 0; i < nvar && !ret; i++)
		ret = build_variant(c, &vs[i], o->each);
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
	nvar = select_variants(&c, &o, vs);
	if (nvar < 0)
		return -nvar;
	/* fail on bad inputs before waiting for the lock */
	ret = check_inputs(&c, vs, nvar, o.clean);
	if (ret)
		return ret;
	if (o.dry_run)
		return build_dry_run(&c, vs, nvar, o.each, o.json);
	c.kernels = json_array();
	/* nothing to do needs no lock: a no-op build takes no time */
	if (o.clean || o.each || !all_current(&c, vs, nvar, o.json, &ret))
		ret = build_locked(&c, vs, nvar, &o);
	json_decref(c.kernels);
	return ret;
}
