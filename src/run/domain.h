/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libvirt guests: the domain XML of one guest, and starting/destroying it
 * through a connection (by default the embedded QEMU driver, with its event
 * loop run by a thread of ours).
 */
#ifndef SWAPCTL_DOMAIN_H
#define SWAPCTL_DOMAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/agentproto.h"
#include "config.h"

#define DOMAIN_MAX_DISKS 8
#define DOMAIN_AGENT_PORT AGENT_PORT_NAME
#define DOMAIN_NAME_PREFIX "swapctl-"
/* The 9p mount tag of the host's root file system (guest/init.c). */
#define DOMAIN_HOSTROOT_TAG "swapctl-hostroot"

struct domain_disk {
	const char *path;	/* raw image on the host */
	const char *dev;	/* "vda", ... */
};

struct domain_spec {
	const char *name;
	bool kvm;		/* type='kvm', else 'qemu' (TCG) */
	unsigned int memory_mb;
	unsigned int cpus;
	const char *kernel;
	const char *initrd;
	const char *cmdline;
	const char *console_log;	/* NULL: a pty (remote hosts) */
	const char *agent_socket;	/* NULL: the host's own path */
	struct domain_disk disk[DOMAIN_MAX_DISKS];
	int ndisks;
	bool net;		/* user-mode network, virtio-net */
	/*
	 * Host directory shared read-only with the guest over virtio-9p
	 * (tag DOMAIN_HOSTROOT_TAG), NULL for none. 9p, not virtiofs:
	 * QEMU and libvirt 9.0 cannot make a virtiofs share read-only.
	 */
	const char *host_root;
	/*
	 * TCG only: QEMU's -icount shift=@icount_shift,sleep=off (through
	 * <qemu:commandline>): the guest's clock advances 2^shift ns per
	 * instruction, not with the host's, so guest times count the
	 * guest's instructions and a loaded host cannot stretch them.
	 */
	bool icount;
	unsigned int icount_shift;
};

/* Append @s to @buf XML-escaped (&<>"'), bounded; returns chars needed. */
size_t domain_xml_escape(char *buf, size_t len, const char *s);

/* The domain XML (malloc'ed), or NULL with errno set. */
char *domain_xml(const struct domain_spec *d);

/*
 * KVM or TCG: @accel from swapctl.conf; ACCEL_AUTO picks KVM only when
 * @cpuinfo (the text of /proc/cpuinfo) has a vmx or svm flag and
 * @kvm_dev opens read-write. Returns true for KVM.
 */
/*
 * The same choice, and why, into @why: *@warn when accel = kvm is forced
 * on a CPU without vmx/svm (where KVM guests stall or die, see
 * swapctl.conf(5)): the caller says so, and goes on as configured.
 */
bool domain_pick_accel(enum accel accel, const char *cpuinfo,
		       const char *kvm_dev, char *why, size_t len, bool *warn);
bool domain_pick_kvm(enum accel accel, const char *cpuinfo,
		     const char *kvm_dev);

/*
 * The embedded driver's root directory in @uri ("qemu:///embed?root=DIR"),
 * copied to @buf; false if @uri is not an embedded URI.
 */
bool domain_embed_root(const char *uri, char *buf, size_t len);

/* The qemu.conf swapctl writes into <root>/etc/ (malloc'ed). */
char *domain_qemu_conf(bool as_root);

/* ---- a libvirt connection ---- */

struct vmconn;

/* Told the agent socket of each left-over guest destroyed by vm_open. */
typedef void (*vm_leftover_fn)(const char *agent_socket, void *arg);

/*
 * Connect to @uri (preparing <root>/etc/qemu.conf for an embedded URI),
 * and destroy guests left over by an earlier swapctl that was killed
 * (removing their agent sockets, then calling @fn if not NULL).
 * NULL with a one-line message in @err.
 */
struct vmconn *vm_open(const char *uri, vm_leftover_fn fn, void *arg,
		       char *err, size_t errlen);
void vm_close(struct vmconn *c);

/*
 * Another handle on @c's connection, with a domain of its own: each of
 * the guests that run at once (run --parallel) starts, samples and
 * destroys its own domain through one. vm_close() it (the connection
 * stays open until its last handle is closed). NULL when out of memory.
 */
struct vmconn *vm_share(struct vmconn *c);

/* Create (start) a transient domain from @xml. -1 with @err set. */
int vm_start(struct vmconn *c, const char *xml, char *err, size_t errlen);

/* Whether the started domain still runs. */
bool vm_running(struct vmconn *c);

struct vm_blkstats {
	int64_t rd_req, wr_req, rd_bytes, wr_bytes;
};

/* Block statistics of disk @dev of the running domain. */
int vm_blkstats(struct vmconn *c, const char *dev, struct vm_blkstats *st);

struct vm_cpustats {
	uint64_t cpu_ns;		/* the QEMU process, all threads */
	uint64_t user_ns, system_ns;	/* valid when has_split */
	bool has_split;
};

/*
 * Host CPU time of the running domain: virDomainGetCPUStats' total, or
 * (when that needs the cgroups the embedded driver does not create)
 * virDomainGetInfo's cpuTime. -1 when neither answers.
 */
int vm_cpustats(struct vmconn *c, struct vm_cpustats *st);

/* Destroy the started domain if it still runs (always safe to call). */
void vm_destroy(struct vmconn *c);

/*
 * ---- a remote host (`hosts` in swapctl.conf) ----
 *
 * A host that is not the embedded driver may not see this machine's
 * files: the kernels, initrds and disk images go there as volumes of its
 * storage pool VM_POOL, and the console and the agent channel come back
 * through libvirt streams.
 */
#define VM_POOL "swapctl"

/* Whether the connection still answers (false once its daemon died). */
bool vm_alive(struct vmconn *c);

/*
 * The memory in KiB a host can give guests, from its node memory stats
 * @field[0 .. @n - 1] = @kib[]: free + buffers + cached, as MemAvailable
 * counts the page cache (MemFree alone, virNodeGetFreeMemory, is a few
 * hundred MiB on a busy host with GiBs of clean cache). 0 when "free" is
 * not among them.
 */
unsigned long long vm_avail_kib(const char *const field[],
				const unsigned long long kib[], int n);

/* The host's available memory in MiB (vm_avail_kib()), 0 if unknown. */
unsigned long long vm_free_mb(struct vmconn *c);

/*
 * Upload @file as volume @name of the host's pool VM_POOL (replacing a
 * volume of that name), its path on the host into @path. -1 with @err.
 */
int vm_vol_upload(struct vmconn *c, const char *file, const char *name,
		  char *path, size_t pathlen, char *err, size_t errlen);

/* A new sparse raw volume @name of @bytes in VM_POOL; as vm_vol_upload. */
int vm_vol_create(struct vmconn *c, const char *name, unsigned long long bytes,
		  char *path, size_t pathlen, char *err, size_t errlen);

/* Delete volume @name of VM_POOL if it exists. */
void vm_vol_delete(struct vmconn *c, const char *name);

/*
 * Start @xml paused (its serial a pty, its channel the host's own unix
 * socket), copy the console into @console_log through a stream, open the
 * agent channel, then resume: *@agent_fd reads what the agent sends, as
 * the unix socket does on this host. vm_destroy() ends the streams.
 * -1 with @err set.
 */
int vm_start_remote(struct vmconn *c, const char *xml, const char *console_log,
		    int *agent_fd, char *err, size_t errlen);

#endif
