// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the domain XML (escaping, devices), the accelerator
 * choice, the embedded driver's settings and the ganesha configuration.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "domain.h"
#include "ganesha.h"

static void test_escape(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(domain_xml_escape(buf, sizeof(buf), "a&b<c>'\"d"),
			 strlen("a&amp;b&lt;c&gt;&apos;&quot;d"));
	assert_string_equal(buf, "a&amp;b&lt;c&gt;&apos;&quot;d");
	assert_int_equal(domain_xml_escape(buf, sizeof(buf), ""), 0);
	assert_string_equal(buf, "");
	/* too small: the length needed, and never half an entity */
	assert_int_equal(domain_xml_escape(buf, 6, "ab&cd"), 9);
	assert_string_equal(buf, "ab");
	assert_int_equal(domain_xml_escape(buf, 3, "abc"), 3);
	assert_string_equal(buf, "ab");
}

static struct domain_spec spec(void)
{
	struct domain_spec d = {
		.name = "swapctl-x<y>-baseline-1",
		.memory_mb = 256,
		.cpus = 2,
		.kernel = "/k/bz'Image",
		.initrd = "/r/a&b/initrd",
		.cmdline = "console=ttyS0 panic=-1",
		.console_log = "/r/\"q\"/console.log",
		.agent_socket = "/r/agent.sock",
	};
	return d;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_xml(void **state)
{
	struct domain_spec d = spec();
	char *xml;

	(void)state;
	d.disk[0].path = "/r/disk-vda.img";
	d.disk[0].dev = "vda";
	d.disk[1].path = "/r/disk <2>.img";
	d.disk[1].dev = "vdb";
	d.ndisks = 2;
	xml = domain_xml(&d);
	assert_non_null(xml);
	assert_non_null(strstr(xml, "<domain type='qemu'>"));
	assert_non_null(strstr(xml, "<name>swapctl-x&lt;y&gt;-baseline-1</name>"));
	assert_non_null(strstr(xml, "<memory unit='MiB'>256</memory>"));
	assert_non_null(strstr(xml, "<vcpu>2</vcpu>"));
	assert_non_null(strstr(xml, "<kernel>/k/bz&apos;Image</kernel>"));
	assert_non_null(strstr(xml, "<initrd>/r/a&amp;b/initrd</initrd>"));
	assert_non_null(strstr(xml, "<cmdline>console=ttyS0 panic=-1</cmdline>"));
	assert_non_null(strstr(xml, "<source path='/r/&quot;q&quot;/console.log'/>"));
	assert_non_null(strstr(xml, "<source file='/r/disk-vda.img'/>"));
	assert_non_null(strstr(xml, "<source file='/r/disk &lt;2&gt;.img'/>"));
	assert_non_null(strstr(xml, "<target dev='vdb' bus='virtio'/>"));
	assert_non_null(strstr(xml, "<source mode='bind' path='/r/agent.sock'/>"));
	assert_non_null(strstr(xml, "name='" DOMAIN_AGENT_PORT "'"));
	assert_non_null(strstr(xml, "<on_poweroff>destroy</on_poweroff>"));
	assert_non_null(strstr(xml, "<on_reboot>destroy</on_reboot>"));
	assert_non_null(strstr(xml, "<acpi/>"));
	assert_non_null(strstr(xml, "qemu64"));
	assert_null(strstr(xml, "<interface"));
	assert_int_equal(count(xml, "<disk "), 2);
	/* balanced: every element opened is closed */
	assert_int_equal(count(xml, "<devices>"), count(xml, "</devices>"));
	assert_int_equal(count(xml, "<disk "), count(xml, "</disk>"));
	/* no raw quote left inside a single-quoted attribute */
	assert_null(strstr(xml, "bz'Image"));
	free(xml);

	d = spec();
	d.kvm = true;
	d.net = true;
	xml = domain_xml(&d);
	assert_non_null(xml);
	assert_non_null(strstr(xml, "<domain type='kvm'>"));
	assert_non_null(strstr(xml, "<interface type='user'>"));
	assert_non_null(strstr(xml, "<model type='virtio'/>"));
	assert_null(strstr(xml, "<disk"));
	assert_null(strstr(xml, "<filesystem"));
	free(xml);
}

/* The host's root: 9p, read-only, inode numbers remapped, escaped path. */
static void test_xml_host_root(void **state)
{
	struct domain_spec d = spec();
	const char *fs, *end;
	char *xml;

	(void)state;
	d.host_root = "/h&'r";
	xml = domain_xml(&d);
	assert_non_null(xml);
	fs = strstr(xml, "<filesystem type='mount' accessmode='passthrough' multidevs='remap'>");
	assert_non_null(fs);
	end = strstr(fs, "</filesystem>");
	assert_non_null(end);
	assert_int_equal(count(xml, "<filesystem "), 1);
	assert_int_equal(count(xml, "</filesystem>"), 1);
	/* every child inside this one element */
	assert_true(strstr(fs, "<readonly/>") && strstr(fs, "<readonly/>") < end);
	assert_true(strstr(fs, "<source dir='/h&amp;&apos;r'/>") &&
		    strstr(fs, "<source dir='/h&amp;&apos;r'/>") < end);
	assert_true(strstr(fs, "<target dir='" DOMAIN_HOSTROOT_TAG "'/>") &&
		    strstr(fs, "<target dir='" DOMAIN_HOSTROOT_TAG "'/>") < end);
	assert_true(strstr(fs, "<driver type='path'/>") &&
		    strstr(fs, "<driver type='path'/>") < end);
	/* never virtiofs: it cannot be read-only */
	assert_null(strstr(xml, "virtiofs"));
	/* inside <devices> */
	assert_true(strstr(xml, "<devices>") < fs &&
		    end < strstr(xml, "</devices>"));
	free(xml);
}

static void test_pick_kvm(void **state)
{
	static const char vmx[] =
		"processor\t: 0\nflags\t\t: fpu vme vmx sse\nbugs\t\t:\n";
	static const char svm[] = "processor\t: 0\nflags\t\t: fpu svm\n";
	static const char none[] =
		"processor\t: 0\nflags\t\t: fpu vmxnet hypervisor\n"
		"vmx flags\t: ept\n";

	(void)state;
	assert_true(domain_pick_kvm(ACCEL_KVM, NULL, "/nonexistent"));
	assert_false(domain_pick_kvm(ACCEL_TCG, vmx, "/dev/null"));
	assert_true(domain_pick_kvm(ACCEL_AUTO, vmx, "/dev/null"));
	assert_true(domain_pick_kvm(ACCEL_AUTO, svm, "/dev/null"));
	/* the flag must be a whole word of a "flags" line */
	assert_false(domain_pick_kvm(ACCEL_AUTO, none, "/dev/null"));
	/* the flag alone is not enough: the device must open */
	assert_false(domain_pick_kvm(ACCEL_AUTO, vmx, "/nonexistent/kvm"));
	assert_false(domain_pick_kvm(ACCEL_AUTO, NULL, "/dev/null"));
}

static void test_embed_root(void **state)
{
	char buf[64];

	(void)state;
	assert_true(domain_embed_root("qemu:///embed?root=/w/libvirt", buf,
				      sizeof(buf)));
	assert_string_equal(buf, "/w/libvirt");
	assert_true(domain_embed_root("qemu:///embed?x=1&root=/a&y=2", buf,
				      sizeof(buf)));
	assert_string_equal(buf, "/a");
	assert_false(domain_embed_root("qemu:///system", buf, sizeof(buf)));
	assert_false(domain_embed_root("qemu:///embed?root=", buf,
				       sizeof(buf)));
	assert_false(domain_embed_root("qemu:///embed?noroot=/x", buf,
				       sizeof(buf)));
	assert_false(domain_embed_root("qemu:///embed?root=/a/very/long/path",
				       buf, 8));
}

static void test_qemu_conf(void **state)
{
	char *c;

	(void)state;
	c = domain_qemu_conf(true);
	assert_non_null(strstr(c, "user = \"root\"\n"));
	assert_non_null(strstr(c, "group = \"root\"\n"));
	assert_non_null(strstr(c, "stdio_handler = \"file\"\n"));
	assert_non_null(strstr(c, "cgroup_controllers = [ ]\n"));
	free(c);
	c = domain_qemu_conf(false);
	assert_null(strstr(c, "user ="));
	assert_non_null(strstr(c, "stdio_handler = \"file\"\n"));
	free(c);
}

static void test_ganesha_conf(void **state)
{
	char *c = ganesha_config("/r/nfs/export", "/r/nfs/recovery", 20490);

	(void)state;
	assert_non_null(c);
	assert_non_null(strstr(c, "Bind_addr = 127.0.0.1;"));
	assert_non_null(strstr(c, "NFS_Port = 20490;"));
	assert_non_null(strstr(c, "Protocols = 4;"));
	assert_non_null(strstr(c, "Enable_UDP = false;"));
	assert_non_null(strstr(c, "RecoveryRoot = \"/r/nfs/recovery\";"));
	assert_non_null(strstr(c, "Path = \"/r/nfs/export\";"));
	assert_non_null(strstr(c, "Pseudo = /export;"));
	assert_non_null(strstr(c, "Squash = No_Root_Squash;"));
	assert_non_null(strstr(c, "Name = VFS;"));
	assert_null(strstr(c, "0.0.0.0"));
	free(c);
}

/*
 * A remote host is sized by what it can give guests: its page cache
 * counts (the CI host had 24 GiB, mostly clean cache, and MemFree alone
 * gave it room for one guest where two were asked).
 */
static void test_avail_kib(void **state)
{
	const char *f[] = { "total", "free", "buffers", "cached" };
	const unsigned long long k[] = { 24000000, 300000, 100000, 20000000 };
	const char *nofree[] = { "total", "cached" };

	(void)state;
	assert_true(vm_avail_kib(f, k, 4) == 20400000ULL);
	assert_true(vm_avail_kib(f, k, 2) == 300000ULL);
	assert_true(vm_avail_kib(nofree, k, 2) == 0ULL);
	assert_true(vm_avail_kib(f, k, 0) == 0ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_xml),
		cmocka_unit_test(test_xml_host_root),
		cmocka_unit_test(test_pick_kvm),
		cmocka_unit_test(test_embed_root),
		cmocka_unit_test(test_qemu_conf),
		cmocka_unit_test(test_ganesha_conf),
		cmocka_unit_test(test_avail_kib),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
