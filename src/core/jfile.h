/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jfile: JSON files read the way every input is read (util_read_input():
 * regular files only, never blocking on a FIFO, at most JFILE_MAX bytes).
 */
#ifndef SWAPCTL_JFILE_H
#define SWAPCTL_JFILE_H

#include <stddef.h>

#include <jansson.h>

#define JFILE_MAX	((size_t)64 << 20)

/*
 * jfile_load() of regular file @path. On failure NULL, with @jerr
 * (when not NULL) saying why: jansson's line, column and text, or for a
 * file that cannot be read line 0 and the reason (not a regular file,
 * larger than 64 MiB, strerror) in text, and errno set (0 for a parse
 * error).
 */
json_t *jfile_load(const char *path, size_t flags, json_error_t *jerr);

#endif
