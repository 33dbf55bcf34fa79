// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the command (its options, the work dir, the lock and
 * the summary); the variants and their build are in src/build/, whose
 * parts build.h lists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "parse-options.h"

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
	if (o->series && !variant_valid_name(o->series))
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
	if (build_hash_fragment(c))
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
			ret = variant_clean(c, &vs[i]);
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
		nvar = variant_select(&c, &o, vs);
	if (nvar < 0) {
		series_free(&tm.apply);
		return -nvar;
	}
	/* fail on bad inputs before waiting for the lock */
	ret = variant_check_inputs(&c, vs, nvar, o.clean);
	if (!ret && !o.clean && !(o.range || o.apply))
		ret = tree_check_owners(&c, vs, nvar);
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
