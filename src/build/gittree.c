// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build --tree: kernels from the user's git tree. The user's
 * checkout and index are never written: each variant is a detached
 * worktree of the work directory's own, <workdir>/trees/<variant>/, made
 * with `git worktree add --detach` (which records it under the
 * repository's .git/worktrees/), moved between commits with `git
 * checkout`, which rewrites only the files that differ, and patched with
 * `git am`. Its build directory is <workdir>/trees/<variant>/out/, a
 * direct child of the source (Kbuild's srctree=".."), so the ccache
 * entries of one variant serve every other and the tarball's.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"

/* The environment of every git run: no hooks' surprises, fixed dates. */
static const char *const git_env[] = {
	"LC_ALL=C", "GIT_TERMINAL_PROMPT=0",
	"GIT_COMMITTER_NAME=swapctl", "GIT_COMMITTER_EMAIL=swapctl@localhost",
	"GIT_COMMITTER_DATE=2023-01-01T00:00:00Z",
	"GIT_AUTHOR_NAME=swapctl", "GIT_AUTHOR_EMAIL=swapctl@localhost",
	"GIT_AUTHOR_DATE=2023-01-01T00:00:00Z", NULL,
};

#define GIT_ARGS_MAX 24

/*
 * argv: "git -c core.hooksPath=/dev/null -c commit.gpgSign=false -C
 * @dir" and @args (NULL-terminated) into @v.
 */
static void git_argv(const char **v, const char *dir, const char *const *args)
{
	static const char *const pre[] = {
		"git", "-c", "core.hooksPath=/dev/null",
		"-c", "commit.gpgSign=false", "-c", "am.threeWay=false",
		"-C",
	};
	size_t n = 0, i;

	for (i = 0; i < ARRAY_SIZE(pre); i++)
		v[n++] = pre[i];
	v[n++] = dir;
	for (i = 0; args[i] && n < GIT_ARGS_MAX - 1; i++)
		v[n++] = args[i];
	v[n] = NULL;
}

/* git's stdout (stripped of the last newline) in *@out; the status. */
static int git_capture(const char *dir, const char *const *args, char **out)
{
	const char *v[GIT_ARGS_MAX];
	int st;

	git_argv(v, dir, args);
	st = util_run_capture(v, NULL, out);
	if (*out)
		build_trim_nl(*out);
	return st;
}

int git_tree_open(const char *dir, const char *what, char *top, size_t len)
{
	static const char *const args[] = { "rev-parse", "--show-toplevel",
					    NULL };
	char *out = NULL;
	int st;

	if (access(dir, F_OK)) {
		build_fail("%s: %s (%s)", dir, strerror(errno), what);
		return EXIT_NOT_GIT;
	}
	st = git_capture(dir, args, &out);
	if (st < 0) {
		build_fail("git: %s (needed by %s; 'make deps' installs it)",
			   strerror(errno), what);
		free(out);
		return EXIT_SETUP;
	}
	if (st || !out || !*out || util_path(top, len, "%s", out)) {
		build_fail("%s: not a git work tree (%s)", dir, what);
		free(out);
		return EXIT_NOT_GIT;
	}
	free(out);
	return 0;
}

int git_resolve(struct git_src *g, const char *what)
{
	char spec[300], *out = NULL;
	const char *args[] = { "rev-parse", "--verify", "--quiet",
			       "--end-of-options", spec, NULL };
	int st;

	if (!g->ref[0] || g->ref[0] == '-' ||
	    util_path(spec, sizeof(spec), "%s^{commit}", g->ref)) {
		build_fail("%s: '%s' is not a ref (%s)", g->top, g->ref, what);
		return EXIT_REF;
	}
	st = git_capture(g->top, args, &out);
	if (st || !out || strlen(out) != 40) {
		build_fail("%s: unknown ref '%s': it names no commit (%s)",
			   g->top, g->ref, what);
		free(out);
		return EXIT_REF;
	}
	memcpy(g->commit, out, 41);
	free(out);
	return 0;
}

int git_line(const struct git_src *g, char *line, size_t len)
{
	char spec[64], *out = NULL;
	const char *args[] = { "show", spec, NULL };
	int st;

	snprintf(spec, sizeof(spec), "%s:Makefile", g->commit);
	st = git_capture(g->top, args, &out);
	st = st || !out ? -1 : kline_of_makefile(out, line, len);
	free(out);
	if (st)
		build_fail("%s: %s (%s) has no top Makefile with VERSION and PATCHLEVEL: not a kernel tree",
			   g->top, g->ref, g->commit);
	return st ? EXIT_NOT_GIT : 0;
}

int git_check_clean(const struct git_src *g, size_t n)
{
	static const char *const head[] = { "rev-parse", "--verify", "--quiet",
					    "HEAD", NULL };
	/* --no-optional-locks: status must not refresh the user's index */
	static const char *const status[] = {
		"--no-optional-locks", "status", "--porcelain",
		"--untracked-files=no", NULL,
	};
	char *h = NULL, *st = NULL;
	const struct git_src *at = NULL;
	int ret = 0;
	size_t i;

	if (git_capture(g->top, head, &h) || !h) {
		free(h);
		return 0;		/* no HEAD yet: nothing checked out */
	}
	for (i = 0; i < n && !at; i++)
		if (!strcmp(g[i].commit, h))
			at = &g[i];
	if (at && !git_capture(g->top, status, &st) && st && *st) {
		build_fail("%s: uncommitted changes (%.*s) and '%s' is its HEAD: swapctl builds commits, not the work tree; commit or stash them",
			   g->top, (int)strcspn(st + 3, "\n"), st + 3,
			   at->ref);
		ret = EXIT_DIRTY;
	}
	free(h);
	free(st);
	return ret;
}

void git_ref_name(const char *ref, char *name, size_t len)
{
	size_t n = 0;
	const char *p;

	for (p = ref; *p && n + 1 < len && n < 63; p++) {
		char ch = *p;

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
		      ch == '-'))
			ch = '-';
		if (!n && (ch == '.' || ch == '-'))
			continue;
		name[n++] = ch;
	}
	name[n] = '\0';
}

char *git_stamp(const struct git_src *g, const struct series *s,
		size_t count)
{
	char *patches = s ? series_stamp(s, count) : strdup(""), *st;

	if (!patches || asprintf(&st, "git %s\ncommit %s\n%s", g->top,
				 g->commit, patches) < 0)
		st = NULL;
	free(patches);
	return st;
}

/* ---- running git in a tree ---- */

struct git_out {
	char failed[1024];	/* git's "error:" lines, "; " between */
	char at[256];		/* "Patch failed at 0003 subject" */
};

static void on_git_line(const char *line, void *arg)
{
	struct git_out *go = arg;

	if (!strncmp(line, "Patch failed at ", 16)) {
		snprintf(go->at, sizeof(go->at), "%s", line + 16);
		return;
	}
	if (strncmp(line, "error: ", 7) && strncmp(line, "fatal: ", 7))
		return;
	if (go->failed[0])
		build_append(go->failed, sizeof(go->failed), "; ");
	build_append(go->failed, sizeof(go->failed), line + 7);
}

/* git @args in @dir, its output to the log; the status (or -1). */
static int git_run(struct build_ctx *c, const char *dir,
		   const char *const *args, struct git_out *go)
{
	const char *v[GIT_ARGS_MAX];
	struct util_run_opts o = {
		.env = git_env, .out_fd = c->logfd, .on_line = on_git_line,
		.arg = go,
	};
	struct git_out dummy;
	char hdr[512];
	size_t i, n;

	memset(go ? go : &dummy, 0, sizeof(dummy));
	if (!go)
		o.arg = &dummy;
	git_argv(v, dir, args);
	n = (size_t)snprintf(hdr, sizeof(hdr), "$");
	for (i = 0; v[i] && n < sizeof(hdr); i++)
		n += (size_t)snprintf(hdr + n, sizeof(hdr) - n, " %s", v[i]);
	if (n < sizeof(hdr) && c->logfd >= 0 &&
	    write(c->logfd, hdr, n) >= 0)
		(void)!write(c->logfd, "\n", 1);
	return util_run(v, &o);
}

/* A git step that must work: one line naming @tree and @what, else 0. */
static int git_must(struct build_ctx *c, const char *dir,
		    const char *const *args, const char *tree,
		    const char *what)
{
	struct git_out go;
	int st = git_run(c, dir, args, &go), ret;

	ret = build_run_failed(what, "git", st);
	if (!ret && st) {
		build_fail("%s: %s failed: %s (log %s)", tree, what,
			   go.failed[0] ? go.failed : "see the log",
			   c->logpath);
		ret = EXIT_SETUP;
	}
	return ret;
}

/* ---- dating a new tree's files ---- */

static const char *mtime_tree;

static int set_mtime(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	static const struct timespec ts[2] = {
		{ GIT_TREE_MTIME, 0 }, { GIT_TREE_MTIME, 0 },
	};
	const char *rel = path + strlen(mtime_tree);

	(void)st;
	if (ftw->level == 1 && (!strcmp(rel, "/.git") || !strcmp(rel, "/out")))
		return FTW_SKIP_SUBTREE;
	if (type == FTW_F || type == FTW_SL)
		utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW);
	return FTW_CONTINUE;
}

/* Every file of @tree (but .git and out/) dated GIT_TREE_MTIME. */
static int date_files(const char *tree)
{
	mtime_tree = tree;
	if (nftw(tree, set_mtime, 32, FTW_PHYS | FTW_ACTIONRETVAL) < 0) {
		build_fail("%s: %s", tree, strerror(errno));
		return EXIT_SETUP;
	}
	return 0;
}

/* ---- the worktree ---- */

/* A finished git build of the same user tree whose out/ can seed. */
static bool git_donor_usable(const struct git_src *g, const char *donor)
{
	char p[PATH_MAX], *stamp, *want = NULL;
	bool ok;

	util_path(p, sizeof(p), "%s/.swapctl-stamp", donor);
	stamp = util_read_file(p, NULL);
	if (asprintf(&want, "git %s\n", g->top) < 0)
		want = NULL;
	ok = stamp && want && !strncmp(stamp, want, strlen(want));
	free(stamp);
	free(want);
	util_path(p, sizeof(p), "%s/out/.swapctl-built", donor);
	return ok && util_exists(p);
}

/* A new worktree at @donor's commit (else @g's), dated, out/ seeded. */
static int new_worktree(struct build_ctx *c, const struct git_src *g,
			const char *tree, const char *donor)
{
	static const char *const head[] = { "rev-parse", "HEAD", NULL };
	const char *add[] = { "worktree", "add", "-f", "--detach", "--quiet",
			      "--end-of-options", tree, g->commit, NULL };
	static const char *const refresh[] = { "update-index", "-q",
					       "--refresh", NULL };
	bool seed = donor && git_donor_usable(g, donor);
	char *start = NULL;
	int ret;

	if (util_rm_rf(tree)) {
		build_fail("%s: %s", tree, strerror(errno));
		return EXIT_SETUP;
	}
	if (seed && !git_capture(donor, head, &start) && start &&
	    strlen(start) == 40)
		add[7] = start;
	build_info("%s: git worktree add --detach %s (%s)", c->cur->name,
		   tree, seed ? "at the baseline's commit" : g->ref);
	ret = git_must(c, g->top, add, tree, "git worktree add");
	if (!ret)
		ret = date_files(tree);
	/* the index learns the dates: checkout --force then keeps the files */
	if (!ret)
		ret = git_must(c, tree, refresh, tree, "git update-index");
	if (!ret && seed) {
		build_info("%s: starting from %s/out (only what the commits and patches change is compiled)",
			   c->cur->name, donor);
		ret = tree_seed_out(c, tree, donor);
	}
	free(start);
	return ret;
}

/*
 * Is @tree a worktree of @g->top's repository still? Not when the user's
 * repository was made again, moved or pruned its worktrees: then the
 * tree is made anew (it is derived).
 */
static bool worktree_ok(const struct git_src *g, const char *tree)
{
	static const char *const common[] = { "rev-parse",
					      "--path-format=absolute",
					      "--git-common-dir", NULL };
	char *mine = NULL, *theirs = NULL;
	bool ok;

	ok = !git_capture(tree, common, &mine) && mine &&
	     !git_capture(g->top, common, &theirs) && theirs &&
	     !strcmp(mine, theirs);
	free(mine);
	free(theirs);
	return ok;
}

/* An am left half done by an interrupted build: abort it. */
static void abort_am(struct build_ctx *c, const char *tree)
{
	static const char *const path[] = { "rev-parse", "--git-path",
					    "rebase-apply", NULL };
	static const char *const abort[] = { "am", "--abort", NULL };
	char p[PATH_MAX], *rel = NULL;

	if (!git_capture(tree, path, &rel) && rel &&
	    !util_path(p, sizeof(p), "%s%s%s", rel[0] == '/' ? "" : tree,
		       rel[0] == '/' ? "" : "/", rel) && util_exists(p))
		git_run(c, tree, abort, NULL);
	free(rel);
}

/* The first @count patches of @s onto @tree's HEAD; EXIT_PATCH names. */
static int apply_patch(struct build_ctx *c, const struct series *s, size_t i,
		       const char *tree)
{
	const struct series_patch *p = &s->patches[i];
	static const char *const abort[] = { "am", "--abort", NULL };
	char strip[16], msg[300];
	const char *am[] = { "am", "--quiet", strip, "--end-of-options",
			     p->path, NULL };
	const char *ap[] = { "apply", "--index", strip, "--end-of-options",
			     p->path, NULL };
	const char *ci[] = { "commit", "--quiet", "--no-verify", "-m", msg,
			     NULL };
	struct git_out go;
	int st, ret;

	snprintf(strip, sizeof(strip), "-p%d", p->strip);
	snprintf(msg, sizeof(msg), "%s (swapctl build --apply)", p->name);
	st = git_run(c, tree, p->mail ? am : ap, &go);
	if (!st && !p->mail)
		st = git_run(c, tree, ci, NULL);
	ret = build_run_failed(p->path, "git", st);
	if (ret || !st)
		return ret;
	if (p->mail)
		git_run(c, tree, abort, NULL);
	if (s->mbox)
		build_fail("%s: patch %s does not apply: %s (git am)", p->path,
			   go.at[0] ? go.at : "?",
			   go.failed[0] ? go.failed : "see the log");
	else
		build_fail("%s: patch %zu/%zu (%s line %d) does not apply: %s (git %s)",
			   p->path, i + 1, s->n, s->file, p->line,
			   go.failed[0] ? go.failed : "see the log",
			   p->mail ? "am" : "apply");
	return EXIT_PATCH;
}

int git_prepare(struct build_ctx *c, const struct git_src *g,
		const struct series *s, size_t count, const char *tree,
		const char *donor, bool *changed)
{
	/* a commit id (40 hex digits), never taken for an option */
	const char *co[] = { "checkout", "--quiet", "--force", "--detach",
			     g->commit, NULL };
	char stamp_path[PATH_MAX], gitfile[PATH_MAX], *stamp;
	size_t i;
	int ret = 0;

	*changed = false;
	stamp = git_stamp(g, s, count);
	if (!stamp || util_path(stamp_path, sizeof(stamp_path),
				"%s/.swapctl-stamp", tree) ||
	    util_path(gitfile, sizeof(gitfile), "%s/.git", tree)) {
		free(stamp);
		build_fail("%s: out of memory or path too long", tree);
		return EXIT_FAILURE_GENERIC;
	}
	/* current, and still a worktree of the user's repository */
	if (build_file_equals(stamp_path, stamp) && util_exists(gitfile) &&
	    worktree_ok(g, tree)) {
		free(stamp);
		return 0;
	}
	*changed = true;
	unlink(stamp_path);
	if (!util_exists(gitfile) || !worktree_ok(g, tree))
		ret = new_worktree(c, g, tree, donor);
	else
		abort_am(c, tree);
	if (!ret)
		ret = git_must(c, tree, co, tree, "git checkout");
	for (i = 0; !ret && s && i < count && i < s->n; i++)
		ret = apply_patch(c, s, i, tree);
	if (!ret && util_write_file_atomic(stamp_path, stamp, strlen(stamp),
					   0644)) {
		build_fail("%s: %s", stamp_path, strerror(errno));
		ret = EXIT_SETUP;
	}
	free(stamp);
	return ret;
}

int git_remove(struct build_ctx *c, const char *top, const char *tree)
{
	const char *rm[] = { "worktree", "remove", "--force",
			     "--end-of-options", tree, NULL };
	char p[PATH_MAX];

	util_path(p, sizeof(p), "%s/.git", tree);
	if (util_exists(p))
		git_run(c, top, rm, NULL);
	if (util_rm_rf(tree)) {
		build_fail("%s: %s", tree, strerror(errno));
		return EXIT_SETUP;
	}
	return 0;
}
