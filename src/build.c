// SPDX-License-Identifier: GPL-2.0
/* swapctl build: placeholder until the subcommand lands. */
#include <stdio.h>

#include "swapctl.h"

void usage_build(FILE *out)
{
	fprintf(out, "usage: swapctl build [--help]\n");
}

int cmd_build(int argc, char **argv, struct swapctl_config *cfg)
{
	(void)argc;
	(void)argv;
	(void)cfg;
	fprintf(stderr, "swapctl build: not implemented yet\n");
	return EXIT_FAILURE_GENERIC;
}
