// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl: build, boot and measure kernels with batched swap I/O.
 *
 * One file per subcommand (build.c, run.c, top.c, report.c, validate.c),
 * one cmd_* entry each, dispatched from the table below. Every command
 * parses its options with parse_options() (parse-options.h), so that
 * `swapctl help CMD` is `swapctl CMD --help`.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse-options.h"
#include "swapctl.h"
#include "util.h"

/* 'verbose' is defined in util.c so that the unit tests link. */

static int cmd_help(int argc, char **argv, struct swapctl_config *cfg);

static const struct cmd commands[] = {
	{ "build", cmd_build, "apply the patch series and build the kernels" },
	{ "run", cmd_run, "boot kernels on a scenario and compare them" },
	{ "top", cmd_top, "live view of a running or recorded scenario" },
	{ "report", cmd_report, "tables and plots of recorded runs" },
	{ "validate", cmd_validate, "check scenario files without running" },
	{ "metrics", cmd_metrics, "list the metrics swapctl measures" },
	{ "list", cmd_list, "list the shipped scenarios and the built kernels" },
	{ "bisect", cmd_bisect, "name the patch of a series that changed a metric" },
	{ "calibrate", cmd_calibrate, "measure swapctl's false verdicts: one kernel as A and B" },
	{ "help", cmd_help, "show help for a command" },
};

#define NCOMMANDS ARRAY_SIZE(commands)

static const char *config_path;
static bool show_version;

static void list_commands(FILE *out)
{
	size_t i;

	fprintf(out, "\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\n%s\n%s\n",
		"'swapctl help COMMAND' or 'swapctl COMMAND --help' describes one command;",
		"see also swapctl(1).");
}

static const struct popt main_opts[] = {
	OPT_STRING(0, "config", &config_path, "FILE",
		   "read this configuration file (see swapctl.conf(5))"),
	OPT_COUNTUP('v', "verbose", &verbose, "more output (repeat for more)"),
	OPT_BOOL(0, "version", &show_version, "print the version and exit"),
	OPT_END(),
};

/* every code (swapctl(1) EXIT STATUS); each command's --help lists its own */
static const int all_exits[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
				 13, 14, 15, 16, 130, -1 };

static const struct popt_cmd main_cmd = {
	.args = "COMMAND [ARGS]",
	.max_args = -1,
	.opts = main_opts,
	.epilog_fn = list_commands,
	.exits = all_exits,
	.flags = PARSE_OPT_STOP_AT_NON_OPTION,
};

static const struct cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* `swapctl CMD --help`: every command prints its help before any work. */
static int command_help(const struct cmd *c, struct swapctl_config *cfg)
{
	char *argv[] = { (char *)c->name, "--help", NULL };

	return c->fn(2, argv, cfg);
}

static int cmd_help(int argc, char **argv, struct swapctl_config *cfg)
{
	static const struct popt opts[] = { OPT_END() };
	static const struct popt_cmd help_cmd = {
		.name = "help", .args = "[COMMAND]", .max_args = 1,
		.desc = "Describe COMMAND (its options and exit codes), or list the\n"
			"commands and the global options.\n",
		.opts = opts,
	};
	const struct cmd *c;
	int n;

	n = parse_options(&help_cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if (!n) {
		parse_options_usage(&main_cmd, stdout);
		return EXIT_OK;
	}
	c = find_command(argv[0]);
	if (!c)
		return popt_error(&help_cmd, "unknown command '%s'", argv[0]);
	return command_help(c, cfg);
}

static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/*
 * Every command's standard output is checked once it is done: a table
 * written to a full disk or a closed pipe is a failure, not exit 0.
 */
static int close_stdout(int code)
{
	bool bad = fflush(stdout) == EOF || ferror(stdout);
	int err = errno;

	if (fclose(stdout) && errno != EBADF && !bad) {
		bad = true;
		err = errno;
	}
	/* a command that failed has said why already */
	if (!bad || code)
		return code;
	fprintf(stderr, "swapctl: <stdout>: write failed: %s\n",
		strerror(err));
	return EXIT_OUTPUT;
}

static int run_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return close_stdout(run_main(argc, argv));
}

static int run_main(int argc, char **argv)
{
	struct swapctl_config cfg;
	const struct cmd *c;
	char err[1024];
	int n;

	n = parse_options(&main_cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	if (show_version) {
		printf("swapctl %s\n", SWAPCTL_VERSION);
		return EXIT_OK;
	}
	if (!n) {
		parse_options_usage(&main_cmd, stderr);
		return EXIT_USAGE;
	}
	c = find_command(argv[0]);
	if (!c)
		return popt_error(&main_cmd, "unknown command '%s'", argv[0]);

	config_defaults(&cfg);
	if (c->fn == cmd_help)
		return cmd_help(n, argv, &cfg);
	if (config_load(&cfg, config_path, err, sizeof(err))) {
		/* a broken configuration does not hide the help */
		if (asks_help(n, argv)) {
			config_defaults(&cfg);
			return command_help(c, &cfg);
		}
		fprintf(stderr, "swapctl: %s\n", err);
		return EXIT_CONFIG;
	}
	return c->fn(n, argv, &cfg);
}
