// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl validate: parse scenario files and check them as `swapctl run`
 * would, without starting anything.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "plan.h"
#include "scenario.h"
#include "swapctl.h"

void usage_validate(FILE *out)
{
	fprintf(out,
		"usage: swapctl validate [-q] [--plan] SCENARIO.json...\n"
		"\n"
		"Check scenario files (swapctl-scenario(5)) without running them:\n"
		"syntax, unknown keys, types, ranges, and whether the workload fits\n"
		"in the guest (memory from the scenario or swapctl.conf). Errors\n"
		"name the file, line, column and key path.\n"
		"\n"
		"  -q, --quiet   print nothing for valid files\n"
		"  --plan        print the guest plan of each valid file\n"
		"  -h, --help    this help\n"
		"\n"
		"exit codes: 0 all valid, 2 bad usage, 3 a file is invalid.\n");
}

int cmd_validate(int argc, char **argv, struct swapctl_config *cfg)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "plan", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool quiet = false, plan = false;
	struct scenario *s;
	char err[1024], path[4200], *text;
	int opt, i, bad = 0;
	unsigned int mem, cpus;

	while ((opt = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		switch (opt) {
		case 'q':
			quiet = true;
			break;
		case 'p':
			plan = true;
			break;
		case 'h':
			usage_validate(stdout);
			return EXIT_OK;
		default:
			usage_validate(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "swapctl validate: no scenario file given\n");
		return EXIT_USAGE;
	}
	s = malloc(sizeof(*s));
	if (!s)
		return EXIT_FAILURE_GENERIC;
	for (i = optind; i < argc; i++) {
		if (scenario_load(s, scenario_find(argv[i], path,
						   sizeof(path)),
				  err, sizeof(err))) {
			fprintf(stderr, "swapctl validate: %s\n", err);
			bad++;
			continue;
		}
		mem = s->memory_mb ? s->memory_mb :
			cfg->guest_memory_mb ? cfg->guest_memory_mb : 256;
		cpus = s->cpus ? s->cpus :
			cfg->guest_cpus ? cfg->guest_cpus : 1;
		if (scenario_check_fit(s, mem, err, sizeof(err)) ||
		    scenario_check_host(s, mem, cpus, cfg->source, err,
					sizeof(err))) {
			fprintf(stderr, "swapctl validate: %s\n", err);
			bad++;
			continue;
		}
		text = plan_text(s, mem, cfg->nfs_port);
		if (!text) {
			free(s);
			return EXIT_FAILURE_GENERIC;
		}
		if (plan_check(s->file, text, err, sizeof(err))) {
			fprintf(stderr, "swapctl validate: %s\n", err);
			free(text);
			bad++;
			continue;
		}
		if (!quiet)
			printf("%s: ok (%s)\n", argv[i], s->name);
		if (plan)
			fputs(text, stdout);
		free(text);
	}
	free(s);
	return bad ? EXIT_CONFIG : EXIT_OK;
}
