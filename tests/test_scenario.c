// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the scenario parser: defaults, every shipped file, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "scenario.h"

static struct scenario scn;
static char err[1024];

static int parse(const char *text)
{
	err[0] = '\0';
	return scenario_parse(&scn, text, strlen(text), "t.json", err,
			      sizeof(err));
}

#define MIN_SWAP "\"swap\": [{\"type\": \"blk\", \"size_mb\": 64}]"
#define ZRAM9 "{\"type\": \"zram\", \"size_mb\": 9}"
#define WL_RAM2 "{\"size_ram\": 2.0, \"phases\": [\"fill\"]}"
#define PRESS40 "{\"name\": \"pressure\", \"mb\": 40}"
#define MIN_WL "\"workload\": {\"size_mb\": 32, \"phases\": [\"fill\"]}"

static void test_minimal_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"name\": \"m\", " MIN_SWAP ", " MIN_WL "}"),
			 0);
	assert_string_equal(scn.name, "m");
	assert_int_equal(scn.nkernels, 2);
	assert_string_equal(scn.kernels[0], "baseline");
	assert_string_equal(scn.kernels[1], "patched");
	assert_int_equal(scn.nnoreg, 0);
	assert_int_equal(scn.interval_ms, 100);
	assert_int_equal(scn.timeout_s, 300);
	assert_int_equal(scn.repeat, 1);
	assert_int_equal(scn.memory_mb, 0);
	assert_int_equal(scn.nswap, 1);
	assert_int_equal(scn.swap[0].type, SWAP_BLK);
	assert_int_equal(scn.swap[0].prio, -1);
	assert_string_equal(scn.swap[0].dev, "vda");
	assert_int_equal(scn.seed, 12345);
	assert_int_equal(scn.zswap_enabled, -1);
	assert_int_equal(scn.nphases, 1);
	assert_int_equal(scn.nexpect, 0);
	assert_false(scn.has_verify_seed);
	assert_string_equal(scn.kernel_line, "");
	assert_int_equal(parse("{\"name\": \"m\", \"kernel_line\": \"6.12\", "
			       MIN_SWAP ", " MIN_WL "}"), 0);
	assert_string_equal(scn.kernel_line, "6.12");
}

static void test_full(void **state)
{
	static const char text[] =
		"{\"name\": \"full\", \"kernels\": [\"patched\"],\n"
		" \"guest\": {\"memory_mb\": 512, \"cpus\": 4},\n"
		" \"interval_ms\": 50, \"timeout_s\": 60, \"repeat\": 3,\n"
		" \"sysctl\": {\"vm.swappiness\": 60, \"vm.page-cluster\": \"0\"},\n"
		" \"thp\": {\"enabled\": \"madvise\", \"defrag\": \"defer+madvise\"},\n"
		" \"zswap\": {\"enabled\": false, \"max_pool_percent\": 20},\n"
		" \"swap\": [{\"type\": \"zram\", \"size_mb\": 100, \"comp\": \"lz4\"},\n"
		"   {\"type\": \"blk\", \"size_mb\": 100, \"prio\": 3},\n"
		"   {\"type\": \"ext4file\", \"size_mb\": 100},\n"
		"   {\"type\": \"nfsfile\", \"size_mb\": 100, \"vers\": \"4.2\"}],\n"
		" \"workload\": {\"seed\": 7, \"size_ram\": 0.5, \"shmem_mb\": 8,\n"
		"   \"thp\": true, \"verify_seed\": 8, \"phases\": [\"fill\",\n"
		"   {\"name\": \"pressure\", \"mb\": 64}, {\"name\": \"read\",\n"
		"   \"order\": \"random\"}, {\"name\": \"rewrite\", \"frac\": 0.5}]},\n"
		" \"expect\": [{\"metric\": \"write_pages_per_io\", \"kernel\":\n"
		"   \"patched\", \"min\": 8}]}\n";

	(void)state;
	assert_int_equal(parse(text), 0);
	assert_int_equal(scn.nkernels, 1);
	assert_string_equal(scn.kernels[0], "patched");
	assert_int_equal(scn.memory_mb, 512);
	assert_int_equal(scn.cpus, 4);
	assert_int_equal(scn.repeat, 3);
	assert_int_equal(scn.nsysctl, 2);
	assert_string_equal(scn.sysctl[1].key, "vm.page-cluster");
	assert_string_equal(scn.sysctl[1].value, "0");
	assert_string_equal(scn.thp_defrag, "defer+madvise");
	assert_int_equal(scn.zswap_enabled, 0);
	assert_int_equal(scn.zswap_max_pool_percent, 20);
	assert_int_equal(scn.nswap, 4);
	assert_string_equal(scn.swap[0].comp, "lz4");
	assert_string_equal(scn.swap[0].dev, "");
	assert_string_equal(scn.swap[1].dev, "vda");
	assert_int_equal(scn.swap[1].prio, 3);
	assert_string_equal(scn.swap[2].dev, "vdb");
	assert_true(scn.swap[2].disk_mb > scn.swap[2].size_mb);
	assert_string_equal(scn.swap[3].vers, "4.2");
	assert_int_equal(scn.ndisks, 2);
	assert_true(scn_has_nfs(&scn));
	assert_int_equal(scenario_size_mb(&scn, 512), 256);
	assert_true(scn.has_verify_seed);
	assert_int_equal(scn.verify_seed, 8);
	assert_int_equal(scn.nphases, 4);
	assert_int_equal(scn.phase[1].kind, PHASE_PRESSURE);
	assert_int_equal(scn.phase[1].mb, 64);
	assert_true(scn.phase[2].random);
	assert_true(scn.phase[3].frac == 0.5);
	assert_int_equal(scn.nexpect, 1);
	assert_string_equal(scn.expect[0].kernel, "patched");
	assert_string_equal(scn.expect[0].vs, "");
	assert_true(scn.expect[0].has_min);
	assert_false(scn.expect[0].has_max);
}

static void test_slab_error(void **state)
{
	static const char text[] =
		"{\"name\": \"s\", " MIN_SWAP ",\n"
		" \"workload\": {\"size_mb\": 32, \"phases\": [\"fill\", \"pageout\", \"read\"]},\n"
		" \"faults\": [{\"kind\": \"slab_error\", \"probability\": 100,\n"
		"   \"times\": 2147483647, \"interval\": 3, \"tasks\": \"all\",\n"
		"   \"atomic_only\": false, \"caches\": [\"kmalloc-32\", \"zs_handle\"],\n"
		"   \"trigger\": {\"phase\": 1}, \"until_phase\": 2}]}\n";
	static const char defaults[] =
		"{\"name\": \"s\", " MIN_SWAP ", " MIN_WL ",\n"
		" \"faults\": [{\"kind\": \"slab_error\", \"probability\": 1,\n"
		"   \"trigger\": {\"after_swap_ios\": 10}, \"duration_s\": 2}]}\n";
	char buf[SCN_SLUB_DEBUG_MAX];
	const struct scn_fault *f = &scn.fault[0];
	int i;

	(void)state;
	if (parse(text))
		fail_msg("%s", err);
	assert_int_equal(scn.nfaults, 1);
	assert_int_equal(f->kind, FAULT_SLAB_ERROR);
	assert_int_equal(f->swap, -1);
	assert_int_equal(f->probability, 100);
	assert_int_equal(f->times, PLAN_SLAB_TIMES_MAX);
	assert_int_equal(f->interval, 3);
	assert_int_equal(f->tasks, SLAB_TASKS_ALL);
	assert_false(f->atomic_only);
	assert_int_equal(f->ncaches, 2);
	assert_string_equal(f->caches[1], "zs_handle");
	assert_int_equal(f->until_phase, 2);
	assert_int_equal(scn_slub_debug(&scn, buf, sizeof(buf)),
			 (int)strlen("slub_debug=A,kmalloc-32,zs_handle"));
	assert_string_equal(buf, "slub_debug=A,kmalloc-32,zs_handle");
	/* cut short, still a string; the return says how long it is */
	assert_int_equal(scn_slub_debug(&scn, buf, 14), 33);
	assert_string_equal(buf, "slub_debug=A,");

	/* the defaults: the workload's atomic allocations, every cache */
	if (parse(defaults))
		fail_msg("%s", err);
	assert_int_equal(f->tasks, SLAB_TASKS_WORKLOAD);
	assert_true(f->atomic_only);
	assert_int_equal(f->ncaches, 0);
	assert_int_equal(f->times, 0);
	assert_int_equal(f->interval, 0);
	assert_true(f->duration_s == 2);
	assert_int_equal(scn_slub_debug(&scn, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");

	/* the longest slub_debug= fits SCN_SLUB_DEBUG_MAX */
	scn.fault[0].ncaches = PLAN_SLAB_MAX_CACHES;
	for (i = 0; i < PLAN_SLAB_MAX_CACHES; i++) {
		memset(scn.fault[0].caches[i], 'a' + i, PLAN_SLAB_CACHE_LEN);
		scn.fault[0].caches[i][PLAN_SLAB_CACHE_LEN] = '\0';
	}
	assert_int_equal(scn_slub_debug(&scn, buf, sizeof(buf)),
			 (int)sizeof(buf) - 1);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
}

/*
 * brd: one per scenario, at most the guest's memory, its size on the
 * kernel command line (scn_brd_args); zswap's accept_threshold_percent.
 */
static void test_brd_zswap(void **state)
{
	static const char text[] =
		"{\"name\": \"b\", \"guest\": {\"memory_mb\": 256},\n"
		" \"zswap\": {\"enabled\": true, \"max_pool_percent\": 5,\n"
		"   \"accept_threshold_percent\": 100},\n"
		" \"swap\": [{\"type\": \"brd\", \"size_mb\": 96, \"prio\": 3}],\n"
		" " MIN_WL "}";
	char buf[PLAN_BRD_ARGS_MAX];

	(void)state;
	if (parse(text))
		fail_msg("%s", err);
	assert_int_equal(scn.swap[0].type, SWAP_BRD);
	assert_int_equal(scn.swap[0].size_mb, 96);
	assert_string_equal(scn.swap[0].dev, "");	/* no host disk */
	assert_int_equal(scn.ndisks, 0);
	assert_int_equal(scn.zswap_accept_percent, 100);
	assert_int_equal(scn_brd_args(&scn, buf, sizeof(buf)),
			 (int)strlen("brd.rd_nr=1 brd.rd_size=98304"));
	assert_string_equal(buf, "brd.rd_nr=1 brd.rd_size=98304");
	/* the largest size fits PLAN_BRD_ARGS_MAX */
	scn.swap[0].size_mb = PLAN_MB_MAX;
	assert_true(scn_brd_args(&scn, buf, sizeof(buf)) <
		    (int)sizeof(buf));
	/* without brd: nothing on the command line */
	assert_int_equal(parse("{\"name\": \"m\", " MIN_SWAP ", " MIN_WL "}"),
			 0);
	assert_int_equal(scn_brd_args(&scn, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(scn.zswap_accept_percent, 0);
	/* brd keeps its pages in RAM: the workload must fit beside it */
	assert_int_equal(parse("{\"name\": \"b\", \"swap\": [{\"type\": \"brd\", \"size_mb\": 64}], "
			       "\"workload\": {\"size_mb\": 160, \"phases\": [\"fill\"]}}"),
			 0);
	assert_int_equal(scenario_check_fit(&scn, 256, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "64 of brd (of its 64: in RAM, uncompressed)"));
	assert_int_equal(scenario_check_fit(&scn, 512, err, sizeof(err)), 0);
}

static void test_kernels_and_relative(void **state)
{
	static const char text[] =
		"{\"name\": \"n\", \"kernels\": [\"baseline\", \"patched\", \"bhe-ops\"],\n"
		" " MIN_SWAP ", " MIN_WL ",\n"
		" \"no_regression\": [\"pswpout\", \"workload_seconds\"],\n"
		" \"expect\": [{\"metric\": \"pswpout\", \"kernel\": \"bhe-ops\",\n"
		"   \"vs\": \"baseline\", \"min_ratio\": 0.98, \"max_ratio\": 1.5},\n"
		"  {\"metric\": \"pages_corrupt\", \"max\": 0}]}\n";

	(void)state;
	assert_int_equal(parse(text), 0);
	assert_int_equal(scn.nkernels, 3);
	assert_string_equal(scn.kernels[2], "bhe-ops");
	assert_int_equal(scn_kernel_index(&scn, "bhe-ops"), 2);
	assert_int_equal(scn_kernel_index(&scn, "swap-ops"), -1);
	assert_int_equal(scn.nnoreg, 2);
	assert_string_equal(scn.no_regression[1], "workload_seconds");
	assert_int_equal(scn.nexpect, 2);
	assert_string_equal(scn.expect[0].kernel, "bhe-ops");
	assert_string_equal(scn.expect[0].vs, "baseline");
	assert_true(scn.expect[0].has_min && scn.expect[0].min == 0.98);
	assert_true(scn.expect[0].has_max && scn.expect[0].max == 1.5);
	assert_string_equal(scn.expect[1].kernel, "");
	/* --kernels */
	assert_int_equal(scn_set_kernels(&scn, "swap-ops,baseline", err,
					 sizeof(err)), 0);
	assert_int_equal(scn.nkernels, 2);
	assert_string_equal(scn.kernels[0], "swap-ops");
	assert_int_equal(scn_set_kernels(&scn, "a,a", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'a' is listed twice"));
	assert_int_equal(scn_set_kernels(&scn, "x/y", err, sizeof(err)), -1);
	assert_int_equal(scn_set_kernels(&scn, ",", err, sizeof(err)), -1);
	/* an empty name between commas is not skipped (issue 33, item 10) */
	assert_int_equal(scn_set_kernels(&scn, "baseline,,patched", err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "'' is empty"));
	assert_int_equal(scn_set_kernels(&scn, "baseline,", err,
					 sizeof(err)), -1);
	/* "each" is an expectation's word for every kernel (item 8) */
	assert_int_equal(scn_set_kernels(&scn, "baseline,each", err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "is reserved"));
}

static void expect_parse_error(const char *text, size_t len,
			       const char *want)
{
	static struct scenario scn;
	char err[1024];

	assert_int_equal(scenario_parse(&scn, text, len, "t.json", err,
					sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
}

/* parse errors name the key path, in our words (issue 33, 11 and 12) */
static void test_parse_error_paths(void **state)
{
	static const char big[] =
		"{\"name\": \"x\", \"swap\": [{\"type\": \"zram\"}, {\"type\": \"zram\", \"size_mb\": 99999999999999999999999}]}";
	static const char nul[] = "{\"name\": \"a\\u0000b\"}";
	static const char bom[] = "\xef\xbb\xbf{\"name\": \"x\"}";
	static const char deep[] = "{\"guest\": {\"memory_mb\": 1e999}}";

	(void)state;
	expect_parse_error(big, strlen(big),
			   "t.json:1:92: swap[1].size_mb: an integer above 2^63-1");
	expect_parse_error(nul, strlen(nul),
			   "name: \\u0000 (a NUL character) in a string");
	expect_parse_error(bom, strlen(bom),
			   "t.json:1:1: starts with a UTF-8 byte order mark");
	expect_parse_error(deep, strlen(deep), "guest.memory_mb: ");
}

/* validate refuses what run refuses (issue 33, item 8) */
static void test_run_rules(void **state)
{
	static const char each[] =
		"{\"name\": \"x\", \"kernels\": [\"baseline\", \"each\"]}";
	static struct scenario scn;
	char err[1024];

	(void)state;
	assert_int_equal(scenario_parse(&scn, each, strlen(each), "e.json", err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "kernels[1]: \"each\" is reserved"));
	assert_int_equal(scenario_load(&scn, "scenarios/zram-swap.json", err,
				       sizeof(err)), 0);
	assert_int_equal(scn_set_kernels(&scn, "patched,swap-ops", err,
					 sizeof(err)), 0);
	assert_int_equal(scn_check_kernels(&scn, "swap-ops", err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "\"patched\" is \"swap-ops\""));
	assert_int_equal(scn_check_kernels(&scn, "bhe-ops", err, sizeof(err)),
			 0);
	assert_int_equal(scenario_load(&scn, "scenarios/mthp-swap.json", err,
				       sizeof(err)), 0);
	assert_int_equal(scn_check_line(&scn, "6.1", "swapctl.conf", err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "mthp-swap.json: mthp: kernel line 6.1"));
	assert_int_equal(scn_check_line(&scn, "6.12", "--line", err,
					sizeof(err)), 0);
}

static void test_shipped(void **state)
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
		"scenarios/fault-slab-batch.json",
		"scenarios/kernel-build.json", "scenarios/kernel-build-zram.json",
		"scenarios/stress-ng.json", "scenarios/stress-ng-zram.json",
		"scenarios/usemem.json", "scenarios/usemem-zram.json",
		"scenarios/memcg-pair.json", "scenarios/memcg-pair-zram.json",
		"scenarios/zswap-swap.json", "scenarios/zswap-swap-6.12.json",
		"scenarios/designs-zswap-swap.json",
		"scenarios/brd-swap.json", "scenarios/designs-brd-swap.json",
		"scenarios/redis-swap.json", "scenarios/redis-bgsave-swap.json",
		"tests/fixtures/redis-short.json",
		"scenarios/usemem-vmscalability.json",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		static const char *const must[] = {
			"pswpout", "pswpin", "pageout_evicted",
			"workload_seconds",
		};
		size_t j;
		int k;

		if (scenario_load(&scn, files[i], err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(scenario_check_fit(&scn, 256, err,
						    sizeof(err)), 0);
		/*
		 * every shipped scenario guards the same four metrics, but
		 * the fault scenarios: they measure outcomes (corrupt,
		 * failed pages), and a fault changes swap traffic and time
		 * by design; and the command workloads: how much a real
		 * program swaps is not better or worse in itself, and a
		 * time-bounded one (stress-ng) does more when it runs faster;
		 * with zswap on, pages swapped out and in to the device are
		 * what zswap's shrink worker (a workqueue) wrote back by then,
		 * a matter of timing (6.12: 0.93x pswpin between two kernels
		 * of one run on a loaded host), so those guard only the other
		 * two
		 */
		for (j = 0; j < ARRAY_SIZE(must) && !scn.nfaults &&
		     !scn.command; j++) {
			if (scn.zswap_enabled == 1 &&
			    (!strcmp(must[j], "pswpout") ||
			     !strcmp(must[j], "pswpin")))
				continue;
			for (k = 0; k < scn.nnoreg; k++)
				if (!strcmp(scn.no_regression[k], must[j]))
					break;
			if (k == scn.nnoreg)
				fail_msg("%s: no_regression lacks %s",
					 files[i], must[j]);
		}
	}
	/* multi-device: two disks of equal priority */
	assert_int_equal(scenario_load(&scn, "scenarios/multi-device.json",
				       err, sizeof(err)), 0);
	assert_int_equal(scn.ndisks, 2);
	assert_int_equal(scn.swap[0].prio, scn.swap[1].prio);
	assert_int_equal(scenario_load(&scn, "scenarios/nope.json", err,
				       sizeof(err)), -1);
	assert_non_null(strstr(err, "scenarios/nope.json: "));
}

/* One bad input and the exact message (file:line:column: path: what). */
struct bad {
	const char *text;
	const char *msg;
};

static const struct bad bads[] = {
	{ "{\"name\": \"x\",\n \"swap\": [}",
	  "t.json:2:11: " },	/* jansson's syntax error position */
	{ "{\"name\": \"x\", \"name\": \"y\"}",
	  "a key given twice" },
	{ "[1]", "t.json:1:1: a scenario is a JSON object, not an array" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"brd\", \"size_mb\": 8},\n"
	  " {\"type\": \"brd\", \"size_mb\": 8}], " MIN_WL "}",
	  "t.json:2:2: swap[1]: only one brd backend per scenario (brd's size is a boot parameter of all its devices)" },
	{ "{\"name\": \"x\", \"guest\": {\"memory_mb\": 128},\n"
	  " \"swap\": [{\"type\": \"brd\", \"size_mb\": 200}], " MIN_WL "}",
	  "swap[0].size_mb: a 200 MiB brd device is more than the guest's 128 MiB of RAM" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"brd\", \"size_mb\": 8, \"comp\": \"lz4\"}], " MIN_WL "}",
	  "swap[0].comp: only zram has a compressor" },
	{ "{\"name\": \"x\", \"zswap\": {\"accept_threshold_percent\": 0}, " MIN_SWAP ", " MIN_WL "}",
	  "zswap.accept_threshold_percent: 0 is out of range 1..100" },
	{ "{\"name\": \"x\",\n  \"bogus\": 1, " MIN_SWAP ", " MIN_WL "}",
	  "t.json:2:12: bogus: unknown key (known: name, " },
	{ "{\"name\": \"x\", " MIN_SWAP ",\n \"workload\": {\"size_mb\": \"big\", \"phases\": [\"fill\"]}}",
	  "t.json:2:26: workload.size_mb: expected an integer, got a string" },
	{ "{\"name\": \"a/b\", " MIN_SWAP ", " MIN_WL "}",
	  "t.json:1:10: name: \"a/b\" must be letters" },
	{ "{" MIN_SWAP ", " MIN_WL "}", "t.json:1:1: missing key \"name\"" },
	{ "{\"name\": \"x\", " MIN_WL "}", "missing key \"swap\"" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 64},\n"
	  " {\"type\": \"tape\", \"size_mb\": 1}], " MIN_WL "}",
	  "t.json:2:11: swap[1].type: \"tape\" is not one of: blk, zram, ext4file, nfsfile" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 0}], "
	  MIN_WL "}", "swap[0].size_mb: 0 is out of range 1..1048576" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 9, \"comp\": \"lz4\"}], "
	  MIN_WL "}", "swap[0].comp: only zram has a compressor" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 9, \"mem_limit_mb\": 4}], "
	  MIN_WL "}", "swap[0].mem_limit_mb: only zram has a mem_limit" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"zram\", \"size_mb\": 9, \"mem_limit_mb\": 0}], "
	  MIN_WL "}", "swap[0].mem_limit_mb: 0 is out of range 1..1048576" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"zram\", \"size_mb\": 9, \"nonrot\": true}], "
	  MIN_WL "}", "swap[0].nonrot: only blk disks can be marked non-rotational" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 9, \"nonrot\": 1}], "
	  MIN_WL "}", "swap[0].nonrot: expected true or false" },
	{ "{\"name\": \"x\", \"swap\": [" ZRAM9 ", " ZRAM9 "], " MIN_WL "}",
	  "swap[1]: only one zram backend per scenario" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"nfsfile\", \"size_mb\": 9, \"vers\": \"3\"}], "
	  MIN_WL "}", "swap[0].vers: \"3\" is not one of: 4.0, 4.1, 4.2" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"ext4file\", \"size_mb\": 100, \"disk_mb\": 100}], "
	  MIN_WL "}", "swap[0].disk_mb: 100 MiB is too small" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"pageout\"]}}",
	  "workload.phases[0]: the first phase must be \"fill\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", \"dance\"]}}",
	  "workload.phases[1]: unknown phase \"dance\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", \"pressure\"]}}",
	  "workload.phases[1]: pressure needs" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", {\"name\": \"fill\", \"mb\": 3}]}}",
	  "workload.phases[1].mb: phase fill takes no \"mb\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", {\"name\": \"read\", \"wait_writeback\": true}]}}",
	  "workload.phases[1].wait_writeback: phase read takes no \"wait_writeback\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", {\"name\": \"pageout\", \"wait_writeback\": 1}]}}",
	  "workload.phases[1].wait_writeback: expected true or false, got" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", {\"name\": \"pressure\", \"mb\": 2, \"drain_lru\": true}]}}",
	  "workload.phases[1].drain_lru: phase pressure takes no \"drain_lru\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", {\"name\": \"pageout\", \"drain_lru\": \"yes\"}]}}",
	  "workload.phases[1].drain_lru: expected true or false, got" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"phases\": [\"fill\", {\"name\": \"rewrite\", \"frac\": 1.5}]}}",
	  "workload.phases[1].frac: 1.5 is out of range 0..1" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"size_mb\": 1, \"size_ram\": 0.5, \"phases\": [\"fill\"]}}",
	  "workload.size_ram: give exactly one of size_mb and size_ram" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"phases\": [\"fill\"]}}",
	  "workload: give exactly one of size_mb and size_ram" },
	{ "{\"name\": \"x\", \"kernels\": [\"patched\", \"patched\"], " MIN_SWAP ", " MIN_WL "}",
	  "kernels[1]: \"patched\" is listed twice" },
	{ "{\"name\": \"x\", \"kernels\": [], " MIN_SWAP ", " MIN_WL "}",
	  "kernels: needs 1 to 32 entries, has 0" },
	{ "{\"name\": \"x\", \"kernel_line\": \"6\", " MIN_SWAP ", " MIN_WL "}",
	  "kernel_line: \"6\" is not a kernel line: MAJOR.MINOR, as 6.1 or 6.12" },
	{ "{\"name\": \"x\", \"kernel_line\": \"6.1.2\", " MIN_SWAP ", " MIN_WL "}",
	  "kernel_line: \"6.1.2\" is not a kernel line" },
	{ "{\"name\": \"x\", \"kernel_line\": \"v6.12\", " MIN_SWAP ", " MIN_WL "}",
	  "kernel_line: \"v6.12\" is not a kernel line" },
	{ "{\"name\": \"x\", \"kernel_line\": 6.1, " MIN_SWAP ", " MIN_WL "}",
	  "kernel_line: expected a string, got" },
	{ "{\"name\": \"x\", \"kernels\": [\"../x\"], " MIN_SWAP ", " MIN_WL "}",
	  "kernels[0]: \"../x\" must not start with '.' or '-'" },
	{ "{\"name\": \"x\", \"kernels\": [\"a/b\"], " MIN_SWAP ", " MIN_WL "}",
	  "kernels[0]: \"a/b\" must be letters, digits" },
	{ "{\"name\": \"x\", \"kernels\": [\"patched\"], " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\", \"kernel\": \"baseline\", \"min\": 1}]}",
	  "t.json:2:45: expect[0].kernel: \"baseline\" is not in \"kernels\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\", \"kernel\": \"patched\", \"vs\": \"bhe-ops\", \"min_ratio\": 1}]}",
	  "expect[0].vs: \"bhe-ops\" is not in \"kernels\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\", \"kernel\": \"patched\", \"vs\": \"baseline\", \"min\": 1}]}",
	  "expect[0]: with \"vs\" give \"min_ratio\"/\"max_ratio\", not \"min\"/\"max\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\", \"vs\": \"baseline\", \"min_ratio\": 1}]}",
	  "expect[0].vs: needs a \"kernel\" to compare with \"baseline\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\", \"kernel\": \"patched\", \"max_ratio\": 1}]}",
	  "expect[0]: \"min_ratio\"/\"max_ratio\" need \"vs\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"speed\", \"min\": 1}]}",
	  "expect[0].metric: \"speed\" is not a metric (swapctl metrics lists them: pswpout" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ", \"no_regression\": [\"speed\"]}",
	  "no_regression[0]: \"speed\" is not a metric" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ", \"no_regression\": [\"swap_peak_mib\"]}",
	  "no_regression[0]: \"swap_peak_mib\" is neutral" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ", \"no_regression\": [\"pswpout\", \"pswpout\"]}",
	  "no_regression[1]: \"pswpout\" is listed twice" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\"}]}",
	  "expect[0]: give \"min\", \"max\" or both" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"expect\": [{\"metric\": \"pswpout\", \"min\": 5, \"max\": 1}]}",
	  "expect[0]: min 5 is above max 1" },
	{ "{\"name\": \"x\", \"sysctl\": {\"vm.swappiness\": \"a b\"}, " MIN_SWAP ", " MIN_WL "}",
	  "sysctl.vm.swappiness: expected an integer or a one-word string" },
	{ "{\"name\": \"x\", \"sysctl\": {\"../../etc\": 1}, " MIN_SWAP ", " MIN_WL "}",
	  "not a sysctl name" },
	/* found by fuzz_scenario: the guest refuses '+' in a sysctl name */
	{ "{\"name\": \"x\", \"sysctl\": {\"v+m.x\": 1}, " MIN_SWAP ", " MIN_WL "}",
	  "sysctl.v+m.x: not a sysctl name" },
	{ "{\"name\": \"x\", \"sysctl\": {\"vm.\": 1}, " MIN_SWAP ", " MIN_WL "}",
	  "sysctl.vm.: not a sysctl name" },
	{ "{\"name\": \"x\", \"sysctl\": {\"vm.x\": \"/etc\"}, " MIN_SWAP ", " MIN_WL "}",
	  "sysctl.vm.x: expected an integer or a one-word string" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"zram\", \"size_mb\": 9, \"comp\": \"lz+4\"}], " MIN_WL "}",
	  "swap[0].comp: \"lz+4\" must be one word of letters, digits and _.-" },
	/* control characters never reach the one-line message */
	{ "{\"name\": \"x\",\n \"a\\nb\": 1}", "a?b: unknown key" },
	{ "{\"name\": \"x\", \"thp\": {\"enabled\": \"sometimes\"}, " MIN_SWAP ", " MIN_WL "}",
	  "thp.enabled: \"sometimes\" is not one of: always, madvise, never" },
	{ "{\"name\": \"x\", \"zswap\": {\"enabled\": 1}, " MIN_SWAP ", " MIN_WL "}",
	  "zswap.enabled: expected true or false, got an integer" },
	{ "{\"name\": \"x\", \"interval_ms\": 5, " MIN_SWAP ", " MIN_WL "}",
	  "interval_ms: 5 is out of range 10..60000" },
	{ "{\"name\": \"x\", \"timeout_s\": -1, " MIN_SWAP ", " MIN_WL "}",
	  "timeout_s: -1 is out of range 5..86400" },
	{ "{\"name\": \"x\", \"guest\": {\"memory_mb\": 128}, " MIN_SWAP ",\n"
	  " \"workload\": {\"size_mb\": 1000, \"phases\": [\"fill\"]}}",
	  "t.json:2:26: workload.size_mb: 1000 MiB (+0 MiB shmem, +0 MiB pressure) cannot fit" },
	{ "{\"name\": \"x\", \"guest\": {\"memory_mb\": 64}, \"swap\": [{\"type\": \"zram\", \"size_mb\": 1000}],\n"
	  " \"workload\": {\"size_mb\": 10, \"phases\": [\"fill\"]}}",
	  "swap[0].size_mb: a 1000 MiB zram device is more than 4x" },
	/* a pressure phase allocates beside the area */
	{ "{\"name\": \"x\", \"guest\": {\"memory_mb\": 128}, " MIN_SWAP ",\n"
	  " \"workload\": {\"size_mb\": 60, \"phases\": [\"fill\", " PRESS40 "]}}",
	  "workload.size_mb: 60 MiB (+0 MiB shmem, +40 MiB pressure) cannot fit in 64 MiB of swap plus 1/4" },
	/* zram keeps incompressible data in RAM: no room gained */
	{ "{\"name\": \"x\", \"guest\": {\"memory_mb\": 256}, \"swap\": [{\"type\": \"zram\", \"size_mb\": 384}],\n"
	  " \"workload\": {\"size_mb\": 240, \"phases\": [\"fill\"]}}",
	  "workload.size_mb: 240 MiB (+0 MiB shmem, +0 MiB pressure) cannot fit in 0 MiB of disk swap, 64 MiB of zram (of its 384 MiB" },
	{ "{\"name\": \"x\", \"guest\": {\"memory_mb\": 256}, \"swap\": [{\"type\": \"blk\", \"size_mb\": 1048576}],\n"
	  " \"workload\": {\"size_mb\": 24, \"phases\": [\"fill\"]}}",
	  "swap[0].size_mb: 1048576 MiB of swap needs 262144 KiB of swap map" },
	{ "{\"name\": \"x\", " MIN_SWAP ",\n"
	  " \"workload\": {\"size_mb\": 8, \"phases\": [\"fill\", \"pageout\", \"fill\"]}}",
	  "t.json:2:59: workload.phases[2]: \"fill\" only once, as the first phase" },
	{ "{\"name\": \"x\", \"swap\": [1], " MIN_WL "}",
	  "swap[0]: expected an object, got an integer" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"blk\", \"size_mb\": 9, \"prio\": 40000}], " MIN_WL "}",
	  "swap[0].prio: 40000 is out of range -1..32767" },
	/* faults */
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"meteor\"}]}",
	  "t.json:2:22: faults[0].kind: \"meteor\" is not one of: io_error, nfs_stall" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\"}]}",
	  "faults[0]: missing key \"trigger\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\", \"trigger\": {\"phase\": 0, \"after_s\": 1}}]}",
	  "faults[0].trigger: give exactly one of \"phase\", \"after_s\" and \"after_swap_ios\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\", \"trigger\": {\"phase\": 1}}]}",
	  "faults[0].trigger.phase: phase 1: the workload has 1 phases" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\", \"trigger\": {\"when\": 1}}]}",
	  "faults[0].trigger.when: unknown key" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\", \"swap\": 0, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].swap: oom takes no \"swap\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\", \"trigger\": {\"phase\": 0}, \"duration_s\": 3}]}",
	  "faults[0].duration_s: oom takes no \"duration_s\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"swapoff\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0]: swapoff needs \"swap\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"swapoff\", \"swap\": 1, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].swap: swap 1: the scenario has 1 swap backends" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"nfs_stall\", \"trigger\": {\"phase\": 0}, \"duration_s\": 3}]}",
	  "faults[0]: nfs_stall needs an nfsfile swap backend" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"nfsfile\", \"size_mb\": 64}], " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"nfs_restart\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0]: nfs_restart needs a \"duration_s\" greater than 0" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"swapoff\", \"swap\": 0, \"op\": \"read\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].op: only io_error takes \"op\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"swap_churn\", \"swap\": 0, \"duration_s\": 2, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0]: missing key \"period_ms\"" },
	{ "{\"name\": \"x\", \"swap\": [" ZRAM9 "], " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"write\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].op: op \"write\" needs a blk backend" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"read\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0]: op \"read\" needs \"slots\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"read\", \"trigger\": {\"phase\": 0},\n"
	  "   \"slots\": {\"first\": 16380, \"count\": 10}}]}",
	  "faults[0].slots: slots 16380-16389 are beyond the 64 MiB swap area" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"both\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0]: op \"both\" needs \"probability\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"write\", \"times\": 3, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].times: only op \"both\" takes \"times\" and \"interval\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"write\", \"trigger\": {\"phase\": 0}},\n"
	  "  {\"kind\": \"io_error\", \"swap\": 0, \"op\": \"write\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[1]: swap 0 already has a read or write io_error (faults[0])" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"write\", \"until_phase\": 1, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].until_phase: an io_error or a swapoff with a phase trigger ends at a later phase of the workload (1 phases)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"swap_churn\", \"swap\": 0, \"until_phase\": 1, \"duration_s\": 1, \"period_ms\": 10, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].until_phase: an io_error or a swapoff with a phase trigger ends at a later phase of the workload (1 phases)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " "\"workload\": {\"size_mb\": 32, \"phases\": [\"fill\", \"pageout\", \"read\"]}" ",\n"
	  " \"faults\": [{\"kind\": \"swapoff\", \"swap\": 0, \"until_phase\": 2, \"duration_s\": 1, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].until_phase: a swapoff ends at until_phase or after duration_s, not both" },
	/* slab_error (failslab) */
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"trigger\": {\"phase\": 0}}]}",
	  "t.json:2:13: faults[0]: missing key \"probability\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"swap\": 0, \"probability\": 5, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].swap: slab_error takes no \"swap\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 101, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].probability: 101 is out of range 1..100" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"times\": 2147483648, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].times: 2147483648 is out of range 1..2147483647" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"op\": \"both\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].op: only io_error takes \"op\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"tasks\": \"kernel\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].tasks: \"kernel\" is not one of: workload, all" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"atomic_only\": 1, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].atomic_only: expected true or false, got an integer" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"caches\": [], \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches: needs 1 to 8 entries, has 0" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"caches\": \"kmalloc-32\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches: expected an array, got a string" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"caches\": [\"kmalloc-32\", \"a,b\"], \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches[1]: \"a,b\" is not a slab cache name (1 to 32 letters, digits, '_', '-', '.' and ':', as in /proc/slabinfo)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"caches\": [\"\"], \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches[0]: \"\" is not a slab cache name" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"caches\": [\"k\", 3], \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches[1]: expected a slab cache name (a string), got an integer" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"caches\": [\"k\", \"k\"], \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches[1]: \"k\" is listed twice" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"until_phase\": 1, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].until_phase: a slab_error with a phase trigger ends at a later phase of the workload (1 phases)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"slab_error\", \"probability\": 5, \"trigger\": {\"phase\": 0}},\n"
	  "  {\"kind\": \"slab_error\", \"probability\": 5, \"trigger\": {\"after_s\": 9}}]}",
	  "t.json:3:3: faults[1]: faults[0] already is a slab_error: one per scenario (failslab has one set of settings)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"oom\", \"caches\": [\"k\"], \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].caches: only slab_error takes \"caches\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"swapoff\", \"swap\": 0, \"probability\": 5, \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].probability: only io_error and slab_error take \"probability\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " MIN_WL ",\n"
	  " \"faults\": [{\"kind\": \"io_error\", \"swap\": 0, \"op\": \"both\", \"probability\": 5, \"tasks\": \"all\", \"trigger\": {\"phase\": 0}}]}",
	  "faults[0].tasks: only slab_error takes \"tasks\"" },
};

#define CMD_WL(groups) "\"workload\": {\"command\": {\"reference\": false, \"groups\": [" groups "]}}"
#define G1 "{\"name\": \"a\", \"argv\": [\"true\"]}"

static const struct bad cmd_bads[] = {
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"command\": {\"groups\": [" G1 "]}, \"seed\": 1}}",
	  "workload.seed: a command workload takes no other key" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"command\": {\"groups\": [" G1 "]}}}",
	  "workload.command: \"reference\": true needs a group with \"outputs\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"command\": {}}}",
	  "workload.command: missing key \"groups\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\"}") "}",
	  "workload.command.groups[0]: missing key \"argv\"" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": []}") "}",
	  "workload.command.groups[0].argv: needs 1 to 32 entries, has 0" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"a\\nb\"]}") "}",
	  "workload.command.groups[0].argv[0]: contains a control character" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [1]}") "}",
	  "workload.command.groups[0].argv[0]: expected a string, got an integer" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL(G1 ", " G1) "}",
	  "workload.command.groups[1].name: \"a\" names two groups" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a/b\", \"argv\": [\"x\"]}") "}",
	  "workload.command.groups[0].name: \"a/b\" must be one word" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cwd\": \"rel\"}") "}",
	  "workload.command.groups[0].cwd: \"rel\" is not an absolute path" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"env\": {\"A=B\": \"1\"}}") "}",
	  "workload.command.groups[0].env.A=B: not a variable name" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"memory_max_mb\": 10, \"memory_high_mb\": 20}") "}",
	  "workload.command.groups[0].memory_high_mb: 20 is above memory_max_mb 10" },
	{ "{\"name\": \"x\", \"guest\": {\"cpus\": 2}, " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cpus\": 3}") "}",
	  "workload.command.groups[0].cpus: 3 is more than the guest's 2 CPUs" },
	{ "{\"name\": \"x\", " MIN_SWAP ", \"workload\": {\"command\": {\"kbuild\": \"oldconfig\", \"reference\": false, \"groups\": [" G1 "]}}}",
	  "workload.command.kbuild: \"oldconfig\" is not one of: tinyconfig" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"limits\": 1}") "}",
	  "workload.command.groups[0].limits: unknown key" },
	/* io_max and cpu_max_pct (issue 21) */
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": {}}") "}",
	  "workload.command.groups[0].io_max: names no limit (rbps, wbps, riops or wiops)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": 1}") "}",
	  "workload.command.groups[0].io_max: expected an object, got an integer" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": {\"rbps\": 4095}}") "}",
	  "workload.command.groups[0].io_max.rbps: 4095 is out of range 4096..1099511627776" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": {\"wiops\": 0}}") "}",
	  "workload.command.groups[0].io_max.wiops: 0 is out of range 1..16777216" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": {\"rbps\": \"1M\"}}") "}",
	  "workload.command.groups[0].io_max.rbps: expected an integer, got a string" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": {\"bps\": 4096}}") "}",
	  "workload.command.groups[0].io_max.bps: unknown key (known: rbps, wbps, riops, wiops)" },
	{ "{\"name\": \"x\", \"swap\": [{\"type\": \"nfsfile\", \"size_mb\": 64}], " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"io_max\": {\"wbps\": 4096}}") "}",
	  "workload.command.groups[0].io_max: no swap device on a block device to limit (only nfsfile)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cpu_max_pct\": 0}") "}",
	  "workload.command.groups[0].cpu_max_pct: 0 is out of range 1..6400" },
	{ "{\"name\": \"x\", \"guest\": {\"cpus\": 2}, " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cpus\": 1, \"cpu_max_pct\": 101}") "}",
	  "workload.command.groups[0].cpu_max_pct: 101 is more than 100 per CPU of the group's 1" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cpu_max_period_ms\": 500}") "}",
	  "workload.command.groups[0].cpu_max_period_ms: needs cpu_max_pct (the quota)" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cpu_max_pct\": 5, \"cpu_max_period_ms\": 10}") "}",
	  "workload.command.groups[0].cpu_max_period_ms: 5% of 10 ms is a quota under 1 ms" },
	{ "{\"name\": \"x\", " MIN_SWAP ", " CMD_WL("{\"name\": \"a\", \"argv\": [\"x\"], \"cpu_max_pct\": 5, \"cpu_max_period_ms\": 1001}") "}",
	  "workload.command.groups[0].cpu_max_period_ms: 1001 is out of range 1..1000" },
};

static void test_command(void **state)
{
	static const char ok[] =
		"{\"name\": \"x\", \"guest\": {\"memory_mb\": 256, \"cpus\": 2}, " MIN_SWAP ",\n"
		" \"workload\": {\"command\": {\"groups\": [\n"
		"  {\"name\": \"a\", \"argv\": [\"stress-ng\", \"--vm\", \"1\"], \"cwd\": \"/tmp\",\n"
		"   \"env\": {\"A\": \"b c\"}, \"memory_max_mb\": 96, \"memory_high_mb\": 80,\n"
		"   \"swap_max_mb\": 0, \"cpus\": 1, \"outputs\": [\"*.o\"]},\n"
		"  {\"name\": \"b\", \"argv\": [\"true\"], \"cpu_max_pct\": 150,\n"
		"   \"cpu_max_period_ms\": 1000,\n"
		"   \"io_max\": {\"rbps\": 4096, \"wiops\": 16777216}}]}}}";
	size_t i;

	(void)state;
	if (parse(ok))
		fail_msg("%s", err);
	assert_true(scn.command);
	assert_true(scn.reference);	/* the default */
	assert_int_equal(scn.ngroups, 2);
	assert_string_equal(scn.group[0].args[2], "1");
	assert_int_equal(scn.group[0].nargs, 3);
	assert_string_equal(scn.group[0].env[0], "A=b c");
	assert_int_equal(scn.group[0].memory_max_mb, 96);
	assert_int_equal(scn.group[0].memory_high_mb, 80);
	assert_true(scn.group[0].has_swap_max);
	assert_int_equal(scn.group[0].swap_max_mb, 0);
	assert_false(scn.group[1].has_swap_max);
	assert_int_equal(scn.group[0].cpu_max_pct, 0);
	assert_int_equal(scn.group[1].cpu_max_pct, 150);
	assert_int_equal(scn.group[0].cpu_max_period_ms, 0);
	assert_int_equal(scn.group[1].cpu_max_period_ms, 1000);
	assert_int_equal(scn.group[0].io_max[IO_RBPS], 0);
	assert_int_equal(scn.group[1].io_max[IO_RBPS], 4096);
	assert_int_equal(scn.group[1].io_max[IO_WBPS], 0);
	assert_int_equal(scn.group[1].io_max[IO_RIOPS], 0);
	assert_int_equal(scn.group[1].io_max[IO_WIOPS], 16777216);
	assert_int_equal(scn.group[0].nout, 1);
	assert_int_equal(scenario_check_fit(&scn, 256, err, sizeof(err)), 0);
	/* a group limit at or above the guest's RAM limits nothing */
	assert_int_equal(scenario_check_fit(&scn, 96, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "groups[0].memory_max_mb: 96 MiB is not below the guest's 96 MiB"));
	for (i = 0; i < ARRAY_SIZE(cmd_bads); i++) {
		if (parse(cmd_bads[i].text) != -1)
			fail_msg("case %zu parsed: %s", i, cmd_bads[i].text);
		if (!strstr(err, cmd_bads[i].msg))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err,
				 cmd_bads[i].msg);
		assert_null(strchr(err, '\n'));
	}
}

static void test_errors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bads); i++) {
		if (parse(bads[i].text) != -1)
			fail_msg("case %zu parsed: %s", i, bads[i].text);
		if (!strstr(err, bads[i].msg))
			fail_msg("case %zu: got \"%s\", want \"%s\"", i, err,
				 bads[i].msg);
		/* one line, always starting with the file name */
		assert_null(strchr(err, '\n'));
		assert_memory_equal(err, "t.json:", 7);
	}
}

static void test_fit_later(void **state)
{
	(void)state;
	/* no memory in the scenario: checked with swapctl.conf's value */
	assert_int_equal(parse("{\"name\": \"m\", " MIN_SWAP ", \"workload\": " WL_RAM2 "}"),
			 0);
	assert_int_equal(scenario_size_mb(&scn, 100), 200);
	assert_int_equal(scenario_check_fit(&scn, 100, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.json: workload: 200 MiB"));
	assert_int_equal(scenario_check_fit(&scn, 32, err, sizeof(err)), 0);
}

static void test_host_rule(void **state)
{
	char msg[256];
	bool cpus;

	(void)state;
	assert_int_equal(scenario_host_problem(256, 2, 24104, 2, &cpus, msg,
					       sizeof(msg)), 0);
	assert_int_equal(scenario_host_problem(65536, 64, 24104, 2, &cpus,
					       msg, sizeof(msg)), 1);
	assert_false(cpus);
	assert_string_equal(msg, "a 65536 MiB guest is more than 3/4 of this host's 24104 MiB of RAM");
	assert_int_equal(scenario_host_problem(256, 64, 24104, 2, &cpus, msg,
					       sizeof(msg)), 1);
	assert_true(cpus);
	assert_string_equal(msg, "64 vCPUs are more than this host's 2 CPUs");
	/* unknown host facts are not checked */
	assert_int_equal(scenario_host_problem(65536, 64, 0, 0, &cpus, msg,
					       sizeof(msg)), 0);
}

/* NULs and escapes in keys never confuse the locator. */
static void test_escaped_keys(void **state)
{
	static const char nul[] = "{\"name\": \"x\", \"a\\u0000b\": 1}";

	(void)state;
	assert_int_equal(scenario_parse(&scn, nul, sizeof(nul) - 1, "t.json",
					err, sizeof(err)), -1);
	assert_memory_equal(err, "t.json:1:", 9);
	/* the raw text differs from the key: the object's position */
	assert_int_equal(parse("{\"name\": \"x\",\n \"\\u0062ogus\": 1}"),
			 -1);
	assert_string_equal(err,
		"t.json:1:1: bogus: unknown key (known: name, description, kernels, guest, interval_ms, timeout_s, repeat, sysctl, thp, mthp, zswap, swap, workload, expect, no_regression, faults, kernel_line)");
	assert_int_equal(parse("{\"name\": \"x\\\"y\"}"), -1);
	assert_non_null(strstr(err, "must be letters"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal_defaults),
		cmocka_unit_test(test_brd_zswap),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_kernels_and_relative),
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_slab_error),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_fit_later),
		cmocka_unit_test(test_host_rule),
		cmocka_unit_test(test_escaped_keys),
		cmocka_unit_test(test_run_rules),
		cmocka_unit_test(test_parse_error_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
