// SPDX-License-Identifier: GPL-2.0
/* What swapctl run checks and derives before a guest starts (fit.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include "domain.h"
#include "fit.h"
#include "ganesha.h"
#include "kbuild.h"
#include "plan.h"
#include "swapctl.h"
#include "util.h"
#include "waves.h"

bool fit_accel(struct guest_env *env, const struct swapctl_config *cfg)
{
	char *cpuinfo = util_read_file("/proc/cpuinfo", NULL);
	bool warn, kvm;

	kvm = domain_pick_accel(cfg->accel, cpuinfo, "/dev/kvm",
				env->accel_why, sizeof(env->accel_why),
				&warn);
	free(cpuinfo);
	if (warn)
		fprintf(stderr, "swapctl run: warning: %s (%s)\n",
			env->accel_why,
			cfg->source[0] ? cfg->source : "the default");
	return kvm;
}

/*
 * What run checks beyond the scenario, before anything starts: the work
 * dir (not inside the repository; quotable in ganesha.conf when an NFS
 * backend needs it); and the kernel command line (append + --append).
 */
static int fit_cmdline(struct guest_env *env, const struct scenario *scn,
		       const struct swapctl_config *cfg, const char *append,
		       char *err, size_t errlen)
{
	const char *from = cfg->source[0] ? cfg->source : "the default";
	char slub[SCN_SLUB_DEBUG_MAX], brd[PLAN_BRD_ARGS_MAX];
	const char *bad;

	if (config_check_workdir(cfg, err, errlen))
		return -1;
	bad = ganesha_bad_char(cfg->workdir);
	if (scn_has_nfs(scn) && bad) {
		snprintf(err, errlen,
			 "%.1024s: workdir %.1024s (from %.1024s) has a '%c', which ganesha.conf cannot quote: the nfsfile backend needs a work dir without '\"', '\\' or control bytes",
			 scn->file, cfg->workdir, from,
			 *bad >= ' ' ? *bad : '?');
		return -1;
	}
	/* a slab_error's caches: slub_debug=A,<cache>,... */
	scn_slub_debug(scn, slub, sizeof(slub));
	if (slub[0] && (strstr(cfg->append, "slub_debug") ||
			(append && strstr(append, "slub_debug")))) {
		snprintf(err, errlen,
			 "%.1024s: faults: a slab_error with \"caches\" sets the guest's slub_debug= (%s), and %s sets one too: leave it out there",
			 scn->file, slub,
			 append && strstr(append, "slub_debug") ? "--append" :
			 "append in swapctl.conf");
		return -1;
	}
	/* loglevel=5: warnings and worse reach the console log */
	/*
	 * no_timer_check: under TCG a guest starved of host CPU (four at
	 * once on two cores) failed the boot-time check that the timer
	 * interrupt ticks and panicked ("IO-APIC + timer doesn't work!",
	 * make check of 2026-12-07); the timer is QEMU's and works.
	 */
	/* page_owner=on: a debug kernel's Bad page report names the owner */
	scn_brd_args(scn, brd, sizeof(brd));	/* a brd backend */
	snprintf(env->cmdline, sizeof(env->cmdline),
		 "console=ttyS0 panic=-1 loglevel=5 no_timer_check%s%s%s%s%s%s%s%s%s",
		 env->debug ? " page_owner=on" : "",
		 slub[0] ? " " : "", slub, brd[0] ? " " : "", brd,
		 cfg->append[0] ? " " : "", cfg->append,
		 append && *append ? " " : "", append ? append : "");
	return 0;
}

int fit_guest(struct guest_env *env, const struct scenario *scn,
	      const struct swapctl_config *cfg, const char *append,
	      char *err, size_t errlen)
{
	env->cfg = cfg;
	env->scn = scn;
	env->memory_mb = scn->memory_mb ? scn->memory_mb :
		cfg->guest_memory_mb ? cfg->guest_memory_mb : 256;
	env->cpus = scn->cpus ? scn->cpus :
		cfg->guest_cpus ? cfg->guest_cpus : 1;
	if (scenario_check_fit(scn, env->memory_mb, err, errlen) ||
	    scenario_check_host(scn, env->memory_mb, env->cpus, cfg->source,
				err, errlen))
		return -1;
	return fit_cmdline(env, scn, cfg, append, err, errlen);
}

/* The host-side kernel-build tree of a kernel-build scenario. */
int fit_kbuild(struct scenario *scn, const struct swapctl_config *cfg,
	       const char *line, bool dry)
{
	char log[4200], err[4400], tarball[PATH_MAX];

	if (!scn->kbuild[0])
		return 0;
	snprintf(log, sizeof(log), "%s/logs/kbuild-%s.log", cfg->workdir,
		 scn->kbuild);
	/* the source of the run's line, as `swapctl build` extracted it */
	if (config_tarball(cfg, line, tarball, sizeof(tarball))) {
		fprintf(stderr, "swapctl run: %s: path too long\n",
			cfg->workdir);
		return EXIT_CONFIG;
	}
	if (kbuild_prepare(cfg->workdir, tarball, scn->kbuild, log, dry,
			   scn->kbuild_src, sizeof(scn->kbuild_src),
			   scn->kbuild_out, sizeof(scn->kbuild_out), err,
			   sizeof(err))) {
		fprintf(stderr, "swapctl run: %s: %s\n", scn->file, err);
		return EXIT_SETUP;
	}
	return 0;
}

/*
 * The plan of each slot: the same text but for the NFS port of its
 * server (nfs_port + slot), so one plan for all when there is no NFS.
 */
int fit_plans(const struct sched *s, char **plans)
{
	bool nfs = scn_has_nfs(s->scn);
	char err[8192];
	unsigned int i;

	for (i = 0; i < s->nslots; i++) {
		if (i && !nfs) {
			plans[i] = plans[0];
			continue;
		}
		plans[i] = plan_text(s->scn, s->env->memory_mb,
				     s->cfg->nfs_port + i);
		if (!plans[i])
			return EXIT_FAILURE_GENERIC;
		if (plan_check(s->scn->file, plans[i], err, sizeof(err))) {
			fprintf(stderr, "swapctl run: %s\n", err);
			return EXIT_CONFIG;
		}
	}
	return 0;
}

/*
 * The MiB a guest's swap images and NFS swap files take in the host's
 * RAM: all of them when the work dir is on a tmpfs, else none.
 */
static unsigned int images_in_ram_mb(const struct sched *s)
{
	struct statfs sf;
	unsigned int mb = 0;
	int i;

	if (statfs(s->cfg->workdir, &sf) || sf.f_type != TMPFS_MAGIC)
		return 0;
	for (i = 0; i < s->scn->nswap; i++) {
		const struct scn_swap *sw = &s->scn->swap[i];

		if (sw->type == SWAP_EXT4FILE)
			mb += sw->disk_mb;
		else if (sw->dev[0] || sw->type == SWAP_NFSFILE)
			mb += sw->size_mb;
	}
	return mb;
}

/* Whether the run uses this machine's own libvirt (no hosts, or local). */
static bool local_host(const struct swapctl_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nhosts; i++)
		if (!strcmp(cfg->hosts[i], "local"))
			return true;
	return !cfg->nhosts;
}

/*
 * --parallel N (or parallel in swapctl.conf): the waves of this run,
 * and whether they fit the host: refused (EXIT_USAGE) when the widest
 * wave's guests need more memory than MemAvailable, a warning when their
 * vCPUs outnumber the host's CPUs. 0 or an exit code.
 */
int fit_parallel(struct sched *s, int parallel, unsigned int *par)
{
	const struct swapctl_config *cfg = s->cfg;
	unsigned int total, guest_mb, ram;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char what[4200], why[256];

	*par = parallel ? (unsigned int)parallel : cfg->parallel;
	if (parallel)
		snprintf(what, sizeof(what), "--parallel %u", *par);
	else
		snprintf(what, sizeof(what), "parallel = %u (%s)", *par,
			 cfg->source);
	total = s->repeat * (unsigned int)s->scn->nkernels;
	s->width = waves_width((unsigned int)s->scn->nkernels, total,
			       *par);
	/* every host may run that many: a slot (and NFS port) each */
	s->nslots = s->width * (cfg->nhosts ? cfg->nhosts : 1);
	if (s->nslots > WAVES_MAX_PARALLEL)
		s->nslots = WAVES_MAX_PARALLEL;
	if (scn_has_nfs(s->scn) && cfg->nfs_port + s->nslots - 1 > 65535) {
		fprintf(stderr, "swapctl run: %s: nfs_port %u: the NFS servers need ports %u to %u, past 65535\n",
			what, cfg->nfs_port, cfg->nfs_port,
			cfg->nfs_port + s->nslots - 1);
		return EXIT_USAGE;
	}
	if (s->width <= 1 || !local_host(cfg))
		return 0;
	ram = images_in_ram_mb(s);
	guest_mb = waves_guest_host_mb(s->env->memory_mb,
				       scn_has_nfs(s->scn)) + ram;
	if (waves_check_memory(s->width, guest_mb, waves_mem_available_mb(),
			       why, sizeof(why))) {
		fprintf(stderr, "swapctl run: %s: %s (MemAvailable; a guest is %u MiB of RAM + %u MiB for QEMU%s%s)\n",
			what, why, s->env->memory_mb, WAVES_QEMU_OVERHEAD_MB,
			scn_has_nfs(s->scn) ? " and its NFS server" : "",
			ram ? " + its images on the tmpfs work dir" : "");
		return EXIT_USAGE;
	}
	if (waves_check_cpus(s->width, s->env->cpus,
			     ncpu > 0 ? (unsigned int)ncpu : 0, why,
			     sizeof(why)))
		fprintf(stderr, "swapctl run: warning: %s: %s: the guests share the CPUs and each runs slower\n",
			what, why);
	return 0;
}

/*
 * --icount: TCG only, and one vCPU (-icount runs every vCPU in one TCG
 * thread in turn: with 2 the kernel did not get past bringing up CPU 1
 * in a minute, with 1 it booted in 2 s). A command group that asks for
 * more CPUs (cpuset.cpus) gets the guest's one, said once per group, so
 * that kernel-build's memcg and global halves both run under icount.
 * The guest's own watchdog gets the plan's longest timeout_s: with
 * sleep=off its clock jumps over every idle wait, so a guest waiting
 * for virtio-blk I/O saw 240 s pass in 42 s of host time (bdev-swap);
 * the scenario's timeout_s stays the host's limit, in host time
 * (prepare() set it). Before the plans are written; 0 or EXIT_USAGE.
 */
int fit_icount(struct guest_env *env, struct scenario *scn, int icount)
{
	struct scn_group *g;
	int i;

	if (icount >= 0 && env->kvm) {
		fprintf(stderr, "swapctl run: option '--icount': the guests run under KVM here (%s); -icount is TCG's (accel = tcg in swapctl.conf)\n",
			env->accel_why);
		return EXIT_USAGE;
	}
	env->icount = icount >= 0;
	env->icount_shift = icount >= 0 ? (unsigned int)icount : 0;
	if (!env->icount)
		return 0;
	if (env->cpus > 1)
		guest_msg("--icount: the guests get 1 vCPU instead of %u (icount runs the vCPUs in turn)",
			  env->cpus);
	env->cpus = 1;
	scn->timeout_s = PLAN_TIMEOUT_S_MAX;
	for (i = 0; i < scn->ngroups; i++) {
		g = &scn->group[i];
		if (g->cpus <= 1)
			continue;
		guest_msg("--icount: group %s gets the guest's 1 CPU instead of cpus %u",
			  g->name, g->cpus);
		g->cpus = 1;
	}
	return 0;
}

/*
 * An NFS backend's server and a command workload's 9p share of the root
 * are this machine's: a guest on another machine reaches neither, so a
 * host of `hosts` that is not this machine is refused for them (one
 * line naming the scenario and the host). 0 or EXIT_CONFIG.
 */
int fit_remote_hosts(const struct scenario *scn,
		     const struct swapctl_config *cfg)
{
	const char *what = scn_has_nfs(scn) ?
		"its nfsfile backend's NFS server (ganesha)" :
		"its command workload's share of the root (9p)";
	unsigned int i;

	if (!scn_has_nfs(scn) && !scn->command)
		return 0;
	for (i = 0; i < cfg->nhosts; i++) {
		if (waves_uri_loopback(cfg->hosts[i]))
			continue;
		fprintf(stderr, "swapctl run: %s: host %s (hosts in %s): %s runs on this machine, which a guest on another machine cannot reach; run it on this machine's hosts only\n",
			scn->file, cfg->hosts[i],
			cfg->source[0] ? cfg->source : "swapctl.conf", what);
		return EXIT_CONFIG;
	}
	return 0;
}
