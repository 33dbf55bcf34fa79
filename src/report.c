// SPDX-License-Identifier: GPL-2.0
/* swapctl report: placeholder until the subcommand lands. */
#include <stdio.h>

#include "swapctl.h"

void usage_report(FILE *out)
{
	fprintf(out, "usage: swapctl report [--help]\n");
}

int cmd_report(int argc, char **argv, struct swapctl_config *cfg)
{
	(void)argc;
	(void)argv;
	(void)cfg;
	fprintf(stderr, "swapctl report: not implemented yet\n");
	return EXIT_FAILURE_GENERIC;
}
