# SPDX-License-Identifier: GPL-2.0
"""Kernel lines (swapctl(1) BUILD, KERNEL LINES): which tarball, series
root, fragment and kernel names a line gets (build --dry-run, no build),
run's refusals (a kernel of the line not built, mTHP on 6.1), the names
run and list use; and one boot of a 6.12 baseline on zram."""
import json
import os
from pathlib import Path

import pytest

import harness
from harness import (EXIT_CONFIG, EXIT_NO_KERNEL, EXIT_OK, EXIT_USAGE,
                     REPO)

TARBALL_612 = Path("/usr/src/linux-source-6.12.tar.xz")
TARBALL_61 = Path("/usr/src/linux-source-6.1.tar.xz")


def need_tarball(t):
    if not t.is_file():
        pytest.skip("%s is not installed ('make deps')" % t)


@pytest.fixture
def empty(sw, tmp_path):
    """A configuration whose work dir holds nothing: no kernel built."""
    return sw.write_config(tmp_path / "empty.conf",
                           workdir=str(tmp_path / "wd"))


@pytest.fixture
def root612(tmp_path):
    """A series root of the 6.12 line's shape: baseline, one series and
    the line's guest fragment."""
    p = tmp_path / "p612"
    for d in ("baseline", "it-ops"):
        (p / d).mkdir(parents=True)
        (p / d / "series").write_text("# no patches\n")
    (p / "kernel.config").write_text("CONFIG_SWAP=y\n")
    return p


def dry(sw, conf, *args):
    return sw.expect(EXIT_OK, "--config", conf, "build", "--dry-run",
                     "--json", *args).json()


def test_dry_run_names_the_612_tarball_series_and_kernels(sw, empty,
                                                          root612):
    need_tarball(TARBALL_612)
    d = dry(sw, empty, "--line", "6.12", "--patches", root612, "--series",
            "it-ops")
    assert d["kernel_line"] == "6.12"
    assert d["tarball"] == str(TARBALL_612)
    assert d["series_root"] == str(root612)
    v = d["variants"][0]
    assert v["variant"] == "it-ops@6.12"
    assert v["patches"] == []       # "series" is "" without patches
    assert v["tree"].endswith("/trees/it-ops@6.12")
    assert v["kernel"].endswith("/kernels/it-ops@6.12/bzImage")
    # the series root's own fragment, not guest/kernel.config
    assert v["fragments"] == [str(root612 / "kernel.config")]
    # the pristine source of each tarball is a directory of its own
    need_tarball(TARBALL_61)
    d61 = dry(sw, empty, "--baseline")
    assert d61["kernel_line"] == "6.1"
    assert d61["tarball"] == str(TARBALL_61)
    assert d61["variants"][0]["variant"] == "baseline"
    assert d61["variants"][0]["fragments"] == [
        str(REPO / "guest" / "kernel.config")]
    assert d61["source"] != d["source"]
    assert d61["series_root"] == str(REPO / "patches")


def test_dry_run_of_the_shipped_612_series(sw, empty):
    need_tarball(TARBALL_612)
    if not (REPO / "patches" / "6.12" / "baseline").is_dir():
        pytest.skip("patches/6.12/baseline is not there yet")
    d = dry(sw, empty, "--line", "6.12", "--baseline")
    assert d["series_root"] == str(REPO / "patches" / "6.12")
    v = d["variants"][0]
    assert v["variant"] == "baseline@6.12"
    assert v["patches"] and v["patches"][0]["path"].startswith(
        str(REPO / "patches" / "6.12" / "baseline") + "/")
    assert v["fragments"] == [str(REPO / "patches" / "6.12" /
                                  "kernel.config")]


def test_kernel_line_and_kernel_tarball_in_the_config(sw, tmp_path,
                                                      root612):
    need_tarball(TARBALL_612)
    need_tarball(TARBALL_61)
    wd = str(tmp_path / "wd")
    conf = sw.write_config(tmp_path / "l.conf", workdir=wd,
                           kernel_line="6.12")
    d = dry(sw, conf, "--patches", root612, "--baseline")
    assert d["kernel_line"] == "6.12"
    assert d["tarball"] == str(TARBALL_612)
    assert d["variants"][0]["variant"] == "baseline@6.12"
    # kernel_tarball is the configured line's; 6.1 keeps Debian's
    conf = sw.write_config(tmp_path / "t.conf", workdir=wd,
                           kernel_line="6.12",
                           kernel_tarball=str(TARBALL_612))
    d = dry(sw, conf, "--line", "6.1", "--baseline")
    assert d["tarball"] == str(TARBALL_61)
    assert d["variants"][0]["variant"] == "baseline"
    conf = sw.write_config(tmp_path / "m.conf", workdir=wd,
                           kernel_tarball="/nonexistent/l.tar.xz")
    d = dry(sw, conf, "--line", "6.12", "--patches", root612, "--baseline")
    assert d["tarball"] == str(TARBALL_612)
    r = sw.expect(4, "--config", conf, "build", "--dry-run", "--baseline")
    assert "/nonexistent/l.tar.xz: No such file or directory " \
        "(kernel_tarball, from %s)" % conf in r.err
    r = sw.expect(4, "--config", conf, "build", "--dry-run", "--line",
                  "6.99", "--patches", root612, "--baseline")
    assert "/usr/src/linux-source-6.99.tar.xz: No such file or directory " \
        "(kernel line 6.99; 'make deps' installs the sources of 6.1 6.12 " \
        "only: install linux-source-6.99, or name a tarball with " \
        "kernel_tarball)" in r.err


def test_line_usage_errors(sw, empty):
    r = sw.expect(EXIT_USAGE, "--config", empty, "build", "--line", "6",
                  "--dry-run")
    assert "--line: '6' is not a kernel line" in r.err
    r = sw.expect(EXIT_USAGE, "--config", empty, "build", "--line", "6.12",
                  "--tree", "/tmp", "--range", "a..b")
    assert "--line selects a Debian tarball" in r.err
    r = sw.expect(EXIT_USAGE, "--config", empty, "run", "--line", "6.12.1",
                  "scenarios/zram-swap.json")
    assert "--line: '6.12.1' is not a kernel line" in r.err
    r = sw.expect(EXIT_USAGE, "--config", empty, "bisect", "--line", "x",
                  "scenarios/zram-swap.json")


def test_run_refuses_a_kernel_of_the_line_not_built(sw, empty):
    r = sw.expect(EXIT_NO_KERNEL, "--config", empty, "run", "--line",
                  "6.12", "scenarios/zram-swap.json")
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    # issue 37: every missing kernel named, and the one build of them all
    assert "kernels baseline, patched of line 6.12 (--line) are not " \
        "built" in r.err
    assert "kernels/baseline@6.12/bzImage does not exist" in r.err
    assert "run 'swapctl build --line 6.12 --all' first" in r.err
    r = sw.expect(EXIT_NO_KERNEL, "--config", empty, "run", "--line",
                  "6.12", "--kernels", "baseline", "scenarios/zram-swap.json")
    assert "kernel baseline of line 6.12 (--line) is not built" in r.err
    assert "run 'swapctl build --line 6.12 --baseline' first" in r.err
    # the scenario's kernel_line, and the patched kernel's series
    r = sw.expect(EXIT_NO_KERNEL, "--config", empty, "run", "--kernels",
                  "patched", "scenarios/mthp-swap.json")
    assert "kernel patched of line 6.12 (kernel_line of the scenario)" \
        in r.err
    assert "'swapctl build --line 6.12 --series %s'" % sw.series in r.err
    # no line anywhere: the configured default, 6.1, kernels/<variant>/
    r = sw.expect(EXIT_NO_KERNEL, "--config", empty, "run",
                  "scenarios/zram-swap.json")
    assert "kernels baseline, patched of line 6.1 (kernel_line, from %s)" \
        % empty in r.err
    assert "kernels/baseline/bzImage does not exist" in r.err
    # a --keep-each step names the build that keeps it
    r = sw.expect(EXIT_NO_KERNEL, "--config", empty, "run", "--line",
                  "6.12", "--kernels", "swap-ops.03",
                  "scenarios/zram-swap.json")
    assert "'swapctl build --line 6.12 --series swap-ops --keep-each'" \
        in r.err


def test_mthp_is_refused_on_61(sw, empty, tmp_path):
    r = sw.expect(EXIT_CONFIG, "--config", empty, "run", "--line", "6.1",
                  "scenarios/mthp-swap.json")
    assert "mthp: kernel line 6.1 (--line) has no per-size mTHP" in r.err
    s = json.loads((REPO / "scenarios" / "mthp-swap.json").read_text())
    s["kernel_line"] = "6.1"
    p = tmp_path / "m61.json"
    p.write_text(json.dumps(s))
    r = sw.expect(EXIT_CONFIG, "--config", empty, "validate", p)
    assert "mthp: kernel line 6.1 has no per-size mTHP" in r.err
    del s["kernel_line"]
    p.write_text(json.dumps(s))
    # validate refuses what run refuses, in the same words (issue 33, 8)
    for cmd in (["validate"], ["run", "--dry-run"]):
        r = sw.expect(EXIT_CONFIG, "--config", empty, *cmd, p)
        assert "kernel line 6.1 (kernel_line, from" in r.err, r.err


def fake_kernel(wd, name, **manifest):
    d = wd / "kernels" / name
    d.mkdir(parents=True)
    (d / "bzImage").write_bytes(b"not a kernel")
    m = {"variant": name, "kernel_version": "6.12.57", "patches": []}
    m.update(manifest)
    (d / "manifest.json").write_text(json.dumps(m))


def test_run_dry_run_names_the_lines_kernels(sw, tmp_path):
    wd = tmp_path / "wd"
    fake_kernel(wd, "baseline@6.12", kernel_line="6.12")
    # a git tree's kernel keeps its name; its manifest says its line
    fake_kernel(wd, "topic", kernel_line="6.12")
    fake_kernel(wd, "other", kernel_line="6.1")
    conf = sw.write_config(tmp_path / "k.conf", workdir=str(wd))
    d = sw.expect(EXIT_OK, "--config", conf, "run", "--dry-run", "--json",
                  "--kernels", "baseline,topic,other",
                  "scenarios/mthp-swap.json").json()
    assert d["kernel_line"] == "6.12"
    dom = {x["kernel"]: x for x in d["domains"]}
    assert dom["baseline"]["variant"] == "baseline@6.12"
    assert dom["baseline"]["bzImage"] == str(
        wd / "kernels" / "baseline@6.12" / "bzImage")
    assert dom["baseline"]["built"] is True
    assert dom["topic"]["variant"] == "topic"
    # a 6.1 kernel is not taken for 6.12's
    assert dom["other"]["variant"] == "other@6.12"
    assert dom["other"]["built"] is False
    assert "mthp size_kb=64 enabled=always\n" in d["plan"]
    r = sw.run("--config", conf, "run", "--dry-run", "--kernels",
               "baseline", "scenarios/mthp-swap.json")
    assert r.rc == EXIT_OK, r
    assert "# kernel line: 6.12 (kernel_line of the scenario)" in r.out
    # list: the kernels of each line, by name
    ls = sw.expect(EXIT_OK, "--config", conf, "list", "--json").json()
    kern = {k["variant"]: k for k in ls["kernels"]}
    assert kern["baseline@6.12"]["line"] == "6.12"
    assert kern["other"]["line"] == "6.1"
    scn = {s["name"]: s for s in ls["scenarios"]}
    assert scn["mthp-swap"]["kernel_line"] == "6.12"


@pytest.mark.build
def test_tarball_of_another_line_is_refused(sw, tmp_path, root612):
    """kernel_tarball pointing at 6.1's while kernel_line says 6.12: the
    extracted Makefile says 6.1 (the 6.1 source is extracted once)."""
    need_tarball(TARBALL_61)
    conf = sw.write_config(tmp_path / "w.conf", kernel_line="6.12",
                           kernel_tarball=str(TARBALL_61))
    with harness.default_build_lock():
        r = sw.expect(EXIT_CONFIG, "--config", conf, "build", "--patches",
                      root612, "--baseline", timeout=1800)
    assert "%s: holds kernel line 6.1, not 6.12 (kernel_tarball, from %s)" \
        % (TARBALL_61, conf) in r.err


@pytest.mark.full
@pytest.mark.build
@pytest.mark.boot
@pytest.mark.slow
def test_612_baseline_swaps_on_zram(sw):
    """The 6.12 baseline (patches/6.12/baseline: its nrswpin/nrswpout
    counters) built and booted on zram-swap: pages swapped out, write
    I/Os counted, nothing corrupt."""
    need_tarball(TARBALL_612)
    if not (REPO / "patches" / "6.12" / "baseline" / "series").is_file():
        pytest.skip("patches/6.12/baseline is not there yet")
    sw.seed_ccache()
    with harness.default_build_lock():
        r = sw.run("build", "--line", "6.12", "--baseline",
                   timeout=4 * 3600)
    assert r.rc == EXIT_OK, r
    m = json.loads((sw.workdir / "kernels" / "baseline@6.12" /
                    "manifest.json").read_text())
    assert m["kernel_line"] == "6.12"
    assert m["kernel_version"].startswith("6.12.")
    r = sw.run("run", "--json", "--line", "6.12", "--kernels", "baseline",
               "scenarios/zram-swap.json", timeout=1800)
    d = json.loads(r.out)
    assert d["kernel_line"] == "6.12"
    (res,) = d["results"]
    met = res["metrics"]
    assert res["status"] == "pass", (res["status"], res.get("reason"))
    assert met["pages_corrupt"] == 0
    assert (met["pswpout"] or 0) > 0
    assert met["nrswpout"] is not None and met["nrswpout"] > 0
    assert r.rc == EXIT_OK, r
    assert os.path.isdir(d["dir"])
