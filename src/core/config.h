/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SWAPCTL_CONFIG_H
#define SWAPCTL_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

enum accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };

/* what `append` and `run --append` may add to the guest kernel cmdline */
#define CONFIG_APPEND_MAX	1024
/* the most guests `parallel` and `run --parallel` may run at once */
#define CONFIG_PARALLEL_MAX	16
/* the most libvirt hosts `hosts` may list, and the longest URI */
#define CONFIG_HOSTS_MAX	8
#define CONFIG_URI_MAX		512
/* a configuration file larger than this is refused */
#define CONFIG_MAX_FILE		((size_t)1 << 20)

struct swapctl_config {
	char tarball[PATH_MAX];		/* kernel_tarball */
	bool tarball_set;		/* kernel_tarball given in a file */
	char kernel_line[16];		/* kernel_line: the default line */
	char workdir[PATH_MAX];		/* workdir */
	char kernel_tree[PATH_MAX];	/* kernel_tree: git tree, "" none */
	char series[64];		/* series: the patched variant's series */
	int jobs;			/* jobs */
	bool ccache;			/* ccache */
	char libvirt_uri[PATH_MAX + 64];/* libvirt_uri */
	enum accel accel;		/* accel */
	unsigned int guest_memory_mb;	/* guest_memory_mb */
	unsigned int guest_cpus;	/* guest_cpus */
	unsigned int nfs_port;		/* nfs_port */
	unsigned int parallel;		/* parallel: guests at once */
	/* hosts: libvirt URIs; "local" is libvirt_uri or the embedded */
	char hosts[CONFIG_HOSTS_MAX][CONFIG_URI_MAX];
	unsigned int nhosts;		/* 0: the one local host */
	char append[CONFIG_APPEND_MAX];	/* append: guest kernel cmdline */
	char source[PATH_MAX];		/* which file the values came from */
};

/*
 * The tarball of kernel line @line: kernel_tarball when it was given and
 * @line is the configured kernel_line, else Debian's
 * /usr/src/linux-source-<line>.tar.xz. -1 when it does not fit @len.
 */
int config_tarball(const struct swapctl_config *cfg, const char *line,
		   char *buf, size_t len);

/* Fill @cfg with the built-in defaults. */
void config_defaults(struct swapctl_config *cfg);

/*
 * Load the configuration: @explicit_path (from --config) if not NULL,
 * else $SWAPCTL_CONFIG, ~/.config/swapctl/swapctl.conf, /etc/swapctl.conf,
 * else the defaults alone. Returns 0, or -1 with a one-line message
 * "FILE:LINE: ..." in @err.
 */
int config_load(struct swapctl_config *cfg, const char *explicit_path,
		char *err, size_t errlen);

/* Parse one file into @cfg (values not in the file are kept). */
int config_parse_file(struct swapctl_config *cfg, const char *path,
		      char *err, size_t errlen);

/*
 * Parse the text @text as if it were the file @name (used by
 * config_parse_file() and the unit tests). Same return as config_load().
 */
int config_parse_string(struct swapctl_config *cfg, const char *name,
			const char *text, char *err, size_t errlen);

/*
 * The libvirt URI to use: libvirt_uri if set, else the embedded driver
 * "qemu:///embed?root=<workdir>/libvirt" with the path percent-encoded
 * (a '&', '#', '%' or space in the work dir cannot end the query).
 * Returns @buf.
 */
const char *config_libvirt_uri(const struct swapctl_config *cfg,
			       char *buf, size_t len);

/*
 * Whether @v can go on the guest kernel command line (append, --append):
 * printable ASCII, shorter than CONFIG_APPEND_MAX. 0, or -1 with the
 * reason in @msg.
 */
int config_check_append(const char *v, char *msg, size_t len);

/*
 * The work directory must not be inside the repository (or the installed
 * data directory) whose files swapctl reads: 0, or -1 with a one-line
 * message naming workdir and the file it came from. The path need not
 * exist yet.
 */
int config_check_workdir(const struct swapctl_config *cfg, char *err,
			 size_t errlen);

#endif
