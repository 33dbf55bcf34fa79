// SPDX-License-Identifier: GPL-2.0
/* swapctl top: placeholder until the subcommand lands. */
#include <stdio.h>

#include "swapctl.h"

void usage_top(FILE *out)
{
	fprintf(out, "usage: swapctl top [--help]\n");
}

int cmd_top(int argc, char **argv, struct swapctl_config *cfg)
{
	(void)argc;
	(void)argv;
	(void)cfg;
	fprintf(stderr, "swapctl top: not implemented yet\n");
	return EXIT_FAILURE_GENERIC;
}
