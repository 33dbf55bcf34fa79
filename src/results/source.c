// SPDX-License-Identifier: GPL-2.0
/*
 * source: live tail or replay of a run directory's samples.jsonl files.
 * See source.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "jfile.h"
#include "rundir.h"
#include "util.h"
#include "source.h"

#define SOURCE_MAX_FILE	(512u << 20)	/* replay: bigger is refused */
#define SOURCE_POLL_MAX	((uint64_t)16 << 20) /* live: read a poll at most */

static void on_line(void *ctx, const struct stream_line *l,
		    enum stream_err err, const char *raw, size_t len,
		    uint64_t lineno)
{
	struct source_guest *g = ctx;

	(void)raw;
	(void)len;
	(void)lineno;
	if (err == STREAM_OK && l)
		track_feed(&g->track, l);
}

/* "<kernel>-<rep>": kernel [A-Za-z0-9_.-]+, rep a positive number. */
static bool guest_name(const char *name, char *kernel, size_t klen,
		       unsigned int *rep)
{
	const char *dash = strrchr(name, '-');
	const char *p;
	unsigned long r = 0;

	if (!dash || dash == name || !dash[1] || (size_t)(dash - name) >= klen)
		return false;
	for (p = name; p < dash; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
		      *p == '-'))
			return false;
	for (p = dash + 1; *p; p++) {
		if (*p < '0' || *p > '9' || r > 100000)
			return false;
		r = r * 10 + (unsigned long)(*p - '0');
	}
	if (!r)
		return false;
	memcpy(kernel, name, (size_t)(dash - name));
	kernel[dash - name] = '\0';
	*rep = (unsigned int)r;
	return true;
}

/* the kernel order of the run being sorted (qsort has no context) */
static const struct source *sorting;

/* The run's order (its kernels file), else baseline, patched, others. */
static int kernel_rank(const char *k)
{
	unsigned int i;

	for (i = 0; sorting && i < sorting->nkernels; i++)
		if (!strcmp(sorting->kernels[i], k))
			return (int)i;
	if (sorting && sorting->nkernels)
		return SOURCE_MAX_KERNELS;
	if (!strcmp(k, "baseline"))
		return 0;
	if (!strcmp(k, "patched"))
		return 1;
	return 2;
}

static int guest_cmp(const void *a, const void *b)
{
	const struct source_guest *x = *(struct source_guest *const *)a;
	const struct source_guest *y = *(struct source_guest *const *)b;

	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	if (kernel_rank(x->kernel) != kernel_rank(y->kernel))
		return kernel_rank(x->kernel) - kernel_rank(y->kernel);
	return strcmp(x->kernel, y->kernel);
}

static void read_small(const char *dir, const char *file, char *buf,
		       size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	size_t i;
	int fd;

	buf[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path))
		return;
	fd = util_open_input(path, NULL);
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
	for (i = 0; buf[i]; i++)
		if (buf[i] < 0x21 || buf[i] > 0x7e) {
			buf[i] = '\0';
			break;
		}
}

/* The kernels file: one kernel name per line, the reference first. */
static void read_kernels(struct source *s)
{
	char buf[SOURCE_MAX_KERNELS * 64 + 1], path[PATH_MAX], *p, *nl;
	ssize_t n;
	int fd;

	s->nkernels = 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/kernels", s->dir) >=
	    sizeof(path))
		return;
	fd = util_open_input(path, NULL);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (p = buf; *p && s->nkernels < SOURCE_MAX_KERNELS; p = nl + 1) {
		char kernel[48];
		unsigned int rep;
		char probe[64];

		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		/* the same rule as a guest directory's kernel part */
		if (strlen(p) >= sizeof(kernel))
			continue;
		snprintf(probe, sizeof(probe), "%.47s-1", p);
		if (
		    guest_name(probe, kernel, sizeof(kernel), &rep))
			snprintf(s->kernels[s->nkernels++], sizeof(s->kernels[0]),
				 "%s", kernel);
	}
}

static void read_scenario_name(struct source *s)
{
	char path[PATH_MAX];
	json_t *root, *name;
	size_t i;

	s->scenario[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/scenario.json",
			     s->dir) >= sizeof(path))
		return;
	root = jfile_load(path, JSON_REJECT_DUPLICATES, NULL);
	if (!root)
		return;
	name = json_object_get(root, "name");
	if (json_is_string(name)) {
		snprintf(s->scenario, sizeof(s->scenario), "%s",
			 json_string_value(name));
		for (i = 0; s->scenario[i]; i++)
			if (s->scenario[i] < 0x20 || s->scenario[i] > 0x7e)
				s->scenario[i] = '?';
	}
	json_decref(root);
}

static bool has_guest(const struct source *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i]->name, name))
			return true;
	return false;
}

/* Add the guest directories not seen yet. */
static void scan_guests(struct source *s)
{
	struct dirent *de;
	DIR *d = opendir(s->dir);
	bool added = false;

	if (!d)
		return;
	while ((de = readdir(d)) && s->ng < SOURCE_MAX_GUESTS) {
		struct source_guest *g;
		char kernel[48], sub[PATH_MAX];
		unsigned int rep;
		struct stat sb;

		if (strlen(de->d_name) >= sizeof(g->name) ||
		    !guest_name(de->d_name, kernel, sizeof(kernel), &rep) ||
		    has_guest(s, de->d_name))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", s->dir,
				     de->d_name) >= sizeof(sub) ||
		    stat(sub, &sb) || !S_ISDIR(sb.st_mode))
			continue;
		g = calloc(1, sizeof(*g));
		if (!g)
			break;
		g->st = calloc(1, sizeof(*g->st));
		if (!g->st) {
			free(g);
			break;
		}
		stream_init(g->st);
		track_init(&g->track);
		snprintf(g->name, sizeof(g->name), "%.63s", de->d_name);
		snprintf(g->kernel, sizeof(g->kernel), "%s", kernel);
		g->rep = rep;
		if ((size_t)snprintf(g->path, sizeof(g->path),
				     "%s/samples.jsonl", sub) >=
		    sizeof(g->path)) {
			free(g->st);
			free(g);
			continue;
		}
		s->g[s->ng++] = g;
		added = true;
	}
	closedir(d);
	if (added) {
		sorting = s;
		qsort(s->g, s->ng, sizeof(s->g[0]), guest_cmp);
		sorting = NULL;
	}
}

/* @path is a symbolic link whose target does not exist. */
static bool dangling(const char *path)
{
	struct stat sb;

	return !lstat(path, &sb) && S_ISLNK(sb.st_mode) && stat(path, &sb);
}

/*
 * Live: read what was appended to @g's file, at most SOURCE_POLL_MAX bytes
 * a poll (the rest at the next), and none once *s->stop is set. What is not
 * a regular file is never opened for reading (a FIFO would block, a device
 * never end): the run is refused, as a stale one is.
 */
static size_t tail_guest(struct source *s, struct source_guest *g)
{
	char buf[65536];
	uint64_t before = g->st->lines, budget = SOURCE_POLL_MAX;
	struct stat sb;
	int fd;

	fd = util_open_input(g->path, &sb);
	if (fd < 0) {
		if ((errno != ENOENT || dangling(g->path)) && !s->stale) {
			g->exists = true;
			s->stale = true;
			snprintf(s->stale_why, sizeof(s->stale_why), "%s: %s",
				 g->path, errno == ENOENT ?
				 "a link to nothing (dangling)" :
				 util_input_strerror(errno));
		}
		return 0;
	}
	g->exists = true;
	if ((uint64_t)sb.st_size < g->pos) {
		/* rewritten from the start: begin again */
		stream_init(g->st);
		track_free(&g->track);
		g->pos = 0;
	}
	if (lseek(fd, (off_t)g->pos, SEEK_SET) == (off_t)-1) {
		close(fd);
		return 0;
	}
	while (budget && !(s->stop && *s->stop)) {
		ssize_t n = read(fd, buf, budget < sizeof(buf) ?
				 (size_t)budget : sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		g->pos += (uint64_t)n;
		budget -= (uint64_t)n;
		stream_feed(g->st, buf, (size_t)n, on_line, g);
	}
	close(fd);
	return (size_t)(g->st->lines - before);
}

/*
 * The console.log beside samples.jsonl, scanned as run scans it, for
 * the metrics that come from it (swap I/O error lines).
 */
static void scan_console(struct source_guest *g)
{
	char path[PATH_MAX], *slash;
	struct console_scan cs;

	snprintf(path, sizeof(path), "%s", g->path);
	slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) + sizeof("/console.log") >
	    sizeof(path))
		return;
	strcpy(slash, "/console.log");
	if (access(path, R_OK))
		return;
	console_scan_file(path, &cs);
	g->track.console_scanned = true;
	g->track.swap_read_errors = cs.swap_read_errors;
	g->track.swap_write_errors = cs.swap_write_errors;
	g->track.alloc_failures = cs.alloc_failures;
	g->track.hung_tasks = cs.hung_tasks;
}

static int load_file(struct source_guest *g, char *err, size_t errlen)
{
	struct stream_state *scratch;
	struct stream_line *l;
	uint64_t first = 0, at = 0;
	bool have_first = false, ok;
	struct stat sb;
	size_t off = 0, cap = 0;
	ssize_t n;
	int fd;

	fd = util_open_input(g->path, &sb);
	if (fd < 0) {
		if (errno == ENOENT && !dangling(g->path))
			return 0;	/* a guest that never started */
		snprintf(err, errlen, "%s: %s", g->path, errno == ENOENT ?
			 "a link to nothing (dangling)" :
			 util_input_strerror(errno));
		return -1;
	}
	g->exists = true;
	scan_console(g);
	if (sb.st_size > (off_t)SOURCE_MAX_FILE) {
		snprintf(err, errlen, "%s: larger than %u MiB",
			 g->path, SOURCE_MAX_FILE >> 20);
		close(fd);
		return -1;
	}
	g->data = malloc((size_t)sb.st_size + 1);
	if (!g->data) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", g->path);
		return -1;
	}
	while (g->len < (size_t)sb.st_size) {
		n = read(fd, g->data + g->len, (size_t)sb.st_size - g->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		g->len += (size_t)n;
	}
	close(fd);

	scratch = malloc(sizeof(*scratch));
	l = malloc(sizeof(*l));
	if (!scratch || !l) {
		free(scratch);
		free(l);
		snprintf(err, errlen, "%s: out of memory", g->path);
		return -1;
	}
	stream_init(scratch);
	while (off < g->len) {
		char *nl = memchr(g->data + off, '\n', g->len - off);
		size_t len = nl ? (size_t)(nl - (g->data + off)) :
				  g->len - off;

		if (g->nlines == cap) {
			struct source_line *p;

			cap = cap ? cap * 2 : 1024;
			p = realloc(g->lines, cap * sizeof(*p));
			if (!p) {
				free(scratch);
				free(l);
				snprintf(err, errlen, "%s: out of memory",
					 g->path);
				return -1;
			}
			g->lines = p;
		}
		ok = stream_parse_line(scratch, g->data + off, len, l) ==
		     STREAM_OK;
		if (ok)
			g->valid++;
		if (ok && l->has_seq) {
			if (!have_first) {
				first = l->t_ns;
				have_first = true;
			}
			if (l->t_ns >= first && l->t_ns - first > at)
				at = l->t_ns - first;
		}
		g->lines[g->nlines].off = off;
		g->lines[g->nlines].len = len;
		g->lines[g->nlines].at_ns = at;
		g->nlines++;
		off += len + 1;
	}
	free(scratch);
	free(l);
	return 0;
}

int source_resolve(const char *workdir, const char *arg, char *out,
		   size_t len, char *err, size_t errlen)
{
	struct stat sb;
	size_t i;

	if (arg) {
		if (!stat(arg, &sb) && S_ISDIR(sb.st_mode)) {
			snprintf(out, len, "%s", arg);
			return 0;
		}
		/* a run id under <workdir>/runs */
		if (!strchr(arg, '/') &&
		    (size_t)snprintf(out, len, "%s/runs/%s", workdir, arg) <
		    len && !stat(out, &sb) && S_ISDIR(sb.st_mode))
			return 0;
		snprintf(err, errlen, "%s: no such run directory", arg);
		return -1;
	}
	if ((size_t)snprintf(out, len, "%s/runs/latest", workdir) >= len) {
		snprintf(err, errlen, "%s: path too long", workdir);
		return -1;
	}
	if (stat(out, &sb) || !S_ISDIR(sb.st_mode)) {
		char to[PATH_MAX];
		ssize_t n = readlink(out, to, sizeof(to) - 1);

		if (n > 0) {
			to[n] = '\0';
			for (i = 0; to[i]; i++)
				if ((unsigned char)to[i] < ' ' || to[i] == 0x7f)
					to[i] = '?';
			snprintf(err, errlen,
				 "%s: names %s, which is no run directory (removed?)",
				 out, to);
		} else {
			snprintf(err, errlen,
				 "%s: no run yet (start one with 'swapctl run')",
				 out);
		}
		return -1;
	}
	return 0;
}

/* What swapctl run writes first into every run directory (HACKING.md). */
static bool is_run_dir(const char *dir)
{
	static const char *const marks[] = { "state", "scenario.json",
					     "kernels" };
	char path[PATH_MAX];
	struct stat sb;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++)
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     marks[i]) < sizeof(path) &&
		    !lstat(path, &sb) && S_ISREG(sb.st_mode))
			return true;
	return false;
}

int source_open(struct source *s, const char *dir, bool replay, double speed,
		char *err, size_t errlen)
{
	const char *base;
	struct stat sb;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (!realpath(dir, s->dir)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (stat(s->dir, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return -1;
	}
	base = strrchr(s->dir, '/');
	snprintf(s->id, sizeof(s->id), "%.255s", base ? base + 1 : s->dir);
	read_small(s->dir, "state", s->state, sizeof(s->state));
	read_scenario_name(s);
	read_kernels(s);
	s->speed = speed > 0 ? speed : 1;
	s->live = !replay && !strcmp(s->state, "running");
	scan_guests(s);
	if (s->ng && !is_run_dir(s->dir)) {
		/* any directory with <name>-<N> subdirectories is no run */
		snprintf(err, errlen,
			 "%s: not a run directory (no state, scenario.json or kernels file; %s is no guest)",
			 dir, s->g[0]->name);
		source_close(s);
		return -1;
	}
	if (s->live)
		return 0;
	for (i = 0; i < s->ng; i++) {
		if (load_file(s->g[i], err, errlen) < 0) {
			source_close(s);
			return -1;
		}
		if (s->g[i]->exists && !s->g[i]->valid && !s->empty[0]) {
			snprintf(s->empty, sizeof(s->empty), "%s",
				 s->g[i]->path);
			if (!s->g[i]->nlines)
				snprintf(s->empty_why, sizeof(s->empty_why),
					 "empty (the guest sent nothing)");
			else
				snprintf(s->empty_why, sizeof(s->empty_why),
					 "no valid line (%zu, every one refused)",
					 s->g[i]->nlines);
		}
	}
	for (i = 0; i < s->ng; i++)
		if (s->g[i]->nlines &&
		    (double)s->g[i]->lines[s->g[i]->nlines - 1].at_ns / 1e9 >
		    s->end_s)
			s->end_s = (double)s->g[i]->lines[s->g[i]->nlines -
							   1].at_ns / 1e9;
	if (!s->ng) {
		snprintf(err, errlen,
			 "%s: no guest directories (<kernel>-<rep>/samples.jsonl)",
			 dir);
		return -1;
	}
	for (i = 0; i < s->ng && !s->g[i]->exists; i++)
		;
	if (i == s->ng) {
		snprintf(err, errlen,
			 "%s: no guest has a samples.jsonl (%s and the others hold none)",
			 dir, s->g[0]->name);
		source_close(s);
		return -1;
	}
	return 0;
}

static size_t replay_until(struct source *s, uint64_t until_ns)
{
	size_t delivered = 0;
	unsigned int i;

	for (i = 0; i < s->ng; i++) {
		struct source_guest *g = s->g[i];

		while (g->next < g->nlines &&
		       g->lines[g->next].at_ns <= until_ns) {
			const struct source_line *ln = &g->lines[g->next++];

			stream_feed(g->st, g->data + ln->off, ln->len, on_line,
				    g);
			/* every line ends here, even the file's last */
			stream_feed(g->st, "\n", 1, on_line, g);
			delivered++;
		}
	}
	return delivered;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* See source_done(): is a run that says "running" still going on? */
static bool check_stale(struct source *s)
{
	char lock[PATH_MAX + 32], latest[PATH_MAX + 32], real[PATH_MAX];
	int fd;

	snprintf(lock, sizeof(lock), "%s/../../run.lock", s->dir);
	fd = open(lock, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(s->stale_why, sizeof(s->stale_why),
			 "%s: state says running, but there is no run.lock beside runs/ (no swapctl run writes here)",
			 s->dir);
		return true;
	}
	/* a shared lock is refused while swapctl run holds its own */
	if (!flock(fd, LOCK_SH | LOCK_NB)) {
		close(fd);
		snprintf(s->stale_why, sizeof(s->stale_why),
			 "%s: state says running, but no swapctl run holds its run.lock: the run ended without finishing",
			 s->dir);
		return true;
	}
	close(fd);
	snprintf(latest, sizeof(latest), "%s/../latest", s->dir);
	if (realpath(latest, real) && strcmp(real, s->dir)) {
		snprintf(s->stale_why, sizeof(s->stale_why),
			 "%s: state says running, but the run going on is %s",
			 s->dir, real);
		return true;
	}
	return false;
}

size_t source_poll(struct source *s, double wall_s)
{
	size_t n = 0;
	unsigned int i;
	double now;

	if (s->live) {
		read_small(s->dir, "state", s->state, sizeof(s->state));
		scan_guests(s);
		for (i = 0; i < s->ng; i++)
			n += tail_guest(s, s->g[i]);
		now = mono_s();
		if (!n && !s->stale && !strcmp(s->state, "running") &&
		    now - s->stale_checked >= 2.0) {
			s->stale_checked = now;
			s->stale = check_stale(s);
		}
		return n;
	}
	if (wall_s > 0)
		s->clock_s += wall_s * s->speed;
	if (s->clock_s > s->end_s) {
		/* everything is due: deliver all, the clock stops at the end */
		n = replay_until(s, UINT64_MAX);
		s->clock_s = s->end_s;
		return n;
	}
	return replay_until(s, (uint64_t)(s->clock_s * 1e9));
}

void source_seek_end(struct source *s)
{
	if (s->live) {
		source_poll(s, 0);
		return;
	}
	s->clock_s = s->end_s;
	replay_until(s, UINT64_MAX);
}

bool source_done(const struct source *s)
{
	unsigned int i;

	if (s->live)
		return s->stale || strcmp(s->state, "running") != 0;
	for (i = 0; i < s->ng; i++)
		if (s->g[i]->next < s->g[i]->nlines)
			return false;
	return true;
}

const struct source_guest *source_backwards(const struct source *s)
{
	unsigned int i;

	for (i = 0; i < s->ng; i++)
		if (s->g[i]->track.backwards)
			return s->g[i];
	return NULL;
}

unsigned int source_reps(const struct source *s, unsigned int *reps,
			 unsigned int max)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < s->ng; i++) {
		for (j = 0; j < n; j++)
			if (reps[j] == s->g[i]->rep)
				break;
		if (j < n || n >= max)
			continue;
		reps[n++] = s->g[i]->rep;
	}
	/* guests are sorted by rep already */
	return n;
}

void source_close(struct source *s)
{
	unsigned int i;

	for (i = 0; i < s->ng; i++) {
		track_free(&s->g[i]->track);
		free(s->g[i]->st);
		free(s->g[i]->data);
		free(s->g[i]->lines);
		free(s->g[i]);
	}
	s->ng = 0;
}
