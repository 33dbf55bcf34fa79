/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device-mapper through its ioctls (linux/dm-ioctl.h), for the guest's
 * fault injection: no dmsetup, no udev. The guest's devtmpfs makes the
 * nodes /dev/mapper/control and /dev/dm-N.
 */
#ifndef GUEST_DM_H
#define GUEST_DM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Create device @name with one target @target (e.g. "linear", "dust")
 * of @sectors sectors and parameters @params, and make it live. Writes
 * its node ("/dev/dm-N") into @dev. Returns 0 or -errno; @err says what
 * failed.
 */
int gdm_create(const char *name, uint64_t sectors, const char *target,
	       const char *params, char *dev, size_t devlen, char *err,
	       size_t errlen);

/* Replace the table of @name (load, suspend, resume). 0 or -errno. */
int gdm_reload(const char *name, uint64_t sectors, const char *target,
	       const char *params, char *err, size_t errlen);

/* Send @msg to the target of @name at sector 0. 0 or -errno. */
int gdm_message(const char *name, const char *msg, char *err,
		size_t errlen);

/*
 * Build the DM_TABLE_LOAD payload (struct dm_ioctl, one dm_target_spec,
 * the parameters) into @buf of @len bytes. Returns its size or -1 when
 * it does not fit. Pure, for the unit tests.
 */
int gdm_table_buf(void *buf, size_t len, const char *name, uint64_t sectors,
		  const char *target, const char *params);

#endif
