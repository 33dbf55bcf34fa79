// SPDX-License-Identifier: GPL-2.0
/*
 * track: one guest's stream kept as samples, phases, counters and
 * faults, and the intervals between its samples (rates and ratios, with
 * counter resets, zero divisors and missing counters kept apart from
 * numbers). See track.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "track.h"

void track_init(struct track *t)
{
	memset(t, 0, sizeof(*t));
}

void track_free(struct track *t)
{
	free(t->pts);
	free(t->host);
	track_init(t);
}

static bool grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return true;
	if (n >= TRACK_MAX_POINTS)
		return false;
	ncap = *cap ? *cap * 2 : 256;
	p = realloc(*arr, ncap * size);
	if (!p)
		return false;
	*arr = p;
	*cap = ncap;
	return true;
}

static bool is_swap_dev(const struct track *t, const char *dev)
{
	unsigned int i;

	if (!t->ndevs)
		return true;
	for (i = 0; i < t->ndevs; i++)
		if (!strcmp(t->devs[i], dev))
			return true;
	return false;
}

static void raw_point(const struct track *t, const struct stream_line *l,
		      struct track_point *p)
{
	static const char *const names[] = {
		[TF_PSWPOUT] = "pswpout",
		[TF_PSWPIN] = "pswpin",
		[TF_NRSWPOUT] = "nrswpout",
		[TF_NRSWPIN] = "nrswpin",
		[TF_MAJFLT] = "pgmajfault",
	};
	unsigned int i;
	bool dev = false;

	memset(p, 0, sizeof(*p));
	p->t_ns = l->t_ns;
	for (i = 0; i <= TF_MAJFLT; i++)
		if (stream_counter(l, names[i], &p->v[i]))
			p->present |= 1u << i;
	for (i = 0; i < l->nblk; i++) {
		const struct stream_blk *b = &l->blk[i];

		if (!is_swap_dev(t, b->dev))
			continue;
		dev = true;
		p->v[TF_DEV_RD_IOS] += b->rd_ios;
		p->v[TF_DEV_WR_IOS] += b->wr_ios;
		p->v[TF_DEV_RD_SECT] += b->rd_sectors;
		p->v[TF_DEV_WR_SECT] += b->wr_sectors;
	}
	if (dev)
		p->present |= (1u << TF_DEV_RD_IOS) | (1u << TF_DEV_WR_IOS) |
			      (1u << TF_DEV_RD_SECT) | (1u << TF_DEV_WR_SECT);
	if (l->has_cpu) {
		p->v[TF_CPU_USER] = l->cpu.user;
		p->v[TF_CPU_NICE] = l->cpu.nice;
		p->v[TF_CPU_SYS] = l->cpu.system;
		p->v[TF_CPU_IDLE] = l->cpu.idle;
		p->v[TF_CPU_IOWAIT] = l->cpu.iowait;
		p->v[TF_CPU_IRQ] = l->cpu.irq;
		p->v[TF_CPU_SOFTIRQ] = l->cpu.softirq;
		p->v[TF_CPU_STEAL] = l->cpu.steal;
		for (i = TF_CPU_USER; i <= TF_CPU_STEAL; i++)
			p->present |= 1u << i;
	}
	if (l->has_psi) {
		p->v[TF_PSI_SOME] = l->psi_some_us;
		p->present |= 1u << TF_PSI_SOME;
	}
	if (l->has_psi_full) {
		p->v[TF_PSI_FULL] = l->psi_full_us;
		p->present |= 1u << TF_PSI_FULL;
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

unsigned int track_hist_lo(unsigned int i)
{
	return i == 0 ? 1 : (1u << (i - 1)) + 1;
}

static unsigned int hist_bucket(double ppio)
{
	unsigned int i;

	for (i = TRACK_HIST_BUCKETS - 1; i > 0; i--)
		if (ppio >= track_hist_lo(i) - 0.5)
			return i;
	return 0;
}

static void hist_add(struct track *t, const struct track_point *a,
		     const struct track_point *b)
{
	unsigned int both = a->present & b->present;
	uint64_t pages, ios;

	if (both & (1u << TF_NRSWPOUT) && both & (1u << TF_PSWPOUT)) {
		pages = b->v[TF_PSWPOUT] - a->v[TF_PSWPOUT];
		ios = b->v[TF_NRSWPOUT] - a->v[TF_NRSWPOUT];
		t->hist_from_dev = false;
	} else if (both & (1u << TF_DEV_WR_IOS) &&
		   !(b->present & (1u << TF_NRSWPOUT))) {
		pages = (b->v[TF_DEV_WR_SECT] - a->v[TF_DEV_WR_SECT]) / 8;
		ios = b->v[TF_DEV_WR_IOS] - a->v[TF_DEV_WR_IOS];
		t->hist_from_dev = true;
	} else {
		return;
	}
	if (!ios)
		return;
	t->hist[hist_bucket((double)pages / (double)ios)] += ios;
}

static void feed_counters(struct track *t, const struct stream_line *l)
{
	unsigned int i, j;
	bool reset = false;

	for (i = 0; i < l->ncounters; i++) {
		const struct stream_counter *c = &l->counters[i];
		struct track_counter *k = NULL;

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

bool track_counter_value(const struct track *t, const char *name,
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

/* The sample's zram mm_stat summed over its devices: keep the peaks. */
static void feed_zram(struct track *t, const struct stream_line *l)
{
	uint64_t compr = 0, used = 0, huge = 0;
	bool has_huge = l->nzram > 0;
	unsigned int i;

	if (!l->nzram)
		return;
	for (i = 0; i < l->nzram; i++) {
		compr += l->zram[i].compr_data_size;
		used += l->zram[i].mem_used_total;
		huge += l->zram[i].huge_pages;
		has_huge = has_huge && l->zram[i].has_huge_pages;
	}
	t->has_zram_mm = true;
	if (compr > t->zram_compr_peak)
		t->zram_compr_peak = compr;
	if (used > t->zram_mem_used_peak)
		t->zram_mem_used_peak = used;
	if (has_huge) {
		t->has_zram_huge = true;
		if (huge > t->zram_huge_peak)
			t->zram_huge_peak = huge;
	}
}

static void feed_sample(struct track *t, const struct stream_line *l)
{
	struct track_point raw, cum;
	struct track_point *last;
	unsigned int f;
	bool reset = false;

	raw_point(t, l, &raw);
	if (t->npts && raw.t_ns < t->pts[t->npts - 1].t_ns) {
		t->dropped++;
		t->backwards++;
		return;
	}
	feed_counters(t, l);
	feed_zram(t, l);
	if (!grow((void **)&t->pts, &t->cap, t->npts, sizeof(*t->pts))) {
		t->dropped++;
		return;
	}
	cum = raw;
	if (t->npts) {
		last = &t->pts[t->npts - 1];
		for (f = 0; f < TF_NFIELDS; f++) {
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

static void feed_host(struct track *t, const struct stream_line *l)
{
	struct track_host_point raw, cum;
	const struct track_host_point *last;
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

static void feed_phase(struct track *t, const struct stream_line *l)
{
	struct track_phase *p;
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
	if (t->nphases >= TRACK_MAX_PHASES) {
		/* keep the newest: shift the oldest out */
		memmove(&t->phases[0], &t->phases[1],
			sizeof(t->phases[0]) * (TRACK_MAX_PHASES - 1));
		t->nphases--;
	}
	p = &t->phases[t->nphases++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", l->phase);
	p->start_ns = l->t_ns;
}

static void feed_fault(struct track *t, const struct stream_line *l)
{
	struct track_fault *f;

	if (t->nfaults >= TRACK_MAX_FAULTS) {
		memmove(&t->faults[0], &t->faults[1],
			sizeof(t->faults[0]) * (TRACK_MAX_FAULTS - 1));
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

static void feed_command(struct track *t, const struct stream_line *l)
{
	unsigned int i;

	if (l->cmd_reference || l->phase_state != STREAM_PHASE_END)
		return;
	t->cmd_runs++;
	t->cmd_ns += l->ns;
	if (l->has_cmd_cpu) {
		t->cmd_cpu_runs++;
		t->cmd_user_ns += l->cmd_user_ns;
		t->cmd_sys_ns += l->cmd_sys_ns;
	}
	for (i = 0; i < STREAM_CG_NSTATS; i++)
		if (l->cg_has & (1u << i)) {
			t->cg_runs[i]++;
			t->cg_stat[i] += l->cg_stat[i];
		}
}

bool track_value(const struct track *t, const char *name, uint64_t *v)
{
	unsigned int i;

	for (i = 0; i < t->nvals; i++)
		if (!strcmp(t->vals[i].name, name)) {
			if (v)
				*v = t->vals[i].value;
			return true;
		}
	return false;
}

/* A line's "values" into t->vals: a name seen again takes the new value. */
static void feed_values(struct track *t, const struct stream_line *l)
{
	unsigned int i, k;

	for (i = 0; i < l->nvalues; i++) {
		for (k = 0; k < t->nvals; k++)
			if (!strcmp(t->vals[k].name, l->values[i].name))
				break;
		if (k == t->nvals && t->nvals >= STREAM_MAX_VALUES)
			continue;
		if (k == t->nvals)
			t->nvals++;
		t->vals[k] = l->values[i];
	}
}

void track_feed(struct track *t, const struct stream_line *l)
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
		feed_values(t, l);
		break;
	case STREAM_T_FAULT:
		feed_fault(t, l);
		break;
	case STREAM_T_LOG:
		snprintf(t->last_log, sizeof(t->last_log), "%s", l->msg);
		break;
	case STREAM_T_COMMAND:
		feed_command(t, l);
		/* what the limited run measured; the reference is unlimited */
		if (l->phase_state == STREAM_PHASE_END && !l->cmd_reference)
			feed_values(t, l);
		break;
	case STREAM_T_NONE:
		break;
	}
}

const struct track_phase *track_phase_now(const struct track *t)
{
	unsigned int i;

	for (i = t->nphases; i > 0; i--)
		if (!t->phases[i - 1].ended)
			return &t->phases[i - 1];
	return t->nphases ? &t->phases[t->nphases - 1] : NULL;
}

static struct stats_val field_delta(const struct track_point *a,
				    const struct track_point *b,
				    enum track_field f)
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

static void cpu_between(const struct track_point *a,
			const struct track_point *b,
			struct track_interval *out)
{
	struct stats_val all = stats_ok(0), mib;
	unsigned int f;

	for (f = TF_CPU_USER; f <= TF_CPU_STEAL; f++)
		all = sum(all, secs(field_delta(a, b, f), 1e9));
	out->cpu_user = secs(field_delta(a, b, TF_CPU_USER), 1e9);
	out->cpu_sys = secs(field_delta(a, b, TF_CPU_SYS), 1e9);
	out->cpu_iowait = secs(field_delta(a, b, TF_CPU_IOWAIT), 1e9);
	out->cpu_softirq = secs(field_delta(a, b, TF_CPU_SOFTIRQ), 1e9);
	out->cpu_busy = all;
	if (all.state == STATS_OK) {
		struct stats_val idle = secs(field_delta(a, b, TF_CPU_IDLE),
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
static bool below_min(const struct track_point *p)
{
	return p->has_mem && p->free_kb < p->min_kb;
}

/* The "mem" gauges of @b; @a only for the interval's length. */
static void mem_between(const struct track_point *a,
			const struct track_point *b,
			struct track_interval *out)
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
static void mem_total(const struct track *t, struct track_interval *out)
{
	uint64_t low = UINT64_MAX, peak = 0, below_ns = 0;
	bool any = false;
	size_t i;

	for (i = 0; i < t->npts; i++) {
		const struct track_point *p = &t->pts[i];

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

void track_between(const struct track_point *a, const struct track_point *b,
		   const struct track_host_point *ha,
		   const struct track_host_point *hb,
		   struct track_interval *out)
{
	uint64_t dt = b->t_ns > a->t_ns ? b->t_ns - a->t_ns : 0;
	struct stats_val wr_sect;

	memset(out, 0, sizeof(*out));
	out->dt_s = (double)dt / 1e9;
	out->pswpout = field_delta(a, b, TF_PSWPOUT);
	out->nrswpout = field_delta(a, b, TF_NRSWPOUT);
	out->pswpin = field_delta(a, b, TF_PSWPIN);
	out->nrswpin = field_delta(a, b, TF_NRSWPIN);
	out->majflt = field_delta(a, b, TF_MAJFLT);
	out->dev_rd_ios = field_delta(a, b, TF_DEV_RD_IOS);
	out->dev_wr_ios = field_delta(a, b, TF_DEV_WR_IOS);
	out->dev_ios = sum(out->dev_rd_ios, out->dev_wr_ios);
	out->pswpout_s = per_s(out->pswpout, dt);
	out->nrswpout_s = per_s(out->nrswpout, dt);
	out->pswpin_s = per_s(out->pswpin, dt);
	out->nrswpin_s = per_s(out->nrswpin, dt);
	out->majflt_s = per_s(out->majflt, dt);
	out->dev_ios_s = per_s(out->dev_ios, dt);
	out->wr_ppio = stats_ratio(out->pswpout, out->nrswpout);
	out->rd_ppio = stats_ratio(out->pswpin, out->nrswpin);
	wr_sect = field_delta(a, b, TF_DEV_WR_SECT);
	if (wr_sect.state == STATS_OK)
		wr_sect.v /= 8;		/* 512-byte sectors per 4 KiB page */
	out->dev_wr_ppio = stats_ratio(wr_sect,
				       field_delta(a, b, TF_DEV_WR_IOS));
	out->swap_used_kb = b->swap_used_kb;
	out->swap_size_kb = b->swap_size_kb;
	out->swap_peak_kb = b->swap_used_kb;
	mem_between(a, b, out);
	cpu_between(a, b, out);
	out->psi_some = secs(field_delta(a, b, TF_PSI_SOME), 1e6);
	out->psi_full = secs(field_delta(a, b, TF_PSI_FULL), 1e6);
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

static void all_na(struct track_interval *out)
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
static long point_at(const struct track_point *pts, size_t n, uint64_t when)
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

size_t track_point_after(const struct track *t, uint64_t when)
{
	long i = point_at(t->pts, t->npts, when);

	if (i >= 0 && t->pts[i].t_ns == when)
		return (size_t)i;
	return (size_t)(i + 1);
}

long track_point_before(const struct track *t, uint64_t when)
{
	return point_at(t->pts, t->npts, when);
}

static long host_at(const struct track_host_point *h, size_t n,
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

void track_window(const struct track *t, uint64_t window_ns,
			struct track_interval *out)
{
	const struct track_point *b;
	const struct track_host_point *ha = NULL, *hb = NULL;
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
	track_between(&t->pts[ia], b, ha, hb, out);
}

void track_total(const struct track *t,
		       struct track_interval *out)
{
	struct track_point zero;
	struct track_host_point hzero;
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
	track_between(&zero, &t->pts[t->npts - 1], t->nhost ? &hzero : NULL,
		      t->nhost ? &t->host[t->nhost - 1] : NULL, out);
	for (i = 0; i < t->npts; i++)
		if (t->pts[i].swap_used_kb > out->swap_peak_kb)
			out->swap_peak_kb = t->pts[i].swap_used_kb;
	mem_total(t, out);
}

struct stats_val track_metric(const struct track_interval *iv,
			      enum track_metric m)
{
	switch (m) {
	case TRACK_M_WR_PPIO:
		return iv->wr_ppio;
	case TRACK_M_RD_PPIO:
		return iv->rd_ppio;
	case TRACK_M_DEV_WR_PPIO:
		return iv->dev_wr_ppio;
	case TRACK_M_PSWPOUT_S:
		return iv->pswpout_s;
	case TRACK_M_PSWPIN_S:
		return iv->pswpin_s;
	case TRACK_M_MAJFLT_S:
		return iv->majflt_s;
	case TRACK_M_CPU_SYS_PCT:
		return iv->cpu_sys_pct;
	case TRACK_M_PSI_SOME_PCT:
		return iv->psi_some_pct;
	}
	return stats_na();
}

void track_phase_interval(const struct track *t, unsigned int i,
				struct track_interval *out)
{
	const struct track_phase *p;
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
	track_between(&t->pts[a], &t->pts[b], NULL, NULL, out);
}

struct stats_val track_phase_evicted_ratio(const struct track_phase *p)
{
	if (!p->has_residency)
		return stats_missing();
	if (!p->asked)
		return stats_na();
	return stats_ok((double)p->evicted / (double)p->asked);
}

uint64_t track_span_ns(const struct track *t)
{
	if (t->npts < 2)
		return 0;
	return t->pts[t->npts - 1].t_ns - t->pts[0].t_ns;
}

size_t track_series(const struct track *t, enum track_metric m,
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
		struct track_interval iv;
		long a, b;

		if (from >= last)
			break;
		a = point_at(t->pts, t->npts, from);
		b = point_at(t->pts, t->npts, from + step_ns);
		if (a < 0 || b <= a)
			continue;
		track_between(&t->pts[a], &t->pts[b], NULL, NULL, &iv);
		out[i] = track_metric(&iv, m);
		have = i + 1;
	}
	return have;
}
