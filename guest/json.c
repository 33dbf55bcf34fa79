// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded JSON writer (see json.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json.h"

void gj_init(struct gj *j, char *buf, size_t cap)
{
	memset(j, 0, sizeof(*j));
	j->buf = buf;
	j->cap = cap;
	if (cap)
		buf[0] = '\0';
}

static void put(struct gj *j, const char *s, size_t n)
{
	if (j->overflow)
		return;
	/* Keep room for the final "\n\0". */
	if (j->len + n + 2 > j->cap) {
		j->overflow = true;
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void puts_(struct gj *j, const char *s)
{
	put(j, s, strlen(s));
}

int gj_escape(char *out, size_t cap, const char *s)
{
	size_t o = 0;

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char tmp[8];
		const char *e = NULL;
		size_t n;

		switch (ch) {
		case '"':
			e = "\\\"";
			break;
		case '\\':
			e = "\\\\";
			break;
		case '\n':
			e = "\\n";
			break;
		case '\r':
			e = "\\r";
			break;
		case '\t':
			e = "\\t";
			break;
		default:
			if (ch < 0x20 || ch == 0x7f) {
				snprintf(tmp, sizeof(tmp), "\\u%04x", ch);
				e = tmp;
			} else if (ch >= 0x80) {
				/* Guest strings are ASCII; never emit
				 * invalid UTF-8.
				 */
				e = "?";
			}
		}
		if (e) {
			n = strlen(e);
			if (o + n >= cap)
				return -1;
			memcpy(out + o, e, n);
			o += n;
		} else {
			if (o + 1 >= cap)
				return -1;
			out[o++] = (char)ch;
		}
	}
	if (o >= cap)
		return -1;
	out[o] = '\0';
	return (int)o;
}

static bool plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ||
		    *s == '"' || *s == '\\')
			return false;
	return true;
}

static void put_str(struct gj *j, const char *s)
{
	char esc[4096];

	/* Fast path: keys and most values need no escaping. */
	if (plain(s)) {
		puts_(j, "\"");
		puts_(j, s);
		puts_(j, "\"");
		return;
	}

	if (gj_escape(esc, sizeof(esc), s) < 0) {
		j->overflow = true;
		return;
	}
	puts_(j, "\"");
	puts_(j, esc);
	puts_(j, "\"");
}

static void member(struct gj *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth - 1])
			puts_(j, ",");
		j->first[j->depth - 1] = false;
	} else if (j->len) {
		/* a second top-level value */
		j->bad_nesting = true;
	}
	if (key) {
		put_str(j, key);
		puts_(j, ":");
	}
}

static void open_(struct gj *j, const char *key, const char *br)
{
	member(j, key);
	puts_(j, br);
	if (j->depth >= GJ_MAX_DEPTH) {
		j->bad_nesting = true;
		return;
	}
	j->kind[j->depth] = br[0];
	j->first[j->depth++] = true;
}

static void close_(struct gj *j, const char *br)
{
	if (j->depth <= 0) {
		j->bad_nesting = true;
		return;
	}
	j->depth--;
	if (j->kind[j->depth] != (br[0] == '}' ? '{' : '['))
		j->bad_nesting = true;
	puts_(j, br);
}

void gj_obj_open(struct gj *j, const char *key)
{
	open_(j, key, "{");
}

void gj_obj_close(struct gj *j)
{
	close_(j, "}");
}

void gj_arr_open(struct gj *j, const char *key)
{
	open_(j, key, "[");
}

void gj_arr_close(struct gj *j)
{
	close_(j, "]");
}

/* Decimal digits of @v, without printf (the agent formats many). */
static void put_u64(struct gj *j, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(j, tmp + i, sizeof(tmp) - i);
}

void gj_u64(struct gj *j, const char *key, uint64_t v)
{
	member(j, key);
	put_u64(j, v);
}

void gj_i64(struct gj *j, const char *key, int64_t v)
{
	member(j, key);
	if (v < 0) {
		puts_(j, "-");
		put_u64(j, (uint64_t)0 - (uint64_t)v);
	} else {
		put_u64(j, (uint64_t)v);
	}
}

void gj_str(struct gj *j, const char *key, const char *s)
{
	member(j, key);
	put_str(j, s ? s : "");
}

void gj_bool(struct gj *j, const char *key, bool v)
{
	member(j, key);
	puts_(j, v ? "true" : "false");
}

void gj_raw(struct gj *j, const char *key, const char *raw)
{
	member(j, key);
	puts_(j, raw);
}

int gj_finish(struct gj *j)
{
	if (j->depth != 0)
		j->bad_nesting = true;
	if (j->overflow || j->bad_nesting || j->len + 2 > j->cap)
		return -1;
	j->buf[j->len++] = '\n';
	j->buf[j->len] = '\0';
	return (int)j->len;
}

uint64_t gj_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void gj_line_start(struct gj *j, const char *type)
{
	gj_obj_open(j, NULL);
	gj_u64(j, "t_ns", gj_now_ns());
	gj_str(j, "type", type);
}
