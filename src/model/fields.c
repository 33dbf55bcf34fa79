// SPDX-License-Identifier: GPL-2.0
/*
 * The typed members of a stream line (stream-int.h): an integer in range,
 * a name, a path or a text that must fit, a member of a given JSON type,
 * a boolean; each failure recorded in the stream state (stream_fail()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "stream-int.h"

/* Integer value @j of field @key within [0, STREAM_VALUE_MAX]. */
int fld_val(struct stream_state *st, json_t *j, const char *where,
	    const char *key, uint64_t *v)
{
	json_int_t i;

	if (!json_is_integer(j))
		return stream_fail(st, STREAM_E_FIELD, "%s%s: not an integer",
				   where, key);
	i = json_integer_value(j);
	if (i < 0)
		return stream_fail(st, STREAM_E_ABSURD, "%s%s: negative (%lld)",
				   where, key, (long long)i);
	if ((unsigned long long)i > STREAM_VALUE_MAX)
		return stream_fail(st, STREAM_E_ABSURD,
				   "%s%s: beyond 2^53 (%lld)", where, key,
				   (long long)i);
	*v = (uint64_t)i;
	return 1;
}

/*
 * Integer field @key of @obj into @v, within [0, STREAM_VALUE_MAX].
 * Returns 1 if present, 0 if absent and optional, -1 on error.
 */
int fld_u64(struct stream_state *st, json_t *obj, const char *where,
	    const char *key, bool required, uint64_t *v)
{
	json_t *j = json_object_get(obj, key);

	if (!j) {
		if (!required)
			return 0;
		return stream_fail(st, STREAM_E_FIELD, "%s%s: missing", where,
				   key);
	}
	return fld_val(st, j, where, key, v);
}

/* Signed integer field within [@min, 2^53]. */
int fld_s64(struct stream_state *st, json_t *obj, const char *where,
	    const char *key, bool required, int64_t min, int64_t *v)
{
	json_t *j = json_object_get(obj, key);
	json_int_t i;

	if (!j) {
		if (!required)
			return 0;
		return stream_fail(st, STREAM_E_FIELD, "%s%s: missing", where,
				   key);
	}
	if (!json_is_integer(j))
		return stream_fail(st, STREAM_E_FIELD, "%s%s: not an integer",
				   where, key);
	i = json_integer_value(j);
	if (i < min || i > (json_int_t)STREAM_VALUE_MAX)
		return stream_fail(st, STREAM_E_ABSURD,
				   "%s%s: out of range (%lld)", where, key,
				   (long long)i);
	*v = (int64_t)i;
	return 1;
}

static bool name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/* Copy string @s (@n bytes, may hold NULs) to @buf per @mode. */
int fld_copy(struct stream_state *st, const char *where,
	     const char *key, const char *s, size_t n, char *buf,
	     size_t len, enum str_mode mode)
{
	size_t i;

	if (mode == STR_NAME0 && n == 0) {
		buf[0] = '\0';
		return 1;
	}
	if (mode != STR_TEXT) {
		if (n == 0)
			return stream_fail(st, STREAM_E_FIELD, "%s%s: empty",
					   where, key);
		if (n >= len)
			return stream_fail(st, STREAM_E_FIELD,
					   "%s%s: longer than %zu bytes", where,
					   key, len - 1);
	} else if (n >= len) {
		n = len - 1;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((mode == STR_NAME || mode == STR_NAME0) && !name_char(c))
			return stream_fail(st, STREAM_E_FIELD,
					   "%s%s: bad character 0x%02x", where,
					   key, c);
		if (mode == STR_PATH && (c < 0x20 || c > 0x7e))
			return stream_fail(st, STREAM_E_FIELD,
					   "%s%s: bad character 0x%02x", where,
					   key, c);
		buf[i] = (c < 0x20 || c > 0x7e) ? '?' : (char)c;
	}
	buf[n] = '\0';
	return 1;
}

int fld_str(struct stream_state *st, json_t *obj, const char *where,
	    const char *key, bool required, char *buf, size_t len,
	    enum str_mode mode)
{
	json_t *j = json_object_get(obj, key);

	if (!j) {
		if (!required)
			return 0;
		return stream_fail(st, STREAM_E_FIELD, "%s%s: missing", where,
				   key);
	}
	if (!json_is_string(j))
		return stream_fail(st, STREAM_E_FIELD, "%s%s: not a string",
				   where, key);
	return fld_copy(st, where, key, json_string_value(j),
			json_string_length(j), buf, len, mode);
}

/* An object key (which may hold NULs: STR_NAME rejects them). */
int fld_check(struct stream_state *st, const char *where,
	      const char *key, size_t keylen, char *buf, size_t len)
{
	return fld_copy(st, where, "<key>", key, keylen, buf, len, STR_NAME);
}

json_t *fld_typed(struct stream_state *st, json_t *obj,
		  const char *where, const char *key, bool required,
		  json_type type)
{
	json_t *j = json_object_get(obj, key);

	if (!j) {
		if (required)
			stream_fail(st, STREAM_E_FIELD, "%s%s: missing", where,
				    key);
		return NULL;
	}
	if (json_typeof(j) != type) {
		stream_fail(st, STREAM_E_FIELD, "%s%s: not an %s", where, key,
			    type == JSON_OBJECT ? "object" : "array");
		return NULL;
	}
	return j;
}

int fld_bool(struct stream_state *st, json_t *obj, const char *key,
	     bool *v)
{
	json_t *j = json_object_get(obj, key);

	if (!j)
		return 0;
	if (!json_is_boolean(j))
		return stream_fail(st, STREAM_E_FIELD, "%s: not a boolean",
				   key);
	*v = json_is_true(j);
	return 1;
}
