// SPDX-License-Identifier: GPL-2.0
/* The run directory, and what a guest's console log says about it. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rundir.h"
#include "swapctl.h"
#include "scenario.h"
#include "util.h"

int rundir_create(const char *workdir, const char *name, time_t now,
		  char *id, size_t idlen, char *dir, size_t dirlen,
		  char *err, size_t errlen)
{
	char runs[4200], base[32], tmp[4300], latest[4300];
	struct tm tm;
	int i;

	if (util_path(runs, sizeof(runs), "%s/runs", workdir) ||
	    util_mkdir_p(runs, 0755)) {
		util_seterr(err, errlen, "%s/runs: %s", workdir, strerror(errno));
		return -1;
	}
	localtime_r(&now, &tm);
	strftime(base, sizeof(base), "%Y%m%d-%H%M%S", &tm);
	for (i = 1; i < 100; i++) {
		if ((i == 1 ? util_path(id, idlen, "%s-%s", base, name) :
		     util_path(id, idlen, "%s-%s-%d", base, name, i)) ||
		    util_path(dir, dirlen, "%s/%s", runs, id)) {
			util_seterr(err, errlen, "%s: path too long", runs);
			return -1;
		}
		if (!mkdir(dir, 0755))
			break;
		if (errno != EEXIST) {
			util_seterr(err, errlen, "%s: %s", dir, strerror(errno));
			return -1;
		}
	}
	if (i == 100) {
		util_seterr(err, errlen, "%s: too many runs this second", runs);
		return -1;
	}
	/* runs/latest is replaced atomically: top never sees it missing */
	util_path(tmp, sizeof(tmp), "%s/.latest.%d", runs, (int)getpid());
	util_path(latest, sizeof(latest), "%s/latest", runs);
	unlink(tmp);
	if (symlink(id, tmp) || rename(tmp, latest)) {
		util_seterr(err, errlen, "%s: %s", latest, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * What starts a report, most specific first (the first match names the
 * kind). "Call Trace" alone only when no report is open.
 */
static const struct {
	const char *pat;
	const char *kind;
} problems[] = {
	{ "KASAN", "kasan" },
	{ "UBSAN:", "ubsan" },
	{ "possible circular locking", "lockdep" },
	{ "possible recursive locking", "lockdep" },
	{ "inconsistent lock state", "lockdep" },
	{ "possible irq lock inversion", "lockdep" },
	{ "suspicious RCU usage", "lockdep" },
	{ "DEBUG_LOCKS_WARN_ON", "lockdep" },
	{ "sleeping function called from invalid context", "atomic-sleep" },
	{ "scheduling while atomic", "atomic-sleep" },
	{ "Bad page", "bad-page" },
	{ "page dumped because", "bad-page" },
	{ "list_add corruption", "list-corruption" },
	{ "list_del corruption", "list-corruption" },
	{ "page allocation failure", "alloc-failure" },
	{ "kernel BUG at", "bug" },
	{ "BUG:", "bug" },
	{ "WARNING:", "warning" },
	{ "Oops", "oops" },
	{ "Kernel panic", "panic" },
	{ "general protection fault", "gpf" },
	{ "blocked for more than", "hung-task" },
	{ "rcu_sched self-detected stall", "rcu-stall" },
	{ "detected stalls on CPUs", "rcu-stall" },
	{ "Call Trace", "call-trace" },
};

#define NPROBLEMS ARRAY_SIZE(problems)

static void quote(char *dst, const char *line)
{
	char *p;

	snprintf(dst, CONSOLE_LINE_MAX, "%s", line);
	for (p = dst; *p; p++)
		if ((unsigned char)*p < ' ' || (unsigned char)*p == 0x7f)
			*p = ' ';
}

static bool ends_splat(const char *line)
{
	return strstr(line, "---[ end") || strstr(line, "</TASK>") ||
	       strstr(line, "=========");
}

/* Functions whose rate-limited swap error messages may be suppressed. */
static const struct {
	const char *func;
	bool write;
} swap_err_funcs[] = {
	{ "end_swap_bio_write", true },
	{ "end_swap_bio_read", false },
	{ "swap_fs_read_complete", false },	/* swap-ops NFS reads */
	{ "sio_read_complete", false },		/* 6.1 NFS reads */
	{ "swap_fs_write_complete", true },	/* swap-ops NFS writes */
	{ "sio_write_complete", true },		/* 6.1 NFS writes */
};

/*
 * A failed swap write: to a block device, or to a swap file through
 * ->swap_rw() (NFS: "Write error -12 on dio swapfile (OFFSET)", which
 * 6.1 calls a temporary failure for want of transmit buffers; the pages
 * stay dirty).
 */
static bool swap_write_error(const char *line)
{
	const char *p;

	if (strstr(line, "Write-error on swap-device"))
		return true;
	p = strstr(line, "Write error ");
	return p && strstr(p, " on dio swapfile");
}

/* "<func>: N callbacks suppressed" of a swap error message. */
static void count_suppressed(const char *line, struct console_scan *cs)
{
	const char *p = strstr(line, " callbacks suppressed");
	size_t i, n;
	long v;

	if (!p)
		return;
	for (i = 0; i < ARRAY_SIZE(swap_err_funcs); i++) {
		const char *f = strstr(line, swap_err_funcs[i].func);

		n = strlen(swap_err_funcs[i].func);
		if (!f || f > p || strncmp(f + n, ": ", 2))
			continue;
		v = strtol(f + n + 2, NULL, 10);
		if (v <= 0 || v > 1000000000L)
			return;
		if (swap_err_funcs[i].write)
			cs->swap_write_errors += (int)v;
		else
			cs->swap_read_errors += (int)v;
		return;
	}
}

void console_scan_text(char *text, struct console_scan *cs)
{
	struct console_splat *cur = NULL;
	char *line, *save = NULL;
	bool in_oom = false;
	size_t k;

	memset(cs, 0, sizeof(*cs));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		bool trace;

		/*
		 * The OOM killer's report has a Call Trace but is no kernel
		 * bug: it is counted apart (and the workload reports it).
		 */
		if (strstr(line, "invoked oom-killer:")) {
			in_oom = true;
			cs->oom_kills++;
		} else if (strstr(line, "Out of memory: Killed process") ||
			   strstr(line, "oom_reaper:")) {
			in_oom = false;
		}
		if (swap_write_error(line))
			cs->swap_write_errors++;
		else if (strstr(line, "Read-error on swap-device"))
			cs->swap_read_errors++;
		else
			count_suppressed(line, cs);
		if (strstr(line, "page allocation failure"))
			cs->alloc_failures++;
		if (strstr(line, "blocked for more than"))
			cs->hung_tasks++;
		for (k = 0; k < NPROBLEMS; k++)
			if (strstr(line, problems[k].pat))
				break;
		trace = k < NPROBLEMS && !strcmp(problems[k].kind,
						 "call-trace");
		if (k < NPROBLEMS && trace && in_oom && !cur)
			k = NPROBLEMS;
		if (k < NPROBLEMS && !cs->problems++)
			quote(cs->first, line);
		/*
		 * A problem line opens a report, unless it continues the one
		 * open: a Call Trace, or the WARNING/BUG line right after a
		 * message like "list_add corruption" that WARN() printed.
		 */
		if (k < NPROBLEMS && (!cur || (!trace && cur->nlines > 2))) {
			cur = NULL;
			if (cs->nsplats++ < CONSOLE_MAX_SPLATS) {
				cur = &cs->splat[cs->nsplats - 1];
				cur->kind = problems[k].kind;
			}
		}
		if (!cur)
			continue;
		if (cur->nlines < CONSOLE_SPLAT_LINES)
			quote(cur->lines[cur->nlines++], line);
		else
			cur->truncated = true;
		if (cur->nlines > 1 && ends_splat(line))
			cur = NULL;
	}
}

void console_scan_print(FILE *out, const struct console_scan *cs,
			const char *indent)
{
	int i, n, k;

	n = cs->nsplats < CONSOLE_MAX_SPLATS ? cs->nsplats :
	    CONSOLE_MAX_SPLATS;
	for (i = 0; i < n; i++) {
		const struct console_splat *sp = &cs->splat[i];

		fprintf(out, "%s%s:\n", indent, sp->kind);
		for (k = 0; k < sp->nlines; k++)
			fprintf(out, "%s  | %s\n", indent, sp->lines[k]);
		if (sp->truncated)
			fprintf(out, "%s  | ... (more in console.log)\n",
				indent);
	}
	if (cs->nsplats > n)
		fprintf(out, "%s%d more reports in console.log\n", indent,
			cs->nsplats - n);
}

json_t *console_scan_json(const struct console_scan *cs)
{
	json_t *arr = json_array(), *o, *lines;
	int i, n, k;

	n = cs->nsplats < CONSOLE_MAX_SPLATS ? cs->nsplats :
	    CONSOLE_MAX_SPLATS;
	for (i = 0; arr && i < n; i++) {
		const struct console_splat *sp = &cs->splat[i];

		lines = json_array();
		for (k = 0; lines && k < sp->nlines; k++)
			json_array_append_new(lines,
					      json_string(sp->lines[k]));
		o = json_pack("{sssosb}", "kind", sp->kind, "lines", lines,
			      "truncated", sp->truncated);
		json_array_append_new(arr, o);
	}
	return arr;
}

void console_scan_file(const char *path, struct console_scan *cs)
{
	char *text = util_read_file(path, NULL);

	if (!text) {
		memset(cs, 0, sizeof(*cs));
		return;
	}
	console_scan_text(text, cs);
	free(text);
}

int rundir_state(const char *dir, const char *state)
{
	char path[4200], text[32];

	snprintf(path, sizeof(path), "%s/state", dir);
	snprintf(text, sizeof(text), "%s\n", state);
	return util_write_file_atomic(path, text, strlen(text), 0644);
}

int rundir_write(const char *dir, const struct scenario *scn,
		 const char *plan, char *err, size_t errlen)
{
	char path[4200], list[SCN_MAX_KERNELS * SCN_KERNEL_MAX + 1];
	size_t off = 0;
	int k;

	snprintf(path, sizeof(path), "%s/scenario.json", dir);
	if (util_copy_file(scn->file, path, 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/plan.txt", dir);
	if (util_write_file_atomic(path, plan, strlen(plan), 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* the kernels compared, reference first (read by report and top) */
	for (k = 0; k < scn->nkernels; k++)
		off += snprintf(list + off, sizeof(list) - off, "%s\n",
				scn->kernels[k]);
	snprintf(path, sizeof(path), "%s/kernels", dir);
	if (util_write_file_atomic(path, list, off, 0644)) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (rundir_state(dir, "running")) {
		util_seterr(err, errlen, "%s/state: %s", dir,
			    strerror(errno));
		return -1;
	}
	return 0;
}

int rundir_lock(const char *workdir, const atomic_int *stop, int *fd)
{
	char lockpath[4200];

	/*
	 * One run at a time per work directory: the embedded driver allows
	 * one process per root, and two TCG guests would skew each other.
	 */
	util_path(lockpath, sizeof(lockpath), "%s/run.lock", workdir);
	util_mkdir_p(workdir, 0755);
	*fd = util_lock(lockpath, "another swapctl run", stop);
	if (*fd < 0 && errno == EINTR) {
		fprintf(stderr, "swapctl run: %s: interrupted waiting for another swapctl run\n",
			lockpath);
		return EXIT_INTERRUPTED;
	}
	if (*fd < 0) {
		fprintf(stderr, "swapctl run: %s: %s\n", lockpath,
			strerror(errno));
		return EXIT_SETUP;
	}
	return 0;
}
