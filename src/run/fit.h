/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What swapctl run checks and derives before a guest starts, beyond the
 * scenario: the accelerator, the guest's kernel command line, --icount,
 * whether the hosts can serve the scenario, the waves of --parallel and
 * whether they fit this machine, the plan of each slot and the host-side
 * tree of a kernel-build workload. Each prints one line on a failure
 * ("swapctl run: ...") and returns an exit code (0: fine).
 */
#ifndef SWAPCTL_FIT_H
#define SWAPCTL_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "guest.h"
#include "scenario.h"
#include "schedule.h"

/* KVM or TCG (accel in swapctl.conf, /proc/cpuinfo, /dev/kvm): true: KVM */
bool fit_accel(struct guest_env *env, const struct swapctl_config *cfg);
/*
 * The guest: env->memory_mb and cpus (the scenario's, else swapctl.conf's
 * guest_memory_mb and guest_cpus, else 256 MiB and 1), which the
 * scenario must fit and this machine must have; the work dir (not inside
 * the repository; quotable in ganesha.conf when an NFS backend needs
 * it); env->cmdline: ours, a slab_error's slub_debug=, swapctl.conf's
 * append and --append (@append). 0, or -1 with @err set.
 */
int fit_guest(struct guest_env *env, const struct scenario *scn,
	      const struct swapctl_config *cfg, const char *append,
	      char *err, size_t errlen);
/*
 * --icount SHIFT (@icount, -1: not given): TCG only, one vCPU, each
 * command group's cpus 1, the guest's watchdog the plan's longest
 * timeout_s. Before the plans are written; 0 or EXIT_USAGE.
 */
int fit_icount(struct guest_env *env, struct scenario *scn, int icount);
/*
 * An NFS backend's server and a command workload's 9p share are this
 * machine's: a host of `hosts` that is not is refused for them. 0 or
 * EXIT_CONFIG.
 */
int fit_remote_hosts(const struct scenario *scn,
		     const struct swapctl_config *cfg);
/*
 * --parallel (@parallel, 0: parallel in swapctl.conf) into *@par: the
 * waves (s->width, s->nslots) and whether they fit this machine's memory
 * (refused, EXIT_USAGE) and CPUs (a warning). 0 or an exit code.
 */
int fit_parallel(struct sched *s, int parallel, unsigned int *par);
/*
 * The plan of each of s->nslots slots into @plans: the same text but for
 * the NFS port of its server (nfs_port + slot), so one plan for all when
 * there is no NFS. 0 or an exit code.
 */
int fit_plans(const struct sched *s, char **plans);
/*
 * The host-side kernel-build tree of a kernel-build scenario (of the
 * source of kernel line @line): scn->kbuild_src and kbuild_out. @dry:
 * only the paths. 0 or an exit code.
 */
int fit_kbuild(struct scenario *scn, const struct swapctl_config *cfg,
	       const char *line, bool dry);

#endif
