// SPDX-License-Identifier: GPL-2.0
/* waves: the waves of guests of `swapctl run --parallel`. See waves.h. */
#include <stdio.h>
#include <string.h>

#include "meminfo.h"
#include "waves.h"

unsigned int waves_size(unsigned int nkernels, unsigned int total,
			unsigned int parallel, unsigned int first)
{
	unsigned int n, left;

	if (!nkernels || first >= total)
		return 0;
	left = total - first;
	if (parallel < 1)
		parallel = 1;
	if (parallel >= nkernels) {
		/* whole repeats, from a repeat's first kernel */
		n = parallel / nkernels * nkernels - first % nkernels;
	} else {
		/* a part of one repeat */
		n = nkernels - first % nkernels;
		if (n > parallel)
			n = parallel;
	}
	return n < left ? n : left;
}

unsigned int waves_width(unsigned int nkernels, unsigned int total,
			 unsigned int parallel)
{
	unsigned int first = 0, n, width = 0;

	while ((n = waves_size(nkernels, total, parallel, first))) {
		if (n > width)
			width = n;
		first += n;
	}
	return width;
}

unsigned int waves_guest_host_mb(unsigned int memory_mb, bool nfs)
{
	return memory_mb + WAVES_QEMU_OVERHEAD_MB + (nfs ? WAVES_GANESHA_MB : 0);
}

int waves_check_memory(unsigned int width, unsigned int guest_mb,
		       unsigned long long avail_mb, char *msg, size_t len)
{
	unsigned long long need = (unsigned long long)width * guest_mb;

	if (!avail_mb || need <= avail_mb)
		return 0;
	snprintf(msg, len, "%u guests x %u MiB = %llu MiB > %llu MiB available",
		 width, guest_mb, need, avail_mb);
	return -1;
}

int waves_check_cpus(unsigned int width, unsigned int cpus,
		     unsigned int host_cpus, char *msg, size_t len)
{
	unsigned long long need = (unsigned long long)width * cpus;

	if (!host_cpus || need <= host_cpus)
		return 0;
	snprintf(msg, len, "%u guests x %u vCPUs = %llu vCPUs > %u host CPUs",
		 width, cpus, need, host_cpus);
	return 1;
}

unsigned long long waves_mem_available_mb(void)
{
	return meminfo_mb("MemAvailable");
}

unsigned int waves_capacity(unsigned long long free_mb, unsigned int guest_mb,
			    unsigned int parallel)
{
	unsigned long long n = guest_mb ? free_mb / guest_mb : parallel;

	return n < parallel ? (unsigned int)n : parallel;
}

int waves_pick_host(const struct waves_host *h, unsigned int nhosts)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < nhosts; i++) {
		if (h[i].busy || h[i].lost || !h[i].capacity)
			continue;
		if (best < 0 || h[i].capacity > h[best].capacity)
			best = (int)i;
	}
	return best;
}

unsigned int waves_batch(unsigned int nkernels, unsigned int capacity,
			 unsigned int left)
{
	unsigned int n = nkernels ? capacity / nkernels : 0;

	if (n < 1)
		n = 1;
	return n < left ? n : left;
}

bool waves_uri_loopback(const char *uri)
{
	const char *h, *e, *at;
	size_t n;

	if (!strcmp(uri, "local"))
		return true;
	h = strstr(uri, "://");
	if (!h)
		return false;
	h += 3;
	e = h + strcspn(h, "/?");
	at = memchr(h, '@', (size_t)(e - h));
	if (at)
		h = at + 1;
	if (*h == '[') {
		/* [::1] or [::1]:port */
		return !strncmp(h, "[::1]", 5) && (h + 5 == e || h[5] == ':');
	}
	n = strcspn(h, ":/?");
	if (h + n > e)
		n = (size_t)(e - h);
	if (!n)
		return true;
	if (n == 9 && !strncmp(h, "localhost", 9))
		return true;
	return n > 4 && !strncmp(h, "127.", 4) &&
	       strspn(h, "0123456789.") >= n;
}
