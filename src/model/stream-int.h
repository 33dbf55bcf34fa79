/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the two halves of the stream parser, not for its users (they
 * include stream.h): stream.c turns one JSON object into a stream_line,
 * feed.c frames the bytes into lines and checks each against the lines
 * before it.
 */
#ifndef SWAPCTL_STREAM_INT_H
#define SWAPCTL_STREAM_INT_H

#include <jansson.h>

#include "stream.h"
#include "util.h"

/*
 * Record the first error of the line being parsed (@err and the message)
 * in @st; always -1.
 */
int stream_fail(struct stream_state *st, enum stream_err err,
		const char *fmt, ...) __printf(3, 4);
/* The members of line @root by its "type" into @out; -1 after a fail. */
int stream_parse_root(struct stream_state *st, json_t *root,
		      struct stream_line *out);

#endif
