// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the run directory and of the console log scan. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rundir.h"
#include "util.h"

static void scan(const char *text, struct console_scan *cs)
{
	char *copy = strdup(text);

	assert_non_null(copy);
	console_scan_text(copy, cs);
	free(copy);
}

static void test_clean_console(void **state)
{
	struct console_scan cs;

	(void)state;
	/* the command line says panic=-1: that is no panic */
	scan("Command line: console=ttyS0 panic=-1 loglevel=5\n"
	     "swapctl-init: power off\nreboot: Power down\n", &cs);
	assert_int_equal(cs.problems, 0);
	assert_int_equal(cs.oom_kills, 0);
	assert_string_equal(cs.first, "");
	scan("", &cs);
	assert_int_equal(cs.problems, 0);
}

static void test_problems(void **state)
{
	struct console_scan cs;

	(void)state;
	scan("ok\r\n------------[ cut here ]------------\r\n"
	     "WARNING: CPU: 0 PID: 1 at mm/page_io.c:42 swap_write+0x1\r\n"
	     "Call Trace:\r\n <TASK>\r\n", &cs);
	assert_int_equal(cs.problems, 2);
	/* the first line, the \r made a space */
	assert_string_equal(cs.first,
		"WARNING: CPU: 0 PID: 1 at mm/page_io.c:42 swap_write+0x1 ");
	scan("BUG: kernel NULL pointer dereference, address: 0\n", &cs);
	assert_int_equal(cs.problems, 1);
	scan("Oops: 0002 [#1] SMP\n", &cs);
	assert_int_equal(cs.problems, 1);
	scan("Kernel panic - not syncing: Fatal exception\n", &cs);
	assert_int_equal(cs.problems, 1);
	scan("general protection fault, probably for non-canonical address\n",
	     &cs);
	assert_int_equal(cs.problems, 1);
}

static void test_oom_is_not_a_bug(void **state)
{
	static const char oom[] =
		"workload invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0\n"
		"CPU: 1 PID: 48 Comm: workload Not tainted 6.1.192+ #1\n"
		"Call Trace:\n <TASK>\n dump_stack_lvl+0x1\n </TASK>\n"
		"Mem-Info:\n"
		"Out of memory: Killed process 48 (workload) total-vm:328900kB\n";
	struct console_scan cs;
	char both[1024];

	(void)state;
	scan(oom, &cs);
	assert_int_equal(cs.problems, 0);
	assert_int_equal(cs.oom_kills, 1);
	/* a Call Trace after the report is a problem again */
	snprintf(both, sizeof(both), "%sCall Trace:\n", oom);
	scan(both, &cs);
	assert_int_equal(cs.problems, 1);
	assert_string_equal(cs.first, "Call Trace:");
	/* and a BUG inside the report always is */
	snprintf(both, sizeof(both), "x invoked oom-killer: y\nBUG: z\n");
	scan(both, &cs);
	assert_int_equal(cs.problems, 1);
	assert_int_equal(cs.oom_kills, 1);
}

/* What the debug kernels print, as 6.1 prints it (shortened). */
static const char lockdep[] =
	"swapctl-init: phase pageout\n"
	"\n"
	"======================================================\n"
	"WARNING: possible circular locking dependency detected\n"
	"6.1.192-swapops #1 Not tainted\n"
	"------------------------------------------------------\n"
	"workload/48 is trying to acquire lock:\n"
	"ffff88800a1b2c30 (&si->lock){+.+.}-{2:2}, at: swap_io_submit+0x4e/0x1c0\n"
	"\n"
	"but task is already holding lock:\n"
	"stack backtrace:\n"
	"Call Trace:\n"
	" <TASK>\n"
	" dump_stack_lvl+0x45/0x5e\n"
	" </TASK>\n"
	"swapctl-init: phase read\n";

static void test_lockdep_quoted(void **state)
{
	struct console_scan cs;
	int i;

	(void)state;
	scan(lockdep, &cs);
	assert_int_equal(cs.nsplats, 1);
	assert_string_equal(cs.splat[0].kind, "lockdep");
	/* from the WARNING line to </TASK>; the blank line is not a line */
	assert_string_equal(cs.splat[0].lines[0],
		"WARNING: possible circular locking dependency detected");
	assert_int_equal(cs.splat[0].nlines, 11);
	assert_string_equal(cs.splat[0].lines[10], " </TASK>");
	assert_false(cs.splat[0].truncated);
	/* WARNING and Call Trace: two problem lines, one report */
	assert_int_equal(cs.problems, 2);
	for (i = 0; i < cs.splat[0].nlines; i++)
		assert_null(strstr(cs.splat[0].lines[i], "swapctl-init"));

	scan("================================\n"
	     "WARNING: inconsistent lock state\n"
	     "--------------------------------\n"
	     "inconsistent {IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W} usage.\n", &cs);
	assert_int_equal(cs.nsplats, 1);
	assert_string_equal(cs.splat[0].kind, "lockdep");
	scan("============================================\n"
	     "WARNING: possible recursive locking detected\n", &cs);
	assert_string_equal(cs.splat[0].kind, "lockdep");
}

static void test_debug_kinds(void **state)
{
	static const struct {
		const char *text, *kind;
	} cases[] = {
		{ "BUG: KASAN: use-after-free in swap_readpage+0x1/0x2\n",
		  "kasan" },
		{ "BUG: sleeping function called from invalid context at "
		  "mm/page_alloc.c:5177\n", "atomic-sleep" },
		{ "BUG: Bad page state in process workload  pfn:0a1b2\n",
		  "bad-page" },
		{ "BUG: Bad page map in process workload  pte:0\n",
		  "bad-page" },
		{ "list_add corruption. prev->next should be next "
		  "(ffff888000000000)\n", "list-corruption" },
		{ "kernel BUG at mm/swap_state.c:123!\n", "bug" },
		{ "BUG: kernel NULL pointer dereference, address: 0\n", "bug" },
		{ "WARNING: CPU: 1 PID: 48 at mm/page_io.c:42 f+0x1\n",
		  "warning" },
		{ "Oops: 0002 [#1] SMP\n", "oops" },
		{ "Kernel panic - not syncing: Fatal exception\n", "panic" },
		{ "INFO: task workload:48 blocked for more than 60 seconds.\n",
		  "hung-task" },
		{ "UBSAN: shift-out-of-bounds in mm/swapfile.c:1\n", "ubsan" },
		{ "Call Trace:\n", "call-trace" },
		{ "kswapd0: page allocation failure: order:0, mode:0xc0a(GFP_NOIO"
		  "|__GFP_HIGHMEM|__GFP_MOVABLE)\nCPU: 0 PID: 30 Comm: kswapd0\n"
		  "Call Trace:\n <TASK>\n </TASK>\nMem-Info:\n",
		  "alloc-failure" },
	};
	struct console_scan cs;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scan(cases[i].text, &cs);
		if (cs.nsplats != 1 || strcmp(cs.splat[0].kind, cases[i].kind))
			fail_msg("%s: %d reports, kind %s", cases[i].text,
				 cs.nsplats,
				 cs.nsplats ? cs.splat[0].kind : "-");
		assert_true(cs.problems >= 1);
	}
}

static void test_splat_grouping(void **state)
{
	struct console_scan cs;
	char big[16384];
	size_t off = 0;
	int i;

	(void)state;
	/* WARN(): the message line first, then WARNING: one report */
	scan("------------[ cut here ]------------\n"
	     "list_add corruption. next->prev should be prev (1), but was 2\n"
	     "WARNING: CPU: 0 PID: 1 at lib/list_debug.c:27 __list_add+0x1\n"
	     "Call Trace:\n <TASK>\n x+0x1\n </TASK>\n"
	     "---[ end trace 0000000000000000 ]---\n"
	     "WARNING: CPU: 0 PID: 1 at mm/vmscan.c:1 y+0x1\n"
	     "---[ end trace 0000000000000000 ]---\n", &cs);
	assert_int_equal(cs.nsplats, 2);
	assert_string_equal(cs.splat[0].kind, "list-corruption");
	assert_int_equal(cs.splat[0].nlines, 6);
	assert_string_equal(cs.splat[1].kind, "warning");
	assert_int_equal(cs.splat[1].nlines, 2);

	/* a long report is cut, many reports are counted */
	for (i = 0; i < 60; i++)
		off += snprintf(big + off, sizeof(big) - off, "line %d\n", i);
	memmove(big + strlen("BUG: x\n"), big, off + 1);
	memcpy(big, "BUG: x\n", strlen("BUG: x\n"));
	scan(big, &cs);
	assert_int_equal(cs.nsplats, 1);
	assert_int_equal(cs.splat[0].nlines, CONSOLE_SPLAT_LINES);
	assert_true(cs.splat[0].truncated);
	off = 0;
	for (i = 0; i < CONSOLE_MAX_SPLATS + 3; i++)
		off += snprintf(big + off, sizeof(big) - off,
				"WARNING: %d\n---[ end trace ]---\n", i);
	scan(big, &cs);
	assert_int_equal(cs.nsplats, CONSOLE_MAX_SPLATS + 3);
	assert_string_equal(cs.splat[CONSOLE_MAX_SPLATS - 1].lines[0],
			    "WARNING: 7");

	/* an escape sequence never reaches the terminal */
	scan("BUG: a\x1b[2Jb\r\n", &cs);
	assert_string_equal(cs.splat[0].lines[0], "BUG: a [2Jb ");
}

static void test_print(void **state)
{
	struct console_scan cs;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	scan(lockdep, &cs);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	console_scan_print(f, &cs, "  ");
	fclose(f);
	assert_non_null(strstr(buf, "  lockdep:\n  " "  | WARNING: possible "
			       "circular locking dependency detected\n"));
	assert_non_null(strstr(buf, "    |  </TASK>\n"));
	free(buf);
}

static void test_swap_io_errors(void **state)
{
	static const char text[] =
		"[    5.1] Write-error on swap-device (253:0:8200)\n"
		"[    5.2] Write-error on swap-device (253:0:8208)\n"
		"[    6.0] Read-error on swap-device (253:0:8000)\n"
		"[   11.0] end_swap_bio_read: 7 callbacks suppressed\n"
		"[   11.0] Read-error on swap-device (253:0:8008)\n"
		"[   12.0] end_swap_bio_write: 3 callbacks suppressed\n"
		"[   12.0] swap_fs_read_complete: 2 callbacks suppressed\n"
		/* not ours: another function's suppressed messages */
		"[   13.0] blk_update_request: 5 callbacks suppressed\n"
		"[   13.1] end_swap_bio_read: -4 callbacks suppressed\n"
		"[   13.2] end_swap_bio_read: x callbacks suppressed\n"
		/* swap over NFS (6.1 and swap-ops) */
		"[   14.0] Write error -12 on dio swapfile (1445888)\n"
		"[   14.1] swap_fs_write_complete: 4 callbacks suppressed\n"
		"[   14.2] sio_write_complete: 1 callbacks suppressed\n"
		/* not a swap write */
		"[   14.3] Write error on disk sda\n";
	struct console_scan cs;

	(void)state;
	scan(text, &cs);
	assert_int_equal(cs.problems, 0);
	assert_int_equal(cs.swap_write_errors, 2 + 3 + 1 + 4 + 1);
	assert_int_equal(cs.swap_read_errors, 2 + 7 + 2);
	scan("Read-error on swap-device\nBUG: bad\n", &cs);
	assert_int_equal(cs.swap_read_errors, 1);
	assert_int_equal(cs.swap_write_errors, 0);
	assert_int_equal(cs.problems, 1);
}

static void test_missing_file(void **state)
{
	struct console_scan cs = { .problems = 9 };

	(void)state;
	console_scan_file("/nonexistent/console.log", &cs);
	assert_int_equal(cs.problems, 0);
}

static void test_create(void **state)
{
	char wd[] = "/tmp/test_rundir.XXXXXX", id[128], dir[PATH_MAX];
	char id2[128], dir2[PATH_MAX], link[PATH_MAX], path[PATH_MAX];
	char err[512];
	time_t now = 1764754200;	/* any fixed time */
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(wd));
	assert_int_equal(rundir_create(wd, "bdev-swap", now, id, sizeof(id),
				       dir, sizeof(dir), err, sizeof(err)),
			 0);
	assert_int_equal(strlen(id), strlen("YYYYmmdd-HHMMSS-bdev-swap"));
	assert_string_equal(id + 16, "bdev-swap");
	assert_true(util_exists(dir));
	/* the same second: a distinct directory, latest moves to it */
	assert_int_equal(rundir_create(wd, "bdev-swap", now, id2, sizeof(id2),
				       dir2, sizeof(dir2), err, sizeof(err)),
			 0);
	assert_string_not_equal(dir, dir2);
	assert_int_equal(strlen(id2), strlen(id) + 2);
	assert_string_equal(id2 + strlen(id), "-2");
	snprintf(path, sizeof(path), "%s/runs/latest", wd);
	n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, id2);
	/* an id that does not fit */
	assert_int_equal(rundir_create(wd, "x", now, id, 8, dir, sizeof(dir),
				       err, sizeof(err)), -1);
	assert_non_null(strstr(err, "path too long"));
	assert_int_equal(util_rm_rf(wd), 0);
	/* a work directory that cannot be made */
	assert_int_equal(rundir_create("/proc/nope", "x", now, id, sizeof(id),
				       dir, sizeof(dir), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/nope/runs: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_console),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_oom_is_not_a_bug),
		cmocka_unit_test(test_lockdep_quoted),
		cmocka_unit_test(test_debug_kinds),
		cmocka_unit_test(test_splat_grouping),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_swap_io_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_create),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
