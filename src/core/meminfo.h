/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's /proc/meminfo: how much memory it has (a scenario's guest
 * must fit) and has free (run --parallel's waves). The guest side has
 * its own, gu_meminfo_kb() in guest/gutil.c.
 */
#ifndef SWAPCTL_MEMINFO_H
#define SWAPCTL_MEMINFO_H

/*
 * The value of the line "@key: N kB" of /proc/meminfo text @text into
 * *@kb; 0, or -1 when there is no such line (*@kb untouched then).
 */
int meminfo_parse(const char *text, const char *key, unsigned long long *kb);

/* The host's /proc/meminfo @key ("MemTotal", "MemAvailable") in MiB, 0
 * if unknown.
 */
unsigned long long meminfo_mb(const char *key);

#endif
