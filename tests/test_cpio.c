// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the newc cpio writer (src/core/cpio.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "util.h"

struct ent {
	unsigned long field[13];	/* ino .. check */
	char name[256];
	const char *data;
	size_t start;			/* offset of the header */
};

enum { INO, MODE, UID, GID, NLINK, MTIME, SIZE, DMAJ, DMIN, RMAJ, RMIN,
	NAMESIZE, CHECK };

/* Parse the entry at @*off, as the kernel does; advance @*off. */
static void parse(const char *buf, size_t len, size_t *off, struct ent *e)
{
	char hex[9];
	size_t i, ns;

	assert_true(*off % 4 == 0);
	assert_true(*off + 110 <= len);
	assert_memory_equal(buf + *off, "070701", 6);
	e->start = *off;
	for (i = 0; i < 13; i++) {
		memcpy(hex, buf + *off + 6 + 8 * i, 8);
		hex[8] = '\0';
		e->field[i] = strtoul(hex, NULL, 16);
	}
	ns = e->field[NAMESIZE];
	assert_true(ns > 1 && ns < sizeof(e->name));
	memcpy(e->name, buf + *off + 110, ns);
	assert_int_equal(e->name[ns - 1], '\0');
	*off += (110 + ns + 3) & ~3UL;
	e->data = buf + *off;
	*off += (e->field[SIZE] + 3) & ~3UL;
	assert_true(*off <= len);
}

static void test_archive(void **state)
{
	static const char payload[] = "hello, world";	/* 12 bytes */
	char *buf = NULL, tmp[] = "/tmp/test_cpio.XXXXXX";
	struct ent e;
	size_t len = 0, off = 0;
	struct cpio c;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "#!/bin/sh\n", 10), 10);
	close(fd);

	f = open_memstream(&buf, &len);
	cpio_init(&c, f);
	assert_int_equal(cpio_dir(&c, "/dev", 0755), 0);
	assert_int_equal(cpio_node(&c, "dev/console", S_IFCHR | 0600, 5, 1),
			 0);
	assert_int_equal(cpio_data(&c, "etc/x", 0644, payload, 12), 0);
	assert_int_equal(cpio_file(&c, "init", 0755, tmp), 0);
	assert_int_equal(cpio_data(&c, "empty", 0600, NULL, 0), 0);
	assert_int_equal(cpio_finish(&c), 0);
	fclose(f);
	unlink(tmp);

	assert_int_equal(len % 512, 0);
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "dev");	/* leading '/' dropped */
	assert_int_equal(e.field[MODE], S_IFDIR | 0755);
	assert_int_equal(e.field[SIZE], 0);
	assert_int_equal(e.field[UID], 0);
	assert_int_equal(e.field[MTIME], 0);
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "dev/console");
	assert_int_equal(e.field[MODE], S_IFCHR | 0600);
	assert_int_equal(e.field[RMAJ], 5);
	assert_int_equal(e.field[RMIN], 1);
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "etc/x");
	assert_int_equal(e.field[MODE], S_IFREG | 0644);
	assert_int_equal(e.field[SIZE], 12);
	assert_memory_equal(e.data, payload, 12);
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "init");
	assert_int_equal(e.field[MODE], S_IFREG | 0755);
	assert_int_equal(e.field[SIZE], 10);
	assert_memory_equal(e.data, "#!/bin/sh\n", 10);
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "empty");
	assert_int_equal(e.field[SIZE], 0);
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "TRAILER!!!");
	/* only zero padding after the trailer */
	for (; off < len; off++)
		assert_int_equal(buf[off], 0);
	free(buf);
}

/* Inode numbers are distinct, so the kernel never hard-links entries. */
static void test_distinct_inodes(void **state)
{
	char *buf = NULL;
	size_t len = 0, off = 0;
	struct ent a, b;
	struct cpio c;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	cpio_init(&c, f);
	cpio_data(&c, "a", 0644, "1", 1);
	cpio_data(&c, "b", 0644, "2", 1);
	assert_int_equal(cpio_finish(&c), 0);
	fclose(f);
	parse(buf, len, &off, &a);
	parse(buf, len, &off, &b);
	assert_int_not_equal(a.field[INO], b.field[INO]);
	assert_int_equal(a.field[NLINK], 1);
	free(buf);
}

/* A second archive appended to a first one starts 4-aligned. */
static void test_append(void **state)
{
	char *buf = NULL;
	size_t len = 0, off, first;
	struct cpio c;
	struct ent e;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	cpio_init(&c, f);
	cpio_dir(&c, "bin", 0755);
	assert_int_equal(cpio_finish(&c), 0);
	first = c.off;
	cpio_init(&c, f);
	assert_int_equal(c.off, first);
	cpio_dir(&c, "swapctl", 0755);
	cpio_data(&c, "swapctl/plan", 0644, "version 1\n", 10);
	assert_int_equal(cpio_finish(&c), 0);
	fclose(f);
	assert_int_equal(len % 512, 0);
	off = first;
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "swapctl");
	parse(buf, len, &off, &e);
	assert_string_equal(e.name, "swapctl/plan");
	assert_memory_equal(e.data, "version 1\n", 10);
	free(buf);
}

static void test_errors(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	struct cpio c;
	FILE *f;

	(void)state;
	f = open_memstream(&buf, &len);
	cpio_init(&c, f);
	assert_int_equal(cpio_node(&c, "x", S_IFREG | 0644, 0, 0), -1);
	assert_int_not_equal(c.error, 0);
	/* sticky: everything fails afterwards */
	assert_int_equal(cpio_dir(&c, "d", 0755), -1);
	assert_int_equal(cpio_finish(&c), -1);

	cpio_init(&c, f);
	assert_int_equal(cpio_file(&c, "init", 0755, "/nonexistent/init"),
			 -1);
	assert_int_equal(c.error, ENOENT);
	assert_int_equal(cpio_finish(&c), -1);
	fclose(f);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_archive),
		cmocka_unit_test(test_distinct_inodes),
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
