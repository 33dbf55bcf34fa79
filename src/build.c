// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: extract the kernel tarball once, make one hard-link copy
 * of it per variant with the variant's patch series applied, configure it
 * from tinyconfig + guest/kernel.config, build bzImage with ccache, and
 * write the guest initramfs. See swapctl(1) and doc/HACKING.md.
 *
 * Everything that is derived is recorded in small stamp files so that a
 * second run with unchanged inputs does nothing:
 *   trees/<v>/.swapctl-stamp      pristine id + the applied patches
 *   trees/<v>/.swapctl-touched    files the applied patches changed
 *   trees/<v>/out/.swapctl-config the inputs the .config was made from
 *   trees/<v>/out/.swapctl-built  the inputs of the last good build
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpio.h"
#include "parse-options.h"
#include "progress.h"
#include "series.h"
#include "swapctl.h"
#include "util.h"

#define TAIL_LINES 30
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* objects of a full build of guest/kernel.config (measured: 1461) */
#define FIRST_ESTIMATE 1461

/* guest/build/<prog>: init is /init, the others /bin/<prog> */
static const char *const guest_progs[] = {
	"init", "agent", "workload", "command", "usemem",
};

struct build_ctx {
	struct swapctl_config *cfg;
	const char *datadir;
	char patches_root[PATH_MAX];
	char fragment[PATH_MAX];
	char pristine[PATH_MAX];
	char pristine_id[17];		/* first 16 hex of the tarball sha */
	char tarball_sha[65];
	char fragment_sha[65];
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

static void fail(const char *fmt, ...) __printf(1, 2);

static void fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("swapctl build: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void info(const char *fmt, ...) __printf(1, 2);

static void info(const char *fmt, ...)
{
	va_list ap;

	fputs("swapctl build: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Report a child that could not run or failed; returns the exit code. */
static int run_failed(const char *what, const char *prog, int st)
{
	if (st < 0 && errno == ENOENT) {
		fail("%s: '%s' not found (run 'make deps')", what, prog);
		return EXIT_SETUP;
	}
	if (st < 0) {
		fail("%s: cannot run '%s': %s", what, prog, strerror(errno));
		return EXIT_SETUP;
	}
	if (st == 128 + 2 || st == 128 + 15)
		return EXIT_INTERRUPTED;
	return 0;
}

static char *trim_nl(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

/* Does the file hold exactly @text? */
static bool file_equals(const char *path, const char *text)
{
	char *cur = util_read_file(path, NULL);
	bool eq = cur && !strcmp(cur, text);

	free(cur);
	return eq;
}

/* ---- the pristine source ---- */

/* The tarball's sha256, cached by device/inode/size/mtime. */
static int tarball_sha(struct build_ctx *c)
{
	char idpath[PATH_MAX], id[PATH_MAX + 200], *cur;
	struct stat st;

	if (stat(c->cfg->tarball, &st)) {
		fail("%s: %s (kernel_tarball, from %s; 'make deps' installs linux-source-6.1)",
		     c->cfg->tarball, strerror(errno), c->cfg->source);
		return EXIT_SETUP;
	}
	if (util_path(idpath, sizeof(idpath), "%s/src/tarball.id",
		      c->cfg->workdir))
		return EXIT_SETUP;
	snprintf(id, sizeof(id), "%lu %lu %lld %lld.%09ld %s\n",
		 (unsigned long)st.st_dev, (unsigned long)st.st_ino,
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec, c->cfg->tarball);
	cur = util_read_file(idpath, NULL);
	if (cur && strlen(cur) == strlen(id) + 65 && !strncmp(cur, id,
							       strlen(id))) {
		memcpy(c->tarball_sha, cur + strlen(id), 64);
		c->tarball_sha[64] = '\0';
		free(cur);
	} else {
		free(cur);
		if (util_sha256_file(c->cfg->tarball, c->tarball_sha)) {
			fail("%s: %s", c->cfg->tarball, strerror(errno));
			return EXIT_SETUP;
		}
		strcat(id, c->tarball_sha);
		strcat(id, "\n");
		util_write_file_atomic(idpath, id, strlen(id), 0644);
	}
	memcpy(c->pristine_id, c->tarball_sha, 16);
	c->pristine_id[16] = '\0';
	return 0;
}

/* The single directory inside @dir (the tarball's top directory). */
static int top_dir(const char *dir, char *name, size_t len)
{
	struct dirent *d;
	int n = 0;
	DIR *dh;

	dh = opendir(dir);
	if (!dh)
		return -1;
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		snprintf(name, len, "%s", d->d_name);
		n++;
	}
	closedir(dh);
	return n == 1 ? 0 : -1;
}

static int extract(struct build_ctx *c)
{
	char dir[PATH_MAX], tmp[PATH_MAX], top[256], mk[PATH_MAX];
	const char *argv[] = { "tar", "-xf", c->cfg->tarball, "-C", tmp,
			       NULL };
	struct util_run_opts o = { .out_fd = -1 };
	double t0;
	int st, r;

	r = tarball_sha(c);
	if (r)
		return r;
	if (util_path(dir, sizeof(dir), "%s/src/%s", c->cfg->workdir,
		      c->pristine_id) ||
	    util_path(tmp, sizeof(tmp), "%s.tmp", dir))
		return EXIT_SETUP;
	if (!util_exists(dir)) {
		info("extracting %s (once per tarball)", c->cfg->tarball);
		t0 = util_now();
		if (util_rm_rf(tmp) || util_mkdir_p(tmp, 0755)) {
			fail("%s: %s", tmp, strerror(errno));
			return EXIT_SETUP;
		}
		st = util_run(argv, &o);
		r = run_failed("extracting the kernel source", "tar", st);
		if (r)
			return r;
		if (st) {
			util_rm_rf(tmp);
			fail("%s: tar failed with status %d", c->cfg->tarball,
			     st);
			return EXIT_SETUP;
		}
		if (top_dir(tmp, top, sizeof(top))) {
			util_rm_rf(tmp);
			fail("%s: expected one top-level directory in the tarball",
			     c->cfg->tarball);
			return EXIT_SETUP;
		}
		if (rename(tmp, dir)) {
			fail("%s: %s", dir, strerror(errno));
			return EXIT_SETUP;
		}
		info("extracted in %.0f s", util_now() - t0);
	}
	if (top_dir(dir, top, sizeof(top)) ||
	    util_path(c->pristine, sizeof(c->pristine), "%s/%s", dir, top) ||
	    util_path(mk, sizeof(mk), "%s/Makefile", c->pristine) ||
	    !util_exists(mk)) {
		fail("%s: not a kernel source tree (remove it to extract again)",
		     dir);
		return EXIT_SETUP;
	}
	return 0;
}

/* ---- output of child processes ---- */

static void on_line(const char *line, void *arg)
{
	struct build_ctx *c = arg;

	snprintf(c->tail[c->ntail % TAIL_LINES], sizeof(c->tail[0]), "%s",
		 line);
	c->ntail++;
	if (verbose)
		fprintf(stderr, "%s\n", line);
	else
		progress_feed(&c->prog, line, util_now());
}

static void show_tail(struct build_ctx *c)
{
	unsigned int i, first;

	progress_clear(&c->prog);
	first = c->ntail > TAIL_LINES ? c->ntail - TAIL_LINES : 0;
	if (c->ntail)
		fprintf(stderr, "---- last %u lines of %s ----\n",
			c->ntail - first, c->logpath);
	for (i = first; i < c->ntail; i++)
		fprintf(stderr, "%s\n", c->tail[i % TAIL_LINES]);
	if (c->ntail)
		fprintf(stderr, "----\n");
}

/* Run @argv with its output going to the log and through on_line(). */
static int run_logged(struct build_ctx *c, const char *const argv[],
		      const char *cwd, const char *const *env)
{
	struct util_run_opts o = {
		.cwd = cwd, .env = env, .out_fd = c->logfd,
		.on_line = on_line, .arg = c,
	};
	char hdr[1024];
	size_t i, n = 0;

	n += (size_t)snprintf(hdr, sizeof(hdr), "$");
	for (i = 0; argv[i] && n < sizeof(hdr); i++)
		n += (size_t)snprintf(hdr + n, sizeof(hdr) - n, " %s",
				      argv[i]);
	if (n < sizeof(hdr))
		snprintf(hdr + n, sizeof(hdr) - n, "\n");
	if (c->logfd >= 0 && write(c->logfd, hdr, strlen(hdr)) < 0)
		return -1;
	c->ntail = 0;
	return util_run(argv, &o);
}

static int open_log(struct build_ctx *c, const char *variant)
{
	char stamp[32], dir[PATH_MAX];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if (util_path(dir, sizeof(dir), "%s/logs", c->cfg->workdir) ||
	    util_mkdir_p(dir, 0755) ||
	    util_path(c->logpath, sizeof(c->logpath), "%s/%s-%s.log", dir,
		      variant, stamp)) {
		fail("%s: %s", dir, strerror(errno));
		return EXIT_SETUP;
	}
	c->logfd = open(c->logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			0644);
	if (c->logfd < 0) {
		fail("%s: %s", c->logpath, strerror(errno));
		return EXIT_SETUP;
	}
	return 0;
}

/* ---- per-variant source trees ---- */

struct patch_out {
	char touched[8192];	/* "file\n" per file patch reported */
	char failed[1024];	/* what went wrong, one line */
	char cur[256];		/* the file patch is working on */
	int logfd;
};

static void append(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + strlen(s) + 1 < len)
		memcpy(buf + n, s, strlen(s) + 1);
}

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
		append(po->touched, sizeof(po->touched), item);
		return;
	}
	if (strstr(line, "FAILED") || strstr(line, "can't find file") ||
	    strstr(line, "malformed patch") || strstr(line, "Only garbage") ||
	    strstr(line, "Reversed") || strstr(line, "****") ||
	    strstr(line, "No such file")) {
		if (po->failed[0])
			append(po->failed, sizeof(po->failed), "; ");
		if (po->cur[0] && strstr(line, "Hunk"))
			snprintf(item, sizeof(item), "%s: %s", po->cur, line);
		else
			snprintf(item, sizeof(item), "%s", line);
		append(po->failed, sizeof(po->failed), item);
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

/*
 * Make trees/<variant> hold the pristine source plus the first @count
 * patches of @s. Nothing is changed when it already does. Otherwise a new
 * tree is made next to it and only replaces it when every patch applied,
 * keeping the build directory out/.
 */
static int prepare_tree(struct build_ctx *c, const struct series *s,
			size_t count, const char *tree, bool *changed)
{
	char stamp_path[PATH_MAX], touched_path[PATH_MAX], newt[PATH_MAX];
	char oldt[PATH_MAX], out[PATH_MAX], newout[PATH_MAX], f[PATH_MAX];
	char oldf[PATH_MAX];
	char *stamp = NULL, *patches, *old_touched = NULL, *line, *save;
	char *old_stamp = NULL;
	const char *cp_argv[] = { "cp", "-al", c->pristine, newt, NULL };
	struct util_run_opts quiet = { .out_fd = c->logfd };
	struct patch_out *po = NULL;
	char *touched = NULL;
	size_t i, tlen = 0;
	int st, ret = EXIT_PATCH;

	*changed = false;
	patches = series_stamp(s, count);
	if (!patches || asprintf(&stamp, "pristine %s\n%s", c->pristine_id,
				 patches) < 0)
		goto oom;
	if (util_path(stamp_path, sizeof(stamp_path), "%s/.swapctl-stamp",
		      tree) ||
	    util_path(touched_path, sizeof(touched_path),
		      "%s/.swapctl-touched", tree) ||
	    util_path(newt, sizeof(newt), "%s.new", tree) ||
	    util_path(oldt, sizeof(oldt), "%s.old", tree) ||
	    util_path(out, sizeof(out), "%s/out", tree) ||
	    util_path(newout, sizeof(newout), "%s/out", newt))
		goto toolong;
	if (file_equals(stamp_path, stamp)) {
		ret = 0;
		goto done;
	}
	*changed = true;
	if (util_rm_rf(newt) || util_rm_rf(oldt)) {
		fail("%s: %s", newt, strerror(errno));
		ret = EXIT_SETUP;
		goto done;
	}
	st = util_run(cp_argv, &quiet);
	ret = run_failed("copying the source tree", "cp", st);
	if (ret)
		goto done;
	if (st) {
		fail("%s: 'cp -al %s' failed (status %d), see %s", newt,
		     c->pristine, st, c->logpath);
		ret = EXIT_SETUP;
		goto done;
	}
	po = calloc(1, sizeof(*po));
	touched = calloc(1, 1);
	if (!po || !touched)
		goto oom;
	for (i = 0; i < count && i < s->n; i++) {
		const struct series_patch *p = &s->patches[i];

		st = run_patch(c, newt, p, true, po);
		ret = run_failed(p->path, "patch", st);
		if (ret)
			goto undo;
		if (st == 0) {
			st = run_patch(c, newt, p, false, po);
			ret = run_failed(p->path, "patch", st);
			if (ret)
				goto undo;
		}
		if (st) {
			fail("%s: patch %zu/%zu (%s line %d) does not apply: %s",
			     p->path, i + 1, s->n, s->file, p->line,
			     po->failed[0] ? po->failed : "see the log");
			ret = EXIT_PATCH;
			goto undo;
		}
		tlen += strlen(po->touched);
		line = realloc(touched, tlen + 1);
		if (!line)
			goto oom;
		touched = line;
		strcat(touched, po->touched);
	}
	/*
	 * Timestamps: make must rebuild exactly what changed since the old
	 * tree was built. A file both trees have with the same content keeps
	 * the old tree's mtime (patch gave it a new one); a file the old
	 * series changed that now differs gets a new mtime even where it
	 * went back to pristine (a private copy, not the shared link).
	 */
	old_touched = util_read_file(touched_path, NULL);
	if (old_touched && asprintf(&line, "%s%s", old_touched, touched) > 0) {
		free(old_touched);
		old_touched = line;
	}
	for (line = old_touched ? strtok_r(old_touched, "\n", &save) : NULL;
	     line; line = strtok_r(NULL, "\n", &save)) {
		if (util_path(f, sizeof(f), "%s/%s", newt, line) ||
		    util_path(oldf, sizeof(oldf), "%s/%s", tree, line) ||
		    sync_mtime(f, oldf, in_list(touched, line))) {
			fail("%s: %s", f, strerror(errno));
			ret = EXIT_SETUP;
			goto undo;
		}
	}
	util_path(f, sizeof(f), "%s/.swapctl-touched", newt);
	if (util_write_file_atomic(f, touched, strlen(touched), 0644))
		goto ioerr;
	util_path(f, sizeof(f), "%s/.swapctl-stamp", newt);
	if (util_write_file_atomic(f, stamp, strlen(stamp), 0644))
		goto ioerr;
	/*
	 * Swap the trees, keeping out/ unless the pristine source changed:
	 * a new tarball's files may be older than the objects built from
	 * the old one, and make would not rebuild them.
	 */
	old_stamp = util_read_file(stamp_path, NULL);
	snprintf(f, sizeof(f), "pristine %s\n", c->pristine_id);
	if (old_stamp && strncmp(old_stamp, f, strlen(f))) {
		info("%s: new kernel source, starting a fresh build directory",
		     s->name);
		util_rm_rf(out);
	}
	util_path(f, sizeof(f), "%s", out);
	if (util_exists(out) && rename(out, newout))
		goto ioerr;
	util_path(f, sizeof(f), "%s", tree);
	if (util_exists(tree) && rename(tree, oldt))
		goto ioerr;
	if (rename(newt, tree))
		goto ioerr;
	util_rm_rf(oldt);
	ret = 0;
	goto done;
ioerr:
	fail("%s: %s", f, strerror(errno));
	ret = EXIT_SETUP;
undo:
	util_rm_rf(newt);
	goto done;
toolong:
	fail("%s: path too long", tree);
	ret = EXIT_SETUP;
	goto done;
oom:
	fail("out of memory");
	ret = EXIT_FAILURE_GENERIC;
done:
	free(old_stamp);
	free(po);
	free(touched);
	free(old_touched);
	free(stamp);
	free(patches);
	return ret;
}

/* ---- configuration ---- */

/*
 * The inputs of the .config: the fragment, the pristine source and the
 * Kconfig files the patches changed (with their content).
 */
static char *config_key(struct build_ctx *c, const char *tree)
{
	char path[PATH_MAX], sha[65], *touched, *line, *save, *key, *n;
	const char *base;

	if (asprintf(&key, "pristine %s\nfragment %s\n", c->pristine_id,
		     c->fragment_sha) < 0)
		return NULL;
	util_path(path, sizeof(path), "%s/.swapctl-touched", tree);
	touched = util_read_file(path, NULL);
	for (line = touched ? strtok_r(touched, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if (strncmp(base, "Kconfig", 7) &&
		    strncmp(line, "scripts/kconfig/", 16) &&
		    strncmp(line, "arch/x86/configs/", 17))
			continue;
		if (util_path(path, sizeof(path), "%s/%s", tree, line) ||
		    util_sha256_file(path, sha))
			strcpy(sha, "missing");
		if (asprintf(&n, "%s%s %s\n", key, sha, line) < 0) {
			n = NULL;
			break;
		}
		free(key);
		key = n;
	}
	free(touched);
	return key;
}

/* Check every line of the fragment against the .config; list misses. */
static int check_fragment(struct build_ctx *c, const char *dotconfig)
{
	char *frag, *conf, *line, *save, *eq, want[256], missing[4096] = "";
	char item[320];
	int lineno = 0, nmissing = 0;
	bool ok;

	frag = util_read_file(c->fragment, NULL);
	conf = util_read_file(dotconfig, NULL);
	if (!frag || !conf) {
		fail("%s: %s", frag ? dotconfig : c->fragment,
		     strerror(errno));
		free(frag);
		free(conf);
		return EXIT_SETUP;
	}
	for (line = frag; line && *line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		eq = strchr(line, '=');
		if (!strncmp(line, "CONFIG_", 7) && eq) {
			/* the exact line must be in .config */
			snprintf(want, sizeof(want), "\n%s\n", line);
			ok = strstr(conf, want) ||
			     !strncmp(conf, want + 1, strlen(want + 1));
		} else if (!strncmp(line, "# CONFIG_", 9) &&
			   strstr(line, " is not set")) {
			/* no "CONFIG_X=" line may be in .config */
			snprintf(want, sizeof(want), "\n%.*s=",
				 (int)(strstr(line, " is not set") - line - 2),
				 line + 2);
			ok = !strstr(conf, want);
		} else {
			continue;
		}
		if (ok)
			continue;
		nmissing++;
		snprintf(item, sizeof(item), "%s%s (line %d)",
			 nmissing > 1 ? ", " : "", line, lineno);
		append(missing, sizeof(missing), item);
	}
	free(frag);
	free(conf);
	if (!nmissing)
		return 0;
	fail("%s: %d option%s did not survive olddefconfig (unmet dependencies?): %s",
	     c->fragment, nmissing, nmissing > 1 ? "s" : "", missing);
	return EXIT_CONFIG;
}

/*
 * Make out/.config from tinyconfig + the fragment + olddefconfig, unless it
 * was made from the same inputs. The old .config (and its mtime) is kept
 * when the content did not change, so that make rebuilds nothing.
 */
static int configure(struct build_ctx *c, const char *tree)
{
	char out[PATH_MAX], keypath[PATH_MAX], dotconfig[PATH_MAX];
	char prev[PATH_MAX], merge[PATH_MAX], *key, *a = NULL, *b = NULL;
	const char *tiny[] = { "make", "-C", tree, "O=out", "ARCH=x86_64",
			       "tinyconfig", NULL };
	const char *mrg[] = { merge, "-m", "-O", ".", ".config", c->fragment,
			      NULL };
	const char *old[] = { "make", "-C", tree, "O=out", "ARCH=x86_64",
			      "olddefconfig", NULL };
	static const char *const env[] = { "LC_ALL=C", "KCONFIG_CONFIG",
					   "ARCH=x86_64", NULL };
	bool had_prev;
	int st, ret;

	util_path(out, sizeof(out), "%s/out", tree);
	util_path(keypath, sizeof(keypath), "%s/.swapctl-config", out);
	util_path(dotconfig, sizeof(dotconfig), "%s/.config", out);
	util_path(prev, sizeof(prev), "%s/.config.swapctl-prev", out);
	util_path(merge, sizeof(merge), "%s/scripts/kconfig/merge_config.sh",
		 tree);
	key = config_key(c, tree);
	if (!key) {
		fail("out of memory");
		return EXIT_FAILURE_GENERIC;
	}
	if (util_exists(dotconfig) && file_equals(keypath, key)) {
		free(key);
		return 0;
	}
	if (util_mkdir_p(out, 0755) || (unlink(keypath) && errno != ENOENT)) {
		fail("%s: %s", out, strerror(errno));
		free(key);
		return EXIT_SETUP;
	}
	had_prev = util_exists(dotconfig);
	if (had_prev && rename(dotconfig, prev)) {
		fail("%s: %s", dotconfig, strerror(errno));
		free(key);
		return EXIT_SETUP;
	}
	info("%s: configuring (tinyconfig + %s + olddefconfig)",
	     strrchr(tree, '/') + 1, c->fragment);
	progress_init(&c->prog, NULL, false, "", 0, util_now());
	st = run_logged(c, tiny, NULL, env);
	if (st == 0) {
		st = run_logged(c, mrg, out, env);
		if (st == 0)
			st = run_logged(c, old, NULL, env);
	}
	ret = run_failed("configuring the kernel", "make", st);
	if (!ret && st) {
		show_tail(c);
		fail("%s: kernel configuration failed (status %d), full log: %s",
		     tree, st, c->logpath);
		ret = EXIT_BUILD;
	}
	if (!ret)
		ret = check_fragment(c, dotconfig);
	if (ret) {
		/* put the previous state back */
		if (had_prev)
			rename(prev, dotconfig);
		else
			unlink(dotconfig);
		free(key);
		return ret;
	}
	if (had_prev) {
		a = util_read_file(prev, NULL);
		b = util_read_file(dotconfig, NULL);
		if (a && b && !strcmp(a, b))
			rename(prev, dotconfig);	/* keep the old mtime */
		else
			unlink(prev);
	}
	free(a);
	free(b);
	if (util_write_file_atomic(keypath, key, strlen(key), 0644)) {
		fail("%s: %s", keypath, strerror(errno));
		free(key);
		return EXIT_SETUP;
	}
	free(key);
	return 0;
}

/* ---- make ---- */

static unsigned long read_estimate(struct build_ctx *c)
{
	char path[PATH_MAX], *s;
	unsigned long n = 0;

	util_path(path, sizeof(path), "%s/build-objects", c->cfg->workdir);
	s = util_read_file(path, NULL);
	if (s)
		n = strtoul(s, NULL, 10);
	free(s);
	return n ? n : FIRST_ESTIMATE;
}

static void save_estimate(struct build_ctx *c, unsigned long n)
{
	char path[PATH_MAX], buf[32];

	util_path(path, sizeof(path), "%s/build-objects", c->cfg->workdir);
	snprintf(buf, sizeof(buf), "%lu\n", n);
	util_write_file_atomic(path, buf, strlen(buf), 0644);
}

static int run_make(struct build_ctx *c, const char *tree,
		    const char *label, double *secs)
{
	char jobs[32], ccdir[PATH_MAX + 16], vmlinux[PATH_MAX];
	const char *argv[] = { "make", "-C", tree, "O=out", "ARCH=x86_64",
			       jobs, "bzImage",
			       c->cfg->ccache ? "CC=ccache gcc" : NULL, NULL };
	const char *env[] = {
		"LC_ALL=C", ccdir, "CCACHE_NOHASHDIR=1",
		"KBUILD_BUILD_TIMESTAMP=2023-01-01 00:00:00 UTC",
		"KBUILD_BUILD_USER=swapctl", "KBUILD_BUILD_HOST=swapctl",
		"KBUILD_BUILD_VERSION=1", "KCONFIG_CONFIG", "ARCH=x86_64",
		NULL,
	};
	bool fresh;
	double t0;
	int st, ret;

	snprintf(jobs, sizeof(jobs), "-j%d", c->jobs);
	util_path(ccdir, sizeof(ccdir), "CCACHE_DIR=%s/ccache",
		 c->cfg->workdir);
	util_path(vmlinux, sizeof(vmlinux), "%s/out/vmlinux", tree);
	fresh = !util_exists(vmlinux);
	t0 = util_now();
	progress_init(&c->prog, stderr, c->tty, label,
		      fresh ? read_estimate(c) : 0, t0);
	if (!c->tty)
		info("%s: building (%s, -j%d, log %s)", label,
		     fresh ? "full build" : "incremental", c->jobs,
		     c->logpath);
	st = run_logged(c, argv, NULL, env);
	*secs = util_now() - t0;
	ret = run_failed("building the kernel", "make", st);
	if (ret)
		return ret;
	if (st) {
		show_tail(c);
		fail("%s: kernel build failed (make status %d), full log: %s",
		     label, st, c->logpath);
		return EXIT_BUILD;
	}
	progress_clear(&c->prog);
	info("%s: %lu objects compiled in %.0f s", label, c->prog.done,
	     *secs);
	if (fresh && c->prog.done > 100)
		save_estimate(c, c->prog.done);
	return 0;
}

/* ---- kernels/<variant>/ ---- */

static char *utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static int install_kernel(struct build_ctx *c, const struct series *s,
			  const char *tree, double secs, json_t **manifest)
{
	char dir[PATH_MAX], src[PATH_MAX], dst[PATH_MAX], mpath[PATH_MAX];
	char rel[PATH_MAX], cfgpath[PATH_MAX], ksha[65], csha[65], when[32];
	char *release, *text;
	json_t *m, *pl;
	size_t i;

	util_path(dir, sizeof(dir), "%s/kernels/%s", c->cfg->workdir, s->name);
	util_path(src, sizeof(src), "%s/out/arch/x86/boot/bzImage", tree);
	util_path(dst, sizeof(dst), "%s/bzImage", dir);
	util_path(mpath, sizeof(mpath), "%s/manifest.json", dir);
	util_path(rel, sizeof(rel), "%s/out/include/config/kernel.release",
		 tree);
	util_path(cfgpath, sizeof(cfgpath), "%s/out/.config", tree);
	if (util_mkdir_p(dir, 0755) || util_sha256_file(src, ksha) ||
	    util_sha256_file(cfgpath, csha) ||
	    util_copy_file(src, dst, 0644)) {
		fail("%s: %s", dst, strerror(errno));
		return EXIT_BUILD;
	}
	release = util_read_file(rel, NULL);
	pl = json_array();
	for (i = 0; i < s->n; i++)
		json_array_append_new(pl, json_pack("{s:s,s:s,s:i}",
			"name", s->patches[i].name,
			"sha256", s->patches[i].sha256,
			"strip", s->patches[i].strip));
	m = json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:s,s:s,s:s,s:f}",
		      "variant", s->name,
		      "kernel", dst,
		      "kernel_version", release ? trim_nl(release) : "unknown",
		      "series", s->n ? s->file : "",
		      "patches", pl,
		      "bzimage_sha256", ksha,
		      "config_sha256", csha,
		      "fragment_sha256", c->fragment_sha,
		      "tarball", c->cfg->tarball,
		      "tarball_sha256", c->tarball_sha,
		      "built_at", utc_now(when, sizeof(when)),
		      "build_seconds", secs);
	free(release);
	if (!m) {
		fail("%s: cannot make the manifest", mpath);
		return EXIT_FAILURE_GENERIC;
	}
	text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text || util_write_file_atomic(mpath, text, strlen(text), 0644)) {
		fail("%s: %s", mpath, strerror(errno));
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

static bool up_to_date(struct build_ctx *c, const struct series *s,
		       const char *tree, json_t **manifest)
{
	char p[PATH_MAX], sha[65], *key;
	json_error_t jerr;
	const char *want;
	bool ok = false;
	json_t *m;

	key = built_key(tree);
	util_path(p, sizeof(p), "%s/out/.swapctl-built", tree);
	if (!key || !file_equals(p, key))
		goto out;
	util_path(p, sizeof(p), "%s/kernels/%s/manifest.json", c->cfg->workdir,
		 s->name);
	m = json_load_file(p, 0, &jerr);
	if (!m)
		goto out;
	want = json_string_value(json_object_get(m, "bzimage_sha256"));
	util_path(p, sizeof(p), "%s/kernels/%s/bzImage", c->cfg->workdir,
		 s->name);
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

/*
 * Without the lock: is everything about variant @name already built from
 * the current inputs? Only reads stamps (written atomically), so a build
 * running meanwhile can at worst make this say no.
 */
static bool variant_current(struct build_ctx *c, const char *name)
{
	char tree[PATH_MAX], p[PATH_MAX], err[1024], *patches, *stamp = NULL;
	char *key = NULL;
	json_t *m = NULL;
	struct series s;
	bool ok = false;

	if (series_load(&s, c->patches_root, name, err, sizeof(err)))
		return false;
	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, name);
	patches = series_stamp(&s, s.n);
	if (!patches || asprintf(&stamp, "pristine %s\n%s", c->pristine_id,
				 patches) < 0)
		goto out;
	util_path(p, sizeof(p), "%s/.swapctl-stamp", tree);
	if (!file_equals(p, stamp))
		goto out;
	key = config_key(c, tree);
	util_path(p, sizeof(p), "%s/out/.swapctl-config", tree);
	if (!key || !file_equals(p, key))
		goto out;
	if (up_to_date(c, &s, tree, &m)) {
		json_array_append_new(c->kernels, m);
		ok = true;
	}
out:
	free(key);
	free(stamp);
	free(patches);
	series_free(&s);
	return ok;
}

static int build_variant(struct build_ctx *c, const char *name, bool each)
{
	char tree[PATH_MAX], label[400], err[1024], p[PATH_MAX];
	json_t *manifest = NULL;
	struct series s;
	double secs = 0;
	bool changed;
	size_t k;
	int ret;

	if (series_load(&s, c->patches_root, name, err, sizeof(err))) {
		fail("%s", err);
		return EXIT_PATCH;
	}
	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, name);
	util_path(p, sizeof(p), "%s/trees", c->cfg->workdir);
	util_mkdir_p(p, 0755);
	ret = open_log(c, name);
	if (ret)
		goto out;
	for (k = each && s.n ? 1 : s.n; k <= s.n; k++) {
		if (each && s.n)
			snprintf(label, sizeof(label), "%s [%zu/%zu %s]", name,
				 k, s.n, s.patches[k - 1].name);
		else
			snprintf(label, sizeof(label), "%s", name);
		ret = prepare_tree(c, &s, k, tree, &changed);
		if (!ret)
			ret = configure(c, tree);
		if (ret)
			goto out;
		if (k == s.n && up_to_date(c, &s, tree, &manifest)) {
			info("%s: up to date", name);
			break;
		}
		util_path(p, sizeof(p), "%s/out/.swapctl-built", tree);
		unlink(p);
		ret = run_make(c, tree, label, &secs);
		if (ret == EXIT_BUILD && each && s.n) {
			fail("%s: patch %zu/%zu %s (%s line %d) is the first that breaks the build",
			     name, k, s.n, s.patches[k - 1].name, s.file,
			     s.patches[k - 1].line);
			goto out;
		}
		if (ret)
			goto out;
		mark_built(tree);
		if (k == s.n) {
			ret = install_kernel(c, &s, tree, secs, &manifest);
			if (ret)
				goto out;
		}
		if (!s.n)
			break;
	}
	if (manifest)
		json_array_append_new(c->kernels, manifest);
out:
	if (c->logfd >= 0)
		close(c->logfd);
	c->logfd = -1;
	series_free(&s);
	return ret;
}

/* ---- initramfs ---- */

static int guest_prog(struct build_ctx *c, const char *prog, char *path,
		      size_t len)
{
	util_path(path, len, "%s/guest/build/%s", c->datadir, prog);
	if (access(path, X_OK) == 0)
		return 0;
	/* installed layout: <prefix>/share/swapctl/guest/<prog> */
	util_path(path, len, "%s/guest/%s", c->datadir, prog);
	if (access(path, X_OK) == 0)
		return 0;
	util_path(path, len, "%s/guest/build/%s", c->datadir, prog);
	fail("%s: missing guest program (run 'make' first)", path);
	return EXIT_SETUP;
}

static int build_initramfs(struct build_ctx *c, char *dst, size_t dstlen)
{
	static const char *const dirs[] = { "dev", "proc", "sys", "tmp", "mnt",
					    "run", "bin", "host" };
	char paths[ARRAY_SIZE(guest_progs)][PATH_MAX], dir[PATH_MAX];
	char name[64];
	char *buf = NULL, *cur;
	size_t len = 0, i;
	struct cpio cp;
	bool same;
	FILE *f;
	int ret;

	for (i = 0; i < ARRAY_SIZE(guest_progs); i++) {
		ret = guest_prog(c, guest_progs[i], paths[i],
				 sizeof(paths[i]));
		if (ret)
			return ret;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		fail("initramfs: %s", strerror(errno));
		return EXIT_FAILURE_GENERIC;
	}
	cpio_init(&cp, f);
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		cpio_dir(&cp, dirs[i], 0755);
	cpio_node(&cp, "dev/console", S_IFCHR | 0600, 5, 1);
	cpio_file(&cp, "init", 0755, paths[0]);
	for (i = 1; i < ARRAY_SIZE(guest_progs); i++) {
		snprintf(name, sizeof(name), "bin/%s", guest_progs[i]);
		cpio_file(&cp, name, 0755, paths[i]);
	}
	cpio_finish(&cp);
	fclose(f);
	if (cp.error) {
		fail("initramfs: %s", strerror(cp.error));
		free(buf);
		return EXIT_BUILD;
	}
	util_path(dir, sizeof(dir), "%s/kernels", c->cfg->workdir);
	util_path(dst, dstlen, "%s/initramfs.cpio", dir);
	cur = NULL;
	{
		size_t curlen = 0;

		cur = util_read_file(dst, &curlen);
		same = cur && curlen == len && !memcmp(cur, buf, len);
	}
	free(cur);
	if (!same && (util_mkdir_p(dir, 0755) ||
		      util_write_file_atomic(dst, buf, len, 0644))) {
		fail("%s: %s", dst, strerror(errno));
		free(buf);
		return EXIT_BUILD;
	}
	free(buf);
	return 0;
}

/* ---- the command ---- */

static int check_workdir(struct build_ctx *c)
{
	char wd[PATH_MAX], repo[PATH_MAX];
	size_t n;

	if (strlen(c->cfg->workdir) > PATH_MAX / 2) {
		fail("%s: path too long (workdir, from %s)", c->cfg->workdir,
		     c->cfg->source);
		return EXIT_CONFIG;
	}
	if (util_mkdir_p(c->cfg->workdir, 0755)) {
		fail("%s: %s (workdir, from %s)", c->cfg->workdir,
		     strerror(errno), c->cfg->source);
		return EXIT_SETUP;
	}
	if (!realpath(c->cfg->workdir, wd) || !realpath(c->datadir, repo))
		return 0;
	n = strlen(repo);
	if (!strncmp(wd, repo, n) && (wd[n] == '/' || !wd[n])) {
		fail("%s: the work directory must not be inside the repository %s (workdir, from %s)",
		     c->cfg->workdir, repo, c->cfg->source);
		return EXIT_CONFIG;
	}
	return 0;
}

static int clean_variant(struct build_ctx *c, const char *name)
{
	static const char *const suffix[] = { "", ".new", ".old" };
	char p[PATH_MAX];
	size_t i;

	for (i = 0; i < 3; i++) {
		if (util_path(p, sizeof(p), "%s/trees/%s%s", c->cfg->workdir,
			      name, suffix[i]))
			return EXIT_SETUP;
		if (!util_exists(p))
			continue;
		if (util_rm_rf(p)) {
			fail("%s: %s", p, strerror(errno));
			return EXIT_SETUP;
		}
		info("removed %s", p);
	}
	return 0;
}

static int check_inputs(struct build_ctx *c, const char *const *variants,
			int nvar, bool clean)
{
	char err[1024];
	struct series s;
	int i;

	if (clean)
		return 0;
	if (access(c->cfg->tarball, R_OK)) {
		fail("%s: %s (kernel_tarball, from %s; 'make deps' installs linux-source-6.1)",
		     c->cfg->tarball, strerror(errno), c->cfg->source);
		return EXIT_SETUP;
	}
	for (i = 0; i < nvar; i++) {
		if (series_load(&s, c->patches_root, variants[i], err,
				sizeof(err))) {
			fail("%s", err);
			return EXIT_PATCH;
		}
		series_free(&s);
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
		printf("  %-10s %s  (%s, %zu patch%s)\n",
		       json_string_value(json_object_get(m, "variant")),
		       json_string_value(json_object_get(m, "kernel")),
		       json_string_value(json_object_get(m, "kernel_version")),
		       json_array_size(json_object_get(m, "patches")),
		       json_array_size(json_object_get(m, "patches")) == 1 ?
		       "" : "es");
	printf("initramfs:\n  %s\n", initramfs);
}

int cmd_build(int argc, char **argv, struct swapctl_config *cfg)
{
	const char *variants[2], *series = NULL, *patches = NULL;
	bool each = false, clean = false, json = false, all = false;
	bool baseline = false, initramfs_only = false;
	int jobs = -1;
	struct popt opts[] = {
		OPT_STRING(0, "series", &series, "NAME",
			   "build only the variant of patches/NAME/series"),
		OPT_BOOL(0, "baseline", &baseline,
			 "build only the baseline (patches/baseline/series)"),
		OPT_BOOL(0, "all", &all,
			 "build the baseline and the configured series"),
		OPT_BOOL(0, "each", &each,
			 "build after every patch of the series and name the first patch that breaks the build"),
		OPT_INT('j', "jobs", &jobs, "N",
			"parallel make jobs (default: 'jobs' in swapctl.conf; 0: the number of CPUs)",
			0, 256),
		OPT_STRING(0, "patches", &patches, "DIR",
			   "root of the series directories (default: the patches/ directory next to swapctl)"),
		OPT_BOOL(0, "clean", &clean,
			 "remove the variants' trees and build directories and exit (the next build starts from scratch)"),
		OPT_BOOL(0, "json", &json,
			 "print the manifests of the kernels as JSON"),
		OPT_BOOL(0, "initramfs-only", &initramfs_only,
			 "write only <workdir>/kernels/initramfs.cpio from the guest programs, build no kernel"),
		OPT_END(),
	};
	struct popt_cmd cmd = {
		.name = "build", .opts = opts,
		.desc =
		"Apply the patch series onto the kernel source and build bootable\n"
		"guest kernels plus the guest initramfs in the work directory.\n"
		"Without a variant option, builds both 'baseline' and the series\n"
		"named by 'series' in swapctl.conf (like --all). With -v\n"
		"(swapctl -v build), the output of make is shown instead of the\n"
		"progress line.\n",
		.epilog =
		"Kernels: <workdir>/kernels/<variant>/bzImage and manifest.json;\n"
		"initramfs: <workdir>/kernels/initramfs.cpio; logs: <workdir>/logs/.\n"
		"Exit codes: 0 ok, 2 usage, 3 configuration (swapctl.conf or a\n"
		"Kconfig option of guest/kernel.config dropped), 4 setup (missing\n"
		"tarball, tool or guest program), 5 patch series (bad series file or\n"
		"a patch that does not apply), 6 build failed.\n",
	};
	struct build_ctx c = { .cfg = cfg, .logfd = -1 };
	char lockpath[PATH_MAX], initramfs[PATH_MAX];
	int n, nvar = 0, i, lockfd, ret = 0;
	double t0;

	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if ((series != NULL) + baseline + all > 1)
		return popt_error(&cmd, "--series, --baseline and --all exclude each other");
	if (series && !valid_name(series))
		return popt_error(&cmd, "--series: '%s' is not a series name",
				  series);
	if (series && !strcmp(series, "baseline")) {
		baseline = true;
		series = NULL;
	}
	if (series) {
		variants[nvar++] = series;
	} else if (baseline) {
		variants[nvar++] = "baseline";
	} else {
		variants[nvar++] = "baseline";
		variants[nvar++] = cfg->series;
	}

	c.datadir = util_data_dir();
	if (!c.datadir) {
		fail("cannot find swapctl's data directory (guest/kernel.config next to the swapctl binary, in the current directory or in <prefix>/share/swapctl)");
		return EXIT_SETUP;
	}
	if (patches && !realpath(patches, c.patches_root))
		return popt_error(&cmd, "--patches: %s: %s", patches,
				  strerror(errno));
	if (!patches)
		util_path(c.patches_root, sizeof(c.patches_root), "%s/patches",
			  c.datadir);
	util_path(c.fragment, sizeof(c.fragment), "%s/guest/kernel.config",
		  c.datadir);
	if (util_sha256_file(c.fragment, c.fragment_sha)) {
		fail("%s: %s", c.fragment, strerror(errno));
		return EXIT_SETUP;
	}
	c.jobs = jobs >= 0 ? jobs : cfg->jobs;
	if (c.jobs == 0)
		c.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (c.jobs < 1)
		c.jobs = 1;
	c.tty = isatty(STDERR_FILENO);

	ret = check_workdir(&c);
	if (ret)
		return ret;
	if (initramfs_only) {
		/* the guest programs only: no kernel, no lock */
		ret = build_initramfs(&c, initramfs, sizeof(initramfs));
		if (!ret)
			info("initramfs: %s", initramfs);
		return ret;
	}
	/* fail on bad inputs before waiting for the lock */
	ret = check_inputs(&c, variants, nvar, clean);
	if (ret)
		return ret;
	c.kernels = json_array();
	if (!clean && !each && !tarball_sha(&c)) {
		/* nothing to do needs no lock: a no-op build takes no time */
		for (i = 0; i < nvar && variant_current(&c, variants[i]); i++)
			;
		if (i == nvar) {
			ret = build_initramfs(&c, initramfs, sizeof(initramfs));
			for (i = 0; i < nvar && !ret; i++)
				info("%s: up to date", variants[i]);
			if (!ret)
				print_summary(&c, initramfs, json);
			json_decref(c.kernels);
			return ret;
		}
		json_array_clear(c.kernels);
	}
	util_path(lockpath, sizeof(lockpath), "%s/build.lock", cfg->workdir);
	lockfd = util_lock(lockpath, "another kernel build");
	if (lockfd < 0) {
		fail("%s: %s", lockpath, strerror(errno));
		return EXIT_SETUP;
	}
	if (clean) {
		for (i = 0; i < nvar && !ret; i++)
			ret = clean_variant(&c, variants[i]);
		close(lockfd);
		json_decref(c.kernels);
		return ret;
	}
	t0 = util_now();
	ret = build_initramfs(&c, initramfs, sizeof(initramfs));
	if (!ret)
		ret = extract(&c);
	for (i = 0; i < nvar && !ret; i++)
		ret = build_variant(&c, variants[i], each);
	close(lockfd);
	if (!ret) {
		info("done in %.1f s (after the lock was taken)",
		     util_now() - t0);
		print_summary(&c, initramfs, json);
	}
	json_decref(c.kernels);
	return ret;
}
