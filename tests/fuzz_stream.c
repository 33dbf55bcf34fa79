// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for src/model/stream.c and src/model/stats.c: any bytes, as one
 * line and as a stream split at an arbitrary point, must never crash,
 * leak, or make the parser accept an over-long line.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "track.h"
#include "stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct track track;

static void on_line(void *ctx, const struct stream_line *l,
		    enum stream_err err, const char *raw, size_t len,
		    uint64_t lineno)
{
	(void)ctx;
	(void)raw;
	(void)lineno;
	if (len > STREAM_MAX_LINE)
		abort();
	if (err == STREAM_OK) {
		if (!l || l->ncounters > STREAM_MAX_COUNTERS ||
		    l->nblk > STREAM_MAX_DEVS || l->nswaps > STREAM_MAX_SWAPS)
			abort();
		track_feed(&track, l);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stream_state st;
	static struct stream_line l;
	struct track_interval iv;
	struct stats_val series[16];
	size_t split = size ? data[0] % (size + 1) : 0;

	stream_init(&st);
	if (stream_parse_line(&st, (const char *)data, size, &l) ==
	    STREAM_OK && size > STREAM_MAX_LINE)
		abort();

	stream_init(&st);
	track_init(&track);
	stream_feed(&st, (const char *)data, split, on_line, NULL);
	stream_feed(&st, (const char *)data + split, size - split, on_line,
		    NULL);
	stream_finish(&st, on_line, NULL);
	if (st.ok + st.malformed + st.too_long + st.absurd + st.seq_dups !=
	    st.lines)
		abort();
	track_window(&track, 1000000000, &iv);
	track_total(&track, &iv);
	track_series(&track, TRACK_M_WR_PPIO, 0, 100000000, 16, series);
	track_phase_now(&track);
	track_free(&track);
	return 0;
}
