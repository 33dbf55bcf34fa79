// SPDX-License-Identifier: GPL-2.0
/*
 * jfile: JSON files read like every other input, and JSON errors in our
 * words. See jfile.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfile.h"
#include "util.h"

/* containers deeper than this are left out of an error's key path */
#define PATH_DEPTH	16

struct level {
	bool obj, want_key;
	size_t idx;
	size_t key_off, key_len;
};

/* One byte @ch of JSON outside strings, for path_at()'s stack @st. */
static void path_step(struct level *st, int *depth, char ch)
{
	struct level *top = *depth > 0 && *depth <= PATH_DEPTH ?
			    &st[*depth - 1] : NULL;

	if (ch == '{' || ch == '[') {
		if (*depth < PATH_DEPTH) {
			st[*depth].obj = ch == '{';
			st[*depth].want_key = ch == '{';
			st[*depth].idx = 0;
			st[*depth].key_len = 0;
		}
		(*depth)++;
	} else if ((ch == '}' || ch == ']') && *depth > 0) {
		(*depth)--;
	} else if (ch == ',' && top) {
		if (top->obj)
			top->want_key = true;
		else
			top->idx++;
	} else if (ch == ':' && top) {
		top->want_key = false;
	}
}

/*
 * The key path ("swap[0].size_mb") of the value that byte @pos of JSON
 * @text is in, into @buf ("" at the top): what a parse error of jansson
 * (which knows only the line and column) is about. A light scan that
 * trusts nothing: strings with escapes, containers nested up to
 * PATH_DEPTH deep (deeper is left out of the path).
 */
static void path_at(const char *text, size_t len, size_t pos, char *buf,
		    size_t buflen)
{
	struct level st[PATH_DEPTH];
	int depth = 0, i, w;
	size_t p = 0, n = 0, start;

	if (pos > len)
		pos = len;
	while (p < pos) {
		if (text[p] != '"') {
			path_step(st, &depth, text[p++]);
			continue;
		}
		start = ++p;
		while (p < len && text[p] != '"')
			p += text[p] == '\\' ? 2 : 1;
		if (depth > 0 && depth <= PATH_DEPTH &&
		    st[depth - 1].obj && st[depth - 1].want_key) {
			st[depth - 1].key_off = start;
			st[depth - 1].key_len = (p < len ? p : len) - start;
		}
		p++;
	}
	buf[0] = '\0';
	for (i = 0; i < depth && i < PATH_DEPTH && n < buflen; i++) {
		if (st[i].obj && !st[i].want_key && st[i].key_len)
			w = snprintf(buf + n, buflen - n, "%s%.*s", n ? "." : "",
				     (int)(st[i].key_len > 32 ? 32 :
					   st[i].key_len),
				     text + st[i].key_off);
		else if (!st[i].obj)
			w = snprintf(buf + n, buflen - n, "[%zu]", st[i].idx);
		else
			break;
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/*
 * jansson's messages (load.c of 2.14; what follows a prefix is kept) and
 * ours. tests/integration/test_hostile.py checks none of the left column
 * reaches the user.
 */
static const struct {
	const char *jansson, *ours;
} words[] = {
	{ "unable to decode byte ", "not UTF-8: byte " },
	{ "premature end of input", "the text ends inside a value (cut short?)" },
	{ "unexpected newline", "a line break inside a string" },
	{ "control character ", "a control character inside a string: " },
	{ "invalid escape", "a \\ escape JSON does not have" },
	{ "invalid Unicode escape ", "a bad \\u escape: " },
	{ "invalid Unicode ", "a \\u escape of no character: " },
	{ "too big negative integer", "an integer below -2^63" },
	{ "too big integer", "an integer above 2^63-1" },
	{ "real number overflow", "a number beyond 1.8e308" },
	{ "maximum parsing depth reached", "nested too deep" },
	{ "string or '}' expected", "expected a \"key\" or '}'" },
	{ "duplicate object key", "a key given twice" },
	{ "':' expected", "expected ':' after a key" },
	{ "invalid token", "not a JSON value (NaN, Infinity and bare words are not JSON)" },
	{ "unexpected token", "expected a value" },
	{ "']' expected", "expected ',' or ']'" },
	{ "'[' or '{' expected", "expected a JSON object {...} or array [...]" },
	{ "end of file expected", "more after the end of the JSON value" },
	{ "\\u0000 is not allowed without JSON_ALLOW_NUL", "\\u0000 (a NUL character) in a string" },
	{ "NUL byte in object key not supported", "\\u0000 (a NUL character) in a key" },
};

/* jansson's message @text ("<what>[ near '<token>'|near end of file]"). */
static void our_words(const char *text, char *buf, size_t len)
{
	const char *near = strstr(text, " near ");
	size_t what = near ? (size_t)(near - text) : strlen(text), i, l;
	const char *ours = "not valid JSON", *rest = "";
	int restlen = 0;

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		l = strlen(words[i].jansson);
		if (l <= what && !strncmp(text, words[i].jansson, l)) {
			ours = words[i].ours;
			rest = text + l;
			restlen = (int)(what - l);
			break;
		}
	}
	if (near && !strcmp(near, " near end of file")) {
		snprintf(buf, len, "%s%.*s, at the end of the text", ours,
			 restlen, rest);
	} else if (!near || strncmp(near, " near '", 7)) {
		snprintf(buf, len, "%s%.*s", ours, restlen, rest);
	} else {
		l = strlen(near + 7);
		l = l && near[7 + l - 1] == '\'' ? l - 1 : l;
		snprintf(buf, len, "%s%.*s, at '%.*s%s'", ours, restlen, rest,
			 (int)(l > 24 ? 24 : l), near + 7, l > 24 ? "..." : "");
	}
}

json_t *jfile_parse(const char *text, size_t len, size_t flags,
		    json_error_t *jerr)
{
	char path[80], why[sizeof(jerr->text)], out[256], *c;
	json_error_t local;
	json_t *root;

	if (!jerr)
		jerr = &local;
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
		memset(jerr, 0, sizeof(*jerr));
		jerr->line = jerr->column = 1;
		snprintf(jerr->text, sizeof(jerr->text),
			 "starts with a UTF-8 byte order mark (JSON has none: save the file without it)");
		return NULL;
	}
	root = json_loadb(text, len, flags, jerr);
	if (root)
		return root;
	path_at(text, len, (size_t)jerr->position, path, sizeof(path));
	our_words(jerr->text, why, sizeof(why));
	snprintf(out, sizeof(out), "%s%s%s", path, path[0] ? ": " : "", why);
	snprintf(jerr->text, sizeof(jerr->text), "%.*s",
		 (int)sizeof(jerr->text) - 1, out);
	for (c = jerr->text; *c; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f)
			*c = '?';
	return NULL;
}

json_t *jfile_load(const char *path, size_t flags, json_error_t *jerr)
{
	json_error_t local;
	size_t len;
	json_t *root;
	char *text;
	int e;

	if (!jerr)
		jerr = &local;
	text = util_read_input(path, JFILE_MAX, &len);
	if (!text) {
		e = errno;
		memset(jerr, 0, sizeof(*jerr));
		snprintf(jerr->source, sizeof(jerr->source), "%s", path);
		if (e == EFBIG)
			snprintf(jerr->text, sizeof(jerr->text),
				 "larger than %zu MiB", JFILE_MAX >> 20);
		else
			snprintf(jerr->text, sizeof(jerr->text), "%s",
				 util_input_strerror(e));
		errno = e;
		return NULL;
	}
	root = jfile_parse(text, len, flags, jerr);
	free(text);
	if (!root)
		errno = 0;
	return root;
}

void jfile_error(const json_error_t *jerr, const char *name, char *buf,
		 size_t len)
{
	if (jerr->line > 0)
		snprintf(buf, len, "%s:%d:%d: %s", name, jerr->line,
			 jerr->column, jerr->text);
	else
		snprintf(buf, len, "%s: %s", name, jerr->text);
	for (; *buf; buf++)
		if ((unsigned char)*buf < ' ' || *buf == 0x7f)
			*buf = '?';
}
