// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the option parser (src/core/parse-options.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse-options.h"
#include "swapctl.h"

static char *outbuf, *errbuf;
static size_t outlen, errlen;

static int setup(void **state)
{
	(void)state;
	parse_options_out = open_memstream(&outbuf, &outlen);
	parse_options_err = open_memstream(&errbuf, &errlen);
	return parse_options_out && parse_options_err ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fclose(parse_options_out);
	fclose(parse_options_err);
	free(outbuf);
	free(errbuf);
	parse_options_out = parse_options_err = NULL;
	outbuf = errbuf = NULL;
	return 0;
}

static const char *err_text(void)
{
	fflush(parse_options_err);
	return errbuf;
}

static const char *out_text(void)
{
	fflush(parse_options_out);
	return outbuf;
}

/* the options of a typical command */
struct vals {
	bool flag, quiet;
	int count, jobs, mode;
	double speed;
	const char *name;
	const char *kernels;
};

static int kernels_cb(const struct popt *o, const char *arg, char *err,
		      size_t len)
{
	if (strcmp(arg, "a") && strcmp(arg, "b")) {
		snprintf(err, len, "'%s' is not a or b", arg);
		return -1;
	}
	*(const char **)o->value = arg;
	return 0;
}

static int parse(struct vals *v, int flags, int min, int max, int argc,
		 char **argv)
{
	struct popt opts[] = {
		OPT_BOOL('f', "flag", &v->flag, "a flag"),
		OPT_BOOL('q', NULL, &v->quiet, "short only"),
		OPT_COUNTUP('v', "verbose", &v->count, "more output"),
		OPT_INT('j', "jobs", &v->jobs, "N", "parallel jobs", 0, 256),
		OPT_DOUBLE(0, "speed", &v->speed, "X", "replay speed", 0, 10000,
			   POPT_MIN_EXCLUSIVE),
		OPT_STRING('s', "series", &v->name, "NAME", "a series"),
		OPT_GROUP("format:"),
		OPT_CMDMODE(0, "json", &v->mode, 1, "JSON"),
		OPT_CMDMODE(0, "csv", &v->mode, 2, "CSV"),
		OPT_CALLBACK(0, "kernels", &v->kernels, "LIST", "a or b",
			     kernels_cb),
		OPT_END(),
	};
	struct popt_cmd cmd = {
		.name = "test", .args = "FILE...", .min_args = min,
		.max_args = max, .desc = "Test the parser.\n", .opts = opts,
		.epilog = "exit codes: 0 ok.\n", .flags = flags,
	};

	memset(v, 0, sizeof(*v));
	return parse_options(&cmd, argc, argv);
}

#define ARGV(...) ((char *[]){ "test", __VA_ARGS__, NULL })
#define ARGC(a) ((int)(sizeof(a) / sizeof(a[0])) - 1)
#define PARSE_N(v, fl, lo, hi, ...) ({ char **a_ = ARGV(__VA_ARGS__); \
	parse(v, fl, lo, hi, ARGC(ARGV(__VA_ARGS__)), a_); })
#define PARSE(v, ...) PARSE_N(v, 0, 0, -1, __VA_ARGS__)

static void test_forms(void **state)
{
	struct vals v;
	char **a = ARGV("-f", "x", "--jobs=4", "--series", "s1", "-vv", "y",
			"--speed", "2.5", "--", "-q");

	(void)state;
	assert_int_equal(parse(&v, 0, 0, -1, 12, a), 3);
	assert_true(v.flag);
	assert_false(v.quiet);	/* after "--": an operand */
	assert_int_equal(v.jobs, 4);
	assert_int_equal(v.count, 2);
	assert_string_equal(v.name, "s1");
	assert_true(v.speed == 2.5);
	assert_string_equal(a[0], "x");
	assert_string_equal(a[1], "y");
	assert_string_equal(a[2], "-q");
	assert_null(a[3]);

	/* attached short values, clusters ending in a valued option */
	assert_int_equal(PARSE(&v, "-j7"), 0);
	assert_int_equal(v.jobs, 7);
	assert_int_equal(PARSE(&v, "-qfj", "9"), 0);
	assert_true(v.quiet && v.flag);
	assert_int_equal(v.jobs, 9);
	assert_int_equal(PARSE(&v, "-sfoo"), 0);
	assert_string_equal(v.name, "foo");
	/* "-" alone is an operand (standard input/output) */
	assert_int_equal(PARSE(&v, "-"), 1);
	assert_string_equal(err_text() ? err_text() : "", "");
}

static void test_errors(void **state)
{
	struct vals v;

	(void)state;
	assert_int_equal(PARSE(&v, "--nope"), PARSE_OPT_ERROR);
	assert_string_equal(err_text(),
		"swapctl test: unknown option '--nope' (see 'swapctl test --help')\n");
	assert_int_equal(parse_options_exit(PARSE_OPT_ERROR), EXIT_USAGE);
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--nope=3"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(), "unknown option '--nope' "));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "-fx"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(), "unknown option '-x' (see"));
	rewind(parse_options_err);
	/* no abbreviations */
	assert_int_equal(PARSE(&v, "--fla"), PARSE_OPT_ERROR);
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--jobs"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(),
			       "swapctl test: option '--jobs' needs a value (see"));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--flag=1"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(), "option '--flag' takes no value"));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--series="), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(), "'--series' needs a non-empty"));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--series", ""), PARSE_OPT_ERROR);
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--json", "--csv"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(),
			       "'--csv' and '--json' exclude each other"));
	rewind(parse_options_err);
	/* the same mode twice is fine */
	assert_int_equal(PARSE(&v, "--csv", "--csv"), 0);
	assert_int_equal(v.mode, 2);
	assert_int_equal(PARSE(&v, "--kernels", "c"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(),
			       "option '--kernels': 'c' is not a or b (see"));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--kernels=b"), 0);
	assert_string_equal(v.kernels, "b");
	/* one value given twice: the first was dropped (issue 33, item 10) */
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--series", "a", "-s", "b"),
			 PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(),
			       "option '-s' given twice (it takes one value)"));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "-j1", "--jobs=2"), PARSE_OPT_ERROR);
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--speed", "1", "--speed", "2"),
			 PARSE_OPT_ERROR);
	rewind(parse_options_err);
	/* each parse_options() starts afresh */
	assert_int_equal(PARSE(&v, "--series", "a"), 0);
	assert_int_equal(PARSE(&v, "--series", "b"), 0);
	rewind(parse_options_err);
	/* every error is exactly one line */
	assert_int_equal(PARSE(&v, "-j", "x"), PARSE_OPT_ERROR);
	assert_non_null(strchr(err_text(), '\n'));
	assert_null(strchr(strchr(err_text(), '\n') + 1, '\n'));
}

static void test_ranges(void **state)
{
	struct vals v;

	(void)state;
	assert_int_equal(PARSE(&v, "-j0"), 0);
	assert_int_equal(PARSE(&v, "-j256"), 0);
	assert_int_equal(v.jobs, 256);
	assert_int_equal(PARSE(&v, "-j257"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(),
		"option '-j': '257' is not a whole number from 0 to 256"));
	rewind(parse_options_err);
	assert_int_equal(PARSE(&v, "--jobs=-1"), PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--jobs= 4"), PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--jobs=4x"), PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--jobs=99999999999999999999"),
			 PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--jobs=2.5"), PARSE_OPT_ERROR);
	/* exclusive minimum, no NaN or infinity */
	assert_int_equal(PARSE(&v, "--speed=0"), PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(), "is not a number above 0 and at most 10000"));
	assert_int_equal(PARSE(&v, "--speed=nan"), PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--speed=inf"), PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--speed=10000.5"), PARSE_OPT_ERROR);
	assert_int_equal(PARSE(&v, "--speed=0.001"), 0);
	assert_int_equal(PARSE(&v, "--speed=10000"), 0);
}

static void test_operands(void **state)
{
	struct vals v;

	(void)state;
	assert_int_equal(parse(&v, 0, 1, 2, 1, ARGV(NULL)), PARSE_OPT_ERROR);
	assert_string_equal(err_text(),
		"swapctl test: missing FILE (see 'swapctl test --help')\n");
	rewind(parse_options_err);
	assert_int_equal(PARSE_N(&v, 0, 1, 2, "a", "-f", "b", "c"),
			 PARSE_OPT_ERROR);
	assert_non_null(strstr(err_text(), "unexpected argument 'c'"));
	assert_int_equal(PARSE_N(&v, 0, 1, 2, "a", "-f", "b"), 2);
	assert_true(v.flag);
	/* stop at the first operand: the command's own options stay */
	{
		char **a = ARGV("-v", "build", "-f", "--help");

		assert_int_equal(parse(&v, PARSE_OPT_STOP_AT_NON_OPTION, 0, -1,
				       5, a), 3);
		assert_int_equal(v.count, 1);
		assert_false(v.flag);
		assert_string_equal(a[0], "build");
		assert_string_equal(a[1], "-f");
		assert_string_equal(a[2], "--help");
	}
}

static void test_help(void **state)
{
	struct vals v;
	const char *o;

	(void)state;
	assert_int_equal(PARSE(&v, "--help"), PARSE_OPT_HELP);
	assert_int_equal(parse_options_exit(PARSE_OPT_HELP), EXIT_OK);
	o = out_text();
	assert_non_null(o);
	/* synopsis from the table */
	assert_non_null(strstr(o, "usage: swapctl test [-f|--flag] [-q]"));
	assert_non_null(strstr(o, "[-j|--jobs N]"));
	assert_non_null(strstr(o, "FILE...\n"));
	assert_non_null(strstr(o, "\nTest the parser.\n"));
	/* one line per option, ranges from the table */
	assert_non_null(strstr(o, "\n  -f, --flag              a flag\n"));
	assert_non_null(strstr(o, "\n  -q                      short only\n"));
	assert_non_null(strstr(o, "\n      --speed X           replay speed "
			       "(0-10000]\n"));
	assert_non_null(strstr(o, "parallel jobs [0-256]\n"));
	assert_non_null(strstr(o, "\nformat:\n"));
	assert_non_null(strstr(o, "\n  -h, --help              this help\n"));
	assert_non_null(strstr(o, "\nexit codes: 0 ok.\n"));
	assert_string_equal(err_text() ? err_text() : "", "");
	/* -h too, and after other options */
	rewind(parse_options_out);
	assert_int_equal(PARSE(&v, "-f", "-h"), PARSE_OPT_HELP);
	assert_int_equal(PARSE(&v, "-fh"), PARSE_OPT_HELP);
	/* no line is wider than 79 columns */
	{
		const char *p = out_text(), *nl;

		for (; (nl = strchr(p, '\n')); p = nl + 1)
			assert_true(nl - p <= 79);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_forms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ranges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_operands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
