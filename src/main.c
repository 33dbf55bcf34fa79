// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl: build, boot and measure kernels with batched swap I/O.
 *
 * One file per subcommand (build.c, run.c, top.c, report.c, validate.c),
 * one cmd_* entry each, dispatched from the table below.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swapctl.h"

/* 'verbose' is defined in util.c so that the unit tests link. */

static void usage_help(FILE *out);
static int cmd_help(int argc, char **argv, struct swapctl_config *cfg);

static const struct cmd commands[] = {
	{ "build", cmd_build, "apply the patch series and build the kernels",
	  usage_build },
	{ "run", cmd_run, "boot kernels on a scenario and compare them",
	  usage_run },
	{ "top", cmd_top, "live view of a running or recorded scenario",
	  usage_top },
	{ "report", cmd_report, "tables and plots of recorded runs",
	  usage_report },
	{ "validate", cmd_validate, "check scenario files without running",
	  usage_validate },
	{ "metrics", cmd_metrics, "list the metrics swapctl measures",
	  usage_metrics },
	{ "help", cmd_help, "show help for a command", usage_help },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage_main(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: swapctl [--config FILE] [-v] [--version] COMMAND [ARGS]\n\n"
		"commands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out,
		"\n'swapctl help COMMAND' or 'swapctl COMMAND --help' "
		"describes one command; see also swapctl(1).\n");
}

static void usage_help(FILE *out)
{
	fprintf(out, "usage: swapctl help [COMMAND]\n");
}

static int cmd_help(int argc, char **argv, struct swapctl_config *cfg)
{
	const struct cmd *c;

	(void)cfg;
	if (argc < 2) {
		usage_main(stdout);
		return EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "swapctl: help: unknown command '%s'\n",
			argv[1]);
		return EXIT_USAGE;
	}
	c->usage(stdout);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct swapctl_config cfg;
	const char *config_path = NULL;
	const struct cmd *c;
	char err[1024];
	int opt, cmdidx;

	/* '+': stop at the first non-option, the command name. */
	while ((opt = getopt_long(argc, argv, "+c:vhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_path = optarg;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			usage_main(stdout);
			return EXIT_OK;
		case 'V':
			printf("swapctl %s\n", SWAPCTL_VERSION);
			return EXIT_OK;
		default:
			usage_main(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	c = find_command(argv[optind]);
	if (!c) {
		fprintf(stderr, "swapctl: unknown command '%s' (see 'swapctl help')\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	if (c->fn == cmd_help)
		return cmd_help(argc - optind, argv + optind, &cfg);

	config_defaults(&cfg);
	if (config_load(&cfg, config_path, err, sizeof(err))) {
		fprintf(stderr, "swapctl: %s\n", err);
		return EXIT_CONFIG;
	}
	/* Subcommands parse their own options from a fresh getopt state. */
	cmdidx = optind;
	optind = 0;
	return c->fn(argc - cmdidx, argv + cmdidx, &cfg);
}
