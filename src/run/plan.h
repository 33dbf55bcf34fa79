/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-run plan: the scenario turned into the plain-text directives
 * guest/init reads from /swapctl/plan (format in doc/HACKING.md).
 */
#ifndef SWAPCTL_PLAN_H
#define SWAPCTL_PLAN_H

#include <stddef.h>

#include "scenario.h"

/*
 * The plan text for a guest of @memory_mb MiB; @nfs_port is the port of
 * the host's NFS server. Returns a malloc'ed string or NULL (no memory).
 */
char *plan_text(const struct scenario *s, unsigned int memory_mb,
		unsigned int nfs_port);

/*
 * %XX-escape @s for a plan word (guest/gplan.c decodes it): everything but
 * letters, digits and "._,/:+@=-". Bounded like snprintf: returns the
 * length needed.
 */
size_t plan_escape(char *buf, size_t len, const char *s);

/*
 * Check @plan (for the scenario file @file) with the guest's own parser
 * (guest/gplan.c, linked into the host): what the guest would refuse after
 * booting is refused here. Returns 0, or -1 with "FILE: the guest would
 * refuse the plan: line N: ..." in @err.
 */
int plan_check(const char *file, const char *plan, char *err, size_t errlen);

/*
 * Write @out: a copy of the initramfs @base followed by a newc archive
 * holding /swapctl/plan with @plan. Written to a temporary name and
 * renamed. Returns 0, or -1 with a one-line message in @err.
 */
int plan_make_initrd(const char *base, const char *plan, const char *out,
		     char *err, size_t errlen);

#endif
