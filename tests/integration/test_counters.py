# SPDX-License-Identifier: GPL-2.0
"""The counters swap cover letters cite, as registry metrics (issue 35):
reclaim (pgscan/pgsteal, anon refaults, allocstall), zram's mm_stat, the
kernel log's allocation failures and hung tasks, the per-size mTHP stats
of 6.12, and the host record of each run (host.json). make check reads
the zram-swap-quick run it shares with test_run.py (runs.get); 6.12's
mTHP run is make check-full's."""
import json
import os

import pytest

from harness import EXIT_OK, quick

LINES = {"6.1", "6.12"}


def test_metrics_say_their_lines(sw):
    ms = {m["key"]: m for m in sw.expect(EXIT_OK, "metrics",
                                         "--json").json()}
    for m in ms.values():
        assert m["lines"] is None or set(m["lines"].split()) <= LINES, m
    for k in ("workingset_refault_anon", "pgscan_kswapd", "pgscan_direct",
              "pgsteal_kswapd", "pgsteal_direct", "pgscan_anon",
              "pgsteal_anon", "allocstall", "thp_swpout",
              "thp_swpout_fallback", "cg_pgscan", "cg_pgsteal",
              "cg_workingset_refault_anon", "cg_zswpout"):
        assert ms[k]["lines"] == "6.1 6.12", ms[k]
    for k in ("mthp_swpout", "mthp_swpout_fallback", "mthp_64kb_swpout",
              "mthp_64kb_swpout_fallback"):
        assert ms[k]["lines"] == "6.12", ms[k]
    for k in ("zram_compr_peak_mib", "zram_mem_used_peak_mib",
              "zram_huge_pages_peak", "kernel_alloc_failures",
              "kernel_hung_tasks", "command_user_seconds",
              "command_system_seconds", "command_real_seconds"):
        assert k in ms, k
    text = sw.expect(EXIT_OK, "metrics", "mthp_swpout").out
    assert "lines 6.12" in text and "hugepages-<K>kB/stats/swpout" in text


def test_report_shows_host_warning(sw, demo_run):
    """host.json's warning reaches report's text, text-email and JSON,
    without its control bytes, bounded; a run without one says nothing."""
    for fmt in ([], ["--format=text-email"], ["--json"]):
        out = sw.expect(EXIT_OK, "report", *fmt, str(demo_run)).out
        assert "host:" not in out.lower() or fmt == ["--json"], out
    (demo_run / "host.json").write_text(json.dumps(
        {"before": {}, "after": None,
         "warning": "host KSM running\u001b[31m\u007f" + " x" * 2500}))
    text = sw.expect(EXIT_OK, "report", str(demo_run)).out
    line = [x for x in text.splitlines() if x.startswith("host: ")]
    assert len(line) == 1 and "host KSM running?[31m?" in line[0], text
    assert len(line[0]) < 1100
    mail = sw.expect(EXIT_OK, "report", "--format=text-email",
                     str(demo_run)).out
    assert "Host: host KSM running?[31m?" in mail
    assert "\x1b" not in mail and "\x7f" not in mail
    js = sw.expect(EXIT_OK, "report", "--json", str(demo_run)).json()
    assert js["host_warning"].startswith("host KSM running?[31m?")


def check_guest(m, kernel):
    """What must hold of one zram-swap guest: a list of what does not."""
    errs = []

    def need(cond, what):
        if not cond:
            errs.append("%s: %s" % (kernel, what))
    for k in ("pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
              "pgsteal_direct", "pgscan_anon", "pgsteal_anon",
              "workingset_refault_anon", "allocstall",
              "zram_compr_peak_mib", "zram_mem_used_peak_mib",
              "zram_huge_pages_peak"):
        need(isinstance(m.get(k), (int, float)), "%s is %r" % (k, m.get(k)))
    if errs:
        return errs
    # reclaim steals no more than it scans
    need(m["pgsteal_anon"] <= m["pgscan_anon"], "pgsteal_anon > pgscan_anon")
    need(m["pgsteal_kswapd"] + m["pgsteal_direct"] <=
         m["pgscan_kswapd"] + m["pgscan_direct"], "stolen > scanned")
    # the pressure phase's direct reclaim writes anon pages to zram; the
    # pageout phases' MADV_PAGEOUT (reclaim_pages()) count neither pgscan
    # nor pgsteal, so pgsteal is far below pswpout here, not above it
    need(0 < m["pgsteal_anon"] <= m["pswpout"],
         "pgsteal_anon %r not in (0, pswpout %r]" % (m["pgsteal_anon"],
                                                     m["pswpout"]))
    need(m["pgscan_direct"] > 0 and m["allocstall"] > 0,
         "no direct reclaim under the pressure phase")
    # every page read back was swapped out moments before: a refault
    need(0 < m["workingset_refault_anon"] <= m["pswpin"],
         "refaults %r not in (0, pswpin %r]"
         % (m["workingset_refault_anon"], m["pswpin"]))
    # zram held the workload's area (160 MiB; 48 in make check's quick
    # run), compressed (64 words per page) and in
    # zsmalloc's pages
    need(0 < m["zram_compr_peak_mib"] < 160, "compr peak %r MiB"
         % m["zram_compr_peak_mib"])
    need(m["zram_mem_used_peak_mib"] >= 0.9 * m["zram_compr_peak_mib"],
         "zram memory used below its compressed data")
    need(m["zram_huge_pages_peak"] >= 0, "huge pages")
    need(m["kernel_alloc_failures"] == 0 and m["kernel_hung_tasks"] == 0,
         "alloc failures %r, hung tasks %r" % (m["kernel_alloc_failures"],
                                               m["kernel_hung_tasks"]))
    # 6.1 has no per-size mTHP: n/a (null), never 0
    for k in ("mthp_swpout", "mthp_64kb_swpout"):
        need(m[k] is None, "%s is %r on 6.1" % (k, m[k]))
    need(m["command_user_seconds"] is None, "not a command workload")
    return errs


@pytest.mark.boot
@pytest.mark.slow
def test_counters_zram_swap(sw, runs):
    run = runs.get(quick("zram-swap"))
    assert run.json is not None and run.dir is not None, repr(run)
    errs = []
    for g in run.json["results"]:
        errs += check_guest(g["metrics"], g["kernel"])
    assert not errs, errs
    # the host record, before and after
    host = json.loads((run.dir / "host.json").read_text())
    for when in ("before", "after"):
        h = host[when]
        assert h["cpus"] == os.cpu_count(), h
        assert h["load1"] is not None and h["load1"] >= 0, h
        assert h["ksm_run"] in (0, 1, 2, None), h
    assert host["warning"] is None or "\n" not in host["warning"]
    rep = sw.expect(EXIT_OK, "report", "--format=text-email",
                    str(run.dir)).out
    for label in ("anon refaults", "pages scanned direct",
                  "direct reclaim stalls", "zram compressed peak"):
        assert label in rep, label
    if host["warning"]:
        assert "Host: " in rep
        assert "host: %s" % host["warning"] in sw.expect(
            EXIT_OK, "report", str(run.dir)).out


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_counters_mthp_612(sw, guests, runs):
    """6.12's per-size mTHP stats: every 64 kB folio swapped out whole is
    one swpout of hugepages-64kB (16 pages per write I/O)."""
    kdir = sw.workdir / "kernels"
    src = getattr(sw, "borrowed", None)
    for v in ("baseline@6.12", "%s@6.12" % sw.series):
        if not (kdir / v / "bzImage").is_file() and src and \
                (src / v / "bzImage").is_file():
            (kdir / v).symlink_to(src / v)
        if not (kdir / v / "bzImage").is_file():
            pytest.skip("%s is not built (swapctl build --line 6.12)" % v)
    run = runs.get("mthp-swap", "--kernels", "baseline,patched")
    assert run.rc == EXIT_OK and run.json is not None, repr(run)
    for g in run.json["results"]:
        m = g["metrics"]
        assert m["mthp_64kb_swpout"] > 0, (g["kernel"], m)
        assert m["mthp_swpout"] >= m["mthp_64kb_swpout"]
        assert m["mthp_64kb_swpout"] * 16 <= m["pswpout"], m
        assert m["mthp_swpout_fallback"] is not None
