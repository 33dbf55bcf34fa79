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

/* Functions whose rate-limited swap error messages may be suppressed. */
static const struct {
	const char *func;
	bool write;
} swap_err_funcs[] = {
	{ "end_swap_bio_write", true },
	{ "end_swap_bio_read", false },
	{ "swap_fs_read_complete", false },	/* swap-ops NFS reads */
	{ "sio_read_complete", false },		/* 6.1 NFS reads */
};

/* "<func>: N callbacks suppressed" of a swap error message. */
static void count_suppressed(const char *line, struct console_scan *cs)
{
	const char *p = strstr(line, " callbacks suppressed");
	size_t i, n;
	long v;

	if (!p)
		return;
	for (i = 0; i < sizeof(swap_err_funcs) / sizeof(swap_err_funcs[0]);
	     i++) {
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
	static const char *const bad[] = {
		"BUG:", "WARNING:", "Oops", "Kernel panic", "Call Trace",
		"general protection fault", NULL,
	};
	const char *const *b;
	char *line, *save = NULL, *p;
	bool in_oom = false;

	memset(cs, 0, sizeof(*cs));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
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
		if (strstr(line, "Write-error on swap-device"))
			cs->swap_write_errors++;
		else if (strstr(line, "Read-error on swap-device"))
			cs->swap_read_errors++;
		else
			count_suppressed(line, cs);
		for (b = bad; *b; b++)
			if (strstr(line, *b))
				break;
		if (!*b || (in_oom && !strcmp(*b, "Call Trace")))
			continue;
		if (!cs->problems++) {
			snprintf(cs->first, sizeof(cs->first), "%s", line);
			for (p = cs->first; *p; p++)
				if ((unsigned char)*p < ' ')
					*p = ' ';
		}
	}
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
