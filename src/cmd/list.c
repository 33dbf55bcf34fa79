// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl list: the shipped scenarios (name, description, swap backends)
 * and the kernels built in the work directory (variant, version, patches,
 * build time, debug or not), from the .json files of <datadir>/scenarios and
 * <workdir>/kernels/<variant>/manifest.json.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jfile.h"
#include "manifest.h"
#include "parse-options.h"
#include "scenario.h"
#include "swapctl.h"
#include "util.h"

#define LIST_MAX	256

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in @dir ending with @suffix ("" = directories), or -1. */
static int names(const char *dir, const char *suffix, char **out, int max)
{
	size_t sl = strlen(suffix);
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		if (sl ? l <= sl || strcmp(e->d_name + l - sl, suffix) :
		    e->d_type != DT_DIR && e->d_type != DT_LNK &&
		    e->d_type != DT_UNKNOWN)
			continue;
		out[n] = strdup(e->d_name);
		if (out[n])
			n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), cmp_str);
	return n;
}

static void free_names(char **v, int n)
{
	while (n-- > 0)
		free(v[n]);
}

/* One scenario: {file, name, description, backends[]} or {file, error}. */
static json_t *scenario_entry(const char *path, const char *file)
{
	struct scenario *s = malloc(sizeof(*s));
	json_t *o, *b;
	char err[1024];
	int i;

	if (!s)
		return NULL;
	if (scenario_load(s, path, err, sizeof(err))) {
		free(s);
		return json_pack("{ssss}", "file", file, "error", err);
	}
	b = json_array();
	for (i = 0; b && i < s->nswap; i++)
		json_array_append_new(b, json_string(
			plan_backend_name(s->swap[i].type)));
	o = json_pack("{sssssssOs:o}", "file", file, "name", s->name,
		      "description", s->description, "backends", b,
		      "kernel_line", s->kernel_line[0] ?
		      json_string(s->kernel_line) : json_null());
	json_decref(b);
	free(s);
	return o;
}

static json_t *list_scenarios(const char *datadir)
{
	char dir[4200], path[4500], *v[LIST_MAX];
	json_t *a = json_array();
	int n, i;

	if (!a || !datadir)
		return a;
	snprintf(dir, sizeof(dir), "%s/scenarios", datadir);
	n = names(dir, ".json", v, LIST_MAX);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, v[i]);
		json_array_append_new(a, scenario_entry(path, path));
	}
	free_names(v, n);
	return a;
}

/*
 * Where a kernel came from: its manifest's "source", or for a manifest
 * written before there was one, the tarball and series it names.
 */
static json_t *source_entry(json_t *m)
{
	json_t *src = json_object_get(m, "source");

	if (json_is_object(src))
		return json_incref(src);
	return json_pack("{s:s,s:O,s:O}", "kind", "tarball",
			 "tarball", json_object_get(m, "tarball") ?: json_null(),
			 "series", json_object_get(m, "series") ?: json_null());
}

/* The kernel line of a manifest (manifest_line()); null when none. */
static json_t *line_of(json_t *m)
{
	char line[256];

	manifest_line(m, line, sizeof(line));
	return line[0] ? json_string(line) : json_null();
}

/*
 * One kernel: what its manifest says. A directory without a readable
 * manifest is listed with "error" (a build in progress or interrupted).
 */
static json_t *kernel_entry(const char *workdir, const char *kdir,
			    const char *variant)
{
	json_error_t jerr;
	json_t *m, *o, *p, *names, *x;
	size_t i;
	/* <variant>[-debug][@<line>] (kline.h) */
	size_t l = strcspn(variant, "@");
	bool debug = l > 6 && !strncmp(variant + l - 6, "-debug", 6);

	m = manifest_load(workdir, variant, &jerr);
	if (!m && errno == ENOENT)
		return json_pack("{sssbss}", "variant", variant, "debug", debug,
				 "error", "no manifest.json (not built, or a build in progress)");
	if (!m || !json_is_object(m)) {
		char why[256];
		size_t k;

		if (m)
			snprintf(why, sizeof(why),
				 "manifest.json: not a JSON object");
		else
			jfile_error(&jerr, "manifest.json", why, sizeof(why));
		for (k = 0; why[k]; k++)
			if ((unsigned char)why[k] < ' ' || why[k] == 0x7f)
				why[k] = '?';
		json_decref(m);
		return json_pack("{sssbss}", "variant", variant, "debug", debug,
				 "error", why);
	}
	names = json_array();
	p = json_object_get(m, "patches");
	json_array_foreach(p, i, x)
		json_array_append_new(names, json_string(
			json_string_value(json_object_get(x, "name")) ?: "?"));
	x = json_object_get(m, "debug");
	if (json_is_boolean(x))
		debug = json_is_true(x);
	o = json_pack("{sssbsOsOsOsOsO}", "variant", variant, "debug", debug,
		      "version", json_object_get(m, "kernel_version") ?:
		      json_null(),
		      "built_at", json_object_get(m, "built_at") ?: json_null(),
		      "build_seconds", json_object_get(m, "build_seconds") ?:
		      json_null(),
		      "series", json_object_get(m, "series") ?: json_null(),
		      "patches", names);
	if (o) {
		json_object_set_new(o, "bzImage", json_sprintf("%s/%s/bzImage",
							       kdir, variant));
		json_object_set_new(o, "source", source_entry(m));
		json_object_set_new(o, "line", line_of(m));
	}
	json_decref(names);
	json_decref(m);
	return o;
}

static json_t *list_kernels(const char *workdir)
{
	char kdir[4200], *v[LIST_MAX];
	json_t *a = json_array();
	int n, i;

	if (!a)
		return NULL;
	snprintf(kdir, sizeof(kdir), "%s/kernels", workdir);
	n = names(kdir, "", v, LIST_MAX);
	for (i = 0; i < n; i++)
		json_array_append_new(a, kernel_entry(workdir, kdir, v[i]));
	free_names(v, n);
	return a;
}

static const char *str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* The first sentence of @d, cut to @w characters with "...". */
static const char *summary(const char *d, unsigned int w, char *buf,
			   size_t len)
{
	const char *dot = strstr(d, ". ");
	size_t n = dot ? (size_t)(dot - d) + 1 : strlen(d);

	if (n >= len)
		n = len - 1;
	if (n > w && w > 3)
		snprintf(buf, len, "%.*s...", (int)(w - 3), d);
	else
		snprintf(buf, len, "%.*s", (int)n, d);
	return buf;
}

/* "git TREE REF (COMMIT)[ + SERIES]" or "tarball NAME[ + SERIES]" */
static const char *source_text(json_t *src, char *buf, size_t len)
{
	const char *series, *file, *base;

	if (!strcmp(str(src, "kind"), "git")) {
		file = str(src, "apply");
		base = strrchr(file, '/');
		snprintf(buf, len, "git %s %s (%.12s)%s%s", str(src, "tree"),
			 str(src, "ref"), str(src, "commit"), *file ? " + " : "",
			 base ? base + 1 : file);
		return buf;
	}
	file = str(src, "tarball");
	base = strrchr(file, '/');
	series = str(src, "series");
	/* patches/<name>/series: name the series by its directory */
	if (strlen(series) > 7 && !strcmp(series + strlen(series) - 7,
					  "/series")) {
		const char *e = series + strlen(series) - 7, *b = e;

		while (b > series && b[-1] != '/')
			b--;
		snprintf(buf, len, "tarball %s + %.*s", base ? base + 1 : file,
			 (int)(e - b), b);
		return buf;
	}
	snprintf(buf, len, "tarball %s", base ? base + 1 : file);
	return buf;
}

/*
 * printf() for the text listing: what manifests and scenarios say reaches
 * a terminal, so control bytes (C0, DEL, UTF-8 C1) become '?'.
 */
__printf(1, 2)
static void out(const char *fmt, ...)
{
	char buf[3 * PATH_MAX];
	unsigned char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (p = (unsigned char *)buf; *p; p++) {
		if ((*p < ' ' && *p != '\n') || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = '?';
	}
	fputs(buf, stdout);
}

static void text(json_t *scn, json_t *ker, const char *datadir,
		 const char *workdir)
{
	const char *cols = getenv("COLUMNS");
	unsigned int width = cols && atoi(cols) > 0 ? (unsigned int)atoi(cols) :
			     100;
	char desc[SCN_DESC_MAX + 1];
	json_t *e, *b;
	size_t i, j;

	out("scenarios (%s/scenarios):\n", datadir ? datadir : "?");
	json_array_foreach(scn, i, e) {
		char bk[128] = "";

		if (json_object_get(e, "error")) {
			out("  %-20s %s\n", "?", str(e, "error"));
			continue;
		}
		json_array_foreach(json_object_get(e, "backends"), j, b)
			snprintf(bk + strlen(bk), sizeof(bk) - strlen(bk),
				 "%s%s", j ? "," : "", json_string_value(b));
		if (*str(e, "kernel_line"))
			snprintf(bk + strlen(bk), sizeof(bk) - strlen(bk),
				 " (%s)", str(e, "kernel_line"));
		out("  %-20s %-14s %s\n", str(e, "name"), bk,
		       summary(str(e, "description"), width > 40 ?
			       width - 38 : 40, desc, sizeof(desc)));
	}
	if (!json_array_size(scn))
		out("  (none)\n");
	out("\nkernels (%s/kernels):\n", workdir);
	json_array_foreach(ker, i, e) {
		json_t *p = json_object_get(e, "patches");
		json_t *secs = json_object_get(e, "build_seconds");
		char src[PATH_MAX + 600], took[32];

		if (json_object_get(e, "error")) {
			out("  %-20s %s\n", str(e, "variant"),
			       str(e, "error"));
			continue;
		}
		/* a manifest may say anything: 1e308 is no build time */
		if (json_is_number(secs) && json_number_value(secs) >= 0 &&
		    json_number_value(secs) < 1e9)
			snprintf(took, sizeof(took), "%.0f s",
				 json_number_value(secs));
		else
			snprintf(took, sizeof(took), "? s");
		out("  %-20s %-5s %-10s %2zu patch%s  built %s (%s)%s  %s\n",
		       str(e, "variant"), *str(e, "line") ? str(e, "line") : "?",
		       str(e, "version"),
		       json_array_size(p), json_array_size(p) == 1 ? "" : "es",
		       str(e, "built_at"), took,
		       json_is_true(json_object_get(e, "debug")) ?
		       "  debug" : "",
		       source_text(json_object_get(e, "source"), src,
				   sizeof(src)));
	}
	if (!json_array_size(ker))
		out("  (none: 'swapctl build --all')\n");
}

int cmd_list(int argc, char **argv, struct swapctl_config *cfg)
{
	bool json = false;
	struct popt opts[] = {
		OPT_BOOL(0, "json", &json,
			 "one JSON object {scenarios, kernels}"),
		OPT_END(),
	};
	static const int exits[] = { 0, 1, 2, 3, 10, -1 };
	struct popt_cmd cmd = {
		.exits = exits,
		.name = "list", .opts = opts,
		.desc =
		"List the shipped scenarios (name, swap backends, the kernel line\n"
		"they name, description) and the kernels built in the work\n"
		"directory (variant, kernel line and version, number of patches,\n"
		"build time, debug or not, and the\n"
		"source: the tarball and series, or the git tree, ref and\n"
		"commit), as their manifest.json records them.\n",
	};
	const char *datadir = util_data_dir();
	json_t *scn, *ker, *o;
	int n, ret = EXIT_OK;

	n = parse_options(&cmd, argc, argv);
	if (n < 0)
		return parse_options_exit(n);
	scn = list_scenarios(datadir);
	ker = list_kernels(cfg->workdir);
	if (!scn || !ker) {
		json_decref(scn);
		json_decref(ker);
		fprintf(stderr, "swapctl list: out of memory\n");
		return EXIT_FAILURE_GENERIC;
	}
	if (json) {
		o = json_pack("{sssssOsO}", "datadir", datadir ? datadir : "",
			      "workdir", cfg->workdir, "scenarios", scn,
			      "kernels", ker);
		if (!o || json_dumpf(o, stdout, JSON_INDENT(2)) ||
		    puts("") == EOF) {
			fprintf(stderr, "swapctl list: <stdout>: write failed\n");
			ret = EXIT_OUTPUT;
		}
		json_decref(o);
	} else {
		text(scn, ker, datadir, cfg->workdir);
	}
	json_decref(scn);
	json_decref(ker);
	return ret;
}
