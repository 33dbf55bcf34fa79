// SPDX-License-Identifier: GPL-2.0
/* swapctl run: placeholder until the subcommand lands. */
#include <stdio.h>

#include "swapctl.h"

void usage_run(FILE *out)
{
	fprintf(out, "usage: swapctl run [--help]\n");
}

int cmd_run(int argc, char **argv, struct swapctl_config *cfg)
{
	(void)argc;
	(void)argv;
	(void)cfg;
	fprintf(stderr, "swapctl run: not implemented yet\n");
	return EXIT_FAILURE_GENERIC;
}
