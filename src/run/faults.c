// SPDX-License-Identifier: GPL-2.0
/* Host faults: triggers from the stream and the clock, actions on ganesha. */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "faults.h"
#include "ganesha.h"
#include "util.h"

static int g_pause(void *ctx)
{
	return ganesha_pause(ctx);
}

static int g_resume(void *ctx)
{
	return ganesha_resume(ctx);
}

static int g_kill(void *ctx)
{
	return ganesha_kill(ctx);
}

static int g_restart(void *ctx, char *err, size_t errlen)
{
	return ganesha_restart(ctx, err, errlen);
}

static const struct faults_ops ganesha_ops = {
	.pause = g_pause, .resume = g_resume, .kill = g_kill,
	.restart = g_restart,
};

void faults_init(struct faults *fs, const struct scenario *s,
		 const struct faults_ops *ops, void *ctx, FILE *out)
{
	int i;

	memset(fs, 0, sizeof(*fs));
	fs->ops = ops ? ops : &ganesha_ops;
	fs->ctx = ctx;
	fs->out = out;
	fs->phase = -1;
	for (i = 0; i < s->nfaults && fs->n < SCN_MAX_FAULTS; i++) {
		if (!plan_fault_on_host(s->fault[i].kind))
			continue;
		fs->h[fs->n].f = &s->fault[i];
		fs->h[fs->n].index = i;
		fs->n++;
	}
}

bool faults_any(const struct faults *fs)
{
	return fs->n > 0;
}

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static __printf(3, 4) void event(struct faults *fs, struct hfault *h,
				 const char *fmt, ...);

/* {"type":"fault","t_ns":..,"name":..,"state":..,"index":..,"detail":..} */
static void event(struct faults *fs, struct hfault *h, const char *fmt, ...)
{
	char detail[256];
	json_t *o;
	va_list ap;
	char *s;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	fs->events++;
	if (!fs->out)
		return;
	o = json_pack("{sssIsssssiss}", "type", "fault", "t_ns",
		      (json_int_t)host_ns(), "name", plan_fault_name(h->f->kind),
		      "state", h->state == HF_DONE ? "end" : "start",
		      "index", h->index, "detail", detail);
	s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	if (s) {
		fprintf(fs->out, "%s\n", s);
		fflush(fs->out);
	}
	free(s);
	json_decref(o);
}

static void failed(struct faults *fs, const char *what)
{
	fs->failures++;
	snprintf(fs->last_error, sizeof(fs->last_error), "%s", what);
}

static void start(struct faults *fs, struct hfault *h, double now)
{
	h->state = HF_ACTIVE;
	h->t_start = now;
	if (h->f->kind == FAULT_NFS_STALL) {
		if (fs->ops->pause(fs->ctx)) {
			failed(fs, "nfs_stall: SIGSTOP ganesha.nfsd failed");
			h->state = HF_DONE;
			event(fs, h, "could not stop the server");
			return;
		}
		event(fs, h, "ganesha.nfsd stopped (SIGSTOP) for %.1f s",
		      h->f->duration_s);
	} else {
		if (fs->ops->kill(fs->ctx)) {
			failed(fs, "nfs_restart: kill ganesha.nfsd failed");
			h->state = HF_DONE;
			event(fs, h, "could not kill the server");
			return;
		}
		event(fs, h, "ganesha.nfsd killed (SIGKILL), started again on the same export after %.1f s",
		      h->f->duration_s);
	}
}

static void end(struct faults *fs, struct hfault *h, double now)
{
	char err[512] = "";
	int r;

	h->state = HF_DONE;
	if (h->f->kind == FAULT_NFS_STALL) {
		r = fs->ops->resume(fs->ctx);
		if (r)
			failed(fs, "nfs_stall: SIGCONT ganesha.nfsd failed");
		event(fs, h, "%s after %.1f s", r ? "could not resume the server" :
		      "ganesha.nfsd continued (SIGCONT)", now - h->t_start);
		return;
	}
	r = fs->ops->restart(fs->ctx, err, sizeof(err));
	if (r)
		failed(fs, err);
	event(fs, h, "%s%s after %.1f s", r ? "restart failed: " :
	      "ganesha.nfsd listening again", r ? err : "",
	      now - h->t_start);
}

static void check(struct faults *fs, double now)
{
	int i;

	/* ends first: the server is free again for the next fault */
	for (i = 0; i < fs->n; i++)
		if (fs->h[i].state == HF_ACTIVE &&
		    now - fs->h[i].t_start >= fs->h[i].f->duration_s)
			end(fs, &fs->h[i], now);
	for (i = 0; i < fs->n; i++) {
		struct hfault *h = &fs->h[i];
		const struct scn_fault *f = h->f;
		bool go = false;

		if (h->state != HF_WAIT || !fs->started)
			continue;
		switch (f->trig) {
		case TRIG_PHASE:
			go = fs->phase >= (int64_t)f->at;
			break;
		case TRIG_AFTER_TIME:
			go = now - fs->t0 >= f->at;
			break;
		case TRIG_AFTER_SWAP_IOS:
			go = fs->have_ios0 && fs->ios - fs->ios0 >= f->at;
			break;
		}
		/* one server: one fault on it at a time */
		if (go) {
			int k;

			for (k = 0; k < fs->n; k++)
				if (fs->h[k].state == HF_ACTIVE)
					break;
			if (k == fs->n)
				start(fs, h, now);
		}
	}
}

void faults_line(struct faults *fs, const struct stream_line *l, double now)
{
	uint64_t a = 0, b = 0;

	if (!fs->n)
		return;
	if (l->type == STREAM_T_SAMPLE) {
		stream_counter(l, "nrswpin", &a);
		stream_counter(l, "nrswpout", &b);
		fs->ios = a + b;
		if (fs->started && !fs->have_ios0) {
			fs->ios0 = fs->ios;
			fs->have_ios0 = true;
		}
	} else if (l->type == STREAM_T_PHASE &&
		   l->phase_state == STREAM_PHASE_START) {
		if (!fs->started) {
			fs->started = true;
			fs->t0 = now;
		}
		/* a guest that sends no index: count the starts */
		fs->phase = l->phase_index >= 0 ? l->phase_index :
			    fs->nphase_starts;
		fs->nphase_starts++;
	} else {
		return;
	}
	check(fs, now);
}

void faults_tick(struct faults *fs, double now)
{
	if (fs->n)
		check(fs, now);
}

void faults_finish(struct faults *fs, double now)
{
	int i;

	for (i = 0; i < fs->n; i++)
		if (fs->h[i].state == HF_ACTIVE)
			end(fs, &fs->h[i], now);
}
