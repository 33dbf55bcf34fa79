// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of run --parallel's schedule (src/run/waves.c): which guests
 * start together, and the memory and CPU arithmetic of the refusal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "waves.h"

/* The sizes of every wave of a run, as "2 2 1" (empty for none). */
static void sizes(unsigned int nk, unsigned int repeat, unsigned int par,
		  char *buf, size_t len)
{
	unsigned int total = nk * repeat, first = 0, n;
	size_t off = 0;

	buf[0] = '\0';
	while ((n = waves_size(nk, total, par, first))) {
		off += snprintf(buf + off, len - off, "%s%u", off ? " " : "",
				n);
		first += n;
	}
	assert_int_equal(first, total);	/* every guest, once */
}

static void test_serial(void **state)
{
	char s[128];

	(void)state;
	/* --parallel 1 is the serial run: A1 B1 A2 B2, one at a time */
	sizes(2, 3, 1, s, sizeof(s));
	assert_string_equal(s, "1 1 1 1 1 1");
	assert_int_equal(waves_width(2, 6, 1), 1);
	/* 0 is taken as 1 */
	sizes(2, 2, 0, s, sizeof(s));
	assert_string_equal(s, "1 1 1 1");
}

static void test_pairs_start_together(void **state)
{
	char s[128];

	(void)state;
	/* two kernels, --parallel 2: each repeat's pair is one wave */
	sizes(2, 3, 2, s, sizeof(s));
	assert_string_equal(s, "2 2 2");
	assert_int_equal(waves_size(2, 6, 2, 0), 2);
	assert_int_equal(waves_size(2, 6, 2, 2), 2);
	assert_int_equal(waves_size(2, 6, 2, 6), 0);
	/* 3 rounds down to whole repeats: never A2 beside B1 alone */
	sizes(2, 3, 3, s, sizeof(s));
	assert_string_equal(s, "2 2 2");
	assert_int_equal(waves_width(2, 6, 3), 2);
	/* 4: two repeats at once, the last repeat alone */
	sizes(2, 3, 4, s, sizeof(s));
	assert_string_equal(s, "4 2");
	assert_int_equal(waves_width(2, 6, 4), 4);
	/* more than the run has: one wave of all */
	sizes(2, 2, 16, s, sizeof(s));
	assert_string_equal(s, "4");
	assert_int_equal(waves_width(2, 4, 16), 4);
	/* three kernels (designs-*): A B C together */
	sizes(3, 2, 3, s, sizeof(s));
	assert_string_equal(s, "3 3");
	sizes(3, 3, 7, s, sizeof(s));
	assert_string_equal(s, "6 3");
}

static void test_fewer_than_kernels(void **state)
{
	char s[128];

	(void)state;
	/* N below the kernels: a repeat in parts, never two repeats mixed */
	sizes(3, 2, 2, s, sizeof(s));
	assert_string_equal(s, "2 1 2 1");
	assert_int_equal(waves_width(3, 6, 2), 2);
	assert_int_equal(waves_size(3, 6, 2, 2), 1);
	assert_int_equal(waves_size(3, 6, 2, 3), 2);
	/* one kernel: N repeats of it at once */
	sizes(1, 5, 2, s, sizeof(s));
	assert_string_equal(s, "2 2 1");
	/* no kernels: nothing */
	assert_int_equal(waves_size(0, 0, 2, 0), 0);
	assert_int_equal(waves_width(0, 0, 2), 0);
}

static void test_memory(void **state)
{
	char msg[256] = "";

	(void)state;
	/* a guest's host memory: RAM + QEMU, + its ganesha with NFS */
	assert_int_equal(waves_guest_host_mb(256, false),
			 256 + WAVES_QEMU_OVERHEAD_MB);
	assert_int_equal(waves_guest_host_mb(256, true),
			 256 + WAVES_QEMU_OVERHEAD_MB + WAVES_GANESHA_MB);
	/* the figures of the refusal */
	assert_int_equal(waves_check_memory(4, 384, 1200, msg, sizeof(msg)),
			 -1);
	assert_string_equal(msg,
		"4 guests x 384 MiB = 1536 MiB > 1200 MiB available");
	/* exactly full fits; one MiB short does not */
	assert_int_equal(waves_check_memory(4, 300, 1200, msg, sizeof(msg)),
			 0);
	assert_int_equal(waves_check_memory(4, 300, 1199, msg, sizeof(msg)),
			 -1);
	assert_string_equal(msg,
		"4 guests x 300 MiB = 1200 MiB > 1199 MiB available");
	/* unknown MemAvailable: not checked */
	assert_int_equal(waves_check_memory(16, 65536, 0, msg, sizeof(msg)),
			 0);
	/* no overflow at the limits: 16 x 65536 MiB is 1 TiB */
	assert_int_equal(waves_check_memory(16, 65536 + 224, 1048576, msg,
					    sizeof(msg)), -1);
	assert_string_equal(msg,
		"16 guests x 65760 MiB = 1052160 MiB > 1048576 MiB available");
}

static void test_cpus(void **state)
{
	char msg[256] = "";

	(void)state;
	assert_int_equal(waves_check_cpus(1, 2, 2, msg, sizeof(msg)), 0);
	assert_int_equal(waves_check_cpus(2, 1, 2, msg, sizeof(msg)), 0);
	assert_int_equal(waves_check_cpus(2, 2, 2, msg, sizeof(msg)), 1);
	assert_string_equal(msg,
		"2 guests x 2 vCPUs = 4 vCPUs > 2 host CPUs");
	/* unknown host CPUs: not checked */
	assert_int_equal(waves_check_cpus(16, 64, 0, msg, sizeof(msg)), 0);
}

static void test_capacity(void **state)
{
	(void)state;
	/* 21000 MiB free, 384 MiB guests: 54 fit, --parallel 2 caps it */
	assert_int_equal(waves_capacity(21000, 384, 2), 2);
	assert_int_equal(waves_capacity(1000, 384, 4), 2);
	assert_int_equal(waves_capacity(383, 384, 4), 0);
	assert_int_equal(waves_capacity(0, 384, 1), 0);
}

static void test_pick_host(void **state)
{
	struct waves_host h[3] = {
		{ .capacity = 2 }, { .capacity = 4 }, { .capacity = 4 },
	};

	(void)state;
	/* the most capacity, the first of equals */
	assert_int_equal(waves_pick_host(h, 3), 1);
	h[1].busy = true;
	assert_int_equal(waves_pick_host(h, 3), 2);
	h[2].lost = true;
	assert_int_equal(waves_pick_host(h, 3), 0);
	h[0].busy = true;
	assert_int_equal(waves_pick_host(h, 3), -1);
	/* a host where no guest fits is never picked */
	h[0] = (struct waves_host){ .capacity = 0 };
	assert_int_equal(waves_pick_host(h, 1), -1);
	assert_int_equal(waves_pick_host(h, 0), -1);
}

static void test_batch(void **state)
{
	(void)state;
	/* whole repeats: 4 guests at once, 2 kernels: 2 repeats */
	assert_int_equal(waves_batch(2, 4, 5), 2);
	assert_int_equal(waves_batch(2, 5, 5), 2);
	assert_int_equal(waves_batch(2, 4, 1), 1);
	/* fewer than the kernels: one repeat, run in parts */
	assert_int_equal(waves_batch(3, 2, 5), 1);
	assert_int_equal(waves_batch(2, 1, 5), 1);
	assert_int_equal(waves_batch(2, 2, 0), 0);
}

static void test_mem_available(void **state)
{
	(void)state;
	/* this host has /proc/meminfo with MemAvailable (Linux >= 3.14) */
	assert_true(waves_mem_available_mb() > 0);
}

static void test_uri_loopback(void **state)
{
	(void)state;
	assert_true(waves_uri_loopback("local"));
	assert_true(waves_uri_loopback("qemu:///system"));
	assert_true(waves_uri_loopback("qemu+unix:///session?socket=/tmp/s"));
	assert_true(waves_uri_loopback("qemu+ssh://root@localhost/system"));
	assert_true(waves_uri_loopback("qemu+tcp://127.0.0.1:16509/system"));
	assert_true(waves_uri_loopback("qemu+tcp://[::1]:16509/system"));
	assert_true(waves_uri_loopback("qemu+tcp://[::1]/system"));
	assert_false(waves_uri_loopback("qemu+ssh://box/session"));
	assert_false(waves_uri_loopback("qemu+ssh://me@box:22/system"));
	assert_false(waves_uri_loopback("qemu+tcp://127.example.org/system"));
	assert_false(waves_uri_loopback("qemu+tcp://localhost.example/system"));
	assert_false(waves_uri_loopback("qemu+tcp://[::2]/system"));
	assert_false(waves_uri_loopback("box"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serial),
		cmocka_unit_test(test_pairs_start_together),
		cmocka_unit_test(test_fewer_than_kernels),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_capacity),
		cmocka_unit_test(test_pick_host),
		cmocka_unit_test(test_batch),
		cmocka_unit_test(test_mem_available),
		cmocka_unit_test(test_uri_loopback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
