/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run directory (doc/HACKING.md "Run directory") and the scan of a
 * guest's console log for kernel problems.
 */
#ifndef SWAPCTL_RUNDIR_H
#define SWAPCTL_RUNDIR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

/*
 * Create <workdir>/runs/<id>/ with id "YYYYmmdd-HHMMSS-<name>" (local
 * time @now; "-2", "-3"... when taken) and point runs/latest at it.
 * Fills @id and @dir. -1 with a one-line message in @err.
 */
int rundir_create(const char *workdir, const char *name, time_t now,
		  char *id, size_t idlen, char *dir, size_t dirlen,
		  char *err, size_t errlen);

struct scenario;

/*
 * <@workdir>/run.lock, taken (*@fd, to close when the run is done) or
 * waited for until *@stop: one run at a time per work directory (the
 * embedded driver allows one process per root, and two TCG guests would
 * skew each other). 0, EXIT_INTERRUPTED or EXIT_SETUP after one line.
 */
int rundir_lock(const char *workdir, const atomic_int *stop, int *fd);

/* <@dir>/state := @state (running, done), for top; -1 with errno. */
int rundir_state(const char *dir, const char *state);
/*
 * The files of a new run directory @dir: scenario.json (a copy of
 * scn->file), plan.txt (@plan), kernels (the kernels compared, the
 * reference first) and state "running". -1 with @err set.
 */
int rundir_write(const char *dir, const struct scenario *scn,
		 const char *plan, char *err, size_t errlen);

#define CONSOLE_LINE_MAX	200	/* bytes of a quoted line, with NUL */
#define CONSOLE_MAX_SPLATS	8	/* splats quoted (more are counted) */
#define CONSOLE_SPLAT_LINES	40	/* lines quoted per splat */

/*
 * One kernel report on the console: the line that started it and the
 * ones after it, up to its end ("---[ end", "</TASK>", a "====" rule) or
 * CONSOLE_SPLAT_LINES.
 */
struct console_splat {
	const char *kind;	/* "lockdep", "kasan", "bad-page", ... */
	int nlines;
	char lines[CONSOLE_SPLAT_LINES][CONSOLE_LINE_MAX];
	bool truncated;		/* it went on beyond CONSOLE_SPLAT_LINES */
};

struct console_scan {
	int problems;		/* lines matching a problem pattern */
	char first[CONSOLE_LINE_MAX];	/* the first such line, control
					 * chars as ' '
					 */
	int oom_kills;		/* OOM killer reports (not problems) */
	int nsplats;		/* reports found (may exceed the quoted) */
	struct console_splat splat[CONSOLE_MAX_SPLATS];
	/*
	 * The kernel's swap I/O error lines (not problems: a fault
	 * scenario injects them), plus what its rate limit suppressed
	 * ("end_swap_bio_read: N callbacks suppressed"). Still a lower
	 * bound: suppressed lines are only reported by a later one.
	 */
	int swap_write_errors;	/* "Write-error on swap-device" */
	int swap_read_errors;	/* "Read-error on swap-device" */
	/* counted apart too (they are problems as well): metrics */
	int alloc_failures;	/* "page allocation failure" */
	int hung_tasks;		/* "blocked for more than" */
};

/*
 * Scan the console text @text (modified: split into lines). Problems:
 * BUG:, kernel BUG at, WARNING: (lockdep's circular, recursive and
 * inconsistent locking reports among them), KASAN, UBSAN, "sleeping
 * function called from invalid context", "Bad page", list corruption,
 * Oops, panic, general protection fault, hung tasks, RCU stalls, an
 * allocation failure report (warn_alloc: "page allocation failure") and a
 * Call Trace outside an OOM killer report (which is not a problem).
 * Swap I/O error lines are counted apart.
 */
void console_scan_text(char *text, struct console_scan *cs);

/* The same for a file; a missing file scans as empty. */
void console_scan_file(const char *path, struct console_scan *cs);

/*
 * Write the quoted splats of @cs to @out, each line prefixed with
 * @indent (text output of run and report).
 */
void console_scan_print(FILE *out, const struct console_scan *cs,
			const char *indent);

/*
 * The splats as JSON: [{"kind":..,"lines":[..],"truncated":bool}, ...]
 * (the quoted ones; nsplats may be more). A new reference.
 */
json_t *console_scan_json(const struct console_scan *cs);

#endif
