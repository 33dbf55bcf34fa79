/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run directory (doc/HACKING.md "Run directory") and the scan of a
 * guest's console log for kernel problems.
 */
#ifndef SWAPCTL_RUNDIR_H
#define SWAPCTL_RUNDIR_H

#include <stddef.h>
#include <time.h>

/*
 * Create <workdir>/runs/<id>/ with id "YYYYmmdd-HHMMSS-<name>" (local
 * time @now; "-2", "-3"... when taken) and point runs/latest at it.
 * Fills @id and @dir. -1 with a one-line message in @err.
 */
int rundir_create(const char *workdir, const char *name, time_t now,
		  char *id, size_t idlen, char *dir, size_t dirlen,
		  char *err, size_t errlen);

struct console_scan {
	int problems;		/* BUG:, WARNING:, Oops, panic, Call Trace */
	char first[200];	/* the first such line, control chars as ' ' */
	int oom_kills;		/* OOM killer reports (not problems) */
	/*
	 * The kernel's swap I/O error lines (not problems: a fault
	 * scenario injects them), plus what its rate limit suppressed
	 * ("end_swap_bio_read: N callbacks suppressed"). Still a lower
	 * bound: suppressed lines are only reported by a later one.
	 */
	int swap_write_errors;	/* "Write-error on swap-device" */
	int swap_read_errors;	/* "Read-error on swap-device" */
};

/*
 * Scan the console text @text (modified: split into lines). A Call Trace
 * inside an OOM killer report is not a problem; everything else listed
 * is. Swap I/O error lines are counted apart.
 */
void console_scan_text(char *text, struct console_scan *cs);

/* The same for a file; a missing file scans as empty. */
void console_scan_file(const char *path, struct console_scan *cs);

#endif
