/* SPDX-License-Identifier: GPL-2.0 */
/*
 * screen: what `swapctl top` shows, as a pure function of the data.
 * screen_build() turns the tracks of the guests shown into lines of text
 * with an attribute each; screen_print() writes them as plain text
 * (--batch), top.c draws them in an ncurses window. No terminal is
 * needed to build or test a screen.
 *
 * Without a height (--batch) the frame is every part in one: the table
 * (live rates, then every metric since boot), the sparkline and the
 * histogram. With a height (a terminal) it is one page of SCREEN_PAGES:
 * the title, a line naming the pages, the page's pinned lines (the
 * columns' names), as much of the page's body as fits from line
 * @scroll on, and the key hint.
 */
#ifndef SWAPCTL_SCREEN_H
#define SWAPCTL_SCREEN_H

#include <stdbool.h>
#include <stdio.h>

#include "track.h"
#include "stream.h"

#define SCREEN_MAX_COLS		8
#define SCREEN_MAX_LINES	192
#define SCREEN_MAX_WIDTH	240
#define SCREEN_MIN_WIDTH	40

/* the pages of a terminal frame, in the order of keys 1 to 4 */
enum screen_page {
	SCREEN_PAGE_SUMMARY,	/* key rates, status, verdict figures */
	SCREEN_PAGE_RATES,	/* every live rate */
	SCREEN_PAGE_BOOT,	/* every metric since boot */
	SCREEN_PAGE_HISTORY,	/* sparkline and histogram */
	SCREEN_PAGES,
};

enum screen_attr {
	SA_NORMAL,
	SA_TITLE,
	SA_HEADER,
	SA_DIM,
	SA_GOOD,
	SA_BAD,
};

struct screen_col {
	const char *label;			/* "baseline-1" */
	const struct track *track;
	const struct stream_state *st;		/* NULL: no counters */
	bool exists;				/* samples.jsonl exists */
};

struct screen_input {
	const char *run;			/* run id */
	const char *scenario;			/* may be "" */
	const char *mode;			/* "live", "replay x4", ... */
	double clock_s;				/* replay clock, < 0: none */
	double interval_s;			/* refresh = rate window */
	unsigned int rep, nreps;		/* repetition shown */
	bool paused, help, utf8, keys, done;
	unsigned int width;			/* columns */
	unsigned int height;			/* rows, 0: no limit, no pages */
	enum screen_page page;			/* with a height */
	unsigned int scroll;			/* first body line shown */
	struct screen_col cols[SCREEN_MAX_COLS];
	unsigned int ncols;
};

struct screen_line {
	enum screen_attr attr;
	char text[SCREEN_MAX_WIDTH * 3 + 1];	/* UTF-8, <= width cells */
};

struct screen {
	unsigned int n;
	struct screen_line line[SCREEN_MAX_LINES];
	/* with a height: the scroll used (clamped), its most, the body rows */
	unsigned int scroll, scroll_max, rows;
};

void screen_build(const struct screen_input *in, struct screen *out);
/* Plain text, one line per line, trailing blanks removed. */
void screen_print(const struct screen *s, FILE *f);
/* Number of terminal cells of UTF-8 @s (every code point is one). */
unsigned int screen_cells(const char *s);

#endif
