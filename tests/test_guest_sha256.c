// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the guest's SHA-256 (guest/sha256.c), which checksums a
 * command workload's outputs: FIPS 180-4 vectors, split updates, files,
 * and agreement with the host's src/core/util.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../guest/sha256.h"
#include "util.h"

static void hex_of(const char *s, size_t len, char hex[65])
{
	struct gsha256 c;

	gsha256_init(&c);
	gsha256_update(&c, s, len);
	gsha256_final(&c, hex);
}

static void test_vectors(void **state)
{
	char hex[65];

	(void)state;
	hex_of("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	       hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* Any split of the input, and files, give the host's digest. */
static void test_split_and_file(void **state)
{
	static unsigned char data[200000];
	char dir[] = "/tmp/test_gsha.XXXXXX", path[64];
	char a[65], b[65], h[65];
	struct gsha256 c;
	size_t i, off;

	(void)state;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 131 + (i >> 7));
	util_sha256_hex(data, sizeof(data), h);
	hex_of((const char *)data, sizeof(data), a);
	assert_string_equal(a, h);
	gsha256_init(&c);
	for (off = 0, i = 1; off < sizeof(data); i = i * 3 % 1000 + 1) {
		size_t n = i < sizeof(data) - off ? i : sizeof(data) - off;

		gsha256_update(&c, data + off, n);
		off += n;
	}
	gsha256_final(&c, b);
	assert_string_equal(b, h);

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(util_write_file_atomic(path, data, sizeof(data),
						0644), 0);
	assert_int_equal(gsha256_file(path, b), 0);
	assert_string_equal(b, h);
	unlink(path);
	assert_true(gsha256_file(path, b) < 0);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_split_and_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
