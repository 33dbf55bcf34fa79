// SPDX-License-Identifier: GPL-2.0
/* Device-mapper ioctls: create, reload and message a one-target device. */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "compiler.h"
#include "dm.h"
#include "gutil.h"

#define DM_CONTROL	"/dev/mapper/control"
#define DM_BUF		8192

static __printf(3, 4) int dm_fail(char *err, size_t errlen, const char *fmt,
				  ...);

static int dm_fail(char *err, size_t errlen, const char *fmt, ...)
{
	int e = errno ? errno : EINVAL;
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -e;
}

static void dm_init(struct dm_ioctl *io, size_t size, const char *name)
{
	memset(io, 0, size);
	io->version[0] = DM_VERSION_MAJOR;
	io->version[1] = 0;
	io->version[2] = 0;
	io->data_size = (uint32_t)size;
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
}

int gdm_table_buf(void *buf, size_t len, const char *name, uint64_t sectors,
		  const char *target, const char *params)
{
	struct dm_ioctl *io = buf;
	struct dm_target_spec *t;
	size_t plen = strlen(params) + 1, size;

	size = sizeof(*io) + sizeof(*t) + plen;
	size = (size + 7) & ~(size_t)7;
	if (size > len || strlen(name) >= DM_NAME_LEN ||
	    strlen(target) >= DM_MAX_TYPE_NAME)
		return -1;
	dm_init(io, size, name);
	io->target_count = 1;
	t = (struct dm_target_spec *)((char *)buf + io->data_start);
	t->sector_start = 0;
	t->length = sectors;
	t->status = 0;
	t->next = 0;
	snprintf(t->target_type, sizeof(t->target_type), "%s", target);
	memcpy(t + 1, params, plen);
	return (int)size;
}

static int dm_ioctl_fd(int *fd, char *err, size_t errlen)
{
	if (gu_wait_path(DM_CONTROL, 2000)) {
		errno = ENOENT;
		return dm_fail(err, errlen, "%s: missing (CONFIG_BLK_DEV_DM?)",
			       DM_CONTROL);
	}
	*fd = open(DM_CONTROL, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return dm_fail(err, errlen, "open %s: %s", DM_CONTROL,
			       strerror(errno));
	return 0;
}

static int load_and_resume(int fd, const char *name, uint64_t sectors,
			   const char *target, const char *params,
			   bool suspend, struct dm_ioctl *out, char *err,
			   size_t errlen)
{
	static char buf[DM_BUF] __aligned(8);
	struct dm_ioctl io;

	if (gdm_table_buf(buf, sizeof(buf), name, sectors, target,
			  params) < 0) {
		errno = E2BIG;
		return dm_fail(err, errlen, "dm %s: table too long", name);
	}
	if (ioctl(fd, DM_TABLE_LOAD, buf))
		return dm_fail(err, errlen, "dm %s: DM_TABLE_LOAD %s %s: %s",
			       name, target, params, strerror(errno));
	if (suspend) {
		dm_init(&io, sizeof(io), name);
		io.flags = DM_SUSPEND_FLAG;
		if (ioctl(fd, DM_DEV_SUSPEND, &io))
			return dm_fail(err, errlen, "dm %s: suspend: %s",
				       name, strerror(errno));
	}
	/* DM_DEV_SUSPEND without DM_SUSPEND_FLAG: resume, the new table live */
	dm_init(&io, sizeof(io), name);
	if (ioctl(fd, DM_DEV_SUSPEND, &io))
		return dm_fail(err, errlen, "dm %s: resume: %s", name,
			       strerror(errno));
	if (out)
		*out = io;
	return 0;
}

int gdm_create(const char *name, uint64_t sectors, const char *target,
	       const char *params, char *dev, size_t devlen, char *err,
	       size_t errlen)
{
	struct dm_ioctl io;
	int fd, r;

	r = dm_ioctl_fd(&fd, err, errlen);
	if (r)
		return r;
	dm_init(&io, sizeof(io), name);
	if (ioctl(fd, DM_DEV_CREATE, &io)) {
		r = dm_fail(err, errlen, "dm %s: DM_DEV_CREATE: %s", name,
			    strerror(errno));
		close(fd);
		return r;
	}
	r = load_and_resume(fd, name, sectors, target, params, false, &io,
			    err, errlen);
	close(fd);
	if (r)
		return r;
	snprintf(dev, devlen, "/dev/dm-%u", minor((dev_t)io.dev));
	if (gu_wait_path(dev, 5000)) {
		errno = ENOENT;
		return dm_fail(err, errlen, "dm %s: %s did not appear", name,
			       dev);
	}
	return 0;
}

int gdm_reload(const char *name, uint64_t sectors, const char *target,
	       const char *params, char *err, size_t errlen)
{
	int fd, r;

	r = dm_ioctl_fd(&fd, err, errlen);
	if (r)
		return r;
	r = load_and_resume(fd, name, sectors, target, params, true, NULL,
			    err, errlen);
	close(fd);
	return r;
}

int gdm_message(const char *name, const char *msg, char *err,
		size_t errlen)
{
	static char buf[DM_BUF] __aligned(8);
	struct dm_ioctl *io = (struct dm_ioctl *)buf;
	struct dm_target_msg *m;
	size_t size = sizeof(*io) + sizeof(*m) + strlen(msg) + 1;
	int fd, r;

	if (size > sizeof(buf)) {
		errno = E2BIG;
		return dm_fail(err, errlen, "dm %s: message too long", name);
	}
	r = dm_ioctl_fd(&fd, err, errlen);
	if (r)
		return r;
	size = (size + 7) & ~(size_t)7;
	dm_init(io, size, name);
	m = (struct dm_target_msg *)(buf + io->data_start);
	m->sector = 0;
	strcpy(m->message, msg);
	r = 0;
	if (ioctl(fd, DM_TARGET_MSG, buf))
		r = dm_fail(err, errlen, "dm %s: message '%s': %s", name, msg,
			    strerror(errno));
	close(fd);
	return r;
}
