// SPDX-License-Identifier: GPL-2.0
/* swapctl run --dry-run (dryrun.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "domain.h"
#include "dryrun.h"
#include "ganesha.h"
#include "plan.h"
#include "swapctl.h"
#include "util.h"
#include "waves.h"

/*
 * The waves of the run (--parallel), each the names of the guests that
 * start together: [["baseline-1", "patched-1"], ...].
 */
static json_t *waves_json(const struct run_dry *dr)
{
	unsigned int nk = (unsigned int)dr->scn->nkernels;
	unsigned int total = dr->repeat * nk, first = 0, n, i;
	json_t *a = json_array(), *w;
	char name[SCN_KERNEL_MAX + 16];

	while ((n = waves_size(nk, total, dr->parallel, first))) {
		w = json_array();
		for (i = first; i < first + n; i++) {
			snprintf(name, sizeof(name), "%s-%u",
				 dr->scn->kernels[i % nk], i / nk + 1);
			json_array_append_new(w, json_string(name));
		}
		json_array_append_new(a, w);
		first += n;
	}
	return a;
}

/* The disks of a guest, as guest.c's make_disks() creates them. */
static json_t *dry_disks(const struct run_dry *dr)
{
	json_t *a = json_array();
	int i;

	for (i = 0; a && i < dr->scn->nswap; i++) {
		const struct scn_swap *sw = &dr->scn->swap[i];

		if (!sw->dev[0])
			continue;
		json_array_append_new(a, json_pack("{sssisssI}",
			"dev", sw->dev, "swap_index", i,
			"backend", plan_backend_name(sw->type),
			"size_mb", (json_int_t)(sw->type == SWAP_EXT4FILE ?
						 sw->disk_mb : sw->size_mb)));
	}
	return a;
}

/* `hosts` as configured: [] without it (the one local driver). */
static json_t *dry_hosts(const struct run_dry *dr)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < dr->cfg->nhosts; i++)
		json_array_append_new(a, json_string(dr->cfg->hosts[i]));
	return a;
}

/* The --dry-run object: see dry_run(). */
static json_t *dry_json(struct run_dry *dr, struct guest *g)
{
	char nfs[4200], exp[4300], rec[4300], *xml, *conf;
	json_t *o, *doms;
	int k;

	o = json_pack("{sbsssssssssisiss}", "dry_run", 1,
		      "scenario", dr->scn->name,
		      "accel", dr->env->kvm ? "kvm" : "tcg",
		      "accel_why", dr->env->accel_why, "uri", dr->uri,
		      "memory_mb", (int)dr->env->memory_mb,
		      "cpus", (int)dr->env->cpus, "cmdline", dr->env->cmdline);
	doms = json_array();
	if (!o || !doms) {
		json_decref(o);
		json_decref(doms);
		return NULL;
	}
	json_object_set_new(o, "kernel_line", json_string(dr->k->line));
	json_object_set_new(o, "disks", dry_disks(dr));
	json_object_set_new(o, "parallel", json_integer(dr->width));
	json_object_set_new(o, "waves", waves_json(dr));
	json_object_set_new(o, "hosts", dry_hosts(dr));
	json_object_set_new(o, "plan", json_string(dr->plan));
	json_object_set_new(o, "domains", doms);
	for (k = 0; k < dr->scn->nkernels; k++) {
		snprintf(g->kernel, sizeof(g->kernel), "%s",
			 dr->scn->kernels[k]);
		snprintf(g->kernel_path, sizeof(g->kernel_path), "%s",
			 dr->k->kernel_path[k]);
		g->rep = 1;
		util_path(g->dir, sizeof(g->dir), "%s/%s-1", dr->dir,
			  dr->scn->kernels[k]);
		xml = guest_domain_xml(dr->env, g);
		if (!xml) {
			json_decref(o);
			return NULL;
		}
		json_array_append_new(doms, json_pack("{ss+sssssssbss}",
			"guest", dr->scn->kernels[k], "-1",
			"kernel", dr->scn->kernels[k], "variant", dr->k->variant[k],
			"bzImage", dr->k->kernel_path[k],
			"built", !access(dr->k->kernel_path[k], R_OK), "xml", xml));
		free(xml);
	}
	if (!scn_has_nfs(dr->scn)) {
		json_object_set_new(o, "nfs", json_null());
		return o;
	}
	snprintf(nfs, sizeof(nfs), "%s/%s-1/nfs", dr->dir, dr->scn->kernels[0]);
	snprintf(exp, sizeof(exp), "%s/export", nfs);
	snprintf(rec, sizeof(rec), "%s/recovery", nfs);
	conf = ganesha_config(exp, rec, dr->cfg->nfs_port);
	if (!conf) {
		json_decref(o);
		return NULL;
	}
	snprintf(rec, sizeof(rec), "%s/ganesha.conf", nfs);
	json_object_set_new(o, "nfs", json_pack("{sisissssssss}",
		"port", (int)dr->cfg->nfs_port,
		"last_port", (int)(dr->cfg->nfs_port + dr->nslots - 1),
		"export", "/export", "dir", exp, "ganesha_conf", conf,
		"conf_path", rec));
	free(conf);
	return o;
}

/* "# hosts: local, qemu+ssh://box/session (remote: ...)" */
static void dry_print_hosts(const struct run_dry *dr)
{
	unsigned int i;

	if (!dr->cfg->nhosts)
		return;
	printf("# hosts:");
	for (i = 0; i < dr->cfg->nhosts; i++)
		printf("%s %s", i ? "," : "", dr->cfg->hosts[i]);
	printf(" (remote: volumes in its pool '%s'); a free host, the most capacity first, takes the next whole repeats and runs them in the waves below\n",
	       VM_POOL);
}

/* The schedule: "# wave 1 (together): baseline-1 patched-1". */
static void dry_waves(const struct run_dry *dr, json_t *waves)
{
	json_t *w, *name;
	size_t i, j;

	printf("# schedule: %u guest%s at once (--parallel %u), %zu wave%s; a wave starts when the one before has ended\n",
	       dr->width, dr->width > 1 ? "s" : "", dr->parallel,
	       json_array_size(waves), json_array_size(waves) > 1 ? "s" : "");
	json_array_foreach(waves, i, w) {
		printf("#   wave %zu:", i + 1);
		json_array_foreach(w, j, name)
			printf(" %s", json_string_value(name));
		putchar('\n');
	}
}

/*
 * --dry-run: everything run would start, without starting it: the
 * accelerator and why, the libvirt URI, the guest's size, command line
 * and disks, the plan, each domain's XML and the NFS server's
 * configuration. --json: the same as one object.
 */
int run_dry(struct run_dry *dr)
{
	struct guest *g = calloc(1, sizeof(*g));
	json_t *o, *d, *nfs;
	int ret = EXIT_OK;
	size_t i;

	if (!g)
		return EXIT_FAILURE_GENERIC;
	snprintf(dr->id, dr->idlen, "YYYYmmdd-HHMMSS-%s", dr->scn->name);
	util_path(dr->dir, dr->dirlen, "%s/runs/%s", dr->cfg->workdir,
		  dr->id);
	config_libvirt_uri(dr->cfg, dr->uri, dr->urilen);
	o = dry_json(dr, g);
	free(g);
	if (!o) {
		fprintf(stderr, "swapctl run: --dry-run: %s\n",
			strerror(errno));
		return EXIT_FAILURE_GENERIC;
	}
	if (dr->json) {
		if (json_dumpf(o, stdout, JSON_INDENT(2)) || puts("") == EOF)
			ret = EXIT_OUTPUT;
		json_decref(o);
		return ret;
	}
	printf("# accelerator: %s (%s)\n", dr->env->kvm ? "KVM" : "TCG",
	       dr->env->accel_why);
	printf("# libvirt URI: %s\n", dr->uri);
	printf("# kernel line: %s (%s)\n", dr->k->line, dr->k->line_from);
	if (dr->repeat_auto)
		printf("# repeats: auto, %u to %u runs per kernel, until every power target's mde <= %.3g%%\n",
		       dr->auto_min, dr->auto_limit, dr->effect * 100);
	else
		printf("# repeats: %u run%s per kernel, interleaved\n",
		       dr->repeat, dr->repeat == 1 ? "" : "s");
	printf("# guest: %u MiB, %u vCPU%s; kernel command line: %s\n",
	       dr->env->memory_mb, dr->env->cpus, dr->env->cpus == 1 ? "" : "s",
	       dr->env->cmdline);
	dry_print_hosts(dr);
	dry_waves(dr, json_object_get(o, "waves"));
	json_array_foreach(json_object_get(o, "disks"), i, d)
		printf("# disk %s: %lld MiB sparse image for swap[%lld] (%s)\n",
		       json_string_value(json_object_get(d, "dev")),
		       (long long)json_integer_value(json_object_get(d, "size_mb")),
		       (long long)json_integer_value(json_object_get(d, "swap_index")),
		       json_string_value(json_object_get(d, "backend")));
	printf("\n# plan (%s/plan.txt and /swapctl/plan in each initrd)\n%s",
	       dr->dir, dr->plan);
	json_array_foreach(json_object_get(o, "domains"), i, d)
		printf("\n# domain XML of %s (variant %s%s)\n%s",
		       json_string_value(json_object_get(d, "guest")),
		       json_string_value(json_object_get(d, "variant")),
		       json_is_true(json_object_get(d, "built")) ? "" :
		       ", not built yet",
		       json_string_value(json_object_get(d, "xml")));
	nfs = json_object_get(o, "nfs");
	if (json_is_object(nfs) && dr->nslots > 1)
		printf("\n# NFS: one ganesha.nfsd per guest of a wave, the i-th on 127.0.0.1:%u + i (up to %u), each guest's plan naming its port\n",
		       dr->cfg->nfs_port, dr->cfg->nfs_port + dr->nslots - 1);
	if (json_is_object(nfs))
		printf("\n# NFS: ganesha.nfsd on 127.0.0.1:%u, export /export; %s:\n%s",
		       dr->cfg->nfs_port,
		       json_string_value(json_object_get(nfs, "conf_path")),
		       json_string_value(json_object_get(nfs, "ganesha_conf")));
	json_decref(o);
	return EXIT_OK;
}
