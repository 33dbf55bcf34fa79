/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Patch series in quilt format: patches/<name>/series lists one patch file
 * name per line (relative to patches/<name>/), optionally followed by
 * "-pN" (default -p1); '#' starts a comment, blank lines are ignored.
 */
#ifndef SWAPCTL_SERIES_H
#define SWAPCTL_SERIES_H

#include <limits.h>
#include <stddef.h>

struct series_patch {
	char name[256];			/* as written in the series file */
	char path[PATH_MAX];		/* <dir>/<name> */
	int strip;			/* N of -pN */
	int line;			/* line in the series file */
	char sha256[65];		/* of the patch file */
};

struct series {
	char name[64];			/* variant name (directory name) */
	char dir[PATH_MAX];		/* patches/<name> */
	char file[PATH_MAX];		/* patches/<name>/series */
	size_t n;
	struct series_patch *patches;	/* malloc'ed, n entries */
};

/*
 * Parse @text as the series file @s->file whose patches live in @s->dir
 * (fill those two and @s->name first). Checks the syntax and that each
 * named patch is a readable regular file, and computes its SHA-256.
 * Returns 0, or -1 with "FILE:LINE: what is wrong" in @err.
 */
int series_parse(struct series *s, const char *text, char *err,
		 size_t errlen);

/*
 * Load the series @name from @patches_root/<name>/series. A missing
 * directory is an error; a directory without a series file is an error
 * too, except for "baseline", for which it means no patches.
 */
int series_load(struct series *s, const char *patches_root,
		const char *name, char *err, size_t errlen);

/*
 * The stamp of the first @count patches (count > n means all): one line
 * "<sha256> -p<N> <name>\n" per patch, in order. This is what a tree
 * records to know which patches it holds. Returns a malloc'ed string.
 */
char *series_stamp(const struct series *s, size_t count);

void series_free(struct series *s);

#endif
