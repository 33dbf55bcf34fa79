// SPDX-License-Identifier: GPL-2.0
/*
 * exitcodes: the causes of the exit codes. See exitcodes.h.
 */
#include <stddef.h>
#include <stdio.h>

#include "exitcodes.h"
#include "swapctl.h"
#include "util.h"

static const struct {
	int code;
	const char *cause;
} causes[] = {
	{ EXIT_OK, "success" },
	{ EXIT_FAILURE_GENERIC, "unexpected internal failure" },
	{ EXIT_USAGE, "bad command line: an option, a value, a run directory that does not exist" },
	{ EXIT_CONFIG, "bad, missing or unreadable configuration or scenario file" },
	{ EXIT_SETUP, "setup: tarball, tool, package, libvirt, no run yet" },
	{ EXIT_PATCH, "patch series: bad series, missing patch, no diff, does not apply" },
	{ EXIT_BUILD, "the kernel or initramfs build failed" },
	{ EXIT_EXPECT, "a scenario expectation was not met" },
	{ EXIT_CORRUPT, "the workload found corrupt pages" },
	{ EXIT_GUEST, "guest panic, BUG/Oops or timeout" },
	{ EXIT_OUTPUT, "an output cannot be written (stdout, --svg)" },
	{ EXIT_DATA, "not a usable run directory or samples file (or one kernel to bisect)" },
	{ EXIT_REGRESSION, "a no_regression metric got worse (Holm, 5% family-wise)" },
	{ EXIT_NOT_GIT, "--tree: not a git work tree, or a commit of it no kernel tree" },
	{ EXIT_DIRTY, "--tree: uncommitted changes the build would miss" },
	{ EXIT_REF, "--tree: a ref that names no commit" },
	{ EXIT_NO_KERNEL, "a kernel of the line is not built" },
	{ EXIT_INTERRUPTED, "interrupted (SIGINT, SIGTERM)" },
};

const char *exit_cause(int code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(causes); i++)
		if (causes[i].code == code)
			return causes[i].cause;
	return NULL;
}

void exit_codes_print(FILE *out, const int *codes)
{
	fprintf(out, "\nexit codes (swapctl(1), EXIT STATUS):\n");
	for (; *codes >= 0; codes++)
		fprintf(out, "  %3d  %s\n", *codes,
			exit_cause(*codes) ?: "?");
}
