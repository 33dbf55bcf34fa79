// SPDX-License-Identifier: GPL-2.0
/*
 * Our own mkswap: the v1 swap header (see mkswap.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkswap.h"

int gswap_header(void *page, size_t pagesize, uint64_t size_bytes,
		 const unsigned char uuid[16], const char *label)
{
	struct gswap_info info;
	uint64_t pages;

	if (pagesize < GSWAP_INFO_OFF + sizeof(info) + GSWAP_MAGIC_LEN)
		return -1;
	pages = size_bytes / pagesize;
	if (pages < GSWAP_MIN_PAGES || pages - 1 > UINT32_MAX)
		return -1;
	memset(page, 0, pagesize);
	memset(&info, 0, sizeof(info));
	info.version = 1;
	info.last_page = (uint32_t)(pages - 1);
	info.nr_badpages = 0;
	memcpy(info.uuid, uuid, 16);
	if (label)	/* NUL-padded, not necessarily NUL-terminated */
		memcpy(info.volume, label, strnlen(label, GSWAP_LABEL_LEN));
	memcpy((char *)page + GSWAP_INFO_OFF, &info, sizeof(info));
	memcpy((char *)page + pagesize - GSWAP_MAGIC_LEN, GSWAP_MAGIC,
	       GSWAP_MAGIC_LEN);
	return 0;
}

static void make_uuid(unsigned char uuid[16])
{
	ssize_t n = -1;
	int fd, i;

	fd = open("/proc/sys/kernel/random/uuid", O_RDONLY);
	if (fd >= 0) {
		char txt[40];

		n = read(fd, txt, sizeof(txt) - 1);
		close(fd);
		if (n >= 36) {
			int k = 0;

			for (i = 0; i < 36 && k < 16; i += 2) {
				char hex[3];

				if (txt[i] == '-')
					i++;
				hex[0] = txt[i];
				hex[1] = txt[i + 1];
				hex[2] = '\0';
				uuid[k++] = (unsigned char)strtoul(hex, NULL,
								   16);
			}
			if (k == 16)
				return;
		}
	}
	/* No random source: a fixed, still valid v4-style UUID. */
	for (i = 0; i < 16; i++)
		uuid[i] = (unsigned char)(0x5a ^ i);
	uuid[6] = (uuid[6] & 0x0f) | 0x40;
	uuid[8] = (uuid[8] & 0x3f) | 0x80;
}

int gswap_write(int fd, uint64_t size_bytes, const char *label)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned char uuid[16];
	size_t off = 0;
	char *page;
	int ret = 0;

	if (ps <= 0)
		ps = 4096;
	page = malloc((size_t)ps);
	if (!page)
		return -ENOMEM;
	make_uuid(uuid);
	if (gswap_header(page, (size_t)ps, size_bytes, uuid, label)) {
		free(page);
		return -EINVAL;
	}
	while (off < (size_t)ps) {
		ssize_t n = pwrite(fd, page + off, (size_t)ps - off, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		off += (size_t)n;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	free(page);
	return ret;
}
