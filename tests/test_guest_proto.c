// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the agent's line numbering (guest/proto.c): what the host
 * receives for each producer line, result lines with the agent's CPU time,
 * and the lines it must drop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "../guest/json.h"
#include "../guest/proto.h"

static char out[GPROTO_LINE_MAX + 1];

static int wrap(const char *line, uint64_t seq, bool *res)
{
	return gproto_wrap(line, strlen(line), seq, 4242, out, sizeof(out),
			   res);
}

static void test_wrap_plain(void **state)
{
	const char *in = "{\"t_ns\":123,\"type\":\"log\",\"level\":\"info\","
			 "\"msg\":\"swapon /dev/vda\"}";
	json_error_t e;
	json_t *v;
	bool res = true;
	int n;

	(void)state;
	n = wrap(in, 7, &res);
	assert_int_equal(n, (int)strlen(out));
	assert_false(res);
	assert_string_equal(out, "{\"v\":1,\"seq\":7,\"t_ns\":123,\"type\":"
			    "\"log\",\"level\":\"info\",\"msg\":"
			    "\"swapon /dev/vda\"}\n");
	v = json_loads(out, JSON_REJECT_DUPLICATES, &e);
	assert_non_null(v);
	assert_int_equal(json_integer_value(json_object_get(v, "seq")), 7);
	assert_null(json_object_get(v, "agent_cpu_ns"));
	json_decref(v);
}

static void test_wrap_result(void **state)
{
	char line[512];
	json_error_t e;
	json_t *v;
	struct gj j;
	bool res = false;
	int n;

	(void)state;
	/* A result as the workload builds it, trailing CR tolerated. */
	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "result");
	gj_str(&j, "status", "pass");
	gj_u64(&j, "pages_corrupt", 0);
	gj_obj_close(&j);
	n = gj_finish(&j);
	assert_true(n > 0);
	line[n - 1] = '\r';
	n = gproto_wrap(line, (size_t)n, UINT32_MAX, 987654321, out,
			sizeof(out), &res);
	assert_true(n > 0);
	assert_true(res);
	v = json_loads(out, JSON_REJECT_DUPLICATES, &e);
	if (!v)
		fail_msg("%s: %s", e.text, out);
	assert_int_equal(json_integer_value(json_object_get(v, "v")), 1);
	assert_int_equal(json_integer_value(json_object_get(v, "seq")),
			 UINT32_MAX);
	assert_int_equal(json_integer_value(json_object_get(v,
			 "agent_cpu_ns")), 987654321);
	assert_string_equal(json_string_value(json_object_get(v, "status")),
			    "pass");
	assert_int_equal(out[n - 1], '\n');
	json_decref(v);

	/* "result" elsewhere in the line does not make it the result. */
	n = wrap("{\"t_ns\":1,\"type\":\"log\",\"msg\":\",\\\"type\\\":\\\"result\\\"\"}",
		 0, &res);
	assert_true(n > 0);
	assert_false(res);
}

static void test_malformed(void **state)
{
	static const char * const bad[] = {
		"",
		"{}",
		"garbage",
		"{\"type\":\"log\",\"t_ns\":1}",	/* t_ns not first */
		"{\"t_ns\":,\"type\":\"log\"}",		/* no digits */
		"{\"t_ns\":12\"type\":\"log\"}",	/* no comma */
		"{\"t_ns\":12,\"type\":\"log\"",	/* no closing brace */
		"{\"t_ns\":12}",			/* nothing after t_ns */
		"{\"t_ns\":1,\"type\":\"log\"}\n{\"t_ns\":2,\"type\":\"log\"}",
	};
	bool res;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (wrap(bad[i], 0, &res) != GPROTO_MALFORMED)
			fail_msg("case %zu accepted: %s", i, bad[i]);
}

static void test_too_long(void **state)
{
	size_t fill, len;
	char *line;
	bool res;
	int n;

	(void)state;
	line = malloc(GPROTO_LINE_MAX + 64);
	assert_non_null(line);
	/* Find the longest msg that still fits, exactly at the limit. */
	for (fill = GPROTO_LINE_MAX - 64; fill < GPROTO_LINE_MAX; fill++) {
		len = (size_t)sprintf(line, "{\"t_ns\":1,\"type\":\"log\",\"msg\":\"");
		memset(line + len, 'x', fill);
		strcpy(line + len + fill, "\"}");
		n = wrap(line, 5, &res);
		if (n == GPROTO_TOOLONG)
			break;
		assert_true(n > 0 && n <= GPROTO_LINE_MAX);
	}
	assert_int_equal(n, GPROTO_TOOLONG);
	/* The previous size produced a line of exactly 8192 bytes. */
	memset(line + len, 'x', fill - 1);
	strcpy(line + len + fill - 1, "\"}");
	assert_int_equal(wrap(line, 5, &res), GPROTO_LINE_MAX);
	/* A small output buffer is never overrun. */
	assert_int_equal(gproto_wrap("{\"t_ns\":1,\"type\":\"log\"}", 23, 1, 0,
				     out, 10, &res), GPROTO_TOOLONG);
	free(line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap_plain),
		cmocka_unit_test(test_wrap_result),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
