// SPDX-License-Identifier: GPL-2.0
/*
 * Runs a libFuzzer target (tests/fuzz_*.c) over files without libFuzzer:
 * each regular file named, or found directly in a directory named, is
 * read and given to LLVMFuzzerTestOneInput() once. make check-asan links
 * it with the ASan/UBSan objects, so the fuzz corpora run under the
 * sanitizers with gcc. Exit 0 when every input ran (a sanitizer report
 * aborts), 1 when an input could not be read.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int ran;

static int one(const char *path)
{
	size_t len;
	char *data = util_read_input(path, (size_t)64 << 20, &len);

	if (!data) {
		fprintf(stderr, "fuzz-driver: %s: %s\n", path,
			util_input_strerror(errno));
		return -1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	free(data);
	ran++;
	return 0;
}

int main(int argc, char **argv)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int i, bad = 0;
	DIR *d;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			bad |= one(argv[i]);
			continue;
		}
		d = opendir(argv[i]);
		if (!d) {
			perror(argv[i]);
			bad = -1;
			continue;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.' ||
			    util_path(path, sizeof(path), "%s/%s", argv[i],
				      de->d_name) ||
			    stat(path, &st) || !S_ISREG(st.st_mode))
				continue;
			bad |= one(path);
		}
		closedir(d);
	}
	printf("fuzz-driver: %u inputs, no sanitizer report\n", ran);
	return bad ? 1 : 0;
}
