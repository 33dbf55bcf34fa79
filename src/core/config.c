// SPDX-License-Identifier: GPL-2.0
/*
 * swapctl.conf: "key = value" lines, '#' starts a comment line, values may
 * be double-quoted, "~/" at the start of a path is $HOME. See
 * swapctl.conf(5) for the keys.
 */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "kline.h"
#include "util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *home_dir(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if (h && *h == '/')
		return h;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir ? pw->pw_dir : "/";
}

int config_tarball(const struct swapctl_config *cfg, const char *line,
		   char *buf, size_t len)
{
	if (cfg->tarball_set && !strcmp(line, cfg->kernel_line))
		return util_path(buf, len, "%s", cfg->tarball);
	return kline_tarball(buf, len, line);
}

void config_defaults(struct swapctl_config *cfg)
{
	const char *xdg = getenv("XDG_CACHE_HOME");

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->tarball, sizeof(cfg->tarball), "%s",
		 "/usr/src/linux-source-6.1.tar.xz");
	if (xdg && *xdg == '/')
		util_path(cfg->workdir, sizeof(cfg->workdir), "%s/swapctl", xdg);
	else
		util_path(cfg->workdir, sizeof(cfg->workdir),
			  "%s/.cache/swapctl", home_dir());
	snprintf(cfg->series, sizeof(cfg->series), "%s", "swap-ops");
	snprintf(cfg->kernel_line, sizeof(cfg->kernel_line), "%s",
		 KLINE_FIRST);
	cfg->jobs = 0;
	cfg->ccache = true;
	cfg->libvirt_uri[0] = '\0';
	cfg->accel = ACCEL_AUTO;
	cfg->guest_memory_mb = 256;
	cfg->guest_cpus = 2;
	cfg->nfs_port = 20490;
	cfg->parallel = 1;
	snprintf(cfg->source, sizeof(cfg->source), "%s", "built-in defaults");
}

static void seterr(char *err, size_t errlen, const char *name, int line,
		   const char *fmt, ...) __printf(5, 6);

static void seterr(char *err, size_t errlen, const char *name, int line,
		   const char *fmt, ...)
{
	va_list ap;
	int n;

	n = line > 0 ? snprintf(err, errlen, "%s:%d: ", name, line) :
		       snprintf(err, errlen, "%s: ", name);
	if (n < 0 || (size_t)n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static int parse_uint(const char *v, unsigned long min, unsigned long max,
		      unsigned long *out)
{
	unsigned long x;
	char *end;

	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || *end || x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/* Expand a leading "~/" and require an absolute path. */
static int parse_path(const char *v, char *out, size_t len)
{
	if (v[0] == '~' && (v[1] == '/' || v[1] == '\0'))
		return util_path(out, len, "%s%s", home_dir(), v + 1);
	if (v[0] != '/')
		return -1;
	return util_path(out, len, "%s", v);
}

static bool valid_series_name(const char *v)
{
	const char *p;

	if (!*v || *v == '.' || strlen(v) >= 64)
		return false;
	for (p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return false;
	return true;
}

/* driver[+transport]://[host]/path[?query], no spaces or control bytes */
static bool valid_uri(const char *v)
{
	const char *p = v;

	if (!isalpha((unsigned char)*p))
		return false;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' ||
	       *p == '.')
		p++;
	if (strncmp(p, "://", 3))
		return false;
	for (p += 3; *p; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return false;
	return strchr(v + 3, '/') != NULL;
}

int config_check_append(const char *v, char *msg, size_t len)
{
	const char *p;

	if (strlen(v) >= CONFIG_APPEND_MAX) {
		snprintf(msg, len, "longer than %d characters",
			 CONFIG_APPEND_MAX - 1);
		return -1;
	}
	for (p = v; *p; p++)
		if (*p < ' ' || *p >= 0x7f) {
			snprintf(msg, len,
				 "byte 0x%02x is not printable ASCII (the kernel command line is one line)",
				 (unsigned char)*p);
			return -1;
		}
	return 0;
}

/*
 * hosts = URI URI ... (spaces or commas between): each a libvirt URI or
 * "local" (libvirt_uri, else the embedded driver), none twice.
 */
static int parse_hosts(struct swapctl_config *cfg, const char *v, char *msg,
		       size_t msglen)
{
	char uri[CONFIG_URI_MAX];
	unsigned int n = 0, i;
	size_t len;

	while (*v) {
		v += strspn(v, " \t,");
		len = strcspn(v, " \t,");
		if (!len)
			break;
		if (len >= sizeof(uri) || n == CONFIG_HOSTS_MAX) {
			snprintf(msg, msglen, len >= sizeof(uri) ?
				 "hosts: a URI longer than %d bytes" :
				 "hosts: more than %d hosts",
				 len >= sizeof(uri) ? CONFIG_URI_MAX - 1 :
				 CONFIG_HOSTS_MAX);
			return -1;
		}
		memcpy(uri, v, len);
		uri[len] = '\0';
		v += len;
		if (strcmp(uri, "local") && !valid_uri(uri)) {
			snprintf(msg, msglen,
				 "hosts: '%.200s' is not a libvirt URI like qemu+ssh://box/system, or local",
				 uri);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (!strcmp(cfg->hosts[i], uri)) {
				snprintf(msg, msglen,
					 "hosts: '%.200s' is listed twice", uri);
				return -1;
			}
		snprintf(cfg->hosts[n++], sizeof(cfg->hosts[0]), "%s", uri);
	}
	cfg->nhosts = n;
	return 0;
}

/* Apply one key; returns 0, or -1 with the message (no prefix) in @msg. */
static int set_key(struct swapctl_config *cfg, const char *key,
		   const char *v, char *msg, size_t msglen)
{
	unsigned long u;

	if (!strcmp(key, "kernel_tarball")) {
		if (parse_path(v, cfg->tarball, sizeof(cfg->tarball)))
			goto bad_path;
		cfg->tarball_set = true;
	} else if (!strcmp(key, "kernel_line")) {
		if (!kline_valid(v)) {
			snprintf(msg, msglen,
				 "kernel_line: '%s' is not a kernel line (MAJOR.MINOR, as 6.1 or 6.12)",
				 v);
			return -1;
		}
		snprintf(cfg->kernel_line, sizeof(cfg->kernel_line), "%s", v);
	} else if (!strcmp(key, "workdir")) {
		if (parse_path(v, cfg->workdir, sizeof(cfg->workdir)))
			goto bad_path;
	} else if (!strcmp(key, "kernel_tree")) {
		if (*v && parse_path(v, cfg->kernel_tree,
				     sizeof(cfg->kernel_tree)))
			goto bad_path;
		if (!*v)
			cfg->kernel_tree[0] = '\0';
	} else if (!strcmp(key, "series")) {
		if (!valid_series_name(v) || !strcmp(v, "baseline")) {
			snprintf(msg, msglen,
				 "series: '%s' is not a series name (letters, digits, '.', '_', '-'; not 'baseline')",
				 v);
			return -1;
		}
		snprintf(cfg->series, sizeof(cfg->series), "%s", v);
	} else if (!strcmp(key, "jobs")) {
		if (parse_uint(v, 0, 256, &u)) {
			snprintf(msg, msglen,
				 "jobs: '%s' is not a number from 0 (all CPUs) to 256",
				 v);
			return -1;
		}
		cfg->jobs = (int)u;
	} else if (!strcmp(key, "ccache")) {
		if (parse_bool(v, &cfg->ccache)) {
			snprintf(msg, msglen,
				 "ccache: '%s' is not yes/no/true/false/on/off/1/0",
				 v);
			return -1;
		}
	} else if (!strcmp(key, "libvirt_uri")) {
		if (util_path(cfg->libvirt_uri, sizeof(cfg->libvirt_uri), "%s",
			      v)) {
			snprintf(msg, msglen, "libvirt_uri: value too long");
			return -1;
		}
		if (*v && !valid_uri(v)) {
			snprintf(msg, msglen,
				 "libvirt_uri: '%.200s' is not a libvirt URI like qemu:///system or qemu+ssh://host/system (empty: the embedded driver)",
				 v);
			return -1;
		}
	} else if (!strcmp(key, "append")) {
		char why[160];

		if (config_check_append(v, why, sizeof(why))) {
			snprintf(msg, msglen, "append: %s", why);
			return -1;
		}
		snprintf(cfg->append, sizeof(cfg->append), "%s", v);
	} else if (!strcmp(key, "accel")) {
		if (!strcmp(v, "auto")) {
			cfg->accel = ACCEL_AUTO;
		} else if (!strcmp(v, "kvm")) {
			cfg->accel = ACCEL_KVM;
		} else if (!strcmp(v, "tcg")) {
			cfg->accel = ACCEL_TCG;
		} else {
			snprintf(msg, msglen,
				 "accel: '%s' is not auto, kvm or tcg", v);
			return -1;
		}
	} else if (!strcmp(key, "guest_memory_mb")) {
		if (parse_uint(v, 64, 65536, &u)) {
			snprintf(msg, msglen,
				 "guest_memory_mb: '%s' is not a number from 64 to 65536",
				 v);
			return -1;
		}
		cfg->guest_memory_mb = (unsigned int)u;
	} else if (!strcmp(key, "guest_cpus")) {
		if (parse_uint(v, 1, 64, &u)) {
			snprintf(msg, msglen,
				 "guest_cpus: '%s' is not a number from 1 to 64",
				 v);
			return -1;
		}
		cfg->guest_cpus = (unsigned int)u;
	} else if (!strcmp(key, "nfs_port")) {
		if (parse_uint(v, 1, 65535, &u)) {
			snprintf(msg, msglen,
				 "nfs_port: '%s' is not a port number (1-65535)",
				 v);
			return -1;
		}
		cfg->nfs_port = (unsigned int)u;
	} else if (!strcmp(key, "hosts")) {
		if (parse_hosts(cfg, v, msg, msglen))
			return -1;
	} else if (!strcmp(key, "parallel")) {
		if (parse_uint(v, 1, CONFIG_PARALLEL_MAX, &u)) {
			snprintf(msg, msglen,
				 "parallel: '%s' is not a number from 1 to %d",
				 v, CONFIG_PARALLEL_MAX);
			return -1;
		}
		cfg->parallel = (unsigned int)u;
	} else {
		snprintf(msg, msglen, "unknown key '%s'", key);
		return -1;
	}
	return 0;
bad_path:
	snprintf(msg, msglen, "%s: '%s' is not an absolute path", key, v);
	return -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * Line @lineno of file @name, @line of @n bytes, is text: no byte order
 * mark on line 1, no control character but tab and CR. 0, or -1 with
 * @err set.
 */
static int text_line(const char *line, size_t n, const char *name,
		     int lineno, char *err, size_t errlen)
{
	size_t i;

	if (lineno == 1 && !strncmp(line, "\xef\xbb\xbf", 3)) {
		seterr(err, errlen, name, lineno,
		       "starts with a UTF-8 byte order mark (save the file without it)");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (((unsigned char)line[i] < ' ' && line[i] != '\t' &&
		     line[i] != '\r') || line[i] == 0x7f) {
			seterr(err, errlen, name, lineno,
			       "control character 0x%02x (not text)",
			       (unsigned char)line[i]);
			return -1;
		}
	return 0;
}

int config_parse_string(struct swapctl_config *cfg, const char *name,
			const char *text, char *err, size_t errlen)
{
	char line[PATH_MAX + 128], msg[512], *key, *val, *eq;
	struct {
		char key[32];
		int line;
	} seen[32];
	const char *p = text, *nl;
	size_t n, vlen, nseen = 0, i;
	int lineno = 0;

	while (*p) {
		lineno++;
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= sizeof(line)) {
			seterr(err, errlen, name, lineno, "line too long");
			return -1;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl ? 1 : 0);
		if (text_line(line, n, name, lineno, err, errlen))
			return -1;
		key = trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			seterr(err, errlen, name, lineno,
			       "expected 'key = value', got '%s'", key);
			return -1;
		}
		*eq = '\0';
		val = trim(eq + 1);
		key = trim(key);
		if (!*key) {
			seterr(err, errlen, name, lineno, "missing key before '='");
			return -1;
		}
		vlen = strlen(val);
		if (vlen && val[0] == '"') {
			if (vlen < 2 || val[vlen - 1] != '"') {
				seterr(err, errlen, name, lineno,
				       "%s: unterminated quoted value", key);
				return -1;
			}
			val[vlen - 1] = '\0';
			val++;
			if (strchr(val, '"')) {
				seterr(err, errlen, name, lineno,
				       "%s: a '\"' inside the quoted value (there are no escapes)",
				       key);
				return -1;
			}
		}
		for (i = 0; i < nseen; i++)
			if (!strcmp(seen[i].key, key)) {
				seterr(err, errlen, name, lineno,
				       "%s: set twice (first on line %d)", key,
				       seen[i].line);
				return -1;
			}
		if (set_key(cfg, key, val, msg, sizeof(msg))) {
			seterr(err, errlen, name, lineno, "%s", msg);
			return -1;
		}
		/* known keys only get here, and fewer than 32 exist */
		if (nseen < ARRAY_SIZE(seen)) {
			snprintf(seen[nseen].key, sizeof(seen[nseen].key), "%s",
				 key);
			seen[nseen++].line = lineno;
		}
	}
	return 0;
}

int config_parse_file(struct swapctl_config *cfg, const char *path,
		      char *err, size_t errlen)
{
	size_t len;
	char *text;
	int ret;

	text = util_read_input(path, CONFIG_MAX_FILE, &len);
	if (!text) {
		if (errno == EFBIG)
			seterr(err, errlen, path, 0, "larger than %zu KiB",
			       CONFIG_MAX_FILE >> 10);
		else
			seterr(err, errlen, path, 0, "%s",
			       util_input_strerror(errno));
		return -1;
	}
	if (strlen(text) != len) {
		seterr(err, errlen, path, 0, "contains a NUL byte (not text)");
		free(text);
		return -1;
	}
	ret = config_parse_string(cfg, path, text, err, errlen);
	free(text);
	if (!ret)
		snprintf(cfg->source, sizeof(cfg->source), "%s", path);
	return ret;
}

int config_load(struct swapctl_config *cfg, const char *explicit_path,
		char *err, size_t errlen)
{
	const char *env = getenv("SWAPCTL_CONFIG");
	char user[PATH_MAX];

	if (explicit_path)
		return config_parse_file(cfg, explicit_path, err, errlen);
	if (env && *env)
		return config_parse_file(cfg, env, err, errlen);
	if (!util_path(user, sizeof(user), "%s/.config/swapctl/swapctl.conf",
		       home_dir()) &&
	    access(user, F_OK) == 0)
		return config_parse_file(cfg, user, err, errlen);
	if (access("/etc/swapctl.conf", F_OK) == 0)
		return config_parse_file(cfg, "/etc/swapctl.conf", err, errlen);
	return 0;
}

const char *config_libvirt_uri(const struct swapctl_config *cfg,
			       char *buf, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *p;
	size_t n;

	if (cfg->libvirt_uri[0]) {
		snprintf(buf, len, "%s", cfg->libvirt_uri);
		return buf;
	}
	n = (size_t)snprintf(buf, len, "qemu:///embed?root=");
	for (p = cfg->workdir; *p && n + 4 < len; p++) {
		unsigned char c = (unsigned char)*p;

		if (isalnum(c) || strchr("/-._~", c)) {
			buf[n++] = (char)c;
		} else {
			buf[n++] = '%';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		}
	}
	buf[n < len ? n : len - 1] = '\0';
	snprintf(buf + strlen(buf), len - strlen(buf), "/libvirt");
	return buf;
}

/* realpath() of @path, or of its longest existing prefix plus the rest */
static int resolve(const char *path, char *out)
{
	char tmp[PATH_MAX], *slash;
	const char *rest;

	if (realpath(path, out))
		return 0;
	if (util_path(tmp, sizeof(tmp), "%s", path))
		return -1;
	while ((slash = strrchr(tmp, '/')) && slash != tmp) {
		*slash = '\0';
		if (realpath(tmp, out)) {
			rest = path + (slash - tmp);
			return util_path(out + strlen(out),
					 PATH_MAX - strlen(out), "%s", rest);
		}
	}
	return -1;
}

int config_check_workdir(const struct swapctl_config *cfg, char *err,
			 size_t errlen)
{
	char wd[PATH_MAX], repo[PATH_MAX];
	const char *data = util_data_dir();
	size_t n;

	if (!data || resolve(cfg->workdir, wd) || !realpath(data, repo))
		return 0;
	n = strlen(repo);
	if (!strncmp(wd, repo, n) && (wd[n] == '/' || !wd[n])) {
		snprintf(err, errlen,
			 "%s: the work directory must not be inside the repository %s (workdir, from %s)",
			 cfg->workdir, repo,
			 cfg->source[0] ? cfg->source : "the default");
		return -1;
	}
	return 0;
}
