// SPDX-License-Identifier: GPL-2.0
/*
 * kernels/<variant>/manifest.json: what a built kernel is made of. The
 * build writes it (manifest_install(), manifest_write()); build, list,
 * run and bisect read it with manifest_load() and manifest_line().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jfile.h"
#include "build.h"
#include "manifest.h"

static char *utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

json_t *manifest_patches(const struct series *s)
{
	json_t *pl = json_array();
	size_t i;

	for (i = 0; i < s->n; i++)
		json_array_append_new(pl, json_pack("{s:s,s:s,s:s,s:i}",
			"name", s->patches[i].name,
			"path", s->patches[i].path,
			"sha256", s->patches[i].sha256,
			"strip", s->patches[i].strip));
	return pl;
}

/* Where @v's source came from: the tarball + series, or a git tree. */
json_t *manifest_source(struct build_ctx *c, const struct variant *v,
			const struct series *s)
{
	const struct git_src *g = v->git;

	if (!g)
		return json_pack("{s:s,s:s,s:s,s:s}", "kind", "tarball",
				 "tarball", c->tarball,
				 "tarball_sha256", c->tarball_sha,
				 "series", s->n ? s->file : "");
	return json_pack("{s:s,s:s,s:s,s:s,s:s}", "kind", "git",
			 "tree", g->top, "ref", g->ref, "commit", g->commit,
			 "apply", g->apply ? g->apply->file : "");
}

/* kernels/<v>/manifest.json, written atomically; 0 or EXIT_BUILD. */
int manifest_write(struct build_ctx *c, const struct variant *v, json_t *m)
{
	char mpath[PATH_MAX], *text;

	util_path(mpath, sizeof(mpath), "%s/kernels/%s/manifest.json",
		  c->cfg->workdir, v->name);
	text = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text || util_write_file_atomic(mpath, text, strlen(text), 0644)) {
		build_fail("%s: %s", mpath, strerror(errno));
		free(text);
		return EXIT_BUILD;
	}
	free(text);
	return 0;
}

/*
 * The kernel line of @v: the tarball's, or for a git tree's kernel
 * MAJOR.MINOR of its release (null when it does not say).
 */
static json_t *line_json(struct build_ctx *c, const struct variant *v,
			 const char *release)
{
	char line[KLINE_MAX];

	if (!v->git)
		return json_string(c->line);
	if (kline_of_release(release, line, sizeof(line)))
		return json_null();
	return json_string(line);
}

int manifest_install(struct build_ctx *c, const struct variant *v,
		     const struct series *s, const char *tree, double secs,
		     json_t **manifest)
{
	char dir[PATH_MAX], src[PATH_MAX], dst[PATH_MAX], mpath[PATH_MAX];
	char rel[PATH_MAX], cfgpath[PATH_MAX], ksha[65], csha[65], when[32];
	char *release;
	json_t *m;

	util_path(dir, sizeof(dir), "%s/kernels/%s", c->cfg->workdir, v->name);
	util_path(src, sizeof(src), "%s/out/arch/x86/boot/bzImage", tree);
	util_path(dst, sizeof(dst), "%s/bzImage", dir);
	util_path(mpath, sizeof(mpath), "%s/manifest.json", dir);
	util_path(rel, sizeof(rel), "%s/out/include/config/kernel.release",
		  tree);
	util_path(cfgpath, sizeof(cfgpath), "%s/out/.config", tree);
	if (util_mkdir_p(dir, 0755) || util_sha256_file(src, ksha) ||
	    util_sha256_file(cfgpath, csha) ||
	    util_copy_file(src, dst, 0644)) {
		build_fail("%s: %s", dst, strerror(errno));
		return EXIT_BUILD;
	}
	release = util_read_file(rel, NULL);
	m = json_pack("{s:s,s:s,s:b,s:s,s:s,s:o,s:s,s:s,s:s,s:s,s:s,s:s,s:f}",
		      "variant", v->name,
		      "kernel", dst,
		      "debug", v->debug,
		      "kernel_version",
		      release ? build_trim_nl(release) : "unknown",
		      "series", s->n ? s->file : "",
		      "patches", manifest_patches(s),
		      "bzimage_sha256", ksha,
		      "config_sha256", csha,
		      "fragment_sha256", c->fragment_sha,
		      "tarball", v->git ? "" : c->tarball,
		      "tarball_sha256", v->git ? "" : c->tarball_sha,
		      "built_at", utc_now(when, sizeof(when)),
		      "build_seconds", secs);
	if (m)
		json_object_set_new(m, "kernel_line", line_json(c, v, release));
	free(release);
	if (m)
		json_object_set_new(m, "source", manifest_source(c, v, s));
	if (m && v->debug)
		json_object_set_new(m, "debug_fragment_sha256",
				    json_string(c->debug_fragment_sha));
	if (m && c->set && c->set->n)
		json_object_set_new(m, "config_set",
				    json_string(c->set->frag));
	if (!m) {
		build_fail("%s: cannot make the manifest", mpath);
		return EXIT_FAILURE_GENERIC;
	}
	if (manifest_write(c, v, m)) {
		json_decref(m);
		return EXIT_BUILD;
	}
	*manifest = m;
	return 0;
}

json_t *manifest_load(const char *workdir, const char *variant,
		      json_error_t *jerr)
{
	char p[PATH_MAX];

	if (util_path(p, sizeof(p), "%s/kernels/%s/manifest.json", workdir,
		      variant)) {
		jerr->line = -1;
		snprintf(jerr->text, sizeof(jerr->text), "%s",
			 strerror(ENAMETOOLONG));
		errno = ENAMETOOLONG;
		return NULL;
	}
	return jfile_load(p, 0, jerr);
}

void manifest_line(const json_t *m, char *line, size_t len)
{
	const char *v = json_string_value(json_object_get(m, "kernel_line"));
	unsigned int major, minor;
	int n = 0;

	if (v) {
		snprintf(line, len, "%s", v);
		return;
	}
	line[0] = '\0';
	v = json_string_value(json_object_get(m, "kernel_version"));
	if (v && sscanf(v, "%u.%u%n", &major, &minor, &n) == 2 && n)
		snprintf(line, len, "%u.%u", major, minor);
}
