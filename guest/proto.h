/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Agent protocol v1 (swapctl-agent(7)): how the agent turns a producer
 * line into a numbered protocol line. Pure, unit-tested.
 */
#ifndef GUEST_PROTO_H
#define GUEST_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/agentproto.h"

#define GPROTO_VERSION	AGENT_PROTO_VERSION
#define GPROTO_LINE_MAX	AGENT_LINE_MAX	/* bytes of a line, '\n' included */

enum {
	GPROTO_MALFORMED = -1,	/* not {"t_ns":N,...} */
	GPROTO_TOOLONG = -2,	/* would exceed GPROTO_LINE_MAX */
};

/*
 * Producer line @line (@len bytes, no '\n'; trailing CR/spaces ignored)
 * of the form {"t_ns":N,"type":...}: write {"v":1,"seq":@seq,"t_ns":N,...}
 * plus '\n' and NUL into @out. A "result" line also gets
 * "agent_cpu_ns":@cpu_ns appended and sets *@is_result. Returns the length
 * written or GPROTO_MALFORMED / GPROTO_TOOLONG.
 */
int gproto_wrap(const char *line, size_t len, uint64_t seq, uint64_t cpu_ns,
		char *out, size_t cap, bool *is_result);

#endif
