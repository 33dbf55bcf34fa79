/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small I/O helpers shared by the guest programs. Nothing here runs at
 * load time.
 */
#ifndef GUEST_GUTIL_H
#define GUEST_GUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../common/agentproto.h"
#include "compiler.h"

/* the protocol's numbers (common/agentproto.h) */
#define GU_PORT_NAME	AGENT_PORT_NAME
#define GU_LINE_MAX	AGENT_LINE_MAX	/* protocol line, '\n' included */
#define GU_PIPE_LINE	AGENT_PRODUCER_LINE_MAX	/* atomic pipe writes */

/* Read a whole (small) file; NUL-terminated. Returns length or -errno. */
ssize_t gu_read_file(const char *path, char *buf, size_t cap);
/* Write @s to an existing file (sysfs/procfs). Returns 0 or -errno. */
int gu_write_file(const char *path, const char *s);
int gu_write_all(int fd, const void *buf, size_t len);
void gu_sleep_ms(unsigned int ms);
/* The /proc/vmstat counter @name now into *@v; 0, or -1 if it is absent
 * or unreadable.
 */
int gu_vmstat_read(const char *name, uint64_t *v);
/* The /proc/vmstat counter @name now, 0 if it is absent or unreadable. */
uint64_t gu_vmstat(const char *name);
/* The /proc/meminfo line "@key: N kB" now, in kB; 0 if absent. */
uint64_t gu_meminfo_kb(const char *key);
/* Wait up to @ms for @path to exist. Returns 0 or -ENOENT. */
int gu_wait_path(const char *path, unsigned int ms);
/*
 * The block device (e.g. "vda", "zram0") behind @path: the device itself
 * for a block special file, the one holding it for a regular file.
 * Returns 0, or -1 when there is none (NFS, tmpfs).
 */
int gu_blkdev_of(const char *path, char *name, size_t len);
/*
 * The workload's running totals, in a shared mapping of GU_PROGRESS_PATH
 * (tmpfs), so that init and the watchdog can report how far it got (and any
 * corrupt page it found) if it is killed or times out.
 */
#define GU_PROGRESS_PATH	"/run/swapctl-progress"

#define GU_FAULT_ERROR_LEN	320

struct gu_progress {
	uint64_t pages_written;
	uint64_t pages_verified;
	uint64_t pages_corrupt;
	uint64_t corrupt_distinct;
	int64_t first_corrupt;
	/* SIGBUS on access: the kernel said it could not swap the page in */
	uint64_t pages_failed;
	uint64_t failed_distinct;
	/* index of the phase that started last, -1 before the first */
	int64_t phase;
	/* the fault process has started the faults of phases <= this */
	int64_t fault_ack;
	/*
	 * The first guest fault that could not be set up (or undone), ""
	 * while none: the fault process writes it, the workload's result
	 * is then "error" with it as the reason.
	 */
	char fault_error[GU_FAULT_ERROR_LEN];
};

/* Names of the swap backends as swapped on, one per line (init writes). */
#define GU_BACKENDS_PATH	"/run/swapctl-backends"

/* Map (creating) @path; on failure a private zeroed struct. Never NULL. */
struct gu_progress *gu_progress_map(const char *path);
/* Read a snapshot; 0, or -1 (then *@p is zeroed, first_corrupt -1). */
int gu_progress_read(const char *path, struct gu_progress *p);

/* "/dev/vportNpM" of the virtio-serial port named @name, or -ENOENT. */
int gu_find_port(const char *name, char *dev, size_t len);

/*
 * Producer side of the protocol: send a finished line (from gj_finish())
 * to @fd with one write(2), so that concurrent producers never interleave.
 */
int gu_emit(int fd, const char *line, int len);
/* {"t_ns":..,"type":"log","level":@level,"msg":@msg} to @fd. */
__printf(3, 4) void gu_log(int fd, const char *level, const char *fmt, ...);

struct gj;

/*
 * The result line of a producer that ends with one (the workload, the
 * command runner), set once by gu_result_setup() before the first
 * gu_fatal(): {"type":"result","status":..,"pages":*@pages, the page
 * counters of *@progress (zeros and first_corrupt -1 without one), what
 * @members adds, "reason":..}.
 */
struct gu_result {
	const char *name;			/* gu_fatal()'s prefix */
	const size_t *pages;			/* NULL: 0 pages */
	const struct gu_progress *progress;	/* NULL: no page written */
	void (*members)(struct gj *j);		/* the program's own, or NULL */
};

void gu_result_setup(const struct gu_result *r);
/* The result line with @status and @reason to stdout. */
void gu_result(const char *status, const char *reason);
/* "@name: reason" to stderr, the result line "error" with it, exit(2). */
__noreturn __printf(1, 2) void gu_fatal(const char *fmt, ...);

#endif
