/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build progress from Kbuild's output: each quiet-command line whose target
 * is an object ("  CC      mm/page_io.o") counts as one object done. On a
 * terminal one line is rewritten in place; otherwise a plain line is
 * printed every @interval seconds. The clock is passed in by the caller
 * (seconds, any monotonic origin) so that the computation is testable.
 */
#ifndef SWAPCTL_PROGRESS_H
#define SWAPCTL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct progress {
	FILE *out;		/* where the display goes (NULL: nowhere) */
	bool tty;		/* rewrite one line (true) or print lines */
	double interval;	/* plain mode: seconds between lines */
	char label[64];		/* e.g. the variant name */
	unsigned long done;	/* objects seen so far */
	unsigned long total;	/* estimate; 0 = unknown */
	double start;		/* clock at progress_init() */
	double last_print;	/* clock of the last display */
	char current[128];	/* the last object seen */
	bool shown;		/* tty mode: a line is on screen */
};

void progress_init(struct progress *p, FILE *out, bool tty,
		   const char *label, unsigned long total, double now);

/*
 * If @line is a Kbuild quiet-command line for an object file, copy the
 * object's path into @obj (may be NULL) and return true.
 */
bool progress_parse_line(const char *line, char *obj, size_t objlen);

/* Feed one line of make output (without '\n'); may update the display. */
void progress_feed(struct progress *p, const char *line, double now);

/*
 * Seconds left, from the rate so far; -1 when unknown (no total, fewer
 * than 3 objects done or less than 1 s elapsed, or done >= total).
 */
double progress_eta(const struct progress *p, double now);

/* Percent done 0..100, or -1 when the total is unknown. */
int progress_percent(const struct progress *p);

/* "M:SS" or "H:MM:SS"; "?" for negative values. Returns @buf. */
char *progress_duration(double seconds, char *buf, size_t len);

/* The status text, e.g. "512/1210 objects (42%), 1:10 elapsed, ETA 1:35". */
void progress_format(const struct progress *p, double now, char *buf,
		     size_t len);

/* Clear the tty line (if any); call before printing anything else. */
void progress_clear(struct progress *p);

#endif
