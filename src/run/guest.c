// SPDX-License-Identifier: GPL-2.0
/*
 * guest: one guest of `swapctl run`, from its directory to its
 * classification. See guest.h.
 *
 * Whatever happens (errors, timeouts, SIGINT/SIGTERM) the guest is
 * destroyed, the NFS server stopped and the agent socket removed before
 * guest_run() returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "faults.h"
#include "guest.h"
#include "plan.h"
#include "rundir.h"
#include "swapctl.h"
#include "util.h"

#define POWEROFF_WAIT_S	20	/* after the result, for the power-off */
#define CONNECT_WAIT_S	10
#define HELLO_WAIT_S	120	/* a kernel that does not boot */

/* lock-free, so safe to set from the signal handler */
atomic_int guest_interrupted;

static void on_signal(int sig)
{
	guest_interrupted = sig;
}

void guest_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * The line is formatted first and written by one fputs(), which holds
 * stderr's lock: guests running at once never mix their lines.
 */
void guest_msg(const char *fmt, ...)
{
	char line[2048];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "swapctl run: ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	fputs(line, stderr);
}

const char *guest_name(const struct guest *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s-%u", g->kernel, g->rep);
	return buf;
}

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void set_why(struct guest *g, const char *fmt, ...)
	__printf(2, 3);

static void set_why(struct guest *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->why, sizeof(g->why), fmt, ap);
	va_end(ap);
}

/* ---- one guest ---- */

struct feed_ctx {
	const struct guest_env *r;
	struct guest_slot *slot;
	struct guest *g;
	FILE *samples;
	FILE *rejected;		/* bad lines, with the reason */
	double t_create;
	struct faults faults;	/* the host's faults (src/run/faults.c) */
};

static void on_line(void *arg, const struct stream_line *l,
		    enum stream_err err, const char *raw, size_t len,
		    uint64_t lineno)
{
	struct feed_ctx *fc = arg;
	struct guest *g = fc->g;
	char name[64];

	if (err != STREAM_OK) {
		if (verbose)
			guest_msg("%s: bad line from the agent: %s",
				  guest_name(g, name, sizeof(name)),
				  fc->g->st.last_error);
		/* kept for a post-mortem, never mixed with the samples */
		if (fc->rejected) {
			fprintf(fc->rejected, "# line %llu: %s\n",
				(unsigned long long)lineno,
				fc->g->st.last_error);
			fwrite(raw, 1, len, fc->rejected);
			fputc('\n', fc->rejected);
			fflush(fc->rejected);
		}
		return;
	}
	fwrite(raw, 1, len, fc->samples);
	fputc('\n', fc->samples);
	fflush(fc->samples);
	faults_line(&fc->faults, l, util_now());
	/* the same pipeline as report and top reading samples.jsonl */
	track_feed(&g->track, l);
	switch (l->type) {
	case STREAM_T_HELLO:
		if (!g->boot_s)
			g->boot_s = util_now() - fc->t_create;
		break;
	case STREAM_T_SAMPLE:
		g->nlast_ctr = l->ncounters;
		memcpy(g->last_ctr, l->counters,
		       l->ncounters * sizeof(l->counters[0]));
		break;
	case STREAM_T_PHASE:
		if (verbose)
			guest_msg("%s: phase %s %s",
				  guest_name(g, name, sizeof(name)), l->phase,
				  l->phase_state == STREAM_PHASE_END ? "end" :
				  "start");
		break;
	case STREAM_T_RESULT:
		g->has_agent_cpu = l->has_agent_cpu;
		g->agent_cpu_ns = l->agent_cpu_ns;
		break;
	case STREAM_T_LOG:
		if (!strcmp(l->level, "error"))
			snprintf(g->last_error_log,
				 sizeof(g->last_error_log), "%s", l->msg);
		if (verbose)
			guest_msg("%s: guest %s: %s",
				  guest_name(g, name, sizeof(name)), l->level,
				  l->msg);
		break;
	default:
		break;
	}
}

static void host_line(const struct guest_env *r, struct guest_slot *slot,
		      struct guest *g, FILE *samples)
{
	struct vm_blkstats bs;
	struct vm_cpustats cs;
	json_t *o, *blk, *cpu = NULL;
	char *s;
	int i, n = 0;

	blk = json_object();
	for (i = 0; i < r->scn->nswap; i++) {
		const struct scn_swap *sw = &r->scn->swap[i];

		if (!sw->dev[0] || vm_blkstats(slot->vm, sw->dev, &bs))
			continue;
		n++;
		json_object_set_new(blk, sw->dev,
			json_pack("{sIsIsIsI}", "rd_req", (json_int_t)bs.rd_req,
				  "wr_req", (json_int_t)bs.wr_req,
				  "rd_bytes", (json_int_t)bs.rd_bytes,
				  "wr_bytes", (json_int_t)bs.wr_bytes));
	}
	if (!vm_cpustats(slot->vm, &cs)) {
		cpu = json_pack("{sI}", "total", (json_int_t)cs.cpu_ns);
		if (cpu && cs.has_split) {
			json_object_set_new(cpu, "user",
					    json_integer((json_int_t)cs.user_ns));
			json_object_set_new(cpu, "system",
					    json_integer((json_int_t)cs.system_ns));
		}
	}
	/*
	 * A guest that stopped answering for its CPU time has powered off
	 * (on a remote host the block stats may still answer a moment
	 * longer): a line without cpu_ns then would end the run's host CPU
	 * time as "unknown".
	 */
	if ((!n && !cpu) || (!cpu && g->host_cpu_seen)) {
		json_decref(blk);
		return;
	}
	g->host_cpu_seen |= cpu != NULL;
	o = json_pack("{sssI}", "type", "host", "t_ns", (json_int_t)host_ns());
	if (o && n)
		json_object_set_new(o, "blk", blk);
	else
		json_decref(blk);
	if (o && cpu)
		json_object_set_new(o, "cpu_ns", cpu);
	else
		json_decref(cpu);
	s = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	if (s) {
		/* not static: guests run at once in threads of their own */
		struct stream_line *l = malloc(sizeof(*l));

		fprintf(samples, "%s\n", s);
		fflush(samples);
		/* counted and measured as report counts the file */
		if (l && stream_parse_line(&g->st, s, strlen(s), l) ==
		    STREAM_OK)
			track_feed(&g->track, l);
		free(l);
	}
	free(s);
	json_decref(o);
}

static int connect_agent(const char *path, double deadline)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	while (!guest_interrupted) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		if (util_now() > deadline)
			return -1;
		usleep(20000);
	}
	return -1;
}

static void check_console(const char *path, struct guest *g)
{
	struct console_scan cs;

	console_scan_file(path, &cs);
	g->console_problems = cs.problems;
	g->oom_kills = cs.oom_kills;
	g->track.console_scanned = true;
	g->track.swap_read_errors = cs.swap_read_errors;
	g->track.swap_write_errors = cs.swap_write_errors;
	g->track.alloc_failures = cs.alloc_failures;
	g->track.hung_tasks = cs.hung_tasks;
	g->console = cs;
	snprintf(g->console_first, sizeof(g->console_first), "%s", cs.first);
}

static int make_disks(const struct guest_env *r, struct guest *g, char *err,
		      size_t errlen)
{
	char path[4200];
	int i, fd, rc;

	for (i = 0; i < r->scn->nswap; i++) {
		const struct scn_swap *sw = &r->scn->swap[i];
		off_t mb;

		if (!sw->dev[0])
			continue;
		snprintf(path, sizeof(path), "%s/disk-%s.img", g->dir, sw->dev);
		mb = sw->type == SWAP_EXT4FILE ? sw->disk_mb : sw->size_mb;
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, mb << 20)) {
			util_seterr(err, errlen, "%s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		if (sw->type == SWAP_EXT4FILE) {
			/* all inode tables now: no lazy init I/O in the guest */
			const char *const argv[] = {
				"mke2fs", "-q", "-F", "-t", "ext4", "-E",
				"lazy_itable_init=0,lazy_journal_init=0",
				"-L", "swapctl", path, NULL,
			};
			struct util_run_opts o = { .out_fd = -1, .quiet = true };

			rc = util_run(argv, &o);
			if (rc) {
				util_seterr(err, errlen, rc < 0 ?
					 "mke2fs not found (install e2fsprogs)" :
					 "mke2fs -t ext4 %s failed (exit %d)",
					 path, rc);
				return -1;
			}
		}
	}
	return 0;
}

static void remove_disks(const struct guest_env *r, struct guest *g)
{
	char path[4200];
	int i;

	if (r->keep_images)
		return;
	for (i = 0; i < r->scn->nswap; i++) {
		if (!r->scn->swap[i].dev[0])
			continue;
		snprintf(path, sizeof(path), "%s/disk-%s.img", g->dir,
			 r->scn->swap[i].dev);
		unlink(path);
	}
}

static void fill_spec(const struct guest_env *r, struct guest *g,
		      struct domain_spec *d, char paths[][4200],
		      char *name, size_t namelen)
{
	int i, n = 0;

	snprintf(name, namelen, DOMAIN_NAME_PREFIX "%s-%s-%d", r->run_id,
		 g->kernel, g->rep);
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->kvm = r->kvm;
	d->memory_mb = r->memory_mb;
	d->cpus = r->cpus;
	d->kernel = g->kernel_path;
	snprintf(paths[0], 4200, "%s/initrd", g->dir);
	snprintf(paths[1], 4200, "%s/console.log", g->dir);
	snprintf(paths[2], 4200, "%s/agent.sock", g->dir);
	d->initrd = paths[0];
	d->console_log = paths[1];
	d->agent_socket = paths[2];
	d->cmdline = r->cmdline;	/* run.c: check_setup() */
	for (i = 0; i < r->scn->nswap && n < DOMAIN_MAX_DISKS; i++) {
		if (!r->scn->swap[i].dev[0])
			continue;
		snprintf(paths[3 + n], 4200, "%s/disk-%s.img", g->dir,
			 r->scn->swap[i].dev);
		d->disk[n].path = paths[3 + n];
		d->disk[n].dev = r->scn->swap[i].dev;
		n++;
	}
	d->ndisks = n;
	d->net = scn_has_nfs(r->scn);
	/* command workloads run the host's programs: its root, read-only */
	d->host_root = r->scn->command ? "/" : NULL;
	d->icount = r->icount;
	d->icount_shift = r->icount_shift;
}

void guest_cleanup(struct guest_slot *s)
{
	int i;

	if (s->vm)
		vm_destroy(s->vm);
	for (i = 0; s->vm && i < s->nvols; i++)
		if (!s->vol_keep[i])
			vm_vol_delete(s->vm, s->vol[i]);
	s->nvols = 0;
	ganesha_stop(&s->nfs);
	if (s->sock[0]) {
		unlink(s->sock);
		s->sock[0] = '\0';
	}
}

/*
 * Only "page allocation failure" reports (warn_alloc): what an oom fault
 * provokes on its way to the OOM killer, so no failure there.
 */
static bool only_alloc_failures(const struct console_scan *cs)
{
	int i;

	if (!cs->nsplats || cs->nsplats > CONSOLE_MAX_SPLATS)
		return false;
	for (i = 0; i < cs->nsplats; i++)
		if (strcmp(cs->splat[i].kind, "alloc-failure"))
			return false;
	return true;
}

static void classify(const struct guest_env *r, struct guest *g)
{
	const struct track *t = &g->track;
	char name[64];

	(void)r;
	g->pass = false;
	if (g->setup_failed) {
		g->exit_class = EXIT_SETUP;
		return;
	}
	if (g->interrupted) {
		g->exit_class = EXIT_INTERRUPTED;
		set_why(g, "interrupted");
		return;
	}
	if (t->have_result && t->pages_corrupt) {
		g->exit_class = EXIT_CORRUPT;
		set_why(g, "%llu corrupt pages (first at page %lld)",
			 (unsigned long long)t->pages_corrupt,
			 (long long)t->first_corrupt);
	} else if (g->console_problems &&
		   !(scn_expects_oom(r->scn) &&
		     only_alloc_failures(&g->console))) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "%d problem lines on the console, first: %s",
			 g->console_problems, g->console_first);
	} else if (g->timeout) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "timeout after %.0f s (%s)", g->run_s,
			 !t->hello ? "no hello from the agent" :
			 !t->have_result ? "no result" :
			 "no power-off after the result");
	} else if (!t->have_result) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "the guest stopped without a result%s%s",
			 g->last_error_log[0] ? "; last error: " :
			 (t->hello ? "" : " (no hello: see console.log)"),
			 g->last_error_log);
	} else if (t->status == STREAM_CORRUPT) {
		g->exit_class = EXIT_CORRUPT;
		/* a command workload says which outputs differ */
		set_why(g, "result: corrupt%s%s", t->reason[0] ? ": " : "",
			t->reason);
	} else if (t->status == STREAM_OOM && !scn_expects_oom(r->scn)) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "the OOM killer took the workload: %s", t->reason);
	} else if (t->status == STREAM_ERROR) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "guest error: %s",
			 t->reason[0] ? t->reason : "(no reason given)");
	} else if (t->status != STREAM_OOM && scn_expects_oom(r->scn)) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "an oom fault expects the OOM killer to take the workload; it finished");
	} else if (g->fault_failures) {
		g->exit_class = EXIT_GUEST;
		set_why(g, "%d host fault actions failed, last: %s",
			g->fault_failures, g->fault_error);
	} else {
		g->exit_class = EXIT_OK;
		g->pass = true;
	}
	if (!g->pass)
		guest_msg("%s: FAIL: %s", guest_name(g, name, sizeof(name)),
			  g->why);
}

/* rejected.txt stays only when there was something to reject */
static void close_rejected(struct feed_ctx *fc, struct guest *g)
{
	char path[4200];

	if (!fc->rejected)
		return;
	fclose(fc->rejected);
	fc->rejected = NULL;
	if (g->st.lines == g->st.ok) {
		snprintf(path, sizeof(path), "%s/rejected.txt", g->dir);
		unlink(path);
	}
}

/* Volume @what of the guest on its remote host: @file uploaded, or as big. */
static int add_vol(const struct guest_env *r, struct guest_slot *s,
		   const struct guest *g, const char *what, const char *file,
		   bool upload, char *err, size_t errlen)
{
	char *name = s->vol[s->nvols], *path = s->vol_path[s->nvols];
	char gname[64];
	struct stat sb;
	int rc;

	guest_name(g, gname, sizeof(gname));
	snprintf(name, sizeof(s->vol[0]), DOMAIN_NAME_PREFIX "%s-%s-%s",
		 r->run_id, gname, what);
	if (upload) {
		rc = vm_vol_upload(s->vm, file, name, path,
				   sizeof(s->vol_path[0]), err, errlen);
	} else if (stat(file, &sb)) {
		util_seterr(err, errlen, "%s: %s", file, strerror(errno));
		rc = -1;
	} else {
		rc = vm_vol_create(s->vm, name, (unsigned long long)sb.st_size,
				   path, sizeof(s->vol_path[0]), err, errlen);
	}
	if (rc)
		return -1;
	/* --keep-images keeps a remote guest's disks as volumes */
	s->vol_keep[s->nvols] = r->keep_images && strcmp(what, "initrd");
	s->nvols++;
	return 0;
}

/*
 * A remote host sees none of this machine's files: the guest's initrd
 * and its ext4 disk (made here) are uploaded, its other disks created
 * there, sparse; its console and agent come back as streams.
 */
static int remote_volumes(const struct guest_env *r, struct guest_slot *s,
			  const struct guest *g, struct domain_spec *d,
			  char *err, size_t errlen)
{
	int i, j;

	s->nvols = 0;
	if (add_vol(r, s, g, "initrd", d->initrd, true, err, errlen))
		return -1;
	d->initrd = s->vol_path[0];
	for (i = 0; i < d->ndisks; i++) {
		bool ext4 = false;

		for (j = 0; j < r->scn->nswap; j++)
			if (!strcmp(r->scn->swap[j].dev, d->disk[i].dev))
				ext4 = r->scn->swap[j].type == SWAP_EXT4FILE;
		if (add_vol(r, s, g, d->disk[i].dev, d->disk[i].path, ext4,
			    err, errlen))
			return -1;
		d->disk[i].path = s->vol_path[s->nvols - 1];
	}
	d->console_log = NULL;
	d->agent_socket = NULL;
	return 0;
}

/*
 * A remote guest whose host's connection closed: re-run elsewhere, not
 * judged. True then.
 */
static bool check_host(const struct guest_slot *s, struct guest *g)
{
	if (!s->host || !s->host->remote || vm_alive(s->vm))
		return false;
	g->host_lost = true;
	g->pass = false;
	g->exit_class = EXIT_SETUP;
	set_why(g, "host %s lost while the guest ran (its libvirt connection closed)",
		s->host->uri);
	return true;
}

/*
 * Everything a guest needs before it boots: its directory, initrd, disks,
 * domain XML, NFS server and output files. False with g->why set.
 */
static bool guest_prepare(const struct guest_env *r, struct guest *g,
			  const char *gname, struct domain_spec *spec,
			  char (*paths)[4200], char *dname, size_t dnamelen,
			  char **xmlp, struct feed_ctx *fc)
{
	char err[1024], xmlpath[4200], spath[4200];
	char *xml;

	stream_init(&g->st);
	track_init(&g->track);
	snprintf(g->host, sizeof(g->host), "%s",
		 fc->slot->host ? fc->slot->host->uri : "");
	util_path(g->dir, sizeof(g->dir), "%s/%s", r->run_dir, gname);
	if (util_mkdir_p(g->dir, 0755)) {
		set_why(g, "%s: %s", g->dir,
			 strerror(errno));
		return false;
	}
	fill_spec(r, g, spec, paths, dname, dnamelen);
	if (strlen(spec->agent_socket) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		set_why(g, "%s: longer than a unix socket path may be (108): choose a shorter workdir",
			 spec->agent_socket);
		return false;
	}
	if (plan_make_initrd(r->initramfs, fc->slot->plan, spec->initrd, err,
			     sizeof(err)) ||
	    make_disks(r, g, err, sizeof(err)) ||
	    (fc->slot->host && fc->slot->host->remote &&
	     remote_volumes(r, fc->slot, g, spec, err, sizeof(err)))) {
		set_why(g, "%s", err);
		return false;
	}
	xml = domain_xml(spec);
	*xmlp = xml;
	snprintf(xmlpath, sizeof(xmlpath), "%s/domain.xml", g->dir);
	if (!xml || util_write_file_atomic(xmlpath, xml, strlen(xml), 0644)) {
		set_why(g, "%s: %s", xmlpath,
			 strerror(errno));
		return false;
	}
	if (scn_has_nfs(r->scn)) {
		unsigned int mb[SCN_MAX_SWAP];
		char nfsdir[4200];
		int i, n = 0;

		for (i = 0; i < r->scn->nswap; i++)
			if (r->scn->swap[i].type == SWAP_NFSFILE)
				mb[n++] = r->scn->swap[i].size_mb;
		snprintf(nfsdir, sizeof(nfsdir), "%s/nfs", g->dir);
		if (ganesha_start(&fc->slot->nfs, nfsdir, fc->slot->nfs_port,
				  mb, n, err, sizeof(err))) {
			set_why(g, "%s", err);
			return false;
		}
	}
	snprintf(spath, sizeof(spath), "%s/rejected.txt", g->dir);
	unlink(spath);
	fc->rejected = fopen(spath, "we");
	snprintf(spath, sizeof(spath), "%s/samples.jsonl", g->dir);
	fc->samples = fopen(spath, "we");
	if (!fc->samples) {
		set_why(g, "%s: %s", spath,
			 strerror(errno));
		return false;
	}
	faults_init(&fc->faults, r->scn, NULL, &fc->slot->nfs, fc->samples);
	return true;
}

/*
 * Read the agent channel until the guest powers off, the result is
 * followed by no power-off, or a time limit passes; host lines and host
 * faults on the way. False when interrupted by a signal.
 */
static bool guest_stream(const struct guest_env *r, struct guest *g,
			 struct feed_ctx *fc, int fd)
{
	double deadline, next_host, t_result = 0;

	deadline = fc->t_create + r->host_timeout_s;
	next_host = fc->t_create;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[16384];
		double now;
		ssize_t n;

		if (guest_interrupted)
			return false;
		now = util_now();
		if (now >= next_host) {
			/* a remote host that died: nothing more will come */
			if (fc->slot->host && fc->slot->host->remote &&
			    !vm_alive(fc->slot->vm))
				break;
			host_line(r, fc->slot, g, fc->samples);
			next_host = now + r->scn->interval_ms / 1000.0;
		}
		faults_tick(&fc->faults, now);
		if (now > deadline ||
		    (!g->track.hello && now > fc->t_create + HELLO_WAIT_S) ||
		    (t_result && now > t_result + POWEROFF_WAIT_S)) {
			g->timeout = true;
			break;
		}
		if (poll(&p, 1, 50) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;	/* QEMU closed the channel: powered off */
		stream_feed(&g->st, buf, n, on_line, fc);
		if (g->track.have_result && !t_result)
			t_result = util_now();
	}
	return true;
}

/*
 * Start the domain and open its agent channel (the local socket, or a
 * remote host's stream); the channel's fd, or -1 with g->why set.
 */
static int start_guest(struct guest_slot *slot, struct guest *g,
		       const char *xml, char (*paths)[4200], double t0)
{
	bool remote = slot->host && slot->host->remote;
	char err[1024];
	int fd = -1;

	if (remote ? vm_start_remote(slot->vm, xml, paths[1], &fd, err,
				     sizeof(err)) :
	    vm_start(slot->vm, xml, err, sizeof(err))) {
		set_why(g, "%s", err);
		return -1;
	}
	guest_catch_signals();	/* the driver may have reset them again */
	g->started = true;
	if (!remote)
		fd = connect_agent(paths[2], t0 + CONNECT_WAIT_S);
	if (fd < 0 && !guest_interrupted)
		set_why(g, "%s: cannot connect to the agent channel: %s",
			paths[2], strerror(errno));
	return fd;
}

void guest_run(const struct guest_env *r, struct guest_slot *slot,
	       struct guest *g)
{
	char paths[3 + DOMAIN_MAX_DISKS][4200], dname[256];
	char gname[64];
	struct domain_spec spec;
	struct feed_ctx fc = { .r = r, .slot = slot, .g = g };
	bool remote = slot->host && slot->host->remote;
	char *xml = NULL;
	int fd = -1;

	guest_name(g, gname, sizeof(gname));
	if (!guest_prepare(r, g, gname, &spec, paths, dname, sizeof(dname),
			   &xml, &fc))
		goto setup_fail;
	unlink(paths[1]);
	unlink(paths[2]);
	if (!remote)
		snprintf(slot->sock, sizeof(slot->sock), "%s", paths[2]);
	if (guest_interrupted)
		goto interrupted;
	guest_msg("%s: booting %s (%s, %u MiB, %u CPUs)%s%s", gname,
		  g->kernel_path, r->kvm ? "KVM" : "TCG", r->memory_mb,
		  r->cpus, remote ? " on " : "", remote ? g->host : "");
	fc.t_create = util_now();
	fd = start_guest(slot, g, xml, paths, fc.t_create);
	if (fd < 0) {
		if (guest_interrupted && g->started)
			goto interrupted;
		goto setup_fail;
	}
	if (!guest_stream(r, g, &fc, fd))
		goto interrupted;
	stream_finish(&g->st, on_line, &fc);
	g->run_s = util_now() - fc.t_create;
	close(fd);
	faults_finish(&fc.faults, util_now());
	g->fault_failures = fc.faults.failures;
	snprintf(g->fault_error, sizeof(g->fault_error), "%s",
		 fc.faults.last_error);
	guest_cleanup(slot);
	fclose(fc.samples);
	close_rejected(&fc, g);
	remove_disks(r, g);
	check_console(paths[1], g);
	free(xml);
	if (check_host(slot, g)) {
		guest_msg("%s: %s", gname, g->why);
		return;
	}
	classify(r, g);
	guest_msg("%s: %s in %.1f s (boot %.2f s)", gname,
		  g->pass ? "pass" : "FAIL", g->run_s, g->boot_s);
	return;

interrupted:
	g->interrupted = true;
	goto failed;
setup_fail:
	g->setup_failed = true;
failed:
	if (fd >= 0)
		close(fd);
	faults_finish(&fc.faults, util_now());
	guest_cleanup(slot);
	if (fc.samples)
		fclose(fc.samples);
	close_rejected(&fc, g);
	remove_disks(r, g);
	free(xml);
	if (!check_host(slot, g))
		classify(r, g);
	if (g->setup_failed || g->host_lost)
		guest_msg("%s: %s", gname, g->why);
}


char *guest_domain_xml(const struct guest_env *r, struct guest *g)
{
	char paths[3 + DOMAIN_MAX_DISKS][4200], name[256];
	struct domain_spec spec;

	fill_spec(r, g, &spec, paths, name, sizeof(name));
	return domain_xml(&spec);
}

void guest_free(struct guest *g)
{
	track_free(&g->track);
}
