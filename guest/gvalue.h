/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command's own figures: a line "swapctl-value NAME N" in its output
 * (NAME of [a-z0-9_], at most GVALUE_NAME_MAX - 1 bytes; N a decimal
 * integer) becomes NAME: N in the "values" of its command end line
 * (swapctl-scenario(5), COMMAND WORKLOADS), and a metric when the
 * registry names it. swapctl's own programs print them (redisrun).
 */
#ifndef GUEST_GVALUE_H
#define GUEST_GVALUE_H

#include <stdint.h>
#include <stdio.h>

#define GVALUE_PREFIX	"swapctl-value "
#define GVALUE_NAME_MAX	48	/* with NUL: the stream's name limit */
#define GVALUE_MAX	16	/* per command run: the stream's limit */

struct gvalue {
	char name[GVALUE_NAME_MAX];
	uint64_t v;
};

/*
 * One output line (with or without its '\n'): 1 and @out filled if it is
 * a value line, 0 if it is any other line, -1 if it starts with the
 * prefix but is malformed.
 */
int gvalue_parse_line(const char *line, struct gvalue *out);
/*
 * Add @v to @vals (@n of at most @max): a name seen again takes the new
 * value; a new name beyond @max is dropped. Returns the new count.
 */
int gvalue_add(struct gvalue *vals, int n, int max, const struct gvalue *v);
/* Print "swapctl-value NAME N\n" to @f. */
void gvalue_print(FILE *f, const char *name, uint64_t v);

#endif
