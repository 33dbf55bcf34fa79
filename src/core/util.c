// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helpers: child processes, atomic files, SHA-256, the build lock.
 * See util.h for the contract of each function.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* -v count (declared in swapctl.h); here so that the unit tests link. */
int verbose;

/* ---- child processes ---- */

static void child_setup_env(const char *const *env)
{
	char name[256];
	const char *eq;
	size_t n;

	for (; env && *env; env++) {
		eq = strchr(*env, '=');
		if (!eq) {
			unsetenv(*env);
			continue;
		}
		n = (size_t)(eq - *env);
		if (n >= sizeof(name))
			continue;
		memcpy(name, *env, n);
		name[n] = '\0';
		setenv(name, eq + 1, 1);
	}
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t w;

	while (len) {
		w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int wait_child(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return -1;
}

/* Feed the bytes read from @fd to @o->on_line, line by line. */
static void pump_lines(int fd, const struct util_run_opts *o)
{
	char line[4096], buf[4096];
	size_t fill = 0;
	ssize_t r, i;

	for (;;) {
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (o->out_fd >= 0)
			write_all(o->out_fd, buf, (size_t)r);
		for (i = 0; i < r; i++) {
			if (buf[i] == '\n' || fill == sizeof(line) - 1) {
				line[fill] = '\0';
				o->on_line(line, o->arg);
				fill = 0;
				if (buf[i] == '\n')
					continue;
			}
			line[fill++] = buf[i];
		}
	}
	if (fill) {
		line[fill] = '\0';
		o->on_line(line, o->arg);
	}
}

int util_run(const char *const argv[], const struct util_run_opts *opts)
{
	static const struct util_run_opts none = { .out_fd = -1 };
	const struct util_run_opts *o = opts ? opts : &none;
	int errp[2], outp[2] = { -1, -1 };
	int child_errno, devnull, ret;
	ssize_t r;
	pid_t pid;

	if (pipe2(errp, O_CLOEXEC))
		return -1;
	if (o->on_line && pipe2(outp, O_CLOEXEC)) {
		close(errp[0]);
		close(errp[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		ret = errno;
		close(errp[0]);
		close(errp[1]);
		if (outp[0] >= 0) {
			close(outp[0]);
			close(outp[1]);
		}
		errno = ret;
		return -1;
	}
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0)
			dup2(devnull, 0);
		if (outp[1] >= 0) {
			dup2(outp[1], 1);
			dup2(outp[1], 2);
		} else if (o->out_fd >= 0) {
			dup2(o->out_fd, 1);
			dup2(o->out_fd, 2);
		} else if (o->quiet && devnull >= 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		if (o->cwd && chdir(o->cwd))
			goto fail;
		child_setup_env(o->env);
		execvp(argv[0], (char *const *)argv);
fail:
		child_errno = errno;
		write_all(errp[1], &child_errno, sizeof(child_errno));
		_exit(127);
	}
	close(errp[1]);
	if (outp[1] >= 0) {
		close(outp[1]);
		pump_lines(outp[0], o);
		close(outp[0]);
	}
	do {
		r = read(errp[0], &child_errno, sizeof(child_errno));
	} while (r < 0 && errno == EINTR);
	close(errp[0]);
	ret = wait_child(pid);
	if (r == (ssize_t)sizeof(child_errno)) {
		errno = child_errno;
		return -1;
	}
	return ret;
}

struct capture {
	char *buf;
	size_t len, cap;
};

int util_run_capture(const char *const argv[], const char *cwd, char **out)
{
	struct capture c = { NULL, 0, 0 };
	int p[2], errp[2], child_errno, devnull, ret, saved;
	char tmp[4096];
	ssize_t r;
	pid_t pid;

	*out = NULL;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	if (pipe2(errp, O_CLOEXEC)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		saved = errno;
		close(p[0]);
		close(p[1]);
		close(errp[0]);
		close(errp[1]);
		errno = saved;
		return -1;
	}
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 0);
			dup2(devnull, 2);
		}
		dup2(p[1], 1);
		if (cwd && chdir(cwd))
			goto fail;
		execvp(argv[0], (char *const *)argv);
fail:
		child_errno = errno;
		write_all(errp[1], &child_errno, sizeof(child_errno));
		_exit(127);
	}
	close(p[1]);
	close(errp[1]);
	for (;;) {
		r = read(p[0], tmp, sizeof(tmp));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (c.len + (size_t)r + 1 > c.cap) {
			size_t ncap = (c.cap ? c.cap * 2 : 8192) + (size_t)r;
			char *n = realloc(c.buf, ncap);

			if (!n)
				break;
			c.buf = n;
			c.cap = ncap;
		}
		memcpy(c.buf + c.len, tmp, (size_t)r);
		c.len += (size_t)r;
	}
	close(p[0]);
	do {
		r = read(errp[0], &child_errno, sizeof(child_errno));
	} while (r < 0 && errno == EINTR);
	close(errp[0]);
	ret = wait_child(pid);
	if (r == (ssize_t)sizeof(child_errno)) {
		free(c.buf);
		errno = child_errno;
		return -1;
	}
	if (!c.buf)
		c.buf = calloc(1, 1);
	else
		c.buf[c.len] = '\0';
	*out = c.buf;
	return ret;
}

/* ---- files ---- */

int util_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t i, n = strlen(path);

	if (n == 0 || n >= sizeof(buf)) {
		errno = n ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, mode) && errno != EEXIST)
			return -1;
		buf[i] = path[i];
	}
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) && errno != ENOENT ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

int util_rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	return nftw(path, rm_one, 64, FTW_DEPTH | FTW_PHYS);
}

bool util_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int util_output_target(const char *path, char *target, size_t len)
{
	struct stat st, to;
	char *real;
	int ret;

	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return -1;
		return util_path(target, len, "%s", path);
	}
	if (S_ISREG(st.st_mode))
		return util_path(target, len, "%s", path);
	if (S_ISLNK(st.st_mode) && stat(path, &to) && errno == ENOENT) {
		errno = UTIL_EDANGLING;
		return -1;
	}
	if (!S_ISLNK(st.st_mode) || stat(path, &st) || !S_ISREG(st.st_mode)) {
		errno = UTIL_ENOTREG;
		return -1;
	}
	/* a link to a regular file: replace that file, keep the link */
	real = realpath(path, NULL);
	if (!real)
		return -1;
	ret = util_path(target, len, "%s", real);
	free(real);
	return ret;
}

const char *util_output_strerror(int err)
{
	if (err == UTIL_ENOTREG)
		return "exists and is not a regular file (not replacing it)";
	if (err == UTIL_EDANGLING)
		return "a link to nothing (dangling; not writing through it)";
	return strerror(err);
}

/* Six random letters and digits over the last six characters of @name. */
static void random_suffix(char *name)
{
	static const char set[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	static uint64_t ctr;
	uint64_t x;
	size_t n = strlen(name), i;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
	    ((uint64_t)getpid() << 40) ^ (++ctr * 0x9e3779b97f4a7c15ull);
	for (i = n - 6; i < n; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdull;
		x ^= x >> 29;
		name[i] = set[x % (sizeof(set) - 1)];
	}
}

/*
 * An unnamed temporary file in @target's directory, or -1 (errno
 * EOPNOTSUPP and the like when the file system has no O_TMPFILE).
 */
static int open_unnamed(const char *target, mode_t mode)
{
	char dir[PATH_MAX];
	char *slash;

	if (util_path(dir, sizeof(dir), "%s", target))
		return -1;
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

/*
 * Give unnamed @fd the name @tmp ("<target>.tmp.XXXXXX", a fresh suffix
 * per try; linkat never replaces what is there), or create @tmp
 * exclusively when @fd is -1. Returns the fd or -1.
 */
static int name_temporary(int fd, char *tmp, mode_t mode)
{
	char proc[64];
	int i, nfd;

	for (i = 0; i < 100; i++) {
		random_suffix(tmp);
		if (fd >= 0) {
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
			if (!linkat(AT_FDCWD, proc, AT_FDCWD, tmp,
				    AT_SYMLINK_FOLLOW))
				return fd;
		} else {
			nfd = open(tmp, O_WRONLY | O_CREAT | O_EXCL |
				   O_NOFOLLOW | O_CLOEXEC, mode);
			if (nfd >= 0)
				return nfd;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

int util_write_file_atomic(const char *path, const void *data, size_t len,
			   mode_t mode)
{
	char tmp[PATH_MAX], target[PATH_MAX];
	bool named = false;
	int fd, saved;

	if (util_output_target(path, target, sizeof(target)))
		return -1;
	path = target;
	if (util_path(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path))
		return -1;
	fd = open_unnamed(path, mode & 0777);
	if (fd < 0) {
		/* no O_TMPFILE here: a name from the start, made exclusively */
		fd = name_temporary(-1, tmp, mode & 0777);
		if (fd < 0)
			return -1;
		named = true;
	}
	if (write_all(fd, data, len) || fsync(fd) || fchmod(fd, mode))
		goto fail;
	if (!named) {
		if (name_temporary(fd, tmp, mode) < 0)
			goto fail;
		named = true;
	}
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path))
		goto fail;
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	if (named)
		unlink(tmp);
	errno = saved;
	return -1;
}

const char *util_input_strerror(int err)
{
	if (err == UTIL_ENOTFILE)
		return "not a regular file";
	if (err == EFBIG)
		return "too large";
	return strerror(err);
}

int util_open_input(const char *path, struct stat *st)
{
	struct stat sb;
	int fd, fl;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb)) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		errno = S_ISDIR(sb.st_mode) ? EISDIR : UTIL_ENOTFILE;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		close(fd);
		return -1;
	}
	if (st)
		*st = sb;
	return fd;
}

char *util_read_input(const char *path, size_t max, size_t *len)
{
	size_t cap, n = 0;
	char *buf = NULL, *nb;
	struct stat st;
	ssize_t r;
	int fd, saved;

	fd = util_open_input(path, &st);
	if (fd < 0)
		return NULL;
	if ((uint64_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	/* the size is a hint: /proc files say 0, a file may grow */
	cap = (size_t)st.st_size + 1 < 8192 ? 8192 : (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > max) {
				errno = EFBIG;
				goto fail;
			}
			cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			nb = realloc(buf, cap);
			if (!nb)
				goto fail;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			errno = EFBIG;
			goto fail;
		}
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

char *util_read_file(const char *path, size_t *len)
{
	return util_read_input(path, UTIL_READ_MAX, len);
}

int util_copy_file(const char *src, const char *dst, mode_t mode)
{
	size_t len;
	char *data;
	int ret;

	data = util_read_file(src, &len);
	if (!data)
		return -1;
	ret = util_write_file_atomic(dst, data, len, mode);
	free(data);
	return ret;
}

/* ---- SHA-256: guest/sha256.c's, which the guest programs use too ---- */

void util_sha256_init(struct util_sha256 *s)
{
	gsha256_init(&s->g);
}

void util_sha256_update(struct util_sha256 *s, const void *data, size_t len)
{
	gsha256_update(&s->g, data, len);
}

void util_sha256_final(struct util_sha256 *s, char hex[65])
{
	gsha256_final(&s->g, hex);
}

void util_sha256_hex(const void *data, size_t len, char hex[65])
{
	struct gsha256 s;

	gsha256_init(&s);
	gsha256_update(&s, data, len);
	gsha256_final(&s, hex);
}

int util_sha256_file(const char *path, char hex[65])
{
	struct gsha256 s;
	char buf[65536];
	ssize_t n;
	int fd, e;

	/* an input like any other: a FIFO would block, a device not end */
	fd = util_open_input(path, NULL);
	if (fd < 0)
		return -1;
	gsha256_init(&s);
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		gsha256_update(&s, buf, (size_t)n);
	}
	e = errno;
	close(fd);
	if (n < 0) {
		errno = e;
		return -1;
	}
	gsha256_final(&s, hex);
	return 0;
}

/* ---- misc ---- */

double util_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int util_lock(const char *path, const char *what, const atomic_int *stop)
{
	const struct timespec tick = { .tv_nsec = 50000000 };
	int fd, e;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	if (errno != EWOULDBLOCK)
		goto fail;
	fprintf(stderr, "swapctl: waiting for %s (%s)\n", what, path);
	if (!stop) {
		while (flock(fd, LOCK_EX))
			if (errno != EINTR)
				goto fail;
		return fd;
	}
	/*
	 * Poll: a signal that came between a check of @stop and a blocking
	 * flock() would not end the wait.
	 */
	while (!*stop) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			goto fail;
		nanosleep(&tick, NULL);
	}
	errno = EINTR;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

static bool has_kernel_config(const char *dir)
{
	char p[PATH_MAX];

	if (util_path(p, sizeof(p), "%s/guest/kernel.config", dir))
		return false;
	return access(p, R_OK) == 0;
}

const char *util_data_dir(void)
{
	static char dir[PATH_MAX];
	static bool done;
	char exe[PATH_MAX], bindir[PATH_MAX] = "";
	ssize_t n;

	if (done)
		return dir[0] ? dir : NULL;
	done = true;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(bindir, sizeof(bindir), "%s", dirname(exe));
		if (has_kernel_config(bindir)) {
			snprintf(dir, sizeof(dir), "%s", bindir);
			return dir;
		}
	}
	if (getcwd(dir, sizeof(dir)) && has_kernel_config(dir))
		return dir;
	dir[0] = '\0';
	/* <prefix>/bin/swapctl -> <prefix>/share/swapctl */
	if (bindir[0] &&
	    !util_path(dir, sizeof(dir), "%s/../share/swapctl", bindir) &&
	    has_kernel_config(dir))
		return dir;
	dir[0] = '\0';
	return NULL;
}

int util_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

void util_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
