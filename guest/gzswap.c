// SPDX-License-Identifier: GPL-2.0
/*
 * zswap's debugfs counters (see gzswap.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "gutil.h"
#include "gzswap.h"

int gzswap_parse_u64(const char *text, uint64_t *v)
{
	unsigned long long n;
	char *end;

	if (*text < '0' || *text > '9')
		return -1;
	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno || (*end && strcmp(end, "\n")))
		return -1;
	*v = n;
	return 0;
}

static int read_one(const char *dir, const char *name, uint64_t *v)
{
	char path[256], buf[64];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = gu_read_file(path, buf, sizeof(buf));
	if (n < 0) {
		errno = (int)-n;
		return -1;
	}
	if (gzswap_parse_u64(buf, v)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int gzswap_read(const char *dir, struct gzswap *z)
{
	struct gzswap n = *z;

	if (read_one(dir, "written_back_pages", &n.written_back_pages) ||
	    read_one(dir, "pool_total_size", &n.pool_total_size) ||
	    read_one(dir, "pool_limit_hit", &n.pool_limit_hit))
		return -1;
	if (n.pool_total_size > n.pool_peak)
		n.pool_peak = n.pool_total_size;
	n.read = true;
	*z = n;
	return 0;
}

bool gzswap_enabled(const struct gplan *p)
{
	int i;

	for (i = 0; i < p->nzswap; i++)
		if (!strcmp(p->zswap[i].key, "enabled"))
			return !strcmp(p->zswap[i].val, "1") ||
			       !strcmp(p->zswap[i].val, "Y");
	return false;
}

int gzswap_sample(struct gzswap *z)
{
	if (access(GZSWAP_DIR, F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	return gzswap_read(GZSWAP_DIR, z);
}

void gzswap_values(struct gj *j, const struct gzswap *z)
{
	if (!z->read)
		return;
	gj_obj_open(j, "values");
	gj_u64(j, "zswap_written_back_pages", z->written_back_pages);
	gj_u64(j, "zswap_pool_peak_kib", z->pool_peak >> 10);
	gj_u64(j, "zswap_pool_limit_hit", z->pool_limit_hit);
	gj_obj_close(j);
}
