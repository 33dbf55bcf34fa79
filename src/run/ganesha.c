// SPDX-License-Identifier: GPL-2.0
/* nfs-ganesha: configuration, start, wait for the port, stop. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ganesha.h"
#include "util.h"

#define GANESHA_BIN "ganesha.nfsd"
#define START_TIMEOUT_S 15.0
#define STOP_TIMEOUT_S 8.0

const char *ganesha_bad_char(const char *path)
{
	for (; *path; path++)
		if (*path == '"' || *path == '\\' ||
		    (unsigned char)*path < ' ' || *path == 0x7f)
			return path;
	return NULL;
}

char *ganesha_config(const char *export_dir, const char *recovery_dir,
		     unsigned int port)
{
	char *s = NULL;

	/* ganesha's parser has no escapes in quoted strings: refuse */
	if (ganesha_bad_char(export_dir) || ganesha_bad_char(recovery_dir)) {
		errno = EINVAL;
		return NULL;
	}

	if (asprintf(&s,
		     "# written by swapctl run: NFSv4 only, loopback only\n"
		     "NFS_CORE_PARAM {\n"
		     "\tBind_addr = 127.0.0.1;\n"
		     "\tNFS_Port = %u;\n"
		     "\tProtocols = 4;\n"
		     "\tEnable_NLM = false;\n"
		     "\tEnable_RQUOTA = false;\n"
		     "\tEnable_UDP = false;\n"
		     "}\n"
		     "NFSv4 {\n"
		     "\tGraceless = true;\n"
		     "\tRecoveryBackend = fs;\n"
		     "\tRecoveryRoot = \"%s\";\n"
		     "\tMinor_Versions = 0, 1, 2;\n"
		     "\tOnly_Numeric_Owners = true;\n"
		     "}\n"
		     "NFS_KRB5 {\n"
		     "\tActive_krb5 = false;\n"
		     "}\n"
		     "EXPORT {\n"
		     "\tExport_Id = 1;\n"
		     "\tPath = \"%s\";\n"
		     "\tPseudo = /export;\n"
		     "\tAccess_Type = RW;\n"
		     "\tSquash = No_Root_Squash;\n"
		     "\tSecType = sys;\n"
		     "\tProtocols = 4;\n"
		     "\tTransports = TCP;\n"
		     "\tFSAL {\n"
		     "\t\tName = VFS;\n"
		     "\t}\n"
		     "}\n", port, recovery_dir, export_dir) < 0)
		return NULL;
	return s;
}

int ganesha_port_open(unsigned int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd, ret;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	ret = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ret;
}

/* The last line of the server's log, for an error message. */
static void log_tail(const char *log, char *buf, size_t len)
{
	char *text = util_read_file(log, NULL), *end, *p;

	buf[0] = '\0';
	if (!text)
		return;
	end = text + strlen(text);
	while (end > text && end[-1] == '\n')
		*--end = '\0';
	p = strrchr(text, '\n');
	snprintf(buf, len, "%s", p ? p + 1 : text);
	free(text);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Start ganesha.nfsd on the files of g->dir and wait until it listens. */
static int spawn(struct ganesha *g, char *err, size_t errlen)
{
	char conf[4200], log[4200], pidf[4200], tail[256];
	const char *argv[12];
	double t0;
	pid_t pid;
	int st, n;

	if (util_path(conf, sizeof(conf), "%s/ganesha.conf", g->dir) ||
	    util_path(log, sizeof(log), "%s/ganesha.log", g->dir) ||
	    util_path(pidf, sizeof(pidf), "%s/ganesha.pid", g->dir)) {
		util_seterr(err, errlen, "%s: path too long", g->dir);
		return -1;
	}
	n = 0;
	argv[n++] = GANESHA_BIN;
	argv[n++] = "-F";
	argv[n++] = "-f";
	argv[n++] = conf;
	argv[n++] = "-L";
	argv[n++] = log;
	argv[n++] = "-p";
	argv[n++] = pidf;
	argv[n++] = "-N";
	argv[n++] = "NIV_EVENT";
	argv[n] = NULL;

	pid = fork();
	if (pid < 0) {
		util_seterr(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		int fd = open("/dev/null", O_RDWR);

		/* our own process group: Ctrl-C is ours to handle */
		setpgid(0, 0);
		/* and it dies with us if we are killed */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	g->pid = pid;
	t0 = util_now();
	while (util_now() - t0 < START_TIMEOUT_S) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			g->pid = 0;
			if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
				util_seterr(err, errlen,
					"%s not found: install nfs-ganesha and nfs-ganesha-vfs ('make deps')",
					 GANESHA_BIN);
				return -1;
			}
			log_tail(log, tail, sizeof(tail));
			util_seterr(err, errlen, "%s exited at start (see %s): %s",
				 GANESHA_BIN, log, tail);
			return -1;
		}
		if (ganesha_port_open(g->port) == 1)
			return 0;
		sleep_ms(20);
	}
	ganesha_stop(g);
	util_seterr(err, errlen, "%s: not listening on 127.0.0.1:%u after %.0f s (see %s)",
		 GANESHA_BIN, g->port, START_TIMEOUT_S, log);
	return -1;
}

int ganesha_pause(struct ganesha *g)
{
	return g->pid > 0 ? kill(g->pid, SIGSTOP) : -1;
}

int ganesha_resume(struct ganesha *g)
{
	return g->pid > 0 ? kill(g->pid, SIGCONT) : -1;
}

int ganesha_kill(struct ganesha *g)
{
	int st;

	if (g->pid <= 0)
		return -1;
	kill(g->pid, SIGKILL);
	while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR)
		;
	g->pid = 0;
	return 0;
}

int ganesha_restart(struct ganesha *g, char *err, size_t errlen)
{
	double t0 = util_now();

	if (g->pid > 0) {
		util_seterr(err, errlen, "%s: still running (pid %d)",
			    GANESHA_BIN, (int)g->pid);
		return -1;
	}
	/* the old socket may linger a moment after the kill */
	while (ganesha_port_open(g->port) == 1 && util_now() - t0 < 5)
		sleep_ms(20);
	return spawn(g, err, errlen);
}

/* @exp/GANESHA_SWAPFILE_FMT @nth, @mb MiB, every block allocated. */
static int make_swapfile(const char *exp, int nth, unsigned int mb,
			 char *err, size_t errlen)
{
	char name[64], path[4200];
	int fd, r;

	snprintf(name, sizeof(name), GANESHA_SWAPFILE_FMT, nth);
	if (util_path(path, sizeof(path), "%s/%s", exp, name)) {
		util_seterr(err, errlen, "%s: path too long", exp);
		return -1;
	}
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		util_seterr(err, errlen, "create %s: %s", path,
			    strerror(errno));
		return -1;
	}
	r = posix_fallocate(fd, 0, (off_t)mb << 20);
	if (close(fd) && !r)
		r = errno;
	if (r) {
		util_seterr(err, errlen, "allocate %u MiB for %s: %s", mb,
			    path, strerror(r));
		unlink(path);
		return -1;
	}
	return 0;
}

int ganesha_start(struct ganesha *g, const char *dir, unsigned int port,
		  const unsigned int *file_mb, int nfiles, char *err,
		  size_t errlen)
{
	int i;

	char exp[4200], rec[4200], conf[4200], *text;

	memset(g, 0, sizeof(*g));
	g->port = port;
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	if (ganesha_port_open(port) == 1) {
		util_seterr(err, errlen,
			"nfs_port %u: something already listens on 127.0.0.1:%u (a stray ganesha.nfsd? set nfs_port in swapctl.conf)",
			 port, port);
		return -1;
	}
	if (util_path(exp, sizeof(exp), "%s/export", dir) ||
	    util_path(rec, sizeof(rec), "%s/recovery", dir) ||
	    util_path(conf, sizeof(conf), "%s/ganesha.conf", dir)) {
		util_seterr(err, errlen, "%s: path too long", dir);
		return -1;
	}
	util_rm_rf(exp);
	util_rm_rf(rec);
	if (util_mkdir_p(exp, 0755) || util_mkdir_p(rec, 0755)) {
		util_seterr(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (ganesha_bad_char(dir)) {
		util_seterr(err, errlen,
			    "%s: has a '%c' (or a control byte), which the NFS server's configuration cannot quote",
			    dir, *ganesha_bad_char(dir) >= ' ' ?
			    *ganesha_bad_char(dir) : '?');
		return -1;
	}
	text = ganesha_config(exp, rec, port);
	if (!text || util_write_file_atomic(conf, text, strlen(text), 0644)) {
		util_seterr(err, errlen, "%s: %s", conf, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	for (i = 0; i < nfiles; i++)
		if (make_swapfile(exp, i, file_mb[i], err, errlen))
			return -1;
	return spawn(g, err, errlen);
}

void ganesha_stop(struct ganesha *g)
{
	char exp[4200];
	double t0;
	int st;

	if (g->pid > 0) {
		/* a stalled server (nfs_stall) must run to stop */
		kill(g->pid, SIGCONT);
		kill(g->pid, SIGTERM);
		t0 = util_now();
		while (waitpid(g->pid, &st, WNOHANG) == 0) {
			if (util_now() - t0 > STOP_TIMEOUT_S) {
				kill(g->pid, SIGKILL);
				waitpid(g->pid, &st, 0);
				break;
			}
			sleep_ms(20);
		}
		g->pid = 0;
	}
	/* the swap file is as large as the swap area: do not keep it */
	if (g->dir[0] && !util_path(exp, sizeof(exp), "%s/export", g->dir))
		util_rm_rf(exp);
}
