/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one directory in a directory: the top directory of an extracted
 * tarball (<workdir>/src/<id>/linux-source-<line>/), the one extraction
 * in <workdir>/src/.
 */
#ifndef SWAPCTL_SUBDIR_H
#define SWAPCTL_SUBDIR_H

#include <stddef.h>

/*
 * The name of the one directory in @dir into @name (@len bytes), leaving
 * out hidden ones and those whose name ends in ".tmp" (one being written,
 * doc/HACKING.md "Files are written to a temporary name and renamed").
 * 0, or -1 when @dir cannot be read or holds none or several.
 */
int subdir_only(const char *dir, char *name, size_t len);

#endif
