// SPDX-License-Identifier: GPL-2.0
/* The prepared kernel tree of kernel-build workloads (see kbuild.h). */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild.h"
#include "subdir.h"
#include "util.h"

const char *const kbuild_configs[] = {
	"tinyconfig", "allnoconfig", "defconfig", NULL,
};

static const char *dirname_of(const char *path)
{
	static char dir[4096];
	char *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (p && p != dir)
		*p = '\0';
	return dir;
}

int kbuild_pristine(const char *workdir, const char *tarball, char *src,
		    size_t len, char *err, size_t errlen)
{
	const char *base = strrchr(tarball, '/');
	char path[4096], id[17] = "", top[256], mk[4400];
	char *text;
	size_t n;

	/*
	 * <tarball's name>.id, as the build's tree_tarball_sha() writes it:
	 * "<dev> <ino> <size> <mtime> <path>\n<sha256>\n"
	 */
	snprintf(path, sizeof(path), "%s/src/%s.id", workdir,
		 base ? base + 1 : tarball);
	text = util_read_file(path, NULL);
	if (text) {
		n = strlen(text);
		if (n >= 65 && text[n - 1] == '\n') {
			memcpy(id, text + n - 65, 16);
			id[16] = '\0';
		}
		free(text);
	}
	if (!id[0]) {
		snprintf(path, sizeof(path), "%s/src", workdir);
		if (subdir_only(path, id, sizeof(id))) {
			util_seterr(err, errlen,
				    "%s: no extracted kernel source (run 'swapctl build' first)",
				    path);
			return -1;
		}
	}
	snprintf(path, sizeof(path), "%s/src/%s", workdir, id);
	if (subdir_only(path, top, sizeof(top)) ||
	    util_path(src, len, "%s/%s", path, top)) {
		util_seterr(err, errlen,
			    "%s: no extracted kernel source (run 'swapctl build' first)",
			    path);
		return -1;
	}
	snprintf(mk, sizeof(mk), "%s/Makefile", src);
	if (!util_exists(mk)) {
		util_seterr(err, errlen, "%s: not a kernel source tree", src);
		return -1;
	}
	return 0;
}

static int make(const char *src, const char *out, const char *target,
		int log_fd, char *err, size_t errlen)
{
	char o[4200];
	const char *argv[] = { "make", "-C", src, o, "-j2", target, NULL };
	struct util_run_opts opts = { .out_fd = log_fd };
	int st;

	snprintf(o, sizeof(o), "O=%s", out);
	st = util_run(argv, &opts);
	if (st) {
		util_seterr(err, errlen,
			    "kbuild: make %s in %s %s %d (see the log)", target,
			    out, st < 0 ? "could not start:" : "failed with status",
			    st < 0 ? errno : st);
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The command Kbuild recorded for @obj (relative to the O= tree) in its
 * .cmd file @cmdfile: the text after "cmd_<obj> := " (6.1; "savedcmd_"
 * from 6.2), still in make syntax ("$$", "$(pound)"). malloc'ed, or NULL.
 */
static char *recorded_command(const char *cmdfile, const char *obj)
{
	char *text, *line, *nl, *ret = NULL;
	static const char *const pfx[] = { "cmd_", "savedcmd_" };
	size_t i, n;

	text = util_read_file(cmdfile, NULL);
	if (!text)
		return NULL;
	for (line = text; line && *line && !ret; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		for (i = 0; i < ARRAY_SIZE(pfx) && !ret; i++) {
			n = strlen(pfx[i]);
			if (strncmp(line, pfx[i], n) ||
			    strncmp(line + n, obj, strlen(obj)) ||
			    strncmp(line + n + strlen(obj), " := ", 4))
				continue;
			ret = strdup(line + n + strlen(obj) + 4);
		}
	}
	free(text);
	return ret;
}

/*
 * The host's objects move to KBUILD_HOST_OBJS/ so that an object in the
 * guest's view of KBUILD_DIR is one the guest built.
 */
/*
 * The objects Kbuild built in @dir, by their ".NAME.o.cmd" files, sorted,
 * into @names (NAME.o, allocated; *@n of them, also on failure).
 */
static int built_objects(const char *dir, char **names, int *n, char *err,
			 size_t errlen)
{
	struct dirent *d;
	DIR *dh;

	dh = opendir(dir);
	if (!dh) {
		util_seterr(err, errlen, "kbuild: %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dh))) {
		size_t l = strlen(d->d_name);

		/* ".NAME.o.cmd" */
		if (d->d_name[0] != '.' || l < 8 ||
		    strcmp(d->d_name + l - 6, ".o.cmd"))
			continue;
		if (*n >= KBUILD_MAX_OBJS) {
			util_seterr(err, errlen, "kbuild: %s: more than %d objects",
				    dir, KBUILD_MAX_OBJS);
			closedir(dh);
			return -1;
		}
		names[*n] = strndup(d->d_name + 1, l - 5);	/* NAME.o */
		if (!names[*n]) {
			closedir(dh);
			util_seterr(err, errlen, "kbuild: out of memory");
			return -1;
		}
		(*n)++;
	}
	closedir(dh);
	if (!*n) {
		util_seterr(err, errlen, "kbuild: %s: Kbuild built no object",
			    dir);
		return -1;
	}
	qsort(names, *n, sizeof(names[0]), cmp_str);
	return 0;
}

/* The Makefile of objects @names of @dir: one rule per object (allocated). */
static char *makefile_text(const char *dir, char *const *names, int n,
			   char *err, size_t errlen)
{
	char path[PATH_MAX], obj[NAME_MAX + 8], *mk = NULL, *cmd;
	size_t cap = 0;
	FILE *f;
	int i;

	f = open_memstream(&mk, &cap);
	if (!f)
		goto nomem;
	fprintf(f, "# Written by swapctl run after Kbuild built %s/ of this tree on\n"
		"# the host: one rule per object, running the command Kbuild ran\n"
		"# (from its .cmd file), so that the guest compiles without\n"
		"# Kbuild's start-up of every make (compiler probes, recursive\n"
		"# makes). The host's objects are in %s/.\n"
		"#   make -C <this directory> -f %s -j2 %s/OBJ.o...\n"
		"pound := \\#\nOBJS :=", KBUILD_DIR, KBUILD_HOST_OBJS,
		KBUILD_MK, KBUILD_DIR);
	for (i = 0; i < n; i++)
		fprintf(f, " \\\n\t%s/%s", KBUILD_DIR, names[i]);
	fprintf(f, "\n.PHONY: all $(OBJS)\nall: $(OBJS)\n");
	for (i = 0; i < n; i++) {
		snprintf(obj, sizeof(obj), "%s/%s", KBUILD_DIR, names[i]);
		cmd = NULL;
		if (!util_path(path, sizeof(path), "%s/.%s.cmd", dir, names[i]))
			cmd = recorded_command(path, obj);
		if (!cmd) {
			util_seterr(err, errlen, "kbuild: %s: no cmd_%s line",
				    path, obj);
			fclose(f);
			free(mk);
			return NULL;
		}
		fprintf(f, "%s:\n\t@echo '  CC      %s'\n\t@%s\n", obj, obj,
			cmd);
		free(cmd);
	}
	if (!fclose(f))
		return mk;
nomem:
	free(mk);
	util_seterr(err, errlen, "kbuild: out of memory");
	return NULL;
}

/* The host's objects @names of @dir out of the guest's way, kept. */
static int move_host_objects(const char *out, const char *dir,
			     char *const *names, int n, char *err,
			     size_t errlen)
{
	char path[PATH_MAX], dst[PATH_MAX];
	int i;

	if (util_path(path, sizeof(path), "%s/%s/%s", out, KBUILD_HOST_OBJS,
		      KBUILD_DIR) || util_rm_rf(path) ||
	    util_mkdir_p(path, 0755)) {
		util_seterr(err, errlen, "kbuild: %s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (util_path(path, sizeof(path), "%s/%s", dir, names[i]) ||
		    util_path(dst, sizeof(dst), "%s/%s/%s/%s", out,
			      KBUILD_HOST_OBJS, KBUILD_DIR, names[i]) ||
		    rename(path, dst)) {
			util_seterr(err, errlen, "kbuild: move %s to %s: %s",
				    path, dst, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int kbuild_write_makefile(const char *out, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX];
	char *names[KBUILD_MAX_OBJS], *mk = NULL;
	int n = 0, i, ret = -1;

	if (util_path(dir, sizeof(dir), "%s/%s", out, KBUILD_DIR)) {
		util_seterr(err, errlen, "kbuild: %s: %s", dir, strerror(errno));
		return -1;
	}
	if (built_objects(dir, names, &n, err, errlen))
		goto done;
	mk = makefile_text(dir, names, n, err, errlen);
	if (!mk || move_host_objects(out, dir, names, n, err, errlen))
		goto done;
	if (util_path(path, sizeof(path), "%s/%s", out, KBUILD_MK) ||
	    util_write_file_atomic(path, mk, strlen(mk), 0644)) {
		util_seterr(err, errlen, "kbuild: %s: %s", path, strerror(errno));
		goto done;
	}
	ret = 0;
done:
	free(mk);
	for (i = 0; i < n; i++)
		free(names[i]);
	return ret;
}

int kbuild_prepare(const char *workdir, const char *tarball,
		   const char *config, const char *log, bool dry, char *src,
		   size_t srclen, char *out, size_t outlen, char *err,
		   size_t errlen)
{
	char stamp[4300], lock[4200], want[4400], *cur;
	const char *const *c;
	int lfd, logfd = -1, ret = -1;
	bool same;

	for (c = kbuild_configs; *c && strcmp(*c, config); c++)
		;
	if (!*c) {
		util_seterr(err, errlen, "kbuild: unknown config '%s'", config);
		return -1;
	}
	if (kbuild_pristine(workdir, tarball, src, srclen, err, errlen))
		return -1;
	/* <workdir>/src/<id>/<top>: the id names the tree */
	{
		char id[64], *p, *q;

		snprintf(want, sizeof(want), "%s", src);
		p = strrchr(want, '/');
		*p = '\0';
		q = strrchr(want, '/');
		snprintf(id, sizeof(id), "%s", q + 1);
		if (util_path(out, outlen, "%s/kbuild/%s-%s", workdir, id,
			      config))
			goto toolong;
	}
	if (dry)
		return 0;
	snprintf(stamp, sizeof(stamp), "%s/.swapctl-prepared", out);
	snprintf(want, sizeof(want), "source %s\nconfig %s\nbuilt %s/ %s\n",
		 src, config, KBUILD_DIR, KBUILD_MK);
	cur = util_read_file(stamp, NULL);
	same = cur && !strcmp(cur, want);
	free(cur);
	if (same)
		return 0;

	snprintf(lock, sizeof(lock), "%s/build.lock", workdir);
	lfd = util_lock(lock, "the kernel build lock", NULL);
	if (lfd < 0) {
		util_seterr(err, errlen, "%s: %s", lock, strerror(errno));
		return -1;
	}
	if (util_mkdir_p(out, 0755) || util_mkdir_p(dirname_of(log), 0755)) {
		util_seterr(err, errlen, "%s: %s", out, strerror(errno));
		goto done;
	}
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0) {
		util_seterr(err, errlen, "%s: %s", log, strerror(errno));
		goto done;
	}
	fprintf(stderr, "swapctl run: preparing the kernel tree %s (%s, make prepare %s/; log %s)\n",
		out, config, KBUILD_DIR, log);
	unlink(stamp);
	if (make(src, out, config, logfd, err, errlen) ||
	    make(src, out, "prepare", logfd, err, errlen) ||
	    make(src, out, KBUILD_DIR "/", logfd, err, errlen) ||
	    kbuild_write_makefile(out, err, errlen))
		goto done;
	if (util_write_file_atomic(stamp, want, strlen(want), 0644)) {
		util_seterr(err, errlen, "%s: %s", stamp, strerror(errno));
		goto done;
	}
	ret = 0;
done:
	if (logfd >= 0)
		close(logfd);
	close(lfd);
	return ret;
toolong:
	util_seterr(err, errlen, "%s/kbuild: path too long", workdir);
	return -1;
}
