/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernels/<variant>/manifest.json: written by swapctl build, read by
 * build (is a kernel current?), list, run (the line of a kernel built
 * from a git tree) and bisect (the patch of a --keep-each step).
 */
#ifndef SWAPCTL_MANIFEST_H
#define SWAPCTL_MANIFEST_H

#include <jansson.h>
#include <stddef.h>

struct build_ctx;
struct series;
struct variant;

/*
 * Install @tree's bzImage as kernels/<@v>/bzImage, the kernel of @v with
 * the patches of @s built in @secs, and write its manifest; *@manifest
 * gets it. 0 or an exit code, after one line.
 */
int manifest_install(struct build_ctx *c, const struct variant *v,
		     const struct series *s, const char *tree, double secs,
		     json_t **manifest);
/* The manifest's "patches": name, path, sha256 and strip of each. */
json_t *manifest_patches(const struct series *s);
/* Its "source": the tarball and series, or the git tree, ref, commit. */
json_t *manifest_source(struct build_ctx *c, const struct variant *v,
			const struct series *s);
/* kernels/<@v>/manifest.json := @m, atomically; 0 or EXIT_BUILD. */
int manifest_write(struct build_ctx *c, const struct variant *v, json_t *m);

/*
 * The manifest of <@workdir>/kernels/<@variant>/: a JSON object, else
 * NULL with errno (ENOENT: none) and @jerr (jfile_load()).
 */
json_t *manifest_load(const char *workdir, const char *variant,
		      json_error_t *jerr);
/*
 * The kernel line of manifest @m into @line: its "kernel_line", else
 * MAJOR.MINOR of its "kernel_version" ("6.1.192+" is 6.1, a manifest of
 * a build before there were lines); "" when neither says (@m NULL too).
 */
void manifest_line(const json_t *m, char *line, size_t len);

#endif
