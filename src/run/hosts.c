// SPDX-License-Identifier: GPL-2.0
/*
 * The libvirt hosts of swapctl run (schedule.h): each connected and sized
 * (how many guests fit it), a remote one given the kernels as volumes,
 * and the slots of the guests that run at once on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedule.h"
#include "swapctl.h"
#include "util.h"

/*
 * A guest of a killed swapctl was destroyed: its run is over, so mark it
 * done for `swapctl top` (the socket is runs/<id>/<guest>/agent.sock).
 */
static void leftover(const char *sock, void *arg)
{
	char dir[4096], *p, c;

	(void)arg;
	snprintf(dir, sizeof(dir), "%s", sock);
	p = strrchr(dir, '/');
	if (p)
		*p = '\0';
	p = strrchr(dir, '/');
	if (!p || strcmp(sock + strlen(sock) - 11, "/agent.sock"))
		return;
	strcpy(p, "/state");
	if (util_exists(dir))
		util_write_file_atomic(dir, "done\n", 5, 0644);
	/* and its big files: the NFS export and the disk images */
	snprintf(dir, sizeof(dir), "%s", sock);
	p = strrchr(dir, '/');
	snprintf(p, dir + sizeof(dir) - p, "/nfs/export");
	util_rm_rf(dir);
	for (c = 'a'; c < 'a' + DOMAIN_MAX_DISKS; c++) {
		snprintf(p, dir + sizeof(dir) - p, "/disk-vd%c.img", c);
		unlink(dir);
	}
}

/* The guest host MiB a host needs per guest (waves.h). */
static unsigned int guest_host_mb(const struct sched *s)
{
	return waves_guest_host_mb(s->env->memory_mb, scn_has_nfs(s->scn));
}

/*
 * A remote host gets each kernel's bzImage as a volume, once per run;
 * the local driver boots them where they are. -1 with @err set.
 */
static int host_kernels(struct sched *s, struct sched_host *h, char *err,
			size_t errlen)
{
	char name[256];
	int k;

	for (k = 0; k < s->scn->nkernels; k++) {
		if (!h->h.remote) {
			/* memcpy: gcc -O1 with ASan saw snprintf overlap @s */
			size_t n = strnlen(s->kernel_path[k],
					   sizeof(h->h.kernel[k]) - 1);

			memcpy(h->h.kernel[k], s->kernel_path[k], n);
			h->h.kernel[k][n] = '\0';
			continue;
		}
		snprintf(name, sizeof(name), DOMAIN_NAME_PREFIX "%s-%s.bzImage",
			 s->id, s->scn->kernels[k]);
		if (vm_vol_upload(h->h.vm, s->kernel_path[k], name,
				  h->h.kernel[k], sizeof(h->h.kernel[k]), err,
				  errlen))
			return -1;
	}
	return 0;
}

/*
 * Connect to host @i and size it: how many guests fit its free memory
 * (this machine's MemAvailable for the local driver, virNodeGetFreeMemory
 * for a remote one), at most the run's width. A host that cannot be
 * used says why and gets capacity 0. -1 only when interrupted.
 */
static int open_host(struct sched *s, unsigned int i, const char *uri,
		     bool remote)
{
	struct sched_host *h = &s->host[i];
	unsigned long long free_mb;
	char err[8192];

	h->s = s;
	h->idx = i;
	snprintf(h->h.uri, sizeof(h->h.uri), "%.*s",
		 (int)sizeof(h->h.uri) - 1, uri);
	h->h.remote = remote;
	guest_msg("run %s: connecting to %s", s->id, uri);
	h->h.vm = vm_open(uri, leftover, s, err, sizeof(err));
	/*
	 * Opening the embedded driver resets SIGTERM to its default (a
	 * SIGTERM during a run killed swapctl with the guest and ganesha
	 * still running): take the signals back.
	 */
	guest_catch_signals();
	if (guest_interrupted)
		return -1;
	if (!h->h.vm || host_kernels(s, h, err, sizeof(err))) {
		snprintf(h->why, sizeof(h->why), "%.*s",
			 (int)sizeof(h->why) - 1, err);
		return 0;
	}
	/* the local driver's width was checked by plan_parallel() */
	free_mb = h->h.remote ? vm_free_mb(h->h.vm) : 0;
	s->hw[i].capacity = waves_capacity(free_mb ? free_mb : ~0ULL,
					   guest_host_mb(s), s->width);
	if (!s->hw[i].capacity)
		snprintf(h->why, sizeof(h->why),
			 "%llu MiB free, a guest needs %u MiB", free_mb,
			 guest_host_mb(s));
	return 0;
}

/*
 * The slots of host @h's guests that run at once: one libvirt handle
 * each on the host's connection (with one slot, the connection's own),
 * the NFS port nfs_port + its number over all hosts, and its plan.
 */
static int open_slots(struct sched *s, struct sched_host *h, unsigned int *n)
{
	unsigned int cap = s->hw[h->idx].capacity, i;

	if (*n + cap > s->nslots)
		cap = s->hw[h->idx].capacity = s->nslots - *n;
	h->slot0 = *n;
	for (i = 0; i < cap; i++) {
		struct guest_slot *sl = &s->slot[*n + i];

		sl->host = &h->h;
		sl->vm = cap > 1 ? vm_share(h->h.vm) : h->h.vm;
		sl->nfs_port = s->cfg->nfs_port + *n + i;
		sl->plan = s->plans[*n + i];
		if (!sl->vm)
			return -1;
	}
	*n += cap;
	return 0;
}

/*
 * Every host of `hosts` (one: the local driver) connected, sized and
 * given its slots; 0, or an exit code when no host can run a guest.
 */
int hosts_open(struct sched *s)
{
	unsigned int i, n = 0, usable = 0;
	const char *uri;

	s->nhosts = s->cfg->nhosts ? s->cfg->nhosts : 1;
	for (i = 0; i < s->nhosts; i++) {
		uri = s->cfg->nhosts ? s->cfg->hosts[i] : "local";
		if (open_host(s, i, strcmp(uri, "local") ? uri : s->uri,
			      strcmp(uri, "local") != 0))
			return EXIT_INTERRUPTED;
		if (!s->hw[i].capacity && s->nhosts == 1) {
			fprintf(stderr, "swapctl run: %s\n", s->host[i].why);
			return EXIT_SETUP;
		}
		if (!s->hw[i].capacity) {
			guest_msg("host %s: not used: %s", s->host[i].h.uri,
				  s->host[i].why);
			continue;
		}
		if (open_slots(s, &s->host[i], &n))
			return EXIT_FAILURE_GENERIC;
		usable += s->hw[i].capacity > 0;
		if (s->nhosts > 1)
			guest_msg("host %s: up to %u guest%s at once",
				  s->host[i].h.uri, s->hw[i].capacity,
				  s->hw[i].capacity > 1 ? "s" : "");
	}
	return usable ? 0 : EXIT_SETUP;
}

void hosts_close(struct sched *s)
{
	char name[256];
	unsigned int i;
	int k;

	for (i = 0; i < s->nslots; i++) {
		struct guest_slot *sl = &s->slot[i];

		guest_cleanup(sl);
		if (sl->vm && sl->host && sl->vm != sl->host->vm)
			vm_close(sl->vm);
		sl->vm = NULL;
	}
	for (i = 0; i < s->nhosts; i++) {
		struct sched_host *h = &s->host[i];

		for (k = 0; h->h.remote && h->h.vm && k < s->scn->nkernels;
		     k++) {
			snprintf(name, sizeof(name),
				 DOMAIN_NAME_PREFIX "%s-%s.bzImage", s->id,
				 s->scn->kernels[k]);
			vm_vol_delete(h->h.vm, name);
		}
		vm_close(h->h.vm);
		h->h.vm = NULL;
	}
}
