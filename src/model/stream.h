/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream: a defensive parser of the agent's line protocol (version 1,
 * doc/HACKING.md "Agent protocol") and of the host lines of samples.jsonl.
 *
 * One call parses one line into a struct stream_line; a struct
 * stream_state carries what one stream (one guest) has seen so far: the
 * next expected seq, the previous sample (to see counters going
 * backwards) and the validation counters. Nothing here trusts its input:
 * lines are bounded, every field is type-checked, numbers must be
 * integers in [0, 2^53] (first_corrupt and prio may be negative), and no
 * input makes it crash.
 */
#ifndef SWAPCTL_STREAM_H
#define SWAPCTL_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/agentproto.h"

/* bytes of a line without its '\n': the protocol's limit less the '\n' */
#define STREAM_MAX_LINE		(AGENT_LINE_MAX - 1)
/*
 * counters kept per sample: the wanted /proc/vmstat fields (about 40 on
 * 6.12) and the per-size mTHP stats made counters (mthp_<size>_<stat>)
 */
#define STREAM_MAX_COUNTERS	96
#define STREAM_MAX_DEVS		8	/* blk devices kept per sample */
#define STREAM_MAX_SWAPS	8	/* swap areas kept per line */
#define STREAM_MAX_ZRAM		4	/* zram devices kept per sample */
#define STREAM_NAME_MAX		48	/* counter/device name, with NUL */
#define STREAM_PATH_MAX		128	/* swap area name, with NUL */
#define STREAM_MSG_MAX		256	/* log msg / result reason, with NUL */
#define STREAM_VALUE_MAX	(1ULL << 53)	/* larger is absurd */
/* "values" of a result or command end line: the workload's own figures */
#define STREAM_MAX_VALUES	16

enum stream_type {
	STREAM_T_NONE = 0,
	STREAM_T_HELLO,
	STREAM_T_LOG,
	STREAM_T_SWAP,
	STREAM_T_SAMPLE,
	STREAM_T_PHASE,
	STREAM_T_RESULT,
	STREAM_T_HOST,		/* added by the host, no "v" nor "seq" */
	STREAM_T_FAULT,		/* a fault starts or ends: from the guest,
				 * or from the host (then no "v" nor "seq")
				 */
	STREAM_T_COMMAND,	/* a command run started or ended */
};

enum stream_err {
	STREAM_OK = 0,
	STREAM_E_TOOLONG,	/* longer than STREAM_MAX_LINE */
	STREAM_E_JSON,		/* not a JSON object, or duplicate keys */
	STREAM_E_FIELD,		/* a field missing or of the wrong type */
	STREAM_E_ABSURD,	/* a number negative or beyond 2^53 */
	STREAM_E_VERSION,	/* "v" is not 1 */
	STREAM_E_TYPE,		/* unknown "type" */
	STREAM_E_SEQ,		/* seq duplicate or going backwards (the
				 * line is parsed but must be ignored)
				 */
};

struct stream_counter {
	char name[STREAM_NAME_MAX];
	uint64_t value;
};

/*
 * Guest lines fill rd/wr_ios, rd/wr_sectors, in_flight; host lines fill
 * rd/wr_ios (from rd_req/wr_req) and rd/wr_bytes.
 */
struct stream_blk {
	char dev[STREAM_NAME_MAX];
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, in_flight;
	uint64_t rd_bytes, wr_bytes;
};

/* An entry of "swaps" (sample) or of "backends" (swap line). */
struct stream_swap {
	char name[STREAM_PATH_MAX];
	char type[16];			/* backends only: blk, zram... */
	char dev[STREAM_NAME_MAX];	/* backends only, may be "" */
	uint64_t used_kb;		/* samples only */
	uint64_t size_kb;
	int64_t prio;
	bool has_prio;
};

struct stream_zram {
	char name[STREAM_NAME_MAX];
	uint64_t orig_data_size, compr_data_size, mem_used_total;
	uint64_t huge_pages;		/* mm_stat's 8th field, if given */
	bool has_huge_pages;
};

/* Guest CPU time from the "cpu " line of /proc/stat, in nanoseconds. */
struct stream_cpu {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* the members of a command end line's "memstat" (cgroup memory.stat) */
enum stream_cg_stat {
	STREAM_CG_REFAULT_ANON,	/* workingset_refault_anon */
	STREAM_CG_PGSCAN,
	STREAM_CG_PGSTEAL,
	STREAM_CG_ZSWPOUT,
	STREAM_CG_NSTATS,
};
extern const char *const stream_cg_stat_names[STREAM_CG_NSTATS];

enum stream_phase_state { STREAM_PHASE_START, STREAM_PHASE_END };
/* STREAM_OOM: the OOM killer took the workload (init says so) */
enum stream_status { STREAM_PASS, STREAM_CORRUPT, STREAM_ERROR, STREAM_OOM };

struct stream_line {
	enum stream_type type;
	bool has_seq;			/* false for host lines */
	uint64_t seq;
	uint64_t t_ns;			/* guest, or host, monotonic */

	/*
	 * hello: the counters the kernel has (values 0); sample: vmstat,
	 * and each member of "mthp" ({"64kB":{"swpout":N,..},..}, the
	 * hugepages-<size>/stats/ files) as counter "mthp_64kB_swpout"
	 */
	char kernel[64];
	uint64_t interval_ms;
	struct stream_counter counters[STREAM_MAX_COUNTERS];
	unsigned int ncounters;

	/* sample (guest stats) and host (virDomainBlockStats) */
	struct stream_blk blk[STREAM_MAX_DEVS];
	unsigned int nblk;
	/* sample: "swaps"; swap line: "backends" */
	struct stream_swap swaps[STREAM_MAX_SWAPS];
	unsigned int nswaps;
	struct stream_zram zram[STREAM_MAX_ZRAM];
	unsigned int nzram;
	uint64_t agent_cpu_ns;		/* sample and result */
	bool has_agent_cpu;
	/* sample: "cpu_ns" (all eight members) */
	struct stream_cpu cpu;
	bool has_cpu;
	/* sample: "psi" of /proc/pressure/memory, totals in microseconds */
	uint64_t psi_some_us, psi_full_us;
	bool has_psi, has_psi_full;
	/*
	 * sample: "mem", gauges in KiB: free memory, the zones' min
	 * watermarks summed (boost included), memory under writeback
	 */
	uint64_t mem_free_kb, mem_min_kb, mem_writeback_kb;
	bool has_mem;
	/* host: "cpu_ns" the guest's QEMU used on the host */
	uint64_t host_cpu_ns, host_cpu_user_ns, host_cpu_sys_ns;
	bool has_host_cpu, has_host_cpu_split;

	/* log */
	char level[16];
	/* log msg, result reason; unprintable bytes become '?' */
	char msg[STREAM_MSG_MAX];
	/* phase; fault: the fault's name (io_error, nfs_stall...) */
	char phase[32];
	/* phase and fault: start or end; fault detail goes in msg */
	enum stream_phase_state phase_state;
	bool phase_has_stats;		/* pages/ns/corrupt present */
	uint64_t pages, ns, corrupt;
	/*
	 * end of a push-out phase (pageout, pressure, rewrite): pages of the
	 * area asked to go, resident (mincore) before and after, evicted =
	 * before - after. resident_before, resident <= asked; evicted <=
	 * resident_before.
	 */
	bool phase_has_residency;
	uint64_t asked, resident_before, resident, evicted;
	uint64_t failed;		/* phase end: pages that failed (SIGBUS) */
	/*
	 * end of a verifying phase (read, willneed) and result: swap-in
	 * latency (common/agentproto.h), all four or none: faults <= pages
	 * (result: pages_verified), p50 <= p99 <= max, max <= ns / 1000
	 * (result: t_ns / 1000), and all 0 when faults is 0
	 */
	bool has_swapin;
	uint64_t swapin_faults, swapin_p50_us, swapin_p99_us, swapin_max_us;
	int64_t phase_index;		/* phase, fault: -1 if not given */
	/* fault end: the failures it injected (slab_error), if given */
	bool has_injected;
	uint64_t injected;
	/* result */
	enum stream_status status;
	uint64_t pages_written, pages_verified, pages_corrupt;
	int64_t first_corrupt;		/* -1: none */
	/* result: pages whose swap-in failed loudly (SIGBUS), 0 if absent */
	uint64_t pages_failed, pages_failed_distinct;
	bool has_pages_failed;
	/* result of a command workload (has_commands) */
	bool has_commands;
	uint64_t commands, commands_failed, outputs_compared, outputs_differ;
	bool has_host_root_ro, host_root_ro;

	/* command: one run of a group (also uses phase_state and ns) */
	char group[32];
	bool cmd_reference;		/* the reference run, else limited */
	int64_t cmd_exit;		/* -1: killed */
	uint64_t cmd_signal, cmd_outputs, memory_peak_kb, oom_kill;
	/* command end: the run's CPU time (getrusage), if given */
	uint64_t cmd_user_ns, cmd_sys_ns;
	bool has_cmd_cpu;
	/*
	 * command end: its cgroup's memory.stat "memstat", STREAM_CG_*;
	 * bit (1 << i) of cg_has set when member i was given
	 */
	uint64_t cg_stat[STREAM_CG_NSTATS];
	unsigned int cg_has;
	char outputs_sha256[65];	/* "" when no outputs */

	/*
	 * result and command end: "values", what the workload measured
	 * itself by name (zswap's debugfs, a command's swapctl-value lines:
	 * redis-benchmark's requests/s...), integers
	 */
	struct stream_counter values[STREAM_MAX_VALUES];
	unsigned int nvalues;

	/* set by validation against the stream's previous lines */
	uint64_t seq_missing;		/* lines lost just before this one */
	bool reset;			/* a counter went backwards */
	unsigned int dropped;		/* entries beyond the table sizes */
};

struct stream_state {
	/* validation counters */
	uint64_t lines;			/* every line seen */
	uint64_t ok;			/* returned STREAM_OK */
	uint64_t malformed;		/* E_JSON, E_FIELD, E_VERSION, E_TYPE */
	uint64_t too_long;		/* E_TOOLONG */
	uint64_t absurd;		/* E_ABSURD */
	uint64_t seq_gaps;		/* times seq jumped forward */
	uint64_t seq_missing;		/* lines lost in those jumps */
	uint64_t seq_dups;		/* E_SEQ */
	uint64_t resets;		/* lines where a counter went back */
	uint64_t time_backwards;	/* guest t_ns going backwards */
	uint64_t dropped;		/* table entries dropped */
	enum stream_err last_err;
	/* what was wrong with the last bad line, one line of text */
	char last_error[160];

	/* internal */
	bool seen_seq;
	uint64_t next_seq;
	uint64_t last_guest_t_ns;
	bool have_sample, have_host;
	struct stream_line prev_sample, prev_host;
	char buf[STREAM_MAX_LINE + 1];	/* stream_feed's partial line */
	size_t buflen;
	bool discarding;		/* inside an over-long line */
	uint64_t lineno;		/* lines fed through stream_feed */
};

/* Reset @st to a fresh stream. */
void stream_init(struct stream_state *st);

/*
 * Parse one line of @len bytes (without its '\n'; the bytes need not be
 * NUL-terminated and may contain anything) into @out, validating it
 * against the stream state @st, whose counters are updated. Returns
 * STREAM_OK, or the reason the line is bad (st->last_error says more).
 * @out is fully written in every case; for STREAM_E_SEQ it holds the
 * parsed line.
 */
enum stream_err stream_parse_line(struct stream_state *st, const char *line,
				  size_t len, struct stream_line *out);

/*
 * Called by stream_feed for each complete line: @l is the parsed line
 * (NULL when the line was too long to parse), @err the result, @raw/@len
 * the line as received (without '\n'; at most STREAM_MAX_LINE bytes of
 * it), @lineno its 1-based number in the stream.
 */
typedef void (*stream_line_cb)(void *ctx, const struct stream_line *l,
			       enum stream_err err, const char *raw,
			       size_t len, uint64_t lineno);

/*
 * Feed @len bytes of a stream (any split: partial lines are kept in @st
 * until their '\n' arrives). Lines longer than STREAM_MAX_LINE are
 * counted as too long and skipped up to their '\n'. @cb may be NULL.
 */
void stream_feed(struct stream_state *st, const char *data, size_t len,
		 stream_line_cb cb, void *ctx);

/*
 * End of stream: a partial last line without '\n' is parsed as a line
 * (a file cut mid-line then counts as malformed). Returns the number of
 * bytes that were pending.
 */
size_t stream_finish(struct stream_state *st, stream_line_cb cb, void *ctx);

/* The value of vmstat counter @name in @l; false when absent. */
bool stream_counter(const struct stream_line *l, const char *name,
		    uint64_t *value);

/* The blk entry of device @dev in @l, or NULL. */
const struct stream_blk *stream_blk_find(const struct stream_line *l,
					 const char *dev);

const char *stream_err_str(enum stream_err err);
const char *stream_type_str(enum stream_type type);
const char *stream_status_str(enum stream_status status);

#endif
