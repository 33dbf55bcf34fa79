/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source: where top and report get their data. A run directory
 * (doc/HACKING.md "Run directory") holds one <kernel>-<rep>/samples.jsonl
 * per guest. Live: the files are tailed while runs/<id>/state says
 * "running". Replay: the recorded lines are delivered again at real or
 * faster speed, each guest from its own first line.
 */
#ifndef SWAPCTL_SOURCE_H
#define SWAPCTL_SOURCE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "track.h"
#include "stream.h"

#define SOURCE_MAX_GUESTS	256
#define SOURCE_MAX_KERNELS	32

struct source_line {
	size_t off, len;	/* in data */
	uint64_t at_ns;		/* replay time from the guest's first line */
};

struct source_guest {
	char name[64];		/* directory name: "baseline-1" */
	char kernel[48];	/* "baseline", "patched", ... */
	unsigned int rep;
	char path[PATH_MAX];	/* .../samples.jsonl */
	bool exists;		/* samples.jsonl seen */
	struct stream_state *st;
	struct track track;

	/* live */
	uint64_t pos;		/* bytes of the file read so far */
	/* replay */
	char *data;
	size_t len;
	struct source_line *lines;
	size_t nlines, next;
	size_t valid;		/* replay: lines the stream parser took */
};

struct source {
	char dir[PATH_MAX];
	char id[NAME_MAX + 1];	/* basename of the run directory */
	char scenario[128];	/* "name" of scenario.json, or "" */
	char state[16];		/* contents of state: running, done, "" */
	bool live;
	double speed;		/* replay speed, 1 = real time */
	double clock_s;		/* replay: guest seconds played */
	double end_s;		/* replay: time of the last line */
	struct source_guest *g[SOURCE_MAX_GUESTS];
	unsigned int ng;
	/* the kernels file: the run's kernels in order, reference first */
	char kernels[SOURCE_MAX_KERNELS][48];
	unsigned int nkernels;
	/*
	 * replay: the first samples.jsonl that exists and holds no valid
	 * line, and why: "empty (the guest sent nothing)" or "no valid line
	 * (N, every one refused)"
	 */
	char empty[PATH_MAX];
	char empty_why[64];
	/* live: state says running but no run is behind it (source_done) */
	bool stale;
	char stale_why[2 * PATH_MAX + 128];
	double stale_checked;	/* monotonic seconds of the last check */
	/* live: when set and nonzero (a signal came), stop reading */
	const volatile sig_atomic_t *stop;
};

/*
 * Open run directory @dir. @replay false: live when state says
 * "running", else replay; @replay true: always replay. Returns 0, or -1
 * with a one-line message in @err.
 */
int source_open(struct source *s, const char *dir, bool replay, double speed,
		char *err, size_t errlen);
/*
 * Advance: live, read what was appended (and look for new guests);
 * replay, move the clock by @wall_s * speed and deliver the lines due.
 * Returns the number of lines delivered.
 */
size_t source_poll(struct source *s, double wall_s);
/* Replay: deliver everything now. Live: read everything there is. */
void source_seek_end(struct source *s);
/*
 * Nothing more will come (replay finished, or live run done and read).
 * A live run whose state says "running" while no `swapctl run` holds its
 * work dir's run.lock (<dir>/../../run.lock), or while runs/latest names
 * another run, is stale: source_poll() sets @stale and @stale_why (checked
 * at most every 2 s, and only when no line came) and it is done too.
 */
bool source_done(const struct source *s);
/*
 * The first guest some of whose samples went back in time (t_ns smaller
 * than the sample before: dropped, track.backwards), or NULL. Its
 * rates and so the verdicts over it are not to be trusted: report, top
 * and bisect say so and exit 11.
 */
const struct source_guest *source_backwards(const struct source *s);
/* Sorted repetition numbers present; returns how many (<= max). */
unsigned int source_reps(const struct source *s, unsigned int *reps,
			 unsigned int max);
void source_close(struct source *s);

/*
 * Resolve the run directory to show: @arg if not NULL, else
 * <workdir>/runs/latest. Returns 0 or -1 with a message in @err.
 */
int source_resolve(const char *workdir, const char *arg, char *out,
		   size_t len, char *err, size_t errlen);

#endif
