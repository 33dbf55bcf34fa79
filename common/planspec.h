/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan contract: what src/plan.c writes into /swapctl/plan and
 * guest/gplan.c reads, and what a scenario (src/scenario.c) may ask for.
 * Both sides include this one header, so that the backend and phase
 * names, the limits and the defaults cannot drift apart; swapctl-agent(7)
 * and swapctl-scenario(5) state the same numbers (tests/test_plan.c
 * checks that both sides accept the limits and refuse one more).
 *
 * Header only (static inline), so that neither side links the other's
 * objects; no libc beyond <string.h>.
 */
#ifndef SWAPCTL_COMMON_PLANSPEC_H
#define SWAPCTL_COMMON_PLANSPEC_H

#include <stdint.h>
#include <string.h>

#define PLAN_VERSION		1
#define PLAN_GUEST_PATH		"/swapctl/plan"

/* the text: lines (with '\n') and words per line */
#define PLAN_LINE_MAX		1024
#define PLAN_WORDS_MAX		16

/* how many of each directive a plan (and so a scenario) may hold */
#define PLAN_MAX_SWAP		8
#define PLAN_MAX_SYSCTL		32
#define PLAN_MAX_KV		8	/* thp, zswap settings */
#define PLAN_MAX_PHASES		64
/*
 * command workloads: groups, argv words and environment entries per
 * group, output patterns, and the bytes of one decoded string (with NUL)
 */
#define PLAN_MAX_GROUPS		8
#define PLAN_MAX_ARGS		32
#define PLAN_MAX_ENV		16
#define PLAN_MAX_OUT		8
#define PLAN_STR_MAX		256

/* ranges and defaults */
#define PLAN_INTERVAL_MS_MIN	10
#define PLAN_INTERVAL_MS_MAX	60000
#define PLAN_INTERVAL_MS_DEF	100
#define PLAN_TIMEOUT_S_MIN	5
#define PLAN_TIMEOUT_S_MAX	86400
#define PLAN_TIMEOUT_S_DEF	300
#define PLAN_MB_MAX		(1u << 20)	/* any size in MiB: 1 TiB */
#define PLAN_PRIO_MAX		32767		/* swapon(2) */
/* seeds fit in 32 bits: exact in every JSON reader of the results */
#define PLAN_SEED_MAX		UINT32_MAX
#define PLAN_SEED_DEF		12345
#define PLAN_RAM_MIN		0.01	/* size_ram=, pressure ram= */
#define PLAN_RAM_MAX		64.0
/* unique_words: 1..512 64-bit words of a 4 KiB page; 512 = all random */
#define PLAN_UNIQUE_WORDS_MAX	512
#define PLAN_REWRITE_FRAC_DEF	0.25

/* Swap backends, in the plan's "swap type=NAME" and a scenario's "type". */
enum plan_backend {
	SWAP_BLK,		/* a whole virtio-blk disk */
	SWAP_ZRAM,		/* a zram device */
	SWAP_EXT4FILE,		/* a swap file on ext4 on a virtio-blk disk */
	SWAP_NFSFILE,		/* a swap file on NFS from the host */
};
#define PLAN_BACKENDS	(SWAP_NFSFILE + 1)	/* the last one + 1 */

/* Workload phases, in "phase NAME" and a scenario's "phases". */
enum plan_phase {
	PHASE_FILL,		/* must be the first */
	PHASE_PAGEOUT,
	PHASE_PRESSURE,
	PHASE_READ,
	PHASE_WILLNEED,
	PHASE_REWRITE,
};
#define PLAN_PHASES	(PHASE_REWRITE + 1)	/* the last one + 1 */

static inline const char *plan_backend_name(enum plan_backend b)
{
	static const char *const names[PLAN_BACKENDS] = {
		[SWAP_BLK] = "blk", [SWAP_ZRAM] = "zram",
		[SWAP_EXT4FILE] = "ext4file", [SWAP_NFSFILE] = "nfsfile",
	};

	return (unsigned int)b < PLAN_BACKENDS ? names[b] : "?";
}

static inline const char *plan_phase_name(enum plan_phase p)
{
	static const char *const names[PLAN_PHASES] = {
		[PHASE_FILL] = "fill", [PHASE_PAGEOUT] = "pageout",
		[PHASE_PRESSURE] = "pressure", [PHASE_READ] = "read",
		[PHASE_WILLNEED] = "willneed", [PHASE_REWRITE] = "rewrite",
	};

	return (unsigned int)p < PLAN_PHASES ? names[p] : "?";
}

/* The backend called @name, or -1. */
static inline int plan_backend_parse(const char *name)
{
	int b;

	for (b = 0; b < PLAN_BACKENDS; b++)
		if (!strcmp(name, plan_backend_name(b)))
			return b;
	return -1;
}

/* The phase called @name, or -1. */
static inline int plan_phase_parse(const char *name)
{
	int p;

	for (p = 0; p < PLAN_PHASES; p++)
		if (!strcmp(name, plan_phase_name(p)))
			return p;
	return -1;
}

#endif
