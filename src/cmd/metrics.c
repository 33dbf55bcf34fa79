// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl metrics: list the metric registry (src/model/metrics.c), like
 * `perf list`.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "metrics.h"
#include "parse-options.h"
#include "swapctl.h"

static void text(const struct metric_def *m)
{
	printf("  %-26s %-22s [%s, %s is better, min effect %g%%%s%s%s]\n"
	       "  %-26s %s\n", m->key, m->label, m->unit,
	       metric_dir_name(m->dir), m->min_effect * 100,
	       m->deterministic ? ", deterministic" : "",
	       m->lines ? ", lines " : "", m->lines ? m->lines : "",
	       "", m->how);
}

static json_t *entry(const struct metric_def *m)
{
	/* lines: the kernel lines that have it, null for every line */
	return json_pack("{sssssssssisfsbssss?}", "key", m->key,
			 "label", m->label, "unit", m->unit,
			 "direction", metric_dir_name(m->dir),
			 "decimals", m->decimals,
			 "min_effect", m->min_effect,
			 "deterministic", m->deterministic,
			 "how", m->how, "lines", m->lines);
}

int cmd_metrics(int argc, char **argv, struct swapctl_config *cfg)
{
	bool json = false;
	struct popt opts[] = {
		OPT_BOOL(0, "json", &json, "one JSON array"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 10, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "metrics", .args = "[KEY...]", .max_args = -1,
		.opts = opts,
		.desc =
		"List the metrics swapctl computes from a guest's stream (the\n"
		"registry in src/model/metrics.c): the key that scenarios, summary.json\n"
		"and report --json use, the label of the tables, the unit, which\n"
		"direction is better, the minimum effect below which a change is\n"
		"noise, whether one repeat can give a verdict (deterministic), and\n"
		"how it is computed, and the kernel lines that have it (elsewhere it\n"
		"is n/a). With KEYs, only those.\n",
	};
	json_t *arr = NULL;
	unsigned int i;
	int c = 0, a, n;

	(void)cfg;
	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	argc = n;
	for (a = 0; a < argc; a++)
		if (metric_index(argv[a]) < 0)
			return popt_error(&cmd, "'%s' is not a metric",
					  argv[a]);
	if (json)
		arr = json_array();
	else
		printf("metrics (key, label [unit, direction, minimum effect]):\n");
	for (i = 0; i < metric_count; i++) {
		const struct metric_def *m = &metric_defs[i];
		bool want = argc == 0;

		for (a = 0; a < argc && !want; a++)
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
	}
	/* an output that cannot be written: 10, as every command says */
	if (c || fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "swapctl metrics: <stdout>: write failed\n");
		return EXIT_OUTPUT;
	}
	return EXIT_OK;
}
