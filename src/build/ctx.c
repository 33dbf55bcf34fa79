// SPDX-License-Identifier: GPL-2.0
/*
 * The shared context of the parts of `swapctl build` (build.h): its
 * messages and small helpers. It calls none of them and cmd/build.c
 * calls it; kernel-tree.c, kconfig.c, kmake.c and initramfs.c use only
 * this layer and each other's declared functions, never cmd_build's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

void build_fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("swapctl build: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void build_info(const char *fmt, ...)
{
	va_list ap;

	fputs("swapctl build: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Report a child that could not run or failed; returns the exit code. */
int build_run_failed(const char *what, const char *prog, int st)
{
	if (st < 0 && errno == ENOENT) {
		build_fail("%s: '%s' not found (run 'make deps')", what, prog);
		return EXIT_SETUP;
	}
	if (st < 0) {
		build_fail("%s: cannot run '%s': %s", what, prog, strerror(errno));
		return EXIT_SETUP;
	}
	if (st == 128 + 2 || st == 128 + 15)
		return EXIT_INTERRUPTED;
	return 0;
}

char *build_trim_nl(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

/* Does the file hold exactly @text? */
bool build_file_equals(const char *path, const char *text)
{
	char *cur = util_read_file(path, NULL);
	bool eq = cur && !strcmp(cur, text);

	free(cur);
	return eq;
}

/* Append @s to the string @buf of @len bytes if it fits. */
void build_append(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + strlen(s) + 1 < len)
		memcpy(buf + n, s, strlen(s) + 1);
}

int build_hash_fragment(struct build_ctx *c)
{
	if (util_sha256_file(c->fragment, c->fragment_sha)) {
		build_fail("%s: %s", c->fragment, strerror(errno));
		return -1;
	}
	return 0;
}
