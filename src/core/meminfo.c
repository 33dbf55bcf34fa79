// SPDX-License-Identifier: GPL-2.0
/* The host's /proc/meminfo (meminfo.h). */
#include <stdio.h>
#include <string.h>

#include "meminfo.h"

int meminfo_parse(const char *text, const char *key, unsigned long long *kb)
{
	size_t n = strlen(key);
	const char *s = text;

	while (s && *s) {
		if (!strncmp(s, key, n) && s[n] == ':' &&
		    sscanf(s + n + 1, " %llu kB", kb) == 1)
			return 0;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return -1;
}

unsigned long long meminfo_mb(const char *key)
{
	unsigned long long kb = 0;
	char text[8192];
	size_t n;
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return 0;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	return meminfo_parse(text, key, &kb) ? 0 : kb / 1024;
}
