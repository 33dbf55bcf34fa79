/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the subcommands: running a child from an argument
 * vector, atomic file writes, mkdir -p / rm -rf, SHA-256, the build lock and
 * locating the repository (or the installed data directory).
 *
 * Every function that can fail returns 0 or a non-negative result on
 * success and -1 on failure with errno set; none of them prints anything
 * unless its comment says so.
 */
#ifndef SWAPCTL_UTIL_H
#define SWAPCTL_UTIL_H

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ---- child processes (fork/execvp, never a shell) ---- */

/* Called with each line of the child's output, without its '\n'. */
typedef void (*util_line_fn)(const char *line, void *arg);

struct util_run_opts {
	/* chdir here in the child; NULL: stay */
	const char *cwd;
	/* "NAME=VALUE" set in the child, "NAME" unset; NULL-terminated */
	const char *const *env;
	/*
	 * The child's stdout+stderr are copied here; -1: inherit ours
	 * (without on_line) or discard (with on_line).
	 */
	int out_fd;
	/* if set, the output goes through a pipe, each line passed here */
	util_line_fn on_line;
	void *arg;			/* for on_line */
	bool quiet;			/* no on_line, out_fd -1: discard */
};

/*
 * Run @argv (argv[0] looked up in PATH) and wait for it. stdin is
 * /dev/null. Returns the exit status (0..255), 128 + signal if it was
 * killed, or -1 if it could not be started (errno set; ENOENT when the
 * program does not exist).
 */
int util_run(const char *const argv[], const struct util_run_opts *opts);

/*
 * Run @argv and capture its stdout (stderr is discarded) into a malloc'ed,
 * NUL-terminated buffer returned in *@out (free it). Returns like
 * util_run().
 */
int util_run_capture(const char *const argv[], const char *cwd, char **out);

/* ---- files ---- */

/* mkdir -p @path (every missing component with @mode). */
int util_mkdir_p(const char *path, mode_t mode);

/* rm -rf @path; a missing @path is not an error. Does not follow links. */
int util_rm_rf(const char *path);

/* Whether @path exists (lstat succeeds). */
bool util_exists(const char *path);

/*
 * The file an atomic write of @path replaces, into @target: @path itself
 * when it does not exist or is a regular file, the file it names when it
 * is a symbolic link to a regular file (the link stays). Anything else (a
 * device such as /dev/full, a directory, a FIFO) would be replaced by a
 * regular file: -1 with errno UTIL_ENOTREG; a dangling link: -1 with errno
 * UTIL_EDANGLING.
 */
#define UTIL_ENOTREG	EEXIST
/* a dangling link: refused too, but named as what it is */
#define UTIL_EDANGLING	ENOLINK
int util_output_target(const char *path, char *target, size_t len);

/* strerror() that words UTIL_ENOTREG as the refusal it is. */
const char *util_output_strerror(int err);

/*
 * Write @len bytes to @path atomically: to a temporary file created
 * exclusively in @path's directory (an unnamed O_TMPFILE where the file
 * system has them, given a fresh random name "@path.tmp.XXXXXX" only for
 * the rename; else created with O_EXCL|O_NOFOLLOW under such a name), fsync,
 * then rename over @path (see util_output_target(): what is not a regular
 * file is refused). Nothing planted under any name is followed. On failure
 * the temporary file is removed; a write killed before the rename leaves
 * no name behind where O_TMPFILE is supported.
 */
int util_write_file_atomic(const char *path, const void *data, size_t len,
			   mode_t mode);

/*
 * Inputs are regular files only: a FIFO would block open() (or read()) for
 * ever, a device such as /dev/zero never ends. What is not one is refused
 * with errno UTIL_ENOTFILE (EISDIR for a directory).
 */
#define UTIL_ENOTFILE	EBADFD
/* strerror() that words UTIL_ENOTFILE and EFBIG as the refusals they are. */
const char *util_input_strerror(int err);

/*
 * Open @path for reading if it is a regular file (opened O_NONBLOCK, so
 * that a FIFO does not block, then checked with fstat; the flag is cleared
 * before returning). Fills *@st when not NULL. Returns the fd or -1.
 */
int util_open_input(const char *path, struct stat *st);

/*
 * Read the whole of regular file @path, at most @max bytes (more: NULL,
 * errno EFBIG), into a malloc'ed buffer with a NUL added (not counted in
 * *@len, which may be NULL). NULL on failure.
 */
char *util_read_input(const char *path, size_t max, size_t *len);

/* util_read_input() with UTIL_READ_MAX. */
#define UTIL_READ_MAX	((size_t)1 << 30)
char *util_read_file(const char *path, size_t *len);

/* Copy @src to @dst atomically (temporary name + rename). */
int util_copy_file(const char *src, const char *dst, mode_t mode);

/* ---- SHA-256 ---- */

#include "guest/sha256.h"

struct util_sha256 {
	struct gsha256 g;
};

void util_sha256_init(struct util_sha256 *s);
void util_sha256_update(struct util_sha256 *s, const void *data, size_t len);
/* Write the digest as 64 lowercase hex digits and a NUL into @hex. */
void util_sha256_final(struct util_sha256 *s, char hex[65]);
/* One-shot helpers. */
void util_sha256_hex(const void *data, size_t len, char hex[65]);
int util_sha256_file(const char *path, char hex[65]);

/* ---- misc ---- */

/* Seconds from CLOCK_MONOTONIC. */
double util_now(void);

/*
 * Take an exclusive flock() on @path (created if needed); if another
 * process holds it, print "swapctl: waiting for @what (@path)" on stderr
 * once and wait. With @stop, the wait polls and gives up (-1, errno
 * EINTR) once *@stop is nonzero (a signal handler sets it); without, it
 * blocks through signals. Returns the fd to keep open (closing it
 * releases the lock), or -1.
 */
int util_lock(const char *path, const char *what, const atomic_int *stop);

/*
 * The directory holding swapctl's data: the repository (the directory of
 * the running binary, or the current directory, whichever contains
 * guest/kernel.config), else the installed <prefix>/share/swapctl next to
 * <prefix>/bin/swapctl. Cached; NULL if none was found.
 */
const char *util_data_dir(void);

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

/* One-line error message into @err (cut to @errlen, which is fine). */
__printf(3, 4)
void util_seterr(char *err, size_t errlen, const char *fmt, ...);

/* snprintf into @buf, returning -1 (errno ENAMETOOLONG) on truncation. */
__printf(3, 4)
int util_path(char *buf, size_t len, const char *fmt, ...);

#endif
