// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl build: the .config of a tree, from tinyconfig, the fragments
 * and olddefconfig; every option of the fragments must survive.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"

static bool debug_variant(const struct build_ctx *c)
{
	return c->cur && c->cur->debug;
}

static bool have_set(const struct build_ctx *c)
{
	return c->set && c->set->n;
}

/* y, m, n, a decimal (maybe negative) or a 0x hexadecimal integer */
static bool set_value_ok(const char *v)
{
	const char *p = v;

	if (!strcmp(v, "y") || !strcmp(v, "m") || !strcmp(v, "n"))
		return true;
	if (!strncmp(p, "0x", 2) && p[2]) {
		for (p += 2; *p; p++)
			if (!isxdigit((unsigned char)*p))
				return false;
		return true;
	}
	if (*p == '-')
		p++;
	if (!*p)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

/* Does a line of the fragment @frag set the symbol @sym (@n bytes)? */
static bool frag_sets(const char *frag, const char *sym, size_t n)
{
	const char *l;

	for (l = frag; *l; l = strchrnul(l, '\n'), l += !!*l) {
		if (!strncmp(l, "# ", 2))
			l += 2;
		if (!strncmp(l, sym, n) && (l[n] == '=' || l[n] == ' '))
			return true;
	}
	return false;
}

int kconfig_set_add(struct kconfig_set *set, const char *arg, char *err,
		    size_t errlen)
{
	const char *eq = strchr(arg, '='), *p;
	char line[160], name[160], sym[80];
	size_t n = eq ? (size_t)(eq - arg) : 0, i;

	if (!eq || n <= 7 || strncmp(arg, "CONFIG_", 7)) {
		snprintf(err, errlen, "'%s': give CONFIG_SYMBOL=VALUE", arg);
		return -1;
	}
	if (n >= sizeof(sym)) {
		snprintf(err, errlen, "'%.*s': symbol too long", (int)n, arg);
		return -1;
	}
	for (p = arg + 7; p < eq; p++)
		if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    *p != '_') {
			snprintf(err, errlen, "'%.*s': not a Kconfig symbol (A-Z, 0-9, _)",
				 (int)n, arg);
			return -1;
		}
	if (!set_value_ok(eq + 1)) {
		snprintf(err, errlen, "'%s': the value must be y, m, n or an integer",
			 arg);
		return -1;
	}
	memcpy(sym, arg, n);
	sym[n] = '\0';
	/* each symbol once: "CONFIG_X=" or "# CONFIG_X is not set" */
	if (frag_sets(set->frag, sym, n)) {
		snprintf(err, errlen, "%s: given twice", sym);
		return -1;
	}
	if (!strcmp(eq + 1, "n"))
		snprintf(line, sizeof(line), "# %s is not set\n", sym);
	else
		snprintf(line, sizeof(line), "%s\n", arg);
	snprintf(name, sizeof(name), "%s-%s_%s", set->n ? "" : "-cfg", sym + 7,
		 eq + 1);
	for (i = 0; name[i]; i++)
		name[i] = (char)tolower((unsigned char)name[i]);
	if (strlen(set->frag) + strlen(line) >= sizeof(set->frag) ||
	    strlen(set->suffix) + strlen(name) >= sizeof(set->suffix)) {
		snprintf(err, errlen, "'%s': too many settings", arg);
		return -1;
	}
	strcat(set->frag, line);
	strcat(set->suffix, name);
	set->n++;
	return 0;
}

/*
 * The inputs of the .config: the fragments, the pristine source and the
 * Kconfig files the patches changed (with their content).
 */
/* Whether the file @line (relative to the tree) is an input of .config. */
static bool kconfig_input(const char *line)
{
	const char *base = strrchr(line, '/');

	base = base ? base + 1 : line;
	return !strncmp(base, "Kconfig", 7) ||
	       !strncmp(line, "scripts/kconfig/", 16) ||
	       !strncmp(line, "arch/x86/configs/", 17) ||
	       !strcmp(line, "Makefile");
}

/*
 * The source of @tree's .config: "pristine <id>" for the tarball's trees,
 * "git-kconfig <sha256>" for a git worktree (--tree): the digest of the
 * blob ids of its committed Kconfig inputs (git ls-tree -r HEAD).
 */
static char *kconfig_source(struct build_ctx *c, const char *tree)
{
	const char *argv[] = { "git", "-C", tree, "ls-tree", "-r", "HEAD",
			       NULL };
	struct util_sha256 h;
	char *out = NULL, *line, *save, *tab, hex[65], *src;

	if (!c->cur || !c->cur->git) {
		if (asprintf(&src, "pristine %s", c->pristine_id) < 0)
			return NULL;
		return src;
	}
	util_sha256_init(&h);
	if (util_run_capture(argv, NULL, &out) || !out) {
		free(out);
		return strdup("git-kconfig unknown");
	}
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		tab = strchr(line, '\t');
		if (tab && kconfig_input(tab + 1)) {
			util_sha256_update(&h, line, strlen(line));
			util_sha256_update(&h, "\n", 1);
		}
	}
	free(out);
	util_sha256_final(&h, hex);
	if (asprintf(&src, "git-kconfig %s", hex) < 0)
		return NULL;
	return src;
}

char *kconfig_key(struct build_ctx *c, const char *tree)
{
	char path[PATH_MAX], sha[65], *touched, *line, *save, *key, *n, *src;

	src = kconfig_source(c, tree);
	if (!src)
		return NULL;
	if (asprintf(&key, "%s\nfragment %s\n%s%s%s%s%s",
		     src, c->fragment_sha,
		     debug_variant(c) ? "debug-fragment " : "",
		     debug_variant(c) ? c->debug_fragment_sha : "",
		     debug_variant(c) ? "\n" : "",
		     have_set(c) ? "config-set\n" : "",
		     have_set(c) ? c->set->frag : "") < 0)
		key = NULL;
	free(src);
	if (!key)
		return NULL;
	util_path(path, sizeof(path), "%s/.swapctl-touched", tree);
	touched = util_read_file(path, NULL);
	for (line = touched ? strtok_r(touched, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!kconfig_input(line) || !strcmp(line, "Makefile"))
			continue;
		if (util_path(path, sizeof(path), "%s/%s", tree, line) ||
		    util_sha256_file(path, sha))
			strcpy(sha, "missing");
		if (asprintf(&n, "%s%s %s\n", key, sha, line) < 0) {
			n = NULL;
			break;
		}
		free(key);
		key = n;
	}
	free(touched);
	return key;
}

/* Does the --config-set fragment set the symbol of @line? */
static bool overridden(const struct build_ctx *c, const char *line)
{
	if (!have_set(c))
		return false;
	if (!strncmp(line, "# ", 2))
		line += 2;
	return frag_sets(c->set->frag, line, strcspn(line, "= "));
}

/*
 * Check every line of the fragment against the .config; list misses.
 * With --config-set, only its own fragment is @strict: what the others
 * ask for and that depends on a symbol it turned off is only reported.
 */
static int check_fragment(const struct build_ctx *c, const char *fragment,
			  const char *dotconfig, bool strict)
{
	char *frag, *conf, *line, *save, *eq, want[256], missing[4096] = "";
	char item[320];
	int lineno = 0, nmissing = 0;
	bool ok;

	frag = util_read_file(fragment, NULL);
	conf = util_read_file(dotconfig, NULL);
	if (!frag || !conf) {
		build_fail("%s: %s", frag ? dotconfig : fragment,
		     strerror(errno));
		free(frag);
		free(conf);
		return EXIT_SETUP;
	}
	for (line = frag; line && *line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		eq = strchr(line, '=');
		if (!strncmp(line, "CONFIG_", 7) && eq) {
			/* the exact line must be in .config */
			snprintf(want, sizeof(want), "\n%s\n", line);
			ok = strstr(conf, want) ||
			     !strncmp(conf, want + 1, strlen(want + 1));
		} else if (!strncmp(line, "# CONFIG_", 9) &&
			   strstr(line, " is not set")) {
			/* no "CONFIG_X=" line may be in .config */
			snprintf(want, sizeof(want), "\n%.*s=",
				 (int)(strstr(line, " is not set") - line - 2),
				 line + 2);
			ok = !strstr(conf, want);
		} else {
			continue;
		}
		if (ok || (!strict && overridden(c, line)))
			continue;
		nmissing++;
		snprintf(item, sizeof(item), "%s%s (line %d)",
			 nmissing > 1 ? ", " : "", line, lineno);
		build_append(missing, sizeof(missing), item);
	}
	free(frag);
	free(conf);
	if (!nmissing)
		return 0;
	if (!strict) {
		build_info("%s: %d option%s dropped by --config-set (they depend on what it changed): %s",
			   fragment, nmissing, nmissing > 1 ? "s" : "",
			   missing);
		return 0;
	}
	build_fail("%s: %d option%s did not survive olddefconfig (unmet dependencies?): %s",
	     fragment, nmissing, nmissing > 1 ? "s" : "", missing);
	return EXIT_CONFIG;
}

/* tinyconfig, merge_config.sh -m with the fragment, olddefconfig. */
static int run_kconfig(struct build_ctx *c, const char *tree, const char *out,
		       const char *setfrag)
{
	char merge[PATH_MAX];
	const char *tiny[] = { "make", "-C", tree, "O=out", "ARCH=x86_64",
			       "tinyconfig", NULL };
	const char *mrg[8] = { merge, "-m", "-O", ".", ".config", c->fragment };
	int nm = 6;
	const char *old[] = { "make", "-C", tree, "O=out", "ARCH=x86_64",
			      "olddefconfig", NULL };
	static const char *const env[] = { "LC_ALL=C", "KCONFIG_CONFIG",
					   "ARCH=x86_64", NULL };
	int st, ret;

	if (debug_variant(c))
		mrg[nm++] = c->debug_fragment;
	if (have_set(c))
		mrg[nm++] = setfrag;
	mrg[nm] = NULL;
	util_path(merge, sizeof(merge), "%s/scripts/kconfig/merge_config.sh",
		  tree);
	build_info("%s: configuring (tinyconfig + %s%s%s%s%s + olddefconfig)",
		   strrchr(tree, '/') + 1, c->fragment,
		   debug_variant(c) ? " + " : "",
		   debug_variant(c) ? c->debug_fragment : "",
		   have_set(c) ? " + " : "", have_set(c) ? setfrag : "");
	progress_init(&c->prog, NULL, false, "", 0, util_now());
	st = kmake_run_logged(c, tiny, NULL, env);
	if (st == 0) {
		st = kmake_run_logged(c, mrg, out, env);
		if (st == 0)
			st = kmake_run_logged(c, old, NULL, env);
	}
	ret = build_run_failed("configuring the kernel", "make", st);
	if (!ret && st) {
		kmake_show_tail(c);
		build_fail("%s: kernel configuration failed (status %d), full log: %s",
			   tree, st, c->logpath);
		ret = EXIT_BUILD;
	}
	return ret;
}

/* Keep the previous .config (and its mtime) if the new one is the same. */
static void keep_if_same(const char *prev, const char *dotconfig)
{
	char *a = util_read_file(prev, NULL);
	char *b = util_read_file(dotconfig, NULL);

	if (a && b && !strcmp(a, b))
		rename(prev, dotconfig);
	else
		unlink(prev);
	free(a);
	free(b);
}

/*
 * Make out/.config from tinyconfig + the fragment + olddefconfig, unless it
 * was made from the same inputs. The old .config (and its mtime) is kept
 * when the content did not change, so that make rebuilds nothing.
 */
int kconfig_configure(struct build_ctx *c, const char *tree)
{
	char out[PATH_MAX], keypath[PATH_MAX], dotconfig[PATH_MAX];
	char prev[PATH_MAX], setfrag[PATH_MAX], *key, *text = NULL;
	bool had_prev;
	int ret;

	util_path(out, sizeof(out), "%s/out", tree);
	util_path(keypath, sizeof(keypath), "%s/.swapctl-config", out);
	util_path(dotconfig, sizeof(dotconfig), "%s/.config", out);
	util_path(prev, sizeof(prev), "%s/.config.swapctl-prev", out);
	util_path(setfrag, sizeof(setfrag), "%s/swapctl-config-set.config",
		  out);
	key = kconfig_key(c, tree);
	if (!key) {
		build_fail("out of memory");
		return EXIT_FAILURE_GENERIC;
	}
	ret = 0;
	if (util_exists(dotconfig) && build_file_equals(keypath, key))
		goto out;
	ret = EXIT_SETUP;
	if (util_mkdir_p(out, 0755) || (unlink(keypath) && errno != ENOENT)) {
		build_fail("%s: %s", out, strerror(errno));
		goto out;
	}
	if (have_set(c)) {
		if (asprintf(&text, "# swapctl build --config-set\n%s",
			     c->set->frag) < 0)
			text = NULL;
		if (!text ||
		    util_write_file_atomic(setfrag, text, strlen(text), 0644)) {
			build_fail("%s: %s", setfrag, strerror(errno));
			goto out;
		}
	}
	had_prev = util_exists(dotconfig);
	if (had_prev && rename(dotconfig, prev)) {
		build_fail("%s: %s", dotconfig, strerror(errno));
		goto out;
	}
	ret = run_kconfig(c, tree, out, setfrag);
	if (!ret)
		ret = check_fragment(c, c->fragment, dotconfig, !have_set(c));
	if (!ret && debug_variant(c))
		ret = check_fragment(c, c->debug_fragment, dotconfig,
				     !have_set(c));
	if (!ret && have_set(c))
		ret = check_fragment(c, setfrag, dotconfig, true);
	if (ret) {
		/* put the previous state back */
		if (had_prev)
			rename(prev, dotconfig);
		else
			unlink(dotconfig);
		goto out;
	}
	if (had_prev)
		keep_if_same(prev, dotconfig);
	if (util_write_file_atomic(keypath, key, strlen(key), 0644)) {
		build_fail("%s: %s", keypath, strerror(errno));
		ret = EXIT_SETUP;
	}
out:
	free(text);
	free(key);
	return ret;
}
