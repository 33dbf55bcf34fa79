// SPDX-License-Identifier: GPL-2.0
/*
 * The agent stream (stream.h): bytes into lines, each parsed (stream.c)
 * and checked against the lines before it (seq, resets); the names of
 * its enums and the lookups in a parsed line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "jfile.h"
#include "stream-int.h"

const char *stream_err_str(enum stream_err err)
{
	switch (err) {
	case STREAM_OK:
		return "ok";
	case STREAM_E_TOOLONG:
		return "line too long";
	case STREAM_E_JSON:
		return "not a JSON object";
	case STREAM_E_FIELD:
		return "bad field";
	case STREAM_E_ABSURD:
		return "absurd value";
	case STREAM_E_VERSION:
		return "unsupported protocol version";
	case STREAM_E_TYPE:
		return "unknown line type";
	case STREAM_E_SEQ:
		return "duplicate seq";
	}
	return "unknown error";
}

const char *stream_status_str(enum stream_status status)
{
	switch (status) {
	case STREAM_PASS:
		return "pass";
	case STREAM_CORRUPT:
		return "corrupt";
	case STREAM_ERROR:
		return "error";
	case STREAM_OOM:
		return "oom";
	}
	return "unknown";
}

bool stream_counter(const struct stream_line *l, const char *name,
		    uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < l->ncounters && i < STREAM_MAX_COUNTERS; i++)
		if (!strcmp(l->counters[i].name, name)) {
			if (value)
				*value = l->counters[i].value;
			return true;
		}
	return false;
}

const struct stream_blk *stream_blk_find(const struct stream_line *l,
					 const char *dev)
{
	unsigned int i;

	for (i = 0; i < l->nblk && i < STREAM_MAX_DEVS; i++)
		if (!strcmp(l->blk[i].dev, dev))
			return &l->blk[i];
	return NULL;
}

/* Did any counter of @cur go below its value in @prev? */
static bool went_backwards(const struct stream_line *prev,
			   const struct stream_line *cur)
{
	unsigned int i;

	for (i = 0; i < cur->ncounters; i++) {
		uint64_t v;

		if (stream_counter(prev, cur->counters[i].name, &v) &&
		    cur->counters[i].value < v)
			return true;
	}
	for (i = 0; i < cur->nblk; i++) {
		const struct stream_blk *c = &cur->blk[i];
		const struct stream_blk *p = stream_blk_find(prev, c->dev);

		if (p && (c->rd_ios < p->rd_ios || c->wr_ios < p->wr_ios ||
			  c->rd_sectors < p->rd_sectors ||
			  c->wr_sectors < p->wr_sectors ||
			  c->rd_bytes < p->rd_bytes ||
			  c->wr_bytes < p->wr_bytes))
			return true;
	}
	if (prev->has_cpu && cur->has_cpu) {
		const struct stream_cpu *p = &prev->cpu, *c = &cur->cpu;

		if (c->user < p->user || c->nice < p->nice ||
		    c->system < p->system || c->idle < p->idle ||
		    c->iowait < p->iowait || c->irq < p->irq ||
		    c->softirq < p->softirq || c->steal < p->steal)
			return true;
	}
	if (prev->has_psi && cur->has_psi &&
	    (cur->psi_some_us < prev->psi_some_us ||
	     (prev->has_psi_full && cur->has_psi_full &&
	      cur->psi_full_us < prev->psi_full_us)))
		return true;
	if (prev->has_host_cpu && cur->has_host_cpu &&
	    cur->host_cpu_ns < prev->host_cpu_ns)
		return true;
	return false;
}

static void count_err(struct stream_state *st, enum stream_err err)
{
	switch (err) {
	case STREAM_OK:
		st->ok++;
		break;
	case STREAM_E_TOOLONG:
		st->too_long++;
		break;
	case STREAM_E_ABSURD:
		st->absurd++;
		break;
	case STREAM_E_SEQ:
		st->seq_dups++;
		break;
	default:
		st->malformed++;
		break;
	}
}

enum stream_err stream_parse_line(struct stream_state *st, const char *line,
				  size_t len, struct stream_line *out)
{
	json_error_t jerr;
	json_t *root;

	memset(out, 0, sizeof(*out));
	st->lines++;
	st->last_err = STREAM_OK;
	st->last_error[0] = '\0';

	if (len > STREAM_MAX_LINE) {
		stream_fail(st, STREAM_E_TOOLONG, "line of %zu bytes, limit %d",
			    len, STREAM_MAX_LINE);
		goto out;
	}
	if (!line)
		len = 0;
	if (len && memchr(line, '\0', len)) {
		stream_fail(st, STREAM_E_JSON, "NUL byte at column %zu",
			    (size_t)((const char *)memchr(line, '\0', len) -
				     line) + 1);
		goto out;
	}
	root = jfile_parse(line ? line : "", len, JSON_REJECT_DUPLICATES,
			   &jerr);
	if (!root) {
		stream_fail(st, STREAM_E_JSON, "column %d: %s", jerr.column,
			    jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		stream_fail(st, STREAM_E_JSON, "not a JSON object");
		goto out;
	}
	if (stream_parse_root(st, root, out) < 0 && st->last_err == STREAM_OK)
		stream_fail(st, STREAM_E_FIELD, "invalid line");
	json_decref(root);
	if (st->last_err != STREAM_OK)
		goto out;

	/* Validation against the previous lines of this stream. */
	if (out->has_seq) {
		if (st->seen_seq && out->seq < st->next_seq) {
			stream_fail(st, STREAM_E_SEQ,
				    "seq %" PRIu64 ", expected %" PRIu64,
				    out->seq, st->next_seq);
			goto out;
		}
		if (out->seq > st->next_seq) {
			out->seq_missing = out->seq - st->next_seq;
			st->seq_gaps++;
			st->seq_missing += out->seq_missing;
		}
		st->seen_seq = true;
		st->next_seq = out->seq + 1;
		if (out->t_ns < st->last_guest_t_ns)
			st->time_backwards++;
		st->last_guest_t_ns = out->t_ns;
	}
	if (out->type == STREAM_T_SAMPLE) {
		if (st->have_sample && went_backwards(&st->prev_sample, out))
			out->reset = true;
		st->prev_sample = *out;
		st->have_sample = true;
	} else if (out->type == STREAM_T_HOST) {
		if (st->have_host && went_backwards(&st->prev_host, out))
			out->reset = true;
		st->prev_host = *out;
		st->have_host = true;
	}
	if (out->reset)
		st->resets++;
	st->dropped += out->dropped;
out:
	count_err(st, st->last_err);
	return st->last_err;
}

void stream_init(struct stream_state *st)
{
	memset(st, 0, sizeof(*st));
}

static void emit(struct stream_state *st, stream_line_cb cb, void *ctx)
{
	struct stream_line l;
	enum stream_err err;

	st->lineno++;
	if (st->discarding) {
		st->lines++;
		st->last_err = STREAM_E_TOOLONG;
		snprintf(st->last_error, sizeof(st->last_error),
			 "line %" PRIu64 " longer than %d bytes", st->lineno,
			 STREAM_MAX_LINE);
		count_err(st, STREAM_E_TOOLONG);
		if (cb)
			cb(ctx, NULL, STREAM_E_TOOLONG, st->buf, st->buflen,
			   st->lineno);
	} else {
		err = stream_parse_line(st, st->buf, st->buflen, &l);
		if (cb)
			cb(ctx, &l, err, st->buf, st->buflen, st->lineno);
	}
	st->buflen = 0;
	st->discarding = false;
}

void stream_feed(struct stream_state *st, const char *data, size_t len,
		 stream_line_cb cb, void *ctx)
{
	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;

		if (!st->discarding) {
			size_t room = STREAM_MAX_LINE - st->buflen;

			if (n > room) {
				memcpy(st->buf + st->buflen, data, room);
				st->buflen = STREAM_MAX_LINE;
				st->discarding = true;
			} else {
				memcpy(st->buf + st->buflen, data, n);
				st->buflen += n;
			}
		}
		if (!nl)
			break;
		emit(st, cb, ctx);
		data = nl + 1;
		len -= n + 1;
	}
}

size_t stream_finish(struct stream_state *st, stream_line_cb cb, void *ctx)
{
	size_t pending = st->buflen;

	if (pending || st->discarding)
		emit(st, cb, ctx);
	return pending;
}
