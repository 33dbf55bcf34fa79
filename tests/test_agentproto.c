// SPDX-License-Identifier: GPL-2.0
/*
 * The agent protocol across both sides (common/agentproto.h): lines made
 * by the guest's emitters (guest/json.c, guest/gstat.c and guest/proto.c,
 * as agent.c, init.c and workload.c use them) fed to the host's parser
 * (src/model/stream.c) through stream_feed(), as run.c receives them. Every
 * line must be accepted with its meaning, and the longest line the guest
 * can send must be a line the host takes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stream.h"
#include "../common/agentproto.h"
#include "../common/planspec.h"
#include "../guest/ghist.h"
#include "../guest/gstat.h"
#include "../guest/json.h"
#include "../guest/proto.h"

static const char vmstat[] =
	"nr_free_pages 1000\npgpgin 10\npgpgout 20\npswpin 64\npswpout 128\n"
	"nrswpin 2\nnrswpout 4\npgmajfault 7\nswap_ra 3\nthp_swpout 0\n"
	"pgsteal_kswapd 5\npgscan_kswapd 9\nworkingset_refault_anon 1\n";
static const char swaps[] =
	"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	"/dev/vda                                partition\t524284\t\t512\t\t10\n"
	"/dev/zram0                              partition\t65532\t\t0\t\t5\n";
static const char blkstat[] =
	"       2        0       16        1      128        0     1024       10"
	"        0       12       11        0        0        0        0\n";
static const char mmstat[] = "  4096  1024  8192        0  8192        0        0        0\n";

/* the lines of one guest, in the order they arrive */
static char stream_text[16 * AGENT_LINE_MAX];
static size_t stream_len;
static uint64_t seq;

/* agent.c's own lines: v and seq first (its head()) */
static void agent_head(struct gj *j, char *buf, size_t cap, const char *type)
{
	gj_init(j, buf, cap);
	gj_obj_open(j, NULL);
	gj_u64(j, "v", AGENT_PROTO_VERSION);
	gj_u64(j, "seq", seq);
	gj_u64(j, "t_ns", 1000 + seq);
	gj_str(j, "type", type);
}

static void add_line(const char *line, int len)
{
	assert_true(len > 0 && len <= AGENT_LINE_MAX);
	assert_int_equal(line[len - 1], '\n');
	assert_true(stream_len + len < sizeof(stream_text));
	memcpy(stream_text + stream_len, line, len);
	stream_len += len;
	seq++;
}

static void agent_line(struct gj *j)
{
	gj_obj_close(j);
	add_line(j->buf, gj_finish(j));
}

/* a producer's line (init, workload) numbered by the agent */
static void producer_line(struct gj *j)
{
	static char out[GPROTO_LINE_MAX + 1];
	bool is_result;
	int n;

	gj_obj_close(j);
	n = gj_finish(j);
	assert_true(n > 0 && n <= AGENT_PRODUCER_LINE_MAX);
	n = gproto_wrap(j->buf, n - 1, seq, 4242, out, sizeof(out),
			&is_result);
	add_line(out, n);
}

/* the workload's swap-in latency histogram */
static struct ghist lat;

static void make_stream(void)
{
	static char buf[AGENT_LINE_MAX];
	struct gstat_swap sw[GSTAT_MAX_SWAPS];
	struct gj j;
	int i, nsw;

	stream_len = 0;
	seq = 0;
	agent_head(&j, buf, sizeof(buf), "hello");
	gj_str(&j, "kernel", "6.1.0-swapctl");
	gj_arr_open(&j, "counters");
	gstat_vmstat_names(&j, vmstat);
	gj_arr_close(&j);
	gj_u64(&j, "interval_ms", PLAN_INTERVAL_MS_DEF);
	agent_line(&j);

	gj_init(&j, buf, AGENT_PRODUCER_LINE_MAX);
	gj_line_start(&j, "log");
	gj_str(&j, "level", "info");
	gj_str(&j, "msg", "swapon /dev/vda");
	producer_line(&j);

	nsw = gstat_parse_swaps(swaps, sw, GSTAT_MAX_SWAPS);
	assert_int_equal(nsw, 2);
	gj_init(&j, buf, AGENT_PRODUCER_LINE_MAX);
	gj_line_start(&j, "swap");
	gj_arr_open(&j, "backends");
	for (i = 0; i < PLAN_BACKENDS; i++) {
		gj_obj_open(&j, NULL);
		gj_str(&j, "type", plan_backend_name(i));
		gj_str(&j, "name", i ? "/swap/file" : "/dev/vda");
		gj_str(&j, "dev", i == SWAP_NFSFILE ? "" : "vda");
		gj_u64(&j, "size_kb", 524284);
		gj_i64(&j, "prio", 10);
		gj_obj_close(&j);
	}
	gj_arr_close(&j);
	producer_line(&j);

	agent_head(&j, buf, sizeof(buf), "sample");
	gj_obj_open(&j, "vmstat");
	gstat_vmstat_members(&j, vmstat);
	gj_obj_close(&j);
	gj_obj_open(&j, "blk");
	assert_int_equal(gstat_blk_member(&j, "vda", blkstat), 0);
	gj_obj_close(&j);
	gj_arr_open(&j, "swaps");
	for (i = 0; i < nsw; i++)
		gstat_swap_element(&j, &sw[i]);
	gj_arr_close(&j);
	gj_obj_open(&j, "zram");
	assert_int_equal(gstat_mmstat_member(&j, "zram0", mmstat), 0);
	gj_obj_close(&j);
	gj_u64(&j, "agent_cpu_ns", 777);
	agent_line(&j);

	/* 100 swap-ins of 1..4 us (slowest 4 us: within the 5 us phase) */
	ghist_init(&lat);
	for (i = 0; i < 100; i++)
		ghist_add(&lat, 1 + (i % 4));
	for (i = 0; i < PLAN_PHASES; i++) {
		gj_init(&j, buf, AGENT_PRODUCER_LINE_MAX);
		gj_line_start(&j, "phase");
		gj_str(&j, "name", plan_phase_name(i));
		gj_str(&j, "state", "end");
		gj_i64(&j, "index", i);
		gj_u64(&j, "pages", 100);
		gj_u64(&j, "ns", 5000);
		gj_u64(&j, "corrupt", 0);
		gj_u64(&j, "failed", 0);
		ghist_members(&j, &lat);
		producer_line(&j);
	}
	/* the run's: a 3 s outlier beyond the top of a 1 s bucket */
	ghist_add(&lat, 3000000);

	gj_init(&j, buf, AGENT_PRODUCER_LINE_MAX);
	gj_line_start(&j, "result");
	gj_str(&j, "status", "pass");
	gj_u64(&j, "pages", 100);
	gj_u64(&j, "pages_written", 100);
	gj_u64(&j, "pages_verified", 200);
	gj_u64(&j, "pages_corrupt", 0);
	gj_u64(&j, "pages_corrupt_distinct", 0);
	gj_i64(&j, "first_corrupt", -1);
	gj_u64(&j, "pages_failed", 0);
	gj_u64(&j, "pages_failed_distinct", 0);
	gj_u64(&j, "seed", PLAN_SEED_MAX);
	gj_u64(&j, "unique_words", PLAN_UNIQUE_WORDS_MAX);
	ghist_members(&j, &lat);
	gj_str(&j, "reason", "");
	producer_line(&j);
}

struct seen {
	unsigned int n, bad;
	enum stream_type types[32];
	struct stream_line last_sample, last_result, last_swap, last_phase;
	char phases[PLAN_PHASES][32];
	unsigned int nphases;
};

static void on_line(void *ctx, const struct stream_line *l,
		    enum stream_err err, const char *raw, size_t len,
		    uint64_t lineno)
{
	struct seen *s = ctx;

	(void)lineno;
	if (err != STREAM_OK) {
		fprintf(stderr, "host refused line %u (%s): %.*s\n", s->n,
			stream_err_str(err), (int)len, raw);
		s->bad++;
	}
	if (!l)
		return;
	if (s->n < 32)
		s->types[s->n] = l->type;
	s->n++;
	if (l->type == STREAM_T_SAMPLE)
		s->last_sample = *l;
	else if (l->type == STREAM_T_RESULT)
		s->last_result = *l;
	else if (l->type == STREAM_T_SWAP)
		s->last_swap = *l;
	else if (l->type == STREAM_T_PHASE && s->nphases < PLAN_PHASES) {
		s->last_phase = *l;
		snprintf(s->phases[s->nphases++], 32, "%s", l->phase);
	}
}

static struct stream_state st;
static struct seen seen;

static void test_guest_lines_accepted(void **state)
{
	uint64_t v;
	int i;

	(void)state;
	make_stream();
	stream_init(&st);
	memset(&seen, 0, sizeof(seen));
	stream_feed(&st, stream_text, stream_len, on_line, &seen);
	assert_int_equal(stream_finish(&st, on_line, &seen), 0);
	assert_int_equal(seen.bad, 0);
	assert_int_equal(seen.n, 4 + PLAN_PHASES + 1);
	assert_int_equal(st.seq_gaps, 0);
	assert_int_equal(seen.types[0], STREAM_T_HELLO);
	assert_int_equal(seen.types[1], STREAM_T_LOG);

	/* the sample means what the guest measured */
	assert_true(stream_counter(&seen.last_sample, "pswpout", &v));
	assert_int_equal(v, 128);
	assert_true(stream_counter(&seen.last_sample, "nrswpout", &v));
	assert_int_equal(v, 4);
	assert_false(stream_counter(&seen.last_sample, "nr_free_pages", &v));
	assert_int_equal(seen.last_sample.nblk, 1);
	assert_string_equal(seen.last_sample.blk[0].dev, "vda");
	assert_int_equal(seen.last_sample.blk[0].wr_ios, 128);
	assert_int_equal(seen.last_sample.nswaps, 2);
	assert_int_equal(seen.last_sample.nzram, 1);
	assert_int_equal(seen.last_sample.agent_cpu_ns, 777);

	/* every backend and phase name of the plan is one the host knows */
	assert_int_equal(seen.last_swap.nswaps, PLAN_BACKENDS);
	for (i = 0; i < PLAN_BACKENDS; i++)
		assert_string_equal(seen.last_swap.swaps[i].type,
				    plan_backend_name(i));
	assert_int_equal(seen.nphases, PLAN_PHASES);
	for (i = 0; i < PLAN_PHASES; i++)
		assert_string_equal(seen.phases[i], plan_phase_name(i));

	assert_int_equal(seen.last_result.status, STREAM_PASS);
	assert_int_equal(seen.last_result.pages_verified, 200);
	assert_int_equal(seen.last_result.first_corrupt, -1);
	assert_true(seen.last_result.has_agent_cpu);
	assert_int_equal(seen.last_result.agent_cpu_ns, 4242);

	/* swap-in latency: the histogram's figures, as sent */
	assert_true(seen.last_phase.has_swapin);
	assert_int_equal(seen.last_phase.swapin_faults, 100);
	assert_int_equal(seen.last_phase.swapin_p50_us, 2);
	assert_int_equal(seen.last_phase.swapin_p99_us, 4);
	assert_int_equal(seen.last_phase.swapin_max_us, 4);
	assert_true(seen.last_result.has_swapin);
	assert_int_equal(seen.last_result.swapin_faults, 101);
	assert_int_equal(seen.last_result.swapin_p99_us, 4);
	assert_int_equal(seen.last_result.swapin_max_us, 3000000);
}

/* The longest line the agent can send is one the host accepts whole. */
static void test_longest_line(void **state)
{
	static char in[AGENT_LINE_MAX + 16], out[GPROTO_LINE_MAX + 1];
	struct stream_line *l = malloc(sizeof(*l));
	size_t head, pad;
	bool res;
	int n;

	(void)state;
	assert_non_null(l);
	/* find the padding that makes the wrapped line AGENT_LINE_MAX long */
	head = strlen("{\"v\":1,\"seq\":0,\"t_ns\":1,\"type\":\"log\",\"level\":\"info\",\"msg\":\"\"}\n");
	pad = AGENT_LINE_MAX - head;
	n = snprintf(in, sizeof(in),
		     "{\"t_ns\":1,\"type\":\"log\",\"level\":\"info\",\"msg\":\"%*s\"}",
		     (int)pad, "");
	assert_true(n > 0);
	n = gproto_wrap(in, (size_t)n, 0, 0, out, sizeof(out), &res);
	assert_int_equal(n, AGENT_LINE_MAX);
	stream_init(&st);
	assert_int_equal(stream_parse_line(&st, out, (size_t)n - 1, l),
			 STREAM_OK);
	assert_int_equal(strlen(l->msg), STREAM_MSG_MAX - 1);	/* clipped */

	/* one byte more: the guest refuses it, the host would too */
	n = snprintf(in, sizeof(in),
		     "{\"t_ns\":1,\"type\":\"log\",\"level\":\"info\",\"msg\":\"%*s\"}",
		     (int)pad + 1, "");
	assert_int_equal(gproto_wrap(in, (size_t)n, 0, 0, out, sizeof(out),
				     &res), GPROTO_TOOLONG);
	memset(in, ' ', AGENT_LINE_MAX);
	assert_int_equal(stream_parse_line(&st, in, AGENT_LINE_MAX, l),
			 STREAM_E_TOOLONG);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_lines_accepted),
		cmocka_unit_test(test_longest_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
