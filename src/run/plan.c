// SPDX-License-Identifier: GPL-2.0
/* Scenario -> plan text, and the per-guest initrd that carries it. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "domain.h"
#include "ganesha.h"
#include "plan.h"
#include "util.h"
#include "guest/gplan.h"

/* @nth_nfs: how many nfsfile backends come before @sw */
static void swap_line(FILE *f, const struct scn_swap *sw,
		      unsigned int nfs_port, int nth_nfs)
{
	fprintf(f, "swap type=%s", plan_backend_name(sw->type));
	switch (sw->type) {
	case SWAP_BLK:
		fprintf(f, " dev=/dev/%s", sw->dev);
		if (sw->nonrot)
			fprintf(f, " nonrot=1");
		break;
	case SWAP_ZRAM:
		fprintf(f, " size_mb=%u", sw->size_mb);
		if (sw->comp[0])
			fprintf(f, " comp=%s", sw->comp);
		if (sw->mem_limit_mb)
			fprintf(f, " mem_limit_mb=%u", sw->mem_limit_mb);
		break;
	case SWAP_EXT4FILE:
		fprintf(f, " dev=/dev/%s size_mb=%u", sw->dev, sw->size_mb);
		break;
	case SWAP_BRD:
		/* its size is the boot's brd.rd_size (scn_brd_args) */
		fprintf(f, " dev=" PLAN_BRD_DEV " size_mb=%u", sw->size_mb);
		break;
	case SWAP_NFSFILE:
		fprintf(f, " server=10.0.2.2 port=%u export=/export vers=%s size_mb=%u file=" GANESHA_SWAPFILE_FMT,
			nfs_port, sw->vers, sw->size_mb, nth_nfs);
		break;
	}
	if (sw->prio >= 0)
		fprintf(f, " prio=%d", sw->prio);
	fputc('\n', f);
}

static void phase_line(FILE *f, const struct scn_phase *ph)
{
	fprintf(f, "phase %s", plan_phase_name(ph->kind));
	switch (ph->kind) {
	case PHASE_PRESSURE:
		fprintf(f, " mb=%u", ph->mb);
		break;
	case PHASE_READ:
		fprintf(f, " order=%s", ph->random ? "random" : "seq");
		break;
	case PHASE_REWRITE:
		fprintf(f, " frac=%g", ph->frac);
		break;
	case PHASE_PAGEOUT:
		if (ph->wait_writeback)
			fputs(" wait=writeback", f);
		if (ph->drain_lru)
			fputs(" drain=lru", f);
		break;
	default:
		break;
	}
	fputc('\n', f);
}

/* slab_error: probability=P [times=N] [interval=N] tasks= atomic_only= [caches=A,B] */
static void slab_words(FILE *f, const struct scn_fault *ft)
{
	int i;

	fprintf(f, " probability=%u", ft->probability);
	if (ft->times)
		fprintf(f, " times=%llu", ft->times);
	if (ft->interval)
		fprintf(f, " interval=%llu", ft->interval);
	fprintf(f, " tasks=%s atomic_only=%d", plan_slab_tasks_name(ft->tasks),
		ft->atomic_only);
	for (i = 0; i < ft->ncaches; i++)
		fprintf(f, "%s%s", i ? "," : " caches=", ft->caches[i]);
}

/* A guest fault (guest/gplan.c parse_fault); host faults are not sent. */
static void fault_line(FILE *f, int idx, const struct scn_fault *ft)
{
	fprintf(f, "fault index=%d kind=%s", idx, plan_fault_name(ft->kind));
	if (ft->swap >= 0)
		fprintf(f, " swap=%d", ft->swap);
	/* the scenario's after_s is the plan's after_ms */
	fprintf(f, " %s=%.0f", plan_trigger_key(ft->trig),
		ft->trig == TRIG_AFTER_TIME ? ft->at * 1000 : ft->at);
	if (ft->duration_s > 0)
		fprintf(f, " duration_ms=%.0f", ft->duration_s * 1000);
	if (ft->until_phase >= 0)
		fprintf(f, " until_phase=%d", ft->until_phase);
	if (ft->kind == FAULT_IO_ERROR) {
		fprintf(f, " op=%s", plan_fault_op_name(ft->op));
		if (ft->op == FOP_READ)
			fprintf(f, " slots=%llu+%llu", ft->slot, ft->nslots);
		if (ft->probability)
			fprintf(f, " probability=%u", ft->probability);
		if (ft->times)
			fprintf(f, " times=%llu", ft->times);
		if (ft->interval)
			fprintf(f, " interval=%llu", ft->interval);
	}
	if (ft->kind == FAULT_SWAP_CHURN)
		fprintf(f, " period_ms=%u", ft->period_ms);
	if (ft->kind == FAULT_SLAB_ERROR)
		slab_words(f, ft);
	fputc('\n', f);
}

size_t plan_escape(char *buf, size_t len, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t off = 0;

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		char one[4];
		size_t n = 1;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || strchr("._,/:+@=-", ch)) {
			one[0] = (char)ch;
		} else {
			one[0] = '%';
			one[1] = hex[ch >> 4];
			one[2] = hex[ch & 15];
			n = 3;
		}
		if (off + n < len)
			memcpy(buf + off, one, n);
		off += n;
	}
	if (len)
		buf[off < len ? off : len - 1] = '\0';
	return off;
}

/*
 * @in with @KBUILD_SRC@ and @KBUILD_OUT@ replaced, into @out; a token
 * stays as it is while its path is unknown (validate, before the tree is
 * prepared).
 */
static void substitute(const struct scenario *s, const char *in, char *out,
		       size_t len)
{
	static const char src_tok[] = "@KBUILD_SRC@", out_tok[] = "@KBUILD_OUT@";
	size_t off = 0;

	while (*in && off + 1 < len) {
		const char *rep = NULL;
		size_t skip = 0;

		if (!strncmp(in, src_tok, sizeof(src_tok) - 1)) {
			rep = s->kbuild_src;
			skip = sizeof(src_tok) - 1;
		} else if (!strncmp(in, out_tok, sizeof(out_tok) - 1)) {
			rep = s->kbuild_out;
			skip = sizeof(out_tok) - 1;
		}
		if (rep && *rep) {
			off += snprintf(out + off, len - off, "%s", rep);
			if (off >= len)
				off = len - 1;
			in += skip;
		} else {
			out[off++] = *in++;
		}
	}
	out[off] = '\0';
}

static void word(FILE *f, const struct scenario *s, const char *prefix,
		 const char *v)
{
	char sub[8192], esc[3 * 8192 + 1];

	substitute(s, v, sub, sizeof(sub));
	plan_escape(esc, sizeof(esc), sub);
	fprintf(f, "%s%s", prefix, esc);
}

static void command_lines(FILE *f, const struct scenario *s)
{
	const struct scn_group *g;
	int i, k;

	fprintf(f, "hostroot tag=%s\n", DOMAIN_HOSTROOT_TAG);
	fprintf(f, "command reference=%d\n", s->reference);
	for (i = 0; i < s->ngroups; i++) {
		g = &s->group[i];
		fprintf(f, "group name=%s", g->name);
		if (g->memory_max_mb)
			fprintf(f, " memory_max_mb=%u", g->memory_max_mb);
		if (g->memory_high_mb)
			fprintf(f, " memory_high_mb=%u", g->memory_high_mb);
		if (g->has_swap_max)
			fprintf(f, " swap_max_mb=%u", g->swap_max_mb);
		if (g->cpus)
			fprintf(f, " cpus=%u", g->cpus);
		if (g->cpu_max_pct)
			fprintf(f, " cpu_max_pct=%u", g->cpu_max_pct);
		if (g->cpu_max_period_ms)
			fprintf(f, " cpu_max_period_ms=%u",
				g->cpu_max_period_ms);
		for (k = 0; k < PLAN_IO_LIMITS; k++)
			if (g->io_max[k])
				fprintf(f, " io_%s=%llu", plan_io_limit_name(k),
					g->io_max[k]);
		if (g->cwd[0])
			word(f, s, " cwd=", g->cwd);
		fputc('\n', f);
		for (k = 0; k < g->nargs; k++) {
			word(f, s, "arg ", g->args[k]);
			fputc('\n', f);
		}
		for (k = 0; k < g->nenv; k++) {
			word(f, s, "env ", g->env[k]);
			fputc('\n', f);
		}
		for (k = 0; k < g->nout; k++) {
			word(f, s, "output ", g->out[k]);
			fputc('\n', f);
		}
	}
}

char *plan_text(const struct scenario *s, unsigned int memory_mb,
		unsigned int nfs_port)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i, n;

	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fprintf(f, "# swapctl plan for scenario %s\n", s->name);
	fprintf(f, "version 1\n");
	fprintf(f, "interval_ms %u\n", s->interval_ms);
	fprintf(f, "timeout_s %u\n", s->timeout_s);
	for (i = 0; i < s->nsysctl; i++)
		fprintf(f, "sysctl %s=%s\n", s->sysctl[i].key,
			s->sysctl[i].value);
	if (s->thp_enabled[0] || s->thp_defrag[0]) {
		fprintf(f, "thp");
		if (s->thp_enabled[0])
			fprintf(f, " enabled=%s", s->thp_enabled);
		if (s->thp_defrag[0])
			fprintf(f, " defrag=%s", s->thp_defrag);
		fputc('\n', f);
	}
	for (i = 0; i < s->nmthp; i++)
		fprintf(f, "mthp size_kb=%u enabled=%s\n", s->mthp[i].size_kb,
			s->mthp[i].enabled);
	if (s->zswap_enabled >= 0 || s->zswap_compressor[0] ||
	    s->zswap_max_pool_percent || s->zswap_accept_percent) {
		fprintf(f, "zswap");
		if (s->zswap_enabled >= 0)
			fprintf(f, " enabled=%d", s->zswap_enabled);
		if (s->zswap_compressor[0])
			fprintf(f, " compressor=%s", s->zswap_compressor);
		if (s->zswap_max_pool_percent)
			fprintf(f, " max_pool_percent=%u",
				s->zswap_max_pool_percent);
		if (s->zswap_accept_percent)
			fprintf(f, " accept_threshold_percent=%u",
				s->zswap_accept_percent);
		fputc('\n', f);
	}
	for (i = 0, n = 0; i < s->nswap; i++)
		swap_line(f, &s->swap[i], nfs_port,
			  s->swap[i].type == SWAP_NFSFILE ? n++ : 0);
	if (scn_has_nfs(s))
		fprintf(f, "net addr=10.0.2.15/24 gw=10.0.2.2\n");
	if (s->command) {
		command_lines(f, s);
		goto out;
	}
	fprintf(f, "workload seed=%llu size_mb=%u shmem_mb=%u thp=%d",
		(unsigned long long)s->seed, scenario_size_mb(s, memory_mb),
		s->shmem_mb, s->wl_thp);
	if (s->unique_words)
		fprintf(f, " unique_words=%u", s->unique_words);
	fputc('\n', f);
	for (i = 0; i < s->nphases; i++)
		phase_line(f, &s->phase[i]);
	if (s->has_verify_seed)
		fprintf(f, "verify_seed %llu\n",
			(unsigned long long)s->verify_seed);
	for (i = 0; i < s->nfaults; i++)
		if (!plan_fault_on_host(s->fault[i].kind))
			fault_line(f, i, &s->fault[i]);
out:
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int copy_fd(int in, FILE *out)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, n, out) != (size_t)n)
			return -1;
	return n < 0 ? -1 : 0;
}

int plan_make_initrd(const char *base, const char *plan, const char *out,
		     char *err, size_t errlen)
{
	char tmp[4096];
	struct cpio c;
	FILE *f;
	int in, fd;

	in = open(base, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		util_seterr(err, errlen, "%s: %s (run 'swapctl build' first)",
			 base, strerror(errno));
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	/* never through what is there: a stale file or a planted link */
	if (unlink(tmp) && errno != ENOENT) {
		util_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		close(in);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		util_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		close(in);
		return -1;
	}
	if (copy_fd(in, f)) {
		util_seterr(err, errlen, "%s: copy from %s failed: %s", tmp,
			 base, strerror(errno));
		goto fail;
	}
	close(in);
	in = -1;
	/*
	 * The kernel looks for the next archive at 4-byte boundaries and
	 * skips zeros between archives: pad in case the copy is unaligned.
	 */
	while (ftell(f) % 4)
		fputc(0, f);
	cpio_init(&c, f);
	if (cpio_dir(&c, "swapctl", 0755) ||
	    cpio_data(&c, "swapctl/plan", 0644, plan, strlen(plan)) ||
	    cpio_finish(&c)) {
		util_seterr(err, errlen, "%s: writing the plan archive failed",
			 tmp);
		goto fail;
	}
	if (fflush(f) || fsync(fileno(f)) || ferror(f)) {
		util_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	fclose(f);
	if (rename(tmp, out)) {
		util_seterr(err, errlen, "%s: %s", out, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
fail:
	if (in >= 0)
		close(in);
	fclose(f);
	unlink(tmp);
	return -1;
}

int plan_check(const char *file, const char *plan, char *err, size_t errlen)
{
	char gerr[GPLAN_ERR_LEN];
	struct gplan *g;
	int ret;

	g = malloc(sizeof(*g));
	if (!g) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	ret = gplan_parse(plan, g, gerr, sizeof(gerr));
	if (ret)
		snprintf(err, errlen, "%s: the guest would refuse the plan: %s",
			 file, gerr);
	free(g);
	return ret ? -1 : 0;
}
