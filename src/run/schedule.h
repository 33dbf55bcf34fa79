/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler of swapctl run: every repeat's guests over the hosts of
 * the run (hosts.c connects them), in waves of a host's capacity
 * (waves.h), each host's batch of whole repeats in a thread of its own
 * and each guest of a wave in one too. A lost host's unfinished repeats
 * run again on another; --repeat auto may stop after any batch.
 */
#ifndef SWAPCTL_SCHEDULE_H
#define SWAPCTL_SCHEDULE_H

#include <pthread.h>
#include <stdbool.h>

#include <jansson.h>

#include "config.h"
#include "guest.h"
#include "scenario.h"
#include "waves.h"

#define SCHED_MAX_REPEAT	100	/* --repeat's largest */

struct sched;

/* A host of the run and the batch of whole repeats it runs. */
struct sched_host {
	struct guest_host h;
	struct sched *s;
	unsigned int idx;	/* in s->host[] and s->hw[] */
	unsigned int slot0;	/* its slots s->slot[slot0 .. + capacity) */
	unsigned int reps[SCHED_MAX_REPEAT], nreps;	/* its batch, 0-based */
	pthread_t t;
	bool finished;		/* its batch thread ended, not joined yet */
	unsigned int guests;	/* guests it ran */
	char why[600];		/* why it is not used, or was lost */
};

struct sched {
	/* what the run gives it (sched_init() and the caller) */
	const struct swapctl_config *cfg;
	const struct scenario *scn;
	const struct guest_env *env;
	const char *id;		/* the run's, for volume names */
	const char *uri;	/* the local driver's */
	const char (*kernel_path)[4096];	/* per kernel of scn */
	char *const *plans;	/* per slot: the plan naming its NFS port */
	unsigned int width;	/* the most a wave of this run holds */
	unsigned int repeat;	/* repeats per kernel (after: those run) */
	/*
	 * --repeat auto: after a batch, with @done repeats done from the
	 * first without a gap (s->ng is done * nkernels meanwhile): stop?
	 * NULL: run every repeat. @arg is the caller's, for it.
	 */
	bool (*enough)(struct sched *s, unsigned int done);
	void *arg;
	/* the hosts (`hosts`; one, the local driver, by default): hosts.c */
	struct guest_slot slot[WAVES_MAX_PARALLEL];
	unsigned int nslots;	/* slots (and plans) over every host */
	struct sched_host host[CONFIG_HOSTS_MAX];
	struct waves_host hw[CONFIG_HOSTS_MAX];
	unsigned int nhosts;
	/* the schedule */
	pthread_mutex_t mu;	/* host[].finished, between the threads */
	pthread_cond_t cv;
	unsigned char rep_state[SCHED_MAX_REPEAT];	/* SCHED_REP_* */
	unsigned int queue[SCHED_MAX_REPEAT], nqueue;	/* repeats to re-run */
	json_t *wave_log;	/* the waves as they started */
	struct guest *g;	/* repeat * nkernels, A1 B1 A2 B2 ... */
	int ng;			/* those started */
	double wall_s;		/* first boot to last guest's end */
};

void sched_init(struct sched *s);
/* The guests and the wave log of s->repeat repeats; -1 without memory. */
int sched_alloc(struct sched *s);
void sched_free(struct sched *s);
/*
 * Run every repeat over the hosts (hosts_open() done), batch by batch:
 * s->g[0 .. s->ng) are the guests run, s->wall_s the time it took.
 */
void sched_run(struct sched *s);

/* hosts.c */
/*
 * Every host of `hosts` (one: the local driver) connected, sized and
 * given its slots; 0, or an exit code when no host can run a guest.
 */
int hosts_open(struct sched *s);
/* Close the slots and hosts, delete a remote host's kernel volumes. */
void hosts_close(struct sched *s);

#endif
