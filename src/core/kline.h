/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel lines: Debian's linux-source-MAJOR.MINOR packages that swapctl
 * builds from (6.1, 6.12). A line selects the tarball, the series root
 * and the guest fragment (swapctl build --line), and names its kernels:
 * the 6.1 line's are kernels/<variant>/ (as before there were lines),
 * another line's kernels/<variant>@<line>/, so that the kernels of two
 * lines never overwrite each other. swapctl(1), swapctl.conf(5).
 */
#ifndef SWAPCTL_KLINE_H
#define SWAPCTL_KLINE_H

#include <stdbool.h>
#include <stddef.h>

/* the line of kernels/<variant>/ without a suffix, and the default */
#define KLINE_FIRST	"6.1"
#define KLINE_MAX	16	/* "MAJOR.MINOR" with NUL */
/*
 * The lines whose linux-source-<line> package `make deps` installs (the
 * Makefile's DEB_PKGS; tests/integration/test_hostile.py checks both).
 */
#define KLINE_DEPS	"6.1 6.12"
/* between a variant and its line in a kernel's name */
#define KLINE_SEP	'@'

/* Whether @line is MAJOR.MINOR (digits, one dot, digits, < KLINE_MAX). */
bool kline_valid(const char *line);

/* Whether @line is KLINE_FIRST (its kernels carry no suffix). */
bool kline_is_first(const char *line);

/*
 * The name of @variant's kernel of @line: <variant> for KLINE_FIRST,
 * else <variant>@<line>. -1 when it does not fit @len.
 */
int kline_kernel_name(char *buf, size_t len, const char *variant,
		      const char *line);

/* What kline_kernel_name() appends: "" or "@<line>". */
const char *kline_suffix(const char *line, char *buf, size_t len);

/* Whether @line (valid) is older than MAJOR.MINOR @major.@minor. */
bool kline_before(const char *line, unsigned int major, unsigned int minor);

/* Debian's tarball of @line: /usr/src/linux-source-<line>.tar.xz. */
int kline_tarball(char *buf, size_t len, const char *line);

/*
 * MAJOR.MINOR of a kernel release ("6.12.57+" is 6.12) or of a top
 * Makefile's VERSION and PATCHLEVEL; -1 when it does not say.
 */
int kline_of_release(const char *release, char *buf, size_t len);
int kline_of_makefile(const char *text, char *buf, size_t len);

#endif
