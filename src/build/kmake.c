// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the build log, the children's output (the progress line
 * or, with -v, make's own output) and make bzImage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build.h"

/* objects of a full build of guest/kernel.config (measured: 1461) */
#define FIRST_ESTIMATE 1461


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

void kmake_show_tail(struct build_ctx *c)
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
int kmake_run_logged(struct build_ctx *c, const char *const argv[],
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

int kmake_open_log(struct build_ctx *c, const char *variant)
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
		build_fail("%s: %s", dir, strerror(errno));
		return EXIT_SETUP;
	}
	c->logfd = open(c->logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			0644);
	if (c->logfd < 0) {
		build_fail("%s: %s", c->logpath, strerror(errno));
		return EXIT_SETUP;
	}
	return 0;
}

void kmake_close_log(struct build_ctx *c)
{
	if (c->logfd >= 0)
		close(c->logfd);
	c->logfd = -1;
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

int kmake_bzimage(struct build_ctx *c, const char *tree,
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
		build_info("%s: building (%s, -j%d, log %s)", label,
		     fresh ? "full build" : "incremental", c->jobs,
		     c->logpath);
	st = kmake_run_logged(c, argv, NULL, env);
	*secs = util_now() - t0;
	ret = build_run_failed("building the kernel", "make", st);
	if (ret)
		return ret;
	if (st) {
		kmake_show_tail(c);
		build_fail("%s: kernel build failed (make status %d), full log: %s",
		     label, st, c->logpath);
		return EXIT_BUILD;
	}
	progress_clear(&c->prog);
	build_info("%s: %lu objects compiled in %.0f s", label, c->prog.done,
	     *secs);
	if (fresh && c->prog.done > 100)
		save_estimate(c, c->prog.done);
	return 0;
}
