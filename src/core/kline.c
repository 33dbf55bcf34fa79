// SPDX-License-Identifier: GPL-2.0
/* Kernel lines (kline.h): their names, tarballs and kernels' names. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kline.h"

bool kline_valid(const char *line)
{
	unsigned int dots = 0, digits = 0;
	const char *p;

	for (p = line; *p; p++) {
		if (*p == '.' && digits && !dots) {
			dots++;
			digits = 0;
		} else if (isdigit((unsigned char)*p)) {
			digits++;
		} else {
			return false;
		}
	}
	return dots == 1 && digits && p - line < KLINE_MAX;
}

bool kline_is_first(const char *line)
{
	return !strcmp(line, KLINE_FIRST);
}

const char *kline_suffix(const char *line, char *buf, size_t len)
{
	if (kline_is_first(line) ||
	    snprintf(buf, len, "%c%s", KLINE_SEP, line) >= (int)len)
		buf[0] = '\0';
	return buf;
}

int kline_kernel_name(char *buf, size_t len, const char *variant,
		      const char *line)
{
	int n;

	if (kline_is_first(line))
		n = snprintf(buf, len, "%s", variant);
	else
		n = snprintf(buf, len, "%s%c%s", variant, KLINE_SEP, line);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

bool kline_before(const char *line, unsigned int major, unsigned int minor)
{
	unsigned int a = 0, b = 0;

	if (sscanf(line, "%u.%u", &a, &b) != 2)
		return false;
	return a < major || (a == major && b < minor);
}

int kline_tarball(char *buf, size_t len, const char *line)
{
	int n = snprintf(buf, len, "/usr/src/linux-source-%s.tar.xz", line);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int kline_of_release(const char *release, char *buf, size_t len)
{
	unsigned int major, minor;
	int n = 0;

	if (!release || sscanf(release, "%u.%u%n", &major, &minor, &n) != 2 ||
	    !n || snprintf(buf, len, "%u.%u", major, minor) >= (int)len)
		return -1;
	return 0;
}

/* The value of "KEY = N" at the start of a line of @text, or -1. */
static long make_var(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + kl;

		if (strncmp(p, key, kl))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '=')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!isdigit((unsigned char)*q))
			return -1;
		return strtol(q, NULL, 10);
	}
	return -1;
}

int kline_of_makefile(const char *text, char *buf, size_t len)
{
	long v = make_var(text, "VERSION"), pl = make_var(text, "PATCHLEVEL");

	if (v < 0 || pl < 0 || snprintf(buf, len, "%ld.%ld", v, pl) >= (int)len)
		return -1;
	return 0;
}
