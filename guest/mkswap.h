/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Swap area header, version 1 (what mkswap(8) writes; see the kernel's
 * union swap_header in include/linux/swap.h).
 */
#ifndef GUEST_MKSWAP_H
#define GUEST_MKSWAP_H

#include <stddef.h>
#include <stdint.h>

#include "compiler.h"

#define GSWAP_MAGIC		"SWAPSPACE2"
#define GSWAP_MAGIC_LEN		10
#define GSWAP_INFO_OFF		1024	/* after the boot bits */
#define GSWAP_MIN_PAGES		10	/* the kernel rejects tinier areas */
#define GSWAP_LABEL_LEN		16

struct gswap_info {
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char uuid[16];
	char volume[GSWAP_LABEL_LEN];
} __packed;

/*
 * Build the first page (@pagesize bytes, zeroed first) of a swap area of
 * @size_bytes. Returns 0, or -1 if the area is too small or too large
 * for a v1 header.
 */
int gswap_header(void *page, size_t pagesize, uint64_t size_bytes,
		 const unsigned char uuid[16], const char *label);

/*
 * Write the header at offset 0 of @fd (a block device or a file of
 * @size_bytes) and fsync. Returns 0 or -errno.
 */
int gswap_write(int fd, uint64_t size_bytes, const char *label);

#endif
