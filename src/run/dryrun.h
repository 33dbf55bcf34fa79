/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swapctl run --dry-run: everything run would start, without starting
 * it: the accelerator and why, the libvirt URI, the guest's size,
 * command line and disks, the schedule, the plan, each domain's XML and
 * the NFS server's configuration. --json: the same as one object.
 */
#ifndef SWAPCTL_DRYRUN_H
#define SWAPCTL_DRYRUN_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "guest.h"
#include "kernels.h"
#include "scenario.h"

struct run_dry {
	/* the run, as set up */
	const struct swapctl_config *cfg;
	const struct scenario *scn;
	const struct guest_env *env;
	const struct run_kernels *k;
	const char *plan;
	unsigned int repeat, parallel, width, nslots;
	/* --repeat auto: auto_min to auto_limit runs until mde <= effect */
	bool repeat_auto;
	unsigned int auto_min, auto_limit;
	double effect;
	bool json;
	/*
	 * Set by run_dry(): what a run would be, its id, directory and
	 * libvirt URI (the run's buffers: env->run_id and run_dir point
	 * to the first two).
	 */
	char *id, *dir, *uri;
	size_t idlen, dirlen, urilen;
};

/* Print what run would start; EXIT_OK, EXIT_OUTPUT or EXIT_FAILURE_GENERIC. */
int run_dry(struct run_dry *dr);

#endif
