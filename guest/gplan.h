/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-run plan: /swapctl/plan in the guest, one directive per line.
 * See doc/HACKING.md "Guest initramfs and the per-run plan" and
 * swapctl-agent(7). Parsing is pure (no I/O) so that it can be unit-tested.
 */
#ifndef GUEST_GPLAN_H
#define GUEST_GPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/planspec.h"

/* the contract's numbers (common/planspec.h), by the guest's names */
#define GPLAN_VERSION		PLAN_VERSION
#define GPLAN_MAX_LINE		PLAN_LINE_MAX
#define GPLAN_MAX_SYSCTL	PLAN_MAX_SYSCTL
#define GPLAN_MAX_KV		PLAN_MAX_KV
#define GPLAN_MAX_MTHP		PLAN_MAX_MTHP
#define GPLAN_MAX_SWAP		PLAN_MAX_SWAP
#define GPLAN_MAX_PHASE		PLAN_MAX_PHASES
#define GPLAN_MAX_FAULT		PLAN_MAX_FAULTS
#define GPLAN_MAX_BAD_SLOTS	PLAN_MAX_BAD_SLOTS
#define GPLAN_KEY_LEN		64
#define GPLAN_VAL_LEN		128
#define GPLAN_PATH_LEN		128
#define GPLAN_ERR_LEN		256

#define GPLAN_MAX_GROUP		PLAN_MAX_GROUPS	/* command groups */
#define GPLAN_MAX_ARGS		PLAN_MAX_ARGS	/* argv words per group */
#define GPLAN_MAX_ENV		PLAN_MAX_ENV	/* environment entries per group */
#define GPLAN_MAX_OUT		PLAN_MAX_OUT	/* output patterns per group */
#define GPLAN_STR_LEN		PLAN_STR_MAX	/* decoded argv word, env, path */

#define GPLAN_DEF_INTERVAL_MS	PLAN_INTERVAL_MS_DEF
#define GPLAN_DEF_TIMEOUT_S	PLAN_TIMEOUT_S_DEF

struct gplan_kv {
	char key[GPLAN_KEY_LEN];
	char val[GPLAN_VAL_LEN];
};

/* "mthp size_kb=K enabled=P": hugepages-<K>kB/enabled = P */
struct gplan_mthp {
	unsigned int size_kb;
	char enabled[16];
};

struct gplan_swap {
	enum plan_backend type;
	int prio;		/* -1: kernel default */
	uint64_t size_mb;	/* 0 for blk: the whole disk */
	char dev[GPLAN_PATH_LEN];	/* blk, ext4file */
	char comp[GPLAN_VAL_LEN];	/* zram; "" = kernel default */
	uint64_t mem_limit_mb;		/* zram; 0 = no limit */
	char server[GPLAN_VAL_LEN];	/* nfsfile */
	char export[GPLAN_PATH_LEN];	/* nfsfile */
	char vers[16];			/* nfsfile */
	char file[GPLAN_VAL_LEN];	/* nfsfile: made by the host, "" = none */
	unsigned int port;		/* nfsfile */
	bool nonrot;			/* blk: mark the disk non-rotational */
};

struct gplan_phase {
	enum plan_phase type;
	bool random;		/* read: order=random */
	uint64_t mb;		/* pressure: MiB, 0 when ram= is used */
	double ram;		/* pressure: multiple of MemTotal */
	double frac;		/* rewrite: fraction of pages */
	bool wait_writeback;	/* pageout: wait=writeback */
	bool drain_lru;		/* pageout: drain=lru */
};

/* A fault the guest injects itself (the host does the NFS ones). */
struct gplan_fault {
	enum plan_fault kind;
	unsigned int index;	/* position in the scenario's faults */
	int swap;		/* backend index; -1: none (oom) */
	enum plan_trigger trig;
	uint64_t at;		/* phase index, ms (TRIG_AFTER_TIME) or I/Os */
	uint64_t duration_ms;	/* 0: until the workload ends */
	int until_phase;	/* ends when this phase starts, -1 */
	/* io_error */
	enum plan_fault_op op;
	uint64_t slot, nslots;	/* read: bad swap slots [slot, slot+nslots) */
	unsigned int probability;	/* both: percent of I/Os failed */
	uint64_t times;		/* both: at most this many (0: no limit) */
	uint64_t interval;	/* both: every interval-th I/O at most */
	/* swap_churn */
	uint64_t period_ms;
	/*
	 * slab_error: probability (percent of allocations), times and
	 * interval above as for io_error both, and these
	 */
	enum plan_slab_tasks tasks;
	bool atomic_only;
	int ncaches;		/* 0: every slab cache */
	char caches[PLAN_SLAB_MAX_CACHES][PLAN_SLAB_CACHE_LEN + 1];
};

/*
 * One command group: a command and the cgroup v2 limits it runs under
 * (0 = no limit, except swap_max: see has_swap_max). Strings are decoded
 * (the plan carries them %XX-escaped).
 */
struct gplan_group {
	char name[GPLAN_KEY_LEN];
	uint64_t memory_max_mb;
	uint64_t memory_high_mb;
	uint64_t swap_max_mb;
	bool has_swap_max;
	unsigned int cpus;		/* 0: every CPU */
	unsigned int cpu_max_pct;	/* cpu.max in % of a CPU; 0: cpus */
	unsigned int cpu_max_period_ms;	/* its period; 0: 100 ms */
	/* io.max per enum plan_io_limit (rbps...); 0: no limit */
	uint64_t io_max[PLAN_IO_LIMITS];
	char cwd[GPLAN_STR_LEN];	/* "" = / */
	int nargs;
	char args[GPLAN_MAX_ARGS][GPLAN_STR_LEN];
	int nenv;
	char env[GPLAN_MAX_ENV][GPLAN_STR_LEN];		/* KEY=VALUE */
	int nout;
	char out[GPLAN_MAX_OUT][GPLAN_STR_LEN];		/* glob patterns */
};

struct gplan {
	int version;
	unsigned int interval_ms;
	unsigned int timeout_s;

	int nsysctl;
	struct gplan_kv sysctl[GPLAN_MAX_SYSCTL];
	int nthp;
	struct gplan_kv thp[GPLAN_MAX_KV];
	int nzswap;
	struct gplan_kv zswap[GPLAN_MAX_KV];
	int nmthp;
	struct gplan_mthp mthp[GPLAN_MAX_MTHP];

	int nswap;
	struct gplan_swap swap[GPLAN_MAX_SWAP];

	bool has_net;
	uint32_t net_addr;	/* host byte order */
	int net_prefix;
	uint32_t net_gw;	/* host byte order, 0 = none */

	bool has_workload;
	uint64_t seed;
	uint64_t size_mb;	/* 0 when size_ram is used */
	double size_ram;	/* multiple of MemTotal */
	uint64_t shmem_mb;
	bool thp_area;
	unsigned int uniq_words;	/* 1..512, default 512 */

	int nphase;
	struct gplan_phase phase[GPLAN_MAX_PHASE];

	bool has_verify_seed;
	uint64_t verify_seed;

	int nfault;
	struct gplan_fault fault[GPLAN_MAX_FAULT];
	/* hostroot: the host's root shared read-only over 9p */
	bool has_hostroot;
	char hostroot_tag[GPLAN_KEY_LEN];

	/* command: run groups instead of the synthetic workload */
	bool has_command;
	bool reference;		/* first a reference run without limits */
	int ngroup;
	struct gplan_group group[GPLAN_MAX_GROUP];
};

/*
 * Parse the NUL-terminated plan @text into @p. On error returns -1 and
 * writes "line N: what is wrong" into @err. Missing optional directives take
 * their defaults; a plan without phases gets fill, pageout, read seq,
 * read random.
 */
int gplan_parse(const char *text, struct gplan *p, char *err, size_t errlen);

/* The io_error fault of backend @swap with op read or write, or NULL. */
const struct gplan_fault *gplan_dm_fault(const struct gplan *p, int swap);

/*
 * Decode a %XX-escaped plan word into @out (@len bytes). -1 on a bad
 * escape, an escaped NUL or when it does not fit.
 */
int gplan_unescape(const char *in, char *out, size_t len);

/* Sysctl key "vm.page-cluster" -> "/proc/sys/vm/page-cluster". */
int gplan_sysctl_path(const char *key, char *buf, size_t len);

#endif
