// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild_write_makefile(): the flat Makefile of a kernel-build tree, from
 * the .cmd files Kbuild left (a fabricated tree in a temporary directory);
 * kbuild_pristine(): the extracted source a kernel-build tree is made of.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kbuild.h"
#include "util.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(util_write_file_atomic(path, text, strlen(text), 0644),
			 0);
}

static void test_makefile(void **state)
{
	char dir[] = "/tmp/swapctl-test-kbuild-XXXXXX", mm[256], path[512];
	char err[512] = "", *mk;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(mm, sizeof(mm), "%s/mm", dir);
	assert_int_equal(mkdir(mm, 0755), 0);
	/* 6.1's format: the command in make syntax, then source_ and deps_ */
	put(mm, ".swap.o.cmd",
	    "cmd_mm/swap.o := gcc -Wp,-MMD,mm/.swap.o.d -DX='$$(pound)' -c -o mm/swap.o ../mm/swap.c\n"
	    "\n"
	    "source_mm/swap.o := ../mm/swap.c\n"
	    "deps_mm/swap.o := \\\n  include/linux/mm.h \\\n");
	put(mm, "swap.o", "object swap\n");
	/* 6.2's name; and a cmd_ line of another target must not match */
	put(mm, ".a-b.o.cmd",
	    "cmd_mm/a-b.oo := wrong\nsavedcmd_mm/a-b.o := gcc -c -o mm/a-b.o ../mm/a-b.c\n");
	put(mm, "a-b.o", "object a-b\n");
	/* not objects */
	put(mm, ".built-in.a.cmd", "cmd_mm/built-in.a := ar\n");
	put(mm, ".swap.o.d", "");

	assert_int_equal(kbuild_write_makefile(dir, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, KBUILD_MK);
	mk = util_read_file(path, NULL);
	assert_non_null(mk);
	assert_non_null(strstr(mk, "pound := \\#\n"));
	assert_non_null(strstr(mk, "OBJS := \\\n\tmm/a-b.o \\\n\tmm/swap.o\n"));
	assert_non_null(strstr(mk, ".PHONY: all $(OBJS)\nall: $(OBJS)\n"));
	assert_non_null(strstr(mk,
		"mm/swap.o:\n\t@echo '  CC      mm/swap.o'\n"
		"\t@gcc -Wp,-MMD,mm/.swap.o.d -DX='$$(pound)' -c -o mm/swap.o ../mm/swap.c\n"));
	assert_non_null(strstr(mk,
		"mm/a-b.o:\n\t@echo '  CC      mm/a-b.o'\n"
		"\t@gcc -c -o mm/a-b.o ../mm/a-b.c\n"));
	assert_null(strstr(mk, "wrong"));
	assert_null(strstr(mk, "built-in"));
	free(mk);
	/* the host's objects moved out of mm/ */
	snprintf(path, sizeof(path), "%s/swap.o", mm);
	assert_false(util_exists(path));
	snprintf(path, sizeof(path), "%s/%s/mm/swap.o", dir, KBUILD_HOST_OBJS);
	mk = util_read_file(path, NULL);
	assert_string_equal(mk, "object swap\n");
	free(mk);

	/* an object without its command is an error naming the file */
	put(mm, ".x.o.cmd", "source_mm/x.o := ../mm/x.c\n");
	put(mm, "x.o", "");
	assert_int_equal(kbuild_write_makefile(dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "mm/.x.o.cmd: no cmd_mm/x.o line"));

	assert_int_equal(util_rm_rf(dir), 0);
	/* no mm/ at all */
	assert_int_equal(kbuild_write_makefile(dir, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "kbuild: "));
}

/* <dir>/src/<id>/linux-source-<line>/Makefile: an extracted tarball */
static void extracted(const char *dir, const char *id, const char *line)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/src/%s/linux-source-%s", dir, id,
		 line);
	assert_int_equal(util_mkdir_p(path, 0755), 0);
	put(path, "Makefile", "VERSION = 6\n");
}

/*
 * The extraction of the tarball named: `swapctl build` records a
 * tarball's sha256 in src/<tarball's name>.id (one per tarball, so that
 * two kernel lines do not evict each other's), and the pristine tree is
 * src/<first 16 hex of it>/. With two lines extracted, the one named is
 * found, not "no extracted kernel source" (kbuild_pristine() read
 * src/tarball.id, which no build writes since there are lines).
 */
static void test_pristine(void **state)
{
	char dir[] = "/tmp/swapctl-test-kbuild-XXXXXX", src[4096], err[512];
	char path[4200], want[4200];
	const char *sha61 = "c93391b6a4884e64" "000000000000000000000000000000000000000000000000";
	const char *sha612 = "cacdc3830989309d" "000000000000000000000000000000000000000000000000";

	(void)state;
	assert_non_null(mkdtemp(dir));
	extracted(dir, "c93391b6a4884e64", "6.1");
	extracted(dir, "cacdc3830989309d", "6.12");
	snprintf(path, sizeof(path), "%s/src", dir);
	snprintf(want, sizeof(want), "1 2 3 4.5 /usr/src/linux-source-6.1.tar.xz\n%s\n", sha61);
	put(path, "linux-source-6.1.tar.xz.id", want);
	snprintf(want, sizeof(want), "1 2 3 4.5 /usr/src/linux-source-6.12.tar.xz\n%s\n", sha612);
	put(path, "linux-source-6.12.tar.xz.id", want);

	assert_int_equal(kbuild_pristine(dir, "/usr/src/linux-source-6.12.tar.xz",
					 src, sizeof(src), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/src/cacdc3830989309d/linux-source-6.12",
		 dir);
	assert_string_equal(src, want);
	assert_int_equal(kbuild_pristine(dir, "/usr/src/linux-source-6.1.tar.xz",
					 src, sizeof(src), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/src/c93391b6a4884e64/linux-source-6.1",
		 dir);
	assert_string_equal(src, want);

	/* a tarball never extracted: one line naming src/ */
	assert_int_equal(kbuild_pristine(dir, "/x/linux-source-6.6.tar.xz", src,
					 sizeof(src), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no extracted kernel source"));

	/* one extraction and no .id: that one (a work dir of older builds) */
	snprintf(path, sizeof(path), "%s/src/cacdc3830989309d", dir);
	assert_int_equal(util_rm_rf(path), 0);
	snprintf(path, sizeof(path), "%s/src/linux-source-6.1.tar.xz.id", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(kbuild_pristine(dir, "/x/linux-source-6.1.tar.xz", src,
					 sizeof(src), err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%s/src/c93391b6a4884e64/linux-source-6.1",
		 dir);
	assert_string_equal(src, want);
	assert_int_equal(util_rm_rf(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_makefile),
		cmocka_unit_test(test_pristine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
