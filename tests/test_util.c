// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the shared helpers (src/core/util.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void test_sha256(void **state)
{
	struct util_sha256 s;
	char hex[65], *big;
	size_t i;

	(void)state;
	util_sha256_hex("", 0, hex);
	assert_string_equal(hex,
			    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	util_sha256_hex("abc", 3, hex);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* two blocks after padding */
	util_sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
			56, hex);
	assert_string_equal(hex,
			    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* one million 'a', fed in odd-sized pieces */
	big = malloc(1000000);
	memset(big, 'a', 1000000);
	util_sha256_init(&s);
	for (i = 0; i < 1000000; i += 7)
		util_sha256_update(&s, big + i, i + 7 > 1000000 ?
				   1000000 - i : 7);
	util_sha256_final(&s, hex);
	assert_string_equal(hex,
			    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(big);
}

static char lines[8][64];
static int nlines;

static void collect(const char *line, void *arg)
{
	(void)arg;
	if (nlines < 8)
		snprintf(lines[nlines], sizeof(lines[0]), "%s", line);
	nlines++;
}

static void test_run(void **state)
{
	const char *t[] = { "true", NULL };
	const char *f[] = { "false", NULL };
	const char *none[] = { "/nonexistent/prog", NULL };
	const char *sh[] = { "sh", "-c", "echo one; echo two >&2; printf three; exit 3",
			     NULL };
	const char *env[] = { "sh", "-c", "echo \"$SWAPCTL_T:${HOME-unset}\"",
			      NULL };
	const char *pwd[] = { "pwd", NULL };
	const char *const vars[] = { "SWAPCTL_T=yes", "HOME", NULL };
	struct util_run_opts o = { .out_fd = -1, .on_line = collect };
	char *out;

	(void)state;
	assert_int_equal(util_run(t, NULL), 0);
	assert_int_equal(util_run(f, NULL), 1);
	errno = 0;
	assert_int_equal(util_run(none, NULL), -1);
	assert_int_equal(errno, ENOENT);

	nlines = 0;
	assert_int_equal(util_run(sh, &o), 3);
	assert_int_equal(nlines, 3);
	assert_string_equal(lines[0], "one");
	assert_string_equal(lines[1], "two");
	assert_string_equal(lines[2], "three");

	o.on_line = NULL;
	o.env = vars;
	assert_int_equal(util_run_capture(env, NULL, &out), 0);
	assert_int_equal(out[0], ':');		/* env only via util_run */
	free(out);
	nlines = 0;
	o.on_line = collect;
	assert_int_equal(util_run(env, &o), 0);
	assert_string_equal(lines[0], "yes:unset");

	assert_int_equal(util_run_capture(pwd, "/tmp", &out), 0);
	assert_string_equal(out, "/tmp\n");
	free(out);
	assert_int_equal(util_run_capture(none, NULL, &out), -1);
	assert_null(out);
}

static void test_files(void **state)
{
	char dir[] = "/tmp/test_util.XXXXXX", p[PATH_MAX], q[PATH_MAX];
	struct stat st;
	size_t len;
	char *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	util_path(p, sizeof(p), "%s/a/b/c", dir);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	assert_int_equal(util_mkdir_p(p, 0755), 0);	/* idempotent */
	assert_true(util_exists(p));

	util_path(p, sizeof(p), "%s/a/b/c/f", dir);
	assert_int_equal(util_write_file_atomic(p, "abc", 3, 0600), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	s = util_read_file(p, &len);
	assert_int_equal(len, 3);
	assert_string_equal(s, "abc");
	free(s);
	util_path(q, sizeof(q), "%s/copy", dir);
	assert_int_equal(util_copy_file(p, q, 0644), 0);
	s = util_read_file(q, NULL);
	assert_string_equal(s, "abc");
	free(s);
	/* no temporary file left behind */
	util_path(q, sizeof(q), "%s/a/b/c/f.tmp.%d", dir, (int)getpid());
	assert_false(util_exists(q));
	/* a failing write leaves nothing */
	util_path(q, sizeof(q), "%s/nodir/f", dir);
	assert_int_equal(util_write_file_atomic(q, "x", 1, 0644), -1);
	assert_null(util_read_file(q, NULL));

	/* what is not a regular file is never replaced */
	util_path(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(util_write_file_atomic(p, "x", 1, 0644), -1);
	assert_int_equal(errno, UTIL_ENOTREG);
	assert_int_equal(util_output_target(p, q, sizeof(q)), -1);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	util_path(p, sizeof(p), "%s/a", dir);
	assert_int_equal(util_write_file_atomic(p, "x", 1, 0644), -1);
	assert_true(util_exists(p));
	/* a link to a regular file: the file is replaced, the link stays */
	util_path(p, sizeof(p), "%s/a/b/c/f", dir);
	util_path(q, sizeof(q), "%s/link", dir);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(util_write_file_atomic(q, "new", 3, 0644), 0);
	assert_int_equal(lstat(q, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	s = util_read_file(p, NULL);
	assert_string_equal(s, "new");
	free(s);
	/* a dangling link is refused */
	util_path(p, sizeof(p), "%s/nothing", dir);
	util_path(q, sizeof(q), "%s/dangling", dir);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(util_write_file_atomic(q, "x", 1, 0644), -1);
	assert_int_equal(errno, UTIL_EDANGLING);
	assert_false(util_exists(p));

	util_path(p, sizeof(p), "%s/a", dir);
	assert_int_equal(util_rm_rf(p), 0);
	assert_false(util_exists(p));
	assert_int_equal(util_rm_rf(p), 0);		/* missing is fine */
	assert_int_equal(util_rm_rf(dir), 0);
	assert_false(util_exists(dir));

	assert_int_equal(util_path(p, 4, "%s", "abcd"), -1);
	assert_int_equal(errno, ENAMETOOLONG);
}

/*
 * A link planted at the old temporary name (<out>.tmp.<pid>) is neither
 * followed nor turned into the output (issue 33, item 4).
 */
static void test_atomic_planted_link(void **state)
{
	char dir[] = "/tmp/test_util.XXXXXX", out[PATH_MAX], tmp[PATH_MAX];
	char victim[PATH_MAX];
	struct stat st;
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;
	char *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	util_path(out, sizeof(out), "%s/keep.svg", dir);
	util_path(victim, sizeof(victim), "%s/victim", dir);
	assert_int_equal(util_write_file_atomic(victim, "precious", 8, 0644),
			 0);
	assert_int_equal(util_write_file_atomic(out, "old", 3, 0644), 0);
	util_path(tmp, sizeof(tmp), "%s.tmp.%d", out, (int)getpid());
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(util_write_file_atomic(out, "new", 3, 0644), 0);
	s = util_read_file(victim, NULL);
	assert_string_equal(s, "precious");
	free(s);
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	s = util_read_file(out, NULL);
	assert_string_equal(s, "new");
	free(s);
	/* the planted link is left alone, and no temporary is left */
	assert_int_equal(lstat(tmp, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	assert_int_equal(n, 3);	/* keep.svg, victim, the planted link */
	assert_int_equal(util_rm_rf(dir), 0);
}

/*
 * Inputs: only regular files are read, FIFOs without blocking in open(),
 * and never more than the cap (issue 33, items 2 and 3).
 */
static void test_read_input(void **state)
{
	char dir[] = "/tmp/test_util.XXXXXX", p[PATH_MAX];
	size_t len;
	char *s;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	util_path(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	alarm(5);	/* before the fix: blocks in open() */
	assert_null(util_read_file(p, NULL));
	assert_int_equal(errno, UTIL_ENOTFILE);
	fd = util_open_input(p, NULL);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, UTIL_ENOTFILE);
	{
		char hex[65];

		/* the patches' checksums: no blocking on a FIFO either */
		assert_int_equal(util_sha256_file(p, hex), -1);
		assert_int_equal(errno, UTIL_ENOTFILE);
	}
	assert_null(util_read_input("/dev/zero", 1 << 20, NULL));
	assert_int_equal(errno, UTIL_ENOTFILE);
	alarm(0);
	assert_null(util_read_input(dir, 1 << 20, NULL));
	assert_int_equal(errno, EISDIR);
	assert_string_equal(util_input_strerror(UTIL_ENOTFILE),
			    "not a regular file");

	util_path(p, sizeof(p), "%s/big", dir);
	assert_int_equal(util_write_file_atomic(p, "0123456789", 10, 0644), 0);
	assert_null(util_read_input(p, 9, NULL));
	assert_int_equal(errno, EFBIG);
	s = util_read_input(p, 10, &len);
	assert_non_null(s);
	assert_int_equal(len, 10);
	free(s);
	/* a sparse file far beyond the cap is refused without reading it */
	fd = open(p, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)1 << 40), 0);
	close(fd);
	assert_null(util_read_input(p, 1 << 20, NULL));
	assert_int_equal(errno, EFBIG);
	assert_int_equal(util_rm_rf(dir), 0);
}

static void test_lock(void **state)
{
	char path[] = "/tmp/test_util_lock.XXXXXX";
	int fd, fd2;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	fd = util_lock(path, "test", NULL);
	assert_true(fd >= 0);
	/* flock locks belong to the open file: a second open conflicts */
	fd2 = open(path, O_RDWR);
	assert_int_equal(flock(fd2, LOCK_EX | LOCK_NB), -1);
	close(fd);
	assert_int_equal(flock(fd2, LOCK_EX | LOCK_NB), 0);
	close(fd2);
	unlink(path);
}

static atomic_int lock_stop;
static atomic_int lock_alarms;
static atomic_int lock_holder = -1;

/*
 * The first alarm only interrupts, the second asks to stop. A wait that
 * ignores the request gets the lock at the 20th (its holder closes it),
 * so the test fails rather than hangs.
 */
static void on_alarm(int sig)
{
	int fd;

	(void)sig;
	if (++lock_alarms >= 2)
		lock_stop = 1;
	if (lock_alarms >= 20) {
		fd = atomic_exchange(&lock_holder, -1);
		if (fd >= 0)
			close(fd);
	}
}

/*
 * A run waiting for another's lock gives up on SIGTERM or SIGINT (its
 * handler sets the stop flag; flock() returns EINTR); before, the wait
 * went on and only SIGKILL ended it. A signal that sets nothing (the
 * first alarm) does not end the wait.
 */
static void test_lock_interrupted(void **state)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = {
		.it_interval = { .tv_usec = 100000 },
		.it_value = { .tv_usec = 100000 },
	};
	struct itimerval off = { 0 };
	char path[] = "/tmp/test_util_lock.XXXXXX";
	int fd, fd2, e;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	lock_holder = fd;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	fd2 = util_lock(path, "the test's own lock", &lock_stop);
	e = errno;
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	fd = atomic_exchange(&lock_holder, -1);
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	unlink(path);
	assert_int_equal(fd2, -1);
	assert_int_equal(e, EINTR);
	assert_true(lock_alarms >= 2);
}

/*
 * A stop request that came before the wait began (the signal between the
 * "waiting" line and flock()) ends it too, with no further signal: in a
 * child, so that a wait that never ends fails the test after 5 s.
 */
static void test_lock_stopped_before(void **state)
{
	char path[] = "/tmp/test_util_lock.XXXXXX";
	int fd, status = 0, i;
	pid_t pid;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd2;

		lock_stop = 1;
		fd2 = util_lock(path, "the test's own lock", &lock_stop);
		_exit(fd2 == -1 && errno == EINTR ? 0 : 1);
	}
	for (i = 0; i < 100 && waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(50000);
	if (i == 100) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(fd);
	unlink(path);
	assert_int_not_equal(i, 100);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_atomic_planted_link),
		cmocka_unit_test(test_read_input),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_lock_interrupted),
		cmocka_unit_test(test_lock_stopped_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
