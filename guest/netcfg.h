/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static IPv4 configuration without userland tools: ioctls only.
 */
#ifndef GUEST_NETCFG_H
#define GUEST_NETCFG_H

#include <stddef.h>
#include <stdint.h>

/* Netmask of a prefix length, host byte order. */
uint32_t gnet_mask(int prefix);

/*
 * Bring up lo and the first other interface in /sys/class/net with
 * @addr/@prefix, and a default route via @gw (0: none); addresses in host
 * byte order. Returns 0, or -1 with a reason in @err.
 */
int gnet_config(uint32_t addr, int prefix, uint32_t gw, char *ifname,
		size_t iflen, char *err, size_t errlen);

#endif
