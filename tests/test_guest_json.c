// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the JSON the guest emits: the bounded writer
 * (guest/json.c) and the agent's sample members built from /proc text
 * (guest/stats.c). Every produced line is parsed back with jansson.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "../guest/compiler.h"
#include "../guest/json.h"
#include "../guest/gstat.h"

static json_t *parse_line(const char *line, int len)
{
	json_error_t e;
	json_t *v;

	assert_true(len > 0);
	assert_int_equal(line[len - 1], '\n');
	assert_int_equal((int)strlen(line), len);
	/* One line: no newline inside. */
	assert_ptr_equal(strchr(line, '\n'), line + len - 1);
	v = json_loads(line, JSON_REJECT_DUPLICATES, &e);
	if (!v)
		fail_msg("invalid JSON (%s): %s", e.text, line);
	return v;
}

static void test_writer_nesting(void **state)
{
	char buf[512];
	struct gj j;
	json_t *v;
	int len;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gj_u64(&j, "u", UINT64_MAX);
	gj_i64(&j, "i", INT64_MIN);
	gj_bool(&j, "b", true);
	gj_arr_open(&j, "a");
	gj_str(&j, NULL, "x");
	gj_obj_open(&j, NULL);
	gj_arr_close(&j);	/* closes the object with ']' */
	gj_obj_close(&j);	/* and the array with '}' */
	gj_obj_close(&j);
	len = gj_finish(&j);
	/* balanced depth, wrong bracket kinds: refused */
	assert_int_equal(len, -1);

	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gj_u64(&j, "u", INT64_MAX);
	gj_i64(&j, "i", -5);
	gj_bool(&j, "b", false);
	gj_arr_open(&j, "a");
	gj_str(&j, NULL, "x");
	gj_obj_open(&j, NULL);
	gj_obj_close(&j);
	gj_u64(&j, NULL, 3);
	gj_arr_close(&j);
	gj_obj_open(&j, "o");
	gj_obj_close(&j);
	gj_raw(&j, "r", "[1,2]");
	gj_obj_close(&j);
	len = gj_finish(&j);
	v = parse_line(buf, len);
	assert_string_equal(buf,
		"{\"u\":9223372036854775807,\"i\":-5,\"b\":false,"
		"\"a\":[\"x\",{},3],\"o\":{},\"r\":[1,2]}\n");
	assert_int_equal(json_integer_value(json_object_get(v, "i")), -5);
	json_decref(v);
}

static void test_numbers(void **state)
{
	char buf[256];
	struct gj j;
	json_t *v;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_arr_open(&j, NULL);
	gj_u64(&j, NULL, 0);
	gj_u64(&j, NULL, 10);
	gj_u64(&j, NULL, 1234567890123ULL);
	gj_i64(&j, NULL, 0);
	gj_i64(&j, NULL, -1);
	gj_i64(&j, NULL, INT64_MIN);
	gj_i64(&j, NULL, INT64_MAX);
	gj_arr_close(&j);
	v = parse_line(buf, gj_finish(&j));
	assert_string_equal(buf, "[0,10,1234567890123,0,-1,"
			    "-9223372036854775808,9223372036854775807]\n");
	assert_true(json_integer_value(json_array_get(v, 5)) == INT64_MIN);
	json_decref(v);
}

static void test_unbalanced_and_second_value(void **state)
{
	char buf[128];
	struct gj j;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gj_obj_close(&j);
	gj_obj_close(&j);
	assert_int_equal(gj_finish(&j), -1);

	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gj_obj_close(&j);
	gj_obj_open(&j, NULL);
	gj_obj_close(&j);
	assert_int_equal(gj_finish(&j), -1);
}

static void test_escaping(void **state)
{
	const char *nasty = "q\"b\\s/n\nr\rt\tc\x01\x1f del\x7f hi\xc3\xa9";
	char buf[512];
	struct gj j;
	json_t *v;
	int len;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_line_start(&j, "log");
	gj_str(&j, "msg", nasty);
	gj_str(&j, "k\"ey", "v");
	gj_obj_close(&j);
	len = gj_finish(&j);
	v = parse_line(buf, len);
	/* Control characters survive; non-ASCII becomes '?'. */
	assert_string_equal(json_string_value(json_object_get(v, "msg")),
			    "q\"b\\s/n\nr\rt\tc\x01\x1f del\x7f hi??");
	assert_string_equal(json_string_value(json_object_get(v, "type")),
			    "log");
	assert_true(json_is_integer(json_object_get(v, "t_ns")));
	assert_non_null(json_object_get(v, "k\"ey"));
	/* Producer lines start with t_ns, the agent relies on it. */
	assert_int_equal(strncmp(buf, "{\"t_ns\":", 8), 0);
	json_decref(v);
}

static void test_overflow_refused(void **state)
{
	char buf[64];
	struct gj j;
	int i;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	for (i = 0; i < 20; i++)
		gj_u64(&j, "k", 1234567);
	gj_obj_close(&j);
	assert_int_equal(gj_finish(&j), -1);
	/* What was written is still a NUL-terminated prefix. */
	assert_true(strlen(buf) < sizeof(buf));

	/* Exactly fitting: 2 bytes "{}" + "\n" + NUL = 4. */
	gj_init(&j, buf, 4);
	gj_obj_open(&j, NULL);
	gj_obj_close(&j);
	assert_int_equal(gj_finish(&j), 3);
	assert_string_equal(buf, "{}\n");
	gj_init(&j, buf, 3);
	gj_obj_open(&j, NULL);
	gj_obj_close(&j);
	assert_int_equal(gj_finish(&j), -1);
}

static const char vmstat[] =
	"nr_free_pages 1234\n"
	"pgpgin 10\n"
	"pgpgout 20\n"
	"pswpin 30\n"
	"pswpout 40\n"
	"nrswpin 3\n"
	"nrswpout 5\n"
	"pgmajfault 7\n"
	"pgsteal_kswapd 11\n"
	"pgscan_direct 12\n"
	"workingset_refault_anon 13\n"
	"swap_ra 14\n"
	"swap_ra_hit 15\n"
	"thp_swpout 16\n"
	"thp_swpout_fallback 17\n"
	"zswpout 18\n"
	"allocstall_normal 19\n"
	"pgfault 99999\n"
	"pswp_bogus notanumber\n"
	"PSWPIN 1\n"
	"pswpx";

static void test_vmstat_filter(void **state)
{
	static const char * const want[] = {
		"pgpgin", "pgpgout", "pswpin", "pswpout", "nrswpin",
		"nrswpout", "pgmajfault", "pgsteal_kswapd", "pgscan_direct",
		"workingset_refault_anon", "swap_ra", "swap_ra_hit",
		"thp_swpout", "thp_swpout_fallback", "zswpout",
		"allocstall_normal",
	};
	char buf[2048];
	struct gj j;
	json_t *v, *vm, *arr;
	size_t i;
	int len, n;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gj_obj_open(&j, "vmstat");
	n = gstat_vmstat_members(&j, vmstat);
	gj_obj_close(&j);
	gj_arr_open(&j, "counters");
	assert_int_equal(gstat_vmstat_names(&j, vmstat), n);
	gj_arr_close(&j);
	gj_obj_close(&j);
	len = gj_finish(&j);
	v = parse_line(buf, len);
	vm = json_object_get(v, "vmstat");
	arr = json_object_get(v, "counters");
	assert_int_equal(n, ARRAY_SIZE(want));
	assert_int_equal(json_object_size(vm), n);
	assert_int_equal(json_array_size(arr), n);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		assert_non_null(json_object_get(vm, want[i]));
		assert_string_equal(json_string_value(json_array_get(arr, i)),
				    want[i]);
	}
	assert_int_equal(json_integer_value(json_object_get(vm, "pswpout")),
			 40);
	assert_null(json_object_get(vm, "nr_free_pages"));
	assert_null(json_object_get(vm, "pgfault"));
	assert_null(json_object_get(vm, "pswp_bogus"));
	json_decref(v);
}

static void test_vmstat_without_nrswp(void **state)
{
	const char *old = "pswpin 1\npswpout 2\npgmajfault 3\n";
	char buf[256];
	struct gj j;
	json_t *v;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gstat_vmstat_members(&j, old);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	/* A kernel without the counters: they are absent, not 0. */
	assert_null(json_object_get(v, "nrswpin"));
	assert_null(json_object_get(v, "nrswpout"));
	assert_int_equal(json_object_size(v), 3);
	json_decref(v);
}

static void test_blk_mmstat_swaps(void **state)
{
	const char *blk = "     120        0     9600      300     4000"
			  "        2   512000     9000        1     8000"
			  "     9300        0        0        0        0\n";
	const char *mm = "  1048576   262144   331776        0   331776"
			 "       12        0        3\n";
	const char *swaps =
		"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		"/dev/vda                                partition\t524284"
		"\t\t1024\t\t10\n"
		"/mnt/nfs0/swapfile-1a2b3c4d-0           file\t\t524284"
		"\t\t0\t\t-2\n";
	struct gstat_swap sw[4];
	char buf[2048];
	struct gj j;
	json_t *v, *o;
	int n, i;

	(void)state;
	n = gstat_parse_swaps(swaps, sw, 4);
	assert_int_equal(n, 2);
	assert_string_equal(sw[0].name, "/dev/vda");
	assert_int_equal(sw[0].used_kb, 1024);
	assert_int_equal(sw[1].prio, -2);
	assert_string_equal(sw[1].type, "file");
	assert_int_equal(gstat_parse_swaps(swaps, sw, 1), 1);

	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	gj_obj_open(&j, "blk");
	assert_int_equal(gstat_blk_member(&j, "vda", blk), 0);
	assert_int_equal(gstat_blk_member(&j, "vdb", "1 2 3\n"), -1);
	assert_int_equal(gstat_blk_member(&j, "vdc", "1 2 x 4 5 6 7 8 9 10 11"),
			 -1);
	gj_obj_close(&j);
	gj_obj_open(&j, "zram");
	assert_int_equal(gstat_mmstat_member(&j, "zram0", mm), 0);
	assert_int_equal(gstat_mmstat_member(&j, "zram1", "garbage"), -1);
	gj_obj_close(&j);
	gj_arr_open(&j, "swaps");
	for (i = 0; i < n; i++)
		gstat_swap_element(&j, &sw[i]);
	gj_arr_close(&j);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));

	o = json_object_get(json_object_get(v, "blk"), "vda");
	assert_non_null(o);
	assert_int_equal(json_object_size(json_object_get(v, "blk")), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "rd_ios")), 120);
	assert_int_equal(json_integer_value(json_object_get(o, "rd_sectors")),
			 9600);
	assert_int_equal(json_integer_value(json_object_get(o, "wr_ios")),
			 4000);
	assert_int_equal(json_integer_value(json_object_get(o, "wr_merges")),
			 2);
	assert_int_equal(json_integer_value(json_object_get(o, "wr_sectors")),
			 512000);
	assert_int_equal(json_integer_value(json_object_get(o, "in_flight")),
			 1);
	o = json_object_get(json_object_get(v, "zram"), "zram0");
	assert_int_equal(json_integer_value(json_object_get(o,
			 "orig_data_size")), 1048576);
	assert_int_equal(json_integer_value(json_object_get(o,
			 "compr_data_size")), 262144);
	assert_int_equal(json_integer_value(json_object_get(o,
			 "mem_used_total")), 331776);
	assert_int_equal(json_integer_value(json_object_get(o, "huge_pages")),
			 3);
	o = json_array_get(json_object_get(v, "swaps"), 1);
	assert_string_equal(json_string_value(json_object_get(o, "name")),
			    "/mnt/nfs0/swapfile-1a2b3c4d-0");
	assert_int_equal(json_integer_value(json_object_get(o, "size_kb")),
			 524284);
	assert_int_equal(json_integer_value(json_object_get(o, "prio")), -2);
	json_decref(v);
}

/* /proc/zoneinfo of a 256 MiB 6.1 guest, cut: two zones, node stats. */
static const char zoneinfo[] =
	"Node 0, zone      DMA\n"
	"  per-node stats\n"
	"      nr_inactive_anon 45126\n"
	"      nr_writeback 90\n"
	"  pages free     1012\n"
	"        boost    0\n"
	"        min      38\n"
	"        low      47\n"
	"        high     56\n"
	"        spanned  4095\n"
	"        protection: (0, 214, 214, 214)\n"
	"      nr_free_pages 1012\n"
	"  pagesets\n"
	"    cpu: 0\n"
	"              count: 0\n"
	"Node 0, zone    DMA32\n"
	"  pages free     880\n"
	"        boost    1053\n"
	"        min      1521\n"
	"        low      1638\n"
	"        high     1755\n"
	"      nr_free_pages 880\n";

static void test_mem_member(void **state)
{
	const char *vmstat = "nr_free_pages 1892\nnr_zone_inactive_anon 1\n"
			     "nr_writeback 90\nnr_writeback_temp 0\n";
	char buf[512];
	struct gj j;
	json_t *v, *o;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_mem_member(&j, vmstat, zoneinfo, 4), 0);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	o = json_object_get(v, "mem");
	assert_int_equal(json_object_size(o), 3);
	assert_int_equal(json_integer_value(json_object_get(o, "free_kb")),
			 1892 * 4);
	/* DMA's 38 and DMA32's 1521, not "nr_free_pages" or "boost" */
	assert_int_equal(json_integer_value(json_object_get(o, "min_kb")),
			 (38 + 1521) * 4);
	assert_int_equal(json_integer_value(json_object_get(o,
							    "writeback_kb")),
			 90 * 4);
	json_decref(v);

	/* missing or malformed: nothing written */
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_mem_member(&j, "nr_writeback 1\n", zoneinfo,
					  4), -1);
	assert_int_equal(gstat_mem_member(&j, "nr_free_pages 1\n", zoneinfo,
					  4), -1);
	assert_int_equal(gstat_mem_member(&j, vmstat, "Node 0\n", 4), -1);
	assert_int_equal(gstat_mem_member(&j, vmstat,
					  "        min      12x\n", 4), -1);
	assert_int_equal(gstat_mem_member(&j, vmstat, "        min\n", 4),
			 -1);
	assert_int_equal(gstat_mem_member(&j, "nr_free_pages x\n"
					  "nr_writeback 1\n", zoneinfo, 4), -1);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	assert_int_equal(json_object_size(v), 0);
	json_decref(v);
}

static void test_cpu_psi(void **state)
{
	const char *stat =
		"cpu  100 2 300 4000 50 6 70 8 0 0\n"
		"cpu0 50 1 150 2000 25 3 35 4 0 0\n"
		"intr 12345 0 1 2\nctxt 999\n";
	const char *psi =
		"some avg10=1.50 avg60=0.20 avg300=0.00 total=123456\n"
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=789\n";
	char buf[1024];
	struct gj j;
	json_t *v, *o;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_cpu_member(&j, stat, 100), 0);
	assert_int_equal(gstat_psi_member(&j, psi), 0);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	o = json_object_get(v, "cpu_ns");
	assert_int_equal(json_object_size(o), 8);
	/* ticks of 10 ms in ns; cpu0 is not the aggregate */
	assert_int_equal(json_integer_value(json_object_get(o, "user")),
			 1000000000);
	assert_int_equal(json_integer_value(json_object_get(o, "nice")),
			 20000000);
	assert_int_equal(json_integer_value(json_object_get(o, "system")),
			 3000000000LL);
	assert_int_equal(json_integer_value(json_object_get(o, "iowait")),
			 500000000);
	assert_int_equal(json_integer_value(json_object_get(o, "softirq")),
			 700000000);
	assert_int_equal(json_integer_value(json_object_get(o, "steal")),
			 80000000);
	o = json_object_get(v, "psi");
	assert_int_equal(json_integer_value(json_object_get(o, "some_us")),
			 123456);
	assert_int_equal(json_integer_value(json_object_get(o, "full_us")),
			 789);
	json_decref(v);

	/* malformed text writes nothing */
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_cpu_member(&j, "cpu0 1 2 3 4 5 6 7 8\n", 100),
			 -1);
	assert_int_equal(gstat_cpu_member(&j, "cpu  1 2 3 4 5 6 7\n", 100),
			 -1);
	assert_int_equal(gstat_cpu_member(&j, "cpu  1 2 x 4 5 6 7 8\n", 100),
			 -1);
	assert_int_equal(gstat_cpu_member(&j, stat, 0), -1);
	assert_int_equal(gstat_psi_member(&j, "full avg10=0 total=5\n"), -1);
	assert_int_equal(gstat_psi_member(&j, "some avg10=0 total=\n"), -1);
	assert_int_equal(gstat_psi_member(&j, "some avg10=0 total=5x\n"), -1);
	assert_int_equal(gstat_psi_member(&j, "some avg10=0\nfull total=1\n"),
			 -1);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	assert_int_equal(json_object_size(v), 0);
	json_decref(v);

	/* "full" is optional (a kernel could lack it) */
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_psi_member(&j, "some avg10=0.00 total=7"), 0);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	o = json_object_get(v, "psi");
	assert_int_equal(json_object_size(o), 1);
	assert_int_equal(json_integer_value(json_object_get(o, "some_us")), 7);
	json_decref(v);
}

/* kswapd's /proc/<pid>/stat and wchan -> "kswapd":{state,cpu_ns,wchan} */
static void test_task_member(void **state)
{
	/* a comm with ") " in it: the last ')' ends it */
	static const char stat[] =
		"33 (kswapd0) D 2 0 0 0 -1 10561600 0 0 0 0 250 130 0 0 20 0 1 "
		"0 12 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 "
		"0 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	static const char odd[] = "7 (a) b) S 2 0 0 0 -1 1 0 0 0 0 3 4 0 0\n";
	char buf[512];
	struct gj j;
	json_t *v, *o;

	(void)state;
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_task_member(&j, "kswapd", stat,
					   "balance_pgdat", 100), 0);
	assert_int_equal(gstat_task_member(&j, "other", odd, "0", 100), 0);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	o = json_object_get(v, "kswapd");
	assert_string_equal(json_string_value(json_object_get(o, "state")),
			    "D");
	/* utime 250 + stime 130 ticks of 10 ms */
	assert_int_equal(json_integer_value(json_object_get(o, "cpu_ns")),
			 3800000000LL);
	assert_string_equal(json_string_value(json_object_get(o, "wchan")),
			    "balance_pgdat");
	o = json_object_get(v, "other");
	assert_string_equal(json_string_value(json_object_get(o, "state")),
			    "S");
	assert_int_equal(json_integer_value(json_object_get(o, "cpu_ns")),
			 70000000);
	/* "0": no symbol (no CONFIG_KALLSYMS), no member */
	assert_null(json_object_get(o, "wchan"));
	json_decref(v);

	/* malformed: nothing written */
	gj_init(&j, buf, sizeof(buf));
	gj_obj_open(&j, NULL);
	assert_int_equal(gstat_task_member(&j, "k", "33 kswapd0 D 2", NULL,
					   100), -1);
	assert_int_equal(gstat_task_member(&j, "k", "33 (k) D 2 0 0\n", NULL,
					   100), -1);
	assert_int_equal(gstat_task_member(&j, "k", "33 (k) D 2 x 0 0 -1 1 "
					   "0 0 0 0 3 4 0\n", NULL, 100), -1);
	assert_int_equal(gstat_task_member(&j, "k", "33 (k) \n", NULL, 100),
			 -1);
	assert_int_equal(gstat_task_member(&j, "k", stat, NULL, 0), -1);
	gj_obj_close(&j);
	v = parse_line(buf, gj_finish(&j));
	assert_int_equal(json_object_size(v), 0);
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_nesting),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_unbalanced_and_second_value),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_overflow_refused),
		cmocka_unit_test(test_vmstat_filter),
		cmocka_unit_test(test_vmstat_without_nrswp),
		cmocka_unit_test(test_blk_mmstat_swaps),
		cmocka_unit_test(test_cpu_psi),
		cmocka_unit_test(test_mem_member),
		cmocka_unit_test(test_task_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
