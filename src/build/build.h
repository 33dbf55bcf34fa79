/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of `swapctl build` (see swapctl(1), doc/HACKING.md), in
 * layers, each calling only those below it:
 *   cmd/build.c          cmd_build: its options, the lock, the summary
 *   build/dryrun.c       --dry-run
 *   build/variant.c      the variants: selected, current, built
 *   build/gitvariants.c  the two variants of --tree (--range, --apply)
 *   build/steps.c        --keep-each: kernels/<series>.<kk>/
 *   build/manifest.c     kernels/<variant>/manifest.json (manifest.h)
 *   build/gittree.c      kernels from the user's git tree (--tree)
 *   build/kernel-tree.c  the pristine source and the per-variant trees
 *   build/kconfig.c      the .config of a tree
 *   build/kmake.c        logs, make and its progress
 *   build/initramfs.c    kernels/initramfs.cpio
 *   build/ctx.c          struct build_ctx's messages and helpers
 * They share one struct build_ctx. Each function that can fail prints one
 * line (build_fail) and returns an exit code of enum swapctl_exit.
 *
 * Everything that is derived is recorded in small stamp files so that a
 * second run with unchanged inputs does nothing:
 *   trees/<v>/.swapctl-stamp      pristine id + the applied patches
 *   trees/<v>/.swapctl-touched    files the applied patches changed
 *   trees/<v>/out/.swapctl-config the inputs the .config was made from
 *   trees/<v>/out/.swapctl-built  the inputs of the last good build
 */
#ifndef SWAPCTL_BUILD_H
#define SWAPCTL_BUILD_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "kline.h"
#include "progress.h"
#include "series.h"
#include "swapctl.h"
#include "util.h"

#define TAIL_LINES 30
#define BUILD_MAX_VARIANTS 32

/*
 * A kernel from the user's git tree (swapctl build --tree): the commit a
 * ref named when the build started, and the series git am puts on top.
 */
struct git_src {
	char top[PATH_MAX];		/* the user's work tree, its top level */
	char ref[256];			/* as given: BASE or TOPIC */
	char commit[41];		/* what @ref names */
	const struct series *apply;	/* applied on top, NULL: none */
};

/* One kernel to build. */
struct variant {
	/* trees/<name>, kernels/<name>: <series>[-debug][@<line>] */
	char name[80];
	char series[64];	/* patches/<series>/series */
	bool debug;		/* guest/debug.config merged after kernel.config */
	char donor[80];		/* trees/<donor>/out seeds a new tree, "": none */
	const struct git_src *git;	/* from the user's tree, NULL: tarball */
};

/*
 * --config-set CONFIG_X=VALUE, all of them: a fragment merged after the
 * others, and the suffix it gives the variants' names ("-cfg-swap_n").
 */
struct kconfig_set {
	char frag[1024];	/* fragment lines, "" when none was given */
	char suffix[64];	/* "-cfg-<sym>_<value>..." */
	int n;
};

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

struct build_ctx {
	struct swapctl_config *cfg;
	const char *datadir;
	char line[KLINE_MAX];		/* --line, else kernel_line */
	char line_sfx[KLINE_MAX + 1];	/* "" or "@<line>" (kline.h) */
	char tarball[PATH_MAX];		/* the line's (config_tarball) */
	char patches_root[PATH_MAX];	/* patches/, patches/<line>/ */
	char fragment[PATH_MAX];	/* <root>/kernel.config, guest/'s */
	char pristine[PATH_MAX];
	char pristine_id[17];		/* first 16 hex of the tarball sha */
	char tarball_sha[65];
	char fragment_sha[65];
	char debug_fragment[PATH_MAX];	/* guest/debug.config */
	char debug_fragment_sha[65];	/* "" until a debug variant needs it */
	const struct kconfig_set *set;	/* --config-set, NULL: none */
	const struct variant *cur;	/* the variant being worked on */
	bool dry_run;			/* read only: write no cache either */
	int jobs;
	bool tty;
	json_t *kernels;		/* manifests, for --json */
	/* current make/patch run */
	struct progress prog;
	char tail[TAIL_LINES][256];
	unsigned int ntail;
	int logfd;
	char logpath[PATH_MAX];
};

/* The options of swapctl build, as parsed (cmd/build.c). */
struct build_opts {
	const char *series, *patches;
	const char *tree, *range, *apply, *base, *names, *line;
	bool baseline, all, each, keep_each, clean, json, initramfs_only;
	bool dry_run;
	bool debug;
	int jobs;
	struct kconfig_set set;
};

/* ctx.c: messages and small helpers */
void build_fail(const char *fmt, ...) __printf(1, 2);
void build_info(const char *fmt, ...) __printf(1, 2);
/* A child that could not run (4) or was interrupted (130); else 0. */
int build_run_failed(const char *what, const char *prog, int st);
char *build_trim_nl(char *s);
bool build_file_equals(const char *path, const char *text);
void build_append(char *buf, size_t len, const char *s);
/* c->fragment_sha of c->fragment; -1 after one line. */
int build_hash_fragment(struct build_ctx *c);

/* variant.c */
/* What building @v would do, from its stamps (read only). */
struct variant_state {
	bool tree_current;	/* the tree holds the series */
	bool config_current;	/* its .config is from the same inputs */
	json_t *manifest;	/* the installed kernel is the one built */
};
void variant_state(struct build_ctx *c, const struct variant *v,
		   const struct series *s, struct variant_state *vs);
/* The patches of @v: its series under the root, or what --apply gave. */
int variant_series(struct build_ctx *c, const struct variant *v,
		   struct series *s, char *err, size_t errlen);
/*
 * Without the lock: is everything about @v already built from the
 * current inputs (its manifest appended to c->kernels)?
 */
bool variant_current(struct build_ctx *c, const struct variant *v);
/* Build @v (@each: after every patch; @keep: --keep-each). */
int build_variant(struct build_ctx *c, const struct variant *v,
		  bool each, bool keep);
/* --clean: remove @v's trees. */
int variant_clean(struct build_ctx *c, const struct variant *v);
/* A series or kernel name: [A-Za-z0-9._-], not starting with '.', < 64. */
bool variant_valid_name(const char *v);
/* "x-debug" is the debug variant of x, never a series of its own. */
bool variant_debug_name(const char *name);
/* The tarball, the series and the debug fragment can be read. */
int variant_check_inputs(struct build_ctx *c, const struct variant *vs,
			 int nvar, bool clean);
/* The variants the options select; their number, or -exit code. */
int variant_select(struct build_ctx *c, const struct build_opts *o,
		   struct variant *vs);

/* steps.c: --keep-each */
/* Install @tree's bzImage, built after patch @k of @v, as its step. */
int step_install(struct build_ctx *c, const struct variant *v,
		 const struct series *s, size_t k, const char *tree,
		 double secs);
/* Step @k's kernel is there already (and listed): skip it. */
bool step_skip(struct build_ctx *c, const struct variant *v,
	       const struct series *s, size_t k);

/* gitvariants.c: --tree */
/* The two commits (and the series) of --range or --apply. */
struct tree_mode {
	struct git_src g[2];
	struct series apply;
	char what[PATH_MAX + 64];	/* where the tree was named */
};
/* --range / --apply: the two variants; their number, or -exit code. */
int tree_variants(struct build_ctx *c, const struct build_opts *o,
		  struct tree_mode *t, struct variant *vs);
/* Refuse to replace a kernel the user built from another source. */
int tree_check_owners(struct build_ctx *c, const struct variant *vs,
		      int nvar);

/* dryrun.c */
/* --dry-run: what a build would do, from the stamps; starts nothing. */
int build_dry_run(struct build_ctx *c, const struct variant *vs,
		  int nvar, bool each, bool json);

/* kernel-tree.c */
/* Where c->tarball came from, for messages: "kernel_tarball, from F"... */
const char *tree_tarball_origin(struct build_ctx *c, char *buf, size_t len);
/* c->tarball_sha and c->pristine_id, from a cache keyed by stat(). */
int tree_tarball_sha(struct build_ctx *c);
/*
 * Extract the tarball once into <workdir>/src/<id>/; set c->pristine.
 * EXIT_CONFIG when its Makefile is not of kernel line c->line.
 */
int tree_extract(struct build_ctx *c);
/*
 * Make @tree hold the pristine source plus the first @count patches of
 * @s (nothing changes when it already does; *@changed says). A tree with
 * no build directory yet starts from a copy of @donor's (a built tree of
 * the same source and configuration inputs; NULL: none), so that make
 * compiles only what differs between the two.
 */
int tree_prepare(struct build_ctx *c, const struct series *s, size_t count,
		 const char *tree, const char *donor, bool *changed);

/*
 * Start the new tree @tree/out from a copy of @donor/out (a finished
 * build of the same configuration inputs), its tools/ paths relocated.
 */
int tree_seed_out(struct build_ctx *c, const char *tree, const char *donor);

/* gittree.c */
/*
 * The top level of the git work tree @dir into @top; else one line
 * naming @dir and @what (where it came from) and EXIT_NOT_GIT.
 */
int git_tree_open(const char *dir, const char *what, char *top, size_t len);
/* @g->commit from @g->ref in @g->top; EXIT_REF when it names none. */
int git_resolve(struct git_src *g, const char *what);
/*
 * MAJOR.MINOR of @g's commit, from its top Makefile (git show); else one
 * line naming the tree and ref, and EXIT_NOT_GIT.
 */
int git_line(const struct git_src *g, char *line, size_t len);
/*
 * EXIT_DIRTY when the user's tree has uncommitted changes to tracked
 * files and one of the @n commits of @g is its HEAD (the changes would be
 * silently left out); 0 otherwise.
 */
int git_check_clean(const struct git_src *g, size_t n);
/* A variant name from a ref: [A-Za-z0-9._-], at most 63 characters. */
void git_ref_name(const char *ref, char *name, size_t len);
/* What trees/<v>/.swapctl-stamp holds when @g plus @count patches is in. */
char *git_stamp(const struct git_src *g, const struct series *s,
		size_t count);
/*
 * Make @tree (a detached worktree of @g->top that swapctl owns) hold
 * @g->commit with the first @count patches of @s applied by git am;
 * nothing changes when it already does (*@changed says). A new tree
 * starts at @donor's commit with @donor's out/ (NULL: none) and its files
 * dated GIT_TREE_MTIME, so that checking out @g->commit leaves newer
 * dates only on what differs and make compiles only that.
 */
int git_prepare(struct build_ctx *c, const struct git_src *g,
		const struct series *s, size_t count, const char *tree,
		const char *donor, bool *changed);
/* Remove the worktree @tree of @top (git worktree remove, then rm -rf). */
int git_remove(struct build_ctx *c, const char *top, const char *tree);
/* 2000-01-01 00:00:00 UTC: the date of every file of a new worktree */
#define GIT_TREE_MTIME 946684800

/* kconfig.c */
/* The inputs of @tree's .config (malloc'ed), NULL without memory. */
char *kconfig_key(struct build_ctx *c, const char *tree);
/*
 * Add one --config-set @arg (CONFIG_SYM=y|m|n|integer) to @set; 0, or -1
 * with why in @err (no option name).
 */
int kconfig_set_add(struct kconfig_set *set, const char *arg, char *err,
		    size_t errlen);
/* Make @tree/out/.config unless it was made from the same inputs. */
int kconfig_configure(struct build_ctx *c, const char *tree);

/* kmake.c */
int kmake_open_log(struct build_ctx *c, const char *variant);
void kmake_close_log(struct build_ctx *c);
/* Run @argv with its output to the log and the progress line. */
int kmake_run_logged(struct build_ctx *c, const char *const argv[],
		     const char *cwd, const char *const *env);
/* The last lines of the child's output, after a failure. */
void kmake_show_tail(struct build_ctx *c);
/* make bzImage in @tree/out; *@secs is the time it took. */
int kmake_bzimage(struct build_ctx *c, const char *tree, const char *label,
		  double *secs);

/* initramfs.c */
/* Write <workdir>/kernels/initramfs.cpio (unless unchanged) into @dst. */
int initramfs_write(struct build_ctx *c, char *dst, size_t dstlen);

#endif
