// SPDX-License-Identifier: GPL-2.0
/* Unit tests of src/model/stream.c: the agent protocol parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stream.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct stream_state st;
static struct stream_line l;

static enum stream_err parse(const char *s)
{
	return stream_parse_line(&st, s, strlen(s), &l);
}

static int setup(void **state)
{
	(void)state;
	stream_init(&st);
	return 0;
}

#define SAMPLE(seq, out) \
	"{\"v\":1,\"seq\":" #seq ",\"t_ns\":1" #seq ",\"type\":\"sample\"," \
	"\"vmstat\":{\"pswpout\":" #out ",\"nrswpout\":1}}"

/* An NFS swap file has no block device: the guest sends "dev":"". */
static void test_backend_without_dev(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":6,\"type\":\"swap\","
			       "\"backends\":[{\"type\":\"nfsfile\",\"name\":"
			       "\"/mnt/nfs0/swapfile\",\"dev\":\"\","
			       "\"size_kb\":262140,\"prio\":10}]}"), STREAM_OK);
	assert_int_equal(l.nswaps, 1);
	assert_string_equal(l.swaps[0].dev, "");
	assert_int_equal(st.seq_gaps, 0);
	/* but a dev that is not a name is still refused */
	assert_int_equal(parse("{\"v\":1,\"seq\":1,\"t_ns\":7,\"type\":\"swap\","
			       "\"backends\":[{\"type\":\"blk\",\"name\":"
			       "\"/dev/vda\",\"dev\":\"v da\"}]}"),
			 STREAM_E_FIELD);
}

static void test_all_types(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"hello\","
			       "\"kernel\":\"6.1.192\",\"counters\":[\"pswpin\","
			       "\"pswpout\",\"nrswpout\"],\"interval_ms\":100}"),
			 STREAM_OK);
	assert_int_equal(l.type, STREAM_T_HELLO);
	assert_string_equal(l.kernel, "6.1.192");
	assert_int_equal(l.ncounters, 3);
	assert_true(stream_counter(&l, "nrswpout", NULL));
	assert_int_equal(l.interval_ms, 100);

	assert_int_equal(parse("{\"v\":1,\"seq\":1,\"t_ns\":6,\"type\":\"swap\","
			       "\"backends\":[{\"type\":\"blk\",\"name\":"
			       "\"/dev/vda\",\"dev\":\"vda\",\"size_kb\":524284,"
			       "\"prio\":-2}]}"), STREAM_OK);
	assert_int_equal(l.nswaps, 1);
	assert_string_equal(l.swaps[0].dev, "vda");
	assert_int_equal(l.swaps[0].prio, -2);

	assert_int_equal(parse("{\"v\":1,\"seq\":2,\"t_ns\":7,\"type\":\"sample\","
			       "\"vmstat\":{\"pswpin\":3,\"pswpout\":40},"
			       "\"blk\":{\"vda\":{\"rd_ios\":1,\"rd_sectors\":8,"
			       "\"wr_ios\":5,\"wr_sectors\":320,\"in_flight\":2}},"
			       "\"swaps\":[{\"name\":\"/dev/vda\",\"used_kb\":160,"
			       "\"size_kb\":524284,\"prio\":10}],"
			       "\"zram\":{\"zram0\":{\"orig_data_size\":1,"
			       "\"compr_data_size\":2,\"mem_used_total\":3}},"
			       "\"agent_cpu_ns\":99}"), STREAM_OK);
	assert_true(stream_counter(&l, "pswpout", &v));
	assert_int_equal(v, 40);
	assert_false(stream_counter(&l, "nrswpout", &v));
	assert_non_null(stream_blk_find(&l, "vda"));
	assert_int_equal(stream_blk_find(&l, "vda")->wr_sectors, 320);
	assert_null(stream_blk_find(&l, "vdb"));
	assert_int_equal(l.swaps[0].used_kb, 160);
	assert_int_equal(l.zram[0].mem_used_total, 3);
	assert_int_equal(l.agent_cpu_ns, 99);

	assert_int_equal(parse("{\"v\":1,\"seq\":3,\"t_ns\":8,\"type\":\"phase\","
			       "\"name\":\"pageout\",\"state\":\"end\","
			       "\"pages\":76800,\"ns\":5,\"corrupt\":0}"),
			 STREAM_OK);
	assert_string_equal(l.phase, "pageout");
	assert_int_equal(l.phase_state, STREAM_PHASE_END);
	assert_true(l.phase_has_stats);
	assert_int_equal(l.pages, 76800);

	assert_int_equal(parse("{\"v\":1,\"seq\":4,\"t_ns\":9,\"type\":\"log\","
			       "\"level\":\"warn\",\"msg\":\"a\\u001b[2Jb\"}"),
			 STREAM_OK);
	/* a terminal escape never reaches the screen */
	assert_string_equal(l.msg, "a?[2Jb");

	assert_int_equal(parse("{\"v\":1,\"seq\":5,\"t_ns\":10,\"type\":\"result\","
			       "\"status\":\"corrupt\",\"pages_written\":10,"
			       "\"pages_verified\":10,\"pages_corrupt\":2,"
			       "\"first_corrupt\":7,\"reason\":\"\"}"),
			 STREAM_OK);
	assert_int_equal(l.status, STREAM_CORRUPT);
	assert_int_equal(l.first_corrupt, 7);

	assert_int_equal(parse("{\"type\":\"host\",\"t_ns\":10,\"blk\":{\"vda\":"
			       "{\"rd_req\":1,\"wr_req\":2,\"rd_bytes\":3,"
			       "\"wr_bytes\":4}}}"), STREAM_OK);
	assert_int_equal(l.type, STREAM_T_HOST);
	assert_false(l.has_seq);
	assert_int_equal(l.blk[0].wr_ios, 2);
	assert_int_equal(l.blk[0].wr_bytes, 4);
	assert_int_equal(st.ok, 7);
	assert_int_equal(st.malformed + st.absurd + st.seq_dups, 0);
}

#define CPU(u, s) \
	"\"cpu_ns\":{\"user\":" #u ",\"nice\":0,\"system\":" #s ",\"idle\":9," \
	"\"iowait\":4,\"irq\":0,\"softirq\":3,\"steal\":0}"

/* Guest CPU, PSI, host CPU and residency: what issue 10 asks beyond I/O. */
static void test_cpu_psi_residency(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\","
			       "\"vmstat\":{\"pswpout\":1}," CPU(10, 20) ","
			       "\"psi\":{\"some_us\":700,\"full_us\":30}}"),
			 STREAM_OK);
	assert_true(l.has_cpu);
	assert_int_equal(l.cpu.user, 10);
	assert_int_equal(l.cpu.system, 20);
	assert_int_equal(l.cpu.iowait, 4);
	assert_int_equal(l.cpu.softirq, 3);
	assert_true(l.has_psi);
	assert_true(l.has_psi_full);
	assert_int_equal(l.psi_some_us, 700);
	assert_int_equal(l.psi_full_us, 30);
	/* psi without full; a sample without either */
	assert_int_equal(parse("{\"v\":1,\"seq\":1,\"t_ns\":6,\"type\":\"sample\","
			       "\"vmstat\":{},\"psi\":{\"some_us\":800}}"),
			 STREAM_OK);
	assert_true(l.has_psi);
	assert_false(l.has_psi_full);
	assert_false(l.has_cpu);
	assert_int_equal(parse(SAMPLE(2, 1)), STREAM_OK);
	assert_false(l.has_psi);
	assert_false(l.has_mem);
	stream_init(&st);
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":6,\"type\":\"sample\","
			       "\"vmstat\":{},\"mem\":{\"free_kb\":3520,"
			       "\"min_kb\":6084,\"writeback_kb\":360}}"),
			 STREAM_OK);
	assert_true(l.has_mem);
	assert_int_equal(l.mem_free_kb, 3520);
	assert_int_equal(l.mem_min_kb, 6084);
	assert_int_equal(l.mem_writeback_kb, 360);
	/* going backwards is a reset */
	assert_int_equal(parse("{\"v\":1,\"seq\":3,\"t_ns\":7,\"type\":\"sample\","
			       "\"vmstat\":{}," CPU(10, 20) ","
			       "\"psi\":{\"some_us\":900}}"), STREAM_OK);
	assert_false(l.reset);
	assert_int_equal(parse("{\"v\":1,\"seq\":4,\"t_ns\":8,\"type\":\"sample\","
			       "\"vmstat\":{}," CPU(10, 19) ","
			       "\"psi\":{\"some_us\":900}}"), STREAM_OK);
	assert_true(l.reset);
	assert_int_equal(parse("{\"v\":1,\"seq\":5,\"t_ns\":9,\"type\":\"sample\","
			       "\"vmstat\":{}," CPU(10, 19) ","
			       "\"psi\":{\"some_us\":899}}"), STREAM_OK);
	assert_true(l.reset);

	/* a push-out phase's end */
	assert_int_equal(parse("{\"v\":1,\"seq\":6,\"t_ns\":10,\"type\":\"phase\","
			       "\"name\":\"pageout\",\"state\":\"end\","
			       "\"pages\":100,\"ns\":5,\"corrupt\":0,"
			       "\"asked\":100,\"resident_before\":100,"
			       "\"resident\":97,\"evicted\":3}"), STREAM_OK);
	assert_true(l.phase_has_residency);
	assert_int_equal(l.asked, 100);
	assert_int_equal(l.resident_before, 100);
	assert_int_equal(l.resident, 97);
	assert_int_equal(l.evicted, 3);
	assert_int_equal(l.ns, 5);
	assert_int_equal(parse("{\"v\":1,\"seq\":7,\"t_ns\":11,\"type\":\"phase\","
			       "\"name\":\"read\",\"state\":\"end\","
			       "\"pages\":100,\"ns\":5,\"corrupt\":0}"),
			 STREAM_OK);
	assert_false(l.phase_has_residency);

	/* host lines: cpu alone (zram: no disk), blk alone, both */
	assert_int_equal(parse("{\"type\":\"host\",\"t_ns\":10,\"cpu_ns\":"
			       "{\"total\":5000,\"user\":4000,\"system\":900}}"),
			 STREAM_OK);
	assert_true(l.has_host_cpu);
	assert_true(l.has_host_cpu_split);
	assert_int_equal(l.host_cpu_ns, 5000);
	assert_int_equal(l.host_cpu_user_ns, 4000);
	assert_int_equal(l.host_cpu_sys_ns, 900);
	assert_int_equal(l.nblk, 0);
	assert_int_equal(parse("{\"type\":\"host\",\"t_ns\":11,\"cpu_ns\":"
			       "{\"total\":6000},\"blk\":{\"vda\":{\"rd_req\":1,"
			       "\"wr_req\":2,\"rd_bytes\":3,\"wr_bytes\":4}}}"),
			 STREAM_OK);
	assert_false(l.has_host_cpu_split);
	assert_int_equal(l.nblk, 1);
	assert_false(l.reset);
	assert_int_equal(parse("{\"type\":\"host\",\"t_ns\":12,\"cpu_ns\":"
			       "{\"total\":5999}}"), STREAM_OK);
	assert_true(l.reset);
	assert_int_equal(st.malformed + st.absurd, 0);
}

static void test_cpu_psi_residency_bad(void **state)
{
	static const struct {
		const char *line;
		enum stream_err err;
	} bad[] = {
		/* cpu_ns: a member missing, not an object, negative, float */
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"cpu_ns\":{\"user\":1,\"nice\":0,\"system\":2,\"idle\":9,"
		  "\"iowait\":4,\"irq\":0,\"softirq\":3}}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"cpu_ns\":[1,2,3]}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  CPU(-1, 2) "}", STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  CPU(1.5, 2) "}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  CPU(1, 9007199254740993) "}", STREAM_E_ABSURD },
		/* psi */
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"psi\":{\"full_us\":1}}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"psi\":{\"some_us\":\"1\"}}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"psi\":{\"some_us\":1,\"full_us\":-3}}", STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"psi\":7}", STREAM_E_FIELD },
		/* mem: a member missing, not an object, negative, too big */
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"mem\":{\"free_kb\":1,\"min_kb\":2}}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"mem\":[1,2,3]}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"mem\":{\"free_kb\":-1,\"min_kb\":2,\"writeback_kb\":0}}",
		  STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"sample\",\"vmstat\":{},"
		  "\"mem\":{\"free_kb\":1,\"min_kb\":2,"
		  "\"writeback_kb\":9007199254740993}}", STREAM_E_ABSURD },
		/* residency: partial, more resident or evicted than possible */
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"phase\",\"name\":"
		  "\"pageout\",\"state\":\"end\",\"asked\":10,\"resident\":3,"
		  "\"evicted\":7}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"phase\",\"name\":"
		  "\"pageout\",\"state\":\"end\",\"asked\":10,"
		  "\"resident_before\":11,\"resident\":3,\"evicted\":7}",
		  STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"phase\",\"name\":"
		  "\"pageout\",\"state\":\"end\",\"asked\":10,"
		  "\"resident_before\":10,\"resident\":11,\"evicted\":0}",
		  STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"phase\",\"name\":"
		  "\"pageout\",\"state\":\"end\",\"asked\":10,"
		  "\"resident_before\":5,\"resident\":0,\"evicted\":6}",
		  STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"phase\",\"name\":"
		  "\"pageout\",\"state\":\"end\",\"asked\":-1}", STREAM_E_ABSURD },
		/* host: nothing, total missing, user without system */
		{ "{\"type\":\"host\",\"t_ns\":1}", STREAM_E_FIELD },
		{ "{\"type\":\"host\",\"t_ns\":1,\"cpu_ns\":{\"user\":1,"
		  "\"system\":1}}", STREAM_E_FIELD },
		{ "{\"type\":\"host\",\"t_ns\":1,\"cpu_ns\":{\"total\":3,"
		  "\"user\":1}}", STREAM_E_FIELD },
		{ "{\"type\":\"host\",\"t_ns\":1,\"cpu_ns\":5}", STREAM_E_FIELD },
		{ "{\"type\":\"host\",\"t_ns\":1,\"cpu_ns\":{\"total\":1},"
		  "\"blk\":[]}", STREAM_E_FIELD },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		stream_init(&st);
		if (parse(bad[i].line) != bad[i].err)
			fail_msg("line %zu: %s: got %s (%s)", i, bad[i].line,
				 stream_err_str(st.last_err), st.last_error);
	}
}

/* Loud failures (SIGBUS) are counted beside corrupt pages. */
static void test_pages_failed(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":8,\"type\":\"phase\","
			       "\"name\":\"read\",\"state\":\"end\",\"index\":3,"
			       "\"pages\":100,\"ns\":5,\"corrupt\":0,"
			       "\"failed\":8}"), STREAM_OK);
	assert_int_equal(l.failed, 8);
	assert_int_equal(l.phase_index, 3);
	assert_int_equal(parse("{\"v\":1,\"seq\":1,\"t_ns\":9,\"type\":\"result\","
			       "\"status\":\"pass\",\"pages_written\":10,"
			       "\"pages_verified\":10,\"pages_corrupt\":0,"
			       "\"first_corrupt\":-1,\"pages_failed\":9,"
			       "\"pages_failed_distinct\":8}"), STREAM_OK);
	assert_true(l.has_pages_failed);
	assert_int_equal(l.pages_failed, 9);
	assert_int_equal(l.pages_failed_distinct, 8);
	/* an older guest: absent means none */
	assert_int_equal(parse("{\"v\":1,\"seq\":2,\"t_ns\":9,\"type\":\"result\","
			       "\"status\":\"pass\",\"pages_written\":1,"
			       "\"pages_verified\":1,\"pages_corrupt\":0,"
			       "\"first_corrupt\":-1}"), STREAM_OK);
	assert_false(l.has_pages_failed);
	assert_int_equal(l.pages_failed, 0);
	/* more distinct pages than failures, more failed than pages */
	assert_int_equal(parse("{\"v\":1,\"seq\":3,\"t_ns\":9,\"type\":\"result\","
			       "\"status\":\"pass\",\"pages_written\":1,"
			       "\"pages_verified\":1,\"pages_corrupt\":0,"
			       "\"first_corrupt\":-1,\"pages_failed\":1,"
			       "\"pages_failed_distinct\":2}"), STREAM_E_ABSURD);
	assert_int_equal(parse("{\"v\":1,\"seq\":4,\"t_ns\":8,\"type\":\"phase\","
			       "\"name\":\"read\",\"state\":\"end\","
			       "\"pages\":1,\"failed\":2}"), STREAM_E_ABSURD);
	assert_int_equal(parse("{\"v\":1,\"seq\":5,\"t_ns\":9,\"type\":\"result\","
			       "\"status\":\"pass\",\"pages_written\":1,"
			       "\"pages_verified\":1,\"pages_corrupt\":0,"
			       "\"first_corrupt\":-1,\"pages_failed\":\"1\"}"),
			 STREAM_E_FIELD);
	assert_int_equal(st.ok, 3);
}

#define READ_END(rest) \
	"{\"v\":1,\"seq\":0,\"t_ns\":9000000,\"type\":\"phase\"," \
	"\"name\":\"read\",\"state\":\"end\",\"pages\":100," \
	"\"ns\":5000000,\"corrupt\":0" rest "}"
#define RESULT(rest) \
	"{\"v\":1,\"seq\":0,\"t_ns\":9000000,\"type\":\"result\"," \
	"\"status\":\"pass\",\"pages_written\":10," \
	"\"pages_verified\":200,\"pages_corrupt\":0," \
	"\"first_corrupt\":-1" rest "}"
#define SWAPIN(n, p50, p99, max) \
	",\"swapin_faults\":" #n ",\"swapin_p50_us\":" #p50 \
	",\"swapin_p99_us\":" #p99 ",\"swapin_max_us\":" #max

/* Swap-in latency on read phases' ends and the result (agentproto.h). */
/* One line of a stream of its own (the lines here all have seq 0). */
static enum stream_err parse_fresh(const char *s)
{
	stream_init(&st);
	return parse(s);
}

static void test_swapin(void **state)
{
	(void)state;
	assert_int_equal(parse_fresh(READ_END(SWAPIN(90, 16, 300, 5000))),
			 STREAM_OK);
	assert_true(l.has_swapin);
	assert_int_equal(l.swapin_faults, 90);
	assert_int_equal(l.swapin_p50_us, 16);
	assert_int_equal(l.swapin_p99_us, 300);
	assert_int_equal(l.swapin_max_us, 5000);
	/* the limits themselves: every page, max = the phase's time */
	assert_int_equal(parse_fresh(READ_END(SWAPIN(100, 5000, 5000, 5000))),
			 STREAM_OK);
	/* none timed: all zero */
	assert_int_equal(parse_fresh(READ_END(SWAPIN(0, 0, 0, 0))), STREAM_OK);
	assert_true(l.has_swapin);
	assert_int_equal(l.swapin_faults, 0);
	/* an older guest, or another phase: absent */
	assert_int_equal(parse_fresh(READ_END("")), STREAM_OK);
	assert_false(l.has_swapin);
	assert_int_equal(parse_fresh(RESULT(SWAPIN(200, 1, 2, 9000))), STREAM_OK);
	assert_true(l.has_swapin);
	assert_int_equal(l.swapin_faults, 200);
	assert_int_equal(l.swapin_max_us, 9000);
	assert_int_equal(parse_fresh(RESULT("")), STREAM_OK);
	assert_false(l.has_swapin);
}

static void test_swapin_bad(void **state)
{
	static const struct {
		const char *line;
		enum stream_err err;
	} bad[] = {
		/* not all four */
		{ READ_END(",\"swapin_faults\":1,\"swapin_p50_us\":1,"
			   "\"swapin_p99_us\":1"), STREAM_E_FIELD },
		{ READ_END(",\"swapin_faults\":1"), STREAM_E_FIELD },
		/* out of order */
		{ READ_END(SWAPIN(10, 20, 10, 30)), STREAM_E_ABSURD },
		{ READ_END(SWAPIN(10, 10, 40, 30)), STREAM_E_ABSURD },
		/* more touches than pages, slower than the phase */
		{ READ_END(SWAPIN(101, 1, 1, 1)), STREAM_E_ABSURD },
		{ READ_END(SWAPIN(10, 1, 1, 5001)), STREAM_E_ABSURD },
		/* a latency without a fault */
		{ READ_END(SWAPIN(0, 0, 0, 7)), STREAM_E_ABSURD },
		/* types, signs, 2^53 */
		{ READ_END(SWAPIN(10, 1.5, 2, 3)), STREAM_E_FIELD },
		{ READ_END(SWAPIN(10, "1", 2, 3)), STREAM_E_FIELD },
		{ READ_END(SWAPIN(-1, 1, 2, 3)), STREAM_E_ABSURD },
		{ READ_END(SWAPIN(10, 1, 2, 9007199254740993)),
		  STREAM_E_ABSURD },
		/* a phase end without pages and ns */
		{ "{\"v\":1,\"seq\":0,\"t_ns\":9,\"type\":\"phase\","
		  "\"name\":\"read\",\"state\":\"end\"" SWAPIN(0, 0, 0, 0)
		  "}", STREAM_E_FIELD },
		/* result: beyond pages_verified, beyond the guest's uptime */
		{ RESULT(SWAPIN(201, 1, 1, 1)), STREAM_E_ABSURD },
		{ RESULT(SWAPIN(10, 1, 1, 9001)), STREAM_E_ABSURD },
		{ RESULT(SWAPIN(10, 3, 2, 4)), STREAM_E_ABSURD },
		{ RESULT(",\"swapin_faults\":1,\"swapin_max_us\":1"),
		  STREAM_E_FIELD },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		stream_init(&st);
		if (parse(bad[i].line) != bad[i].err)
			fail_msg("line %zu: %s: got %s (%s)", i, bad[i].line,
				 stream_err_str(st.last_err), st.last_error);
		assert_false(l.has_swapin && st.last_err == STREAM_OK);
	}
}

/* Fault events: from the guest (with seq) and from the host (without). */
static void test_fault_lines(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":8,\"type\":\"fault\","
			       "\"name\":\"io_error\",\"state\":\"start\","
			       "\"index\":0,\"detail\":\"dm-dust on /dev/vda\"}"),
			 STREAM_OK);
	assert_int_equal(l.type, STREAM_T_FAULT);
	assert_true(l.has_seq);
	assert_string_equal(l.phase, "io_error");
	assert_int_equal(l.phase_state, STREAM_PHASE_START);
	assert_int_equal(l.phase_index, 0);
	assert_string_equal(l.msg, "dm-dust on /dev/vda");
	assert_int_equal(parse("{\"type\":\"fault\",\"t_ns\":9,\"name\":"
			       "\"nfs_stall\",\"state\":\"end\"}"), STREAM_OK);
	assert_false(l.has_seq);
	assert_int_equal(l.phase_index, -1);
	assert_string_equal(l.msg, "");
	assert_int_equal(parse("{\"type\":\"fault\",\"t_ns\":9,\"name\":"
			       "\"nfs_stall\",\"state\":\"later\"}"),
			 STREAM_E_FIELD);
	assert_int_equal(parse("{\"type\":\"fault\",\"t_ns\":9,\"name\":"
			       "\"a b\",\"state\":\"end\"}"), STREAM_E_FIELD);
	/* a guest line keeps needing v */
	assert_int_equal(parse("{\"seq\":1,\"t_ns\":9,\"type\":\"fault\","
			       "\"name\":\"oom\",\"state\":\"end\"}"),
			 STREAM_E_FIELD);
	assert_int_equal(parse("{\"v\":1,\"seq\":1,\"t_ns\":9,\"type\":\"fault\","
			       "\"name\":\"oom\",\"state\":\"end\",\"index\":-1}"),
			 STREAM_E_ABSURD);
	assert_false(l.has_injected);
	/* a slab_error's end line counts what failslab failed */
	assert_int_equal(parse("{\"v\":1,\"seq\":2,\"t_ns\":9,\"type\":\"fault\","
			       "\"name\":\"slab_error\",\"state\":\"end\","
			       "\"index\":0,\"injected\":16384}"), STREAM_OK);
	assert_true(l.has_injected);
	assert_int_equal(l.injected, 16384);
	assert_int_equal(parse("{\"v\":1,\"seq\":3,\"t_ns\":9,\"type\":\"fault\","
			       "\"name\":\"slab_error\",\"state\":\"start\","
			       "\"index\":0,\"injected\":1}"), STREAM_E_FIELD);
	assert_int_equal(parse("{\"v\":1,\"seq\":4,\"t_ns\":9,\"type\":\"fault\","
			       "\"name\":\"slab_error\",\"state\":\"end\","
			       "\"index\":0,\"injected\":-1}"), STREAM_E_ABSURD);
	assert_int_equal(parse("{\"v\":1,\"seq\":5,\"t_ns\":9,\"type\":\"fault\","
			       "\"name\":\"slab_error\",\"state\":\"end\","
			       "\"index\":0,\"injected\":\"9\"}"), STREAM_E_FIELD);
}

#define CMD_END(extra) \
	"{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\",\"group\":\"build\"," \
	"\"run\":\"limited\",\"state\":\"end\",\"exit\":0,\"signal\":0,\"ns\":7," \
	"\"user_ns\":1,\"sys_ns\":1,\"maxrss_kb\":9,\"memory_peak_kb\":50000," \
	"\"oom_kill\":0" extra "}"
#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void test_command(void **state)
{
	static const struct {
		const char *line;
		enum stream_err want;
	} bad[] = {
		{ CMD_END(",\"outputs\":2,\"outputs_sha256\":\"XYZ\""), STREAM_E_FIELD },
		{ CMD_END(",\"outputs\":2,\"outputs_sha256\":\"" SHA "0\""), STREAM_E_FIELD },
		{ CMD_END(",\"outputs\":2"), STREAM_E_FIELD },
		{ CMD_END(""), STREAM_E_FIELD },		/* no outputs */
		{ CMD_END(",\"outputs\":-1"), STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\",\"group\":\"a b\","
		  "\"run\":\"limited\",\"state\":\"start\"}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\",\"group\":\"a\","
		  "\"run\":\"other\",\"state\":\"start\"}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\",\"group\":\"a\","
		  "\"run\":\"limited\",\"state\":\"begin\"}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\",\"group\":\"a\","
		  "\"run\":\"limited\",\"state\":\"end\",\"exit\":300,\"signal\":0,"
		  "\"ns\":1,\"outputs\":0}", STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\",\"group\":\"a\","
		  "\"run\":\"limited\",\"state\":\"end\",\"exit\":-2,\"signal\":0,"
		  "\"ns\":1,\"outputs\":0}", STREAM_E_ABSURD },
		/* the result's command members: all or none, consistent */
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"result\",\"status\":\"pass\","
		  "\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,"
		  "\"first_corrupt\":-1,\"commands\":1}", STREAM_E_FIELD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"result\",\"status\":\"pass\","
		  "\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,"
		  "\"first_corrupt\":-1,\"commands\":1,\"commands_failed\":2,"
		  "\"outputs_compared\":0,\"outputs_differ\":0}", STREAM_E_ABSURD },
		{ "{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"result\",\"status\":\"pass\","
		  "\"pages_written\":0,\"pages_verified\":0,\"pages_corrupt\":0,"
		  "\"first_corrupt\":-1,\"commands\":1,\"commands_failed\":0,"
		  "\"outputs_compared\":0,\"outputs_differ\":0,\"host_root_ro\":1}",
		  STREAM_E_FIELD },
	};
	size_t i;

	(void)state;
	assert_int_equal(parse(CMD_END(",\"outputs\":2,\"outputs_sha256\":\"" SHA "\"")),
			 STREAM_OK);
	assert_int_equal(l.type, STREAM_T_COMMAND);
	assert_string_equal(l.group, "build");
	assert_false(l.cmd_reference);
	assert_int_equal(l.phase_state, STREAM_PHASE_END);
	assert_int_equal(l.cmd_exit, 0);
	assert_int_equal(l.ns, 7);
	assert_int_equal(l.cmd_outputs, 2);
	assert_int_equal(l.memory_peak_kb, 50000);
	assert_string_equal(l.outputs_sha256, SHA);
	assert_string_equal(stream_type_str(l.type), "command");

	stream_init(&st);
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"command\","
			       "\"group\":\"a\",\"run\":\"reference\",\"state\":\"start\"}"),
			 STREAM_OK);
	assert_true(l.cmd_reference);
	assert_int_equal(l.phase_state, STREAM_PHASE_START);

	stream_init(&st);
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"result\","
			       "\"status\":\"corrupt\",\"pages_written\":0,\"pages_verified\":0,"
			       "\"pages_corrupt\":0,\"first_corrupt\":-1,\"commands\":2,"
			       "\"commands_failed\":0,\"outputs_compared\":30,"
			       "\"outputs_differ\":1,\"host_root_ro\":true,\"reason\":\"x\"}"),
			 STREAM_OK);
	assert_true(l.has_commands);
	assert_int_equal(l.commands, 2);
	assert_int_equal(l.outputs_compared, 30);
	assert_int_equal(l.outputs_differ, 1);
	assert_true(l.has_host_root_ro);
	assert_true(l.host_root_ro);
	/* a synthetic workload's result has none of them */
	stream_init(&st);
	assert_int_equal(parse("{\"v\":1,\"seq\":0,\"t_ns\":5,\"type\":\"result\","
			       "\"status\":\"pass\",\"pages_written\":1,\"pages_verified\":1,"
			       "\"pages_corrupt\":0,\"first_corrupt\":-1}"), STREAM_OK);
	assert_false(l.has_commands);
	assert_false(l.has_host_root_ro);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		enum stream_err e;

		stream_init(&st);
		e = parse(bad[i].line);
		if (e != bad[i].want)
			fail_msg("case %zu: got %s, want %s (%s)", i,
				 stream_err_str(e), stream_err_str(bad[i].want),
				 st.last_error);
	}
}

static void test_seq_gap_dup(void **state)
{
	(void)state;
	assert_int_equal(parse(SAMPLE(0, 1)), STREAM_OK);
	assert_int_equal(parse(SAMPLE(1, 2)), STREAM_OK);
	assert_int_equal(parse(SAMPLE(4, 3)), STREAM_OK);
	assert_int_equal(l.seq_missing, 2);
	assert_int_equal(st.seq_gaps, 1);
	assert_int_equal(st.seq_missing, 2);
	assert_int_equal(parse(SAMPLE(4, 3)), STREAM_E_SEQ);
	assert_int_equal(parse(SAMPLE(2, 3)), STREAM_E_SEQ);
	assert_int_equal(st.seq_dups, 2);
	assert_int_equal(parse(SAMPLE(5, 4)), STREAM_OK);
	assert_int_equal(l.seq_missing, 0);
	assert_int_equal(st.ok, 4);
}

static void test_reset(void **state)
{
	(void)state;
	assert_int_equal(parse(SAMPLE(0, 100)), STREAM_OK);
	assert_false(l.reset);
	assert_int_equal(parse(SAMPLE(1, 50)), STREAM_OK);
	assert_true(l.reset);
	assert_int_equal(parse(SAMPLE(2, 60)), STREAM_OK);
	assert_false(l.reset);
	assert_int_equal(st.resets, 1);
}

static void test_bad_lines(void **state)
{
	static const char *const bad[] = {
		"",
		"   ",
		"[1,2]",
		"42",
		"\"x\"",
		"{",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\"}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\",\"vmstat\":[]}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\",\"vmstat\":{\"a\":\"1\"}}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\",\"vmstat\":{\"a\":1.5}}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\",\"vmstat\":{\"a b\":1}}",
		"{\"v\":1,\"seq\":0,\"seq\":1,\"t_ns\":1,\"type\":\"log\",\"level\":\"i\",\"msg\":\"\"}",
		"{\"v\":2,\"seq\":0,\"t_ns\":1,\"type\":\"log\",\"level\":\"i\",\"msg\":\"\"}",
		"{\"seq\":0,\"t_ns\":1,\"type\":\"log\",\"level\":\"i\",\"msg\":\"\"}",
		"{\"v\":\"1\",\"seq\":0,\"t_ns\":1,\"type\":\"log\",\"level\":\"i\",\"msg\":\"\"}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"nope\"}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":7}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"phase\",\"name\":\"x\",\"state\":\"mid\"}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"result\",\"status\":\"ok\"}",
		"{\"type\":\"host\",\"t_ns\":1,\"blk\":{\"vda\":{\"rd_req\":1}}}",
		"{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"sample\",\"vmstat\":{\"a\\u0000b\":1}}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		enum stream_err e = parse(bad[i]);

		if (e == STREAM_OK || e == STREAM_E_ABSURD)
			fail_msg("line %zu accepted: %s", i, bad[i]);
		assert_true(st.last_error[0] != '\0');
	}
	assert_int_equal(st.malformed, sizeof(bad) / sizeof(bad[0]));
	assert_int_equal(st.ok, 0);
	/* embedded NUL bytes in the raw line */
	assert_int_equal(stream_parse_line(&st, "{\"v\":1\0}", 8, &l),
			 STREAM_E_JSON);
}

static void test_absurd(void **state)
{
	(void)state;
	assert_int_equal(parse(SAMPLE(0, -1)), STREAM_E_ABSURD);
	assert_int_equal(parse(SAMPLE(0, 9007199254740993)), STREAM_E_ABSURD);
	assert_int_equal(parse(SAMPLE(0, 9007199254740992)), STREAM_OK);
	assert_int_equal(parse(SAMPLE(1, 99999999999999999999999)),
			 STREAM_E_JSON);
	assert_int_equal(parse("{\"v\":1,\"seq\":-1,\"t_ns\":1,\"type\":\"log\","
			       "\"level\":\"i\",\"msg\":\"\"}"),
			 STREAM_E_ABSURD);
	assert_int_equal(parse("{\"v\":1,\"seq\":2,\"t_ns\":1,\"type\":\"sample\","
			       "\"vmstat\":{},\"swaps\":[{\"name\":\"/x\","
			       "\"used_kb\":5,\"size_kb\":4}]}"),
			 STREAM_E_ABSURD);
	assert_int_equal(parse("{\"v\":1,\"seq\":2,\"t_ns\":1,\"type\":\"result\","
			       "\"status\":\"pass\",\"pages_written\":1,"
			       "\"pages_verified\":1,\"pages_corrupt\":0,"
			       "\"first_corrupt\":-2}"), STREAM_E_ABSURD);
	assert_int_equal(st.absurd, 5);
}

static void test_too_long(void **state)
{
	char *buf = malloc(STREAM_MAX_LINE + 2);

	(void)state;
	assert_non_null(buf);
	memset(buf, ' ', STREAM_MAX_LINE + 1);
	assert_int_equal(stream_parse_line(&st, buf, STREAM_MAX_LINE + 1, &l),
			 STREAM_E_TOOLONG);
	assert_int_equal(st.too_long, 1);
	free(buf);
}

struct fed {
	int n, ok, toolong;
	uint64_t last_lineno;
};

static void on_line(void *ctx, const struct stream_line *line,
		    enum stream_err err, const char *raw, size_t len,
		    uint64_t lineno)
{
	struct fed *f = ctx;

	(void)raw;
	assert_true(len <= STREAM_MAX_LINE);
	f->n++;
	f->last_lineno = lineno;
	if (err == STREAM_OK)
		f->ok++;
	if (err == STREAM_E_TOOLONG) {
		f->toolong++;
		assert_null(line);
	}
}

static void test_feed_split(void **state)
{
	const char *s = SAMPLE(0, 1) "\n" SAMPLE(1, 2) "\n" SAMPLE(2, 3) "\n";
	struct fed f = { 0 };
	size_t i, n = strlen(s);
	char *big;

	(void)state;
	/* byte by byte: lines reassemble */
	for (i = 0; i < n; i++)
		stream_feed(&st, s + i, 1, on_line, &f);
	assert_int_equal(f.n, 3);
	assert_int_equal(f.ok, 3);
	/* an over-long line is skipped up to its newline, then parsing
	 * resumes
	 */
	big = malloc(3 * STREAM_MAX_LINE);
	assert_non_null(big);
	memset(big, 'x', 3 * STREAM_MAX_LINE);
	stream_feed(&st, big, 3 * STREAM_MAX_LINE, on_line, &f);
	s = "yy\n" SAMPLE(3, 4) "\n" SAMPLE(4, 5);
	stream_feed(&st, s, strlen(s), on_line, &f);
	free(big);
	assert_int_equal(f.toolong, 1);
	assert_int_equal(f.ok, 4);
	assert_int_equal(st.too_long, 1);
	/* the partial last line is parsed at the end */
	assert_true(stream_finish(&st, on_line, &f) > 0);
	assert_int_equal(f.ok, 5);
	assert_int_equal(f.last_lineno, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_all_types, setup),
		cmocka_unit_test_setup(test_backend_without_dev, setup),
		cmocka_unit_test_setup(test_command, setup),
		cmocka_unit_test_setup(test_cpu_psi_residency, setup),
		cmocka_unit_test_setup(test_cpu_psi_residency_bad, setup),
		cmocka_unit_test_setup(test_seq_gap_dup, setup),
		cmocka_unit_test_setup(test_pages_failed, setup),
		cmocka_unit_test_setup(test_swapin, setup),
		cmocka_unit_test_setup(test_swapin_bad, setup),
		cmocka_unit_test_setup(test_fault_lines, setup),
		cmocka_unit_test_setup(test_reset, setup),
		cmocka_unit_test_setup(test_bad_lines, setup),
		cmocka_unit_test_setup(test_absurd, setup),
		cmocka_unit_test_setup(test_too_long, setup),
		cmocka_unit_test_setup(test_feed_split, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
