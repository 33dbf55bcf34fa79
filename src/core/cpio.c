// SPDX-License-Identifier: GPL-2.0
/*
 * newc cpio writer (the format the kernel unpacks as initramfs; see the
 * kernel's Documentation/driver-api/early-userspace/buffer-format.rst).
 * Every entry has uid/gid 0 and mtime 0 so that the archive only depends
 * on its content. Names are stored without a leading '/'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cpio.h"
#include "util.h"

void cpio_init(struct cpio *c, FILE *f)
{
	long pos = ftell(f);

	c->f = f;
	c->ino = 721;
	c->error = 0;
	c->off = pos > 0 ? (unsigned long long)pos : 0;
}

static void put(struct cpio *c, const void *data, size_t len)
{
	if (c->error || !len)
		return;
	if (fwrite(data, 1, len, c->f) != len) {
		c->error = errno ? errno : EIO;
		return;
	}
	c->off += len;
}

static void pad(struct cpio *c, unsigned int align)
{
	static const char zeros[512];

	if (c->off % align)
		put(c, zeros, align - (size_t)(c->off % align));
}

static int entry(struct cpio *c, const char *name, mode_t mode,
		 unsigned int nlink, unsigned int rmajor,
		 unsigned int rminor, const void *data, size_t len)
{
	char hdr[160];
	int n;
	size_t namesize;

	if (c->error)
		return -1;
	while (*name == '/')
		name++;
	if (!*name)
		name = ".";
	namesize = strlen(name) + 1;
	if (len > 0xffffffffUL || namesize > 4096) {
		c->error = EFBIG;
		return -1;
	}
	n = snprintf(hdr, sizeof(hdr),
		     "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		     strcmp(name, "TRAILER!!!") ?
		     (unsigned int)(c->ino++ & 0xffffffffUL) : 0U,
		     (unsigned int)mode, 0U, 0U, nlink, 0U, (unsigned int)len,
		     0U, 0U, rmajor, rminor, (unsigned int)namesize, 0U);
	if (n != 110) {
		c->error = EINVAL;
		return -1;
	}
	put(c, hdr, 110);
	put(c, name, namesize);
	pad(c, 4);
	put(c, data, len);
	pad(c, 4);
	return c->error ? -1 : 0;
}

int cpio_dir(struct cpio *c, const char *name, mode_t mode)
{
	return entry(c, name, S_IFDIR | (mode & 07777), 2, 0, 0, NULL, 0);
}

int cpio_node(struct cpio *c, const char *name, mode_t mode,
	      unsigned int major, unsigned int minor)
{
	if (!S_ISCHR(mode) && !S_ISBLK(mode) && !S_ISFIFO(mode) &&
	    !S_ISSOCK(mode)) {
		c->error = EINVAL;
		return -1;
	}
	return entry(c, name, mode, 1, major, minor, NULL, 0);
}

int cpio_data(struct cpio *c, const char *name, mode_t mode,
	      const void *data, size_t len)
{
	return entry(c, name, S_IFREG | (mode & 07777), 1, 0, 0, data, len);
}

int cpio_file(struct cpio *c, const char *name, mode_t mode, const char *src)
{
	size_t len;
	char *data;
	int ret;

	if (c->error)
		return -1;
	data = util_read_file(src, &len);
	if (!data) {
		c->error = errno;
		return -1;
	}
	ret = cpio_data(c, name, mode, data, len);
	free(data);
	return ret;
}

int cpio_finish(struct cpio *c)
{
	if (entry(c, "TRAILER!!!", 0, 1, 0, 0, NULL, 0))
		return -1;
	/* pad to 512 bytes like cpio(1), so that archives concatenate */
	pad(c, 512);
	if (c->error)
		return -1;
	if (fflush(c->f) || ferror(c->f)) {
		c->error = errno ? errno : EIO;
		return -1;
	}
	return 0;
}
