// SPDX-License-Identifier: GPL-2.0
/*
 * The option parser of every swapctl command (see parse-options.h), after
 * git's parse-options: the table is the single source of the options, of
 * their help and of their ranges.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "parse-options.h"
#include "swapctl.h"

#define HELP_COL 26		/* where the help of an option starts */
#define TEXT_WIDTH 79		/* wrap the help and the synopsis here */

FILE *parse_options_out, *parse_options_err;

static FILE *out_stream(void)
{
	return parse_options_out ? parse_options_out : stdout;
}

static FILE *err_stream(void)
{
	return parse_options_err ? parse_options_err : stderr;
}

static const char *cmd_prefix(const struct popt_cmd *cmd, char *buf,
			      size_t len)
{
	snprintf(buf, len, "swapctl%s%s", cmd->name ? " " : "",
		 cmd->name ? cmd->name : "");
	return buf;
}

static int verror(const struct popt_cmd *cmd, const char *fmt, va_list ap)
{
	FILE *err = err_stream();
	char prefix[64];

	cmd_prefix(cmd, prefix, sizeof(prefix));
	fflush(stdout);
	fprintf(err, "%s: ", prefix);
	vfprintf(err, fmt, ap);
	fprintf(err, " (see '%s --help')\n", prefix);
	return EXIT_USAGE;
}

int popt_error(const struct popt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = verror(cmd, fmt, ap);
	va_end(ap);
	return ret;
}

int parse_options_exit(int result)
{
	return result == PARSE_OPT_HELP ? EXIT_OK : EXIT_USAGE;
}

static bool takes_arg(const struct popt *o)
{
	switch (o->type) {
	case POPT_STRING:
	case POPT_INT:
	case POPT_DOUBLE:
		return true;
	case POPT_CALLBACK:
		return o->argh != NULL;
	default:
		return false;
	}
}

static bool is_option(const struct popt *o)
{
	return o->type != POPT_END && o->type != POPT_GROUP;
}

/* "a number from 1 to 100", "a number above 0 and at most 10000" */
static void range_text(const struct popt *o, char *buf, size_t len)
{
	if (o->type == POPT_INT)
		snprintf(buf, len, "a whole number from %.0f to %.0f", o->min,
			 o->max);
	else if (o->flags & POPT_MIN_EXCLUSIVE)
		snprintf(buf, len, "a number above %g and at most %g", o->min,
			 o->max);
	else
		snprintf(buf, len, "a number from %g to %g", o->min, o->max);
}

/* ---- the help ---- */

/*
 * Print @text wrapped at TEXT_WIDTH; the first line continues at column
 * @col, the others start at column @indent. Returns the column reached.
 */
static int print_wrapped(FILE *out, const char *text, int col, int indent)
{
	const char *p = text;
	int len;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		len = (int)strcspn(p, " ");
		if (col > indent && col + 1 + len > TEXT_WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, p);
		col += len;
		p += len;
	}
	return col;
}

static void synopsis_item(const struct popt *o, char *buf, size_t len)
{
	char name[64];

	if (o->short_name && o->long_name)
		snprintf(name, sizeof(name), "-%c|--%s", o->short_name,
			 o->long_name);
	else if (o->short_name)
		snprintf(name, sizeof(name), "-%c", o->short_name);
	else
		snprintf(name, sizeof(name), "--%s", o->long_name);
	if (takes_arg(o))
		snprintf(buf, len, "[%s %s]", name, o->argh ? o->argh : "ARG");
	else
		snprintf(buf, len, "[%s]", name);
}

/* One word of the synopsis, wrapped between words, never inside one. */
static void synopsis_word(FILE *out, const char *word, int *col, int indent)
{
	if (*col > indent && *col + 1 + (int)strlen(word) > TEXT_WIDTH)
		*col = fprintf(out, "\n%*s", indent - 1, "") - 1;
	*col += fprintf(out, " %s", word);
}

static void print_synopsis(const struct popt_cmd *cmd, FILE *out)
{
	const struct popt *o;
	char prefix[64], item[128];
	int col, indent;

	cmd_prefix(cmd, prefix, sizeof(prefix));
	col = fprintf(out, "usage: %s", prefix);
	indent = col + 1;
	for (o = cmd->opts; o && o->type != POPT_END; o++) {
		if (!is_option(o))
			continue;
		synopsis_item(o, item, sizeof(item));
		synopsis_word(out, item, &col, indent);
	}
	if (cmd->args)
		synopsis_word(out, cmd->args, &col, indent);
	fputc('\n', out);
}

static void print_option(const struct popt *o, FILE *out)
{
	char label[96], range[96], help[1024];
	int col;

	snprintf(label, sizeof(label), "  %s%s%s%s%s%s",
		 o->short_name ? (char[]){ '-', (char)o->short_name, 0 } :
		 "  ",
		 o->short_name && o->long_name ? ", " : o->long_name ? "  " : "",
		 o->long_name ? "--" : "", o->long_name ? o->long_name : "",
		 takes_arg(o) ? " " : "",
		 takes_arg(o) ? (o->argh ? o->argh : "ARG") : "");
	col = fprintf(out, "%s", label);
	if (col > HELP_COL - 2) {
		fputc('\n', out);
		col = 0;
	}
	fprintf(out, "%*s", HELP_COL - col, "");
	if (o->type == POPT_INT || o->type == POPT_DOUBLE) {
		/* the range as an interval: [0-256], (0-10000] */
		snprintf(range, sizeof(range),
			 o->type == POPT_INT ? "%c%.0f-%.0f]" : "%c%g-%g]",
			 o->flags & POPT_MIN_EXCLUSIVE ? '(' : '[', o->min,
			 o->max);
		snprintf(help, sizeof(help), "%s %s", o->help ? o->help : "",
			 range);
	} else {
		snprintf(help, sizeof(help), "%s", o->help ? o->help : "");
	}
	print_wrapped(out, help, HELP_COL, HELP_COL);
	fputc('\n', out);
}

static const struct popt *find_short(const struct popt *opts, int c)
{
	for (; opts && opts->type != POPT_END; opts++)
		if (is_option(opts) && opts->short_name == c)
			return opts;
	return NULL;
}

static const struct popt *find_long(const struct popt *opts,
				    const char *name, size_t len)
{
	for (; opts && opts->type != POPT_END; opts++)
		if (is_option(opts) && opts->long_name &&
		    strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, name, len))
			return opts;
	return NULL;
}

void parse_options_usage(const struct popt_cmd *cmd, FILE *out)
{
	static const struct popt help_opt = {
		.type = POPT_BOOL, .long_name = "help", .help = "this help",
	};
	struct popt h = help_opt;
	const struct popt *o;

	print_synopsis(cmd, out);
	if (cmd->desc)
		fprintf(out, "\n%s", cmd->desc);
	fputc('\n', out);
	for (o = cmd->opts; o && o->type != POPT_END; o++) {
		if (o->type == POPT_GROUP)
			fprintf(out, "\n%s\n", o->help);
		else
			print_option(o, out);
	}
	if (!find_long(cmd->opts, "help", 4)) {
		if (!find_short(cmd->opts, 'h'))
			h.short_name = 'h';
		print_option(&h, out);
	}
	if (cmd->epilog)
		fprintf(out, "\n%s", cmd->epilog);
	if (cmd->epilog_fn)
		cmd->epilog_fn(out);
	if (cmd->exits)
		exit_codes_print(out, cmd->exits);
}

/* ---- parsing ---- */

static const char *other_mode(const struct popt_cmd *cmd,
			      const struct popt *o, char *buf, size_t len)
{
	const struct popt *p;

	for (p = cmd->opts; p->type != POPT_END; p++)
		if (p != o && p->type == POPT_CMDMODE &&
		    p->value == o->value && p->defval == *(int *)o->value)
			break;
	if (p->type == POPT_END)
		snprintf(buf, len, "another option");
	else if (p->long_name)
		snprintf(buf, len, "'--%s'", p->long_name);
	else
		snprintf(buf, len, "'-%c'", p->short_name);
	return buf;
}

static int parse_number(const struct popt *o, const char *arg, double *v)
{
	char *end;
	long l;

	if (!*arg || isspace((unsigned char)*arg))
		return -1;
	errno = 0;
	if (o->type == POPT_INT) {
		l = strtol(arg, &end, 10);
		*v = (double)l;
	} else {
		*v = strtod(arg, &end);
	}
	if (errno || *end || !isfinite(*v))
		return -1;
	if (o->flags & POPT_MIN_EXCLUSIVE ? !(*v > o->min) : !(*v >= o->min))
		return -1;
	return *v <= o->max ? 0 : -1;
}

/*
 * The options of one value (string, int, double) given so far by this
 * parse_options(): a second one would silently replace the first
 * (build --series A --series B built only B), so it is refused. Options
 * meant to repeat are callbacks.
 */
static const void *given[64];
static unsigned int ngiven;

static bool given_before(const struct popt *o)
{
	unsigned int i;

	for (i = 0; i < ngiven; i++)
		if (given[i] == o->value)
			return true;
	if (ngiven < ARRAY_SIZE(given))
		given[ngiven++] = o->value;
	return false;
}

/* Store @arg for @o, given on the command line as @as ("-j", "--jobs"). */
static int apply(const struct popt_cmd *cmd, const struct popt *o,
		 const char *as, const char *arg)
{
	char why[256];
	double v;

	if ((o->type == POPT_STRING || o->type == POPT_INT ||
	     o->type == POPT_DOUBLE) && given_before(o))
		return popt_error(cmd, "option '%s' given twice (it takes one value)",
				  as);
	switch (o->type) {
	case POPT_BOOL:
		*(bool *)o->value = true;
		return 0;
	case POPT_COUNTUP:
		(*(int *)o->value)++;
		return 0;
	case POPT_STRING:
		if (!*arg)
			return popt_error(cmd, "option '%s' needs a non-empty value",
					  as);
		*(const char **)o->value = arg;
		return 0;
	case POPT_INT:
	case POPT_DOUBLE:
		if (parse_number(o, arg, &v)) {
			range_text(o, why, sizeof(why));
			return popt_error(cmd, "option '%s': '%s' is not %s", as,
					  arg, why);
		}
		if (o->type == POPT_INT)
			*(int *)o->value = (int)v;
		else
			*(double *)o->value = v;
		return 0;
	case POPT_CMDMODE:
		if (*(int *)o->value && *(int *)o->value != o->defval)
			return popt_error(cmd, "'%s' and %s exclude each other",
					  as, other_mode(cmd, o, why,
							 sizeof(why)));
		*(int *)o->value = (int)o->defval;
		return 0;
	case POPT_CALLBACK:
		why[0] = 0;
		if (o->callback(o, arg, why, sizeof(why)))
			return popt_error(cmd, "option '%s': %s", as,
					  why[0] ? why : "invalid value");
		return 0;
	default:
		return 0;
	}
}

/* The value of an option: the rest of this word, or the next word. */
static const char *get_arg(const struct popt_cmd *cmd, const char *as,
			   const char *rest, int argc, char **argv, int *i)
{
	if (rest)
		return rest;
	if (*i + 1 < argc)
		return argv[++*i];
	popt_error(cmd, "option '%s' needs a value", as);
	return NULL;
}

static int parse_long(const struct popt_cmd *cmd, int argc, char **argv,
		      int *i)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '='), *arg = NULL;
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct popt *o = find_long(cmd->opts, name, len);
	char as[128];

	snprintf(as, sizeof(as), "--%.*s", (int)len, name);
	if (!o && len == 4 && !strncmp(name, "help", 4) && !eq) {
		parse_options_usage(cmd, out_stream());
		return PARSE_OPT_HELP;
	}
	if (!o) {
		popt_error(cmd, "unknown option '%s'", as);
		return PARSE_OPT_ERROR;
	}
	if (takes_arg(o)) {
		arg = get_arg(cmd, as, eq ? eq + 1 : NULL, argc, argv, i);
		if (!arg)
			return PARSE_OPT_ERROR;
	} else if (eq) {
		popt_error(cmd, "option '%s' takes no value", as);
		return PARSE_OPT_ERROR;
	}
	return apply(cmd, o, as, arg) ? PARSE_OPT_ERROR : 0;
}

static int parse_short(const struct popt_cmd *cmd, int argc, char **argv,
		       int *i)
{
	const char *word = argv[*i], *arg;
	const struct popt *o;
	char as[3] = "-";
	int j;

	for (j = 1; word[j]; j++) {
		as[1] = word[j];
		o = find_short(cmd->opts, word[j]);
		if (!o && word[j] == 'h') {
			parse_options_usage(cmd, out_stream());
			return PARSE_OPT_HELP;
		}
		if (!o) {
			popt_error(cmd, "unknown option '%s'", as);
			return PARSE_OPT_ERROR;
		}
		arg = NULL;
		if (takes_arg(o)) {
			arg = get_arg(cmd, as, word[j + 1] ? word + j + 1 : NULL,
				      argc, argv, i);
			if (!arg)
				return PARSE_OPT_ERROR;
		}
		if (apply(cmd, o, as, arg))
			return PARSE_OPT_ERROR;
		if (arg)
			break;
	}
	return 0;
}

static int check_operands(const struct popt_cmd *cmd, int n, char **argv)
{
	char what[128];
	size_t len;

	if (n < cmd->min_args) {
		/* "SCENARIO.json..." -> "missing SCENARIO.json" */
		snprintf(what, sizeof(what), "%s",
			 cmd->args ? cmd->args : "argument");
		len = strlen(what);
		while (len && (what[len - 1] == '.' || what[len - 1] == ']'))
			what[--len] = 0;
		popt_error(cmd, "missing %s", what[0] == '[' ? what + 1 : what);
		return PARSE_OPT_ERROR;
	}
	if (cmd->max_args >= 0 && n > cmd->max_args) {
		popt_error(cmd, "unexpected argument '%s'",
			   argv[cmd->max_args]);
		return PARSE_OPT_ERROR;
	}
	return n;
}

int parse_options(const struct popt_cmd *cmd, int argc, char **argv)
{
	bool operands_only = false;
	int i, n = 0, ret;

	ngiven = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (operands_only || a[0] != '-' || !a[1]) {
			argv[n++] = argv[i];
			if (cmd->flags & PARSE_OPT_STOP_AT_NON_OPTION)
				operands_only = true;
			continue;
		}
		if (!strcmp(a, "--")) {
			operands_only = true;
			continue;
		}
		ret = a[1] == '-' ? parse_long(cmd, argc, argv, &i) :
			parse_short(cmd, argc, argv, &i);
		if (ret)
			return ret;
	}
	if (n < argc)
		argv[n] = NULL;
	return check_operands(cmd, n, argv);
}
