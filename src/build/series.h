/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Patch series in quilt format: patches/<name>/series lists one patch file
 * name per line (relative to patches/<name>/), optionally followed by
 * "-pN" (default -p1); '#' starts a comment, blank lines are ignored.
 */
#ifndef SWAPCTL_SERIES_H
#define SWAPCTL_SERIES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct series_patch {
	char name[256];			/* as written in the series file */
	char path[PATH_MAX];		/* <dir>/<name> */
	int strip;			/* N of -pN */
	int line;			/* line in the series file */
	char sha256[65];		/* of the patch file */
	bool mail;			/* has mail headers (git am takes it) */
};

struct series {
	char name[64];			/* variant name (directory name) */
	char dir[PATH_MAX];		/* patches/<name> */
	char file[PATH_MAX];		/* patches/<name>/series */
	bool mbox;			/* one entry: an mbox of patches */
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

/*
 * Load a series given by path (swapctl build --apply): a directory with a
 * series file (quilt), a directory of *.patch and *.diff files (in name
 * order; files without a diff, such as a cover letter, are skipped), a
 * quilt series file, or an mbox (a file starting with "From "; one entry,
 * @s->mbox set) or a single patch. @s->name is the series' name: the
 * directory's, or the file's without .mbox, .patch, .diff or .eml. Returns
 * 0, or -1 with "PATH: what is wrong" in @err.
 */
int series_load_path(struct series *s, const char *path, char *err,
		     size_t errlen);

/* Copy @from into @to (its own patches array); 0, or -1 without memory. */
int series_copy(struct series *to, const struct series *from);

void series_free(struct series *s);

#endif
