// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the plan: the exact text for a scenario, the guest's own
 * parser (guest/plan.c) accepting every shipped scenario's plan with the
 * same meaning, and the per-guest initrd.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "plan.h"
#include "scenario.h"
#include "util.h"
/* the guest's parser, linked in from guest/plan.c */
#include "../guest/gplan.h"

static struct scenario scn;
static char err[1024];

static void test_exact_text(void **state)
{
	static const char text[] =
		"{\"name\": \"p\", \"interval_ms\": 50, \"timeout_s\": 90,\n"
		" \"sysctl\": {\"vm.swappiness\": 100, \"vm.page-cluster\": 0},\n"
		" \"thp\": {\"enabled\": \"always\"},\n"
		" \"mthp\": {\"64\": \"always\", \"2048\": \"inherit\"},\n"
		" \"zswap\": {\"enabled\": false},\n"
		" \"swap\": [{\"type\": \"ext4file\", \"size_mb\": 64, \"prio\": 1},\n"
		"  {\"type\": \"blk\", \"size_mb\": 32, \"nonrot\": true},\n"
		"  {\"type\": \"zram\", \"size_mb\": 16, \"comp\": \"lz4\", \"prio\": 7,\n"
		"   \"mem_limit_mb\": 4},\n"
		"  {\"type\": \"nfsfile\", \"size_mb\": 48, \"prio\": 0}],\n"
		" \"workload\": {\"seed\": 99, \"size_mb\": 40, \"thp\": true,\n"
		"  \"unique_words\": 64,\n"
		"  \"verify_seed\": 100, \"phases\": [\"fill\",\n"
		"  {\"name\": \"pageout\", \"wait_writeback\": true,\n"
		"   \"drain_lru\": true},\n"
		"  {\"name\": \"pressure\", \"mb\": 20}, {\"name\": \"read\", \"order\": \"random\"},\n"
		"  \"willneed\", {\"name\": \"rewrite\", \"frac\": 0.5}]}}\n";
	static const char want[] =
		"# swapctl plan for scenario p\n"
		"version 1\n"
		"interval_ms 50\n"
		"timeout_s 90\n"
		"sysctl vm.swappiness=100\n"
		"sysctl vm.page-cluster=0\n"
		"thp enabled=always\n"
		"mthp size_kb=64 enabled=always\n"
		"mthp size_kb=2048 enabled=inherit\n"
		"zswap enabled=0\n"
		"swap type=ext4file dev=/dev/vda size_mb=64 prio=1\n"
		"swap type=blk dev=/dev/vdb nonrot=1\n"
		"swap type=zram size_mb=16 comp=lz4 mem_limit_mb=4 prio=7\n"
		"swap type=nfsfile server=10.0.2.2 port=2049 export=/export vers=4.1 size_mb=48 file=swapfile-0 prio=0\n"
		"net addr=10.0.2.15/24 gw=10.0.2.2\n"
		"workload seed=99 size_mb=40 shmem_mb=0 thp=1 unique_words=64\n"
		"phase fill\n"
		"phase pageout wait=writeback drain=lru\n"
		"phase pressure mb=20\n"
		"phase read order=random\n"
		"phase willneed\n"
		"phase rewrite frac=0.5\n"
		"verify_seed 100\n";
	char *plan;

	(void)state;
	if (scenario_parse(&scn, text, strlen(text), "t.json", err,
			   sizeof(err)))
		fail_msg("%s", err);
	plan = plan_text(&scn, 256, 2049);
	assert_non_null(plan);
	assert_string_equal(plan, want);
	free(plan);
}

/* Every shipped scenario's plan means the same to the guest. */
/* plan_check() is the guest's parser: what it refuses is refused. */
static void test_plan_check(void **state)
{
	(void)state;
	assert_int_equal(plan_check("x.json", "version 1\nswap type=zram size_mb=8\nworkload seed=1 size_mb=4\nphase fill\n",
				    err, sizeof(err)), 0);
	assert_int_equal(plan_check("x.json",
				    "version 1\nswap type=zram size_mb=8\nworkload seed=1 size_mb=4\nphase fill\nphase fill\n",
				    err, sizeof(err)), -1);
	assert_string_equal(err, "x.json: the guest would refuse the plan: line 5: phase fill: only once, as the first phase");
	assert_int_equal(plan_check("x.json", "version 1\nbogus 1\n", err,
				    sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2: "));
}

/* A slab_error as the guest reads it from the plan. */
static void slab_agrees(const struct gplan_fault *g,
			const struct scn_fault *sf)
{
	int i;

	assert_int_equal(g->probability, sf->probability);
	assert_int_equal(g->times, sf->times);
	assert_int_equal(g->interval, sf->interval);
	assert_int_equal(g->tasks, sf->tasks);
	assert_int_equal(g->atomic_only, sf->atomic_only);
	assert_int_equal(g->until_phase, sf->until_phase);
	assert_int_equal(g->ncaches, sf->ncaches);
	for (i = 0; i < sf->ncaches; i++)
		assert_string_equal(g->caches[i], sf->caches[i]);
}

static void test_guest_agrees(void **state)
{
	static const char *const files[] = {
		"scenarios/bdev-swap.json", "scenarios/zram-swap.json",
		"scenarios/ext4-swapfile.json", "scenarios/nfs-swap.json",
		"scenarios/multi-device.json", "scenarios/thp-swap.json",
		"scenarios/default.json", "scenarios/fault-read-error.json",
		"scenarios/fault-write-error.json",
		"scenarios/fault-write-batch.json",
		"scenarios/pageout-resident.json",
		"scenarios/fault-nfs-stall.json",
		"scenarios/fault-nfs-restart.json",
		"scenarios/fault-swapoff.json",
		"scenarios/fault-swap-churn.json", "scenarios/fault-oom.json",
		"scenarios/fault-slab-batch.json", "scenarios/mthp-swap.json",
		"scenarios/zswap-swap.json", "scenarios/zswap-swap-6.12.json",
		"scenarios/brd-swap.json",
	};
	struct gplan *gp = calloc(1, sizeof(*gp));
	size_t f;
	int i, k;

	(void)state;
	assert_non_null(gp);
	for (f = 0; f < ARRAY_SIZE(files); f++) {
		char *plan;

		if (scenario_load(&scn, files[f], err, sizeof(err)))
			fail_msg("%s", err);
		plan = plan_text(&scn, 256, 20490);
		assert_non_null(plan);
		if (gplan_parse(plan, gp, err, sizeof(err)))
			fail_msg("%s: the guest rejects the plan: %s\n%s",
				 files[f], err, plan);
		assert_int_equal(gp->version, 1);
		assert_int_equal(gp->interval_ms, scn.interval_ms);
		assert_int_equal(gp->timeout_s, scn.timeout_s);
		assert_int_equal(gp->nsysctl, scn.nsysctl);
		assert_int_equal(gp->nswap, scn.nswap);
		for (i = 0; i < scn.nswap; i++) {
			assert_string_equal(plan_backend_name(gp->swap[i].type),
					    plan_backend_name(scn.swap[i].type));
			assert_int_equal(gp->swap[i].prio, scn.swap[i].prio);
			if (scn.swap[i].dev[0]) {
				char dev[32];

				snprintf(dev, sizeof(dev), "/dev/%s",
					 scn.swap[i].dev);
				assert_string_equal(gp->swap[i].dev, dev);
			}
			if (scn.swap[i].type == SWAP_NFSFILE)
				assert_int_equal(gp->swap[i].port, 20490);
			/* brd: the device the boot's brd.rd_nr=1 makes */
			if (scn.swap[i].type == SWAP_BRD) {
				assert_string_equal(gp->swap[i].dev,
						    PLAN_BRD_DEV);
				assert_int_equal(gp->swap[i].size_mb,
						 scn.swap[i].size_mb);
			}
		}
		assert_int_equal(gp->has_net, scn_has_nfs(&scn));
		assert_true(gp->has_workload);
		assert_int_equal(gp->seed, scn.seed);
		assert_int_equal(gp->size_mb, scenario_size_mb(&scn, 256));
		assert_int_equal(gp->thp_area, scn.wl_thp);
		assert_int_equal(gp->nmthp, scn.nmthp);
		for (i = 0; i < scn.nmthp; i++) {
			assert_int_equal(gp->mthp[i].size_kb,
					 scn.mthp[i].size_kb);
			assert_string_equal(gp->mthp[i].enabled,
					    scn.mthp[i].enabled);
		}
		/* absent: the guest's default, every word random */
		assert_int_equal(gp->uniq_words, scn.unique_words ?
				 scn.unique_words : 512);
		assert_int_equal(gp->nphase, scn.nphases);
		for (i = 0; i < scn.nphases; i++)
			assert_string_equal(plan_phase_name(gp->phase[i].type),
					    plan_phase_name(scn.phase[i].kind));
		assert_false(gp->has_verify_seed);
		/* the guest gets its faults, with the scenario's index */
		for (i = 0, k = 0; i < scn.nfaults; i++) {
			const struct scn_fault *sf = &scn.fault[i];

			if (plan_fault_on_host(sf->kind))
				continue;
			assert_true(k < gp->nfault);
			assert_int_equal(gp->fault[k].index, i);
			/* one enum on both sides (common/planspec.h) */
			assert_int_equal(gp->fault[k].kind, sf->kind);
			assert_int_equal(gp->fault[k].trig, sf->trig);
			assert_int_equal(gp->fault[k].swap, sf->swap);
			assert_int_equal(gp->fault[k].duration_ms,
					 (uint64_t)(sf->duration_s * 1000));
			if (sf->trig == TRIG_PHASE)
				assert_int_equal(gp->fault[k].at, sf->at);
			if (sf->trig == TRIG_AFTER_TIME)	/* s -> ms */
				assert_int_equal(gp->fault[k].at,
						 (uint64_t)(sf->at * 1000));
			if (sf->kind == FAULT_IO_ERROR) {
				assert_int_equal(gp->fault[k].op, sf->op);
				assert_int_equal(gp->fault[k].slot, sf->slot);
				assert_int_equal(gp->fault[k].nslots, sf->nslots);
			}
			if (sf->kind == FAULT_SLAB_ERROR)
				slab_agrees(&gp->fault[k], sf);
			k++;
		}
		assert_int_equal(k, gp->nfault);
		free(plan);
	}
	free(gp);
}

/* brd and zswap's accept_threshold_percent: the plan's words, exactly */
static void test_brd_plan(void **state)
{
	static const char text[] =
		"{\"name\": \"b\", \"guest\": {\"memory_mb\": 256},\n"
		" \"zswap\": {\"enabled\": true, \"max_pool_percent\": 5,\n"
		"   \"accept_threshold_percent\": 100},\n"
		" \"swap\": [{\"type\": \"brd\", \"size_mb\": 96, \"prio\": 3}],\n"
		" \"workload\": {\"size_mb\": 32, \"phases\": [\"fill\"]}}";
	struct gplan *gp = calloc(1, sizeof(*gp));
	char *plan;

	(void)state;
	assert_non_null(gp);
	if (scenario_parse(&scn, text, strlen(text), "t.json", err,
			   sizeof(err)))
		fail_msg("%s", err);
	plan = plan_text(&scn, 256, 20490);
	assert_non_null(plan);
	assert_non_null(strstr(plan, "\nzswap enabled=1 max_pool_percent=5 accept_threshold_percent=100\n"));
	assert_non_null(strstr(plan, "\nswap type=brd dev=/dev/ram0 size_mb=96 prio=3\n"));
	if (gplan_parse(plan, gp, err, sizeof(err)))
		fail_msg("the guest rejects the plan: %s\n%s", err, plan);
	assert_int_equal(gp->swap[0].type, SWAP_BRD);
	assert_string_equal(gp->swap[0].dev, "/dev/ram0");
	assert_int_equal(gp->swap[0].size_mb, 96);
	assert_int_equal(gp->nzswap, 3);
	assert_string_equal(gp->zswap[2].key, "accept_threshold_percent");
	assert_string_equal(gp->zswap[2].val, "100");
	free(plan);
	free(gp);
}

static void test_escape(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(plan_escape(buf, sizeof(buf), "a b#c%d=e/f_g.h,i:j+k@l-m"),
			 strlen("a%20b%23c%25d=e/f_g.h,i:j+k@l-m"));
	assert_string_equal(buf, "a%20b%23c%25d=e/f_g.h,i:j+k@l-m");
	assert_int_equal(plan_escape(buf, sizeof(buf), "*\t\xc3\xa9"), 12);
	assert_string_equal(buf, "%2A%09%C3%A9");
	/* bounded: the length needed, always terminated */
	assert_int_equal(plan_escape(buf, 4, "a b"), 5);
	assert_int_equal(strlen(buf), 3);
}

/*
 * A command workload: the exact plan, @KBUILD_SRC@/@KBUILD_OUT@ replaced,
 * every word escaped; and the guest decodes the same argv back.
 */
static void test_command_plan(void **state)
{
	static const char text[] =
		"{\"name\": \"c\", \"swap\": [{\"type\": \"zram\", \"size_mb\": 64}],\n"
		" \"workload\": {\"command\": {\"kbuild\": \"tinyconfig\", \"groups\": [\n"
		"  {\"name\": \"b\", \"argv\": [\"make\", \"-C\", \"@KBUILD_OUT@\", \"a b#\"],\n"
		"   \"cwd\": \"@KBUILD_SRC@\", \"env\": {\"X\": \"1 2\"},\n"
		"   \"memory_max_mb\": 48, \"memory_high_mb\": 40, \"swap_max_mb\": 0,\n"
		"   \"cpus\": 1, \"outputs\": [\"@KBUILD_OUT@/mm/*.o\"]},\n"
		"  {\"name\": \"u\", \"argv\": [\"/run/swapctl-bin/usemem\"],\n"
		"   \"cpu_max_pct\": 5, \"cpu_max_period_ms\": 200, \"io_max\": {\"wbps\": 1048576, \"rbps\": 8192, \"riops\": 7}}]}}}\n";
	static const char want[] =
		"# swapctl plan for scenario c\n"
		"version 1\n"
		"interval_ms 100\n"
		"timeout_s 300\n"
		"swap type=zram size_mb=64\n"
		"hostroot tag=swapctl-hostroot\n"
		"command reference=1\n"
		"group name=b memory_max_mb=48 memory_high_mb=40 swap_max_mb=0 cpus=1 cwd=/s%20rc\n"
		"arg make\n"
		"arg -C\n"
		"arg /o\n"
		"arg a%20b%23\n"
		"env X=1%202\n"
		"output /o/mm/%2A.o\n"
		"group name=u cpu_max_pct=5 cpu_max_period_ms=200 io_rbps=8192 io_wbps=1048576 io_riops=7\n"
		"arg /run/swapctl-bin/usemem\n";
	struct gplan *gp = calloc(1, sizeof(*gp));
	char *plan;

	(void)state;
	assert_non_null(gp);
	if (scenario_parse(&scn, text, strlen(text), "t.json", err,
			   sizeof(err)))
		fail_msg("%s", err);
	strcpy(scn.kbuild_src, "/s rc");
	strcpy(scn.kbuild_out, "/o");
	plan = plan_text(&scn, 256, 2049);
	assert_non_null(plan);
	assert_string_equal(plan, want);
	assert_int_equal(gplan_parse(plan, gp, err, sizeof(err)), 0);
	assert_int_equal(gp->ngroup, 2);
	assert_string_equal(gp->group[0].cwd, "/s rc");
	assert_string_equal(gp->group[0].args[3], "a b#");
	assert_string_equal(gp->group[0].env[0], "X=1 2");
	assert_string_equal(gp->group[0].out[0], "/o/mm/*.o");
	assert_int_equal(gp->group[0].cpu_max_pct, 0);
	assert_int_equal(gp->group[0].io_max[IO_WBPS], 0);
	assert_int_equal(gp->group[1].cpu_max_pct, 5);
	assert_int_equal(gp->group[1].io_max[IO_RBPS], 8192);
	assert_int_equal(gp->group[1].io_max[IO_WBPS], 1048576);
	assert_int_equal(gp->group[1].io_max[IO_RIOPS], 7);
	assert_int_equal(gp->group[1].io_max[IO_WIOPS], 0);
	free(plan);
	free(gp);
}

/* Every shipped command scenario: the guest accepts its plan. */
static void test_guest_agrees_command(void **state)
{
	static const char *const files[] = {
		"scenarios/kernel-build.json", "scenarios/kernel-build-zram.json",
		"scenarios/stress-ng.json", "scenarios/stress-ng-zram.json",
		"scenarios/usemem.json", "scenarios/usemem-zram.json",
		"scenarios/memcg-pair.json", "scenarios/memcg-pair-zram.json",
		"scenarios/cg-iomax-readahead.json", "scenarios/cg-iomax-zram.json",
		"scenarios/cg-cpumax.json", "scenarios/cg-nfs-fork.json",
	};
	struct gplan *gp = calloc(1, sizeof(*gp));
	size_t f;
	int i, k;

	(void)state;
	assert_non_null(gp);
	for (f = 0; f < ARRAY_SIZE(files); f++) {
		char *plan;

		if (scenario_load(&scn, files[f], err, sizeof(err)))
			fail_msg("%s", err);
		assert_true(scn.command);
		strcpy(scn.kbuild_src, "/src");
		strcpy(scn.kbuild_out, "/out");
		plan = plan_text(&scn, 256, 20490);
		assert_non_null(plan);
		if (gplan_parse(plan, gp, err, sizeof(err)))
			fail_msg("%s: the guest rejects the plan: %s\n%s",
				 files[f], err, plan);
		assert_true(gp->has_command);
		assert_true(gp->has_hostroot);
		assert_int_equal(gp->reference, scn.reference);
		assert_int_equal(gp->ngroup, scn.ngroups);
		for (i = 0; i < scn.ngroups; i++) {
			assert_string_equal(gp->group[i].name,
					    scn.group[i].name);
			assert_int_equal(gp->group[i].nargs,
					 scn.group[i].nargs);
			assert_int_equal(gp->group[i].memory_max_mb,
					 scn.group[i].memory_max_mb);
			for (k = 0; k < gp->group[i].nargs; k++)
				assert_null(strchr(gp->group[i].args[k], '@'));
		}
		free(plan);
	}
	free(gp);
}

static void test_initrd(void **state)
{
	char dir[] = "/tmp/test_plan.XXXXXX", base[64], out[64];
	static const char basedata[] = "0707010000BASEARCHIVE!";	/* 22 */
	const char *plan = "version 1\nphase fill\n";
	char *data;
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(base, sizeof(base), "%s/base.cpio", dir);
	snprintf(out, sizeof(out), "%s/initrd", dir);
	assert_int_equal(util_write_file_atomic(base, basedata,
						strlen(basedata), 0644), 0);
	assert_int_equal(plan_make_initrd(base, plan, out, err, sizeof(err)),
			 0);
	data = util_read_file(out, &len);
	assert_non_null(data);
	/* the copy, zero padding to 4 bytes, then a newc archive */
	assert_memory_equal(data, basedata, strlen(basedata));
	assert_int_equal(data[22], 0);
	assert_int_equal(data[23], 0);
	assert_memory_equal(data + 24, "070701", 6);
	assert_non_null(memmem(data, len, "swapctl/plan", 13));
	assert_non_null(memmem(data, len, plan, strlen(plan)));
	assert_non_null(memmem(data, len, "TRAILER!!!", 10));
	assert_int_equal(len % 4, 0);
	free(data);
	/* nothing half-written remains */
	assert_false(util_exists("/tmp/x.tmp"));
	snprintf(base, sizeof(base), "%s/initrd.tmp", dir);
	assert_false(util_exists(base));

	/* a link planted at the temporary name is not written through */
	snprintf(base, sizeof(base), "%s/base.cpio", dir);
	{
		char tmp[80], victim[80];

		snprintf(tmp, sizeof(tmp), "%s/initrd.tmp", dir);
		snprintf(victim, sizeof(victim), "%s/victim", dir);
		assert_int_equal(util_write_file_atomic(victim, "keep", 4,
							0644), 0);
		assert_int_equal(symlink(victim, tmp), 0);
		assert_int_equal(plan_make_initrd(base, plan, out, err,
						  sizeof(err)), 0);
		data = util_read_file(victim, NULL);
		assert_string_equal(data, "keep");
		free(data);
		assert_false(util_exists(tmp));
	}

	/* a missing base: one line naming it, no output */
	snprintf(base, sizeof(base), "%s/missing.cpio", dir);
	unlink(out);
	assert_int_equal(plan_make_initrd(base, plan, out, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "missing.cpio: No such file"));
	assert_false(util_exists(out));
	assert_int_equal(util_rm_rf(dir), 0);
}

/*
 * A scenario of @nsysctl sysctls, @nphases phases and @seed, sized by
 * @size (a "size_mb": N or "size_ram": F member).
 */
static char *limit_scenario(int nsysctl, int nphases, unsigned long long seed,
			    const char *size)
{
	size_t cap = 65536, off = 0;
	char *t = malloc(cap);
	int i;

	assert_non_null(t);
	off += snprintf(t + off, cap - off,
			"{\"name\": \"limits\", \"sysctl\": {");
	for (i = 0; i < nsysctl; i++)
		off += snprintf(t + off, cap - off, "%s\"vm.k%d\": %d",
				i ? ", " : "", i, i);
	off += snprintf(t + off, cap - off,
			"}, \"swap\": [{\"type\": \"zram\", \"size_mb\": 64}],"
			" \"workload\": {\"seed\": %llu, \"verify_seed\": %llu, %s,"
			" \"phases\": [", seed, seed, size);
	for (i = 0; i < nphases; i++)
		off += snprintf(t + off, cap - off, "%s\"%s\"", i ? ", " : "",
				i ? plan_phase_name(PHASE_PAGEOUT + i % 2 * 3) :
				"fill");
	snprintf(t + off, cap - off, "]}}\n");
	return t;
}

/* The contract's limits (common/planspec.h): both sides take them. */
static void test_limits_agree(void **state)
{
	struct gplan *gp = calloc(1, sizeof(*gp));
	char *text, *plan;

	(void)state;
	assert_non_null(gp);
	text = limit_scenario(PLAN_MAX_SYSCTL, PLAN_MAX_PHASES, PLAN_SEED_MAX,
			      "\"size_ram\": 0.01");
	if (scenario_parse(&scn, text, strlen(text), "l.json", err,
			   sizeof(err)))
		fail_msg("the host refuses the limits: %s", err);
	free(text);
	plan = plan_text(&scn, 256, 2049);
	assert_non_null(plan);
	if (gplan_parse(plan, gp, err, sizeof(err)))
		fail_msg("the guest refuses the host's plan at the limits: %s",
			 err);
	assert_int_equal(gp->nsysctl, PLAN_MAX_SYSCTL);
	assert_int_equal(gp->nphase, PLAN_MAX_PHASES);
	assert_true(gp->seed == PLAN_SEED_MAX);
	assert_true(gp->verify_seed == PLAN_SEED_MAX);
	free(plan);

	/* size_ram at its minimum (the guest used to refuse it) */
	text = limit_scenario(1, 1, 0, "\"size_ram\": 0.01");
	assert_int_equal(scenario_parse(&scn, text, strlen(text), "l.json",
					err, sizeof(err)), 0);
	free(text);
	assert_int_equal(gplan_parse("version 1\nworkload seed=1 size_ram=0.01\n",
				     gp, err, sizeof(err)), 0);

	/* one more of anything: the host refuses it, as the guest would */
	text = limit_scenario(PLAN_MAX_SYSCTL + 1, 1, 1, "\"size_mb\": 8");
	assert_int_equal(scenario_parse(&scn, text, strlen(text), "l.json",
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 32 sysctls"));
	free(text);
	text = limit_scenario(1, PLAN_MAX_PHASES + 1, 1, "\"size_mb\": 8");
	assert_int_equal(scenario_parse(&scn, text, strlen(text), "l.json",
					err, sizeof(err)), -1);
	free(text);
	text = limit_scenario(1, 1, PLAN_SEED_MAX + 1ULL, "\"size_mb\": 8");
	assert_int_equal(scenario_parse(&scn, text, strlen(text), "l.json",
					err, sizeof(err)), -1);
	free(text);
	assert_int_equal(gplan_parse("version 1\nworkload seed=4294967296 size_mb=8\n",
				     gp, err, sizeof(err)), -1);
	free(gp);
}

/*
 * mTHP (common/planspec.h): every size from 16 to 2048 KiB on both sides,
 * and what the guest refuses the host refuses too.
 */
static void test_mthp_agrees(void **state)
{
	static const char head[] = "{\"name\": \"m\", \"mthp\": {";
	static const char tail[] =
		"}, \"swap\": [{\"type\": \"zram\", \"size_mb\": 64}],"
		" \"workload\": {\"size_mb\": 32, \"phases\": [\"fill\"]}}";
	static const char *const bad[] = {
		"\"8\": \"always\"", "\"4096\": \"always\"",
		"\"48\": \"always\"", "\"64kB\": \"always\"",
		"\"064x\": \"never\"", "\"64\": \"sometimes\"",
		"\"64\": true",
	};
	struct gplan *gp = calloc(1, sizeof(*gp));
	char text[1024], *plan;
	unsigned int kb;
	size_t i, off;

	(void)state;
	assert_non_null(gp);
	off = (size_t)snprintf(text, sizeof(text), "%s", head);
	for (kb = PLAN_MTHP_KB_MIN, i = 0; kb <= PLAN_MTHP_KB_MAX; kb *= 2, i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"%s\"%u\": \"%s\"", i ? ", " : "",
					kb, i % 2 ? "never" : "always");
	snprintf(text + off, sizeof(text) - off, "%s", tail);
	assert_int_equal(i, PLAN_MAX_MTHP);
	if (scenario_parse(&scn, text, strlen(text), "m.json", err,
			   sizeof(err)))
		fail_msg("the host refuses every mTHP size: %s", err);
	plan = plan_text(&scn, 256, 2049);
	assert_non_null(plan);
	if (gplan_parse(plan, gp, err, sizeof(err)))
		fail_msg("the guest refuses every mTHP size: %s", err);
	assert_int_equal(gp->nmthp, PLAN_MAX_MTHP);
	assert_int_equal(gp->mthp[0].size_kb, PLAN_MTHP_KB_MIN);
	assert_int_equal(gp->mthp[PLAN_MAX_MTHP - 1].size_kb,
			 PLAN_MTHP_KB_MAX);
	assert_string_equal(gp->mthp[1].enabled, "never");
	free(plan);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s%s", head, bad[i], tail);
		if (!scenario_parse(&scn, text, strlen(text), "m.json", err,
				    sizeof(err)))
			fail_msg("the host takes mthp {%s}", bad[i]);
		assert_non_null(strstr(err, "mthp."));
	}
	/* on a line without mTHP the scenario contradicts itself */
	snprintf(text, sizeof(text),
		 "{\"name\": \"m\", \"kernel_line\": \"6.1\", \"mthp\": {\"64\": \"always\"%s",
		 tail);
	assert_int_equal(scenario_parse(&scn, text, strlen(text), "m.json",
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "mthp: kernel line 6.1 has no per-size mTHP (6.8 and later)"));
	/* the guest's side */
	if (gplan_parse("version 1\nmthp size_kb=32 enabled=madvise\nworkload seed=1 size_mb=8\n",
			gp, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(gp->mthp[0].size_kb, 32);
	assert_int_equal(gplan_parse("version 1\nmthp size_kb=8 enabled=always\n",
				     gp, err, sizeof(err)), -1);
	assert_int_equal(gplan_parse("version 1\nmthp size_kb=96 enabled=always\n",
				     gp, err, sizeof(err)), -1);
	assert_string_equal(err, "line 2: size_kb: 96 is not a power of two");
	assert_int_equal(gplan_parse("version 1\nmthp size_kb=64\n", gp, err,
				     sizeof(err)), -1);
	assert_int_equal(gplan_parse("version 1\nmthp size_kb=64 enabled=always\nmthp size_kb=64 enabled=never\n",
				     gp, err, sizeof(err)), -1);
	assert_string_equal(err, "line 3: mthp: size_kb=64 given twice");
	assert_int_equal(gplan_parse("version 1\nmthp size_kb=64 enabled=always mode=x\n",
				     gp, err, sizeof(err)), -1);
	free(gp);
}

/* Fault kinds, ops and trigger keys: one table, both ways. */
static void test_fault_names(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < PLAN_FAULTS; k++)
		assert_int_equal(plan_fault_parse(plan_fault_name(k)), k);
	for (k = 0; k < PLAN_FAULT_OPS; k++)
		assert_int_equal(plan_fault_op_parse(plan_fault_op_name(k)), k);
	for (k = 0; k < PLAN_TRIGGERS; k++)
		assert_int_equal(plan_trigger_parse(plan_trigger_key(k)), k);
	assert_string_equal(plan_fault_name(FAULT_NFS_RESTART), "nfs_restart");
	assert_string_equal(plan_fault_op_name(FOP_BOTH), "both");
	assert_string_equal(plan_trigger_key(TRIG_AFTER_TIME), "after_ms");
	assert_string_equal(plan_fault_name(PLAN_FAULTS), "?");
	assert_int_equal(plan_fault_parse("flood"), -1);
	assert_int_equal(plan_trigger_parse("after_s"), -1);
	assert_true(plan_fault_on_host(FAULT_NFS_STALL));
	assert_true(plan_fault_on_host(FAULT_NFS_RESTART));
	assert_false(plan_fault_on_host(FAULT_IO_ERROR));
	assert_false(plan_fault_on_host(FAULT_OOM));
	assert_false(plan_fault_on_host(FAULT_SLAB_ERROR));
	assert_string_equal(plan_fault_name(FAULT_SLAB_ERROR), "slab_error");
	for (k = 0; k < PLAN_SLAB_TASKS; k++)
		assert_int_equal(plan_slab_tasks_parse(plan_slab_tasks_name(k)),
				 k);
	assert_int_equal(plan_slab_tasks_parse("kernel"), -1);
	assert_true(plan_slab_cache_ok("kmalloc-32"));
	assert_true(plan_slab_cache_ok("dma-kmalloc-64"));
	assert_true(plan_slab_cache_ok(":0000032"));
	assert_false(plan_slab_cache_ok(""));
	assert_false(plan_slab_cache_ok("a,b"));
	assert_false(plan_slab_cache_ok("a b"));
	assert_false(plan_slab_cache_ok("a=b"));
	assert_true(plan_slab_cache_ok("abcdefghijklmnopqrstuvwxyz012345"));
	assert_false(plan_slab_cache_ok("abcdefghijklmnopqrstuvwxyz0123456"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_text),
		cmocka_unit_test(test_guest_agrees),
		cmocka_unit_test(test_limits_agree),
		cmocka_unit_test(test_mthp_agrees),
		cmocka_unit_test(test_fault_names),
		cmocka_unit_test(test_plan_check),
		cmocka_unit_test(test_initrd),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_brd_plan),
		cmocka_unit_test(test_command_plan),
		cmocka_unit_test(test_guest_agrees_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
