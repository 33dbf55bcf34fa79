// SPDX-License-Identifier: GPL-2.0
/*
 * redisrun: Redis filled past its memory and read back, for command
 * workloads. Our own static program: commands see it as
 * /run/swapctl-bin/redisrun. It drives the host's redis-server and
 * redis-benchmark (Debian's redis-server and redis-tools):
 *
 *   redisrun [--keys N] [--value-bytes B] [--unique-words W] [--seed S]
 *            [--requests R] [--clients C] [--bgsave]
 *
 * starts redis-server on a unix socket in /tmp/redisrun (no TCP port, no
 * persistence, DEBUG allowed from local connections), sets N keys
 * key:%012u (redis-benchmark's -r names) to B-byte values made from S
 * (8-byte words repeating every W words), takes DEBUG DIGEST, runs
 * redis-benchmark -t get -r N -n R -c C --csv (with --bgsave, a BGSAVE
 * started just before, whose forked child writes the data set while the
 * GETs run, and waited for after them), then takes DEBUG DIGEST again: a
 * page lost or corrupted by swap changes the digest. Run it in a cgroup
 * whose memory.max is far below N * B and Redis swaps.
 *
 * Prints "swapctl-value NAME N" lines (the command end line's values):
 * redis_get_rps, redis_get_p50_us, redis_get_p99_us, redis_keys.
 * Exit status: 0 the data set intact, 1 the digest changed, 2 error.
 * For tests only, --test-change-key K sets key K to another value after
 * the GETs, as a lost page would change it: the run must then fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "gredis.h"
#include "gvalue.h"

#define DIR_		"/tmp/redisrun"
#define SOCK		DIR_ "/sock"
#define PIPELINE	128
#define VALUE_MAX	(1u << 20)
#define BENCH_OUT	65536

struct opts {
	uint64_t keys, requests, seed;
	unsigned int value_bytes, uniq, clients;
	bool bgsave;
	int64_t change_key;	/* --test-change-key, -1: none */
};

static struct {
	int fd;
	char buf[65536];
	size_t off, len;
} conn = { .fd = -1 };

static pid_t server = -1;

static __noreturn __printf(1, 2) void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("redisrun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	if (server > 0)
		kill(server, SIGKILL);
	exit(2);
}

static void send_all(const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(conn.fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("write to redis-server: %s", strerror(errno));
		p += w;
		n -= (size_t)w;
	}
}

/* One command of @argc bulk strings (@lens: their lengths). */
static void send_cmd(int argc, const char *const *argv, const size_t *lens)
{
	static char out[VALUE_MAX + 4096];
	size_t off;
	int i;

	off = (size_t)snprintf(out, sizeof(out), "*%d\r\n", argc);
	for (i = 0; i < argc; i++) {
		off += (size_t)snprintf(out + off, sizeof(out) - off,
					"$%zu\r\n", lens[i]);
		memcpy(out + off, argv[i], lens[i]);
		off += lens[i];
		memcpy(out + off, "\r\n", 2);
		off += 2;
	}
	send_all(out, off);
}

static void cmd(int argc, const char *const *argv)
{
	size_t lens[8];
	int i;

	for (i = 0; i < argc; i++)
		lens[i] = strlen(argv[i]);
	send_cmd(argc, argv, lens);
}

static int getch(void)
{
	ssize_t n;

	if (conn.off == conn.len) {
		do
			n = read(conn.fd, conn.buf, sizeof(conn.buf));
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			return -1;
		conn.off = 0;
		conn.len = (size_t)n;
	}
	return (unsigned char)conn.buf[conn.off++];
}

/* A reply line without "\r\n" into @line. */
static void reply_line(char *line, size_t len)
{
	size_t k = 0;
	int c;

	while ((c = getch()) >= 0 && c != '\n')
		if (c != '\r' && k + 1 < len)
			line[k++] = (char)c;
	if (c < 0)
		die("redis-server closed the connection");
	line[k] = '\0';
}

/*
 * One reply: a status (+) or integer (:) as text, a bulk string ($) into
 * @out (at most @len - 1 bytes kept); an error (-) dies.
 */
static void reply(char *out, size_t len)
{
	char line[256];
	long long n, i;
	int c;

	reply_line(line, sizeof(line));
	if (line[0] == '-')
		die("redis-server: %s", line + 1);
	if (line[0] == '+' || line[0] == ':') {
		snprintf(out, len, "%s", line + 1);
		return;
	}
	if (line[0] != '$')
		die("unexpected reply '%.40s'", line);
	n = atoll(line + 1);
	for (i = 0; i < n + 2; i++) {
		c = getch();
		if (c < 0)
			die("redis-server closed the connection");
		if (i < n && (size_t)i + 1 < len)
			out[i] = (char)c;
	}
	out[n >= 0 && (size_t)n < len ? n : n < 0 ? 0 : (long long)len - 1] = '\0';
}

static void connect_server(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int i;

	strcpy(sa.sun_path, SOCK);
	for (i = 0; i < 1200; i++) {	/* 60 s: TCG, a loaded host */
		conn.fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (conn.fd < 0)
			die("socket: %s", strerror(errno));
		if (!connect(conn.fd, (struct sockaddr *)&sa, sizeof(sa)))
			return;
		close(conn.fd);
		if (waitpid(server, NULL, WNOHANG) == server) {
			server = -1;
			die("redis-server exited (its log: " DIR_ "/server.log)");
		}
		usleep(50000);
	}
	die("%s: no redis-server after 60 s", SOCK);
}

static void start_server(void)
{
	char *const argv[] = {
		"redis-server", "--port", "0", "--unixsocket", SOCK,
		"--unixsocketperm", "700", "--dir", DIR_, "--appendonly", "no",
		"--enable-debug-command", "local", "--daemonize", "no",
		"--loglevel", "warning", "--logfile", DIR_ "/server.log", NULL
	};
	static const char *const nosave[] = { "CONFIG", "SET", "save", "" };
	char r[64];

	if (mkdir(DIR_, 0700) && errno != EEXIST)
		die("mkdir %s: %s", DIR_, strerror(errno));
	server = fork();
	if (server < 0)
		die("fork: %s", strerror(errno));
	if (!server) {
		execvp(argv[0], argv);
		fprintf(stderr, "redisrun: exec redis-server: %s\n",
			strerror(errno));
		_exit(127);
	}
	connect_server();
	/* no snapshot of its own while it is measured: BGSAVE is ours */
	cmd(4, nosave);
	reply(r, sizeof(r));
}

static void load(const struct opts *o)
{
	static char val[VALUE_MAX];
	char key[32], r[64];
	const char *argv[3] = { "SET", key, val };
	size_t lens[3] = { 3, 0, o->value_bytes };
	uint64_t i, sent = 0, got = 0;

	for (i = 0; i < o->keys; i++) {
		lens[1] = (size_t)snprintf(key, sizeof(key), "key:%012" PRIu64,
					   i);
		gredis_value(o->seed, i, o->uniq, val, o->value_bytes);
		send_cmd(3, argv, lens);
		sent++;
		/* at most PIPELINE replies outstanding */
		while (sent - got >= PIPELINE || (i + 1 == o->keys &&
						  got < sent)) {
			reply(r, sizeof(r));
			got++;
		}
	}
	argv[0] = "DBSIZE";
	cmd(1, argv);
	reply(r, sizeof(r));
	if (strtoull(r, NULL, 10) != o->keys)
		die("DBSIZE %s after setting %" PRIu64 " keys", r, o->keys);
}

static void digest(char *out, size_t len)
{
	static const char *const argv[] = { "DEBUG", "DIGEST" };

	cmd(2, argv);
	reply(out, len);
	if (strlen(out) != 40)
		die("DEBUG DIGEST: '%.60s' is not a digest", out);
}

/* redis-benchmark's --csv output for GETs over the keyspace. */
static void bench(const struct opts *o, struct gredis_csv *res)
{
	static char out[BENCH_OUT];
	char n[24], r[24], c[24], err[160];
	char *const argv[] = {
		"redis-benchmark", "-s", SOCK, "-t", "get", "-r", r, "-n", n,
		"-c", c, "--csv", NULL
	};
	size_t off = 0;
	ssize_t k;
	int fds[2], status;
	pid_t pid;

	snprintf(n, sizeof(n), "%" PRIu64, o->requests);
	snprintf(r, sizeof(r), "%" PRIu64, o->keys);
	snprintf(c, sizeof(c), "%u", o->clients);
	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "redisrun: exec redis-benchmark: %s\n",
			strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while ((k = read(fds[0], out + off, sizeof(out) - 1 - off)) > 0 ||
	       (k < 0 && errno == EINTR))
		off += k > 0 ? (size_t)k : 0;
	close(fds[0]);
	out[off] = '\0';
	fputs(out, stdout);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		die("redis-benchmark failed (status 0x%x)", status);
	if (gredis_parse_csv(out, "GET", res, err, sizeof(err)))
		die("redis-benchmark --csv: %s", err);
}

static void bgsave_wait(void)
{
	static const char *const argv[] = { "INFO", "persistence" };
	static char info[16384];

	for (;;) {
		cmd(2, argv);
		reply(info, sizeof(info));
		if (!strstr(info, "rdb_bgsave_in_progress:1"))
			break;
		usleep(200000);
	}
	if (!strstr(info, "rdb_last_bgsave_status:ok"))
		die("BGSAVE failed (INFO persistence: rdb_last_bgsave_status)");
	unlink(DIR_ "/dump.rdb");
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: redisrun [--keys N] [--value-bytes B] [--unique-words W] [--seed S]\n"
		"                [--requests R] [--clients C] [--bgsave]\n"
		"Set N keys of B bytes in the host's redis-server, then GET R random keys\n"
		"with redis-benchmark (C clients; with --bgsave while a BGSAVE runs), and\n"
		"check DEBUG DIGEST did not change. Exit 0 intact, 1 changed, 2 error.\n");
}

static uint64_t num(const char *opt, const char *s, uint64_t min,
		    uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || errno || *end || v < min || v > max) {
		fprintf(stderr, "redisrun: --%s: '%s' is not a number in %" PRIu64
			"..%" PRIu64 "\n", opt, s, min, max);
		usage(stderr);
		exit(2);
	}
	return v;
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "keys", 1, NULL, 'k' }, { "value-bytes", 1, NULL, 'b' },
		{ "unique-words", 1, NULL, 'u' }, { "seed", 1, NULL, 's' },
		{ "requests", 1, NULL, 'n' }, { "clients", 1, NULL, 'c' },
		{ "bgsave", 0, NULL, 'g' }, { "help", 0, NULL, 'h' },
		{ "test-change-key", 1, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*o = (struct opts){ .keys = 10000, .value_bytes = 1024, .uniq = 16,
			    .seed = 1, .requests = 10000, .clients = 4,
			    .change_key = -1 };
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'k':
			o->keys = num("keys", optarg, 1, 100000000);
			break;
		case 'b':
			o->value_bytes = (unsigned int)num("value-bytes",
							   optarg, 8, VALUE_MAX);
			break;
		case 'u':
			o->uniq = (unsigned int)num("unique-words", optarg, 1,
						    VALUE_MAX / 8);
			break;
		case 's':
			o->seed = num("seed", optarg, 0, UINT64_MAX);
			break;
		case 'n':
			o->requests = num("requests", optarg, 1, 1000000000);
			break;
		case 'c':
			o->clients = (unsigned int)num("clients", optarg, 1,
						       1000);
			break;
		case 'g':
			o->bgsave = true;
			break;
		case 't':
			o->change_key = (int64_t)num("test-change-key", optarg,
						     0, 100000000);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(2);
	}
	if (o->change_key >= (int64_t)o->keys) {
		fprintf(stderr, "redisrun: --test-change-key %lld: not one of the %" PRIu64 " keys\n",
			(long long)o->change_key, o->keys);
		exit(2);
	}
}

/* --test-change-key: key K gets another value (its value of seed + 1). */
static void change_key(const struct opts *o)
{
	static char val[VALUE_MAX];
	char key[32], r[64];
	const char *argv[3] = { "SET", key, val };
	size_t lens[3] = { 3, 0, o->value_bytes };

	lens[1] = (size_t)snprintf(key, sizeof(key), "key:%012" PRIu64,
				   (uint64_t)o->change_key);
	gredis_value(o->seed + 1, (uint64_t)o->change_key, o->uniq, val,
		     o->value_bytes);
	send_cmd(3, argv, lens);
	reply(r, sizeof(r));
}

int main(int argc, char **argv)
{
	static const char *const bgsave[] = { "BGSAVE" };
	static const char *const shut[] = { "SHUTDOWN", "NOSAVE" };
	char before[64], after[64], r[128];
	struct gredis_csv res;
	struct opts o;

	parse_opts(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	start_server();
	load(&o);
	digest(before, sizeof(before));
	printf("redisrun: %" PRIu64 " keys of %u bytes set, digest %s\n",
	       o.keys, o.value_bytes, before);
	if (o.bgsave) {
		cmd(1, bgsave);
		reply(r, sizeof(r));
	}
	bench(&o, &res);
	if (o.bgsave)
		bgsave_wait();
	if (o.change_key >= 0)
		change_key(&o);
	digest(after, sizeof(after));
	gvalue_print(stdout, "redis_get_rps", res.rps);
	gvalue_print(stdout, "redis_get_p50_us", res.p50_us);
	gvalue_print(stdout, "redis_get_p99_us", res.p99_us);
	cmd(2, shut);
	close(conn.fd);
	waitpid(server, NULL, 0);
	server = -1;
	if (strcmp(before, after)) {
		printf("redisrun: DEBUG DIGEST changed: %s after the load, %s after the reads: the data set is not what was written\n",
		       before, after);
		return 1;
	}
	gvalue_print(stdout, "redis_keys", o.keys);
	printf("redisrun: digest %s unchanged after %" PRIu64 " GETs%s\n",
	       after, o.requests, o.bgsave ? " and a BGSAVE" : "");
	return 0;
}
