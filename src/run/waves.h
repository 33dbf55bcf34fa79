/* SPDX-License-Identifier: GPL-2.0 */
/*
 * waves: which guests of a run start together (`swapctl run --parallel
 * N`), and whether N of them fit this host.
 *
 * The guests are numbered in the serial order, repeat by repeat and the
 * kernels in the scenario's order within each (A1 B1 A2 B2 ...): that is
 * their order in the results whatever order they finish in. A wave is a
 * run of consecutive guests that start together; the next wave starts
 * when every guest of this one has ended. With N at least the number of
 * kernels K a wave is N / K whole repeats (N rounded down to whole
 * repeats, so every kernel of a repeat runs beside the others); with N
 * below K each repeat is split into waves of N. A wave never ends inside
 * a repeat when N >= K, and never spans two repeats when N < K: a stop
 * condition between repeats is checked between waves.
 */
#ifndef SWAPCTL_WAVES_H
#define SWAPCTL_WAVES_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"

#define WAVES_MAX_PARALLEL	CONFIG_PARALLEL_MAX

/*
 * Host memory a guest takes beyond its own RAM: QEMU itself (TCG's
 * translation cache, devices; a 256 MiB bdev-swap or nfs-swap guest's
 * QEMU peaked at 335 MiB resident, VmHWM) and, for NFS scenarios, its
 * ganesha.nfsd (peaked at 16 MiB during nfs-swap). Rounded up.
 */
#define WAVES_QEMU_OVERHEAD_MB	128
#define WAVES_GANESHA_MB	32

/*
 * How many guests start together from guest @first (0-based, serial
 * order) of @total, with @nkernels kernels per repeat and at most
 * @parallel at once. 0 when @first >= @total.
 */
unsigned int waves_size(unsigned int nkernels, unsigned int total,
			unsigned int parallel, unsigned int first);

/* The most guests any wave of the run holds (the run's real width). */
unsigned int waves_width(unsigned int nkernels, unsigned int total,
			 unsigned int parallel);

/* Host memory one guest needs: RAM + QEMU, + ganesha when @nfs. */
unsigned int waves_guest_host_mb(unsigned int memory_mb, bool nfs);

/*
 * Do @width guests of @guest_mb host MiB each fit @avail_mb (the host's
 * MemAvailable; 0: unknown, not checked)? 0, or -1 with the figures in
 * @msg: "4 guests x 384 MiB = 1536 MiB > 1200 MiB available".
 */
int waves_check_memory(unsigned int width, unsigned int guest_mb,
		       unsigned long long avail_mb, char *msg, size_t len);

/*
 * Do @width guests of @cpus vCPUs each fit @host_cpus (0: unknown)? 0,
 * or 1 with the figures in @msg (a warning: TCG guests share the CPUs,
 * they only run slower).
 */
int waves_check_cpus(unsigned int width, unsigned int cpus,
		     unsigned int host_cpus, char *msg, size_t len);

/*
 * ---- several hosts (`hosts` in swapctl.conf) ----
 *
 * Repeats are handed out whole, so that the kernels of a repeat run on
 * one host (a pair is compared on the same host): a host that is free
 * takes a batch of whole repeats and runs it in waves (waves_size() over
 * the batch's guests, at most its capacity at once). Of the free hosts,
 * the one with the most capacity takes the next batch.
 */
struct waves_host {
	unsigned int capacity;	/* guests at once there; 0: none fit */
	bool busy, lost;
};

/*
 * How many guests of @guest_mb host MiB fit @free_mb, at most @parallel
 * and at least 0.
 */
unsigned int waves_capacity(unsigned long long free_mb, unsigned int guest_mb,
			    unsigned int parallel);

/*
 * The free host (not busy, not lost, capacity > 0) with the most capacity
 * (the first of equals); -1 when none is free.
 */
int waves_pick_host(const struct waves_host *h, unsigned int nhosts);

/*
 * How many whole repeats a host of @capacity takes at once, of @left:
 * @capacity / @nkernels, at least 1 (a host that fits fewer guests than
 * kernels runs a repeat in parts), at most @left.
 */
unsigned int waves_batch(unsigned int nkernels, unsigned int capacity,
			 unsigned int left);

/* MemAvailable of /proc/meminfo in MiB, 0 if unknown. */
unsigned long long waves_mem_available_mb(void);

/*
 * Whether libvirt URI @uri reaches this machine's own libvirt: "local",
 * a URI without a host (qemu:///system, qemu+unix:///session?socket=..)
 * or with host localhost, 127.x.y.z or [::1] (user@ and :port aside).
 * A guest there reaches this machine's NFS server (QEMU's 10.0.2.2 is
 * the machine QEMU runs on) and its root for the 9p share.
 */
bool waves_uri_loopback(const char *uri);

#endif
