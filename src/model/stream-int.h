/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the parts of the stream parser, not for its users (they
 * include stream.h): stream.c turns one JSON object into a stream_line
 * with fields.c's typed readers, feed.c frames the bytes into lines and
 * checks each against the lines before it.
 */
#ifndef SWAPCTL_STREAM_INT_H
#define SWAPCTL_STREAM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "stream.h"
#include "util.h"

/*
 * Record the first error of the line being parsed (@err and the message)
 * in @st; always -1.
 */
int stream_fail(struct stream_state *st, enum stream_err err,
		const char *fmt, ...) __printf(3, 4);
/* The members of line @root by its "type" into @out; -1 after a fail. */
int stream_parse_root(struct stream_state *st, json_t *root,
		      struct stream_line *out);

/*
 * fields.c: the typed members of a line, each failure recorded in @st
 * (stream_fail()) as "<@where><key>: why"; -1 then.
 */
enum str_mode {
	STR_NAME,	/* [A-Za-z0-9_.:-]+, must fit */
	STR_NAME0,	/* [A-Za-z0-9_.:-]*: a name or nothing */
	STR_PATH,	/* printable ASCII, non-empty, must fit */
	STR_TEXT,	/* anything; unprintable -> '?', truncated to fit */
};

/* Integer value @j of field @key within [0, STREAM_VALUE_MAX]. */
int fld_val(struct stream_state *st, json_t *j, const char *where,
	    const char *key, uint64_t *v);
/*
 * Integer field @key of @obj into @v, within [0, STREAM_VALUE_MAX].
 * Returns 1 if present, 0 if absent and optional, -1 on error.
 */
int fld_u64(struct stream_state *st, json_t *obj, const char *where,
	    const char *key, bool required, uint64_t *v);
/* Signed integer field within [@min, 2^53]. */
int fld_s64(struct stream_state *st, json_t *obj, const char *where,
	    const char *key, bool required, int64_t min, int64_t *v);
/* Copy string @s (@n bytes, may hold NULs) to @buf per @mode. */
int fld_copy(struct stream_state *st, const char *where,
	     const char *key, const char *s, size_t n, char *buf,
	     size_t len, enum str_mode mode);
/* String field @key of @obj into @buf per @mode; 1, 0 (absent), -1. */
int fld_str(struct stream_state *st, json_t *obj, const char *where,
	    const char *key, bool required, char *buf, size_t len,
	    enum str_mode mode);
/* An object key (which may hold NULs: STR_NAME rejects them). */
int fld_check(struct stream_state *st, const char *where,
	      const char *key, size_t keylen, char *buf, size_t len);
/* Member @key of @obj if of JSON @type; NULL when absent or not. */
json_t *fld_typed(struct stream_state *st, json_t *obj,
		  const char *where, const char *key, bool required,
		  json_type type);
/* Boolean field @key of @obj (optional); 1, 0 (absent), -1. */
int fld_bool(struct stream_state *st, json_t *obj, const char *key,
	     bool *v);

#endif
