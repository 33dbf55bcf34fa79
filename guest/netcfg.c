// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 interface and default route through ioctls (see netcfg.h).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netcfg.h"

uint32_t gnet_mask(int prefix)
{
	if (prefix <= 0)
		return 0;
	if (prefix >= 32)
		return 0xffffffffu;
	return ~((1u << (32 - prefix)) - 1);
}

static void set_sin(struct sockaddr *sa, uint32_t addr)
{
	struct sockaddr_in sin;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(addr);
	memcpy(sa, &sin, sizeof(sin));
}

static int if_up(int s, const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		return -1;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	return ioctl(s, SIOCSIFFLAGS, &ifr);
}

static int first_iface(char *name, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int ret = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo"))
			continue;
		if (strlen(e->d_name) >= len || strlen(e->d_name) >= IFNAMSIZ)
			continue;
		/* readdir order is not sorted: keep the smallest name */
		if (ret == 0 && strcmp(e->d_name, name) >= 0)
			continue;
		strcpy(name, e->d_name);
		ret = 0;
	}
	closedir(d);
	return ret;
}

int gnet_config(uint32_t addr, int prefix, uint32_t gw, char *ifname,
		size_t iflen, char *err, size_t errlen)
{
	struct ifreq ifr;
	struct rtentry rt;
	int s, ret = -1;

	if (first_iface(ifname, iflen)) {
		snprintf(err, errlen, "net: no network interface in /sys/class/net");
		return -1;
	}
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		snprintf(err, errlen, "net: socket: %s", strerror(errno));
		return -1;
	}
	if_up(s, "lo");

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	set_sin(&ifr.ifr_addr, addr);
	if (ioctl(s, SIOCSIFADDR, &ifr)) {
		snprintf(err, errlen, "net: SIOCSIFADDR %s: %s", ifname,
			 strerror(errno));
		goto out;
	}
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	set_sin(&ifr.ifr_netmask, gnet_mask(prefix));
	if (ioctl(s, SIOCSIFNETMASK, &ifr)) {
		snprintf(err, errlen, "net: SIOCSIFNETMASK %s: %s", ifname,
			 strerror(errno));
		goto out;
	}
	if (if_up(s, ifname)) {
		snprintf(err, errlen, "net: SIOCSIFFLAGS %s up: %s", ifname,
			 strerror(errno));
		goto out;
	}
	if (gw) {
		memset(&rt, 0, sizeof(rt));
		set_sin(&rt.rt_dst, 0);
		set_sin(&rt.rt_genmask, 0);
		set_sin(&rt.rt_gateway, gw);
		rt.rt_flags = RTF_UP | RTF_GATEWAY;
		rt.rt_dev = ifname;
		if (ioctl(s, SIOCADDRT, &rt) && errno != EEXIST) {
			snprintf(err, errlen, "net: SIOCADDRT default via gw: %s",
				 strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	close(s);
	return ret;
}
