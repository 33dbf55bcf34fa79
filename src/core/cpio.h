/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SWAPCTL_CPIO_H
#define SWAPCTL_CPIO_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * A writer for the "newc" cpio format the kernel unpacks as initramfs.
 * Entries are appended in order; cpio_finish() writes the trailer and pads
 * the archive to a multiple of 512 bytes. Alignment is computed from the
 * position of @f at cpio_init() (0 if @f is not seekable), so an archive
 * may be appended to another one. All functions return 0 or -1; after an
 * error every call fails and @error holds the errno.
 */
struct cpio {
	FILE *f;
	unsigned long ino;
	int error;
	unsigned long long off;		/* position in @f */
};

void cpio_init(struct cpio *c, FILE *f);
int cpio_dir(struct cpio *c, const char *name, mode_t mode);
int cpio_node(struct cpio *c, const char *name, mode_t mode,
	      unsigned int major, unsigned int minor);
int cpio_data(struct cpio *c, const char *name, mode_t mode,
	      const void *data, size_t len);
/* Copy the host file @src into the archive as @name. */
int cpio_file(struct cpio *c, const char *name, mode_t mode, const char *src);
int cpio_finish(struct cpio *c);

#endif
