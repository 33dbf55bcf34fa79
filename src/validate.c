// SPDX-License-Identifier: GPL-2.0
/* swapctl validate: placeholder until the subcommand lands. */
#include <stdio.h>

#include "swapctl.h"

void usage_validate(FILE *out)
{
	fprintf(out, "usage: swapctl validate [--help]\n");
}

int cmd_validate(int argc, char **argv, struct swapctl_config *cfg)
{
	(void)argc;
	(void)argv;
	(void)cfg;
	fprintf(stderr, "swapctl validate: not implemented yet\n");
	return EXIT_FAILURE_GENERIC;
}
