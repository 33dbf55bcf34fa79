// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl validate: parse scenario files and check them as `swapctl run`
 * would, without starting anything.
 */
#include <stdio.h>
#include <stdlib.h>

#include "parse-options.h"
#include "plan.h"
#include "scenario.h"
#include "swapctl.h"

/* "FILE: ok (NAME)" as the error lines show names: no raw bytes */
static void print_ok(const char *file, const char *name)
{
	char shown[4200];
	size_t k;

	snprintf(shown, sizeof(shown), "%s: ok (%s)", file, name);
	for (k = 0; shown[k]; k++)
		if ((unsigned char)shown[k] < ' ' || shown[k] == 0x7f)
			shown[k] = '?';
	puts(shown);
}

int cmd_validate(int argc, char **argv, struct swapctl_config *cfg)
{
	bool quiet = false, plan = false;
	struct popt opts[] = {
		OPT_BOOL('q', "quiet", &quiet, "print nothing for valid files"),
		OPT_BOOL(0, "plan", &plan,
			 "print the guest plan of each valid file"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 10, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "validate", .args = "SCENARIO.json...", .min_args = 1,
		.max_args = -1, .opts = opts,
		.desc =
		"Check scenario files (swapctl-scenario(5)) without running them:\n"
		"syntax, unknown keys, types, ranges, and whether the workload fits\n"
		"in the guest (memory from the scenario or swapctl.conf). Errors\n"
		"name the file, line, column and key path.\n",
	};
	struct scenario *s;
	char err[1024], path[4200], from[PATH_MAX + 32], *text;
	int n, i, bad = 0;
	unsigned int mem, cpus;

	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	s = malloc(sizeof(*s));
	if (!s)
		return EXIT_FAILURE_GENERIC;
	for (i = 0; i < n; i++) {
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
		/* what run refuses before it boots anything (its words) */
		snprintf(from, sizeof(from), s->kernel_line[0] ?
			 "kernel_line of the scenario" : "kernel_line, from %s",
			 cfg->source);
		if (scn_check_kernels(s, cfg->series, err, sizeof(err)) ||
		    scn_check_line(s, s->kernel_line[0] ? s->kernel_line :
				   cfg->kernel_line, from, err, sizeof(err)) ||
		    scenario_check_fit(s, mem, err, sizeof(err)) ||
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
			print_ok(argv[i], s->name);
		if (plan)
			fputs(text, stdout);
		free(text);
	}
	free(s);
	return bad ? EXIT_CONFIG : EXIT_OK;
}
