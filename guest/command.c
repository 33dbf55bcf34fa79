// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl guest command runner: runs the host's own programs (make, gcc,
 * stress-ng...) inside the guest, each command group in a cgroup v2 group
 * with its limits, chrooted into a private writable view of the host's
 * root file system.
 *
 *   command PLAN
 *
 * Runs the "hostroot", "command" and "group" directives of PLAN. init has
 * mounted the host's root read-only (virtio-9p) on /host. Each run gets a
 * tmpfs in /run/swapctl/<run>-<group>/ holding the upper layer of an
 * overlay over /host: the command can write anywhere, the writes stay in
 * the guest (and, being tmpfs pages, can themselves be swapped out).
 *
 * First the write test: creating a file on /host (the 9p mount itself,
 * not the overlay) must fail, and the result says so. Then, with
 * "command reference=1", each group that declares outputs runs alone
 * without any limit (the reference run), then all groups run at once
 * under their limits (the limited run, timed as phase "command"). The
 * declared outputs of each run are checksummed (SHA-256) and the limited
 * run's must equal the reference's byte for byte.
 *
 * Lines to stdout (the pipe to the agent): "command" start/end per run,
 * "phase" command start/end, "log", and the "result". Exit status: 0 pass,
 * 1 outputs differ (result "corrupt"), 2 error (result sent).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler.h"
#include "gplan.h"
#include "gstat.h"
#include "gutil.h"
#include "gvalue.h"
#include "gzswap.h"
#include "json.h"
#include "sha256.h"

#define HOST		"/host"
#define RUN_BASE	"/run/swapctl"
#define CGROOT		"/sys/fs/cgroup"
#define BIN_IN_ROOT	"/run/swapctl-bin"	/* our /bin, seen by commands */
#define MAX_FILES	4096
#define LOG_TAIL	2048
#define LOG_LINES	8	/* of the command's output, sent after it ends */
#define DEF_PATH	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

struct outfile {
	char name[GPLAN_STR_LEN];	/* path inside the command's root */
	char hex[65];
};

struct job {
	const struct gplan_group *g;
	bool reference;
	char dir[GPLAN_STR_LEN];	/* tmpfs of this run */
	char root[GPLAN_STR_LEN + 8];	/* the overlay: dir/root */
	char cg[GPLAN_STR_LEN];		/* cgroup directory */
	pid_t pid;
	uint64_t t0, ns;
	int status;
	struct rusage ru;
	bool running;
	struct outfile *files;
	int nfiles;
	char digest[65];		/* over "name hex\n" of every file */
	struct gvalue values[GVALUE_MAX];	/* its swapctl-value lines */
	int nvalues;
};

static struct gplan plan;
static bool host_ro;
static unsigned int ncommands, nfailed, ncompared, ndiffer;

/* the command runner's members of its result line (gu_result()) */
/* zswap's debugfs counters after each limited run, when zswap is on */
static struct gzswap zs;

static void zswap_sample(void)
{
	if (gzswap_enabled(&plan) && gzswap_sample(&zs) && !zs.read)
		fprintf(stderr, "swapctl-command: %s: %s\n", GZSWAP_DIR,
			strerror(errno));
}

static void result_members(struct gj *j)
{
	zswap_sample();
	gzswap_values(j, &zs);
	gj_u64(j, "commands", ncommands);
	gj_u64(j, "commands_failed", nfailed);
	gj_u64(j, "outputs_compared", ncompared);
	gj_u64(j, "outputs_differ", ndiffer);
	gj_bool(j, "host_root_ro", host_ro);
}

static const struct gu_result result = {
	.name = "swapctl-command", .members = result_members,
};

/* ---- the write test ---- */

/*
 * Nothing of the host may be writable: creating a file and opening an
 * existing one for writing on the 9p mount must both fail.
 */
static void check_host_readonly(void)
{
	static const char probe[] = HOST "/.swapctl-write-test";
	int fd, e1, e2;

	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		unlink(probe);
		gu_fatal("host root is writable from the guest: created %s",
		      probe);
	}
	e1 = errno;
	fd = open(HOST "/etc/passwd", O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		gu_fatal("host root is writable from the guest: opened %s for writing",
		      HOST "/etc/passwd");
	}
	e2 = errno;
	if (e1 == ENOENT || e2 == ENOENT)
		gu_fatal("host root: %s is not the host's root (%s)", HOST,
		      strerror(ENOENT));
	host_ro = true;
	gu_log(STDOUT_FILENO, "info",
	       "host root read-only: create %s: %s; open /etc/passwd for writing: %s",
	       probe, strerror(e1), strerror(e2));
}

/* ---- cgroups ---- */

static void cg_write(const char *dir, const char *file, const char *val)
{
	char path[GPLAN_STR_LEN + 64];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	r = gu_write_file(path, val);
	if (r)
		gu_fatal("cgroup %s=%s: %s", path, val, strerror(-r));
}

static uint64_t cg_read_u64(const char *dir, const char *file,
			    const char *key)
{
	char path[GPLAN_STR_LEN + 64], buf[4096], *p;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (gu_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	if (!key)
		return strtoull(buf, NULL, 10);
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, strlen(key)) && p[strlen(key)] == ' ')
			return strtoull(p + strlen(key) + 1, NULL, 10);
	return 0;
}

/* Whether group @g has any io.max limit. */
static bool has_io_max(const struct gplan_group *g)
{
	int k;

	for (k = 0; k < PLAN_IO_LIMITS; k++)
		if (g->io_max[k])
			return true;
	return false;
}

/*
 * Sum the "KEY=VALUE" fields named @key over the lines of @dir/io.stat
 * (one line per device: "MAJ:MIN rbytes=.. wbytes=.. rios=.. wios=.."),
 * or -1 when the group has no io.stat (io controller off).
 */
static int64_t cg_io_stat(const char *dir, const char *key)
{
	char path[GPLAN_STR_LEN + 64], buf[4096], want[32];
	const char *p;
	int64_t sum = 0;

	snprintf(path, sizeof(path), "%s/io.stat", dir);
	if (gu_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	snprintf(want, sizeof(want), " %s=", key);
	for (p = buf; (p = strstr(p, want)); ) {
		p += strlen(want);
		if (isdigit((unsigned char)*p))
			sum += (int64_t)strtoull(p, NULL, 10);
	}
	return sum;
}

/*
 * The whole disk of block device @name ("vdb1" -> "vdb", "zram0" ->
 * "zram0") as "MAJ:MIN" in @devno: blk-throttle takes no partitions.
 */
static int whole_disk_devno(const char *name, char *devno, size_t len)
{
	char path[PATH_MAX + 16], real[PATH_MAX], *slash;
	int n;

	snprintf(path, sizeof(path), "/sys/class/block/%s", name);
	if (!realpath(path, real))
		return -errno;
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK)) {
		slash = strrchr(real, '/');
		if (!slash)
			return -EINVAL;
		*slash = '\0';
	}
	snprintf(path, sizeof(path), "%s/dev", real);
	n = gu_read_file(path, devno, len);
	if (n <= 0)
		return n < 0 ? n : -ENODATA;
	devno[strcspn(devno, "\n")] = '\0';
	if (!devno[0] || strspn(devno, "0123456789:") != strlen(devno) ||
	    !strchr(devno, ':'))
		return -EINVAL;
	return 0;
}

/*
 * io.max of group @g on the whole disk under every active swap device
 * (/proc/swaps): NFS swap files have none and are skipped, but one disk
 * at least must be limited.
 */
static void cg_io_max(struct job *jb)
{
	const struct gplan_group *g = jb->g;
	char text[4096], disks[GPLAN_MAX_SWAP][32], line[256];
	char name[64], devno[32];
	const char *p, *nl;
	int ndisk = 0, i, k, off;

	if (gu_read_file("/proc/swaps", text, sizeof(text)) <= 0)
		gu_fatal("group %s: io_max: cannot read /proc/swaps", g->name);
	p = strchr(text, '\n');	/* the header */
	for (p = p ? p + 1 : text; *p; p = nl ? nl + 1 : p + strlen(p)) {
		char path[256];

		nl = strchr(p, '\n');
		if (sscanf(p, "%255s", path) != 1)
			continue;
		if (gu_blkdev_of(path, name, sizeof(name)))
			continue;	/* no block device (NFS) */
		if (whole_disk_devno(name, devno, sizeof(devno)))
			gu_fatal("group %s: io_max: no disk for swap %s (%s)",
			      g->name, path, name);
		for (k = 0; k < ndisk; k++)
			if (!strcmp(disks[k], devno))
				break;
		if (k < ndisk || ndisk >= GPLAN_MAX_SWAP)
			continue;
		snprintf(disks[ndisk++], sizeof(disks[0]), "%s", devno);
	}
	if (!ndisk)
		gu_fatal("group %s: io_max: no active swap device on a block device",
		      g->name);
	for (i = 0; i < ndisk; i++) {
		off = snprintf(line, sizeof(line), "%s", disks[i]);
		for (k = 0; k < PLAN_IO_LIMITS; k++)
			if (g->io_max[k])
				off += snprintf(line + off, sizeof(line) - off,
						" %s=%" PRIu64,
						plan_io_limit_name(k),
						g->io_max[k]);
		cg_write(jb->cg, "io.max", line);
		gu_log(STDOUT_FILENO, "info", "cgroup %s: io.max %s", jb->cg,
		       line);
	}
}

static void cg_setup(void)
{
	char buf[256];
	bool cpus = false, io = false;
	int i, r;

	mkdir(CGROOT, 0755);
	if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		gu_fatal("mount cgroup2 on %s: %s", CGROOT, strerror(errno));
	for (i = 0; i < plan.ngroup; i++) {
		cpus |= plan.group[i].cpus > 0;
		io |= has_io_max(&plan.group[i]);
	}
	r = gu_write_file(CGROOT "/cgroup.subtree_control", "+memory");
	if (r) {
		buf[0] = '\0';
		gu_read_file(CGROOT "/cgroup.controllers", buf, sizeof(buf));
		buf[strcspn(buf, "\n")] = '\0';
		gu_fatal("cgroup: enabling the memory controller: %s (available: %s)",
		      strerror(-r), buf);
	}
	if (cpus) {
		r = gu_write_file(CGROOT "/cgroup.subtree_control", "+cpuset");
		if (r)
			gu_fatal("cgroup: enabling the cpuset controller: %s (CONFIG_CPUSETS?)",
			      strerror(-r));
	}
	gu_write_file(CGROOT "/cgroup.subtree_control", "+cpu");
	/* only when asked: a group's own blkcg changes what swap merges */
	if (io) {
		r = gu_write_file(CGROOT "/cgroup.subtree_control", "+io");
		if (r)
			gu_fatal("cgroup: enabling the io controller: %s (CONFIG_BLK_CGROUP?)",
			      strerror(-r));
	}
}

static void cg_make(struct job *jb)
{
	const struct gplan_group *g = jb->g;
	char val[64];

	snprintf(jb->cg, sizeof(jb->cg), "%s/%s-%s", CGROOT,
		 jb->reference ? "ref" : "run", g->name);
	if (mkdir(jb->cg, 0755) && errno != EEXIST)
		gu_fatal("mkdir %s: %s", jb->cg, strerror(errno));
	if (jb->reference)
		return;		/* the reference runs without limits */
	if (g->memory_high_mb) {
		snprintf(val, sizeof(val), "%" PRIu64, g->memory_high_mb << 20);
		cg_write(jb->cg, "memory.high", val);
	}
	if (g->memory_max_mb) {
		snprintf(val, sizeof(val), "%" PRIu64, g->memory_max_mb << 20);
		cg_write(jb->cg, "memory.max", val);
	}
	if (g->has_swap_max) {
		snprintf(val, sizeof(val), "%" PRIu64, g->swap_max_mb << 20);
		cg_write(jb->cg, "memory.swap.max", val);
	}
	if (g->cpus) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		if (online > 0 && g->cpus > online)
			gu_fatal("group %s: cpus=%u but the guest has %ld CPUs",
			      g->name, g->cpus, online);
		if (g->cpus == 1)
			snprintf(val, sizeof(val), "0");
		else
			snprintf(val, sizeof(val), "0-%u", g->cpus - 1);
		cg_write(jb->cg, "cpuset.cpus", val);
		snprintf(val, sizeof(val), "%u %u", g->cpus * PLAN_CPU_PERIOD_US,
			 PLAN_CPU_PERIOD_US);
		cg_write(jb->cg, "cpu.max", val);
	}
	if (g->cpu_max_pct) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned int ncpu = g->cpus ? g->cpus :
			online > 0 ? (unsigned int)online : 1;
		unsigned int period = g->cpu_max_period_ms ?
			g->cpu_max_period_ms * 1000 : PLAN_CPU_PERIOD_US;
		uint64_t quota = (uint64_t)g->cpu_max_pct * period / 100;

		if (g->cpu_max_pct > 100 * ncpu)
			gu_fatal("group %s: cpu_max_pct=%u is more than its %u CPUs",
			      g->name, g->cpu_max_pct, ncpu);
		if (quota < PLAN_CPU_QUOTA_US_MIN)
			gu_fatal("group %s: cpu.max quota %" PRIu64 " us is under 1 ms",
			      g->name, quota);
		snprintf(val, sizeof(val), "%" PRIu64 " %u", quota, period);
		cg_write(jb->cg, "cpu.max", val);
	}
	if (has_io_max(g)) {
		char iomax[GPLAN_STR_LEN + 16];

		snprintf(iomax, sizeof(iomax), "%s/io.max", jb->cg);
		if (access(iomax, F_OK))
			gu_fatal("group %s: io_max: %s missing (CONFIG_BLK_DEV_THROTTLING?)",
			      g->name, iomax);
		cg_io_max(jb);
	}
	gu_log(STDOUT_FILENO, "info",
	       "cgroup %s: memory.max=%" PRIu64 "M memory.high=%" PRIu64
	       "M swap.max=%s cpus=%u cpu_max_pct=%u cpu_max_period_ms=%u",
	       jb->cg, g->memory_max_mb, g->memory_high_mb,
	       g->has_swap_max ? "set" : "max", g->cpus, g->cpu_max_pct,
	       g->cpu_max_period_ms ? g->cpu_max_period_ms :
	       PLAN_CPU_PERIOD_US / 1000);
}

/* ---- the command's root: an overlay of the host's root ---- */

static void mount_or_die(const char *src, const char *dst, const char *type,
			 unsigned long flags, const char *data)
{
	if (mount(src, dst, type, flags, data))
		gu_fatal("mount %s (%s) on %s: %s", src, type ? type : "bind",
		      dst, strerror(errno));
}

static void make_root(struct job *jb)
{
	static const struct {
		const char *src, *dir, *type;
	} sub[] = {
		{ "proc", "/proc", "proc" },
		{ "sysfs", "/sys", "sysfs" },
		{ "cgroup2", "/sys/fs/cgroup", "cgroup2" },
		{ "devtmpfs", "/dev", "devtmpfs" },
		{ "tmpfs", "/tmp", "tmpfs" },
		{ "tmpfs", "/run", "tmpfs" },
	};
	char up[GPLAN_STR_LEN + 8], wk[GPLAN_STR_LEN + 8];
	char opts[3 * GPLAN_STR_LEN + 64], path[GPLAN_STR_LEN * 2];
	size_t i;

	mkdir(RUN_BASE, 0755);
	snprintf(jb->dir, sizeof(jb->dir), "%s/%s-%s", RUN_BASE,
		 jb->reference ? "ref" : "run", jb->g->name);
	if (mkdir(jb->dir, 0755))
		gu_fatal("mkdir %s: %s", jb->dir, strerror(errno));
	mount_or_die("tmpfs", jb->dir, "tmpfs", 0, "mode=0755");
	snprintf(up, sizeof(up), "%s/upper", jb->dir);
	snprintf(wk, sizeof(wk), "%s/work", jb->dir);
	snprintf(jb->root, sizeof(jb->root), "%s/root", jb->dir);
	if (mkdir(up, 0755) || mkdir(wk, 0755) || mkdir(jb->root, 0755))
		gu_fatal("mkdir in %s: %s", jb->dir, strerror(errno));
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s",
		 HOST, up, wk);
	mount_or_die("overlay", jb->root, "overlay", 0, opts);
	for (i = 0; i < ARRAY_SIZE(sub); i++) {
		snprintf(path, sizeof(path), "%s%s", jb->root, sub[i].dir);
		mkdir(path, 0755);
		mount_or_die(sub[i].src, path, sub[i].type, 0, NULL);
	}
	/* our static programs (usemem...) at /run/swapctl-bin */
	snprintf(path, sizeof(path), "%s%s", jb->root, BIN_IN_ROOT);
	if (mkdir(path, 0755))
		gu_fatal("mkdir %s: %s", path, strerror(errno));
	mount_or_die("/bin", path, NULL, MS_BIND, NULL);
	mount_or_die("/bin", path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY,
		     NULL);
}

static void drop_root(struct job *jb)
{
	/* MNT_DETACH takes the submounts with it */
	if (jb->root[0] && umount2(jb->root, MNT_DETACH))
		fprintf(stderr, "swapctl-command: umount %s: %s\n", jb->root,
			strerror(errno));
	if (jb->dir[0] && umount2(jb->dir, MNT_DETACH))
		fprintf(stderr, "swapctl-command: umount %s: %s\n", jb->dir,
			strerror(errno));
	if (jb->dir[0])
		rmdir(jb->dir);
	if (jb->cg[0])
		rmdir(jb->cg);
}

/* ---- running ---- */

/* The "swapctl-value NAME N" lines of the run's output (gvalue.h). */
static void collect_values(struct job *jb)
{
	char path[GPLAN_STR_LEN + 8], line[256];
	struct gvalue v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/log", jb->dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int r = gvalue_parse_line(line, &v);

		if (r > 0)
			jb->nvalues = gvalue_add(jb->values, jb->nvalues,
						 GVALUE_MAX, &v);
		else if (r < 0)
			gu_log(STDOUT_FILENO, "warn",
			       "group %s: malformed value line: %.200s",
			       jb->g->name, line);
	}
	fclose(f);
}

static void values_members(struct gj *j, const struct job *jb)
{
	int i;

	if (!jb->nvalues)
		return;
	gj_obj_open(j, "values");
	for (i = 0; i < jb->nvalues; i++)
		gj_u64(j, jb->values[i].name, jb->values[i].v);
	gj_obj_close(j);
}

static void command_line(const struct job *jb, const char *state)
{
	char line[GU_PIPE_LINE], path[GPLAN_STR_LEN + 16], stat[8192];
	struct gj j;
	int len;

	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "command");
	gj_str(&j, "group", jb->g->name);
	gj_str(&j, "run", jb->reference ? "reference" : "limited");
	gj_str(&j, "state", state);
	if (!strcmp(state, "end")) {
		gj_i64(&j, "exit", WIFEXITED(jb->status) ?
		       WEXITSTATUS(jb->status) : -1);
		gj_i64(&j, "signal", WIFSIGNALED(jb->status) ?
		       WTERMSIG(jb->status) : 0);
		gj_u64(&j, "ns", jb->ns);
		gj_u64(&j, "user_ns",
		       (uint64_t)jb->ru.ru_utime.tv_sec * 1000000000ull +
		       (uint64_t)jb->ru.ru_utime.tv_usec * 1000ull);
		gj_u64(&j, "sys_ns",
		       (uint64_t)jb->ru.ru_stime.tv_sec * 1000000000ull +
		       (uint64_t)jb->ru.ru_stime.tv_usec * 1000ull);
		gj_u64(&j, "maxrss_kb", (uint64_t)jb->ru.ru_maxrss);
		gj_u64(&j, "memory_peak_kb",
		       cg_read_u64(jb->cg, "memory.peak", NULL) >> 10);
		gj_u64(&j, "oom_kill",
		       cg_read_u64(jb->cg, "memory.events", "oom_kill"));
		/* io controller on (io_max): what blkcg charged to the group */
		if (cg_io_stat(jb->cg, "rbytes") >= 0) {
			gj_i64(&j, "io_rbytes", cg_io_stat(jb->cg, "rbytes"));
			gj_i64(&j, "io_wbytes", cg_io_stat(jb->cg, "wbytes"));
			gj_i64(&j, "io_rios", cg_io_stat(jb->cg, "rios"));
			gj_i64(&j, "io_wios", cg_io_stat(jb->cg, "wios"));
		}
		gj_u64(&j, "cpu_nr_throttled",
		       cg_read_u64(jb->cg, "cpu.stat", "nr_throttled"));
		gj_u64(&j, "cpu_throttled_us",
		       cg_read_u64(jb->cg, "cpu.stat", "throttled_usec"));
		gj_u64(&j, "pgmajfault",
		       cg_read_u64(jb->cg, "memory.stat", "pgmajfault"));
		/* the counters cover letters cite, per cgroup (gstat.h) */
		snprintf(path, sizeof(path), "%s/memory.stat", jb->cg);
		if (gu_read_file(path, stat, sizeof(stat)) > 0)
			gstat_memstat_member(&j, stat);
		gj_u64(&j, "outputs", (uint64_t)jb->nfiles);
		if (jb->nfiles)
			gj_str(&j, "outputs_sha256", jb->digest);
		values_members(&j, jb);
	}
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(STDOUT_FILENO, line, len);
}

static void start_job(struct job *jb)
{
	const struct gplan_group *g = jb->g;
	char *argv[GPLAN_MAX_ARGS + 1], *envp[GPLAN_MAX_ENV + 5];
	char logp[GPLAN_STR_LEN + 8], procs[GPLAN_STR_LEN + 16];
	char pidbuf[32];
	int i, n = 0, fd;

	make_root(jb);
	cg_make(jb);
	snprintf(logp, sizeof(logp), "%s/log", jb->dir);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", jb->cg);
	for (i = 0; i < g->nargs; i++)
		argv[i] = (char *)g->args[i];
	argv[i] = NULL;
	/* defaults first, so that the scenario's entries override them */
	envp[n++] = "PATH=" DEF_PATH;
	envp[n++] = "HOME=/root";
	envp[n++] = "LC_ALL=C";
	envp[n++] = "TERM=dumb";
	for (i = 0; i < g->nenv; i++)
		envp[n++] = (char *)g->env[i];
	envp[n] = NULL;
	command_line(jb, "start");
	ncommands++;
	jb->t0 = gj_now_ns();
	jb->pid = fork();
	if (jb->pid < 0)
		gu_fatal("fork for group %s: %s", g->name, strerror(errno));
	if (jb->pid == 0) {
		snprintf(pidbuf, sizeof(pidbuf), "%d", getpid());
		if (gu_write_file(procs, pidbuf))
			_exit(126);
		fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		if (chroot(jb->root) || chdir(g->cwd[0] ? g->cwd : "/")) {
			fprintf(stderr, "swapctl-command: chroot %s, chdir %s: %s\n",
				jb->root, g->cwd, strerror(errno));
			_exit(126);
		}
		signal(SIGPIPE, SIG_DFL);
		/* execvp looks PATH up in environ: the command's own */
		environ = envp;
		execvp(argv[0], argv);
		fprintf(stderr, "swapctl-command: exec %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	jb->running = true;
}

/* Wait for one of @jobs; returns it, with its status and time. */
static struct job *wait_one(struct job *jobs, int n)
{
	struct rusage ru;
	int status, i;
	pid_t pid;

	for (;;) {
		pid = wait4(-1, &status, 0, &ru);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			gu_fatal("wait4: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			if (jobs[i].running && jobs[i].pid == pid) {
				jobs[i].ns = gj_now_ns() - jobs[i].t0;
				jobs[i].status = status;
				jobs[i].ru = ru;
				jobs[i].running = false;
				return &jobs[i];
			}
		}
	}
}

/* The last lines (at most LOG_LINES) the command printed, as log lines. */
static void send_log_tail(const struct job *jb, const char *level)
{
	char path[GPLAN_STR_LEN + 8], buf[LOG_TAIL + 1], *p, *nl;
	struct stat sb;
	int fd, lines = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/log", jb->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &sb) && sb.st_size > LOG_TAIL)
		lseek(fd, sb.st_size - LOG_TAIL, SEEK_SET);
	n = read(fd, buf, LOG_TAIL);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = sb.st_size > LOG_TAIL ? strchr(buf, '\n') : buf;
	for (nl = buf + n; nl > buf; nl--)
		if (*nl == '\n' && ++lines > LOG_LINES) {
			if (nl + 1 > p)
				p = nl + 1;
			break;
		}
	for (; p && *p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		if (*p)
			gu_log(STDOUT_FILENO, level, "%s: %.300s",
			       jb->g->name, p);
	}
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct outfile *)a)->name,
		      ((const struct outfile *)b)->name);
}

/* Checksum the files the group's output patterns match in its root. */
static void collect_outputs(struct job *jb)
{
	const struct gplan_group *g = jb->g;
	size_t rootlen = strlen(jb->root);
	char pat[GPLAN_STR_LEN * 3 + 16];
	struct gsha256 all;
	int i, k, r, n = 0;

	if (!g->nout)
		return;
	jb->files = calloc(MAX_FILES, sizeof(*jb->files));
	if (!jb->files)
		gu_fatal("no memory for %d output checksums", MAX_FILES);
	for (i = 0; i < g->nout; i++) {
		glob_t gl;
		size_t m;

		if (g->out[i][0] == '/')
			snprintf(pat, sizeof(pat), "%s%s", jb->root, g->out[i]);
		else
			snprintf(pat, sizeof(pat), "%s%s/%s", jb->root,
				 g->cwd[0] ? g->cwd : "", g->out[i]);
		r = glob(pat, 0, NULL, &gl);
		if (r == GLOB_NOMATCH)
			gu_fatal("group %s (%s run): output pattern %s matched no file",
			      g->name, jb->reference ? "reference" : "limited",
			      g->out[i]);
		if (r)
			gu_fatal("group %s: glob %s failed", g->name, g->out[i]);
		for (m = 0; m < gl.gl_pathc; m++) {
			struct stat sb;

			if (lstat(gl.gl_pathv[m], &sb) || !S_ISREG(sb.st_mode))
				continue;
			if (n >= MAX_FILES)
				gu_fatal("group %s: more than %d output files",
				      g->name, MAX_FILES);
			snprintf(jb->files[n].name, sizeof(jb->files[n].name),
				 "%s", gl.gl_pathv[m] + rootlen);
			r = gsha256_file(gl.gl_pathv[m], jb->files[n].hex);
			if (r)
				gu_fatal("group %s: sha256 %s: %s", g->name,
				      jb->files[n].name, strerror(-r));
			n++;
		}
		globfree(&gl);
	}
	qsort(jb->files, n, sizeof(*jb->files), cmp_file);
	/* overlapping patterns: each file once */
	for (i = 0, k = 0; i < n; i++)
		if (!k || strcmp(jb->files[k - 1].name, jb->files[i].name))
			jb->files[k++] = jb->files[i];
	jb->nfiles = k;
	gsha256_init(&all);
	for (i = 0; i < k; i++) {
		gsha256_update(&all, jb->files[i].name,
			       strlen(jb->files[i].name));
		gsha256_update(&all, " ", 1);
		gsha256_update(&all, jb->files[i].hex, 64);
		gsha256_update(&all, "\n", 1);
	}
	gsha256_final(&all, jb->digest);
}

/*
 * Compare a limited run's outputs with its reference. Returns the number
 * of differing files (missing on either side counts), naming the first.
 */
static unsigned int compare(const struct job *ref, const struct job *lim,
			    char *first, size_t len)
{
	unsigned int diff = 0;
	int i = 0, k = 0, c;

	first[0] = '\0';
	while (i < ref->nfiles || k < lim->nfiles) {
		if (i >= ref->nfiles)
			c = 1;
		else if (k >= lim->nfiles)
			c = -1;
		else
			c = strcmp(ref->files[i].name, lim->files[k].name);
		if (c || strcmp(ref->files[i].hex, lim->files[k].hex)) {
			if (!diff++)
				snprintf(first, len, "%s%s",
					 c <= 0 ? ref->files[i].name :
					 lim->files[k].name,
					 c < 0 ? " (missing)" : c > 0 ?
					 " (not in the reference)" : "");
		}
		if (c <= 0)
			i++;
		if (c >= 0)
			k++;
	}
	return diff;
}

static bool job_failed(const struct job *jb, char *why, size_t len)
{
	if (WIFEXITED(jb->status) && !WEXITSTATUS(jb->status))
		return false;
	if (WIFSIGNALED(jb->status))
		snprintf(why, len, "group %s (%s run): %s killed by signal %d (%s)%s",
			 jb->g->name, jb->reference ? "reference" : "limited",
			 jb->g->args[0], WTERMSIG(jb->status),
			 strsignal(WTERMSIG(jb->status)),
			 cg_read_u64(jb->cg, "memory.events", "oom_kill") ?
			 " by the cgroup's OOM killer" : "");
	else
		snprintf(why, len, "group %s (%s run): %s exited with status %d%s",
			 jb->g->name, jb->reference ? "reference" : "limited",
			 jb->g->args[0], WEXITSTATUS(jb->status),
			 WEXITSTATUS(jb->status) == 127 ? " (not found)" : "");
	return true;
}

static void phase_line(const char *state, uint64_t ns)
{
	char line[GU_PIPE_LINE];
	struct gj j;
	int len;

	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "phase");
	gj_str(&j, "name", "command");
	gj_str(&j, "state", state);
	gj_i64(&j, "index", 0);
	if (!strcmp(state, "end")) {
		gj_u64(&j, "pages", 0);
		gj_u64(&j, "ns", ns);
		gj_u64(&j, "corrupt", ndiffer);
	}
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(STDOUT_FILENO, line, len);
}

int main(int argc, char **argv)
{
	static char text[64 * 1024];
	static struct job ref[GPLAN_MAX_GROUP], lim[GPLAN_MAX_GROUP];
	char err[GPLAN_ERR_LEN], why[512] = "", first[GPLAN_STR_LEN + 32];
	uint64_t t0;
	ssize_t n;
	int i;

	gu_result_setup(&result);
	signal(SIGPIPE, SIG_IGN);
	if (argc != 2) {
		fprintf(stderr, "usage: command PLAN\n");
		return 3;
	}
	n = gu_read_file(argv[1], text, sizeof(text));
	if (n < 0)
		gu_fatal("%s: %s", argv[1], strerror((int)-n));
	if (gplan_parse(text, &plan, err, sizeof(err)))
		gu_fatal("%s: %s", argv[1], err);
	if (!plan.has_command)
		gu_fatal("%s: no command directive", argv[1]);
	check_host_readonly();
	cg_setup();

	/* the reference runs: one at a time, no limits */
	for (i = 0; plan.reference && i < plan.ngroup; i++) {
		if (!plan.group[i].nout)
			continue;
		ref[i].g = &plan.group[i];
		ref[i].reference = true;
		start_job(&ref[i]);
		wait_one(&ref[i], 1);
		if (job_failed(&ref[i], why, sizeof(why))) {
			nfailed++;
			send_log_tail(&ref[i], "error");
			command_line(&ref[i], "end");
			gu_fatal("%s", why);
		}
		send_log_tail(&ref[i], "info");
		collect_outputs(&ref[i]);
		command_line(&ref[i], "end");
		drop_root(&ref[i]);
	}

	/* the limited runs: all groups at once */
	phase_line("start", 0);
	t0 = gj_now_ns();
	for (i = 0; i < plan.ngroup; i++) {
		lim[i].g = &plan.group[i];
		start_job(&lim[i]);
	}
	for (i = 0; i < plan.ngroup; i++) {
		struct job *jb = wait_one(lim, plan.ngroup);
		char w[512];

		if (job_failed(jb, w, sizeof(w))) {
			nfailed++;
			send_log_tail(jb, "error");
			if (!why[0])
				snprintf(why, sizeof(why), "%s", w);
		} else {
			send_log_tail(jb, "info");
		}
	}
	phase_line("end", gj_now_ns() - t0);
	for (i = 0; i < plan.ngroup; i++) {
		if (WIFEXITED(lim[i].status) && !WEXITSTATUS(lim[i].status))
			collect_outputs(&lim[i]);
		collect_values(&lim[i]);
		zswap_sample();
		command_line(&lim[i], "end");
		if (ref[i].g && !why[0]) {
			unsigned int d = compare(&ref[i], &lim[i], first,
						 sizeof(first));

			ncompared += (unsigned int)ref[i].nfiles;
			if (d) {
				ndiffer += d;
				gu_log(STDOUT_FILENO, "error",
				       "group %s: %u of %d outputs differ from the reference, first: %s",
				       lim[i].g->name, d, ref[i].nfiles, first);
			} else {
				gu_log(STDOUT_FILENO, "info",
				       "group %s: %d outputs identical to the reference (sha256 %s)",
				       lim[i].g->name, ref[i].nfiles,
				       ref[i].digest);
			}
		}
		drop_root(&lim[i]);
	}
	if (why[0])
		gu_fatal("%s", why);
	if (ndiffer) {
		snprintf(why, sizeof(why),
			 "%u output files differ from the reference run", ndiffer);
		gu_result("corrupt", why);
		return 1;
	}
	gu_result("pass", "");
	return 0;
}
