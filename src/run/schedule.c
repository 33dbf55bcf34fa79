// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl run's scheduler (schedule.h): the batches of whole repeats
 * over the hosts, the waves of a batch, the re-runs of a lost host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "swapctl.h"
#include "util.h"

/* A repeat: not started, running on a host, done, or to be re-run. */
enum { REP_TODO, REP_RUNNING, REP_DONE, REP_QUEUED };

/*
 * Guest @i of the serial order (A1 B1 A2 B2 ...): its kernel and repeat,
 * its bzImage on host @h.
 */
static void name_guest(const struct sched *s, unsigned int i, struct guest *g,
		       const struct sched_host *h)
{
	unsigned int k = i % (unsigned int)s->scn->nkernels;

	snprintf(g->kernel, sizeof(g->kernel), "%s", s->scn->kernels[k]);
	snprintf(g->kernel_path, sizeof(g->kernel_path), "%s",
		 h->h.kernel[k]);
	g->rep = i / (unsigned int)s->scn->nkernels + 1;
}

struct wave_job {
	const struct guest_env *env;
	struct guest_slot *slot;
	struct guest *g;
};

static void *wave_thread(void *arg)
{
	struct wave_job *j = arg;

	guest_run(j->env, j->slot, j->g);
	return NULL;
}

/*
 * The guests @gs[0 .. @n - 1] at once on host @h, the i-th in its slot
 * i, each in a thread of its own (one: in this thread). True when a
 * guest's setup failed or the host was lost (the batch stops).
 */
static bool run_wave(struct sched *s, struct sched_host *h, struct guest **gs,
		     unsigned int n)
{
	struct wave_job job[WAVES_MAX_PARALLEL];
	pthread_t t[WAVES_MAX_PARALLEL];
	bool threaded[WAVES_MAX_PARALLEL] = { false };
	bool failed = false;
	unsigned int i;

	for (i = 0; i < n; i++)
		job[i] = (struct wave_job){ s->env, &s->slot[h->slot0 + i],
					    gs[i] };
	for (i = 0; n > 1 && i < n; i++)
		threaded[i] = !pthread_create(&t[i], NULL, wave_thread,
					      &job[i]);
	for (i = 0; i < n; i++)
		if (!threaded[i])
			guest_run(job[i].env, job[i].slot, job[i].g);
	for (i = 0; i < n; i++) {
		if (threaded[i])
			pthread_join(t[i], NULL);
		failed |= gs[i]->setup_failed || gs[i]->host_lost;
	}
	return failed;
}

/* summary.json's waves: the names of each wave's guests as it started */
static void log_wave(struct sched *s, struct guest **gs, unsigned int n)
{
	json_t *w = json_array();
	char name[SCN_KERNEL_MAX + 16];
	unsigned int i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s-%u", gs[i]->kernel,
			 gs[i]->rep);
		json_array_append_new(w, json_string(name));
	}
	pthread_mutex_lock(&s->mu);
	json_array_append_new(s->wave_log, w);
	pthread_mutex_unlock(&s->mu);
}

/*
 * Host @h's batch of whole repeats, in waves of at most its capacity
 * (waves_size() over the batch's guests, so A and B of a repeat start
 * together). Stops at a setup failure or when the host is lost.
 */
static void run_batch(struct sched *s, struct sched_host *h)
{
	unsigned int nk = (unsigned int)s->scn->nkernels;
	unsigned int n = h->nreps * nk, first, w, i, gi;
	struct guest *gs[WAVES_MAX_PARALLEL];

	for (first = 0; first < n && !guest_interrupted; first += w) {
		w = waves_size(nk, n, s->hw[h->idx].capacity, first);
		for (i = 0; i < w; i++) {
			gi = h->reps[(first + i) / nk] * nk + (first + i) % nk;
			gs[i] = &s->g[gi];
			name_guest(s, gi, gs[i], h);
		}
		log_wave(s, gs, w);
		h->guests += w;
		if (run_wave(s, h, gs, w))
			break;
	}
}

static void *host_thread(void *arg)
{
	struct sched_host *h = arg;

	run_batch(h->s, h);
	pthread_mutex_lock(&h->s->mu);
	h->finished = true;
	pthread_cond_signal(&h->s->cv);
	pthread_mutex_unlock(&h->s->mu);
	return NULL;
}

/*
 * Give free hosts their next batch, the most capacity first: repeats to
 * re-run before new ones, and no new ones once the run is to @stop.
 */
static void dispatch(struct sched *s, unsigned int *next, bool stop)
{
	unsigned int nk = (unsigned int)s->scn->nkernels, max, i;
	struct sched_host *h;
	int hi;

	while (!guest_interrupted &&
	       (hi = waves_pick_host(s->hw, s->nhosts)) >= 0) {
		h = &s->host[hi];
		max = waves_batch(nk, s->hw[hi].capacity, SCHED_MAX_REPEAT);
		h->nreps = 0;
		while (h->nreps < max && s->nqueue) {
			h->reps[h->nreps++] = s->queue[0];
			memmove(s->queue, s->queue + 1,
				--s->nqueue * sizeof(s->queue[0]));
		}
		while (!stop && h->nreps < max && *next < s->repeat)
			h->reps[h->nreps++] = (*next)++;
		if (!h->nreps)
			return;
		for (i = 0; i < h->nreps; i++) {
			s->rep_state[h->reps[i]] = REP_RUNNING;
			if ((h->reps[i] + 1) * nk > (unsigned int)s->ng)
				s->ng = (int)((h->reps[i] + 1) * nk);
		}
		s->hw[hi].busy = true;
		h->finished = false;
		if (pthread_create(&h->t, NULL, host_thread, h)) {
			run_batch(s, h);
			h->finished = true;
		}
	}
}

/* Wait for a host's batch to end; NULL when no host is busy. */
static struct sched_host *wait_host(struct sched *s)
{
	struct sched_host *h = NULL;
	unsigned int i;
	bool busy = false;

	for (i = 0; i < s->nhosts; i++)
		busy |= s->hw[i].busy;
	if (!busy)
		return NULL;
	pthread_mutex_lock(&s->mu);
	while (!h) {
		for (i = 0; i < s->nhosts && !h; i++)
			if (s->hw[i].busy && s->host[i].finished)
				h = &s->host[i];
		if (!h)
			pthread_cond_wait(&s->cv, &s->mu);
	}
	h->finished = false;
	pthread_mutex_unlock(&s->mu);
	pthread_join(h->t, NULL);
	s->hw[h->idx].busy = false;
	return h;
}

/* Repeat @rep again on another host: its guests start afresh. */
static void requeue(struct sched *s, struct sched_host *h, unsigned int rep)
{
	unsigned int nk = (unsigned int)s->scn->nkernels, k;

	for (k = 0; k < nk; k++) {
		struct guest *g = &s->g[rep * nk + k];

		guest_free(g);
		memset(g, 0, sizeof(*g));
		snprintf(g->rerun_why, sizeof(g->rerun_why),
			 "re-run: host %s lost", h->h.uri);
	}
	s->rep_state[rep] = REP_QUEUED;
	s->queue[s->nqueue++] = rep;
}

/* Whether repeat @rep ran to its end on a host that stayed up. */
static bool rep_ran(const struct sched *s, unsigned int rep)
{
	unsigned int nk = (unsigned int)s->scn->nkernels, k;

	for (k = 0; k < nk; k++) {
		const struct guest *g = &s->g[rep * nk + k];

		if (!g->kernel[0] || g->host_lost)
			return false;
	}
	return true;
}

/*
 * Host @h's batch ended: a lost host's unfinished repeats go back to the
 * queue, whole (pairs stay on one host). True when a guest's setup
 * failed (the run stops starting repeats).
 */
static bool collect(struct sched *s, struct sched_host *h)
{
	unsigned int nk = (unsigned int)s->scn->nkernels, i, k, rep;
	bool failed = false, lost = false;

	for (i = 0; i < h->nreps; i++)
		for (k = 0; k < nk; k++) {
			const struct guest *g = &s->g[h->reps[i] * nk + k];

			if (g->host_lost && !lost) {
				lost = true;
				snprintf(h->why, sizeof(h->why), "%s", g->why);
			}
			failed |= g->setup_failed && !g->host_lost;
		}
	s->hw[h->idx].lost |= lost;
	for (i = 0; i < h->nreps; i++) {
		rep = h->reps[i];
		if (lost && !guest_interrupted && !rep_ran(s, rep)) {
			guest_msg("host %s lost: repeat %u re-runs on another host",
				  h->h.uri, rep + 1);
			requeue(s, h, rep);
		} else {
			s->rep_state[rep] = REP_DONE;
		}
	}
	return failed;
}

/* Repeats done from the first on, without a gap. */
static unsigned int done_prefix(const struct sched *s)
{
	unsigned int n = 0;

	while (n < s->repeat && s->rep_state[n] == REP_DONE)
		n++;
	return n;
}

/* Repeats no host was left to re-run: their guests fail, named. */
static void orphans(struct sched *s)
{
	unsigned int nk = (unsigned int)s->scn->nkernels, i, k, gi;

	for (i = 0; i < s->nqueue; i++)
		for (k = 0; k < nk; k++) {
			struct guest *g;

			gi = s->queue[i] * nk + k;
			g = &s->g[gi];
			name_guest(s, gi, g, &s->host[0]);
			g->setup_failed = true;
			g->exit_class = EXIT_SETUP;
			snprintf(g->why, sizeof(g->why),
				 "no host left to re-run it (%.*s)",
				 (int)sizeof(g->why) - 40, g->rerun_why);
		}
}

/*
 * Batch by batch over the hosts (one host: wave after wave, A1 B1 A2 B2
 * with --parallel 1). After a batch, which ends on whole repeats, is
 * where --repeat auto may stop: its check reads only the repeats done
 * without a gap, never a guest that still runs.
 */
void sched_run(struct sched *s)
{
	unsigned int next = 0, done = 0, nk = (unsigned int)s->scn->nkernels;
	struct sched_host *h;
	bool stop = false;
	double t0 = util_now();
	int ng;

	for (;;) {
		dispatch(s, &next, stop || guest_interrupted);
		h = wait_host(s);
		if (!h)
			break;
		stop |= collect(s, h);
		if (guest_interrupted || stop)
			continue;
		if (done_prefix(s) == done)
			continue;
		done = done_prefix(s);
		ng = s->ng;
		s->ng = (int)(done * nk);
		stop = s->enough && s->enough(s, done);
		s->ng = ng;
	}
	orphans(s);
	if (s->enough) {
		done = done_prefix(s);
		s->repeat = done ? done : 1;
	}
	s->wall_s = util_now() - t0;
}

void sched_init(struct sched *s)
{
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
}

int sched_alloc(struct sched *s)
{
	s->g = calloc(s->repeat * s->scn->nkernels, sizeof(*s->g));
	s->wave_log = json_array();
	return s->g && s->wave_log ? 0 : -1;
}

void sched_free(struct sched *s)
{
	int k;

	for (k = 0; s->g && k < s->ng; k++)
		guest_free(&s->g[k]);
	free(s->g);
	s->g = NULL;
	json_decref(s->wave_log);
	s->wave_log = NULL;
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
}
