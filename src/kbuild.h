/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild: the kernel tree a kernel-build command workload compiles in the
 * guest. swapctl prepares it on the host, once: an out-of-tree (O=) build
 * directory of the pristine source (the one `swapctl build` extracted)
 * configured with a kconfig target such as tinyconfig and made up to
 * `make prepare`, so that the guest only compiles objects. The guest sees
 * both through the read-only host root and writes its objects to its own
 * overlay.
 */
#ifndef SWAPCTL_KBUILD_H
#define SWAPCTL_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

/* The kconfig targets a scenario may name. */
extern const char *const kbuild_configs[];

/*
 * The pristine source tree under @workdir/src/ (from src/tarball.id, or
 * the only extraction there) into @src. -1 with @err set.
 */
int kbuild_pristine(const char *workdir, char *src, size_t len,
		    char *err, size_t errlen);

/*
 * Make sure @workdir/kbuild/<pristine id>-@config/ is a prepared O= tree
 * of the pristine source (stamped .swapctl-prepared; redone when missing),
 * holding @workdir/build.lock while make runs. @src and @out receive the
 * two directories. Build output goes to @log. @dry: only the paths.
 * -1 with @err set.
 */
int kbuild_prepare(const char *workdir, const char *config, const char *log,
		   bool dry, char *src, size_t srclen, char *out,
		   size_t outlen, char *err, size_t errlen);

#endif
