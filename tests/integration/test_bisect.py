# SPDX-License-Identifier: GPL-2.0
"""swapctl bisect: which patch of a series changed a metric.

Without a guest: a run put together from the recorded zram fixture
(tests/fixtures/run-zram-unfixed: baseline-1 swapped out 81920 pages, the
old series 42159), its kernels baseline, s.01 (the baseline's samples
again), s.02 and s.03 (the unfixed series'), judged with --run; and the
refusals. With guests (full): a three-patch series whose patch 2 makes
swap_writepage() activate every page (tests/fixtures/broken-series, never
shipped), built and run in a work dir of the test's own, must be named
for pswpout; the shipped swap-ops series on zram-swap must be named for
device write pages per I/O; and on fault-read-error no patch of it may
fail more pages than the baseline (issue 21's bisect order). With
SWAPCTL_TEST_KERNELS=DIR holding the kernel after every patch of swap-ops
(DIR/swap-ops.01/...), built from the repository's patches, those two are
run on DIR's kernels (swapctl run, then bisect --run) instead of building
them."""
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import harness
from harness import EXIT_CONFIG, EXIT_DATA, EXIT_FAILURE_GENERIC, \
    EXIT_NO_KERNEL, EXIT_OK, EXIT_PATCH, EXIT_SETUP, EXIT_USAGE

FIXTURE = harness.REPO / "tests" / "fixtures" / "run-zram-unfixed"


def fake_run(wd, kernels):
    """<wd>/runs/fake: a recorded run of @kernels, each (name, guest dir
    of the fixture whose samples it gets)."""
    d = wd / "runs" / "fake"
    d.mkdir(parents=True)
    shutil.copy(FIXTURE / "scenario.json", d)
    (d / "state").write_text("done\n")
    (d / "kernels").write_text("".join(k + "\n" for k, _ in kernels))
    for k, src in kernels:
        (d / (k + "-1")).mkdir()
        shutil.copy(FIXTURE / src / "samples.jsonl", d / (k + "-1"))
    return d


@pytest.fixture
def fake(sw, tmp_path):
    wd = tmp_path / "wd"
    d = fake_run(wd, [("baseline", "baseline-1"), ("s.01", "baseline-1"),
                      ("s.02", "patched-1"), ("s.03", "patched-1")])
    # s.02's manifest names its patch, as build --keep-each writes it
    m = wd / "kernels" / "s.02"
    m.mkdir(parents=True)
    (m / "manifest.json").write_text(json.dumps(
        {"variant": "s.02", "step": {"of": "s", "patch": 2, "patches": 3,
                                     "name": "0002-the-one.patch"}}))
    conf = sw.write_config(tmp_path / "b.conf", workdir=str(wd))
    return d, {"SWAPCTL_CONFIG": str(conf)}


def test_recorded_run_names_the_patch_that_halved_pswpout(sw, fake):
    d, env = fake
    r = sw.run("bisect", "--run", d, env=env)
    assert r.rc == EXIT_OK, r
    lines = r.out.splitlines()
    row = [ln for ln in lines if ln.startswith("pages swapped out ")]
    assert row == ["pages swapped out      == -- =-  worse from 2"], r.out
    row = [ln for ln in lines if ln.startswith("write pages/I/O ")]
    assert row == ["write pages/I/O        == ++ =+  better from 2"], r.out
    assert "pages swapped out: worse from patch 2 (s.02 0002-the-one.patch)" \
        in r.out, r.out
    assert "baseline 81920, patch 1 81920, patch 2 42159" in r.out, r.out
    assert "against patch 1: 0.51x worse" in r.out, r.out
    # a metric with no change has no first change
    assert "pages corrupt: " not in r.out
    assert " 2 s.02                 0002-the-one.patch" in r.out, r.out


def test_recorded_run_json_and_one_metric(sw, fake):
    d, env = fake
    j = sw.run("bisect", "--run", d, "--json", env=env)
    assert j.rc == EXIT_OK, j
    o = j.json()
    assert [k["kernel"] for k in o["kernels"]] == \
        ["baseline", "s.01", "s.02", "s.03"]
    assert o["kernels"][2]["patch"] == "0002-the-one.patch"
    assert o["kernels"][1]["patch"] is None
    assert o["run_dir"] == str(d) and o["scenario"] == "zram-swap"
    m = {x["metric"]: x for x in o["metrics"]}
    assert m["pswpout"]["final"] == "worse"
    assert m["pswpout"]["first_change"]["index"] == 2
    assert m["pages_corrupt"]["first_change"] is None
    steps = m["pswpout"]["steps"]
    assert [s["mean"] for s in steps] == [81920, 81920, 42159, 42159]
    assert "vs_previous" not in steps[0]
    assert steps[2]["vs_previous"]["verdict"] == "worse"
    assert steps[2]["vs_previous"]["reference"] == "s.01"
    assert steps[3]["vs_previous"]["verdict"] == "no significant change"
    assert steps[3]["vs_baseline"]["verdict"] == "worse"
    # the same verdicts as report gives for the same kernels
    rep = sw.run("report", "--json", d, env=env).json()
    c = [x for x in rep["comparisons"] if x["metric"] == "pswpout" and
         x["kernel"] == "s.02"][0]
    assert c["verdict"] == steps[2]["vs_baseline"]["verdict"]
    assert abs(c["ratio"] - steps[2]["vs_baseline"]["ratio"]) < 1e-9
    one = sw.run("bisect", "--run", d, "--json", "--metric", "pswpout",
                 env=env).json()
    assert [x["metric"] for x in one["metrics"]] == ["pswpout"]
    t = sw.run("bisect", "--run", d, "--metric", "pswpout", env=env)
    assert "pswpout (pages swapped out) [pages, higher is better]:" in t.out
    assert "write pages/I/O" not in t.out, t.out


def test_refusals(sw, fake, tmp_path):
    d, env = fake
    r = sw.run("bisect", env=env)
    assert r.rc == EXIT_USAGE and "give SCENARIO.json" in r.err, r
    r = sw.run("bisect", "--run", d, "x.json", env=env)
    assert r.rc == EXIT_USAGE and "--run judges a recorded run" in r.err, r
    r = sw.run("bisect", "--run", d, "--series", "swap-ops", env=env)
    assert r.rc == EXIT_USAGE and "--run excludes" in r.err, r
    r = sw.run("bisect", "--run", d, "--metric", "no_such", env=env)
    assert r.rc == EXIT_USAGE and "'no_such': no such metric" in r.err, r
    r = sw.run("bisect", "--series", "baseline", "scenarios/zram-swap.json",
               env=env)
    assert r.rc == EXIT_USAGE and "nothing to bisect" in r.err, r
    r = sw.run("bisect", "--series", "no-such-series",
               "scenarios/zram-swap.json", env=env)
    assert r.rc == EXIT_PATCH and "no-such-series" in r.err, r
    assert len(r.err.strip().splitlines()) == 1, r.err
    # report's and top's codes for the same causes (issue 33, item 14)
    r = sw.run("bisect", "--run", tmp_path / "nothing", env=env)
    assert r.rc == EXIT_USAGE and "no such run directory" in r.err, r
    r = sw.run("bisect", "--run", "/tmp", env=env)
    assert r.rc == EXIT_DATA, r
    one = fake_run(tmp_path / "wd1", [("baseline", "baseline-1")])
    r = sw.run("bisect", "--run", one, env=env)
    # a run, but none to bisect: 11 as unusable runs (test_exitcodes.py)
    assert r.rc == EXIT_DATA and "bisect needs the baseline and at least" \
        in r.err, r


# ---- with guests: real builds and runs ----

def own_workdir(sw, tmp_path):
    """A work dir of the test's own (its kernels are built there), its
    compiler cache a copy of the default work dir's."""
    wd = sw.workdir / "bisect"
    src = harness.default_workdir() / "ccache"
    if not (wd / "ccache").exists() and src.is_dir():
        wd.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cp", "-a", str(src), str(wd / "ccache")],
                       check=True)
    return wd, sw.write_config(tmp_path / "bisect.conf", workdir=str(wd))


@pytest.mark.full
@pytest.mark.build
@pytest.mark.boot
@pytest.mark.slow
def test_broken_patch_is_named_for_pswpout(guests, tmp_path):
    """patches: baseline (the shipped one) and broken (tests/fixtures/
    broken-series: a comment, swap_writepage() returning
    AOP_WRITEPAGE_ACTIVATE for every page, a comment): bisect must say
    pswpout is worse from patch 2 on, and against patch 1 too."""
    sw = guests
    root = tmp_path / "patches"
    root.mkdir()
    shutil.copytree(harness.REPO / "patches" / "baseline", root / "baseline")
    shutil.copytree(harness.REPO / "tests" / "fixtures" / "broken-series",
                    root / "broken")
    wd, conf = own_workdir(sw, tmp_path)
    env = {"SWAPCTL_CONFIG": str(conf)}
    with harness.default_build_lock():
        b = sw.run("build", "--patches", root, "--baseline", env=env,
                   timeout=3 * 3600)
        assert b.rc == EXIT_OK, b.tail()
        b = sw.run("build", "--patches", root, "--series", "broken",
                   "--keep-each", env=env, timeout=3 * 3600)
        assert b.rc == EXIT_OK, b.tail()
    r = sw.run("bisect", "--patches", root, "--series", "broken", "--json",
               harness.REPO / "tests" / "fixtures" / "bisect-zram-short.json",
               env=env, timeout=3600)
    assert r.rc == EXIT_OK, r.tail()
    o = r.json()
    assert [k["kernel"] for k in o["kernels"]] == \
        ["baseline", "broken.01", "broken.02", "broken.03"]
    m = {x["metric"]: x for x in o["metrics"]}
    p = m["pswpout"]
    assert p["final"] == "worse", p
    assert p["first_change"]["index"] == 2, p
    assert p["first_change"]["patch"] == \
        "0002-mm-page_io-swap_writepage-activates-every-page.patch"
    assert p["steps"][2]["vs_previous"]["verdict"] == "worse", p["steps"][2]
    assert p["steps"][2]["mean"] == 0, p["steps"][2]
    assert p["steps"][1]["vs_baseline"]["verdict"] == \
        "no significant change", p["steps"][1]
    assert p["steps"][3]["vs_previous"]["verdict"] == \
        "no significant change", p["steps"][3]


def series_patches(name):
    """(patch file name, sha256) of patches/NAME/series, in order."""
    d = harness.REPO / "patches" / name
    out = []
    for ln in (d / "series").read_text().split("\n"):
        ln = ln.split("#", 1)[0].split()
        if ln:
            out.append((ln[0], hashlib.sha256(
                (d / ln[0]).read_bytes()).hexdigest()))
    return out


def borrowed_steps(series="swap-ops"):
    """SWAPCTL_TEST_KERNELS=DIR holding DIR/<series>.KK/ for every patch
    of the series (swapctl build --keep-each in another work dir): the
    kernels to run, baseline first, each checked against the patches of
    this repository (its manifest's names and sha256s); None when DIR
    lacks any of them. A kernel built from other patches fails the test:
    it would measure another series."""
    src = os.environ.get("SWAPCTL_TEST_KERNELS")
    if not src:
        return None
    src = Path(src).expanduser().resolve()
    want = series_patches(series)
    names = ["baseline"] + ["%s.%02d" % (series, i + 1)
                            for i in range(len(want))]
    if not all((src / n / "bzImage").is_file() for n in names):
        return None
    for i, n in enumerate(names):
        m = json.loads((src / n / "manifest.json").read_text())
        got = [(p["name"], p["sha256"]) for p in m.get("patches", [])]
        exp = series_patches("baseline") if i == 0 else want[:i]
        if got != exp:
            pytest.fail("SWAPCTL_TEST_KERNELS: %s/%s was built from other "
                        "patches than patches/%s: rebuild it (swapctl "
                        "build --keep-each) or unset SWAPCTL_TEST_KERNELS"
                        % (src, n, "baseline" if i == 0 else series))
    return [(n, src / n) for n in names]


def build_each_patch(sw, tmp_path):
    """The baseline and the kernel after every patch of swap-ops, in a
    work dir of the test's own: the environment that selects it, and the
    kernels' names when they were borrowed (SWAPCTL_TEST_KERNELS has
    them all and they match the patches: linked, not built), else
    None."""
    steps = borrowed_steps()
    if steps:
        # a work dir apart: nothing is ever built through these links
        # (a short name: unix socket paths under it have 108 bytes)
        wd = sw.workdir / "borrowed"
        kdir = wd / "kernels"
        kdir.mkdir(parents=True, exist_ok=True)
        for n, src in steps:
            tmp = kdir / (n + ".link")
            if tmp.is_symlink():
                tmp.unlink()
            tmp.symlink_to(src)
            tmp.replace(kdir / n)
        env = {"SWAPCTL_CONFIG": str(sw.write_config(
            tmp_path / "bisect.conf", workdir=str(wd)))}
        b = sw.run("build", "--initramfs-only", env=env, timeout=600)
        assert b.rc == EXIT_OK, b.tail()
        return env, [n for n, _ in steps]
    wd, conf = own_workdir(sw, tmp_path)
    env = {"SWAPCTL_CONFIG": str(conf)}
    with harness.default_build_lock():
        for args in (["--baseline"], ["--series", "swap-ops",
                                      "--keep-each"]):
            b = sw.run("build", *args, env=env, timeout=4 * 3600)
            assert b.rc == EXIT_OK, b.tail()
    return env, None


def bisect_swap_ops(sw, env, borrowed, scenario, repeat, metrics):
    """swapctl bisect of swap-ops on @scenario: with @borrowed kernels,
    swapctl run over them (bisect would build) judged by bisect --run."""
    judge = []
    for m in metrics:
        judge += ["--metric", m]
    rep = ["--repeat", str(repeat)] if repeat else []
    if not borrowed:
        return sw.run("bisect", "--series", "swap-ops", "--json", *rep,
                      *judge, scenario, env=env, timeout=4 * 3600)
    r = sw.run("run", "--json", "--kernels", ",".join(borrowed), *rep,
               scenario, env=env, timeout=4 * 3600)
    # as bisect does: a run that fails its expectations or regresses is
    # still judged
    assert r.rc not in (EXIT_SETUP, EXIT_NO_KERNEL, EXIT_CONFIG,
                        EXIT_USAGE, EXIT_FAILURE_GENERIC), r.tail()
    return sw.run("bisect", "--run", r.json()["dir"], "--json", *judge,
                  env=env)


@pytest.mark.full
@pytest.mark.build
@pytest.mark.boot
@pytest.mark.slow
def test_swap_ops_on_bdev_names_the_batching_patch(guests, tmp_path):
    """The shipped swap-ops series on bdev-swap, two repeats: the disk's
    write requests carry about one page each until the patch that
    batches block device swap I/O (0005), then about 30; write pages
    per I/O (pswpout/nrswpout) is measured only from the last patch,
    which adds nrswpout, and is named there, better. (zram, a ->rw_page()
    device, is not batched by this series: see zram-swap.)"""
    sw = guests
    env, borrowed = build_each_patch(sw, tmp_path)
    # two repeats: device write pages per I/O is no deterministic count,
    # so one run of each gives "not judged (one run)" and names no patch
    r = bisect_swap_ops(sw, env, borrowed,
                        harness.untimed("bdev-swap", tmp_path), 2, [])
    assert r.rc == EXIT_OK, r.tail()
    m = {x["metric"]: x for x in r.json()["metrics"]}
    d = m["device_write_pages_per_io"]
    assert d["final"] == "better", d
    assert d["first_change"]["patch"].startswith(
        "0005-mm-swap-batch-block-device-swap-I-O"), d["first_change"]
    w = m["write_pages_per_io"]
    assert w["final"] == "better"
    assert w["first_change"]["patch"].startswith(
        "0009-mm-vmstat-add-nrswpin-and-nrswpout"), w
    assert m["pswpout"]["final"] == "no significant change", m["pswpout"]


@pytest.mark.full
@pytest.mark.build
@pytest.mark.boot
@pytest.mark.slow
def test_swap_ops_no_patch_fails_more_pages_than_the_baseline(guests,
                                                              tmp_path):
    """Bisect order (issue 21): the kernel after every patch of swap-ops
    on fault-read-error (4 adjacent bad slots read by MADV_WILLNEED). Block
    reads are batched from patch 5 on, which retries a failed batch page
    by page too; had the retry come in a later patch, as it once did, the
    kernels between would fail a whole batch (about 32 pages) for the 4
    bad slots. No patch may fail more pages than the baseline, nor corrupt
    one."""
    sw = guests
    env, borrowed = build_each_patch(sw, tmp_path)
    r = bisect_swap_ops(sw, env, borrowed,
                        harness.REPO / "scenarios" / "fault-read-error.json",
                        None, ["pages_failed_distinct", "pages_corrupt"])
    assert r.rc == EXIT_OK, r.tail()
    o = r.json()
    names = [k["kernel"] for k in o["kernels"]]
    series = [n for n in (harness.REPO / "patches" / "swap-ops" /
                          "series").read_text().split("\n")
              if n and not n.startswith("#")]
    assert names == ["baseline"] + ["swap-ops.%02d" % (i + 1)
                                    for i in range(len(series))], names
    m = {x["metric"]: x for x in o["metrics"]}
    failed = [s["mean"] for s in m["pages_failed_distinct"]["steps"]]
    print("pages failed per kernel: %r" % dict(zip(names, failed)))
    assert 1 <= failed[0] <= 4, failed
    assert all(f <= failed[0] for f in failed[1:]), \
        dict(zip(names, failed))
    assert all(s["mean"] == 0 for s in m["pages_corrupt"]["steps"]), m
