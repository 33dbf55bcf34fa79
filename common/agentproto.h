/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent protocol contract (guest -> host, swapctl-agent(7)): what
 * guest/agent.c and guest/proto.c send and src/model/stream.c accepts, and the
 * channel src/run/domain.c gives the guest. Both sides include this header.
 */
#ifndef SWAPCTL_COMMON_AGENTPROTO_H
#define SWAPCTL_COMMON_AGENTPROTO_H

/* the "v" of every line; a line of another version is refused */
#define AGENT_PROTO_VERSION	1

/* the virtio-serial port (libvirt <target type='virtio' name=...>) */
#define AGENT_PORT_NAME		"org.swapctl.agent.0"

/* bytes of one protocol line, its '\n' included */
#define AGENT_LINE_MAX		8192

/*
 * bytes of a line init or the workload hand to the agent through the pipe
 * ('\n' included): at most PIPE_BUF, so that lines never interleave
 */
#define AGENT_PRODUCER_LINE_MAX	4096

/*
 * Swap-in latency: the end line of every verifying phase (read, willneed)
 * and the result line carry
 *
 *   "swapin_faults":N,"swapin_p50_us":P,"swapin_p99_us":Q,"swapin_max_us":M
 *
 * all four or none. Only one page in AGENT_SWAPIN_EVERY is a candidate,
 * chosen by a hash of its index (the same pages on every kernel and
 * repeat; guest/workload.c), so that the check costs the guest little
 * system time. N counts the
 * candidates' touches in the phase (result: in all verifying phases)
 * that found the page neither in RAM nor in the swap cache (mincore()
 * just before the touch), so that each is a
 * swap-in the workload waited for; a touch of a resident page (read
 * ahead, or never swapped out) is not timed, nor one that raised SIGBUS.
 * Each timed touch is the guest's CLOCK_MONOTONIC around one read of the
 * page's first byte, in whole microseconds (rounded down). P and Q are
 * the nearest-rank 50th and 99th percentiles of a histogram of
 * AGENT_LAT_BUCKETS buckets (guest/ghist.c), M the largest touch, exact.
 * The result line's histogram is the sum of the phases' histograms, so
 * its percentiles are those of every timed touch of the run, not a mean
 * of the phases' ones.
 *
 * Buckets: value v (us) below 2^AGENT_LAT_SUB_BITS has a bucket of its
 * own; above, the octave [2^k, 2^(k+1)) is cut into 2^AGENT_LAT_SUB_BITS
 * equal buckets, up to 2^AGENT_LAT_TOP_BITS us (16.8 s); beyond that one
 * overflow bucket. A percentile is its bucket's upper bound, but never
 * above M: it is exact below 64 us, else at least the true value and
 * less than 1/32 (3.1%) above it; in the overflow bucket it is M.
 *
 * Bounds the host enforces (src/model/stream.c): P <= Q <= M; N = 0
 * makes all three 0; in a phase N <= pages and M <= ns / 1000, in the
 * result N <= pages_verified and M <= t_ns / 1000.
 */
/*
 * One page in this many is a candidate for the swap-in timing: a
 * mincore() per page verified cost 9% more guest system CPU on zram-swap
 * (27.5 s -> 30.0 s under --icount 3); one in 8 still gives thousands of
 * samples (bdev-swap ~6400, so ~64 above the 99th percentile).
 */
#define AGENT_SWAPIN_EVERY	8

#define AGENT_LAT_SUB_BITS	5
#define AGENT_LAT_TOP_BITS	24
#define AGENT_LAT_BUCKETS	\
	((AGENT_LAT_TOP_BITS - AGENT_LAT_SUB_BITS + 1) << AGENT_LAT_SUB_BITS)

#endif
