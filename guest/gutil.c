// SPDX-License-Identifier: GPL-2.0
/*
 * I/O helpers for the guest programs (see gutil.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "gstat.h"
#include "gutil.h"

ssize_t gu_read_file(const char *path, char *buf, size_t cap)
{
	size_t len = 0;
	int fd;

	if (!cap)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < cap - 1) {
		ssize_t n = read(fd, buf + len, cap - 1 - len);

		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

int gu_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int gu_write_file(const char *path, const char *s)
{
	int fd, ret;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = gu_write_all(fd, s, strlen(s));
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

void gu_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int gu_vmstat_read(const char *name, uint64_t *v)
{
	static char text[16384];

	if (gu_read_file("/proc/vmstat", text, sizeof(text)) <= 0)
		return -1;
	return gstat_vmstat_value(text, name, v);
}

uint64_t gu_vmstat(const char *name)
{
	uint64_t v;

	return gu_vmstat_read(name, &v) ? 0 : v;
}

uint64_t gu_meminfo_kb(const char *key)
{
	char text[8192], *s = text;
	size_t n = strlen(key);

	if (gu_read_file("/proc/meminfo", text, sizeof(text)) <= 0)
		return 0;
	while (s && *s) {
		if (!strncmp(s, key, n) && s[n] == ':')
			return strtoull(s + n + 1, NULL, 10);
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return 0;
}

int gu_wait_path(const char *path, unsigned int ms)
{
	unsigned int waited = 0;

	while (access(path, F_OK)) {
		if (waited >= ms)
			return -ENOENT;
		gu_sleep_ms(20);
		waited += 20;
	}
	return 0;
}

int gu_blkdev_of(const char *path, char *name, size_t len)
{
	char link[PATH_MAX], sys[64];
	struct stat st;
	dev_t d;
	ssize_t n;
	char *base;

	if (stat(path, &st))
		return -1;
	if (S_ISBLK(st.st_mode))
		d = st.st_rdev;
	else if (S_ISREG(st.st_mode))
		d = st.st_dev;
	else
		return -1;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(d), minor(d));
	n = readlink(sys, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strlen(base) >= len)
		return -1;
	strcpy(name, base);
	return 0;
}

int gu_find_port(const char *want, char *dev, size_t len)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *e;
	int ret = -ENOENT;

	if (!d)
		return -ENOENT;
	while ((e = readdir(d))) {
		char path[300], name[256];
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
			 e->d_name);
		n = gu_read_file(path, name, sizeof(name));
		if (n <= 0)
			continue;
		if (name[n - 1] == '\n')
			name[n - 1] = '\0';
		if (strcmp(name, want))
			continue;
		if ((size_t)snprintf(dev, len, "/dev/%s", e->d_name) < len)
			ret = 0;
		break;
	}
	closedir(d);
	return ret;
}

int gu_emit(int fd, const char *line, int len)
{
	ssize_t n;

	if (len <= 0 || len > GU_PIPE_LINE)
		return -EMSGSIZE;
	do {
		n = write(fd, line, (size_t)len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == len ? 0 : -EIO;
}

void gu_log(int fd, const char *level, const char *fmt, ...)
{
	char msg[1024], line[GU_PIPE_LINE];
	struct gj j;
	va_list ap;
	int len;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "log");
	gj_str(&j, "level", level);
	gj_str(&j, "msg", msg);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(fd, line, len);
}

static const struct gu_result *result_of;

void gu_result_setup(const struct gu_result *r)
{
	result_of = r;
}

void gu_result(const char *status, const char *reason)
{
	static const struct gu_result none = { .name = "swapctl" };
	const struct gu_result *r = result_of ? result_of : &none;
	const struct gu_progress *p = r->progress;
	char line[GU_PIPE_LINE];
	struct gj j;
	int len;

	gj_init(&j, line, sizeof(line));
	gj_line_start(&j, "result");
	gj_str(&j, "status", status);
	gj_u64(&j, "pages", r->pages ? *r->pages : 0);
	gj_u64(&j, "pages_written", p ? p->pages_written : 0);
	gj_u64(&j, "pages_verified", p ? p->pages_verified : 0);
	gj_u64(&j, "pages_corrupt", p ? p->pages_corrupt : 0);
	gj_u64(&j, "pages_corrupt_distinct", p ? p->corrupt_distinct : 0);
	gj_i64(&j, "first_corrupt", p ? p->first_corrupt : -1);
	if (p) {
		gj_u64(&j, "pages_failed", p->pages_failed);
		gj_u64(&j, "pages_failed_distinct", p->failed_distinct);
	}
	if (r->members)
		r->members(&j);
	gj_str(&j, "reason", reason);
	gj_obj_close(&j);
	len = gj_finish(&j);
	if (len > 0)
		gu_emit(STDOUT_FILENO, line, len);
}

void gu_fatal(const char *fmt, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", result_of ? result_of->name : "swapctl",
		reason);
	gu_result("error", reason);
	exit(2);
}

struct gu_progress *gu_progress_map(const char *path)
{
	static struct gu_progress fallback = { .first_corrupt = -1,
					       .phase = -1 };
	struct gu_progress *p;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return &fallback;
	if (ftruncate(fd, sizeof(*p))) {
		close(fd);
		return &fallback;
	}
	p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return &fallback;
	p->first_corrupt = -1;
	p->phase = -1;
	p->fault_ack = -1;
	return p;
}

int gu_progress_read(const char *path, struct gu_progress *p)
{
	ssize_t n = -1;
	int fd;

	memset(p, 0, sizeof(*p));
	p->first_corrupt = -1;
	p->phase = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = pread(fd, p, sizeof(*p), 0);
		close(fd);
	}
	if (n != (ssize_t)sizeof(*p)) {
		memset(p, 0, sizeof(*p));
		p->first_corrupt = -1;
		p->phase = -1;
		return -1;
	}
	return 0;
}
