// SPDX-License-Identifier: GPL-2.0
/* Quilt series files: see series.h. */
#include <ctype.h>
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
}

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

int series_parse(struct series *s, const char *text, char *err,
		 size_t errlen)
{
	char line[1024], *tok, *save, *hash;
	struct series_patch *p, *np;
	const char *cur = text, *nl;
	size_t len, cap = 0, i;
	int lineno = 0;
	struct stat st;

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
		while ((tok = strtok_r(NULL, " \t\r", &save))) {
			if (parse_strip(tok, &p->strip)) {
				seterr(err, errlen, s->file, lineno,
				       "%s: unknown option '%s' (only -pN is supported)",
				       p->name, tok);
				goto fail;
			}
		}
		for (i = 0; i < s->n; i++) {
			if (!strcmp(s->patches[i].name, p->name)) {
				seterr(err, errlen, s->file, lineno,
				       "%s is listed twice (first on line %d)",
				       p->name, s->patches[i].line);
				goto fail;
			}
		}
		if (util_path(p->path, sizeof(p->path), "%s/%s", s->dir,
			      p->name)) {
			seterr(err, errlen, s->file, lineno, "path too long");
			goto fail;
		}
		if (stat(p->path, &st)) {
			seterr(err, errlen, s->file, lineno, "%s: %s", p->path,
			       strerror(errno));
			goto fail;
		}
		if (!S_ISREG(st.st_mode)) {
			seterr(err, errlen, s->file, lineno,
			       "%s: not a regular file", p->path);
			goto fail;
		}
		if (util_sha256_file(p->path, p->sha256)) {
			seterr(err, errlen, s->file, lineno, "%s: %s", p->path,
			       strerror(errno));
			goto fail;
		}
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
