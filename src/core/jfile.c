// SPDX-License-Identifier: GPL-2.0
/*
 * jfile: JSON files read like every other input. See jfile.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfile.h"
#include "util.h"

json_t *jfile_load(const char *path, size_t flags, json_error_t *jerr)
{
	json_error_t local;
	size_t len;
	json_t *root;
	char *text;
	int e;

	if (!jerr)
		jerr = &local;
	text = util_read_input(path, JFILE_MAX, &len);
	if (!text) {
		e = errno;
		memset(jerr, 0, sizeof(*jerr));
		snprintf(jerr->source, sizeof(jerr->source), "%s", path);
		if (e == EFBIG)
			snprintf(jerr->text, sizeof(jerr->text),
				 "larger than %zu MiB", JFILE_MAX >> 20);
		else
			snprintf(jerr->text, sizeof(jerr->text), "%s",
				 util_input_strerror(e));
		errno = e;
		return NULL;
	}
	root = json_loadb(text, len, flags, jerr);
	free(text);
	if (!root)
		errno = 0;
	return root;
}
