/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's side of a scenario's faults (swapctl-scenario(5) FAULTS):
 * nfs_stall and nfs_restart act on the run's ganesha.nfsd. The run loop
 * feeds every valid stream line (phase starts and samples are the
 * triggers) and calls the tick; each fault's start and end becomes a
 * {"type":"fault"} line in samples.jsonl. The guest injects its own
 * faults and reports them on its stream.
 */
#ifndef SWAPCTL_FAULTS_H
#define SWAPCTL_FAULTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario.h"
#include "stream.h"

struct ganesha;

/* What a fault does to the server; the defaults act on a struct ganesha. */
struct faults_ops {
	int (*pause)(void *ctx);
	int (*resume)(void *ctx);
	int (*kill)(void *ctx);
	int (*restart)(void *ctx, char *err, size_t errlen);
};

enum hfault_state { HF_WAIT, HF_ACTIVE, HF_DONE };

struct hfault {
	const struct scn_fault *f;
	int index;			/* in the scenario's faults */
	enum hfault_state state;
	double t_start;
};

struct faults {
	struct hfault h[SCN_MAX_FAULTS];
	int n;
	const struct faults_ops *ops;
	void *ctx;
	FILE *out;			/* samples.jsonl, may be NULL */
	bool started;			/* the first phase started */
	double t0;
	bool have_ios0;
	uint64_t ios0, ios;		/* nrswpin + nrswpout */
	int64_t phase;			/* the last phase started, -1 */
	int nphase_starts;
	int events;			/* fault lines written */
	int failures;			/* actions that failed */
	char last_error[256];
};

/* Set up for one guest; @ops NULL: act on the ganesha @ctx. */
void faults_init(struct faults *fs, const struct scenario *s,
		 const struct faults_ops *ops, void *ctx, FILE *out);

/* Whether the scenario has any host fault. */
bool faults_any(const struct faults *fs);

/* A valid line of the guest's stream, received at host time @now. */
void faults_line(struct faults *fs, const struct stream_line *l, double now);

/* Called every loop turn: time triggers and fault ends. */
void faults_tick(struct faults *fs, double now);

/* The guest is gone: end what is still active (resume, restart). */
void faults_finish(struct faults *fs, double now);

#endif
