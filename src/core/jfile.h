/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jfile: JSON files read the way every input is read (util_read_input():
 * regular files only, never blocking on a FIFO, at most JFILE_MAX bytes),
 * and JSON errors said in our words: the key path of the value a parse
 * error is in ("swap[0].size_mb") and what is wrong with it, never
 * jansson's own wording ("JSON_ALLOW_NUL", "invalid token near ...").
 */
#ifndef SWAPCTL_JFILE_H
#define SWAPCTL_JFILE_H

#include <stddef.h>

#include <jansson.h>

#define JFILE_MAX	((size_t)64 << 20)

/*
 * json_loadb() of @text, @len bytes, with @flags. On a parse error NULL,
 * and @jerr (when not NULL) keeps jansson's line, column and position
 * with its text replaced by "<key path>: <why>" (or "<why>" at the top),
 * one line of printable characters. A UTF-8 byte order mark is refused
 * at 1:1 (JSON has none).
 */
json_t *jfile_parse(const char *text, size_t len, size_t flags,
		    json_error_t *jerr);

/*
 * jfile_parse() of regular file @path. On failure NULL, with @jerr
 * (when not NULL) saying why: jfile_parse()'s line, column and text, or
 * for a file that cannot be read line 0 and the reason (not a regular
 * file, larger than 64 MiB, strerror) in text, and errno set (0 for a
 * parse error).
 */
json_t *jfile_load(const char *path, size_t flags, json_error_t *jerr);

/*
 * "@name:<line>:<column>: <text>" of a jfile_load()/jfile_parse() error
 * @jerr, or "@name: <text>" when it has no line, into @buf; control
 * bytes (of @name too) shown as '?'.
 */
void jfile_error(const json_error_t *jerr, const char *name, char *buf,
		 size_t len);

#endif
