/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg: line plots written as SVG by the tool itself (no plotting
 * dependency): stacked panels sharing a width, each with labelled axes,
 * a grid and a legend.
 */
#ifndef SWAPCTL_SVG_H
#define SWAPCTL_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct svg_series {
	const char *label;
	const char *color;	/* "#rrggbb" */
	bool dashed;
	size_t n;
	const double *x, *y;	/* y NAN: no value (a gap in the line) */
};

struct svg_panel {
	const char *title;
	const char *xlabel, *ylabel;
	const struct svg_series *series;
	size_t nseries;
};

/* A "nice" tick step (1, 2, 2.5 or 5 times a power of ten). */
double svg_nice_step(double range, int ticks);
/* Write the document: @title above @np panels stacked vertically. */
void svg_render(FILE *f, const char *title, const struct svg_panel *p,
		size_t np);
/*
 * Write the document to @path through a temporary file renamed into
 * place (util_write_file_atomic(): a @path that exists and is not a
 * regular file is refused), or to standard output when @path is "-".
 * Returns 0, or -1 with a one-line message in @err.
 */
int svg_write_file(const char *path, const char *title,
		   const struct svg_panel *p, size_t np, char *err,
		   size_t errlen);

#endif
