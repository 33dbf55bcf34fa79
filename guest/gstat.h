/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing of /proc/vmstat, /proc/swaps, /proc/stat, /proc/pressure/memory,
 * /sys/block/<dev>/stat and zram mm_stat text into the agent's JSON members. Pure functions on text, so
 * that the JSON the agent emits is unit-tested.
 */
#ifndef GUEST_GSTAT_H
#define GUEST_GSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"

#define GSTAT_NAME_LEN	128
#define GSTAT_MAX_SWAPS	16

struct gstat_swap {
	char name[GSTAT_NAME_LEN];
	char type[16];
	uint64_t size_kb;
	uint64_t used_kb;
	int prio;
};

/* The /proc/vmstat fields the protocol carries (doc/HACKING.md). */
bool gstat_vmstat_wanted(const char *name);
/* Members "name":value of the wanted fields of @text into the open object;
 * returns the number written.
 */
int gstat_vmstat_members(struct gj *j, const char *text);
/* Array elements "name" of the wanted fields of @text; count returned. */
int gstat_vmstat_names(struct gj *j, const char *text);
/* The value of the /proc/vmstat line "@name N" of @text into *@v; 0, or
 * -1 when there is no such line or it is malformed.
 */
int gstat_vmstat_value(const char *text, const char *name, uint64_t *v);
/* Member "@dev":{rd_ios,...} from a /sys/block/<dev>/stat line; -1 if
 * malformed (nothing written then).
 */
int gstat_blk_member(struct gj *j, const char *dev, const char *text);
/* Member "@dev":{orig_data_size,...} from zram mm_stat; -1 if malformed. */
int gstat_mmstat_member(struct gj *j, const char *dev, const char *text);
/*
 * Member "cpu_ns":{user,nice,system,idle,iowait,irq,softirq,steal} from
 * the aggregate "cpu " line of /proc/stat (ticks of @hz per second, made
 * nanoseconds); -1 if there is no well-formed such line.
 */
int gstat_cpu_member(struct gj *j, const char *text, long hz);
/*
 * Member "psi":{"some_us":..,"full_us":..} from /proc/pressure/memory
 * (the total= of its "some" line, and of "full" when present); -1 if
 * there is no well-formed "some" line.
 */
int gstat_psi_member(struct gj *j, const char *text);
/*
 * Member "mem":{"free_kb":..,"min_kb":..,"writeback_kb":..}: free pages
 * and pages under writeback from /proc/vmstat (nr_free_pages,
 * nr_writeback), and the min watermarks of every zone summed from
 * /proc/zoneinfo (boost included), made KiB with @page_kb; -1 if one is
 * missing or malformed (nothing written then).
 */
int gstat_mem_member(struct gj *j, const char *vmstat, const char *zoneinfo,
		     long page_kb);
/*
 * Member "@key":{"state":"D","cpu_ns":N[,"wchan":".."]} from a task's
 * /proc/<pid>/stat (@stat: its state and utime + stime, ticks of @hz per
 * second) and, when not NULL and not "0", its /proc/<pid>/wchan (a
 * symbol with CONFIG_KALLSYMS); -1 if @stat is malformed (nothing
 * written then).
 */
int gstat_task_member(struct gj *j, const char *key, const char *stat,
		      const char *wchan, long hz);
/*
 * The size of a /sys/kernel/mm/transparent_hugepage entry
 * "hugepages-<digits>kB" into @size ("64kB"); -1 for any other name or
 * one that does not fit @len.
 */
int gstat_mthp_size(const char *entry, char *size, size_t len);
/*
 * A sysfs counter file's text: decimal digits and at most one '\n';
 * 0 with *@v, or -1 (empty, junk, or beyond 2^53).
 */
int gstat_sysfs_u64(const char *text, uint64_t *v);
/*
 * Member "memstat":{..} of a cgroup's memory.stat @text: those of
 * workingset_refault_anon, pgscan, pgsteal, zswpout that are there and
 * well-formed (a kernel without one leaves it out: n/a on the host, not
 * 0). Returns the number written.
 */
int gstat_memstat_member(struct gj *j, const char *text);
/* Parse /proc/swaps; returns the number of entries (at most @max). */
int gstat_parse_swaps(const char *text, struct gstat_swap *out, int max);
/* Array element {"name":..,"used_kb":..,"size_kb":..,"prio":..}. */
void gstat_swap_element(struct gj *j, const struct gstat_swap *s);

#endif
