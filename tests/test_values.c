// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the workload's own figures, both sides: zswap's debugfs
 * reader (guest/gzswap.c), redis-benchmark's --csv parser
 * (guest/gredis.c), a command's "swapctl-value NAME N" lines
 * (guest/gvalue.c), and the "values" of result and command lines on the
 * host (src/model/stream.c, track.c) down to the registry's metrics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "metrics.h"
#include "stream.h"
#include "track.h"
#include "../guest/gredis.h"
#include "../guest/gvalue.h"
#include "../guest/gzswap.h"
#include "../guest/json.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_zswap_debugfs(void **state)
{
	char dir[] = "/tmp/test_zswapXXXXXX", line[512];
	struct gzswap z = { 0 };
	uint64_t v;
	struct gj j;

	(void)state;
	assert_int_equal(gzswap_parse_u64("123\n", &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(gzswap_parse_u64("0", &v), 0);
	assert_int_equal(gzswap_parse_u64("", &v), -1);
	assert_int_equal(gzswap_parse_u64("-1\n", &v), -1);
	assert_int_equal(gzswap_parse_u64("12 kB\n", &v), -1);
	assert_int_equal(gzswap_parse_u64("99999999999999999999\n", &v), -1);
	assert_non_null(mkdtemp(dir));
	/* no files (zswap off, or no debugfs): an error, nothing read */
	assert_int_equal(gzswap_read(dir, &z), -1);
	assert_false(z.read);
	put(dir, "written_back_pages", "5550\n");
	put(dir, "pool_total_size", "12337152\n");
	put(dir, "pool_limit_hit", "7555\n");
	assert_int_equal(gzswap_read(dir, &z), 0);
	assert_true(z.read);
	assert_int_equal(z.written_back_pages, 5550);
	assert_int_equal(z.pool_peak, 12337152);
	/* the peak stays when the pool shrinks */
	put(dir, "pool_total_size", "4096\n");
	assert_int_equal(gzswap_read(dir, &z), 0);
	assert_int_equal(z.pool_total_size, 4096);
	assert_int_equal(z.pool_peak, 12337152);
	/* a malformed file: an error, and the last good read kept */
	put(dir, "written_back_pages", "lots\n");
	assert_int_equal(gzswap_read(dir, &z), -1);
	assert_int_equal(z.written_back_pages, 5550);
	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "result");
	gzswap_values(&j, &z);
	gj_obj_close(&j);
	assert_true(gj_finish(&j) > 0);
	assert_non_null(strstr(line, "\"values\":{\"zswap_written_back_pages\":5550,\"zswap_pool_peak_kib\":12048,\"zswap_pool_limit_hit\":7555}"));
	{
		static const char *const f[] = {
			"written_back_pages", "pool_total_size",
			"pool_limit_hit",
		};
		char path[300];
		size_t i;

		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, f[i]);
			unlink(path);
		}
	}
	rmdir(dir);
}

/* redis-benchmark 7.0's --csv, as the guest gets it */
static const char csv[] =
	"\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"\n"
	"\"GET\",\"590.06\",\"6.531\",\"0.672\",\"3.775\",\"19.247\",\"54.719\",\"232.063\"\n";

static void test_redis_csv(void **state)
{
	struct gredis_csv r;
	char err[160];

	(void)state;
	assert_int_equal(gredis_parse_csv(csv, "GET", &r, err, sizeof(err)),
			 0);
	assert_int_equal(r.rps, 590);
	assert_int_equal(r.avg_us, 6531);
	assert_int_equal(r.p50_us, 3775);
	assert_int_equal(r.p99_us, 54719);
	assert_int_equal(r.max_us, 232063);
	/* another test's row is no GET row */
	assert_int_equal(gredis_parse_csv(csv, "SET", &r, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "no row for test SET");
	/* columns by name, in any order; CRLF; lines before the header */
	assert_int_equal(gredis_parse_csv(
		"WARNING: something\r\n\"rps\",\"test\",\"p99_latency_ms\"\r\n"
		"\"SET\",\"1\",\"2\"\r\n\"12.5\",\"GET\",\"0.0015\"\r\n", "GET",
		&r, err, sizeof(err)), 0);
	assert_int_equal(r.rps, 13);
	assert_int_equal(r.p99_us, 2);
	assert_int_equal(r.p50_us, 0);		/* no such column */
	/* defensively: no header, a short row, not numbers */
	assert_int_equal(gredis_parse_csv("\"GET\",\"1\"\n", "GET", &r, err,
					  sizeof(err)), -1);
	assert_string_equal(err, "no header row with \"test\" and \"rps\"");
	assert_int_equal(gredis_parse_csv("\"test\",\"rps\",\"p50_latency_ms\"\n\"GET\",\"1\"\n",
					  "GET", &r, err, sizeof(err)), -1);
	assert_string_equal(err, "row GET: 2 fields, the header has 3");
	assert_int_equal(gredis_parse_csv("\"test\",\"rps\"\n\"GET\",\"fast\"\n",
					  "GET", &r, err, sizeof(err)), -1);
	assert_string_equal(err, "row GET: rps \"fast\" is not a number");
	assert_int_equal(gredis_parse_csv("\"test\",\"rps\",\"p99_latency_ms\"\n\"GET\",\"1\",\"-3\"\n",
					  "GET", &r, err, sizeof(err)), -1);
	assert_int_equal(gredis_parse_csv("\"test\",\"rps\"\n\"GET\",\"1e400\"\n",
					  "GET", &r, err, sizeof(err)), -1);
	assert_int_equal(gredis_parse_csv("\"test\",\"rps\"\n\"GET,\"1\"\n",
					  "GET", &r, err, sizeof(err)), -1);
	assert_int_equal(gredis_parse_csv("", "GET", &r, err, sizeof(err)),
			 -1);
}

static void test_redis_values(void **state)
{
	char a[100], b[100];

	(void)state;
	gredis_value(1, 7, 16, a, sizeof(a));
	gredis_value(1, 7, 16, b, sizeof(b));
	assert_memory_equal(a, b, sizeof(a));	/* the same from the seed */
	gredis_value(2, 7, 16, b, sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
	gredis_value(1, 8, 16, b, sizeof(b));
	assert_memory_not_equal(a, b, sizeof(a));
	/* one unique word: every 8 bytes repeat */
	gredis_value(1, 7, 1, a, sizeof(a));
	assert_memory_equal(a, a + 8, 8);
	assert_memory_equal(a, a + 88, 8);
}

static void test_value_lines(void **state)
{
	struct gvalue v, vals[2];
	int n = 0;

	(void)state;
	assert_int_equal(gvalue_parse_line("swapctl-value redis_get_rps 590\n", &v), 1);
	assert_string_equal(v.name, "redis_get_rps");
	assert_int_equal(v.v, 590);
	assert_int_equal(gvalue_parse_line("swapctl-value x 0", &v), 1);
	/* any other output line */
	assert_int_equal(gvalue_parse_line("\"GET\",\"590.06\"\n", &v), 0);
	assert_int_equal(gvalue_parse_line(" swapctl-value x 1\n", &v), 0);
	/* the prefix, malformed */
	assert_int_equal(gvalue_parse_line("swapctl-value x\n", &v), -1);
	assert_int_equal(gvalue_parse_line("swapctl-value Rps 1\n", &v), -1);
	assert_int_equal(gvalue_parse_line("swapctl-value x -1\n", &v), -1);
	assert_int_equal(gvalue_parse_line("swapctl-value x 1.5\n", &v), -1);
	assert_int_equal(gvalue_parse_line("swapctl-value x 9007199254740993\n", &v), -1);
	assert_int_equal(gvalue_parse_line("swapctl-value  1\n", &v), -1);
	assert_int_equal(gvalue_parse_line("swapctl-value aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1\n", &v), -1);
	/* a name seen again takes the new value; beyond max: dropped */
	assert_int_equal(gvalue_parse_line("swapctl-value a 1", &v), 1);
	n = gvalue_add(vals, n, 2, &v);
	v.v = 2;
	n = gvalue_add(vals, n, 2, &v);
	assert_int_equal(n, 1);
	assert_int_equal(vals[0].v, 2);
	strcpy(v.name, "b");
	n = gvalue_add(vals, n, 2, &v);
	strcpy(v.name, "c");
	n = gvalue_add(vals, n, 2, &v);
	assert_int_equal(n, 2);
	assert_string_equal(vals[1].name, "b");
}

static double metric(const struct track *t, const char *key, int *state)
{
	struct metric_in in;
	struct stats_val v;

	metric_in_init(&in, t);
	v = metric_eval(metric_find(key), &in);
	*state = v.state;
	return v.v;
}

static void feed(struct stream_state *st, struct track *t, const char *line)
{
	struct stream_line *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	if (stream_parse_line(st, line, strlen(line), l) != STREAM_OK)
		fail_msg("%s: %s", line, st->last_error);
	track_feed(t, l);
	free(l);
}

static enum stream_err parse_bad(struct stream_state *st, const char *line,
				 struct stream_line *l)
{
	stream_init(st);
	return stream_parse_line(st, line, strlen(line), l);
}

static void test_stream_values(void **state)
{
	struct stream_state st;
	struct stream_line *l = calloc(1, sizeof(*l));
	struct track t;
	uint64_t v;
	int s;

	(void)state;
	assert_non_null(l);
	stream_init(&st);
	track_init(&t);
	assert_int_equal(metric(&t, "redis_get_rps", &s), 0);
	assert_int_equal(s, STATS_NA);
	/* the reference run's values are not the measurement */
	feed(&st, &t, "{\"v\":1,\"seq\":1,\"t_ns\":1,\"type\":\"command\",\"group\":\"redis\",\"run\":\"reference\",\"state\":\"end\",\"exit\":0,\"signal\":0,\"ns\":5,\"outputs\":0,\"values\":{\"redis_get_rps\":9}}");
	assert_false(track_value(&t, "redis_get_rps", NULL));
	feed(&st, &t, "{\"v\":1,\"seq\":2,\"t_ns\":2,\"type\":\"command\",\"group\":\"redis\",\"run\":\"limited\",\"state\":\"end\",\"exit\":0,\"signal\":0,\"ns\":5,\"outputs\":0,\"values\":{\"redis_get_rps\":590,\"redis_get_p99_us\":54719}}");
	assert_true(track_value(&t, "redis_get_rps", &v));
	assert_int_equal(v, 590);
	assert_true(metric(&t, "redis_get_p99_us", &s) == 54719);
	assert_int_equal(s, STATS_OK);
	/* the result line's values join them */
	feed(&st, &t, "{\"v\":1,\"seq\":3,\"t_ns\":3,\"type\":\"result\",\"status\":\"pass\",\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,\"first_corrupt\":-1,\"values\":{\"zswap_written_back_pages\":12}}");
	assert_true(metric(&t, "zswap_written_back_pages", &s) == 12);
	assert_true(metric(&t, "redis_get_rps", &s) == 590);
	/* bad values: the line is malformed */
	assert_int_equal(parse_bad(&st, "{\"v\":1,\"seq\":4,\"t_ns\":4,\"type\":\"result\",\"status\":\"pass\",\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,\"first_corrupt\":-1,\"values\":[1]}", l),
			 STREAM_E_FIELD);
	assert_int_equal(parse_bad(&st, "{\"v\":1,\"seq\":5,\"t_ns\":4,\"type\":\"result\",\"status\":\"pass\",\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,\"first_corrupt\":-1,\"values\":{\"x\":-1}}", l),
			 STREAM_E_ABSURD);
	assert_int_equal(parse_bad(&st, "{\"v\":1,\"seq\":6,\"t_ns\":4,\"type\":\"result\",\"status\":\"pass\",\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,\"first_corrupt\":-1,\"values\":{\"x\":\"fast\"}}", l),
			 STREAM_E_FIELD);
	track_free(&t);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zswap_debugfs),
		cmocka_unit_test(test_redis_csv),
		cmocka_unit_test(test_redis_values),
		cmocka_unit_test(test_value_lines),
		cmocka_unit_test(test_stream_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
