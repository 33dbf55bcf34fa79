// SPDX-License-Identifier: GPL-2.0
/* The prepared kernel tree of kernel-build workloads (see kbuild.h). */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild.h"
#include "util.h"

const char *const kbuild_configs[] = {
	"tinyconfig", "allnoconfig", "defconfig", NULL,
};

/* The one directory in @dir, or -1. */
static int only_dir(const char *dir, char *name, size_t len)
{
	struct dirent *d;
	int n = 0;
	DIR *dh;

	dh = opendir(dir);
	if (!dh)
		return -1;
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR ||
		    strstr(d->d_name, ".tmp"))
			continue;
		snprintf(name, len, "%s", d->d_name);
		n++;
	}
	closedir(dh);
	return n == 1 ? 0 : -1;
}

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

int kbuild_pristine(const char *workdir, char *src, size_t len,
		    char *err, size_t errlen)
{
	char path[4096], id[17] = "", top[256], mk[4400];
	char *text;
	size_t n;

	/* tarball.id: "<dev> <ino> <size> <mtime> <path>\n<sha256>\n" */
	snprintf(path, sizeof(path), "%s/src/tarball.id", workdir);
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
		if (only_dir(path, id, sizeof(id))) {
			util_seterr(err, errlen,
				    "%s: no extracted kernel source (run 'swapctl build' first)",
				    path);
			return -1;
		}
	}
	snprintf(path, sizeof(path), "%s/src/%s", workdir, id);
	if (only_dir(path, top, sizeof(top)) ||
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

int kbuild_prepare(const char *workdir, const char *config, const char *log,
		   bool dry, char *src, size_t srclen, char *out,
		   size_t outlen, char *err, size_t errlen)
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
	if (kbuild_pristine(workdir, src, srclen, err, errlen))
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
	snprintf(want, sizeof(want), "source %s\nconfig %s\n", src, config);
	cur = util_read_file(stamp, NULL);
	same = cur && !strcmp(cur, want);
	free(cur);
	if (same)
		return 0;

	snprintf(lock, sizeof(lock), "%s/build.lock", workdir);
	lfd = util_lock(lock, "the kernel build lock");
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
	fprintf(stderr, "swapctl run: preparing the kernel tree %s (%s, make prepare; log %s)\n",
		out, config, log);
	unlink(stamp);
	if (make(src, out, config, logfd, err, errlen) ||
	    make(src, out, "prepare", logfd, err, errlen))
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
