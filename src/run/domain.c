// SPDX-License-Identifier: GPL-2.0
/*
 * Domain XML and the libvirt connection. The embedded QEMU driver needs an
 * event loop in our process: virEventRegisterDefaultImpl() before the
 * connection and a thread running virEventRunDefaultImpl().
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "domain.h"
#include "util.h"

size_t domain_xml_escape(char *buf, size_t len, const char *s)
{
	size_t off = 0, n;
	const char *rep;
	char one[2];

	if (len)
		buf[0] = '\0';
	for (; *s; s++) {
		switch (*s) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			one[0] = *s;
			one[1] = '\0';
			rep = one;
		}
		n = strlen(rep);
		if (off + n < len) {
			memcpy(buf + off, rep, n + 1);
		} else if (len) {
			/* keep whole entities only */
			buf[off < len ? off : len - 1] = '\0';
			len = 0;
		}
		off += n;
	}
	return off;
}

static void put_esc(FILE *f, const char *s)
{
	char buf[4096 * 6 + 1];

	if (domain_xml_escape(buf, sizeof(buf), s) >= sizeof(buf)) {
		/* never happens for paths, but never truncate silently */
		for (; *s; s++) {
			domain_xml_escape(buf, sizeof(buf),
					  (char[]){ *s, '\0' });
			fputs(buf, f);
		}
		return;
	}
	fputs(buf, f);
}

static void elem(FILE *f, const char *indent, const char *tag, const char *v)
{
	fprintf(f, "%s<%s>", indent, tag);
	put_esc(f, v);
	fprintf(f, "</%s>\n", tag);
}

/* The console (a file, or a pty a remote host streams) and the channel. */
static void chardevs(FILE *f, const struct domain_spec *d)
{
	if (d->console_log) {
		fprintf(f, "    <serial type='file'>\n      <source path='");
		put_esc(f, d->console_log);
		fprintf(f, "'/>\n      <target port='0'/>\n    </serial>\n");
	} else {
		/* a remote host's: read through virDomainOpenConsole */
		fprintf(f, "    <serial type='pty'>\n      <target port='0'/>\n    </serial>\n");
	}
	fprintf(f, "    <channel type='unix'>\n"
		"      <source mode='bind'");
	if (d->agent_socket) {
		fprintf(f, " path='");
		put_esc(f, d->agent_socket);
		fputc('\'', f);
	}
	fprintf(f, "/>\n      <target type='virtio' name='%s'/>\n"
		"    </channel>\n", DOMAIN_AGENT_PORT);
}

char *domain_xml(const struct domain_spec *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (d->icount && !d->kvm)
		fprintf(f, "<domain type='qemu' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>\n");
	else
		fprintf(f, "<domain type='%s'>\n", d->kvm ? "kvm" : "qemu");
	elem(f, "  ", "name", d->name);
	fprintf(f, "  <memory unit='MiB'>%u</memory>\n", d->memory_mb);
	fprintf(f, "  <vcpu>%u</vcpu>\n", d->cpus);
	fprintf(f, "  <os>\n"
		"    <type arch='x86_64' machine='q35'>hvm</type>\n");
	elem(f, "    ", "kernel", d->kernel);
	elem(f, "    ", "initrd", d->initrd);
	elem(f, "    ", "cmdline", d->cmdline);
	fprintf(f, "  </os>\n"
		"  <features><acpi/></features>\n");
	/* qemu64 runs under TCG and KVM alike (no host-only features) */
	fprintf(f, "  <cpu mode='custom' match='exact' check='none'>\n"
		"    <model fallback='allow'>qemu64</model>\n"
		"  </cpu>\n"
		"  <clock offset='utc'/>\n"
		"  <on_poweroff>destroy</on_poweroff>\n"
		"  <on_reboot>destroy</on_reboot>\n"
		"  <on_crash>destroy</on_crash>\n"
		"  <devices>\n");
	for (i = 0; i < d->ndisks; i++) {
		fprintf(f, "    <disk type='file' device='disk'>\n"
			"      <driver name='qemu' type='raw' cache='writeback'/>\n"
			"      <source file='");
		put_esc(f, d->disk[i].path);
		fprintf(f, "'/>\n      <target dev='");
		put_esc(f, d->disk[i].dev);
		fprintf(f, "' bus='virtio'/>\n    </disk>\n");
	}
	chardevs(f, d);
	if (d->host_root) {
		/*
		 * <readonly/> makes QEMU refuse every write (EROFS in the
		 * guest); multidevs='remap' keeps inode numbers unique across
		 * the host's mounts under the shared directory.
		 */
		fprintf(f, "    <filesystem type='mount' accessmode='passthrough' multidevs='remap'>\n"
			"      <driver type='path'/>\n"
			"      <source dir='");
		put_esc(f, d->host_root);
		fprintf(f, "'/>\n      <target dir='%s'/>\n"
			"      <readonly/>\n"
			"    </filesystem>\n", DOMAIN_HOSTROOT_TAG);
	}
	if (d->net)
		fprintf(f, "    <interface type='user'>\n"
			"      <model type='virtio'/>\n"
			"    </interface>\n");
	fprintf(f, "    <controller type='usb' model='none'/>\n"
		"    <memballoon model='none'/>\n"
		"  </devices>\n");
	if (d->icount && !d->kvm)
		fprintf(f, "  <qemu:commandline>\n"
			"    <qemu:arg value='-icount'/>\n"
			"    <qemu:arg value='shift=%u,sleep=off'/>\n"
			"  </qemu:commandline>\n", d->icount_shift);
	fprintf(f, "</domain>\n");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool has_flag(const char *cpuinfo, const char *flag)
{
	const char *p = cpuinfo;
	size_t n = strlen(flag);

	while ((p = strstr(p, "\nflags"))) {
		const char *eol = strchr(p + 1, '\n');
		const char *q = p + 1;

		if (!eol)
			eol = p + strlen(p);
		while ((q = strstr(q, flag)) && q < eol) {
			if (q[-1] == ' ' && (q[n] == ' ' || q[n] == '\n' ||
					     !q[n]))
				return true;
			q += n;
		}
		p = eol;
	}
	return false;
}

bool domain_pick_accel(enum accel accel, const char *cpuinfo,
		       const char *kvm_dev, char *why, size_t len, bool *warn)
{
	bool vmx = cpuinfo && (has_flag(cpuinfo, "vmx") ||
			       has_flag(cpuinfo, "svm"));
	int fd;

	*warn = false;
	if (accel == ACCEL_KVM) {
		*warn = !vmx;
		snprintf(why, len, vmx ? "accel = kvm" :
			 "accel = kvm, but /proc/cpuinfo has no vmx or svm flag: KVM guests may fail to boot here (accel = auto picks TCG on such hosts)");
		return true;
	}
	if (accel == ACCEL_TCG) {
		snprintf(why, len, "accel = tcg");
		return false;
	}
	if (!vmx) {
		snprintf(why, len,
			 "accel = auto: /proc/cpuinfo has no vmx or svm flag");
		return false;
	}
	fd = open(kvm_dev, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "accel = auto: %s: %s", kvm_dev,
			 strerror(errno));
		return false;
	}
	close(fd);
	snprintf(why, len, "accel = auto: vmx/svm flag and %s usable",
		 kvm_dev);
	return true;
}

bool domain_pick_kvm(enum accel accel, const char *cpuinfo,
		     const char *kvm_dev)
{
	char why[256];
	bool warn;

	return domain_pick_accel(accel, cpuinfo, kvm_dev, why, sizeof(why),
				 &warn);
}

bool domain_embed_root(const char *uri, char *buf, size_t len)
{
	const char *p;
	size_t n, i;

	if (strncmp(uri, "qemu:///embed?", 14))
		return false;
	p = strstr(uri + 13, "root=");
	if (!p || (p[-1] != '?' && p[-1] != '&'))
		return false;
	p += 5;
	n = strcspn(p, "&#");
	if (!n || n >= len)
		return false;
	/* percent-decoded, as libvirt decodes the query */
	for (i = 0; n; n--) {
		if (*p == '%' && n >= 3 && isxdigit((unsigned char)p[1]) &&
		    isxdigit((unsigned char)p[2])) {
			char hex[3] = { p[1], p[2], 0 };

			buf[i++] = (char)strtol(hex, NULL, 16);
			p += 3;
			n -= 2;
		} else {
			buf[i++] = *p++;
		}
	}
	buf[i] = '\0';
	return i && !memchr(buf, '\0', i);
}

char *domain_qemu_conf(bool as_root)
{
	static const char head[] =
		"# written by swapctl run: the embedded driver's settings\n";
	static const char user[] = "user = \"root\"\ngroup = \"root\"\n";
	static const char rest[] =
		"stdio_handler = \"file\"\n"
		"cgroup_controllers = [ ]\n"
		"remember_owner = 0\n";
	char *s = NULL;

	if (asprintf(&s, "%s%s%s", head, as_root ? user : "", rest) < 0)
		return NULL;
	return s;
}

/* ---- connection ---- */

/* A libvirt stream copied into a file descriptor by a thread. */
struct vm_pump {
	virStreamPtr st;
	virConnectPtr conn;	/* to see its daemon die */
	int fd;
	pthread_t t;
	bool running;
	atomic_bool stop, done;
};

struct vmconn {
	virConnectPtr conn;
	virDomainPtr dom;
	struct vm_pump pump[2];	/* a remote guest's console, its channel */
};

static pthread_once_t event_once = PTHREAD_ONCE_INIT;
static int event_ok;

static void *event_thread(void *arg)
{
	(void)arg;
	for (;;)
		if (virEventRunDefaultImpl() < 0)
			usleep(10000);
	return NULL;
}

static void quiet_errors(void *ud, virErrorPtr e)
{
	(void)ud;
	(void)e;
}

static void event_init(void)
{
	pthread_attr_t a;
	pthread_t t;

	virSetErrorFunc(NULL, quiet_errors);
	if (virEventRegisterDefaultImpl() < 0)
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (!pthread_create(&t, &a, event_thread, NULL))
		event_ok = 1;
	pthread_attr_destroy(&a);
}

static struct vmconn *conn_new(void)
{
	struct vmconn *c = calloc(1, sizeof(*c));

	if (c)
		c->pump[0].fd = c->pump[1].fd = -1;
	return c;
}

static const char *lverr(void)
{
	const char *m = virGetLastErrorMessage();

	return m ? m : "unknown libvirt error";
}

static int prepare_embed(const char *uri, char *err, size_t errlen)
{
	char root[4096], etc[4200], conf[4300];
	bool as_root = geteuid() == 0;
	char *text;
	int ret;

	if (!domain_embed_root(uri, root, sizeof(root)))
		return 0;
	if (as_root && !getpwnam("libvirt-qemu")) {
		util_seterr(err, errlen,
			"user libvirt-qemu is missing: Debian's libvirt needs it even as root ('make deps' creates it)");
		return -1;
	}
	snprintf(etc, sizeof(etc), "%s/etc", root);
	snprintf(conf, sizeof(conf), "%s/qemu.conf", etc);
	if (util_mkdir_p(etc, 0755)) {
		util_seterr(err, errlen, "%s: %s", etc, strerror(errno));
		return -1;
	}
	text = domain_qemu_conf(as_root);
	if (!text) {
		util_seterr(err, errlen, "out of memory");
		return -1;
	}
	ret = util_write_file_atomic(conf, text, strlen(text), 0644);
	free(text);
	if (ret) {
		util_seterr(err, errlen, "%s: %s", conf, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * libvirt logs warnings (such as the "high-privileges" taint of a root
 * QEMU) to stderr; send them to <root>/log/libvirt.log unless the user
 * chose otherwise.
 */
static void set_log_file(const char *uri)
{
	char root[4096], dir[4200], val[4300];

	if (getenv("LIBVIRT_LOG_OUTPUTS") ||
	    !domain_embed_root(uri, root, sizeof(root)))
		return;
	snprintf(dir, sizeof(dir), "%s/log", root);
	if (util_mkdir_p(dir, 0755))
		return;
	snprintf(val, sizeof(val), "3:file:%s/libvirt.log", dir);
	setenv("LIBVIRT_LOG_OUTPUTS", val, 1);
}

/* The path of the unix channel in a domain's XML, unescaped. */
static bool channel_path(const char *xml, char *buf, size_t len)
{
	static const char *const ent[][2] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
		{ "&apos;", "'" }, { "&quot;", "\"" },
	};
	const char *p = strstr(xml, "<source mode='bind' path='"), *q;
	size_t off = 0, i;

	if (!p)
		return false;
	p += strlen("<source mode='bind' path='");
	q = strchr(p, '\'');
	if (!q)
		return false;
	while (p < q && off + 1 < len) {
		for (i = 0; i < 5; i++)
			if (!strncmp(p, ent[i][0], strlen(ent[i][0])))
				break;
		if (i < 5) {
			buf[off++] = ent[i][1][0];
			p += strlen(ent[i][0]);
		} else {
			buf[off++] = *p++;
		}
	}
	buf[off] = '\0';
	return p == q;
}

/* Guests of a swapctl that was killed before it could destroy them. */
static void destroy_leftovers(virConnectPtr conn, vm_leftover_fn fn,
			      void *arg)
{
	virDomainPtr *doms = NULL;
	char sock[4096];
	int i, n;

	n = virConnectListAllDomains(conn, &doms,
				     VIR_CONNECT_LIST_DOMAINS_ACTIVE);
	for (i = 0; i < n; i++) {
		const char *name = virDomainGetName(doms[i]);
		char *xml;

		if (name && !strncmp(name, DOMAIN_NAME_PREFIX,
				     strlen(DOMAIN_NAME_PREFIX))) {
			fprintf(stderr,
				"swapctl run: destroying guest %s left over by an earlier run\n",
				name);
			xml = virDomainGetXMLDesc(doms[i], 0);
			virDomainDestroy(doms[i]);
			if (xml && channel_path(xml, sock, sizeof(sock))) {
				unlink(sock);
				if (fn)
					fn(sock, arg);
			}
			free(xml);
		}
		virDomainFree(doms[i]);
	}
	free(doms);
}

struct vmconn *vm_open(const char *uri, vm_leftover_fn fn, void *arg,
		       char *err, size_t errlen)
{
	struct vmconn *c;

	set_log_file(uri);	/* before libvirt initializes */
	pthread_once(&event_once, event_init);
	if (!event_ok) {
		util_seterr(err, errlen, "libvirt: cannot start the event loop");
		return NULL;
	}
	if (prepare_embed(uri, err, errlen))
		return NULL;
	c = conn_new();
	if (!c) {
		util_seterr(err, errlen, "out of memory");
		return NULL;
	}
	c->conn = virConnectOpen(uri);
	if (!c->conn) {
		util_seterr(err, errlen, "libvirt: cannot connect to %s: %s", uri,
			 lverr());
		free(c);
		return NULL;
	}
	destroy_leftovers(c->conn, fn, arg);
	return c;
}

void vm_close(struct vmconn *c)
{
	if (!c)
		return;
	vm_destroy(c);
	virConnectClose(c->conn);
	free(c);
}

struct vmconn *vm_share(struct vmconn *c)
{
	struct vmconn *s = conn_new();

	if (!s)
		return NULL;
	if (virConnectRef(c->conn) < 0) {
		free(s);
		return NULL;
	}
	s->conn = c->conn;
	return s;
}

int vm_start(struct vmconn *c, const char *xml, char *err, size_t errlen)
{
	vm_destroy(c);
	c->dom = virDomainCreateXML(c->conn, xml, 0);
	if (!c->dom) {
		util_seterr(err, errlen, "libvirt: cannot start the guest: %s",
			 lverr());
		return -1;
	}
	return 0;
}

bool vm_running(struct vmconn *c)
{
	return c->dom && virDomainIsActive(c->dom) == 1;
}

int vm_blkstats(struct vmconn *c, const char *dev, struct vm_blkstats *st)
{
	virDomainBlockStatsStruct s;

	if (!c->dom || virDomainBlockStats(c->dom, dev, &s, sizeof(s)) < 0)
		return -1;
	st->rd_req = s.rd_req;
	st->wr_req = s.wr_req;
	st->rd_bytes = s.rd_bytes;
	st->wr_bytes = s.wr_bytes;
	return 0;
}

int vm_cpustats(struct vmconn *c, struct vm_cpustats *st)
{
	virTypedParameter p[16];
	virDomainInfo info;
	bool user = false, sys = false, total = false;
	int n, i;

	memset(st, 0, sizeof(*st));
	/* a domain that has shut off reports 0 ns: not a sample */
	if (!c->dom || virDomainIsActive(c->dom) != 1)
		return -1;
	n = virDomainGetCPUStats(c->dom, p, 16, -1, 1, 0);
	for (i = 0; i < n; i++) {
		if (p[i].type != VIR_TYPED_PARAM_ULLONG)
			continue;
		if (!strcmp(p[i].field, VIR_DOMAIN_CPU_STATS_CPUTIME)) {
			st->cpu_ns = p[i].value.ul;
			total = true;
		} else if (!strcmp(p[i].field, VIR_DOMAIN_CPU_STATS_USERTIME)) {
			st->user_ns = p[i].value.ul;
			user = true;
		} else if (!strcmp(p[i].field,
				   VIR_DOMAIN_CPU_STATS_SYSTEMTIME)) {
			st->system_ns = p[i].value.ul;
			sys = true;
		}
	}
	if (n > 0)
		virTypedParamsClear(p, n);
	st->has_split = user && sys;
	if (total)
		return 0;
	if (virDomainGetInfo(c->dom, &info) < 0 ||
	    info.state == VIR_DOMAIN_SHUTOFF || !info.cpuTime)
		return -1;
	st->cpu_ns = info.cpuTime;
	return 0;
}

static void pumps_stop(struct vmconn *c, bool drain)
{
	double t0 = util_now();
	int i;

	/* a guest that powered off: its streams end by themselves */
	while (drain && util_now() - t0 < 1.0 &&
	       ((c->pump[0].running && !atomic_load(&c->pump[0].done)) ||
		(c->pump[1].running && !atomic_load(&c->pump[1].done))))
		usleep(10000);
	for (i = 0; i < 2; i++) {
		struct vm_pump *p = &c->pump[i];

		if (p->running) {
			atomic_store(&p->stop, true);
			pthread_join(p->t, NULL);
			p->running = false;
		}
		if (p->st) {
			virStreamFree(p->st);
			p->st = NULL;
		}
		if (p->fd >= 0)
			close(p->fd);
		p->fd = -1;
	}
}

void vm_destroy(struct vmconn *c)
{
	bool active;

	if (!c || !c->dom)
		return;
	active = virDomainIsActive(c->dom) == 1;
	if (active)
		virDomainDestroy(c->dom);
	pumps_stop(c, !active);
	virDomainFree(c->dom);
	c->dom = NULL;
}

/* ---- a remote host ---- */

bool vm_alive(struct vmconn *c)
{
	return c && virConnectIsAlive(c->conn) == 1;
}

unsigned long long vm_avail_kib(const char *const field[],
				const unsigned long long kib[], int n)
{
	unsigned long long sum = 0;
	bool free_seen = false;
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(field[i], "free"))
			free_seen = true;
		else if (strcmp(field[i], "buffers") &&
			 strcmp(field[i], "cached"))
			continue;
		sum += kib[i];
	}
	return free_seen ? sum : 0;
}

unsigned long long vm_free_mb(struct vmconn *c)
{
	virNodeMemoryStatsPtr st;
	const char *field[16];
	unsigned long long kib[16], avail = 0;
	int n = 0, i;

	if (!virNodeGetMemoryStats(c->conn, VIR_NODE_MEMORY_STATS_ALL_CELLS,
				   NULL, &n, 0) && n > 0 && n <= 16) {
		st = calloc((size_t)n, sizeof(*st));
		if (st && !virNodeGetMemoryStats(c->conn,
					VIR_NODE_MEMORY_STATS_ALL_CELLS,
					st, &n, 0)) {
			for (i = 0; i < n; i++) {
				field[i] = st[i].field;
				kib[i] = st[i].value;
			}
			avail = vm_avail_kib(field, kib, n);
		}
		free(st);
	}
	if (avail)
		return avail >> 10;
	return virNodeGetFreeMemory(c->conn) >> 20;
}

static virStoragePoolPtr find_pool(struct vmconn *c, char *err, size_t errlen)
{
	virStoragePoolPtr p = virStoragePoolLookupByName(c->conn, VM_POOL);

	if (!p)
		util_seterr(err, errlen,
			 "no storage pool '%s' (virsh pool-create-as %s dir --target DIR): %s",
			 VM_POOL, VM_POOL, lverr());
	return p;
}

static virStorageVolPtr vol_new(struct vmconn *c, const char *name,
				unsigned long long bytes, char *err,
				size_t errlen)
{
	char xml[1024], esc[512];
	virStoragePoolPtr p = find_pool(c, err, errlen);
	virStorageVolPtr v;

	if (!p)
		return NULL;
	v = virStorageVolLookupByName(p, name);
	if (v) {
		virStorageVolDelete(v, 0);
		virStorageVolFree(v);
	}
	domain_xml_escape(esc, sizeof(esc), name);
	snprintf(xml, sizeof(xml),
		 "<volume><name>%s</name><capacity unit='bytes'>%llu</capacity><allocation unit='bytes'>0</allocation><target><format type='raw'/></target></volume>",
		 esc, bytes);
	v = virStorageVolCreateXML(p, xml, 0);
	if (!v)
		util_seterr(err, errlen, "volume %s: %s", name, lverr());
	virStoragePoolFree(p);
	return v;
}

static int vol_path(virStorageVolPtr v, const char *name, char *path,
		    size_t pathlen, char *err, size_t errlen)
{
	char *vp = virStorageVolGetPath(v);
	int ret = 0;

	if (!vp || strlen(vp) >= pathlen) {
		util_seterr(err, errlen, "volume %s: no path: %s", name,
			 lverr());
		ret = -1;
	} else {
		snprintf(path, pathlen, "%s", vp);
	}
	free(vp);
	virStorageVolFree(v);
	return ret;
}

int vm_vol_create(struct vmconn *c, const char *name, unsigned long long bytes,
		  char *path, size_t pathlen, char *err, size_t errlen)
{
	virStorageVolPtr v = vol_new(c, name, bytes, err, errlen);

	return v ? vol_path(v, name, path, pathlen, err, errlen) : -1;
}

static int read_file_cb(virStreamPtr st, char *data, size_t n, void *op)
{
	(void)st;
	return (int)read(*(int *)op, data, n);
}

int vm_vol_upload(struct vmconn *c, const char *file, const char *name,
		  char *path, size_t pathlen, char *err, size_t errlen)
{
	virStorageVolPtr v = NULL;
	virStreamPtr st = NULL;
	struct stat sb;
	int fd, ret = -1;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb)) {
		util_seterr(err, errlen, "%s: %s", file, strerror(errno));
		goto out;
	}
	v = vol_new(c, name, (unsigned long long)sb.st_size, err, errlen);
	if (!v)
		goto out;
	st = virStreamNew(c->conn, 0);
	if (!st || virStorageVolUpload(v, st, 0, (unsigned long long)sb.st_size,
				       0) < 0 ||
	    virStreamSendAll(st, read_file_cb, &fd) < 0 ||
	    virStreamFinish(st) < 0) {
		util_seterr(err, errlen, "uploading %s as volume %s: %s", file,
			 name, lverr());
		if (st)
			virStreamAbort(st);
		virStorageVolDelete(v, 0);
		virStorageVolFree(v);
		goto out;
	}
	ret = vol_path(v, name, path, pathlen, err, errlen);
out:
	if (st)
		virStreamFree(st);
	if (fd >= 0)
		close(fd);
	return ret;
}

void vm_vol_delete(struct vmconn *c, const char *name)
{
	virStoragePoolPtr p = virStoragePoolLookupByName(c->conn, VM_POOL);
	virStorageVolPtr v = p ? virStorageVolLookupByName(p, name) : NULL;

	if (v) {
		virStorageVolDelete(v, 0);
		virStorageVolFree(v);
	}
	if (p)
		virStoragePoolFree(p);
}

static int write_all(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *pump_thread(void *arg)
{
	struct vm_pump *p = arg;
	char buf[16384];
	int n = -1;

	while (!atomic_load(&p->stop)) {
		n = virStreamRecv(p->st, buf, sizeof(buf));
		if (n == -2) {
			if (virConnectIsAlive(p->conn) != 1)
				break;
			usleep(20000);
			continue;
		}
		if (n <= 0 || write_all(p->fd, buf, (size_t)n))
			break;
	}
	if (n == 0)
		virStreamFinish(p->st);
	else
		virStreamAbort(p->st);
	/* the reader of the agent channel sees the end as from QEMU */
	close(p->fd);
	p->fd = -1;
	atomic_store(&p->done, true);
	return NULL;
}

static int pump_start(struct vmconn *c, int i, int fd)
{
	struct vm_pump *p = &c->pump[i];

	p->fd = fd;
	p->conn = c->conn;
	atomic_store(&p->stop, false);
	atomic_store(&p->done, false);
	if (pthread_create(&p->t, NULL, pump_thread, p)) {
		p->fd = -1;
		return -1;
	}
	p->running = true;
	return 0;
}

static int open_streams(struct vmconn *c, const char *console_log,
			int *agent_fd, char *err, size_t errlen)
{
	int sv[2], cfd;

	cfd = open(console_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (cfd < 0) {
		util_seterr(err, errlen, "%s: %s", console_log, strerror(errno));
		return -1;
	}
	c->pump[0].st = virStreamNew(c->conn, VIR_STREAM_NONBLOCK);
	if (!c->pump[0].st ||
	    virDomainOpenConsole(c->dom, NULL, c->pump[0].st, 0) < 0 ||
	    pump_start(c, 0, cfd)) {
		util_seterr(err, errlen, "libvirt: cannot open the console: %s",
			 lverr());
		close(cfd);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		util_seterr(err, errlen, "socketpair: %s", strerror(errno));
		return -1;
	}
	c->pump[1].st = virStreamNew(c->conn, VIR_STREAM_NONBLOCK);
	if (!c->pump[1].st ||
	    virDomainOpenChannel(c->dom, DOMAIN_AGENT_PORT, c->pump[1].st,
				 0) < 0 ||
	    pump_start(c, 1, sv[1])) {
		util_seterr(err, errlen, "libvirt: cannot open channel %s: %s",
			 DOMAIN_AGENT_PORT, lverr());
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	*agent_fd = sv[0];
	return 0;
}

int vm_start_remote(struct vmconn *c, const char *xml, const char *console_log,
		    int *agent_fd, char *err, size_t errlen)
{
	vm_destroy(c);
	c->dom = virDomainCreateXML(c->conn, xml, VIR_DOMAIN_START_PAUSED);
	if (!c->dom) {
		util_seterr(err, errlen, "libvirt: cannot start the guest: %s",
			 lverr());
		return -1;
	}
	if (open_streams(c, console_log, agent_fd, err, errlen))
		goto fail;
	if (virDomainResume(c->dom) < 0) {
		util_seterr(err, errlen, "libvirt: cannot resume the guest: %s",
			 lverr());
		close(*agent_fd);
		goto fail;
	}
	return 0;
fail:
	vm_destroy(c);
	return -1;
}
