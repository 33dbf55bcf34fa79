// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for src/run/scenario.c and src/run/plan.c: any bytes must give
 * either a scenario whose plan the guest's parser accepts, or one error
 * line "t.json:LINE:COLUMN: ..." -- never a crash, a leak or a position
 * outside the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "scenario.h"
#include "../guest/gplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct scenario scn;
static struct gplan gp;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1024], gerr[256], *plan;
	unsigned long line, col;
	size_t i, lines = 1;

	if (scenario_parse(&scn, (const char *)data, size, "t.json", err,
			   sizeof(err))) {
		if (strncmp(err, "t.json:", 7) || strchr(err, '\n'))
			abort();
		/* jansson's own positions may point just past the end */
		if (sscanf(err + 7, "%lu:%lu:", &line, &col) == 2) {
			for (i = 0; i < size; i++)
				lines += data[i] == '\n';
			if (line > lines + 1)
				abort();
		}
		return 0;
	}
	if (scenario_check_fit(&scn, scn.memory_mb ? scn.memory_mb : 256,
			       err, sizeof(err)))
		return 0;
	plan = plan_text(&scn, scn.memory_mb ? scn.memory_mb : 256, 20490);
	if (!plan)
		abort();
	/* whatever the scenario said, the guest understands the plan */
	if (gplan_parse(plan, &gp, gerr, sizeof(gerr))) {
		fprintf(stderr, "guest rejects: %s\n%s", gerr, plan);
		abort();
	}
	free(plan);
	return 0;
}
