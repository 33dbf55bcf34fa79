/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the unit tests that feed agent lines to a track (test_track.c,
 * test_metrics.c, test_screen.c): parse the printf-formatted line with
 * @st and feed it to @tr, failing the test on a line the stream refuses.
 * Include after <cmocka.h>.
 */
#ifndef TESTS_FEED_H
#define TESTS_FEED_H

#include <stdarg.h>
#include <stdio.h>

#include "track.h"
#include "stream.h"
#include "util.h"

static __printf(3, 4) void feed_line(struct stream_state *st,
				     struct track *tr,
				     const char *fmt, ...)
{
	static struct stream_line l;
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && n < (int)sizeof(buf));
	if (stream_parse_line(st, buf, (size_t)n, &l) != STREAM_OK)
		fail_msg("%s: %s", buf, st->last_error);
	track_feed(tr, &l);
}

/*
 * The state of a test file that feeds one track: a stream @st, a track
 * @tr and the next sequence number @seq, made anew for every test by
 * setup() and freed by teardown() (cmocka_unit_test_setup_teardown()).
 */
#define FEED_TRACK_FIXTURE()					\
static struct stream_state st;					\
static struct track tr;						\
static unsigned int seq;					\
								\
static int setup(void **state)					\
{								\
	(void)state;						\
	stream_init(&st);					\
	track_init(&tr);					\
	seq = 0;						\
	return 0;						\
}								\
								\
static int teardown(void **state)				\
{								\
	(void)state;						\
	track_free(&tr);					\
	return 0;						\
}

#endif
