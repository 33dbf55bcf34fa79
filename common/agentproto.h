/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent protocol contract (guest -> host, swapctl-agent(7)): what
 * guest/agent.c and guest/proto.c send and src/model/stream.c accepts, and the
 * channel src/run/domain.c gives the guest. Both sides include this header.
 */
#ifndef SWAPCTL_COMMON_AGENTPROTO_H
#define SWAPCTL_COMMON_AGENTPROTO_H

/* the "v" of every line; a line of another version is refused */
#define AGENT_PROTO_VERSION	1

/* the virtio-serial port (libvirt <target type='virtio' name=...>) */
#define AGENT_PORT_NAME		"org.swapctl.agent.0"

/* bytes of one protocol line, its '\n' included */
#define AGENT_LINE_MAX		8192

/*
 * bytes of a line init or the workload hand to the agent through the pipe
 * ('\n' included): at most PIPE_BUF, so that lines never interleave
 */
#define AGENT_PRODUCER_LINE_MAX	4096

#endif
