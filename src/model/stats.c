// SPDX-License-Identifier: GPL-2.0
/*
 * stats: deltas, rates and ratios between samples, with counter resets,
 * zero divisors and missing counters kept apart from numbers. See stats.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

uint64_t stats_delta(uint64_t prev, uint64_t cur, bool *reset)
{
	if (cur >= prev)
		return cur - prev;
	if (reset)
		*reset = true;
	return cur;
}

struct stats_val stats_ok(double v)
{
	struct stats_val r = { STATS_OK, v };

	return r;
}

struct stats_val stats_missing(void)
{
	struct stats_val r = { STATS_MISSING, 0 };

	return r;
}

static struct stats_val stats_na(void)
{
	struct stats_val r = { STATS_NA, 0 };

	return r;
}

struct stats_val stats_rate(uint64_t delta, uint64_t dt_ns)
{
	if (!dt_ns)
		return stats_na();
	return stats_ok((double)delta * 1e9 / (double)dt_ns);
}

struct stats_val stats_ratio(struct stats_val num, struct stats_val den)
{
	if (num.state == STATS_MISSING || den.state == STATS_MISSING)
		return stats_missing();
	if (num.state != STATS_OK || den.state != STATS_OK || den.v == 0)
		return stats_na();
	return stats_ok(num.v / den.v);
}

char *stats_fmt(char *buf, size_t len, struct stats_val v, int decimals)
{
	switch (v.state) {
	case STATS_OK:
		snprintf(buf, len, "%.*f", decimals, v.v);
		break;
	case STATS_NA:
		snprintf(buf, len, "n/a");
		break;
	case STATS_MISSING:
		snprintf(buf, len, "missing");
		break;
	}
	return buf;
}

void stats_track_init(struct stats_track *t)
{
	memset(t, 0, sizeof(*t));
}

void stats_track_free(struct stats_track *t)
{
	free(t->pts);
	free(t->host);
	stats_track_init(t);
}

static bool grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return true;
	if (n >= STATS_MAX_POINTS)
		return false;
	ncap = *cap ? *cap * 2 : 256;
	p = realloc(*arr, ncap * size);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static bool is_swap_dev(const struct stats_track *t, const char *dev)
{
	unsigned int i;

	if (!t->ndevs)
		return true;
	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i], dev))
			return true;
	return false;
}

static void raw_point(const struct stats_track *t, const struct stream_line *l,
		      struct stats_point *p)
{
	static const char *const names[] = {
		[SF_PSWPOUT] = "pswpout",
		[SF_PSWPIN] = "pswpin",
		[SF_NRSWPOUT] = "nrswpout",
		[SF_NRSWPIN] = "nrswpin",
		[SF_MAJFLT] = "pgmajfault",
	};
	unsigned int i;
	bool dev = false;

	memset(p, 0, sizeof(*p));
	p->t_ns = l->t_ns;
	for (i = 0; i <= SF_MAJFLT; i++)
		if (stream_counter(l, names[i], &p->v[i]))
			p->present |= 1u << i;
	for (i = 0; i < l->nblk; i++) {
		const struct stream_blk *b = &l->blk[i];

		if (!is_swap_dev(t, b->dev))
			continue;
		dev = true;
		p->v[SF_DEV_RD_IOS] += b->rd_ios;
		p->v[SF_DEV_WR_IOS] += b->wr_ios;
		p->v[SF_DEV_RD_SECT] += b->rd_sectors;
		p->v[SF_DEV_WR_SECT] += b->wr_sectors;
	}
	if (dev)
		p->present |= (1u << SF_DEV_RD_IOS) | (1u << SF_DEV_WR_IOS) |
			      (1u << SF_DEV_RD_SECT) | (1u << SF_DEV_WR_SECT);
	if (l->has_cpu) {
		p->v[SF_CPU_USER] = l->cpu.user;
		p->v[SF_CPU_NICE] = l->cpu.nice;
		p->v[SF_CPU_SYS] = l->cpu.system;
		p->v[SF_CPU_IDLE] = l->cpu.idle;
		p->v[SF_CPU_IOWAIT] = l->cpu.iowait;
		p->v[SF_CPU_IRQ] = l->cpu.irq;
		p->v[SF_CPU_SOFTIRQ] = l->cpu.softirq;
		p->v[SF_CPU_STEAL] = l->cpu.steal;
		for (i = SF_CPU_USER; i <= SF_CPU_STEAL; i++)
			p->present |= 1u << i;
	}
	if (l->has_psi) {
		p->v[SF_PSI_SOME] = l->psi_some_us;
		p->present |= 1u << SF_PSI_SOME;
	}
	if (l->has_psi_full) {
		p->v[SF_PSI_FULL] = l->psi_full_us;
		p->present |= 1u << SF_PSI_FULL;
	}
	if (l->has_mem) {
		p->free_kb = l->mem_free_kb;
		p->min_kb = l->mem_min_kb;
		p->writeback_kb = l->mem_writeback_kb;
		p->has_mem = true;
	}
	for (i = 0; i < l->nswaps; i++) {
		p->swap_used_kb += l->swaps[i].used_kb;
		p->swap_size_kb += l->swaps[i].size_kb;
	}
}

unsigned int stats_hist_lo(unsigned int i)
{
	return i == 0 ? 1 : (1u << (i - 1)) + 1;
}

static unsigned int hist_bucket(double ppio)
{
	unsigned int i;

	for (i = STATS_HIST_BUCKETS - 1; i > 0; i--)
		if (ppio >= stats_hist_lo(i) - 0.5)
			return i;
	return 0;
}

static void hist_add(struct stats_track *t, const struct stats_point *a,
		     const struct stats_point *b)
{
	unsigned int both = a->present & b->present;
	uint64_t pages, ios;

	if (both & (1u << SF_NRSWPOUT) && both & (1u << SF_PSWPOUT)) {
		pages = b->v[SF_PSWPOUT] - a->v[SF_PSWPOUT];
		ios = b->v[SF_NRSWPOUT] - a->v[SF_NRSWPOUT];
		t->hist_from_dev = false;
	} else if (both & (1u << SF_DEV_WR_IOS) &&
		   !(b->present & (1u << SF_NRSWPOUT))) {
		pages = (b->v[SF_DEV_WR_SECT] - a->v[SF_DEV_WR_SECT]) / 8;
		ios = b->v[SF_DEV_WR_IOS] - a->v[SF_DEV_WR_IOS];
		t->hist_from_dev = true;
	} else {
		return;
	}
	if (!ios)
		return;
	t->hist[hist_bucket((double)pages / (double)ios)] += ios;
}

static void feed_counters(struct stats_track *t, const struct stream_line *l)
{
	unsigned int i, j;
	bool reset = false;

	for (i = 0; i < l->ncounters; i++) {
		const struct stream_counter *c = &l->counters[i];
		struct stats_counter *k = NULL;

		for (j = 0; j < t->nctr; j++)
			if (!strcmp(t->ctr[j].name, c->name)) {
				k = &t->ctr[j];
				break;
			}
		if (!k) {
			if (t->nctr >= STREAM_MAX_COUNTERS)
				continue;
			k = &t->ctr[t->nctr++];
			snprintf(k->name, sizeof(k->name), "%s", c->name);
			k->raw = k->cum = c->value;
			continue;
		}
		k->cum += stats_delta(k->raw, c->value, &reset);
		k->raw = c->value;
	}
}

bool stats_track_counter(const struct stats_track *t, const char *name,
			 uint64_t *value)
{
	unsigned int i;

	for (i = 0; i < t->nctr; i++)
		if (!strcmp(t->ctr[i].name, name)) {
			if (value)
				*value = t->ctr[i].cum;
			return true;
		}
	return false;
}

static void feed_sample(struct stats_track *t, const struct stream_line *l)
{
	struct stats_point raw, cum;
	struct stats_point *last;
	unsigned int f;
	bool reset = false;

	raw_point(t, l, &raw);
	if (t->npts && raw.t_ns < t->pts[t->npts - 1].t_ns) {
		t->dropped++;
		t->backwards++;
		return;
	}
	feed_counters(t, l);
	if (!grow((void **)&t->pts, &t->cap, t->npts, sizeof(*t->pts))) {
		t->dropped++;
		return;
	}
	cum = raw;
	if (t->npts) {
		last = &t->pts[t->npts - 1];
		for (f = 0; f < SF_NFIELDS; f++) {
			unsigned int bit = 1u << f;

			if (!(raw.present & bit) || !(t->raw.present & bit) ||
			    !(last->present & bit))
				continue;
			cum.v[f] = last->v[f] +
				   stats_delta(t->raw.v[f], raw.v[f], &reset);
		}
		hist_add(t, last, &cum);
	}
	if (reset)
		t->resets++;
	t->raw = raw;
	t->pts[t->npts++] = cum;
}

static void feed_host(struct stats_track *t, const struct stream_line *l)
{
	struct stats_host_point raw, cum;
	const struct stats_host_point *last;
	bool reset = false;
	unsigned int i;

	memset(&raw, 0, sizeof(raw));
	raw.t_ns = l->t_ns;
	for (i = 0; i < l->nblk; i++) {
		raw.rd_req += l->blk[i].rd_ios;
		raw.wr_req += l->blk[i].wr_ios;
		raw.rd_bytes += l->blk[i].rd_bytes;
		raw.wr_bytes += l->blk[i].wr_bytes;
	}
	raw.has_blk = l->nblk > 0;
	raw.has_cpu = l->has_host_cpu;
	raw.cpu_ns = l->host_cpu_ns;
	if (t->nhost && raw.t_ns < t->host[t->nhost - 1].t_ns) {
		t->dropped++;
		t->backwards++;
		return;
	}
	if (!grow((void **)&t->host, &t->caphost, t->nhost,
		  sizeof(*t->host))) {
		t->dropped++;
		return;
	}
	cum = raw;
	if (t->nhost && raw.has_cpu && t->rawhost.has_cpu &&
	    t->host[t->nhost - 1].has_cpu)
		cum.cpu_ns = t->host[t->nhost - 1].cpu_ns +
			     stats_delta(t->rawhost.cpu_ns, raw.cpu_ns, &reset);
	if (t->nhost && raw.has_blk && t->rawhost.has_blk &&
	    t->host[t->nhost - 1].has_blk) {
		last = &t->host[t->nhost - 1];
		cum.rd_req = last->rd_req +
			     stats_delta(t->rawhost.rd_req, raw.rd_req, &reset);
		cum.wr_req = last->wr_req +
			     stats_delta(t->rawhost.wr_req, raw.wr_req, &reset);
		cum.rd_bytes = last->rd_bytes + stats_delta(t->rawhost.rd_bytes,
							    raw.rd_bytes,
							    &reset);
		cum.wr_bytes = last->wr_bytes + stats_delta(t->rawhost.wr_bytes,
							    raw.wr_bytes,
							    &reset);
	}
	if (reset)
		t->resets++;
	t->rawhost = raw;
	t->host[t->nhost++] = cum;
}

static void feed_phase(struct stats_track *t, const struct stream_line *l)
{
	struct stats_phase *p;
	unsigned int i;

	if (l->phase_state == STREAM_PHASE_END) {
		for (i = t->nphases; i > 0; i--) {
			p = &t->phases[i - 1];
			if (!p->ended && !strcmp(p->name, l->phase)) {
				p->end_ns = l->t_ns;
				p->ended = true;
				p->has_stats = l->phase_has_stats;
				p->pages = l->pages;
				p->ns = l->ns;
				p->corrupt = l->corrupt;
				p->has_residency = l->phase_has_residency;
				p->asked = l->asked;
				p->resident_before = l->resident_before;
				p->resident = l->resident;
				p->evicted = l->evicted;
				break;
			}
		}
		return;
	}
	if (t->nphases >= STATS_MAX_PHASES) {
		/* keep the newest: shift the oldest out */
		memmove(&t->phases[0], &t->phases[1],
			sizeof(t->phases[0]) * (STATS_MAX_PHASES - 1));
		t->nphases--;
	}
	p = &t->phases[t->nphases++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", l->phase);
	p->start_ns = l->t_ns;
}

static void feed_fault(struct stats_track *t, const struct stream_line *l)
{
	struct stats_fault *f;

	if (t->nfaults >= STATS_MAX_FAULTS) {
		memmove(&t->faults[0], &t->faults[1],
			sizeof(t->faults[0]) * (STATS_MAX_FAULTS - 1));
		t->nfaults--;
	}
	f = &t->faults[t->nfaults++];
	t->nfaults_seen++;
	snprintf(f->name, sizeof(f->name), "%s", l->phase);
	f->end = l->phase_state == STREAM_PHASE_END;
	f->host = !l->has_seq;
	f->t_ns = l->t_ns;
	snprintf(f->detail, sizeof(f->detail), "%s", l->msg);
	if (l->has_injected && !strcmp(l->phase, "slab_error")) {
		t->has_slab_injected = true;
		t->slab_injected += l->injected;
	}
	/* the event line of top and report: shown as the last message */
	snprintf(t->last_log, sizeof(t->last_log), "fault %s %s%s%.200s",
		 f->name, f->end ? "end" : "start", f->detail[0] ? ": " : "",
		 f->detail);
}

void stats_track_feed(struct stats_track *t, const struct stream_line *l)
{
	unsigned int i;

	switch (l->type) {
	case STREAM_T_HELLO:
		if (!t->hello)
			t->hello_t_ns = l->t_ns;
		t->hello = true;
		snprintf(t->kernel, sizeof(t->kernel), "%s", l->kernel);
		t->interval_ms = l->interval_ms;
		t->hello_nrswp = stream_counter(l, "nrswpout", NULL);
		break;
	case STREAM_T_SWAP:
		t->ndevs = 0;
		for (i = 0; i < l->nswaps; i++) {
			if (!strcmp(l->swaps[i].type, "zram"))
				t->zram = true;
			if (!l->swaps[i].dev[0] || t->ndevs >= STREAM_MAX_SWAPS)
				continue;
			snprintf(t->devs[t->ndevs++], STREAM_NAME_MAX, "%s",
				 l->swaps[i].dev);
		}
		break;
	case STREAM_T_SAMPLE:
		feed_sample(t, l);
		break;
	case STREAM_T_HOST:
		feed_host(t, l);
		break;
	case STREAM_T_PHASE:
		feed_phase(t, l);
		break;
	case STREAM_T_RESULT:
		t->have_result = true;
		t->status = l->status;
		t->pages_written = l->pages_written;
		t->pages_verified = l->pages_verified;
		t->pages_corrupt = l->pages_corrupt;
		t->first_corrupt = l->first_corrupt;
		t->pages_failed = l->pages_failed;
		t->pages_failed_distinct = l->pages_failed_distinct;
		t->has_swapin = l->has_swapin;
		t->swapin_faults = l->swapin_faults;
		t->swapin_p50_us = l->swapin_p50_us;
		t->swapin_p99_us = l->swapin_p99_us;
		t->swapin_max_us = l->swapin_max_us;
		snprintf(t->reason, sizeof(t->reason), "%s", l->msg);
		break;
	case STREAM_T_FAULT:
		feed_fault(t, l);
		break;
	case STREAM_T_LOG:
		snprintf(t->last_log, sizeof(t->last_log), "%s", l->msg);
		break;
	case STREAM_T_COMMAND:
		break;
	case STREAM_T_NONE:
		break;
	}
}

const struct stats_phase *stats_track_phase(const struct stats_track *t)
{
	unsigned int i;

	for (i = t->nphases; i > 0; i--)
		if (!t->phases[i - 1].ended)
			return &t->phases[i - 1];
	return t->nphases ? &t->phases[t->nphases - 1] : NULL;
}

static struct stats_val field_delta(const struct stats_point *a,
				    const struct stats_point *b,
				    enum stats_field f)
{
	unsigned int bit = 1u << f;

	if (!(a->present & bit) || !(b->present & bit))
		return stats_missing();
	if (b->v[f] < a->v[f])
		return stats_ok(0);
	return stats_ok((double)(b->v[f] - a->v[f]));
}

static struct stats_val per_s(struct stats_val d, uint64_t dt_ns)
{
	if (d.state != STATS_OK)
		return d;
	if (!dt_ns)
		return stats_na();
	return stats_ok(d.v * 1e9 / (double)dt_ns);
}

static struct stats_val sum(struct stats_val a, struct stats_val b)
{
	if (a.state != STATS_OK)
		return a;
	if (b.state != STATS_OK)
		return b;
	return stats_ok(a.v + b.v);
}

/* A delta in @unit per second as seconds. */
static struct stats_val secs(struct stats_val d, double unit)
{
	if (d.state == STATS_OK)
		d.v /= unit;
	return d;
}

/* @part / @whole where @whole is a plain number of seconds. */
static struct stats_val frac(struct stats_val part, double whole)
{
	if (part.state != STATS_OK)
		return part;
	if (whole <= 0)
		return stats_na();
	return stats_ok(part.v / whole);
}

static void cpu_between(const struct stats_point *a,
			const struct stats_point *b,
			struct stats_interval *out)
{
	struct stats_val all = stats_ok(0), mib;
	unsigned int f;

	for (f = SF_CPU_USER; f <= SF_CPU_STEAL; f++)
		all = sum(all, secs(field_delta(a, b, f), 1e9));
	out->cpu_user = secs(field_delta(a, b, SF_CPU_USER), 1e9);
	out->cpu_sys = secs(field_delta(a, b, SF_CPU_SYS), 1e9);
	out->cpu_iowait = secs(field_delta(a, b, SF_CPU_IOWAIT), 1e9);
	out->cpu_softirq = secs(field_delta(a, b, SF_CPU_SOFTIRQ), 1e9);
	out->cpu_busy = all;
	if (all.state == STATS_OK) {
		struct stats_val idle = secs(field_delta(a, b, SF_CPU_IDLE),
					     1e9);

		out->cpu_busy = stats_ok(all.v - idle.v - out->cpu_iowait.v);
		if (out->cpu_busy.v < 0)
			out->cpu_busy.v = 0;
	}
	out->cpu_user_pct = stats_ratio(out->cpu_user, all);
	out->cpu_sys_pct = stats_ratio(out->cpu_sys, all);
	out->cpu_iowait_pct = stats_ratio(out->cpu_iowait, all);
	out->cpu_softirq_pct = stats_ratio(out->cpu_softirq, all);
	/* 4 KiB pages: 256 per MiB */
	mib = sum(out->pswpout, out->pswpin);
	if (mib.state == STATS_OK)
		mib.v /= 256;
	out->sys_ms_per_mib = stats_ratio(secs(out->cpu_sys, 1e-3), mib);
}

/* Whether @p's free memory was below its min watermarks. */
static bool below_min(const struct stats_point *p)
{
	return p->has_mem && p->free_kb < p->min_kb;
}

/* The "mem" gauges of @b; @a only for the interval's length. */
static void mem_between(const struct stats_point *a,
			const struct stats_point *b,
			struct stats_interval *out)
{
	if (!b->has_mem) {
		out->free_low_kb = out->writeback_peak_kb = stats_missing();
		out->below_min_s = stats_missing();
		return;
	}
	out->free_low_kb = stats_ok((double)b->free_kb);
	out->writeback_peak_kb = stats_ok((double)b->writeback_kb);
	out->below_min_s = stats_ok(below_min(b) && b->t_ns > a->t_ns ?
				    (double)(b->t_ns - a->t_ns) / 1e9 : 0);
}

/* The "mem" gauges over every point of @t (MISSING if none has them). */
static void mem_total(const struct stats_track *t, struct stats_interval *out)
{
	uint64_t low = UINT64_MAX, peak = 0, below_ns = 0;
	bool any = false;
	size_t i;

	for (i = 0; i < t->npts; i++) {
		const struct stats_point *p = &t->pts[i];

		if (!p->has_mem)
			continue;
		any = true;
		if (p->free_kb < low)
			low = p->free_kb;
		if (p->writeback_kb > peak)
			peak = p->writeback_kb;
		if (i && below_min(p))
			below_ns += p->t_ns - t->pts[i - 1].t_ns;
	}
	if (!any) {
		out->free_low_kb = out->writeback_peak_kb = stats_missing();
		out->below_min_s = stats_missing();
		return;
	}
	out->free_low_kb = stats_ok((double)low);
	out->writeback_peak_kb = stats_ok((double)peak);
	out->below_min_s = stats_ok((double)below_ns / 1e9);
}

void stats_between(const struct stats_point *a, const struct stats_point *b,
		   const struct stats_host_point *ha,
		   const struct stats_host_point *hb,
		   struct stats_interval *out)
{
	uint64_t dt = b->t_ns > a->t_ns ? b->t_ns - a->t_ns : 0;
	struct stats_val wr_sect;

	memset(out, 0, sizeof(*out));
	out->dt_s = (double)dt / 1e9;
	out->pswpout = field_delta(a, b, SF_PSWPOUT);
	out->nrswpout = field_delta(a, b, SF_NRSWPOUT);
	out->pswpin = field_delta(a, b, SF_PSWPIN);
	out->nrswpin = field_delta(a, b, SF_NRSWPIN);
	out->majflt = field_delta(a, b, SF_MAJFLT);
	out->dev_rd_ios = field_delta(a, b, SF_DEV_RD_IOS);
	out->dev_wr_ios = field_delta(a, b, SF_DEV_WR_IOS);
	out->dev_ios = sum(out->dev_rd_ios, out->dev_wr_ios);
	out->pswpout_s = per_s(out->pswpout, dt);
	out->nrswpout_s = per_s(out->nrswpout, dt);
	out->pswpin_s = per_s(out->pswpin, dt);
	out->nrswpin_s = per_s(out->nrswpin, dt);
	out->majflt_s = per_s(out->majflt, dt);
	out->dev_ios_s = per_s(out->dev_ios, dt);
	out->wr_ppio = stats_ratio(out->pswpout, out->nrswpout);
	out->rd_ppio = stats_ratio(out->pswpin, out->nrswpin);
	wr_sect = field_delta(a, b, SF_DEV_WR_SECT);
	if (wr_sect.state == STATS_OK)
		wr_sect.v /= 8;		/* 512-byte sectors per 4 KiB page */
	out->dev_wr_ppio = stats_ratio(wr_sect,
				       field_delta(a, b, SF_DEV_WR_IOS));
	out->swap_used_kb = b->swap_used_kb;
	out->swap_size_kb = b->swap_size_kb;
	out->swap_peak_kb = b->swap_used_kb;
	mem_between(a, b, out);
	cpu_between(a, b, out);
	out->psi_some = secs(field_delta(a, b, SF_PSI_SOME), 1e6);
	out->psi_full = secs(field_delta(a, b, SF_PSI_FULL), 1e6);
	out->psi_some_pct = frac(out->psi_some, out->dt_s);
	out->psi_full_pct = frac(out->psi_full, out->dt_s);
	out->host_cpu = stats_missing();
	out->host_cpu_pct = stats_missing();
	if (ha && hb && ha->has_cpu && hb->has_cpu && hb->t_ns >= ha->t_ns) {
		out->host_cpu = stats_ok(hb->cpu_ns >= ha->cpu_ns ?
					 (double)(hb->cpu_ns - ha->cpu_ns) / 1e9
					 : 0);
		out->host_cpu_pct = frac(out->host_cpu,
					 (double)(hb->t_ns - ha->t_ns) / 1e9);
	}
	if (ha && hb && (!ha->has_blk || !hb->has_blk)) {
		out->host_req = stats_missing();
		out->host_req_s = stats_missing();
	} else if (ha && hb && hb->t_ns >= ha->t_ns) {
		uint64_t d = (hb->rd_req + hb->wr_req) -
			     (ha->rd_req + ha->wr_req);

		if (hb->rd_req + hb->wr_req < ha->rd_req + ha->wr_req)
			d = 0;
		out->host_req = stats_ok((double)d);
		out->host_req_s = per_s(out->host_req, hb->t_ns - ha->t_ns);
	} else {
		out->host_req = stats_missing();
		out->host_req_s = stats_missing();
	}
}

static void all_na(struct stats_interval *out)
{
	struct stats_val na = stats_na();

	memset(out, 0, sizeof(*out));
	out->pswpout_s = out->nrswpout_s = out->wr_ppio = na;
	out->pswpin_s = out->nrswpin_s = out->rd_ppio = na;
	out->dev_ios_s = out->dev_wr_ppio = out->host_req_s = na;
	out->majflt_s = out->pswpout = out->nrswpout = na;
	out->pswpin = out->nrswpin = out->majflt = out->dev_ios = na;
	out->dev_rd_ios = out->dev_wr_ios = na;
	out->host_req = na;
	out->cpu_user = out->cpu_sys = out->cpu_iowait = na;
	out->cpu_softirq = out->cpu_busy = na;
	out->cpu_user_pct = out->cpu_sys_pct = out->cpu_iowait_pct = na;
	out->cpu_softirq_pct = out->sys_ms_per_mib = na;
	out->psi_some = out->psi_full = na;
	out->psi_some_pct = out->psi_full_pct = na;
	out->host_cpu = out->host_cpu_pct = na;
	out->free_low_kb = out->writeback_peak_kb = out->below_min_s = na;
}

/* Index of the last point with t_ns <= @when, or -1. */
static long point_at(const struct stats_point *pts, size_t n, uint64_t when)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pts[mid].t_ns <= when)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

size_t stats_point_after(const struct stats_track *t, uint64_t when)
{
	long i = point_at(t->pts, t->npts, when);

	if (i >= 0 && t->pts[i].t_ns == when)
		return (size_t)i;
	return (size_t)(i + 1);
}

long stats_point_before(const struct stats_track *t, uint64_t when)
{
	return point_at(t->pts, t->npts, when);
}

static long host_at(const struct stats_host_point *h, size_t n,
		    uint64_t when)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h[mid].t_ns <= when)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

void stats_track_window(const struct stats_track *t, uint64_t window_ns,
			struct stats_interval *out)
{
	const struct stats_point *b;
	const struct stats_host_point *ha = NULL, *hb = NULL;
	long ia;

	if (t->npts < 2) {
		all_na(out);
		if (t->npts)
			out->swap_used_kb = t->pts[0].swap_used_kb;
		return;
	}
	b = &t->pts[t->npts - 1];
	ia = b->t_ns >= window_ns ?
	     point_at(t->pts, t->npts, b->t_ns - window_ns) : 0;
	if (ia < 0)
		ia = 0;
	if ((size_t)ia == t->npts - 1)
		ia--;
	if (t->nhost >= 2) {
		long ih;

		hb = &t->host[t->nhost - 1];
		ih = hb->t_ns >= window_ns ?
		     host_at(t->host, t->nhost, hb->t_ns - window_ns) : 0;
		if (ih < 0)
			ih = 0;
		if ((size_t)ih == t->nhost - 1)
			ih--;
		ha = &t->host[ih];
	}
	stats_between(&t->pts[ia], b, ha, hb, out);
}

void stats_track_total(const struct stats_track *t,
		       struct stats_interval *out)
{
	struct stats_point zero;
	struct stats_host_point hzero;
	size_t i;

	if (!t->npts) {
		all_na(out);
		return;
	}
	memset(&zero, 0, sizeof(zero));
	zero.t_ns = t->pts[0].t_ns;
	zero.present = t->pts[t->npts - 1].present;
	memset(&hzero, 0, sizeof(hzero));
	if (t->nhost) {
		hzero.t_ns = t->host[0].t_ns;
		hzero.has_blk = t->host[t->nhost - 1].has_blk;
		hzero.has_cpu = t->host[t->nhost - 1].has_cpu;
	}
	stats_between(&zero, &t->pts[t->npts - 1], t->nhost ? &hzero : NULL,
		      t->nhost ? &t->host[t->nhost - 1] : NULL, out);
	for (i = 0; i < t->npts; i++)
		if (t->pts[i].swap_used_kb > out->swap_peak_kb)
			out->swap_peak_kb = t->pts[i].swap_used_kb;
	mem_total(t, out);
}

struct stats_val stats_metric(const struct stats_interval *iv,
			      enum stats_metric m)
{
	switch (m) {
	case STATS_M_WR_PPIO:
		return iv->wr_ppio;
	case STATS_M_RD_PPIO:
		return iv->rd_ppio;
	case STATS_M_DEV_WR_PPIO:
		return iv->dev_wr_ppio;
	case STATS_M_PSWPOUT_S:
		return iv->pswpout_s;
	case STATS_M_PSWPIN_S:
		return iv->pswpin_s;
	case STATS_M_MAJFLT_S:
		return iv->majflt_s;
	case STATS_M_CPU_SYS_PCT:
		return iv->cpu_sys_pct;
	case STATS_M_PSI_SOME_PCT:
		return iv->psi_some_pct;
	}
	return stats_na();
}

void stats_track_phase_interval(const struct stats_track *t, unsigned int i,
				struct stats_interval *out)
{
	const struct stats_phase *p;
	long a, b;
	size_t k;

	if (i >= t->nphases || t->npts < 2) {
		all_na(out);
		return;
	}
	p = &t->phases[i];
	a = point_at(t->pts, t->npts, p->start_ns);
	if (a < 0)
		a = 0;
	b = (long)t->npts - 1;
	if (p->ended)
		for (k = (size_t)a; k < t->npts; k++)
			if (t->pts[k].t_ns >= p->end_ns) {
				b = (long)k;
				break;
			}
	if (b <= a) {
		all_na(out);
		return;
	}
	/* host and guest clocks differ: no host figures per phase */
	stats_between(&t->pts[a], &t->pts[b], NULL, NULL, out);
}

struct stats_val stats_phase_evicted_ratio(const struct stats_phase *p)
{
	if (!p->has_residency)
		return stats_missing();
	if (!p->asked)
		return stats_na();
	return stats_ok((double)p->evicted / (double)p->asked);
}

uint64_t stats_track_span_ns(const struct stats_track *t)
{
	if (t->npts < 2)
		return 0;
	return t->pts[t->npts - 1].t_ns - t->pts[0].t_ns;
}

size_t stats_track_series(const struct stats_track *t, enum stats_metric m,
			  uint64_t t0_ns, uint64_t step_ns, size_t n,
			  struct stats_val *out)
{
	size_t i, have = 0;
	uint64_t first, last;

	for (i = 0; i < n; i++)
		out[i] = stats_na();
	if (t->npts < 2 || !step_ns)
		return 0;
	first = t->pts[0].t_ns;
	last = t->pts[t->npts - 1].t_ns;
	for (i = 0; i < n; i++) {
		uint64_t from = first + t0_ns + i * step_ns;
		struct stats_interval iv;
		long a, b;

		if (from >= last)
			break;
		a = point_at(t->pts, t->npts, from);
		b = point_at(t->pts, t->npts, from + step_ns);
		if (a < 0 || b <= a)
			continue;
		stats_between(&t->pts[a], &t->pts[b], NULL, NULL, &iv);
		out[i] = stats_metric(&iv, m);
		have = i + 1;
	}
	return have;
}

double stats_t95(unsigned int df)
{
	static const double t[] = {
		0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
		2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110,
		2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
		2.052, 2.048, 2.045, 2.042,
	};

	if (df == 0)
		return NAN;
	if (df <= 30)
		return t[df];
	/* between table rows take the smaller df: a slightly wider CI */
	if (df < 40)
		return 2.042;
	if (df < 60)
		return 2.021;
	if (df < 120)
		return 2.000;
	if (df < 1000)
		return 1.980;
	return 1.960;
}

void stats_describe(const double *x, size_t n, struct stats_desc *d)
{
	double s = 0, ss = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->n = n;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		s += x[i];
	d->mean = s / (double)n;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (x[i] - d->mean) * (x[i] - d->mean);
	d->stddev = sqrt(ss / (double)(n - 1));
	d->ci95 = stats_t95((unsigned int)(n - 1)) * d->stddev /
		  sqrt((double)n);
	d->has_ci = true;
}

/*
 * The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (modified Lentz), used for Student's t distribution.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d, h, num;
	int m;

	d = 1 - (a + b) * x / (a + 1);
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double dm = m;

		num = dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		num = -(a + dm) * (a + b + dm) * x /
		      ((a + 2 * dm) * (a + 2 * dm + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + num / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		if (fabs(d * c - 1) < 1e-14)
			break;
	}
	return h;
}

static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6, mid = 0;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
		if (hi - lo < 1e-10 * (1 + fabs(mid)))
			break;
	}
	return mid;
}

bool stats_welch(const struct stats_desc *a, const struct stats_desc *b,
		 double *p, double *df)
{
	double va, vb, se2, t;

	if (a->n < 2 || b->n < 2)
		return false;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0 || !isfinite(se2)) {
		*df = (double)(a->n + b->n - 2);
		*p = a->mean == b->mean ? 1 : 0;
		return true;
	}
	*df = se2 * se2 / (va * va / (double)(a->n - 1) +
			   vb * vb / (double)(b->n - 1));
	t = (b->mean - a->mean) / sqrt(se2);
	*p = 2 * stats_t_cdf(-fabs(t), *df);
	if (*p > 1)
		*p = 1;
	return true;
}

bool stats_ratio_ci(const struct stats_desc *a, const struct stats_desc *b,
		    double *ratio, double *lo, double *hi, bool *has_ci)
{
	double r, rel2, half, p, df;

	*has_ci = false;
	if (!a->n || !b->n || a->mean == 0)
		return false;
	r = b->mean / a->mean;
	*ratio = *lo = *hi = r;
	if (a->n < 2 || b->n < 2)
		return true;
	rel2 = a->stddev * a->stddev / ((double)a->n * a->mean * a->mean);
	if (b->mean != 0)
		rel2 += b->stddev * b->stddev /
			((double)b->n * b->mean * b->mean);
	stats_welch(a, b, &p, &df);
	if (b->mean != 0)
		half = stats_t_quantile(0.975, df) * fabs(r) * sqrt(rel2);
	else
		half = stats_t_quantile(0.975, df) * b->stddev /
		       sqrt((double)b->n) / fabs(a->mean);
	*lo = r - half;
	*hi = r + half;
	*has_ci = true;
	return true;
}

/* The relative variances of @a and @b as if each had @na, @nb repeats. */
static bool mde_at(const struct stats_desc *a, const struct stats_desc *b,
		   double na, double nb, double *mde)
{
	double cva, cvb, va, vb, se2, df;

	if (na < 2 || nb < 2 || a->mean == 0 || b->mean == 0)
		return false;
	cva = a->stddev / fabs(a->mean);
	cvb = b->stddev / fabs(b->mean);
	va = cva * cva / na;
	vb = cvb * cvb / nb;
	se2 = va + vb;
	if (!isfinite(se2))
		return false;
	if (se2 <= 0) {
		*mde = 0;
		return true;
	}
	df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	*mde = (stats_t_quantile(0.975, df) + stats_t_quantile(0.80, df)) *
	       sqrt(se2);
	return true;
}

bool stats_mde(const struct stats_desc *a, const struct stats_desc *b,
	       double *mde)
{
	return mde_at(a, b, (double)a->n, (double)b->n, mde);
}

unsigned int stats_repeats_needed(const struct stats_desc *a,
				  const struct stats_desc *b, double effect,
				  unsigned int limit)
{
	unsigned int lo = 2, hi = limit, mid;
	double m;

	/* the mde only falls as n grows: bisect for the first n it fits */
	if (a->n < 2 || b->n < 2 || limit < 2 || !mde_at(a, b, limit, limit, &m) || m > effect)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (mde_at(a, b, mid, mid, &m) && m <= effect)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* ---- blocked comparisons: pairs of one block (stats.h) ---- */

static double paired_mde(double sd, double n)
{
	double df = n - 1;

	return expm1((stats_t_quantile(0.975, df) +
		      stats_t_quantile(0.80, df)) * sd / sqrt(n));
}

bool stats_paired(const double *a, const double *b, size_t n,
		  struct stats_paired *out)
{
	double *d, half;
	struct stats_desc dd;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n < 2)
		return false;
	for (i = 0; i < n; i++)
		if (!(a[i] > 0) || !(b[i] > 0) || !isfinite(a[i]) ||
		    !isfinite(b[i]))
			return false;
	d = calloc(n, sizeof(*d));
	if (!d)
		return false;
	for (i = 0; i < n; i++)
		d[i] = log(b[i] / a[i]);
	stats_describe(d, n, &dd);
	free(d);
	out->n = n;
	out->df = (double)(n - 1);
	out->sd = dd.stddev;
	out->ratio = exp(dd.mean);
	half = stats_t_quantile(0.975, out->df) * dd.stddev / sqrt((double)n);
	out->lo = exp(dd.mean - half);
	out->hi = exp(dd.mean + half);
	if (dd.stddev > 0)
		out->p = 2 * stats_t_cdf(-fabs(dd.mean) /
					 (dd.stddev / sqrt((double)n)),
					 out->df);
	else
		out->p = dd.mean != 0 ? 0 : 1;
	if (out->p > 1)
		out->p = 1;
	out->mde = paired_mde(dd.stddev, (double)n);
	return true;
}

unsigned int stats_paired_repeats_needed(double sd, double effect,
					 unsigned int limit)
{
	unsigned int lo = 2, hi = limit, mid;

	/* as stats_repeats_needed(): the mde only falls as n grows */
	if (limit < 2 || !(sd >= 0) || paired_mde(sd, limit) > effect)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (paired_mde(sd, mid) <= effect)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
