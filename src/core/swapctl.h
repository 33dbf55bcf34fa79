/* SPDX-License-Identifier: GPL-2.0 */
/*
 * swapctl: commands and the exit codes they share.
 */
#ifndef SWAPCTL_H
#define SWAPCTL_H

#include <stdio.h>

#include "config.h"

/* Exit codes, documented in swapctl(1). */
enum swapctl_exit {
	EXIT_OK = 0,		/* everything passed */
	EXIT_FAILURE_GENERIC = 1, /* unexpected internal failure */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_CONFIG = 3,	/* bad configuration or scenario file */
	EXIT_SETUP = 4,		/* missing tarball, tool, package, libvirt... */
	EXIT_PATCH = 5,		/* a patch of a series does not apply */
	EXIT_BUILD = 6,		/* kernel or initramfs build failed */
	EXIT_EXPECT = 7,	/* a scenario expectation was not met */
	EXIT_CORRUPT = 8,	/* the workload found corrupt pages */
	EXIT_GUEST = 9,		/* guest panic, BUG/Oops, or timeout */
	EXIT_OUTPUT = 10,	/* an output cannot be written (stdout, --svg) */
	/*
	 * a run directory that is not one or cannot be used: no guests,
	 * an empty samples file, "running" with no run behind it
	 */
	EXIT_DATA = 11,
	EXIT_REGRESSION = 12,	/* a no_regression metric: significantly worse */
	EXIT_NOT_GIT = 13,	/* build --tree: not a git work tree */
	EXIT_DIRTY = 14,	/* build --tree: uncommitted changes it would miss */
	EXIT_REF = 15,		/* build --tree: a ref that names no commit */
	EXIT_NO_KERNEL = 16,	/* run: a kernel of the line is not built */
	EXIT_INTERRUPTED = 130,	/* SIGINT/SIGTERM */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct swapctl_config *cfg);
	const char *summary;
};

int cmd_build(int argc, char **argv, struct swapctl_config *cfg);
int cmd_run(int argc, char **argv, struct swapctl_config *cfg);
int cmd_top(int argc, char **argv, struct swapctl_config *cfg);
int cmd_report(int argc, char **argv, struct swapctl_config *cfg);
int cmd_validate(int argc, char **argv, struct swapctl_config *cfg);
int cmd_metrics(int argc, char **argv, struct swapctl_config *cfg);
int cmd_list(int argc, char **argv, struct swapctl_config *cfg);
int cmd_bisect(int argc, char **argv, struct swapctl_config *cfg);
int cmd_calibrate(int argc, char **argv, struct swapctl_config *cfg);


extern int verbose;

#endif
