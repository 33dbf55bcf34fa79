// SPDX-License-Identifier: GPL-2.0
/*
 * svg: stacked line plots with axes, grid and legend. See svg.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "svg.h"
#include "util.h"

#define W		1000	/* document width */
#define PANEL_H		330
#define TITLE_H		40
#define ML		80	/* margins of the plot area in a panel */
#define MR		230
#define MT		36
#define MB		56

double svg_nice_step(double range, int ticks)
{
	double raw, mag, f;

	if (!(range > 0) || ticks < 1)
		return 1;
	raw = range / ticks;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	if (f <= 1)
		f = 1;
	else if (f <= 2)
		f = 2;
	else if (f <= 2.5)
		f = 2.5;
	else if (f <= 5)
		f = 5;
	else
		f = 10;
	return f * mag;
}

/* Text with the five XML specials escaped, control characters dropped. */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, f);
			break;
		}
	}
}

static void tick_label(char *buf, size_t len, double v, double step)
{
	int dec = 0;

	while (dec < 4 && fabs(step * pow(10, dec) -
			       round(step * pow(10, dec))) > 1e-9)
		dec++;
	snprintf(buf, len, "%.*f", dec, fabs(v) < 1e-12 ? 0.0 : v);
}

static void color(FILE *f, const char *c)
{
	/* only "#" and hex digits reach the document */
	size_t i;

	if (!c || c[0] != '#' || strlen(c) != 7)
		c = "#000000";
	for (i = 1; i < 7; i++)
		if (!strchr("0123456789abcdefABCDEF", c[i]))
			c = "#000000";
	fputs(c, f);
}

/* A panel's plot area (px, py, pw, ph) and its axes' ends and steps. */
struct frame {
	double px, py, pw, ph;
	double xmax, ymax, xs, ys;
};

static void frame_of(const struct svg_panel *p, double y0, struct frame *fr)
{
	double xmax = 0, ymax = 0;
	size_t i, k;

	for (i = 0; i < p->nseries; i++)
		for (k = 0; k < p->series[i].n; k++) {
			if (isfinite(p->series[i].x[k]) &&
			    p->series[i].x[k] > xmax)
				xmax = p->series[i].x[k];
			if (isfinite(p->series[i].y[k]) &&
			    p->series[i].y[k] > ymax)
				ymax = p->series[i].y[k];
		}
	fr->xs = svg_nice_step(xmax > 0 ? xmax : 1, 10);
	fr->ys = svg_nice_step(ymax > 0 ? ymax * 1.05 : 1, 6);
	fr->xmax = ceil((xmax > 0 ? xmax : 1) / fr->xs - 1e-9) * fr->xs;
	fr->ymax = ceil((ymax > 0 ? ymax * 1.05 : 1) / fr->ys - 1e-9) * fr->ys;
	fr->px = ML;
	fr->py = y0 + MT;
	fr->pw = W - ML - MR;
	fr->ph = PANEL_H - MT - MB;
}

/* The panel's title, frame, grid with tick labels, and axis labels. */
static void axes(FILE *f, const struct svg_panel *p, double y0,
		 const struct frame *fr)
{
	double px = fr->px, py = fr->py, pw = fr->pw, ph = fr->ph, v;
	char buf[64];

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"15\" "
		"font-weight=\"bold\">", px, y0 + 22);
	esc(f, p->title);
	fprintf(f, "</text>\n");
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"#ffffff\" stroke=\"#444444\"/>\n",
		px, py, pw, ph);
	/* grid and tick labels */
	for (v = 0; v <= fr->xmax + fr->xs / 2; v += fr->xs) {
		double x = px + v / fr->xmax * pw;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#dddddd\"/>\n", x, py, x,
			py + ph);
		tick_label(buf, sizeof(buf), v, fr->xs);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"middle\">%s</text>\n", x,
			py + ph + 16, buf);
	}
	for (v = 0; v <= fr->ymax + fr->ys / 2; v += fr->ys) {
		double y = py + ph - v / fr->ymax * ph;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#dddddd\"/>\n", px, y, px + pw,
			y);
		tick_label(buf, sizeof(buf), v, fr->ys);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			"text-anchor=\"end\">%s</text>\n", px - 6, y + 4,
			buf);
	}
	fprintf(f, "<text class=\"xlabel\" x=\"%.1f\" y=\"%.1f\" "
		"font-size=\"13\" text-anchor=\"middle\">", px + pw / 2,
		py + ph + 40);
	esc(f, p->xlabel);
	fprintf(f, "</text>\n");
	fprintf(f, "<text class=\"ylabel\" font-size=\"13\" "
		"text-anchor=\"middle\" transform=\"translate(%.1f,%.1f) "
		"rotate(-90)\">", px - 52, py + ph / 2);
	esc(f, p->ylabel);
	fprintf(f, "</text>\n");
}

/* Series @s as polylines, split at gaps; a lone point as a dot. */
static void series_lines(FILE *f, const struct svg_series *s,
			 const struct frame *fr)
{
	double px = fr->px, py = fr->py, pw = fr->pw, ph = fr->ph;
	double xmax = fr->xmax, ymax = fr->ymax;
	bool open = false;
	size_t k, run = 0;

	for (k = 0; k <= s->n; k++) {
		bool ok = k < s->n && isfinite(s->x[k]) && isfinite(s->y[k]);

		if (ok && !open) {
			fprintf(f, "<polyline fill=\"none\" "
				"stroke-width=\"1.8\" stroke=\"");
			color(f, s->color);
			fprintf(f, "\"%s points=\"",
				s->dashed ? " stroke-dasharray=\"6 4\"" : "");
			open = true;
			run = 0;
		}
		if (ok) {
			fprintf(f, "%.1f,%.1f ", px + s->x[k] / xmax * pw,
				py + ph - s->y[k] / ymax * ph);
			run++;
		} else if (open) {
			fprintf(f, "\"/>\n");
			open = false;
			if (run == 1) {
				/* a lone point: make it visible */
				fprintf(f, "<circle r=\"2.5\" "
					"cx=\"%.1f\" cy=\"%.1f\" fill=\"",
					px + s->x[k - 1] / xmax * pw,
					py + ph - s->y[k - 1] / ymax * ph);
				color(f, s->color);
				fprintf(f, "\"/>\n");
			}
		}
	}
}

/* The legend, right of the plot. */
static void legend_box(FILE *f, const struct svg_panel *p,
		       const struct frame *fr)
{
	double px = fr->px, py = fr->py, pw = fr->pw;
	size_t i;

	fprintf(f, "<g class=\"legend\">\n");
	for (i = 0; i < p->nseries; i++) {
		double y = py + 10 + 20 * (double)i;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke-width=\"2.5\" stroke=\"",
			px + pw + 14, y, px + pw + 44, y);
		color(f, p->series[i].color);
		fprintf(f, "\"%s/>\n", p->series[i].dashed ?
			" stroke-dasharray=\"6 4\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">",
			px + pw + 50, y + 4);
		esc(f, p->series[i].label);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</g>\n");
}

static void panel(FILE *f, const struct svg_panel *p, double y0)
{
	struct frame fr;
	size_t i;

	frame_of(p, y0, &fr);
	fprintf(f, "<g class=\"panel\">\n");
	axes(f, p, y0, &fr);
	for (i = 0; i < p->nseries; i++)
		series_lines(f, &p->series[i], &fr);
	legend_box(f, p, &fr);
	fprintf(f, "</g>\n");
}

void svg_render(FILE *f, const char *title, const struct svg_panel *p,
		size_t np)
{
	size_t i;
	int h = TITLE_H + (int)np * PANEL_H;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\">\n", W, h, W, h);
	fprintf(f, "<title>");
	esc(f, title);
	fprintf(f, "</title>\n");
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n", W,
		h);
	fprintf(f, "<text x=\"%d\" y=\"26\" font-size=\"18\" "
		"font-weight=\"bold\">", ML);
	esc(f, title);
	fprintf(f, "</text>\n");
	for (i = 0; i < np; i++)
		panel(f, &p[i], TITLE_H + (double)i * PANEL_H);
	fprintf(f, "</svg>\n");
}

int svg_write_file(const char *path, const char *title,
		   const struct svg_panel *p, size_t np, char *err,
		   size_t errlen)
{
	size_t len = 0;
	char *buf = NULL;
	FILE *f;
	int ret;

	if (!strcmp(path, "-")) {
		svg_render(stdout, title, p, np);
		if (fflush(stdout) || ferror(stdout)) {
			snprintf(err, errlen, "<stdout>: write failed: %s",
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	svg_render(f, title, p, np);
	if (fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		return -1;
	}
	ret = util_write_file_atomic(path, buf, len, 0644);
	if (ret)
		snprintf(err, errlen, "%s: %s", path,
			 util_output_strerror(errno));
	free(buf);
	return ret;
}
