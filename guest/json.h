/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny bounded JSON writer for the guest's protocol lines. Writes into a
 * caller-provided buffer; any overflow sets an error flag and the line must
 * be dropped (gj_finish() returns -1) rather than sent truncated.
 */
#ifndef GUEST_JSON_H
#define GUEST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GJ_MAX_DEPTH	8

struct gj {
	char *buf;
	size_t cap;
	size_t len;
	bool overflow;
	bool bad_nesting;
	int depth;
	bool first[GJ_MAX_DEPTH];
	char kind[GJ_MAX_DEPTH];	/* '{' or '[' */
};

void gj_init(struct gj *j, char *buf, size_t cap);
/* @key is NULL for the top level object or an array element. */
void gj_obj_open(struct gj *j, const char *key);
void gj_obj_close(struct gj *j);
void gj_arr_open(struct gj *j, const char *key);
void gj_arr_close(struct gj *j);
void gj_u64(struct gj *j, const char *key, uint64_t v);
void gj_i64(struct gj *j, const char *key, int64_t v);
void gj_str(struct gj *j, const char *key, const char *s);
void gj_bool(struct gj *j, const char *key, bool v);
/* Append pre-encoded JSON (a value) as member @key. */
void gj_raw(struct gj *j, const char *key, const char *raw);
/*
 * Close nothing, append '\n' and NUL. Returns the line length (without the
 * NUL) or -1 on overflow or unbalanced nesting.
 */
int gj_finish(struct gj *j);

/* Escape @s as a JSON string body (no quotes) into @out; -1 if too small. */
int gj_escape(char *out, size_t cap, const char *s);

/* Start a producer line: {"t_ns":<CLOCK_MONOTONIC>,"type":"<type>" */
void gj_line_start(struct gj *j, const char *type);
uint64_t gj_now_ns(void);

#endif
