// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the pristine source (the tarball extracted once) and the
 * per-variant trees (a hard-link copy of it with the series applied).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "subdir.h"

/* ---- the pristine source ---- */

const char *tree_tarball_origin(struct build_ctx *c, char *buf, size_t len)
{
	char deps[] = " " KLINE_DEPS " ", want[KLINE_MAX + 2];

	snprintf(want, sizeof(want), " %s ", c->line);
	if (c->cfg->tarball_set && !strcmp(c->line, c->cfg->kernel_line))
		snprintf(buf, len, "kernel_tarball, from %s", c->cfg->source);
	else if (strstr(deps, want))
		snprintf(buf, len,
			 "kernel line %s; 'make deps' installs linux-source-%s",
			 c->line, c->line);
	else
		snprintf(buf, len,
			 "kernel line %s; 'make deps' installs the sources of %s only: install linux-source-%s, or name a tarball with kernel_tarball",
			 c->line, KLINE_DEPS, c->line);
	return buf;
}

/*
 * The tarball's sha256, cached by device/inode/size/mtime in
 * src/<tarball's name>.id (one per tarball: two lines do not evict each
 * other's).
 */
int tree_tarball_sha(struct build_ctx *c)
{
	char idpath[PATH_MAX], id[PATH_MAX + 200], why[PATH_MAX], *cur;
	const char *base = strrchr(c->tarball, '/');
	struct stat st;

	if (stat(c->tarball, &st)) {
		build_fail("%s: %s (%s)", c->tarball, strerror(errno),
			   tree_tarball_origin(c, why, sizeof(why)));
		return EXIT_SETUP;
	}
	if (util_path(idpath, sizeof(idpath), "%s/src/%s.id",
		      c->cfg->workdir, base ? base + 1 : c->tarball))
		return EXIT_SETUP;
	snprintf(id, sizeof(id), "%lu %lu %lld %lld.%09ld %s\n",
		 (unsigned long)st.st_dev, (unsigned long)st.st_ino,
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec, c->tarball);
	cur = util_read_file(idpath, NULL);
	if (cur && strlen(cur) == strlen(id) + 65 && !strncmp(cur, id,
							       strlen(id))) {
		memcpy(c->tarball_sha, cur + strlen(id), 64);
		c->tarball_sha[64] = '\0';
		free(cur);
	} else {
		free(cur);
		if (util_sha256_file(c->tarball, c->tarball_sha)) {
			build_fail("%s: %s", c->tarball, strerror(errno));
			return EXIT_SETUP;
		}
		strcat(id, c->tarball_sha);
		strcat(id, "\n");
		if (!c->dry_run)
			util_write_file_atomic(idpath, id, strlen(id), 0644);
	}
	memcpy(c->pristine_id, c->tarball_sha, 16);
	c->pristine_id[16] = '\0';
	return 0;
}

/* The pristine source's Makefile must be of line c->line. */
static int check_line(struct build_ctx *c, const char *makefile)
{
	char *text = util_read_file(makefile, NULL), line[KLINE_MAX];
	char why[PATH_MAX];
	int r = text ? kline_of_makefile(text, line, sizeof(line)) : -1;

	free(text);
	if (r) {
		build_fail("%s: no VERSION and PATCHLEVEL: not a kernel source tree (from %s)",
			   makefile, c->tarball);
		return EXIT_SETUP;
	}
	if (strcmp(line, c->line)) {
		build_fail("%s: holds kernel line %s, not %s (%s)", c->tarball,
			   line, c->line,
			   tree_tarball_origin(c, why, sizeof(why)));
		return EXIT_CONFIG;
	}
	return 0;
}

/* what marks <dir>.tmp as an extraction of ours (tree_fresh_tmp()) */
#define EXTRACT_MARK	".swapctl-extracting"

/* @st (lstat of <dir>.tmp) and its mark @mark: provably ours? */
static bool tmp_ours(const struct stat *st, const char *mark)
{
	struct stat m;

	return S_ISDIR(st->st_mode) && st->st_uid == geteuid() &&
	       !lstat(mark, &m) && S_ISREG(m.st_mode) &&
	       m.st_uid == geteuid();
}

/*
 * <dir>.tmp made fresh for tar, under build.lock (so no extraction is
 * under way): created exclusively by mkdir(), which makes nothing
 * through a link, with EXTRACT_MARK in it. One an extraction left when
 * it was killed is removed when it is provably ours (a directory of our
 * uid, not a link, holding our mark); anything else there is refused,
 * never removed. 0 or EXIT_SETUP.
 */
static int tree_fresh_tmp(const char *tmp)
{
	char mark[PATH_MAX];
	struct stat st;
	int fd;

	if (util_path(mark, sizeof(mark), "%s/" EXTRACT_MARK, tmp))
		return EXIT_SETUP;
	if (!lstat(tmp, &st)) {
		if (!tmp_ours(&st, mark)) {
			build_fail("%s: in the way of extracting the kernel source, and not what an extraction of swapctl left (%s): remove it",
				   tmp, S_ISLNK(st.st_mode) ?
				   "a symbolic link" :
				   "no " EXTRACT_MARK " in it");
			return EXIT_SETUP;
		}
		build_info("%s: removing what an interrupted extraction left",
			   tmp);
		if (util_rm_rf(tmp))
			goto fail;
	} else if (errno != ENOENT) {
		goto fail;
	}
	if (mkdir(tmp, 0755))
		goto fail;
	fd = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		goto fail;
	close(fd);
	return 0;
fail:
	build_fail("%s: %s", tmp, strerror(errno));
	return EXIT_SETUP;
}

int tree_extract(struct build_ctx *c)
{
	char dir[PATH_MAX], tmp[PATH_MAX], top[256], mk[PATH_MAX];
	const char *argv[] = { "tar", "-xf", c->tarball, "-C", tmp,
			       NULL };
	struct util_run_opts o = { .out_fd = -1 };
	double t0;
	int st, r;

	r = tree_tarball_sha(c);
	if (r)
		return r;
	if (util_path(dir, sizeof(dir), "%s/src", c->cfg->workdir) ||
	    util_mkdir_p(dir, 0755)) {
		build_fail("%s: %s", dir, strerror(errno));
		return EXIT_SETUP;
	}
	if (util_path(dir, sizeof(dir), "%s/src/%s", c->cfg->workdir,
		      c->pristine_id) ||
	    util_path(tmp, sizeof(tmp), "%s.tmp", dir))
		return EXIT_SETUP;
	if (!util_exists(dir)) {
		build_info("extracting %s (once per tarball)", c->tarball);
		t0 = util_now();
		r = tree_fresh_tmp(tmp);
		if (r)
			return r;
		st = util_run(argv, &o);
		r = build_run_failed("extracting the kernel source", "tar", st);
		if (r)
			return r;
		if (st) {
			util_rm_rf(tmp);
			build_fail("%s: tar failed with status %d", c->tarball,
			     st);
			return EXIT_SETUP;
		}
		if (subdir_only(tmp, top, sizeof(top))) {
			util_rm_rf(tmp);
			build_fail("%s: expected one top-level directory in the tarball",
			     c->tarball);
			return EXIT_SETUP;
		}
		if (rename(tmp, dir)) {
			build_fail("%s: %s", dir, strerror(errno));
			return EXIT_SETUP;
		}
		build_info("extracted in %.0f s", util_now() - t0);
	}
	if (subdir_only(dir, top, sizeof(top)) ||
	    util_path(c->pristine, sizeof(c->pristine), "%s/%s", dir, top) ||
	    util_path(mk, sizeof(mk), "%s/Makefile", c->pristine) ||
	    !util_exists(mk)) {
		build_fail("%s: not a kernel source tree (remove it to extract again)",
		     dir);
		return EXIT_SETUP;
	}
	return check_line(c, mk);
}

/* ---- per-variant source trees ---- */

struct patch_out {
	char touched[8192];	/* "file\n" per file patch reported */
	char failed[1024];	/* what went wrong, one line */
	char cur[256];		/* the file patch is working on */
	int logfd;
};

static void on_patch_line(const char *line, void *arg)
{
	struct patch_out *po = arg;
	const char *f = NULL;
	char item[512];

	if (!strncmp(line, "checking file ", 14))
		f = line + 14;
	else if (!strncmp(line, "patching file ", 14))
		f = line + 14;
	if (f) {
		snprintf(po->cur, sizeof(po->cur), "%s", f);
		snprintf(item, sizeof(item), "%s\n", f);
		build_append(po->touched, sizeof(po->touched), item);
		return;
	}
	if (strstr(line, "FAILED") || strstr(line, "can't find file") ||
	    strstr(line, "malformed patch") || strstr(line, "Only garbage") ||
	    strstr(line, "Reversed") || strstr(line, "****") ||
	    strstr(line, "No such file")) {
		if (po->failed[0])
			build_append(po->failed, sizeof(po->failed), "; ");
		if (po->cur[0] && strstr(line, "Hunk"))
			snprintf(item, sizeof(item), "%s: %s", po->cur, line);
		else
			snprintf(item, sizeof(item), "%s", line);
		build_append(po->failed, sizeof(po->failed), item);
	}
}

static int run_patch(struct build_ctx *c, const char *dir,
		     const struct series_patch *p, bool dry,
		     struct patch_out *po)
{
	char strip[16];
	/*
	 * --fuzz=0: with GNU patch's default fuzz of 2, a hunk whose context
	 * matches nothing can still "apply" at a wrong place.
	 */
	const char *argv[] = { "patch", strip, "-d", dir, "-i", p->path,
			       "--force", "--fuzz=0", "--no-backup-if-mismatch",
			       "--quoting-style=literal", "--reject-file=-",
			       dry ? "--dry-run" : NULL, NULL };
	static const char *const env[] = { "LC_ALL=C", NULL };
	struct util_run_opts o = {
		.env = env, .out_fd = c->logfd, .on_line = on_patch_line,
		.arg = po,
	};

	snprintf(strip, sizeof(strip), "-p%d", p->strip);
	memset(po, 0, sizeof(*po));
	return util_run(argv, &o);
}

/* Is @file (a path relative to the tree) in the newline list @list? */
static bool in_list(const char *list, const char *file)
{
	size_t n = strlen(file);
	const char *p = list;

	while ((p = strstr(p, file))) {
		if ((p == list || p[-1] == '\n') && p[n] == '\n')
			return true;
		p += n;
	}
	return false;
}

/*
 * Replace the hard link @path by a private copy with a new mtime, so that
 * make rebuilds what depends on it (its content went back to pristine).
 */
static int refresh_file(const char *path)
{
	struct stat st;

	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	return util_copy_file(path, path, st.st_mode & 07777);
}

static bool same_content(const char *a, const char *b)
{
	size_t la, lb;
	char *da, *db;
	bool same;

	da = util_read_file(a, &la);
	db = da ? util_read_file(b, &lb) : NULL;
	same = da && db && la == lb && !memcmp(da, db, la);
	free(da);
	free(db);
	return same;
}

/*
 * @newf is a file of the new tree, @oldf the same file in the old one;
 * @patched: the new series changed @newf (so it is a private copy).
 */
static int sync_mtime(const char *newf, const char *oldf, bool patched)
{
	struct timespec ts[2];
	struct stat st;

	if (lstat(newf, &st) || !S_ISREG(st.st_mode))
		return 0;		/* deleted by the new series */
	if (same_content(newf, oldf)) {
		if (!patched || lstat(oldf, &st))
			return 0;	/* unchanged link, or nothing to copy */
		ts[0] = st.st_atim;
		ts[1] = st.st_mtim;
		return utimensat(AT_FDCWD, newf, ts, AT_SYMLINK_NOFOLLOW);
	}
	return patched ? 0 : refresh_file(newf);
}

/* The paths tree_prepare() works with, all next to @tree. */
struct tree_paths {
	const char *tree;
	const char *old;		/* the tree whose out/ is reused */
	char stamp[PATH_MAX];		/* <tree>/.swapctl-stamp */
	char touched[PATH_MAX];		/* <old>/.swapctl-touched */
	char newt[PATH_MAX];		/* <tree>.new, being made */
	char oldt[PATH_MAX];		/* <tree>.old, being replaced */
	char out[PATH_MAX];		/* <tree>/out, kept */
	char newout[PATH_MAX];		/* <tree>.new/out */
};

static int tree_paths(struct tree_paths *tp, const char *tree,
		      const char *old)
{
	tp->tree = tree;
	tp->old = old;
	if (util_path(tp->stamp, sizeof(tp->stamp), "%s/.swapctl-stamp",
		      tree) ||
	    util_path(tp->touched, sizeof(tp->touched), "%s/.swapctl-touched",
		      old) ||
	    util_path(tp->newt, sizeof(tp->newt), "%s.new", tree) ||
	    util_path(tp->oldt, sizeof(tp->oldt), "%s.old", tree) ||
	    util_path(tp->out, sizeof(tp->out), "%s/out", tree) ||
	    util_path(tp->newout, sizeof(tp->newout), "%s/out", tp->newt)) {
		build_fail("%s: path too long", tree);
		return EXIT_SETUP;
	}
	return 0;
}

/* <tree>.new: a fresh hard-link copy of the pristine source. */
static int copy_pristine(struct build_ctx *c, const struct tree_paths *tp)
{
	const char *argv[] = { "cp", "-al", c->pristine, tp->newt, NULL };
	struct util_run_opts quiet = { .out_fd = c->logfd };
	int st, ret;

	if (util_rm_rf(tp->newt) || util_rm_rf(tp->oldt)) {
		build_fail("%s: %s", tp->newt, strerror(errno));
		return EXIT_SETUP;
	}
	st = util_run(argv, &quiet);
	ret = build_run_failed("copying the source tree", "cp", st);
	if (!ret && st) {
		build_fail("%s: 'cp -al %s' failed (status %d), see %s",
			   tp->newt, c->pristine, st, c->logpath);
		ret = EXIT_SETUP;
	}
	return ret;
}

/*
 * Apply the first @count patches of @s to @dir, each tried with --dry-run
 * first so that a patch that does not apply changes nothing. *@touched
 * gets the files they changed, one per line (malloc'ed, also on error).
 */
static int apply_series(struct build_ctx *c, const struct series *s,
			size_t count, const char *dir, char **touched)
{
	struct patch_out *po = calloc(1, sizeof(*po));
	size_t i, tlen = 0;
	int st, ret = 0;
	char *t;

	*touched = calloc(1, 1);
	if (!po || !*touched) {
		free(po);
		build_fail("out of memory");
		return EXIT_FAILURE_GENERIC;
	}
	for (i = 0; i < count && i < s->n && !ret; i++) {
		const struct series_patch *p = &s->patches[i];

		st = run_patch(c, dir, p, true, po);
		ret = build_run_failed(p->path, "patch", st);
		if (!ret && st == 0) {
			st = run_patch(c, dir, p, false, po);
			ret = build_run_failed(p->path, "patch", st);
		}
		if (!ret && st) {
			build_fail("%s: patch %zu/%zu (%s line %d) does not apply: %s",
				   p->path, i + 1, s->n, s->file, p->line,
				   po->failed[0] ? po->failed : "see the log");
			ret = EXIT_PATCH;
		}
		if (ret)
			break;
		tlen += strlen(po->touched);
		t = realloc(*touched, tlen + 1);
		if (!t) {
			build_fail("out of memory");
			ret = EXIT_FAILURE_GENERIC;
			break;
		}
		*touched = t;
		strcat(*touched, po->touched);
	}
	free(po);
	return ret;
}

/*
 * Timestamps: make must rebuild exactly what changed since the old tree
 * (the tree itself, or the donor whose out/ a new tree starts from) was
 * built. A file both trees have with the same content keeps the old
 * tree's mtime (patch gave it a new one); a file the old series changed
 * that now differs gets a new mtime even where it went back to pristine
 * (a private copy, not the shared link).
 */
static int sync_timestamps(const struct tree_paths *tp, const char *touched)
{
	char f[PATH_MAX], oldf[PATH_MAX], *all = NULL, *line, *save;
	char *old = util_read_file(tp->touched, NULL);
	int ret = 0;

	if (old && asprintf(&all, "%s%s", old, touched) < 0)
		all = NULL;
	free(old);
	for (line = all ? strtok_r(all, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (util_path(f, sizeof(f), "%s/%s", tp->newt, line) ||
		    util_path(oldf, sizeof(oldf), "%s/%s", tp->old, line) ||
		    sync_mtime(f, oldf, in_list(touched, line))) {
			build_fail("%s: %s", f, strerror(errno));
			ret = EXIT_SETUP;
			break;
		}
	}
	free(all);
	return ret;
}

/* ---- a new tree's out/ from a donor's ---- */

static struct {
	const char *from, *to;	/* "<donor>/", "<tree>/" */
	int err;
} relocate;

/*
 * The objtool build (out/tools/) records absolute source paths in its
 * .cmd and .d files; with the donor's path there make would rebuild
 * objtool, and every object depends on objtool. Point them at the new
 * tree, keeping their mtimes. The kernel's own .cmd files use "../"
 * (out/ is inside the source tree) and need nothing.
 */
static int relocate_file(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	struct timespec ts[2] = { st->st_atim, st->st_mtim };
	size_t len, nf = strlen(relocate.from), nt = strlen(relocate.to);
	char *data, *p, *q, *out;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || st->st_size > (1 << 20))
		return 0;
	data = util_read_file(path, &len);
	if (!data || !memmem(data, len, relocate.from, nf)) {
		free(data);
		return 0;
	}
	out = malloc(len / nf * nt + len + 1);
	if (!out) {
		free(data);
		relocate.err = ENOMEM;
		return 1;
	}
	for (p = data, q = out; p < data + len;) {
		char *hit = memmem(p, data + len - p, relocate.from, nf);
		size_t n = hit ? (size_t)(hit - p) : (size_t)(data + len - p);

		memcpy(q, p, n);
		q += n;
		p += n;
		if (hit) {
			memcpy(q, relocate.to, nt);
			q += nt;
			p += nf;
		}
	}
	if (util_write_file_atomic(path, out, q - out, st->st_mode & 07777) ||
	    utimensat(AT_FDCWD, path, ts, 0))
		relocate.err = errno ? errno : EIO;
	free(out);
	free(data);
	return relocate.err ? 1 : 0;
}

/* <tree>.new/out: a copy of <donor>/out, its tools/ relocated. */
static int seed_out(struct build_ctx *c, const struct tree_paths *tp)
{
	char from[PATH_MAX], to[PATH_MAX], tools[PATH_MAX], donor[PATH_MAX];
	const char *argv[] = { "cp", "-a", "--reflink=auto", donor,
			       tp->newout, NULL };
	struct util_run_opts quiet = { .out_fd = c->logfd };
	int st, ret;

	util_path(donor, sizeof(donor), "%s/out", tp->old);
	st = util_run(argv, &quiet);
	ret = build_run_failed("copying the build directory", "cp", st);
	if (!ret && st) {
		build_fail("%s: 'cp -a %s' failed (status %d), see %s",
			   tp->newout, donor, st, c->logpath);
		ret = EXIT_SETUP;
	}
	if (ret)
		return ret;
	util_path(from, sizeof(from), "%s/.swapctl-built", tp->newout);
	unlink(from);
	util_path(from, sizeof(from), "%s/", tp->old);
	util_path(to, sizeof(to), "%s/", tp->tree);
	util_path(tools, sizeof(tools), "%s/tools", tp->newout);
	relocate.from = from;
	relocate.to = to;
	relocate.err = 0;
	if (util_exists(tools) &&
	    nftw(tools, relocate_file, 16, FTW_PHYS) && relocate.err) {
		build_fail("%s: %s", tools, strerror(relocate.err));
		return EXIT_SETUP;
	}
	return 0;
}

int tree_seed_out(struct build_ctx *c, const char *tree, const char *donor)
{
	struct tree_paths tp;
	int ret = tree_paths(&tp, tree, donor);

	if (!ret && util_path(tp.newout, sizeof(tp.newout), "%s/out", tree)) {
		build_fail("%s: path too long", tree);
		ret = EXIT_SETUP;
	}
	return ret ? ret : seed_out(c, &tp);
}

/*
 * Record what <tree>.new holds, then put it in place of <tree>, keeping
 * out/ unless the pristine source changed: a new tarball's files may be
 * older than the objects built from the old one, and make would not
 * rebuild them.
 */
static int swap_in(struct build_ctx *c, const struct series *s,
		   const struct tree_paths *tp, const char *stamp,
		   const char *touched)
{
	char f[PATH_MAX], pristine[64], *old_stamp;
	const char *what = f;

	util_path(f, sizeof(f), "%s/.swapctl-touched", tp->newt);
	if (util_write_file_atomic(f, touched, strlen(touched), 0644))
		goto ioerr;
	util_path(f, sizeof(f), "%s/.swapctl-stamp", tp->newt);
	if (util_write_file_atomic(f, stamp, strlen(stamp), 0644))
		goto ioerr;
	old_stamp = util_read_file(tp->stamp, NULL);
	snprintf(pristine, sizeof(pristine), "pristine %s\n", c->pristine_id);
	if (old_stamp && strncmp(old_stamp, pristine, strlen(pristine))) {
		build_info("%s: new kernel source, starting a fresh build directory",
			   s->name);
		util_rm_rf(tp->out);
	}
	free(old_stamp);
	what = tp->out;
	if (util_exists(tp->out) && rename(tp->out, tp->newout))
		goto ioerr;
	what = tp->tree;
	if (util_exists(tp->tree) && rename(tp->tree, tp->oldt))
		goto ioerr;
	if (rename(tp->newt, tp->tree))
		goto ioerr;
	util_rm_rf(tp->oldt);
	return 0;
ioerr:
	build_fail("%s: %s", what, strerror(errno));
	return EXIT_SETUP;
}

/*
 * Can @donor's out/ start a new tree? It must be a finished build of the
 * same pristine source (its stamp's first line, its out/.swapctl-built).
 */
static bool donor_usable(struct build_ctx *c, const char *donor)
{
	char p[PATH_MAX], pristine[64], *stamp;
	bool ok;

	snprintf(pristine, sizeof(pristine), "pristine %s\n", c->pristine_id);
	util_path(p, sizeof(p), "%s/.swapctl-stamp", donor);
	stamp = util_read_file(p, NULL);
	ok = stamp && !strncmp(stamp, pristine, strlen(pristine));
	free(stamp);
	util_path(p, sizeof(p), "%s/out/.swapctl-built", donor);
	return ok && util_exists(p);
}

/*
 * Make trees/<variant> hold the pristine source plus the first @count
 * patches of @s. Nothing is changed when it already does. Otherwise a new
 * tree is made next to it and only replaces it when every patch applied,
 * keeping the build directory out/.
 */
int tree_prepare(struct build_ctx *c, const struct series *s, size_t count,
		 const char *tree, const char *donor, bool *changed)
{
	char *stamp = NULL, *patches, *touched = NULL, out[PATH_MAX];
	struct tree_paths tp;
	bool seed;
	int ret;

	*changed = false;
	util_path(out, sizeof(out), "%s/out", tree);
	seed = donor && !util_exists(out) && donor_usable(c, donor);
	ret = tree_paths(&tp, tree, seed ? donor : tree);
	if (ret)
		return ret;
	patches = series_stamp(s, count);
	if (!patches || asprintf(&stamp, "pristine %s\n%s", c->pristine_id,
				 patches) < 0) {
		free(patches);
		build_fail("out of memory");
		return EXIT_FAILURE_GENERIC;
	}
	free(patches);
	if (build_file_equals(tp.stamp, stamp)) {
		free(stamp);
		return 0;
	}
	*changed = true;
	ret = copy_pristine(c, &tp);
	if (!ret)
		ret = apply_series(c, s, count, tp.newt, &touched);
	if (!ret)
		ret = sync_timestamps(&tp, touched);
	if (!ret && seed) {
		build_info("%s: starting from %s/out (only what the series change is compiled)",
			   s->name, donor);
		ret = seed_out(c, &tp);
	}
	if (!ret)
		ret = swap_in(c, s, &tp, stamp, touched);
	if (ret)
		util_rm_rf(tp.newt);
	free(touched);
	free(stamp);
	return ret;
}
