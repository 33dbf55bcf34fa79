// SPDX-License-Identifier: GPL-2.0
/*
 * What swapctl run boots (kernels.h): the line, the variants and their
 * bzImages (a kernel of a git tree by its manifest), the initramfs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "build.h"
#include "guest.h"
#include "kernels.h"
#include "manifest.h"
#include "swapctl.h"
#include "util.h"

int kernels_add_override(struct kernel_overrides *ov, const char *name,
			 size_t namelen, const char *file, char *err,
			 size_t errlen)
{
	if (ov->n >= KERNELS_MAX_OVERRIDES) {
		snprintf(err, errlen, "at most %d kernels", KERNELS_MAX_OVERRIDES);
		return -1;
	}
	if (!namelen || namelen >= SCN_KERNEL_MAX || !*file) {
		snprintf(err, errlen, "give NAME=FILE");
		return -1;
	}
	snprintf(ov->o[ov->n].name, sizeof(ov->o[0].name), "%.*s",
		 (int)namelen, name);
	ov->o[ov->n++].file = file;
	return 0;
}

/*
 * The variant of kernel @name on rk->line: <name>[-debug] on 6.1,
 * <name>[-debug]@<line> on another line; a kernel of a git tree keeps
 * the name it was built under (swapctl build --tree --names): used when
 * only that exists and its manifest says it is of rk->line.
 */
static int line_variant(const struct run_kernels *rk, const char *name,
			char *variant, size_t len)
{
	char plain[80], p[4200], line[KLINE_MAX];
	json_error_t jerr;
	json_t *m;

	snprintf(plain, sizeof(plain), "%s%s",
		 !strcmp(name, SCN_PATCHED) ? rk->cfg->series : name,
		 rk->debug ? "-debug" : "");
	if (kline_kernel_name(variant, len, plain, rk->line))
		return -1;
	if (kline_is_first(rk->line) ||
	    util_path(p, sizeof(p), "%s/kernels/%s/bzImage", rk->cfg->workdir,
		      variant) || util_exists(p))
		return 0;
	m = manifest_load(rk->cfg->workdir, plain, &jerr);
	manifest_line(m, line, sizeof(line));
	json_decref(m);
	if (!strcmp(line, rk->line))
		snprintf(variant, len, "%s", plain);
	return 0;
}

/*
 * The variant and bzImage of every kernel; -1 when a path is too long,
 * -2 - i when override i names no kernel of the run (a typo would boot
 * the built kernel in its place).
 */
int kernels_resolve(struct run_kernels *rk,
		    const struct kernel_overrides *ovs)
{
	const struct kernel_override *ov = ovs->o;
	int nov = ovs->n;
	int k, i;

	for (i = 0; i < nov; i++) {
		for (k = 0; k < rk->scn->nkernels; k++)
			if (!strcmp(ov[i].name, rk->scn->kernels[k]))
				break;
		if (k == rk->scn->nkernels)
			return -2 - i;
	}

	for (k = 0; k < rk->scn->nkernels; k++) {
		const char *name = rk->scn->kernels[k];
		const char *file = NULL;

		if (line_variant(rk, name, rk->variant[k],
				 sizeof(rk->variant[k])))
			return -1;
		for (i = 0; i < nov; i++)
			if (!strcmp(ov[i].name, name))
				file = ov[i].file;
		if (file) {
			snprintf(rk->kernel_path[k], sizeof(rk->kernel_path[k]),
				 "%s", file);
			snprintf(rk->variant[k], sizeof(rk->variant[k]), "%s",
				 "(given)");
		} else if (util_path(rk->kernel_path[k],
				     sizeof(rk->kernel_path[k]),
				     "%s/kernels/%s/bzImage", rk->cfg->workdir,
				     rk->variant[k])) {
			return -1;
		}
	}
	return 0;
}

/*
 * The kernel line to run: --line, else the scenario's kernel_line, else
 * kernel_line of swapctl.conf. A scenario that sets per-size mTHP needs
 * a line that has it (6.8 and later): 0, or EXIT_CONFIG after one line.
 */
int kernels_pick_line(struct run_kernels *rk, const char *line_opt)
{
	char err[PATH_MAX + 512];

	if (line_opt) {
		snprintf(rk->line, sizeof(rk->line), "%s", line_opt);
		snprintf(rk->line_from, sizeof(rk->line_from), "--line");
	} else if (rk->scn->kernel_line[0]) {
		snprintf(rk->line, sizeof(rk->line), "%s",
			 rk->scn->kernel_line);
		snprintf(rk->line_from, sizeof(rk->line_from),
			 "kernel_line of the scenario");
	} else {
		snprintf(rk->line, sizeof(rk->line), "%s",
			 rk->cfg->kernel_line);
		snprintf(rk->line_from, sizeof(rk->line_from),
			 "kernel_line, from %s", rk->cfg->source);
	}
	if (scn_check_line(rk->scn, rk->line, rk->line_from, err,
			   sizeof(err))) {
		fprintf(stderr, "swapctl run: %s\n", err);
		return -1;
	}
	return 0;
}

/*
 * The build of kernel @k: "--baseline", "--series S" (patched: the
 * configured series), "--series S --keep-each" for the kernel after
 * patch KK of S (S.KK).
 */
static void build_args(const struct run_kernels *rk, int k, char *buf,
		       size_t len)
{
	const char *name = rk->scn->kernels[k], *dot = strrchr(name, '.');
	size_t n = dot ? strspn(dot + 1, "0123456789") : 0;

	if (!strcmp(name, "baseline"))
		snprintf(buf, len, "--baseline");
	else if (!strcmp(name, SCN_PATCHED))
		snprintf(buf, len, "--series %s", rk->cfg->series);
	else if (n >= 2 && !dot[1 + n])
		snprintf(buf, len, "--series %.*s --keep-each",
			 (int)(dot - name), name);
	else
		snprintf(buf, len, "--series %s", name);
}

/*
 * The work dir's initramfs holds the guest programs next to this
 * swapctl: the other end of the host/guest contract it speaks. Remade
 * (only when its bytes differ) before every run, so that a swapctl
 * updated since the last build never boots an older guest that
 * refuses what the new host sends (a plan key it does not know).
 */
static int refresh_initramfs(const struct run_kernels *rk)
{
	struct build_ctx bc = { .cfg = rk->cfg, .logfd = -1 };
	char path[PATH_MAX];

	bc.datadir = util_data_dir();
	if (!bc.datadir)
		return 0;	/* kernels_check() says what is missing */
	if (initramfs_write(&bc, path, sizeof(path))) {
		fprintf(stderr, "swapctl run: cannot remake %s from the guest programs next to swapctl (above); 'make' builds them\n",
			rk->initramfs);
		return -1;
	}
	return 0;
}

/*
 * The one build that makes every missing kernel: its own arguments when
 * they all need the same, else --all (every series of the line).
 */
static void build_hint(const struct run_kernels *rk, const bool *missing,
		       char *buf, size_t len)
{
	char args[128], first[128] = "";
	int k;

	for (k = 0; k < rk->scn->nkernels; k++) {
		if (!missing[k])
			continue;
		build_args(rk, k, args, sizeof(args));
		if (!first[0]) {
			snprintf(first, sizeof(first), "%s", args);
		} else if (strcmp(first, args)) {
			snprintf(first, sizeof(first), "--all");
			break;
		}
	}
	snprintf(buf, len, "swapctl build --line %s %s%s", rk->line, first,
		 rk->debug ? " --debug" : "");
}

/*
 * Every kernel can be read; 0, EXIT_NO_KERNEL (kernels of the line not
 * built: all of them named, with the one build that makes them) or
 * EXIT_SETUP.
 */
int kernels_check(const struct run_kernels *rk)
{
	bool missing[SCN_MAX_KERNELS] = { false };
	char hint[192], names[SCN_MAX_KERNELS * (SCN_KERNEL_MAX + 2)] = "";
	size_t off = 0;
	int k, n = 0;

	for (k = 0; k < rk->scn->nkernels; k++) {
		if (!access(rk->kernel_path[k], R_OK))
			continue;
		if (errno != ENOENT || !strcmp(rk->variant[k], "(given)")) {
			fprintf(stderr, "swapctl run: kernel %s: %s: %s\n",
				rk->scn->kernels[k], rk->kernel_path[k],
				strerror(errno));
			return EXIT_SETUP;
		}
		missing[k] = true;
		off += snprintf(names + off, sizeof(names) - off, "%s%s",
				n++ ? ", " : "", rk->scn->kernels[k]);
	}
	if (!n)
		return 0;
	build_hint(rk, missing, hint, sizeof(hint));
	for (k = 0; k < rk->scn->nkernels && !missing[k]; k++)
		;
	fprintf(stderr, "swapctl run: kernel%s %s of line %s (%s) %s not built (%s does not exist); run '%s' first\n",
		n > 1 ? "s" : "", names, rk->line, rk->line_from,
		n > 1 ? "are" : "is", rk->kernel_path[k], hint);
	return EXIT_NO_KERNEL;
}

int kernels_initramfs_ready(const struct run_kernels *rk)
{
	if (!rk->initramfs_given && refresh_initramfs(rk))
		return EXIT_SETUP;
	if (access(rk->initramfs, R_OK)) {
		fprintf(stderr, "swapctl run: %s: %s (run 'swapctl build' first)\n",
			rk->initramfs, strerror(errno));
		return EXIT_SETUP;
	}
	return 0;
}

/* Why a file given on the command line cannot be booted, or NULL. */
static const char *given_problem(const char *path)
{
	struct stat sb;

	if (stat(path, &sb) || access(path, R_OK))
		return strerror(errno);
	if (!S_ISREG(sb.st_mode))
		return "not a regular file";
	return NULL;
}

/*
 * --dry-run: the files given on the command line (--kernel NAME=FILE,
 * --baseline-kernel, --patched-kernel, --initramfs) are what run would
 * boot: refused as run refuses them (kernels_check()); 0 or EXIT_SETUP.
 */
int kernels_check_given(const struct run_kernels *rk)
{
	const char *why;
	int k;

	for (k = 0; k < rk->scn->nkernels; k++) {
		if (strcmp(rk->variant[k], "(given)"))
			continue;
		why = given_problem(rk->kernel_path[k]);
		if (why) {
			fprintf(stderr, "swapctl run: kernel %s: %s: %s\n",
				rk->scn->kernels[k], rk->kernel_path[k], why);
			return EXIT_SETUP;
		}
	}
	why = rk->initramfs_given ? given_problem(rk->initramfs) : NULL;
	if (why) {
		fprintf(stderr, "swapctl run: %s: %s\n", rk->initramfs, why);
		return EXIT_SETUP;
	}
	return 0;
}

int kernels_initramfs(struct run_kernels *rk, const char *ird)
{
	rk->initramfs_given = ird;
	if (ird) {
		snprintf(rk->initramfs, sizeof(rk->initramfs), "%s", ird);
		return 0;
	}
	return util_path(rk->initramfs, sizeof(rk->initramfs),
			 "%s/kernels/initramfs.cpio", rk->cfg->workdir);
}
