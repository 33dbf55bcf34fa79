// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl top: the live view of a running scenario, or the replay of a
 * recorded one. The data comes from source.c, what is shown from
 * screen.c; this file only runs the loop, the keys and ncurses.
 */
#include <inttypes.h>
#include <curses.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "parse-options.h"
#include "screen.h"
#include "source.h"
#include "swapctl.h"

static const double intervals[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 30 };
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NINTERVALS ARRAY_SIZE(intervals)

static volatile sig_atomic_t stop, got_signal;

static void on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
	stop = 1;
}

struct top_opts {
	bool batch, replay, once;
	double interval, speed;
	int iterations;
	const char *dir;
};

struct view {
	struct source src;
	unsigned int reps[SOURCE_MAX_GUESTS];
	unsigned int nreps, repidx;
	double interval;
	bool paused, help, utf8, keys;
	enum screen_page page;
	unsigned int scroll;
	unsigned int rows, scroll_max;	/* of the frame drawn last */
	char mode[32];
};

static int parse_args(int argc, char **argv, struct top_opts *o)
{
	struct popt opts[] = {
		OPT_BOOL('b', "batch", &o->batch,
			 "plain text frames, like top -b (automatic when stdout is not a terminal)"),
		OPT_DOUBLE('d', "interval", &o->interval, "SEC",
			   "refresh interval and rate window (default 1)", 0.05, 3600, 0),
		OPT_INT('n', "iterations", &o->iterations, "N",
			"stop after N frames (batch)", 1, 1000000),
		OPT_DOUBLE(0, "speed", &o->speed, "X",
			   "replay X times faster than real time (default 1)", 0.01,
			   10000, 0),
		OPT_BOOL(0, "replay", &o->replay,
			 "replay even if the run is still going"),
		OPT_BOOL(0, "once", &o->once,
			 "print the last state once and exit"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 4, 10, 11, 130, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "top", .args = "[RUN_DIR]", .max_args = 1, .opts = opts,
		.desc =
		"Show a scenario's guests side by side (baseline | patched): swap\n"
		"rates, pages per swap I/O (pswpout/nrswpout), device and host\n"
		"I/Os, swap used, major faults, the ratio patched/baseline, a\n"
		"history of pages per I/O and a histogram of batch sizes.\n"
		"\n"
		"In a terminal these are four pages: 1 summary (the main rates,\n"
		"status, pages per I/O since boot, the sparkline), 2 rates (every\n"
		"live rate), 3 since boot (every metric of swapctl metrics), 4\n"
		"history (sparkline and histogram); a page longer than the\n"
		"terminal scrolls. --batch prints every part in one frame.\n"
		"\n"
		"RUN_DIR defaults to <workdir>/runs/latest; a run id under\n"
		"<workdir>/runs works too. A run whose state is \"running\" is\n"
		"followed live; a finished one is replayed.\n",
		.epilog =
		"keys: q quit, space pause, +/- interval, tab next repetition,\n"
		"1-4 page, left/right previous/next page, up/down PgUp/PgDn\n"
		"Home/End scroll, h help.\n",
	};
	int n;

	memset(o, 0, sizeof(*o));
	o->interval = 1;
	o->speed = 1;
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return n == PARSE_OPT_HELP ? -1 : EXIT_USAGE;
	o->dir = n ? argv[0] : NULL;
	return 0;
}

static void build(struct view *v, unsigned int width, unsigned int height,
		  struct screen *scr)
{
	struct screen_input in;
	unsigned int i, rep;
	double span = 0;

	memset(&in, 0, sizeof(in));
	v->nreps = source_reps(&v->src, v->reps, SOURCE_MAX_GUESTS);
	if (v->repidx >= v->nreps)
		v->repidx = 0;
	rep = v->nreps ? v->reps[v->repidx] : 0;
	for (i = 0; i < v->src.ng && in.ncols < SCREEN_MAX_COLS; i++) {
		struct source_guest *g = v->src.g[i];
		struct screen_col *c;

		if (g->rep != rep)
			continue;
		c = &in.cols[in.ncols++];
		c->label = g->name;
		c->track = &g->track;
		c->st = g->st;
		c->exists = g->exists;
		if ((double)track_span_ns(&g->track) / 1e9 > span)
			span = (double)track_span_ns(&g->track) / 1e9;
	}
	in.run = v->src.id;
	in.scenario = v->src.scenario;
	in.mode = v->mode;
	in.clock_s = v->src.live ? span : v->src.clock_s;
	in.interval_s = v->interval;
	in.rep = rep;
	in.nreps = v->nreps;
	in.paused = v->paused;
	in.help = v->help;
	in.utf8 = v->utf8;
	in.keys = v->keys;
	in.done = source_done(&v->src);
	in.width = width;
	in.height = height;
	in.page = v->page;
	in.scroll = v->scroll;
	screen_build(&in, scr);
	/* the scroll as the screen clamped it, for the next key */
	v->scroll = scr->scroll;
	v->rows = scr->rows;
	v->scroll_max = scr->scroll_max;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && !stop)
		;
}

static unsigned int batch_width(void)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col)
		return ws.ws_col;
	if (c && atoi(c) >= SCREEN_MIN_WIDTH)
		return (unsigned int)atoi(c);
	return 110;
}

static int run_batch(struct view *v, const struct top_opts *o)
{
	static struct screen scr;
	unsigned int width = batch_width();
	long frames = 0;

	if (o->once) {
		source_seek_end(&v->src);
		build(v, width, 0, &scr);
		screen_print(&scr, stdout);
		return EXIT_OK;
	}
	for (;;) {
		bool done;

		source_poll(&v->src, v->interval);
		done = source_done(&v->src);
		build(v, width, 0, &scr);
		screen_print(&scr, stdout);
		fputc('\n', stdout);
		fflush(stdout);
		if (done || stop || (o->iterations && ++frames >= o->iterations))
			break;
		sleep_s(v->interval);
		if (stop)
			break;
	}
	return got_signal ? EXIT_INTERRUPTED : EXIT_OK;
}

static void set_page(struct view *v, unsigned int page)
{
	v->page = (enum screen_page)(page % SCREEN_PAGES);
	v->scroll = 0;
	v->help = false;
}

/* Scroll by @d lines, or to the end (@d INT_MAX). */
static void scroll_by(struct view *v, int d)
{
	long s = (long)v->scroll + d;

	if (d == INT_MAX || s > (long)v->scroll_max)
		s = v->scroll_max;
	v->scroll = s < 0 ? 0 : (unsigned int)s;
}

/* Key @ch: returns whether the frame must be drawn again. */
static bool on_key(struct view *v, int ch, unsigned int *ii)
{
	int page = v->rows > 1 ? (int)v->rows - 1 : 1;

	switch (ch) {
	case 'q':
	case 'Q':
		stop = 1;
		return false;
	case ' ':
		v->paused = !v->paused;
		break;
	case '+':
	case '=':
		if (*ii + 1 < NINTERVALS)
			v->interval = intervals[++*ii];
		break;
	case '-':
		if (*ii > 0)
			v->interval = intervals[--*ii];
		break;
	case '\t':
		if (v->nreps)
			v->repidx = (v->repidx + 1) % v->nreps;
		break;
	case 'h':
	case 'H':
	case '?':
		v->help = !v->help;
		v->scroll = 0;
		break;
	case '1': case '2': case '3': case '4':
		set_page(v, (unsigned int)(ch - '1'));
		break;
	case KEY_RIGHT:
		set_page(v, v->page + 1);
		break;
	case KEY_LEFT:
		set_page(v, v->page + SCREEN_PAGES - 1);
		break;
	case KEY_DOWN: case 'j':
		scroll_by(v, 1);
		break;
	case KEY_UP: case 'k':
		scroll_by(v, -1);
		break;
	case KEY_NPAGE:
		scroll_by(v, page);
		break;
	case KEY_PPAGE:
		scroll_by(v, -page);
		break;
	case KEY_HOME: case 'g':
		v->scroll = 0;
		break;
	case KEY_END: case 'G':
		scroll_by(v, INT_MAX);
		break;
	case KEY_RESIZE:
		break;
	default:
		return false;
	}
	return true;
}

static void draw(const struct screen *scr)
{
	unsigned int i;

	erase();
	for (i = 0; i < scr->n && (int)i < LINES; i++) {
		attr_t a = A_NORMAL;

		switch (scr->line[i].attr) {
		case SA_TITLE:
			a = A_REVERSE | A_BOLD;
			break;
		case SA_HEADER:
			a = A_BOLD | (has_colors() ? COLOR_PAIR(3) : 0);
			break;
		case SA_DIM:
			a = A_DIM;
			break;
		case SA_GOOD:
			a = has_colors() ? COLOR_PAIR(1) : A_BOLD;
			break;
		case SA_BAD:
			a = A_BOLD | (has_colors() ? COLOR_PAIR(2) : 0);
			break;
		case SA_NORMAL:
			break;
		}
		attrset(a);
		mvaddstr((int)i, 0, scr->line[i].text);
		if (scr->line[i].attr == SA_TITLE)
			mvchgat((int)i, 0, -1, a, 0, NULL);
	}
	attrset(A_NORMAL);
	refresh();
}

static int run_curses(struct view *v, const struct top_opts *o)
{
	static struct screen scr;
	double last_tick, last_draw = 0;
	bool dirty = true;
	unsigned int ii;
	SCREEN *term;

	term = newterm(NULL, stdout, stdin);
	if (!term) {
		fprintf(stderr,
			"swapctl top: cannot use terminal '%s', falling back to --batch\n",
			getenv("TERM") ? getenv("TERM") : "");
		return run_batch(v, o);
	}
	set_term(term);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(100);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_GREEN, -1);
		init_pair(2, COLOR_RED, -1);
		init_pair(3, COLOR_CYAN, -1);
	}
	for (ii = 0; ii < NINTERVALS - 1 && intervals[ii] < v->interval; ii++)
		;
	v->keys = true;
	last_tick = now_s();
	source_poll(&v->src, 0);
	while (!stop) {
		int ch = getch();
		double now;

		if (on_key(v, ch, &ii))
			dirty = true;
		if (stop)
			break;
		now = now_s();
		if (!v->paused)
			source_poll(&v->src, now - last_tick);
		last_tick = now;
		if (dirty || (!v->paused && now - last_draw >= v->interval)) {
			build(v, (unsigned int)COLS, (unsigned int)LINES, &scr);
			draw(&scr);
			last_draw = now;
			dirty = false;
		}
	}
	endwin();
	delscreen(term);
	return got_signal ? EXIT_INTERRUPTED : EXIT_OK;
}

int cmd_top(int argc, char **argv, struct swapctl_config *cfg)
{
	static struct view v;
	struct sigaction sa;
	struct top_opts o;
	char dir[PATH_MAX], err[PATH_MAX + 128];
	int r;

	r = parse_args(argc, argv, &o);
	if (r)
		return r < 0 ? EXIT_OK : r;
	if (source_resolve(cfg->workdir, o.dir, dir, sizeof(dir), err,
			   sizeof(err))) {
		fprintf(stderr, "swapctl top: %s\n", err);
		return o.dir ? EXIT_USAGE : EXIT_SETUP;
	}
	memset(&v, 0, sizeof(v));
	if (source_open(&v.src, dir, o.replay || o.once, o.speed, err,
			sizeof(err))) {
		fprintf(stderr, "swapctl top: %s\n", err);
		return EXIT_DATA;
	}
	v.src.stop = &stop;	/* a signal ends a long read of a live file */
	v.interval = o.interval;
	if (o.once)
		snprintf(v.mode, sizeof(v.mode), "recorded");
	else if (v.src.live)
		snprintf(v.mode, sizeof(v.mode), "live");
	else
		snprintf(v.mode, sizeof(v.mode), "replay x%g", o.speed);
	setlocale(LC_ALL, "");
	v.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o.batch || o.once || !isatty(STDOUT_FILENO) ||
	    !isatty(STDIN_FILENO))
		r = run_batch(&v, &o);
	else
		r = run_curses(&v, &o);
	if (!r && v.src.stale) {
		fprintf(stderr, "swapctl top: %s\n", v.src.stale_why);
		r = EXIT_DATA;
	} else if (!r && source_backwards(&v.src)) {
		fprintf(stderr, "swapctl top: %s: %" PRIu64 " samples went back in time (t_ns) and were dropped: its rates are not to be trusted\n",
			source_backwards(&v.src)->path,
			source_backwards(&v.src)->track.backwards);
		r = EXIT_DATA;
	} else if (!r && v.src.empty[0]) {
		fprintf(stderr, "swapctl top: %s: %s\n", v.src.empty,
			v.src.empty_why);
		r = EXIT_DATA;
	}
	source_close(&v.src);
	return r;
}
