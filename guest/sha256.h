/* SPDX-License-Identifier: GPL-2.0 */
/* SHA-256 for the guest programs (no library but libc). */
#ifndef GUEST_SHA256_H
#define GUEST_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct gsha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	uint8_t buf[64];
	size_t fill;
};

void gsha256_init(struct gsha256 *s);
void gsha256_update(struct gsha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL. */
void gsha256_final(struct gsha256 *s, char hex[65]);
/* The digest of file @path: 0, or -errno. */
int gsha256_file(const char *path, char hex[65]);

#endif
