/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guest: one guest's lifecycle for `swapctl run`: its directory, initrd,
 * disks and domain XML, the NFS server, boot, the agent's stream (written
 * to samples.jsonl and fed to the guest's track, the same pipeline
 * report and top read the file with), the host's block stats, power-off
 * or timeout, the cleanup and the classification (pass, corrupt, guest
 * failure, setup error, interrupted).
 */
#ifndef SWAPCTL_GUEST_H
#define SWAPCTL_GUEST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "domain.h"
#include "ganesha.h"
#include "rundir.h"
#include "scenario.h"
#include "track.h"
#include "stream.h"
#include "util.h"

/* What every guest of a run shares. */
struct guest_env {
	const struct swapctl_config *cfg;
	const struct scenario *scn;
	unsigned int memory_mb, cpus;
	bool kvm, keep_images;
	bool debug;		/* debug kernels: page_owner=on */
	char accel_why[320];	/* why KVM or TCG */
	/* the guest kernel's command line: ours, slub_debug=, brd, appends */
	char cmdline[2 * CONFIG_APPEND_MAX + 128 + SCN_SLUB_DEBUG_MAX +
		     PLAN_BRD_ARGS_MAX];
	double host_timeout_s;
	bool icount;		/* TCG: -icount shift (domain.h) */
	unsigned int icount_shift;
	const char *initramfs;
	const char *plan;
	const char *run_id, *run_dir;
	struct vmconn *vm;	/* the run's connection */
};

/*
 * A libvirt host of the run (`hosts` in swapctl.conf; one, the local
 * driver, by default). A remote one gets the kernels, initrds and disks
 * as storage volumes and gives the console and agent back as streams
 * (domain.h); every kernel's bzImage is uploaded once per run.
 */
struct guest_host {
	char uri[CONFIG_URI_MAX];
	struct vmconn *vm;	/* the host's connection */
	bool remote;
	char kernel[SCN_MAX_KERNELS][4096];	/* each bzImage there */
};

#define GUEST_MAX_VOLS	(1 + DOMAIN_MAX_DISKS)

/*
 * One running guest's own share of the host (run --parallel runs several
 * at once, each in its own thread with its own slot): its libvirt handle
 * and domain, its NFS server on its own port with the plan naming that
 * port, its agent socket; everything guest_cleanup() releases.
 */
struct guest_slot {
	const struct guest_host *host;
	struct vmconn *vm;	/* vm_share() of host->vm, or host->vm */
	unsigned int nfs_port;
	const char *plan;	/* the plan for nfs_port */
	struct ganesha nfs;
	char sock[4200];
	/* a remote host's volumes of the running guest, deleted at cleanup */
	char vol[GUEST_MAX_VOLS][256];
	char vol_path[GUEST_MAX_VOLS][4096];
	bool vol_keep[GUEST_MAX_VOLS];
	int nvols;
};

struct guest {
	char kernel[SCN_KERNEL_MAX];	/* the scenario's name: "patched" */
	char kernel_path[4096];		/* its bzImage (on its host) */
	char host[CONFIG_URI_MAX];	/* the URI of the host it ran on */
	bool host_lost;		/* its host failed while it ran */
	bool host_cpu_seen;	/* a host line had its CPU time */
	char rerun_why[CONFIG_URI_MAX + 64];	/* "host X lost" when re-run */
	unsigned int rep;
	char dir[4096];
	bool started, setup_failed, timeout, interrupted;
	double boot_s;		/* create -> hello, host clock */
	double run_s;		/* create -> end */
	bool has_agent_cpu;
	uint64_t agent_cpu_ns;
	char last_error_log[STREAM_MSG_MAX];
	/* the last sample's vmstat, as received (summary.json vmstat_all) */
	struct stream_counter last_ctr[STREAM_MAX_COUNTERS];
	unsigned int nlast_ctr;
	int console_problems;
	char console_first[200];
	int oom_kills;
	struct console_scan console;	/* the reports, quoted */
	int fault_failures;		/* host fault actions that failed */
	char fault_error[256];
	struct stream_state st;		/* validation counters */
	struct track track;	/* everything measured */
	bool pass;
	int exit_class;		/* EXIT_OK, _CORRUPT, _GUEST, _SETUP... */
	char why[512];
};

/* Set by SIGINT/SIGTERM/SIGHUP once guest_catch_signals() ran. */
extern atomic_int guest_interrupted;
void guest_catch_signals(void);

/* "<kernel>-<rep>", the guest's directory name */
const char *guest_name(const struct guest *g, char *buf, size_t len);
/*
 * Boot guest @g in @slot, follow it to the end and classify it. Guests
 * of different slots may run at once in different threads: @env is only
 * read, and every message is one whole line on stderr.
 */
void guest_run(const struct guest_env *env, struct guest_slot *slot,
	       struct guest *g);
/* Everything a slot's guest holds on the host: always safe to call. */
void guest_cleanup(struct guest_slot *slot);
/* One line "swapctl run: ..." on stderr, written whole. */
void guest_msg(const char *fmt, ...) __printf(1, 2);
/* The domain XML of @g (for --dry-run); NULL when out of memory. */
char *guest_domain_xml(const struct guest_env *env, struct guest *g);
void guest_free(struct guest *g);

#endif
