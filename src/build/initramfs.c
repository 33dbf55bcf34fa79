// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the guest initramfs, kernels/initramfs.cpio (newc),
 * from the guest programs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "cpio.h"

/* guest/build/<prog>: init is /init, the others /bin/<prog> */
static const char *const guest_progs[] = {
	"init", "agent", "workload", "command", "usemem", "redisrun",
};


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
	build_fail("%s: missing guest program (run 'make' first)", path);
	return EXIT_SETUP;
}

int initramfs_write(struct build_ctx *c, char *dst, size_t dstlen)
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
		build_fail("initramfs: %s", strerror(errno));
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
		build_fail("initramfs: %s", strerror(cp.error));
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
		build_fail("%s: %s", dst, strerror(errno));
		free(buf);
		return EXIT_BUILD;
	}
	free(buf);
	return 0;
}
