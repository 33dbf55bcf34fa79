/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfs-ganesha for the nfsfile backend: a server of our own, NFSv4 only,
 * bound to 127.0.0.1, with a fresh export and recovery directory, started
 * before the guest and always stopped after it.
 */
#ifndef SWAPCTL_GANESHA_H
#define SWAPCTL_GANESHA_H

#include <stddef.h>
#include <sys/types.h>

struct ganesha {
	pid_t pid;		/* 0: not running */
	unsigned int port;
	char dir[4096];		/* conf, log, pid file, export/, recovery/ */
};

/*
 * The first byte of @path that a quoted ganesha.conf string cannot hold
 * ('"', '\\', a control byte), or NULL when there is none.
 */
const char *ganesha_bad_char(const char *path);

/*
 * The configuration text for @export_dir, @recovery_dir (malloc'ed).
 * NULL with errno EINVAL when a path has a ganesha_bad_char().
 */
char *ganesha_config(const char *export_dir, const char *recovery_dir,
		     unsigned int port);

/*
 * The swap file of the @nth nfsfile backend in the export: the plan's
 * file= (src/run/plan.c), made by ganesha_start().
 */
#define GANESHA_SWAPFILE_FMT	"swapfile-%d"

/*
 * Start ganesha.nfsd in @dir (created fresh) on 127.0.0.1:@port and wait
 * until it accepts connections. Before it starts, the export gets one
 * swap file per entry of @file_mb (GANESHA_SWAPFILE_FMT, mode 0600, that
 * many MiB allocated in full: the guest would take minutes to write it
 * over NFS). -1 with a one-line message in @err (the server is stopped
 * again then).
 */
int ganesha_start(struct ganesha *g, const char *dir, unsigned int port,
		  const unsigned int *file_mb, int nfiles, char *err,
		  size_t errlen);

/*
 * SIGTERM, then SIGKILL after a few seconds; removes the export's
 * contents. Safe to call when not running. Async-signal-unsafe.
 */
void ganesha_stop(struct ganesha *g);

/*
 * Faults: stop answering (SIGSTOP) and answer again (SIGCONT); kill the
 * server (SIGKILL) and start it again on the same export and recovery
 * directory (nothing is removed), waiting until it listens. 0 or -1.
 */
int ganesha_pause(struct ganesha *g);
int ganesha_resume(struct ganesha *g);
int ganesha_kill(struct ganesha *g);
int ganesha_restart(struct ganesha *g, char *err, size_t errlen);

/* Whether something accepts TCP connections on 127.0.0.1:@port. */
int ganesha_port_open(unsigned int port);

#endif
