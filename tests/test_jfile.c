// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of JSON errors in our words (src/core/jfile.c, issue 33
 * item 12): the key path of the value a parse error is in, and no word
 * of jansson's ("too big integer near ...", "JSON_ALLOW_NUL").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "jfile.h"
#include "util.h"

static const char *const jansson_words[] = {
	"JSON_ALLOW_NUL", " near '", "near end of file", "invalid token",
	"too big integer", "too big negative", "premature end of input",
	"'[' or '{' expected", "end of file expected", "unexpected token",
	"NUL byte in object key", "duplicate object key",
	"string or '}' expected", "unable to decode byte",
	"real number overflow", "maximum parsing depth", "unexpected newline",
	"invalid escape", "invalid Unicode", "control character 0x",
};

/* parse @text: it must fail, and jerr.text be @want exactly */
static void expect(const char *text, size_t flags, const char *want)
{
	json_error_t jerr;
	json_t *root;
	size_t i;

	root = jfile_parse(text, strlen(text), flags, &jerr);
	if (root)
		fail_msg("accepted: %s", text);
	if (strcmp(jerr.text, want))
		fail_msg("%s: '%s', want '%s'", text, jerr.text, want);
	for (i = 0; i < ARRAY_SIZE(jansson_words); i++)
		if (strstr(jerr.text, jansson_words[i]))
			fail_msg("%s: jansson's '%s' in '%s'", text,
				 jansson_words[i], jerr.text);
}

static void test_key_path(void **state)
{
	(void)state;
	expect("{\"swap\": [{\"size_mb\": 99999999999999999999999}]}", 0,
	       "swap[0].size_mb: an integer above 2^63-1");
	expect("{\"a\": {\"b\": [1, 2, {\"c\": -99999999999999999999}]}}", 0,
	       "a.b[2].c: an integer below -2^63");
	expect("{\"x\": {\"y\": 1e999}}", 0,
	       "x.y: a number beyond 1.8e308, at '1e999'");
	expect("{\"name\": \"a\\u0000b\"}", 0,
	       "name: \\u0000 (a NUL character) in a string, at '\"a\\u0000b\"'");
	expect("{\"a\\u0000\": 1}", 0,
	       "\\u0000 (a NUL character) in a key, at '\"a\\u0000\"'");
	expect("{\"r\": NaN}", 0,
	       "r: not a JSON value (NaN, Infinity and bare words are not JSON), at 'NaN'");
	expect("{\"a\": 1, \"a\": 2}", JSON_REJECT_DUPLICATES,
	       "a key given twice, at '\"a\"'");
	expect("{\"k\": [", 0, "k[0]: expected ',' or ']', at the end of the text");
	expect("\"x\"", 0,
	       "expected a JSON object {...} or array [...], at '\"x\"'");
	expect("{} x", 0, "more after the end of the JSON value, at 'x'");
	expect("{\"s\": \"\x1b[2J\"}", 0,
	       "s: a control character inside a string: 0x1b, at '\"'");
	expect("{\"s\": \"\xff\"}", 0, "s: not UTF-8: byte 0xff, at '\"'");
	expect("\xef\xbb\xbf{}", 0,
	       "starts with a UTF-8 byte order mark (JSON has none: save the file without it)");
}

static void test_error_line(void **state)
{
	json_error_t jerr;
	char buf[256];

	(void)state;
	assert_null(jfile_parse("{\n\"a\": [1,\n 2,\n x]}", 18, 0, &jerr));
	jfile_error(&jerr, "f\x1b.json", buf, sizeof(buf));
	assert_string_equal(buf, "f?.json:4:2: a[2]: not a JSON value (NaN, Infinity and bare words are not JSON), at 'x'");
	assert_null(jfile_load("/nonexistent/swapctl", 0, &jerr));
	jfile_error(&jerr, "m.json", buf, sizeof(buf));
	assert_string_equal(buf, "m.json: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_path),
		cmocka_unit_test(test_error_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
