/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's fault injection: a process the workload forks before it
 * maps its area. It starts and ends the plan's guest faults (io_error,
 * swapoff, swap_churn, oom) on their triggers and reports each as a
 * "fault" line (start, end) on @out_fd. See swapctl-scenario(5) FAULTS.
 */
#ifndef GUEST_FAULTS_H
#define GUEST_FAULTS_H

#include <sys/types.h>

#include "gplan.h"
#include "gutil.h"

/* dm device of backend @i: "swapctl<i>". */
#define GFAULT_DM_FMT	"swapctl%d"
/* dm-dust block size: one block per swap slot */
#define GFAULT_DUST_BLOCK	4096

/*
 * Fork the fault process (only if @p has faults). Returns its pid, 0 if
 * none was needed, -1 on error. @prog is the workload's shared progress
 * (phase, fault_ack).
 */
pid_t gfault_start(const struct gplan *p, struct gu_progress *prog,
		   int out_fd);

/*
 * Wait until the fault process has handled phase @idx: up to 5 s, or as
 * long as it takes when a swapoff of @p ends at @idx (swapon again first).
 */
void gfault_sync(const struct gplan *p, struct gu_progress *prog, pid_t pid,
		 int idx);

/* End every fault (their end lines are sent), wait for the process. */
void gfault_stop(pid_t pid);

#endif
