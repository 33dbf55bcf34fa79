// SPDX-License-Identifier: GPL-2.0
/* Quilt series files: see series.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "series.h"
#include "util.h"

static void seterr(char *err, size_t errlen, const char *file, int line,
		   const char *fmt, ...) __printf(5, 6);

static void seterr(char *err, size_t errlen, const char *file, int line,
		   const char *fmt, ...)
{
	va_list ap;
	int n;

	n = line > 0 ? snprintf(err, errlen, "%s:%d: ", file, line) :
		       snprintf(err, errlen, "%s: ", file);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	/*
	 * The words come from files: no raw control or binary bytes (nor
	 * UTF-8, whose C1 controls a terminal obeys; names here are ASCII).
	 */
	for (; err[n]; n++)
		if ((unsigned char)err[n] < ' ' ||
		    (unsigned char)err[n] >= 0x7f)
			err[n] = '?';
}

/* @text (of @len bytes) is not text: a NUL or a control byte. */
static bool binary(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)text[i] < ' ' && !strchr("\t\r\n\f",
							    text[i])) ||
		    text[i] == 0x7f)
			return true;
	return false;
}

/* a patch larger than this is refused before it is read */
#define SERIES_MAX_PATCH	(64 << 20)

static bool bad_name(const char *name)
{
	const char *p = name;

	if (*name == '/')
		return true;
	/* no ".." path component */
	while (*p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return true;
		p = strchr(p, '/');
		if (!p)
			break;
		p++;
	}
	return false;
}

static int parse_strip(const char *opt, int *strip)
{
	char *end;
	long v;

	if (strncmp(opt, "-p", 2) || !isdigit((unsigned char)opt[2]))
		return -1;
	v = strtol(opt + 2, &end, 10);
	if (*end || v > 16)
		return -1;
	*strip = (int)v;
	return 0;
}

/*
 * Whether the patch file @path has mail headers ("From " first, or a
 * "Subject:" line before the diff); *@diff (if not NULL): whether it
 * holds a diff at all (a cover letter does not).
 */
static bool patch_kind(const char *path, bool *diff)
{
	char *text = util_read_file(path, NULL), *d1, *d2, *subj;
	bool mail = false;

	if (diff)
		*diff = false;
	if (!text)
		return false;
	d1 = strstr(text, "\ndiff --git ");
	d2 = strstr(text, "\n--- ");
	if (!d1 || (d2 && d2 < d1))
		d1 = d2 && strstr(d2, "\n+++ ") ? d2 : d1;
	if (!strncmp(text, "diff --git ", 11) || !strncmp(text, "--- ", 4))
		d1 = text;
	subj = strstr(text, "\nSubject:");
	mail = !strncmp(text, "From ", 5) || !strncmp(text, "Subject:", 8) ||
	       (subj && (!d1 || subj < d1));
	if (diff)
		*diff = d1 != NULL;
	free(text);
	return mail;
}

/*
 * The rest of series line @lineno after patch @p's name (its options,
 * from strtok_r()'s @save), and the checks of @p's file: listed once, a
 * regular file, not larger than SERIES_MAX_PATCH, readable. 0, or -1 with @err set.
 */
static int patch_line(const struct series *s, struct series_patch *p,
		      char **save, int lineno, char *err, size_t errlen)
{
	struct stat st;
	char *tok;
	size_t i;

	while ((tok = strtok_r(NULL, " \t\r", save))) {
		if (parse_strip(tok, &p->strip)) {
			seterr(err, errlen, s->file, lineno,
			       "%s: unknown option '%s' (only -pN is supported)",
			       p->name, tok);
			return -1;
		}
	}
	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->patches[i].name, p->name)) {
			seterr(err, errlen, s->file, lineno,
			       "%s is listed twice (first on line %d)",
			       p->name, s->patches[i].line);
			return -1;
		}
	}
	if (util_path(p->path, sizeof(p->path), "%s/%s", s->dir, p->name)) {
		seterr(err, errlen, s->file, lineno, "path too long");
		return -1;
	}
	if (stat(p->path, &st)) {
		seterr(err, errlen, s->file, lineno, "%s: %s", p->path,
		       strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		seterr(err, errlen, s->file, lineno, "%s: not a regular file",
		       p->path);
		return -1;
	}
	if (st.st_size > SERIES_MAX_PATCH) {
		seterr(err, errlen, s->file, lineno,
		       "%s: larger than %d MiB: not a patch", p->path,
		       SERIES_MAX_PATCH >> 20);
		return -1;
	}
	if (util_sha256_file(p->path, p->sha256)) {
		seterr(err, errlen, s->file, lineno, "%s: %s", p->path,
		       util_input_strerror(errno));
		return -1;
	}
	p->mail = patch_kind(p->path, NULL);
	return 0;
}

int series_parse(struct series *s, const char *text, char *err,
		 size_t errlen)
{
	char line[1024], *tok, *save, *hash;
	struct series_patch *p, *np;
	const char *cur = text, *nl;
	size_t len, cap = 0;
	int lineno = 0;

	s->n = 0;
	s->patches = NULL;
	while (*cur) {
		lineno++;
		nl = strchr(cur, '\n');
		len = nl ? (size_t)(nl - cur) : strlen(cur);
		if (len >= sizeof(line)) {
			seterr(err, errlen, s->file, lineno, "line too long");
			goto fail;
		}
		memcpy(line, cur, len);
		line[len] = '\0';
		cur += len + (nl ? 1 : 0);
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		tok = strtok_r(line, " \t\r", &save);
		if (!tok)
			continue;
		if (bad_name(tok) || strlen(tok) >= sizeof(p->name)) {
			seterr(err, errlen, s->file, lineno,
			       "'%s': patch names must be relative, without '..'",
			       tok);
			goto fail;
		}
		if (s->n == cap) {
			cap = cap ? cap * 2 : 16;
			np = realloc(s->patches, cap * sizeof(*np));
			if (!np) {
				seterr(err, errlen, s->file, lineno,
				       "out of memory");
				goto fail;
			}
			s->patches = np;
		}
		p = &s->patches[s->n];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", tok);
		p->line = lineno;
		p->strip = 1;
		if (patch_line(s, p, &save, lineno, err, errlen))
			goto fail;
		s->n++;
	}
	return 0;
fail:
	series_free(s);
	return -1;
}

int series_load(struct series *s, const char *patches_root,
		const char *name, char *err, size_t errlen)
{
	struct stat st;
	char *text;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	if (util_path(s->dir, sizeof(s->dir), "%s/%s", patches_root, name) ||
	    util_path(s->file, sizeof(s->file), "%s/series", s->dir)) {
		seterr(err, errlen, patches_root, 0, "path too long");
		return -1;
	}
	if (stat(s->dir, &st) || !S_ISDIR(st.st_mode)) {
		seterr(err, errlen, s->dir, 0,
		       "no such series directory (series '%s')", name);
		return -1;
	}
	text = util_read_file(s->file, NULL);
	if (!text) {
		if (errno == ENOENT && !strcmp(name, "baseline"))
			return 0;
		seterr(err, errlen, s->file, 0, "%s", strerror(errno));
		return -1;
	}
	ret = series_parse(s, text, err, errlen);
	free(text);
	return ret;
}

char *series_stamp(const struct series *s, size_t count)
{
	size_t i, len = 1;
	char *buf, *p;

	if (count > s->n)
		count = s->n;
	for (i = 0; i < count; i++)
		len += 64 + 8 + strlen(s->patches[i].name) + 2;
	buf = malloc(len);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (i = 0; i < count; i++)
		p += sprintf(p, "%s -p%d %s\n", s->patches[i].sha256,
			     s->patches[i].strip, s->patches[i].name);
	return buf;
}

void series_free(struct series *s)
{
	free(s->patches);
	s->patches = NULL;
	s->n = 0;
}

/* The base name of @path without one of the extensions patch files use. */
static void series_name(char *name, size_t len, const char *path)
{
	static const char *const ext[] = { ".mbox", ".patch", ".diff",
					   ".eml", ".mbx" };
	const char *b = strrchr(path, '/');
	size_t n, e, i;

	b = b ? b + 1 : path;
	n = strlen(b);
	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(b + n - e, ext[i])) {
			n -= e;
			break;
		}
	}
	snprintf(name, len, "%.*s", (int)n, b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool patch_file_name(const char *n)
{
	size_t l = strlen(n);

	return n[0] != '.' && ((l > 6 && !strcmp(n + l - 6, ".patch")) ||
			       (l > 5 && !strcmp(n + l - 5, ".diff")));
}

/* The *.patch and *.diff files of @dir with a diff, by name, as a text. */
static char *dir_listing(const char *dir, char *err, size_t errlen)
{
	char *names[1024], p[PATH_MAX], *text = NULL, *t;
	size_t n = 0, i, len = 1;
	struct dirent *d;
	bool diff;
	DIR *dh;

	dh = opendir(dir);
	if (!dh) {
		seterr(err, errlen, dir, 0, "%s", strerror(errno));
		return NULL;
	}
	while ((d = readdir(dh)) && n < ARRAY_SIZE(names)) {
		if (!patch_file_name(d->d_name) ||
		    util_path(p, sizeof(p), "%s/%s", dir, d->d_name))
			continue;
		patch_kind(p, &diff);
		if (!diff)
			continue;
		names[n] = strdup(d->d_name);
		if (names[n])
			len += strlen(names[n++]) + 1;
	}
	closedir(dh);
	qsort(names, n, sizeof(names[0]), cmp_str);
	text = malloc(len);
	for (t = text, i = 0; i < n; i++) {
		if (text)
			t += sprintf(t, "%s\n", names[i]);
		free(names[i]);
	}
	if (!text) {
		seterr(err, errlen, dir, 0, "out of memory");
		return NULL;
	}
	*t = '\0';
	if (!n) {
		seterr(err, errlen, dir, 0,
		       "no series file and no *.patch or *.diff file with a diff");
		free(text);
		return NULL;
	}
	return text;
}

/* A file that is one patch or an mbox of them: one entry. */
static int load_single(struct series *s, const char *path, char *err,
		       size_t errlen)
{
	struct series_patch *p = calloc(1, sizeof(*p));

	if (!p) {
		seterr(err, errlen, path, 0, "out of memory");
		return -1;
	}
	s->patches = p;
	s->n = 1;
	util_path(p->name, sizeof(p->name), "%.255s", strrchr(path, '/') ?
		  strrchr(path, '/') + 1 : path);
	util_path(p->path, sizeof(p->path), "%s", path);
	p->strip = 1;
	p->mail = patch_kind(path, NULL);
	s->mbox = p->mail;
	if (util_sha256_file(path, p->sha256)) {
		seterr(err, errlen, path, 0, "%s",
		       util_input_strerror(errno));
		series_free(s);
		return -1;
	}
	return 0;
}

/* Whether @text holds a diff: what git am or patch would apply. */
static bool has_diff(const char *text)
{
	return !strncmp(text, "diff --git ", 11) ||
	       !strncmp(text, "--- ", 4) || strstr(text, "\ndiff --git ") ||
	       (strstr(text, "\n--- ") && strstr(text, "\n+++ "));
}

/*
 * Is @path an mbox or a patch? 1 yes, 0 no (a series file), -1 a mail
 * without any diff (nothing to apply; a directory without diffs is
 * refused alike).
 */
static int looks_like_patch(const char *path)
{
	char *text = util_read_file(path, NULL);
	int yes;

	if (!text)
		return 0;
	yes = has_diff(text) ? 1 : !strncmp(text, "From ", 5) ? -1 : 0;
	free(text);
	return yes;
}

int series_load_path(struct series *s, const char *path, char *err,
		     size_t errlen)
{
	char real[PATH_MAX], *text, *slash;
	size_t len;
	struct stat st;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!realpath(path, real) || stat(real, &st)) {
		seterr(err, errlen, path, 0, "%s", strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		series_name(s->name, sizeof(s->name), real);
		snprintf(s->dir, sizeof(s->dir), "%s", real);
		if (util_path(s->file, sizeof(s->file), "%s/series", real)) {
			seterr(err, errlen, path, 0, "path too long");
			return -1;
		}
		text = util_read_file(s->file, NULL);
		if (!text && errno == ENOENT) {
			snprintf(s->file, sizeof(s->file), "%s", real);
			text = dir_listing(real, err, errlen);
			if (!text)
				return -1;
		} else if (!text) {
			seterr(err, errlen, s->file, 0, "%s", strerror(errno));
			return -1;
		}
	} else if (S_ISREG(st.st_mode)) {
		snprintf(s->file, sizeof(s->file), "%s", real);
		snprintf(s->dir, sizeof(s->dir), "%s", real);
		slash = strrchr(s->dir, '/');
		*slash = '\0';
		ret = looks_like_patch(real);
		if (ret < 0) {
			seterr(err, errlen, path, 0,
			       "a mail without a diff (no 'diff --git' or ---/+++ lines): nothing to apply");
			return -1;
		}
		if (ret) {
			series_name(s->name, sizeof(s->name), real);
			return load_single(s, real, err, errlen);
		}
		/* a quilt series file: named after its directory */
		series_name(s->name, sizeof(s->name), s->dir);
		text = util_read_file(real, &len);
		if (!text) {
			seterr(err, errlen, path, 0, "%s", strerror(errno));
			return -1;
		}
		if (binary(text, len)) {
			seterr(err, errlen, path, 0,
			       "binary data: not a series file, a patch or an mbox");
			free(text);
			return -1;
		}
	} else {
		seterr(err, errlen, path, 0,
		       "not a directory, a series file or an mbox");
		return -1;
	}
	ret = series_parse(s, text, err, errlen);
	free(text);
	if (!ret && !s->n) {
		seterr(err, errlen, s->file, 0, "the series lists no patch");
		ret = -1;
	}
	return ret;
}

int series_copy(struct series *to, const struct series *from)
{
	*to = *from;
	to->patches = NULL;
	if (!from->n)
		return 0;
	to->patches = malloc(from->n * sizeof(*to->patches));
	if (!to->patches) {
		to->n = 0;
		return -1;
	}
	memcpy(to->patches, from->patches, from->n * sizeof(*to->patches));
	return 0;
}
