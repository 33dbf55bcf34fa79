// SPDX-License-Identifier: GPL-2.0
/* Unit tests for the swapctl.conf parser (src/core/config.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "domain.h"
#include "util.h"

static char tmpdir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_config.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	util_rm_rf(tmpdir);
	return 0;
}

static void test_defaults(void **state)
{
	struct swapctl_config c;
	char uri[PATH_MAX + 64];

	(void)state;
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	config_defaults(&c);
	assert_string_equal(c.workdir, "/x/cache/swapctl");
	assert_string_equal(c.tarball, "/usr/src/linux-source-6.1.tar.xz");
	assert_string_equal(c.series, "swap-ops");
	assert_true(c.ccache);
	assert_int_equal(c.jobs, 0);
	assert_int_equal(c.accel, ACCEL_AUTO);
	assert_int_equal(c.parallel, 1);
	assert_string_equal(config_libvirt_uri(&c, uri, sizeof(uri)),
			    "qemu:///embed?root=/x/cache/swapctl/libvirt");
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	config_defaults(&c);
	assert_string_equal(c.workdir, "/home/u/.cache/swapctl");
	/* a relative XDG_CACHE_HOME is ignored, as the spec says */
	setenv("XDG_CACHE_HOME", "rel", 1);
	config_defaults(&c);
	assert_string_equal(c.workdir, "/home/u/.cache/swapctl");
	unsetenv("XDG_CACHE_HOME");
}

static void test_all_keys(void **state)
{
	struct swapctl_config c;
	char err[512] = "", uri[PATH_MAX + 64];
	const char *text =
		"# comment\n"
		"\n"
		"kernel_tarball = /srv/linux.tar.xz\n"
		"  workdir=\"~/wd\"  \n"
		"kernel_tree = ~/src/linux\n"
		"series = my-series.v2\n"
		"jobs = 7\n"
		"ccache = off\n"
		"libvirt_uri = qemu:///system\n"
		"accel = tcg\n"
		"guest_memory_mb = 512\n"
		"guest_cpus = 4\n"
		"parallel = 2\n"
		"hosts = local,qemu+ssh://box/system  qemu+unix:///session?socket=/s\n"
		"nfs_port = 2049";	/* no final newline */

	(void)state;
	setenv("HOME", "/home/u", 1);
	config_defaults(&c);
	assert_int_equal(config_parse_string(&c, "t.conf", text, err,
					     sizeof(err)), 0);
	assert_string_equal(c.tarball, "/srv/linux.tar.xz");
	assert_string_equal(c.workdir, "/home/u/wd");
	assert_string_equal(c.kernel_tree, "/home/u/src/linux");
	assert_string_equal(c.series, "my-series.v2");
	assert_int_equal(c.jobs, 7);
	assert_false(c.ccache);
	assert_string_equal(config_libvirt_uri(&c, uri, sizeof(uri)),
			    "qemu:///system");
	assert_int_equal(c.accel, ACCEL_TCG);
	assert_int_equal(c.guest_memory_mb, 512);
	assert_int_equal(c.guest_cpus, 4);
	assert_int_equal(c.parallel, 2);
	assert_int_equal(c.nhosts, 3);
	assert_string_equal(c.hosts[0], "local");
	assert_string_equal(c.hosts[1], "qemu+ssh://box/system");
	assert_string_equal(c.hosts[2], "qemu+unix:///session?socket=/s");
	assert_int_equal(c.nfs_port, 2049);
}

static void expect_error(const char *text, const char *msg)
{
	struct swapctl_config c;
	char err[512] = "";

	config_defaults(&c);
	assert_int_equal(config_parse_string(&c, "bad.conf", text, err,
					     sizeof(err)), -1);
	if (!strstr(err, msg))
		fail_msg("error '%s' lacks '%s'", err, msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("jobs = 2\nfoo = 1\n", "bad.conf:2: unknown key 'foo'");
	expect_error("jobs = two\n", "bad.conf:1: jobs: 'two'");
	expect_error("jobs = -1\n", "bad.conf:1: jobs");
	expect_error("jobs = 257\n", "bad.conf:1: jobs");
	/* issue 33: hostile text (items 10, 11 and 15) */
	expect_error("workdir = \"/tmp/x/\"work\"\n",
		     "bad.conf:1: workdir: a '\"' inside the quoted value");
	expect_error("jobs = 2\nworkdir = /tmp/\x1b[2J\n",
		     "bad.conf:2: control character 0x1b");
	expect_error("\xef\xbb\xbfjobs = 2\n",
		     "bad.conf:1: starts with a UTF-8 byte order mark");
	expect_error("jobs =\n", "bad.conf:1: jobs");
	expect_error("\n\naccel = fast\n", "bad.conf:3: accel: 'fast'");
	expect_error("nfs_port = 70000\n", "bad.conf:1: nfs_port");
	expect_error("nfs_port = 0\n", "bad.conf:1: nfs_port");
	expect_error("parallel = 0\n",
		     "bad.conf:1: parallel: '0' is not a number from 1 to 16");
	expect_error("parallel = 17\n", "bad.conf:1: parallel: '17'");
	expect_error("hosts = local, box\n",
		     "bad.conf:1: hosts: 'box' is not a libvirt URI");
	expect_error("hosts = local local\n",
		     "bad.conf:1: hosts: 'local' is listed twice");
	expect_error("hosts = a:///1 a:///2 a:///3 a:///4 a:///5 a:///6 a:///7 a:///8 a:///9\n",
		     "bad.conf:1: hosts: more than 8 hosts");
	expect_error("guest_cpus = 0\n", "bad.conf:1: guest_cpus");
	expect_error("guest_memory_mb = 12x\n", "bad.conf:1: guest_memory_mb");
	expect_error("ccache = maybe\n", "bad.conf:1: ccache: 'maybe'");
	expect_error("workdir = relative/dir\n",
		     "bad.conf:1: workdir: 'relative/dir' is not an absolute");
	expect_error("kernel_tarball = x.tar\n", "bad.conf:1: kernel_tarball");
	expect_error("kernel_line = 6\n",
		     "bad.conf:1: kernel_line: '6' is not a kernel line");
	expect_error("kernel_tree = linux\n",
		     "bad.conf:1: kernel_tree: 'linux' is not an absolute");
	expect_error("series = baseline\n", "bad.conf:1: series");
	expect_error("series = ../x\n", "bad.conf:1: series");
	expect_error("just words\n", "bad.conf:1: expected 'key = value'");
	expect_error("= 3\n", "bad.conf:1: missing key");
	expect_error("workdir = \"/x\n", "bad.conf:1: workdir: unterminated");
	expect_error("jobs = 2\n# c\njobs = 3\n",
		     "bad.conf:3: jobs: set twice (first on line 1)");
	expect_error("libvirt_uri = garbage\n",
		     "bad.conf:1: libvirt_uri: 'garbage' is not a libvirt URI");
	expect_error("libvirt_uri = qemu:///a b\n", "bad.conf:1: libvirt_uri");
	expect_error("append = a\tb\n", "bad.conf:1: append: byte 0x09");
}

/* The work dir goes into the embedded driver's URI percent-encoded. */
static void test_uri_encoding(void **state)
{
	struct swapctl_config c;
	char uri[PATH_MAX + 64], root[PATH_MAX];

	(void)state;
	config_defaults(&c);
	snprintf(c.workdir, sizeof(c.workdir), "/w&d#x y%%/q");
	assert_string_equal(config_libvirt_uri(&c, uri, sizeof(uri)),
			    "qemu:///embed?root=/w%26d%23x%20y%25/q/libvirt");
	/* and the embedded driver's root is the path again */
	assert_true(domain_embed_root(uri, root, sizeof(root)));
	assert_string_equal(root, "/w&d#x y%/q/libvirt");
}

static void write_file(const char *path, const char *text)
{
	assert_int_equal(util_write_file_atomic(path, text, strlen(text),
						0644), 0);
}

static void test_load_order(void **state)
{
	struct swapctl_config c;
	char err[512] = "", p[PATH_MAX], home[PATH_MAX];

	(void)state;
	/* --config wins, and a missing one is an error */
	util_path(p, sizeof(p), "%s/explicit.conf", tmpdir);
	write_file(p, "jobs = 3\n");
	setenv("SWAPCTL_CONFIG", "/nonexistent/env.conf", 1);
	config_defaults(&c);
	assert_int_equal(config_load(&c, p, err, sizeof(err)), 0);
	assert_int_equal(c.jobs, 3);
	assert_string_equal(c.source, p);
	config_defaults(&c);
	assert_int_equal(config_load(&c, "/nonexistent/x.conf", err,
				     sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x.conf"));

	/* then $SWAPCTL_CONFIG, which must exist when set */
	config_defaults(&c);
	assert_int_equal(config_load(&c, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/env.conf"));
	setenv("SWAPCTL_CONFIG", p, 1);
	config_defaults(&c);
	assert_int_equal(config_load(&c, NULL, err, sizeof(err)), 0);
	assert_int_equal(c.jobs, 3);
	unsetenv("SWAPCTL_CONFIG");

	/* then ~/.config/swapctl/swapctl.conf */
	util_path(home, sizeof(home), "%s/home", tmpdir);
	setenv("HOME", home, 1);
	config_defaults(&c);
	assert_int_equal(config_load(&c, NULL, err, sizeof(err)), 0);
	if (access("/etc/swapctl.conf", F_OK))
		assert_string_equal(c.source, "built-in defaults");
	util_path(p, sizeof(p), "%s/.config/swapctl", home);
	assert_int_equal(util_mkdir_p(p, 0755), 0);
	strcat(p, "/swapctl.conf");
	write_file(p, "guest_cpus = 3\nbogus = 1\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "swapctl.conf:2: unknown key 'bogus'"));
	write_file(p, "guest_cpus = 3\n");
	config_defaults(&c);
	assert_int_equal(config_load(&c, NULL, err, sizeof(err)), 0);
	assert_int_equal(c.guest_cpus, 3);
}

/* The documented default file in the repository is the defaults. */
static void test_repo_default_file(void **state)
{
	struct swapctl_config def, c;
	char err[512] = "";

	(void)state;
	if (access("swapctl.conf", R_OK))
		skip();
	config_defaults(&def);
	config_defaults(&c);
	assert_int_equal(config_parse_file(&c, "swapctl.conf", err,
					   sizeof(err)), 0);
	assert_string_equal(c.tarball, def.tarball);
	assert_int_equal(c.tarball_set, def.tarball_set);
	assert_string_equal(c.kernel_line, def.kernel_line);
	assert_string_equal(c.workdir, def.workdir);
	assert_string_equal(c.series, def.series);
	assert_int_equal(c.jobs, def.jobs);
	assert_int_equal(c.ccache, def.ccache);
	assert_int_equal(c.guest_memory_mb, def.guest_memory_mb);
	assert_int_equal(c.guest_cpus, def.guest_cpus);
	assert_int_equal(c.nfs_port, def.nfs_port);
	assert_int_equal(c.parallel, def.parallel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_all_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_uri_encoding),
		cmocka_unit_test(test_load_order),
		cmocka_unit_test(test_repo_default_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
