// SPDX-License-Identifier: GPL-2.0
/*
 * Producer line -> protocol line (see proto.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"

int gproto_wrap(const char *line, size_t len, uint64_t seq, uint64_t cpu_ns,
		char *out, size_t cap, bool *is_result)
{
	static const char pfx[] = "{\"t_ns\":";
	static const char result[] = ",\"type\":\"result\"";
	size_t plen = sizeof(pfx) - 1, i = plen;
	size_t max = cap < GPROTO_LINE_MAX + 1 ? cap : GPROTO_LINE_MAX + 1;
	int n, m;

	*is_result = false;
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		len--;
	if (len < plen + 3 || memcmp(line, pfx, plen) || line[len - 1] != '}')
		return GPROTO_MALFORMED;
	if (memchr(line, '\n', len) || memchr(line, '\0', len))
		return GPROTO_MALFORMED;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	if (i == plen || i >= len || line[i] != ',')
		return GPROTO_MALFORMED;
	if (len - i >= sizeof(result) - 1 &&
	    !memcmp(line + i, result, sizeof(result) - 1))
		*is_result = true;

	n = snprintf(out, max, "{\"v\":%d,\"seq\":%" PRIu64 ",",
		     GPROTO_VERSION, seq);
	if (n < 0 || (size_t)n >= max)
		return GPROTO_TOOLONG;
	/* The producer's members, without its opening and closing brace. */
	if ((size_t)n + len - 2 >= max)
		return GPROTO_TOOLONG;
	memcpy(out + n, line + 1, len - 2);
	n += (int)(len - 2);
	if (*is_result)
		m = snprintf(out + n, max - n, ",\"agent_cpu_ns\":%" PRIu64
			     "}\n", cpu_ns);
	else
		m = snprintf(out + n, max - n, "}\n");
	if (m < 0 || (size_t)(n + m) >= max)
		return GPROTO_TOOLONG;
	return n + m;
}
