/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbuild: the kernel tree a kernel-build command workload compiles in the
 * guest. swapctl prepares it on the host, once: an out-of-tree (O=) build
 * directory of the pristine source (the one `swapctl build` extracted)
 * configured with a kconfig target such as tinyconfig and made up to
 * `make prepare`, so that the guest only compiles objects. The guest sees
 * both through the read-only host root and writes its objects to its own
 * overlay.
 *
 * Kbuild itself is too slow for the guest under TCG: every make of one
 * object starts a dozen recursive makes and some 250 programs, 28 of them
 * cc1 compiler probes (measured, 6.1 tinyconfig), each taking seconds in
 * the guest, so that not one object was done in 900 s. So the host builds
 * KBUILD_DIR/ with Kbuild once, and KBUILD_MK in the tree holds one rule
 * per object with the exact command Kbuild ran: `make -C OUT -f
 * OUT/KBUILD_MK mm/swap.o` in the guest runs that gcc and nothing else.
 * The host's objects are moved to OUT/KBUILD_HOST_OBJS/KBUILD_DIR/, to
 * compare with.
 */
#ifndef SWAPCTL_KBUILD_H
#define SWAPCTL_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#define KBUILD_DIR		"mm"
#define KBUILD_MK		"swapctl-kbuild.mk"
#define KBUILD_HOST_OBJS	"host-objs"
#define KBUILD_MAX_OBJS		512

/* The kconfig targets a scenario may name. */
extern const char *const kbuild_configs[];

/*
 * The pristine source tree of @tarball under @workdir/src/ (from
 * src/<@tarball's name>.id, which `swapctl build` writes, or the only
 * extraction there) into @src. -1 with @err set.
 */
int kbuild_pristine(const char *workdir, const char *tarball, char *src,
		    size_t len, char *err, size_t errlen);

/*
 * Make sure @workdir/kbuild/<pristine id>-@config/ is a prepared O= tree
 * of the pristine source of @tarball with KBUILD_MK written (stamped
 * .swapctl-prepared; redone when missing or from an older swapctl),
 * holding @workdir/build.lock while make runs. @src and @out receive the
 * two directories. Build output goes to @log. @dry: only the paths.
 * -1 with @err set.
 */
int kbuild_prepare(const char *workdir, const char *tarball,
		   const char *config, const char *log, bool dry, char *src,
		   size_t srclen, char *out, size_t outlen, char *err,
		   size_t errlen);

/*
 * After Kbuild built KBUILD_DIR/ in the O= tree @out: write @out/KBUILD_MK
 * (one rule per object, the command of its .cmd file) and move the
 * objects to @out/KBUILD_HOST_OBJS/KBUILD_DIR/. -1 with @err set.
 */
int kbuild_write_makefile(const char *out, char *err, size_t errlen);

#endif
