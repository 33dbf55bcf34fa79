/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What swapctl run boots: the kernel line, each kernel's variant and
 * bzImage under <workdir>/kernels/ (or a file given with --kernel), and
 * the initramfs; all checked before a guest starts.
 */
#ifndef SWAPCTL_KERNELS_H
#define SWAPCTL_KERNELS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "kline.h"
#include "scenario.h"

#define KERNELS_MAX_OVERRIDES	SCN_MAX_KERNELS

/* --kernel NAME=FILE, --baseline-kernel, --patched-kernel */
struct kernel_override {
	char name[SCN_KERNEL_MAX];
	const char *file;
};

struct kernel_overrides {
	struct kernel_override o[KERNELS_MAX_OVERRIDES];
	int n;
};

struct run_kernels {
	/* the run's (set before kernels_pick_line()) */
	struct swapctl_config *cfg;
	const struct scenario *scn;
	bool debug;		/* the debug kernels: <variant>-debug */
	/* the kernel line run (kline.h), and where it was named */
	char line[KLINE_MAX];
	char line_from[PATH_MAX + 32];
	/* per kernel of scn->kernels: the variant and its bzImage */
	char variant[SCN_MAX_KERNELS][80];
	char kernel_path[SCN_MAX_KERNELS][4096];
	char initramfs[4096];
	bool initramfs_given;	/* --initramfs: used as it is */
};

/* Add override @name (@namelen bytes) = @file; -1 with why in @err. */
int kernels_add_override(struct kernel_overrides *ov, const char *name,
			 size_t namelen, const char *file, char *err,
			 size_t errlen);
/*
 * The kernel line to run: --line (@line_opt), else the scenario's
 * kernel_line, else kernel_line of swapctl.conf. A scenario that sets
 * per-size mTHP needs a line that has it (6.8 and later): 0, or -1
 * after one line.
 */
int kernels_pick_line(struct run_kernels *rk, const char *line_opt);
/*
 * The variant and bzImage of every kernel on rk->line (<name>[-debug]
 * on 6.1, <name>[-debug]@<line> on another, or the name a git tree's
 * kernel was built under when only that exists and its manifest says
 * it is of the line); an override's file as it is. -1 when a path is
 * too long, -2 - i when override i names no kernel of the run (a typo
 * would boot the built kernel in its place).
 */
int kernels_resolve(struct run_kernels *rk,
		    const struct kernel_overrides *ovs);
/*
 * The initramfs: @ird (--initramfs), used as it is, else the work dir's
 * kernels/initramfs.cpio. -1 when its path is too long.
 */
int kernels_initramfs(struct run_kernels *rk, const char *ird);
/*
 * Every kernel can be read; 0, EXIT_NO_KERNEL (a kernel of the line not
 * built, with the build that makes it) or EXIT_SETUP, after one line.
 */
int kernels_check(const struct run_kernels *rk);
/*
 * The initramfs can be read, the work dir's remade from the guest
 * programs next to swapctl first: under run.lock, so that a run of
 * another checkout waiting for the lock does not replace it while this
 * run boots it. 0 or EXIT_SETUP, after one line.
 */
int kernels_initramfs_ready(const struct run_kernels *rk);
/*
 * --dry-run: the files given on the command line (--kernel NAME=FILE,
 * --baseline-kernel, --patched-kernel, --initramfs) are what run would
 * boot: refused as run refuses them (kernels_check()); 0 or EXIT_SETUP.
 */
int kernels_check_given(const struct run_kernels *rk);

#endif
