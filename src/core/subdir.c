// SPDX-License-Identifier: GPL-2.0
/* The one directory in a directory (subdir.h). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "subdir.h"

static bool is_tmp(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && !strcmp(name + n - 4, ".tmp");
}

int subdir_only(const char *dir, char *name, size_t len)
{
	struct dirent *d;
	int n = 0;
	DIR *dh;

	dh = opendir(dir);
	if (!dh)
		return -1;
	while ((d = readdir(dh))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR ||
		    is_tmp(d->d_name))
			continue;
		if (!n++)
			snprintf(name, len, "%s", d->d_name);
	}
	closedir(dh);
	return n == 1 ? 0 : -1;
}
