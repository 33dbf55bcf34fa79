/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One option parser for every command, on git's parse-options model: a
 * command declares a table of options (name, value, help string, numeric
 * range), and the parser does the rest the same way everywhere:
 *
 *   - the help text (synopsis, option list) is generated from the table;
 *     -h and --help print it on stdout and the command exits 0;
 *   - every error is one line on stderr,
 *       swapctl CMD: unknown option '--x' (see 'swapctl CMD --help')
 *     and the command exits EXIT_USAGE (2);
 *   - numeric values are parsed and range-checked from the table.
 *
 * Accepted forms: --name, --name=VALUE, --name VALUE, -x, -xVALUE,
 * -x VALUE, clustered flags (-bq), and "--" to end the options. Long
 * names are not abbreviated. Operands may come between options, unless
 * PARSE_OPT_STOP_AT_NON_OPTION (the global options before the command).
 */
#ifndef SWAPCTL_PARSE_OPTIONS_H
#define SWAPCTL_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

enum popt_type {
	POPT_END,
	POPT_GROUP,	/* a heading in the help, no option */
	POPT_BOOL,	/* bool *: set to true */
	POPT_COUNTUP,	/* int *: incremented per use (-vv) */
	POPT_STRING,	/* const char **: the value (non-empty) */
	POPT_INT,	/* int *: an integer in [min, max] */
	POPT_DOUBLE,	/* double *: a number in [min, max] */
	POPT_CMDMODE,	/* int *: set to defval; two different ones clash */
	POPT_CALLBACK,	/* callback(opt, value) checks and stores */
};

/* popt.flags */
enum {
	POPT_MIN_EXCLUSIVE = 1,	/* POPT_DOUBLE: value > min, not >= */
};

struct popt;

/*
 * Check and store @arg (NULL for an option without argh). On error write
 * why into @err (no option name, no newline) and return -1.
 */
typedef int popt_cb(const struct popt *opt, const char *arg, char *err,
		    size_t errlen);

struct popt {
	enum popt_type type;
	int short_name;		/* 0: none */
	const char *long_name;	/* without "--"; NULL: none */
	void *value;
	const char *argh;	/* name of the value in the help; NULL: none */
	const char *help;
	int flags;
	double min, max;	/* POPT_INT, POPT_DOUBLE */
	long defval;		/* POPT_CMDMODE */
	popt_cb *callback;	/* POPT_CALLBACK */
};

/* Type-checked value pointers: a wrong variable type does not compile. */
#define POPT_PTR(T, v) _Generic((v), T * : (v))

#define OPT_END() { .type = POPT_END }
#define OPT_GROUP(h) { .type = POPT_GROUP, .help = (h) }
#define OPT_BOOL(s, l, v, h) \
	{ .type = POPT_BOOL, .short_name = (s), .long_name = (l), \
	  .value = POPT_PTR(bool, v), .help = (h) }
#define OPT_COUNTUP(s, l, v, h) \
	{ .type = POPT_COUNTUP, .short_name = (s), .long_name = (l), \
	  .value = POPT_PTR(int, v), .help = (h) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = POPT_STRING, .short_name = (s), .long_name = (l), \
	  .value = POPT_PTR(const char *, v), .argh = (a), .help = (h) }
#define OPT_INT(s, l, v, a, h, lo, hi) \
	{ .type = POPT_INT, .short_name = (s), .long_name = (l), \
	  .value = POPT_PTR(int, v), .argh = (a), .help = (h), \
	  .min = (lo), .max = (hi) }
#define OPT_DOUBLE(s, l, v, a, h, lo, hi, f) \
	{ .type = POPT_DOUBLE, .short_name = (s), .long_name = (l), \
	  .value = POPT_PTR(double, v), .argh = (a), .help = (h), \
	  .min = (lo), .max = (hi), .flags = (f) }
#define OPT_CMDMODE(s, l, v, i, h) \
	{ .type = POPT_CMDMODE, .short_name = (s), .long_name = (l), \
	  .value = POPT_PTR(int, v), .help = (h), .defval = (i) }
#define OPT_CALLBACK(s, l, v, a, h, f) \
	{ .type = POPT_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .callback = (f) }

/* popt_cmd.flags */
enum {
	PARSE_OPT_STOP_AT_NON_OPTION = 1,	/* options end at the 1st operand */
};

/* What a command tells the parser, and what its help is made of. */
struct popt_cmd {
	const char *name;	/* "build": "swapctl build"; NULL: swapctl */
	const char *args;	/* operands in the synopsis, e.g. "RUN_DIR" */
	int min_args, max_args;	/* operand count; max_args -1: any */
	const char *desc;	/* paragraphs after the synopsis */
	const struct popt *opts;
	const char *epilog;	/* after the option list: exit codes... */
	void (*epilog_fn)(FILE *out);	/* printed after epilog */
	/* the exit codes it returns, ended by -1: printed last (exitcodes.h) */
	const int *exits;
	int flags;
};

/* parse_options() results other than an operand count */
enum {
	PARSE_OPT_HELP = -1,	/* the help was printed: exit 0 */
	PARSE_OPT_ERROR = -2,	/* one line was printed: exit 2 */
};

/*
 * Parse @argv[1..@argc) (argv[0] is the command's name) against
 * @cmd->opts, storing the values. The operands are moved to
 * @argv[0..n) (argv[n] becomes NULL) and n is returned; or
 * PARSE_OPT_HELP or PARSE_OPT_ERROR, see above.
 */
int parse_options(const struct popt_cmd *cmd, int argc, char **argv);

/* The exit code that goes with a negative parse_options() result. */
int parse_options_exit(int result);

/* Print the generated help of @cmd. */
void parse_options_usage(const struct popt_cmd *cmd, FILE *out);

/*
 * A usage error found after parsing (options that exclude each other, a
 * bad operand), in the one format:
 *   swapctl CMD: MESSAGE (see 'swapctl CMD --help')
 * Returns EXIT_USAGE.
 */
__printf(2, 3)
int popt_error(const struct popt_cmd *cmd, const char *fmt, ...);

/* Where help and errors go; NULL: stdout and stderr (tests set them). */
extern FILE *parse_options_out, *parse_options_err;

#endif
