/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan contract: what src/run/plan.c writes into /swapctl/plan and
 * guest/gplan.c reads, and what a scenario (src/run/scenario.c) may ask for.
 * Both sides include this one header, so that the backend, phase and
 * fault names, the limits and the defaults cannot drift apart; swapctl-agent(7)
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

/*
 * A command group's io.max (blk-throttle, CONFIG_BLK_DEV_THROTTLING): a
 * scenario's group "io_max" {"rbps", "wbps", "riops", "wiops"}, the plan's
 * io_rbps= io_wbps= io_riops= io_wiops= (absent: no limit of that kind),
 * written by the guest as "MAJ:MIN rbps=... wbps=..." into the group's
 * io.max for the whole disk under every active swap device. Bytes and
 * I/Os per second.
 */
#define PLAN_IO_BPS_MIN		4096ull
#define PLAN_IO_BPS_MAX		(1ull << 40)
#define PLAN_IO_IOPS_MIN	1ull
#define PLAN_IO_IOPS_MAX	(1ull << 24)
enum plan_io_limit { IO_RBPS, IO_WBPS, IO_RIOPS, IO_WIOPS };
#define PLAN_IO_LIMITS		(IO_WIOPS + 1)

/* The io.max key of limit @k (rbps, wbps, riops, wiops). */
static inline const char *plan_io_limit_name(enum plan_io_limit k)
{
	static const char *const names[PLAN_IO_LIMITS] = {
		[IO_RBPS] = "rbps", [IO_WBPS] = "wbps",
		[IO_RIOPS] = "riops", [IO_WIOPS] = "wiops",
	};

	return (unsigned int)k < PLAN_IO_LIMITS ? names[k] : "?";
}

/* The range of limit @k: bytes or I/Os per second. */
static inline unsigned long long plan_io_limit_min(enum plan_io_limit k)
{
	return k == IO_RBPS || k == IO_WBPS ? PLAN_IO_BPS_MIN : PLAN_IO_IOPS_MIN;
}

static inline unsigned long long plan_io_limit_max(enum plan_io_limit k)
{
	return k == IO_RBPS || k == IO_WBPS ? PLAN_IO_BPS_MAX : PLAN_IO_IOPS_MAX;
}

/*
 * A command group's cpu.max as a share of one CPU: a scenario's group
 * "cpu_max_pct", the plan's cpu_max_pct=, written as
 * "<pct * PERIOD / 100> PERIOD" (microseconds). At most 100 per CPU the
 * group may use. PERIOD is PLAN_CPU_PERIOD_US (the kernel's default) or
 * the group's "cpu_max_period_ms" (plan: cpu_max_period_ms=), which
 * cgroup v2 takes from 1 ms to 1 s; the quota must be at least 1 ms.
 */
#define PLAN_CPU_MAX_PCT_MIN	1
#define PLAN_CPU_MAX_PCT_MAX	6400
#define PLAN_CPU_PERIOD_US	100000
#define PLAN_CPU_PERIOD_MS_MIN	1
#define PLAN_CPU_PERIOD_MS_MAX	1000
#define PLAN_CPU_QUOTA_US_MIN	1000

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

/*
 * Per-size mTHP (multi-size THP, Linux 6.8 and later): a scenario's
 * "mthp" {"<KiB>": "<policy>"}, the plan's "mthp size_kb=K enabled=P"
 * lines, written by the guest into
 * /sys/kernel/mm/transparent_hugepage/hugepages-<K>kB/enabled. The sizes
 * of anonymous mTHP on x86-64: orders 2 to 9 of 4 KiB pages, a power of
 * two from 16 to 2048 KiB; at most one line per size.
 */
#define PLAN_MAX_MTHP		8
#define PLAN_MTHP_KB_MIN	16
#define PLAN_MTHP_KB_MAX	2048
/* the first kernel line with per-size mTHP: 6.8 */
#define PLAN_MTHP_LINE_MAJOR	6
#define PLAN_MTHP_LINE_MINOR	8
#define PLAN_MTHP_DIR		"/sys/kernel/mm/transparent_hugepage"

/* Whether @kb is an mTHP size: a power of two in [MIN, MAX]. */
static inline int plan_mthp_size_ok(unsigned long long kb)
{
	return kb >= PLAN_MTHP_KB_MIN && kb <= PLAN_MTHP_KB_MAX &&
	       !(kb & (kb - 1));
}

/* The policy called @name (always, inherit, madvise, never), or -1. */
static inline int plan_mthp_policy_parse(const char *name)
{
	static const char *const names[] = {
		"always", "inherit", "madvise", "never",
	};
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

/* Swap backends, in the plan's "swap type=NAME" and a scenario's "type". */
enum plan_backend {
	SWAP_BLK,		/* a whole virtio-blk disk */
	SWAP_ZRAM,		/* a zram device */
	SWAP_EXT4FILE,		/* a swap file on ext4 on a virtio-blk disk */
	SWAP_NFSFILE,		/* a swap file on NFS from the host */
	SWAP_BRD,		/* a RAM disk, brd (CONFIG_BLK_DEV_RAM) */
};
#define PLAN_BACKENDS	(SWAP_BRD + 1)	/* the last one + 1 */

/*
 * brd: its devices and their size are module parameters, read once when
 * the driver starts (built in: the kernel command line), so a scenario
 * may hold one brd backend; swapctl run boots the guest with
 * "brd.rd_nr=1 brd.rd_size=<size_mb * 1024>" (KiB) and the plan names
 * PLAN_BRD_DEV. brd keeps every page it stores in the guest's RAM,
 * uncompressed: at most the guest's memory.
 */
#define PLAN_BRD_DEV		"/dev/ram0"
#define PLAN_BRD_ARGS_FMT	"brd.rd_nr=1 brd.rd_size=%u"
#define PLAN_BRD_ARGS_MAX	sizeof("brd.rd_nr=1 brd.rd_size=4294967295")

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
		[SWAP_BRD] = "brd",
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

/*
 * Faults (swapctl-scenario(5) FAULTS): a scenario's "faults", the plan's
 * "fault" lines. The guest injects io_error, swapoff, swap_churn, oom and
 * slab_error; the host nfs_stall and nfs_restart (plan_fault_on_host),
 * which the plan never carries.
 */
#define PLAN_MAX_FAULTS		16
#define PLAN_MAX_BAD_SLOTS	4096	/* io_error read: slots count */
/*
 * slab_error (failslab): at most one per plan (failslab has one set of
 * settings); times fits failslab's atomic_t (without times the guest
 * writes PLAN_SLAB_TIMES_MAX, so that the count down still says how many
 * failures it injected); at most PLAN_SLAB_MAX_CACHES slab cache names
 * (the guest kernel's slub_debug=A,<cache>,... marks them), each at most
 * PLAN_SLAB_CACHE_LEN bytes of plan_slab_cache_char().
 */
#define PLAN_SLAB_TIMES_MAX	2147483647ull
#define PLAN_SLAB_MAX_CACHES	8
#define PLAN_SLAB_CACHE_LEN	32

/* Whether @c may be part of a slab cache name ("kmalloc-32", "zs_handle"). */
static inline int plan_slab_cache_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == ':';
}

/* Whether @name is a slab cache name a plan and a scenario may carry. */
static inline int plan_slab_cache_ok(const char *name)
{
	size_t n;

	for (n = 0; name[n]; n++)
		if (!plan_slab_cache_char(name[n]))
			return 0;
	return n > 0 && n <= PLAN_SLAB_CACHE_LEN;
}

/* slab_error "tasks": whose allocations fail */
enum plan_slab_tasks {
	SLAB_TASKS_WORKLOAD,	/* make-it-fail on the workload, task-filter */
	SLAB_TASKS_ALL,		/* every task (and interrupts) */
};
#define PLAN_SLAB_TASKS	(SLAB_TASKS_ALL + 1)

static inline const char *plan_slab_tasks_name(enum plan_slab_tasks t)
{
	static const char *const names[PLAN_SLAB_TASKS] = {
		[SLAB_TASKS_WORKLOAD] = "workload", [SLAB_TASKS_ALL] = "all",
	};

	return (unsigned int)t < PLAN_SLAB_TASKS ? names[t] : "?";
}

/* The slab_error tasks called @name, or -1. */
static inline int plan_slab_tasks_parse(const char *name)
{
	int t;

	for (t = 0; t < PLAN_SLAB_TASKS; t++)
		if (!strcmp(name, plan_slab_tasks_name(t)))
			return t;
	return -1;
}

enum plan_fault {
	FAULT_IO_ERROR,		/* swap I/O errors on a block backend */
	FAULT_NFS_STALL,	/* the NFS server stops answering (host) */
	FAULT_NFS_RESTART,	/* the NFS server killed, started again (host) */
	FAULT_SWAPOFF,		/* swapoff under load, swapon again after */
	FAULT_SWAP_CHURN,	/* swapoff/swapon in a loop */
	FAULT_OOM,		/* push the workload past RAM + swap */
	FAULT_SLAB_ERROR,	/* failslab: slab allocations fail */
};
#define PLAN_FAULTS	(FAULT_SLAB_ERROR + 1)	/* the last one + 1 */

/* io_error: which swap I/O fails, "op" */
enum plan_fault_op { FOP_READ, FOP_WRITE, FOP_BOTH };
#define PLAN_FAULT_OPS	(FOP_BOTH + 1)

/*
 * When a fault starts: a scenario's "trigger" {"phase"|"after_s"|
 * "after_swap_ios"}, the plan's phase=, after_ms= or after_swap_ios=.
 */
enum plan_trigger {
	TRIG_PHASE,		/* when workload phase @at (0-based) starts */
	TRIG_AFTER_TIME,	/* that long after the first phase started */
	TRIG_AFTER_SWAP_IOS,	/* after @at swap I/Os (nrswpin + nrswpout) */
};
#define PLAN_TRIGGERS	(TRIG_AFTER_SWAP_IOS + 1)

static inline const char *plan_fault_name(enum plan_fault k)
{
	static const char *const names[PLAN_FAULTS] = {
		[FAULT_IO_ERROR] = "io_error", [FAULT_NFS_STALL] = "nfs_stall",
		[FAULT_NFS_RESTART] = "nfs_restart",
		[FAULT_SWAPOFF] = "swapoff", [FAULT_SWAP_CHURN] = "swap_churn",
		[FAULT_OOM] = "oom", [FAULT_SLAB_ERROR] = "slab_error",
	};

	return (unsigned int)k < PLAN_FAULTS ? names[k] : "?";
}

static inline const char *plan_fault_op_name(enum plan_fault_op op)
{
	static const char *const names[PLAN_FAULT_OPS] = {
		[FOP_READ] = "read", [FOP_WRITE] = "write", [FOP_BOTH] = "both",
	};

	return (unsigned int)op < PLAN_FAULT_OPS ? names[op] : "?";
}

/* The plan's key of a trigger (its value: phase index, ms, swap I/Os). */
static inline const char *plan_trigger_key(enum plan_trigger t)
{
	static const char *const keys[PLAN_TRIGGERS] = {
		[TRIG_PHASE] = "phase", [TRIG_AFTER_TIME] = "after_ms",
		[TRIG_AFTER_SWAP_IOS] = "after_swap_ios",
	};

	return (unsigned int)t < PLAN_TRIGGERS ? keys[t] : "?";
}

/* Whether the host injects fault @k (on its NFS server), not the guest. */
static inline int plan_fault_on_host(enum plan_fault k)
{
	return k == FAULT_NFS_STALL || k == FAULT_NFS_RESTART;
}

/* The fault called @name, or -1. */
static inline int plan_fault_parse(const char *name)
{
	int k;

	for (k = 0; k < PLAN_FAULTS; k++)
		if (!strcmp(name, plan_fault_name(k)))
			return k;
	return -1;
}

/* The io_error op called @name, or -1. */
static inline int plan_fault_op_parse(const char *name)
{
	int op;

	for (op = 0; op < PLAN_FAULT_OPS; op++)
		if (!strcmp(name, plan_fault_op_name(op)))
			return op;
	return -1;
}

/* The trigger whose plan key is @key, or -1. */
static inline int plan_trigger_parse(const char *key)
{
	int t;

	for (t = 0; t < PLAN_TRIGGERS; t++)
		if (!strcmp(key, plan_trigger_key(t)))
			return t;
	return -1;
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
