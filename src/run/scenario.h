/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenario files: what `swapctl run` boots, with which swap backends and
 * which workload. The format is documented in swapctl-scenario(5).
 */
#ifndef SWAPCTL_SCENARIO_H
#define SWAPCTL_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/planspec.h"

/* a scenario holds what one plan can (common/planspec.h) */
#define SCN_MAX_SWAP	PLAN_MAX_SWAP
#define SCN_MAX_SYSCTL	PLAN_MAX_SYSCTL
#define SCN_MAX_MTHP	PLAN_MAX_MTHP
#define SCN_MAX_PHASES	PLAN_MAX_PHASES
#define SCN_MAX_EXPECT	16
#define SCN_NAME_MAX	48
#define SCN_MAX_FAULTS	PLAN_MAX_FAULTS
#define SCN_MAX_BAD_SLOTS	PLAN_MAX_BAD_SLOTS
#define SCN_DESC_MAX	511	/* bytes of "description" */
#define SCN_MAX_KERNELS	32
#define SCN_KERNEL_MAX	33	/* a kernel name, with NUL */
#define SCN_METRIC_MAX	40	/* a metric key, with NUL */
#define SCN_MAX_NOREG	32
#define SCN_MAX_GROUPS	PLAN_MAX_GROUPS	/* command groups */
#define SCN_MAX_ARGS	PLAN_MAX_ARGS
#define SCN_MAX_ENV	PLAN_MAX_ENV
#define SCN_MAX_OUT	PLAN_MAX_OUT
#define SCN_STR_MAX	PLAN_STR_MAX	/* argv word, env entry, path, with NUL */

/*
 * The kernel "patched" is the variant named by `series` in swapctl.conf
 * (default swap-ops); any other name is the variant of that name under
 * <workdir>/kernels/ (baseline, swap-ops, bhe-ops, ...).
 */
#define SCN_PATCHED	"patched"

struct scn_swap {
	enum plan_backend type;
	unsigned int size_mb;	/* swap area size */
	unsigned int disk_mb;	/* ext4file: size of the disk image */
	int prio;		/* -1: the kernel's default */
	char comp[32];		/* zram compressor, "" = kernel default */
	uint32_t mem_limit_mb;	/* zram mem_limit, 0 = none */
	char vers[8];		/* nfsfile: "4.0", "4.1" or "4.2" */
	char dev[16];		/* blk/ext4file: "vda", "vdb"... (derived) */
	bool nonrot;		/* blk: tell the guest the disk is not rotational */
};

/* "mthp": {"64": "always"}: hugepages-64kB/enabled in the guest */
struct scn_mthp {
	unsigned int size_kb;
	char enabled[16];
};

struct scn_sysctl {
	char key[64];		/* "vm.swappiness" */
	char value[64];
};

struct scn_phase {
	enum plan_phase kind;
	unsigned int mb;	/* pressure */
	bool random;		/* read: order=random */
	double frac;		/* rewrite */
	bool wait_writeback;	/* pageout: until nr_writeback is 0 */
	bool drain_lru;		/* pageout: drain the per-CPU LRU batches */
};

/*
 * An expectation: metric @metric of kernel @kernel ("" = every guest of
 * every kernel) within [min, max]; with @vs, the ratio of @kernel's mean
 * to @vs's mean within [min_ratio, max_ratio] (kept in min/max).
 */
struct scn_expect {
	char metric[SCN_METRIC_MAX];
	char kernel[SCN_KERNEL_MAX];
	char vs[SCN_KERNEL_MAX];
	bool has_min, has_max;
	double min, max;
};

/* Faults (swapctl-scenario(5) FAULTS): enums in common/planspec.h. */
struct scn_fault {
	enum plan_fault kind;
	int swap;			/* backend index, -1: none */
	enum plan_trigger trig;
	double at;			/* phase index, s (TRIG_AFTER_TIME) or I/Os */
	double duration_s;		/* 0: until the end (swapoff: stays off) */
	int until_phase;		/* io_error, slab_error, swapoff, -1 */
	enum plan_fault_op op;		/* io_error */
	unsigned long long slot, nslots; /* io_error read: bad swap slots */
	unsigned int probability;	/* io_error both, slab_error: percent */
	unsigned long long times, interval; /* the same, 0: none */
	unsigned int period_ms;		/* swap_churn */
	/* slab_error: whose allocations, only atomic ones, which caches */
	enum plan_slab_tasks tasks;
	bool atomic_only;
	char caches[PLAN_SLAB_MAX_CACHES][PLAN_SLAB_CACHE_LEN + 1];
	int ncaches;			/* 0: every cache */
};

/*
 * A command group: a command and the cgroup v2 limits it runs under
 * (0 = no limit; swap_max only when has_swap_max).
 */
struct scn_group {
	char name[32];
	unsigned int memory_max_mb, memory_high_mb, swap_max_mb;
	bool has_swap_max;
	unsigned int cpus;		/* 0: every CPU of the guest */
	unsigned int cpu_max_pct;	/* cpu.max, % of one CPU; 0: cpus */
	unsigned int cpu_max_period_ms;	/* cpu.max period; 0: 100 ms */
	/* io.max per PLAN_IO_* kind (enum plan_io_limit); 0: no limit */
	unsigned long long io_max[PLAN_IO_LIMITS];
	char cwd[SCN_STR_MAX];		/* "" = / */
	char args[SCN_MAX_ARGS][SCN_STR_MAX];
	int nargs;
	char env[SCN_MAX_ENV][SCN_STR_MAX];	/* "KEY=VALUE" */
	int nenv;
	char out[SCN_MAX_OUT][SCN_STR_MAX];	/* glob patterns */
	int nout;
};

struct scenario {
	char file[4096];
	char name[SCN_NAME_MAX + 1];
	char description[SCN_DESC_MAX + 1];
	/* the kernels compared; the first is the reference */
	char kernels[SCN_MAX_KERNELS][SCN_KERNEL_MAX];
	int nkernels;
	/* "kernel_line": "6.1": the kernel line it is meant for, "" any */
	char kernel_line[16];
	unsigned int memory_mb;	/* 0: from swapctl.conf */
	unsigned int cpus;	/* 0: from swapctl.conf */
	unsigned int interval_ms;
	unsigned int timeout_s;
	unsigned int repeat;

	struct scn_sysctl sysctl[SCN_MAX_SYSCTL];
	int nsysctl;
	char thp_enabled[16];	/* "" = leave the kernel's default */
	char thp_defrag[16];
	struct scn_mthp mthp[SCN_MAX_MTHP];
	int nmthp;
	int zswap_enabled;	/* -1 = leave */
	char zswap_compressor[32];
	unsigned int zswap_max_pool_percent;	/* 0 = leave */
	unsigned int zswap_accept_percent;	/* accept_threshold, 0 = leave */

	struct scn_swap swap[SCN_MAX_SWAP];
	int nswap;
	int ndisks;		/* blk + ext4file backends */

	uint64_t seed;
	unsigned int size_mb;	/* 0 if given as size_ram */
	double size_ram;	/* multiple of the guest's RAM */
	unsigned int shmem_mb;
	unsigned int unique_words;	/* 0: every word of a page random */
	bool wl_thp;
	bool has_verify_seed;
	uint64_t verify_seed;
	struct scn_phase phase[SCN_MAX_PHASES];
	int nphases;

	struct scn_expect expect[SCN_MAX_EXPECT];
	int nexpect;
	/* metrics that must not get significantly worse on any kernel */
	char no_regression[SCN_MAX_NOREG][SCN_METRIC_MAX];
	int nnoreg;

	struct scn_fault fault[SCN_MAX_FAULTS];
	int nfaults;
	/* workload.command: the host's programs instead of the fill */
	bool command;
	bool reference;		/* a reference run without limits first */
	char kbuild[32];	/* kconfig target of a prepared tree, or "" */
	struct scn_group group[SCN_MAX_GROUPS];
	int ngroups;
	/* set by `swapctl run` after kbuild_prepare(): @KBUILD_SRC@/_OUT@ */
	char kbuild_src[4096];
	char kbuild_out[4096];
};

/* The index of kernel @name in @s->kernels, or -1. */
int scn_kernel_index(const struct scenario *s, const char *name);
/*
 * Replace the kernel list by the comma-separated @list (names checked
 * like the scenario's). -1 with a message in @err.
 */
int scn_set_kernels(struct scenario *s, const char *list, char *err,
		    size_t errlen);
/*
 * "patched" and the series it stands for (@series, from swapctl.conf)
 * both in the kernel list would boot one variant twice and compare it
 * with itself: -1 with @err set.
 */
int scn_check_kernels(const struct scenario *s, const char *series,
		      char *err, size_t errlen);
/*
 * A scenario with per-size mTHP needs a kernel line that has it (6.8 and
 * later): -1 with @err set when @line (chosen by @from: "--line", "the
 * scenario's kernel_line", ...) is older. validate and run both ask.
 */
int scn_check_line(const struct scenario *s, const char *line,
		   const char *from, char *err, size_t errlen);
bool scn_has_nfs(const struct scenario *s);
/* Faults the host injects (nfs_stall, nfs_restart), not the guest. */
/* Whether the scenario expects the OOM killer to take the workload. */
bool scn_expects_oom(const struct scenario *s);
/*
 * What a slab_error fault with "caches" needs on the guest kernel's
 * command line: "slub_debug=A,<cache>,..." (SLAB_FAILSLAB on those
 * caches), or "" without one. Returns the length (snprintf's).
 */
int scn_slub_debug(const struct scenario *s, char *buf, size_t len);
/* its longest, with NUL */
#define SCN_SLUB_DEBUG_MAX \
	(sizeof("slub_debug=A") + PLAN_SLAB_MAX_CACHES * (PLAN_SLAB_CACHE_LEN + 1))
/*
 * What a brd backend needs on the guest kernel's command line: its
 * device count and size (PLAN_BRD_ARGS_FMT, KiB), or "" without one.
 * Returns the length (snprintf's); at most PLAN_BRD_ARGS_MAX with NUL.
 */
int scn_brd_args(const struct scenario *s, char *buf, size_t len);

/*
 * Parse a scenario from @text (@len bytes); @file names it in messages.
 * Returns 0, or -1 with one line "FILE:LINE:COLUMN: KEY.PATH: what" in
 * @err.
 */
int scenario_parse(struct scenario *s, const char *text, size_t len,
		   const char *file, char *err, size_t errlen);

/* Read and parse the file @path. */
int scenario_load(struct scenario *s, const char *path,
		  char *err, size_t errlen);

/*
 * The file for a scenario argument: @arg itself if it names a file or
 * holds a '/', else <data dir>/scenarios/@arg[.json] if that exists
 * (so that "swapctl run nfs-swap" works once installed).
 */
const char *scenario_find(const char *arg, char *buf, size_t len);

/* The workload size in MiB for a guest of @memory_mb. */
unsigned int scenario_size_mb(const struct scenario *s,
			      unsigned int memory_mb);

/*
 * Checks that need the final guest size (after swapctl.conf defaults):
 * the workload must fit in RAM + swap, zram in RAM. -1 with @err set.
 */
int scenario_check_fit(const struct scenario *s, unsigned int memory_mb,
		       char *err, size_t errlen);

/*
 * Can this host run a guest of @memory_mb MiB and @cpus vCPUs? At most
 * 3/4 of the host's MemTotal and no more vCPUs than online CPUs. @conf
 * names the configuration file the values came from when the scenario
 * does not set them. -1 with @err set.
 */
int scenario_check_host(const struct scenario *s, unsigned int memory_mb,
			unsigned int cpus, const char *conf, char *err,
			size_t errlen);
/* The rule itself, for given host facts (0: unknown, not checked). */
int scenario_host_problem(unsigned int memory_mb, unsigned int cpus,
			  unsigned long long host_mb, unsigned int host_cpus,
			  bool *is_cpus, char *msg, size_t len);

#endif
