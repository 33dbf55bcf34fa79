// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild_write_makefile(): the flat Makefile of a kernel-build tree, from
 * the .cmd files Kbuild left (a fabricated tree in a temporary directory).
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_makefile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
