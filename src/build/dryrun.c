// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build --dry-run: what a build would do, per variant, from the
 * stamps (variant_state()); starts nothing and writes nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "manifest.h"

static json_t *dry_variant(struct build_ctx *c, const struct variant *v,
			   const struct series *s, bool each)
{
	char tree[PATH_MAX], kernel[PATH_MAX], jobs[16];
	struct variant_state st;
	json_t *o, *frags, *make;

	util_path(tree, sizeof(tree), "%s/trees/%s", c->cfg->workdir, v->name);
	util_path(kernel, sizeof(kernel), "%s/kernels/%s/bzImage",
		  c->cfg->workdir, v->name);
	variant_state(c, v, s, &st);
	frags = json_pack("[s]", c->fragment);
	if (v->debug)
		json_array_append_new(frags, json_string(c->debug_fragment));
	if (c->set) {
		util_path(kernel, sizeof(kernel),
			  "%s/out/swapctl-config-set.config", tree);
		json_array_append_new(frags, json_string(kernel));
	}
	util_path(kernel, sizeof(kernel), "%s/kernels/%s/bzImage",
		  c->cfg->workdir, v->name);
	snprintf(jobs, sizeof(jobs), "-j%d", c->jobs);
	make = json_pack("[s,s,s,s,s,s,s]", "make", "-C", tree, "O=out",
			 "ARCH=x86_64", jobs, "bzImage");
	if (c->cfg->ccache)
		json_array_append_new(make, json_string("CC=ccache gcc"));
	o = json_pack("{s:s,s:s,s:b,s:s,s:b,s:o,s:o,s:b,s:o,s:b,s:b,s:s}",
		      "variant", v->name, "series", s->n ? s->file : "",
		      "debug", v->debug, "tree", tree,
		      "tree_current", st.tree_current,
		      "patches", manifest_patches(s), "fragments", frags,
		      "config_current", st.config_current, "make", make,
		      "each", each && s->n, "build_current", st.manifest != NULL,
		      "kernel", kernel);
	if (o)
		json_object_set_new(o, "source", manifest_source(c, v, s));
	if (o && c->set)
		json_object_set_new(o, "config_set",
				    json_string(c->set->frag));
	json_decref(st.manifest);
	return o;
}

static void dry_print_variant(const json_t *v)
{
	const json_t *p, *f;
	size_t i, n = json_array_size(json_object_get(v, "patches"));
	bool tree_ok = json_is_true(json_object_get(v, "tree_current"));
	const char *cs, *nl;

	printf("variant %s%s\n", json_string_value(json_object_get(v, "variant")),
	       json_is_true(json_object_get(v, "debug")) ? " (debug)" : "");
	const json_t *src = json_object_get(v, "source");
	bool git = !strcmp(json_string_value(json_object_get(src, "kind")) ?:
			   "", "git");

	if (git)
		printf("  source     %s %s (%s)\n",
		       json_string_value(json_object_get(src, "tree")),
		       json_string_value(json_object_get(src, "ref")),
		       json_string_value(json_object_get(src, "commit")));
	printf("  tree       %s: %s\n",
	       json_string_value(json_object_get(v, "tree")),
	       tree_ok ? "holds the series already" : git ?
	       "to make: a git worktree at the commit, then git am" :
	       "to make: a hard-link copy of the source, then the patches");
	if (!n)
		printf("  apply      no patches\n");
	json_array_foreach(json_object_get(v, "patches"), i, p)
		printf("  apply      %zu/%zu %s -p%lld (sha256 %.16s)\n", i + 1, n,
		       json_string_value(json_object_get(p, "path")),
		       (long long)json_integer_value(json_object_get(p, "strip")),
		       json_string_value(json_object_get(p, "sha256")));
	printf("  configure  tinyconfig");
	json_array_foreach(json_object_get(v, "fragments"), i, f)
		printf(" + %s", json_string_value(f));
	printf(" + olddefconfig: %s\n",
	       json_is_true(json_object_get(v, "config_current")) ?
	       "up to date" : "to do");
	for (cs = json_string_value(json_object_get(v, "config_set"));
	     cs && *cs; cs = nl + 1) {
		nl = strchrnul(cs, '\n');
		printf("  config-set %.*s\n", (int)(nl - cs), cs);
		if (!*nl)
			break;
	}
	printf("  build     ");
	json_array_foreach(json_object_get(v, "make"), i, f)
		printf(" %s", json_string_value(f));
	printf(": %s%s\n",
	       json_is_true(json_object_get(v, "build_current")) ?
	       "up to date" : "to do",
	       json_is_true(json_object_get(v, "each")) ?
	       " (after every patch)" : "");
	printf("  kernel     %s\n",
	       json_string_value(json_object_get(v, "kernel")));
}

/* --dry-run: what a build would do, from the stamps; starts nothing. */
int build_dry_run(struct build_ctx *c, const struct variant *vs,
		  int nvar, bool each, bool json)
{
	char src[PATH_MAX], ird[PATH_MAX], err[1024], *text;
	json_t *o, *arr = json_array(), *v;
	struct series s;
	size_t i;
	int k, ret;

	ret = vs[0].git ? 0 : tree_tarball_sha(c);
	if (ret)
		return ret;
	util_path(src, sizeof(src), "%s/src/%s", c->cfg->workdir,
		  c->pristine_id);
	util_path(ird, sizeof(ird), "%s/kernels/initramfs.cpio",
		  c->cfg->workdir);
	for (k = 0; k < nvar; k++) {
		if (variant_series(c, &vs[k], &s, err, sizeof(err))) {
			build_fail("%s", err);
			json_decref(arr);
			return EXIT_PATCH;
		}
		json_array_append_new(arr, dry_variant(c, &vs[k], &s, each));
		series_free(&s);
	}
	o = json_pack("{s:b,s:s,s:s,s:s,s:s,s:s,s:s,s:b,s:i,s:b,s:s,s:o}",
		      "dry_run", 1, "kernel_line", c->line,
		      "fragment", c->fragment,
		      "series_root", c->patches_root, "tarball", c->tarball,
		      "tarball_sha256", c->tarball_sha, "source", src,
		      "extracted", util_exists(src), "jobs", c->jobs,
		      "ccache", c->cfg->ccache, "initramfs", ird,
		      "variants", arr);
	if (json) {
		text = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) :
			NULL;
		if (text)
			printf("%s\n", text);
		free(text);
		json_decref(o);
		return text ? 0 : EXIT_FAILURE_GENERIC;
	}
	if (vs[0].git) {
		printf("git tree     %s (not written: a worktree per kernel)\n",
		       vs[0].git->top);
		printf("kernel line  %s (its Makefile; guest fragment %s)\n",
		       c->line, c->fragment);
	} else {
		printf("kernel line  %s (series under %s)\n", c->line,
		       c->patches_root);
		printf("tarball      %s (sha256 %.16s)\n", c->tarball,
		       c->tarball_sha);
		printf("extract      %s: %s\n", src, util_exists(src) ?
		       "done already" : "to do (tar -xf, once per tarball)");
	}
	printf("initramfs    %s (from guest/build/)\n", ird);
	json_array_foreach(arr, i, v)
		dry_print_variant(v);
	printf("(dry run: nothing was started)\n");
	json_decref(o);
	return 0;
}
