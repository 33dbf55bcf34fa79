// SPDX-License-Identifier: GPL-2.0
/* Build progress display: see progress.h. */
#include <ctype.h>
#include <string.h>

#include "progress.h"

void progress_init(struct progress *p, FILE *out, bool tty,
		   const char *label, unsigned long total, double now)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->tty = tty;
	p->interval = 10.0;
	snprintf(p->label, sizeof(p->label), "%s", label ? label : "");
	p->total = total;
	p->start = now;
	p->last_print = now;
}

bool progress_parse_line(const char *line, char *obj, size_t objlen)
{
	const char *tag, *path, *end;
	size_t n;

	/* two spaces, an upper-case tag, spaces, one path, nothing else */
	if (line[0] != ' ' || line[1] != ' ' ||
	    !isupper((unsigned char)line[2]))
		return false;
	tag = line + 2;
	while (isupper((unsigned char)*tag) || isdigit((unsigned char)*tag) ||
	       *tag == '_' || *tag == '-')
		tag++;
	if (*tag != ' ')
		return false;
	path = tag;
	while (*path == ' ')
		path++;
	/* "CC [M]" style tags */
	if (path[0] == '[') {
		path = strchr(path, ']');
		if (!path)
			return false;
		path++;
		while (*path == ' ')
			path++;
	}
	if (!*path)
		return false;
	end = path + strcspn(path, " \t");
	if (*end)
		return false;
	n = (size_t)(end - path);
	if (n < 3 || strcmp(end - 2, ".o"))
		return false;
	if (obj && objlen) {
		if (n >= objlen)
			n = objlen - 1;
		memcpy(obj, path, n);
		obj[n] = '\0';
	}
	return true;
}

double progress_eta(const struct progress *p, double now)
{
	double elapsed = now - p->start;

	if (!p->total || p->done < 3 || p->done >= p->total || elapsed < 1.0)
		return -1;
	return (double)(p->total - p->done) * elapsed / (double)p->done;
}

int progress_percent(const struct progress *p)
{
	if (!p->total)
		return -1;
	if (p->done >= p->total)
		return 100;
	return (int)(p->done * 100 / p->total);
}

char *progress_duration(double seconds, char *buf, size_t len)
{
	unsigned long s;

	if (seconds < 0) {
		snprintf(buf, len, "?");
		return buf;
	}
	s = (unsigned long)(seconds + 0.5);
	if (s >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60,
			 s % 60);
	else
		snprintf(buf, len, "%lu:%02lu", s / 60, s % 60);
	return buf;
}

void progress_format(const struct progress *p, double now, char *buf,
		     size_t len)
{
	char el[32], eta[32];
	int pct = progress_percent(p);

	progress_duration(now - p->start, el, sizeof(el));
	if (pct < 0) {
		snprintf(buf, len, "%lu objects, %s elapsed", p->done, el);
		return;
	}
	progress_duration(progress_eta(p, now), eta, sizeof(eta));
	snprintf(buf, len, "%lu/%lu objects (%d%%), %s elapsed, ETA %s",
		 p->done, p->total, pct, el, eta);
}

static void show(struct progress *p, double now)
{
	char text[256];

	if (!p->out)
		return;
	progress_format(p, now, text, sizeof(text));
	if (p->tty) {
		fprintf(p->out, "\r%s: %s  %.40s\033[K", p->label, text,
			p->current);
		p->shown = true;
	} else {
		fprintf(p->out, "swapctl build: %s: %s\n", p->label, text);
	}
	fflush(p->out);
	p->last_print = now;
}

void progress_feed(struct progress *p, const char *line, double now)
{
	if (!progress_parse_line(line, p->current, sizeof(p->current)))
		return;
	p->done++;
	/* the estimate was too low: keep the display honest */
	if (p->total && p->done > p->total)
		p->total = 0;
	if (p->tty ? now - p->last_print >= 0.2 :
		     now - p->last_print >= p->interval)
		show(p, now);
}

void progress_clear(struct progress *p)
{
	if (p->out && p->tty && p->shown) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
		p->shown = false;
	}
}
