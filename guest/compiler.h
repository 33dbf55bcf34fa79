/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel-style helpers the guest programs use (userspace has no
 * <linux/compiler.h>).
 */
#ifndef GUEST_COMPILER_H
#define GUEST_COMPILER_H

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((noreturn))
#endif
#ifndef __packed
#define __packed	__attribute__((packed))
#endif
#ifndef __aligned
#define __aligned(x)	__attribute__((aligned(x)))
#endif

#endif
