/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostrec: what on the host can contaminate the guests' figures, read
 * before and after a run and kept in the run directory (host.json): host
 * KSM (it merges the guests' pages behind their back), host swap and
 * zswap (the host may swap the guests' RAM out), the host's THP setting,
 * its load average against its CPUs (TCG guests are CPU-bound), and the
 * CPU frequency governor when the host has one. One line says which of
 * them can distort the comparison. Only read: nothing here writes to the
 * host's /proc or /sys.
 */
#ifndef SWAPCTL_HOSTREC_H
#define SWAPCTL_HOSTREC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* One reading; a number of -1 (a string "") was not readable. */
struct hostrec {
	int ksm_run;			/* /sys/kernel/mm/ksm/run */
	long long ksm_pages_sharing;	/* /sys/kernel/mm/ksm/pages_sharing */
	int zswap_enabled;		/* /sys/module/zswap/parameters/enabled */
	int swap_areas;			/* entries of /proc/swaps */
	long long swap_total_kb, swap_free_kb;	/* /proc/meminfo */
	char thp[16];			/* transparent_hugepage/enabled: [word] */
	double load1, load5;		/* /proc/loadavg */
	int ncpus;			/* /sys/devices/system/cpu/online */
	char governor[32];		/* cpu0's cpufreq scaling_governor */
};

/*
 * Read the host's state from the files under @root ("" for the host
 * itself, a fixture directory in the tests). Never fails: what cannot be
 * read (or is malformed) stays -1 or "".
 */
void hostrec_read(struct hostrec *h, const char *root);

/*
 * The one line of what can distort the comparison, from the readings
 * before and after the run (@after may be NULL): the load average above
 * the host's CPUs (after the run: above them plus @own_cpus, the run's
 * own vCPUs still in the 1-minute average), host swap in use, KSM
 * running. Returns the number of problems named (0: @buf is "").
 */
int hostrec_warning(const struct hostrec *before, const struct hostrec *after,
		    int own_cpus, char *buf, size_t len);

/* {"before":{..},"after":{..}|null,"warning":".."|null} */
json_t *hostrec_json(const struct hostrec *before,
		     const struct hostrec *after, const char *warning);

/*
 * For swapctl run: read the host into @before and write
 * <@dir>/host.json with it (errors: one line on stderr, the run goes on).
 */
void hostrec_run_start(const char *dir, struct hostrec *before);
/*
 * Read the host again, write host.json with both readings and the
 * warning, and print the warning as one line on stderr, if any.
 */
void hostrec_run_end(const char *dir, const struct hostrec *before,
		     int own_cpus);

/*
 * The "warning" of <@dir>/host.json into @buf ("" when the file, or
 * the warning, is not there); for report. Returns 1 if there is one.
 */
int hostrec_load_warning(const char *dir, char *buf, size_t len);

#endif
