// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl metrics: list the metric registry (src/metrics.c), like
 * `perf list`.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "metrics.h"
#include "swapctl.h"

void usage_metrics(FILE *out)
{
	fprintf(out,
		"usage: swapctl metrics [--json] [KEY...]\n"
		"\n"
		"List the metrics swapctl computes from a guest's stream: the\n"
		"key (what scenarios, summary.json and report --json name), the\n"
		"label of the tables, the unit, which direction is better, the\n"
		"minimum effect below which a change is noise, whether one\n"
		"repeat is enough for a verdict, and how it is computed.\n"
		"\n"
		"  --json       one JSON array\n"
		"  -h, --help   this help\n");
}

static void text(const struct metric_def *m)
{
	printf("  %-26s %-22s [%s, %s is better, min effect %g%%%s]\n"
	       "  %-26s %s\n", m->key, m->label, m->unit,
	       metric_dir_name(m->dir), m->min_effect * 100,
	       m->deterministic ? ", deterministic" : "", "", m->how);
}

static json_t *entry(const struct metric_def *m)
{
	return json_pack("{sssssssssisfsbss}", "key", m->key,
			 "label", m->label, "unit", m->unit,
			 "direction", metric_dir_name(m->dir),
			 "decimals", m->decimals,
			 "min_effect", m->min_effect,
			 "deterministic", m->deterministic,
			 "how", m->how);
}

int cmd_metrics(int argc, char **argv, struct swapctl_config *cfg)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	json_t *arr = NULL;
	unsigned int i;
	int c, a;

	(void)cfg;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage_metrics(stdout);
			return EXIT_OK;
		default:
			usage_metrics(stderr);
			return EXIT_USAGE;
		}
	}
	for (a = optind; a < argc; a++)
		if (metric_index(argv[a]) < 0) {
			fprintf(stderr,
				"swapctl metrics: '%s' is not a metric (swapctl metrics lists them)\n",
				argv[a]);
			return EXIT_USAGE;
		}
	if (json)
		arr = json_array();
	else
		printf("metrics (key, label [unit, direction, minimum effect]):\n");
	for (i = 0; i < metric_count; i++) {
		const struct metric_def *m = &metric_defs[i];
		bool want = optind == argc;

		for (a = optind; a < argc && !want; a++)
			want = !strcmp(argv[a], m->key);
		if (!want)
			continue;
		if (json)
			json_array_append_new(arr, entry(m));
		else
			text(m);
	}
	if (json) {
		c = json_dumpf(arr, stdout, JSON_INDENT(2) |
			       JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
		json_decref(arr);
		fputc('\n', stdout);
		if (c)
			return EXIT_FAILURE_GENERIC;
	}
	if (fflush(stdout)) {
		fprintf(stderr, "swapctl metrics: <stdout>: write failed\n");
		return EXIT_FAILURE_GENERIC;
	}
	return EXIT_OK;
}
