/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcidb: a run's results as KCIDB I/O JSON, schema v5.3 (kernelci's
 * kcidb-io, kcidb_io/schema/v05_03.py, the latest v5 minor there):
 * one checkout and one build per kernel, one test per guest and
 * metric. The mapping, field by field, is in swapctl(1) REPORT.
 */
#ifndef SWAPCTL_KCIDB_H
#define SWAPCTL_KCIDB_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "results.h"

#define KCIDB_MAJOR	5
#define KCIDB_MINOR	3
/* the CI system's name, the prefix of every id: ^[a-z0-9_]+$ */
#define KCIDB_ORIGIN	"swapctl"

/* What the run directory says of a kernel (res->kernels[k]). */
struct kcidb_kernel {
	const char *variant;	/* the variant booted; NULL: unknown */
	const char *release;	/* its guests' uname -r; NULL: unknown */
	int built;		/* 1: its bzImage was there, 0: not, -1: ? */
	bool debug;		/* a debug build (guest/debug.config) */
};

/* A guest (res->g[i]). */
struct kcidb_guest {
	const char *name;	/* "baseline-1" */
	const char *status;	/* pass, corrupt, error, oom, no data, ... */
};

struct kcidb_run {
	const struct results *res;
	const char *run;		/* the run id */
	const char *scenario;		/* NULL or "": "unnamed" */
	const struct kcidb_kernel *kernels;	/* per res->kernels; or NULL */
	const struct kcidb_guest *guests;	/* per res->g; or NULL */
	bool expects_oom;		/* the scenario has an oom fault */
	/* the guests' environment: NULL, 0: unknown */
	const char *accel;
	unsigned int memory_mb, cpus;
};

/* The statuses of the schema ("#/$defs/status"), those swapctl uses. */
enum kcidb_status { KCIDB_PASS, KCIDB_FAIL, KCIDB_ERROR, KCIDB_SKIP };

const char *kcidb_status_name(enum kcidb_status s);
/*
 * A test's status: ERROR when the guest did not finish as the scenario
 * expects (no data, no result, error, an unexpected OOM kill, or no OOM
 * kill where one was expected), FAIL when it found corrupt pages, SKIP
 * when the metric has no value, FAIL when the kernel's verdict against
 * the reference is worse, else PASS.
 */
enum kcidb_status kcidb_test_status(const char *guest_status,
				    bool expects_oom, bool has_value,
				    enum verdict v);
/*
 * A scenario name as one segment of a test path (the schema's
 * "^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$"): other characters ('.')
 * become '_', an empty name "unnamed".
 */
void kcidb_path_segment(char *out, size_t len, const char *name);
/*
 * The KCIDB object of @k: {"version", "checkouts", "builds", "tests"}.
 * NULL when out of memory.
 */
json_t *kcidb_json(const struct kcidb_run *k);

#endif
