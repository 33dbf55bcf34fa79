# SPDX-License-Identifier: GPL-2.0
"""swapctl calibrate (issue 36): one kernel as both A and B, N pairs, the
false verdicts per metric and the exit code's A/A rate with and without
Holm; swapctl report on the calibration directory. The tallies themselves
are unit-tested in tests/test_calib.c over a synthetic A/A set."""
import json
import shutil

import pytest

from harness import EXIT_CONFIG, EXIT_DATA, EXIT_NO_KERNEL, EXIT_USAGE, REPO

SHORT = REPO / "tests" / "fixtures" / "bisect-zram-short.json"


@pytest.mark.parametrize("args, says", [
    (["--pairs", "0"], "'--pairs': '0'"),
    (["--pairs", "1001"], "'--pairs': '1001'"),
    (["--repeat", "1"], "'--repeat': '1'"),
    (["--icount", "11"], "'--icount': '11'"),
    (["--line", "6"], "--line: '6' is not a kernel line"),
    (["--kernel", "a/b"], "--kernel: 'a/b' is not a kernel name"),
    (["--bogus"], "--bogus"),
])
def test_calibrate_options_refused(sw, args, says):
    r = sw.expect(EXIT_USAGE, "calibrate", "--dry-run", *args, SHORT)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r
    assert r.out == "", r


def test_calibrate_needs_one_scenario(sw):
    r = sw.expect(EXIT_USAGE, "calibrate")
    assert len(r.err.strip().splitlines()) == 1, r
    r = sw.expect(EXIT_USAGE, "calibrate", SHORT, SHORT)
    assert len(r.err.strip().splitlines()) == 1, r


def test_calibrate_bad_scenario(sw, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "bad", "kernels": 3}\n')
    r = sw.expect(EXIT_CONFIG, "calibrate", "--dry-run", bad)
    assert "bad.json" in r.err and len(r.err.strip().splitlines()) == 1, r


def test_calibrate_kernel_not_built(sw):
    r = sw.expect(EXIT_NO_KERNEL, "calibrate", "--dry-run", "--kernel",
                  "no-such-kernel", SHORT)
    assert "kernel 'no-such-kernel' of line 6.1 is not built" in r.err, r
    assert len(r.err.strip().splitlines()) == 1, r


def test_calibrate_dry_run_names_the_runs(sw, tmp_path):
    """The runs a calibration starts: one kernel's bzImage as both A and
    B, the repeats (3 by default: the scenario says none), --icount
    passed on; nothing is created."""
    wd = tmp_path / "wd"
    (wd / "kernels" / "baseline").mkdir(parents=True)
    (wd / "kernels" / "baseline" / "bzImage").write_bytes(b"not booted")
    conf = sw.write_config(tmp_path / "swapctl.conf", workdir=wd)
    env = {"SWAPCTL_CONFIG": str(conf)}
    r = sw.expect(0, "calibrate", "--dry-run", SHORT, env=env)
    bz = str(wd / "kernels" / "baseline" / "bzImage")
    argv = r.out.strip().splitlines()[-1].split()
    assert argv[argv.index("--kernels") + 1] == "A,B", r
    assert "A=" + bz in argv and "B=" + bz in argv, r
    assert argv[argv.index("--repeat") + 1] == "3", r
    assert "--icount" not in argv and "--json" in argv, r
    assert "# 20 pairs of kernel baseline" in r.out, r
    r = sw.expect(0, "calibrate", "--dry-run", "--pairs", "4", "--repeat",
                  "5", "--icount", "3", SHORT, env=env)
    argv = r.out.strip().splitlines()[-1].split()
    assert argv[argv.index("--icount") + 1] == "3", r
    assert argv[argv.index("--repeat") + 1] == "5", r
    assert "# 4 pairs" in r.out, r
    assert not (wd / "calibrations").exists()


def test_calibrate_kernel_of_a_tree_keeps_its_name(sw, tmp_path):
    """A kernel built from a git tree (swapctl build --tree) is
    kernels/v6.12/, not v6.12@6.12: taken when its manifest says the
    line, as run takes it."""
    wd = tmp_path / "wd"
    k = wd / "kernels" / "v6.12"
    k.mkdir(parents=True)
    (k / "bzImage").write_bytes(b"not booted")
    (k / "manifest.json").write_text('{"kernel_line": "6.12"}')
    env = {"SWAPCTL_CONFIG": str(sw.write_config(tmp_path / "c.conf",
                                                 workdir=wd))}
    r = sw.expect(0, "calibrate", "--dry-run", "--kernel", "v6.12",
                  "--line", "6.12", SHORT, env=env)
    assert "A=%s " % (k / "bzImage") in r.out, r
    (k / "manifest.json").write_text('{"kernel_line": "6.1"}')
    r = sw.expect(EXIT_NO_KERNEL, "calibrate", "--dry-run", "--kernel",
                  "v6.12", "--line", "6.12", SHORT, env=env)
    assert "v6.12@6.12/bzImage" in r.err, r


def make_calibration(tmp_path, runs):
    """A calibration directory whose pairs are the run directories @runs
    (copies of the fabricated run-demo: baseline and patched, one run
    each)."""
    cal = tmp_path / "cal"
    cal.mkdir()
    pairs = []
    for i, run in enumerate(runs, 1):
        pairs.append({"pair": i, "exit_code": 0, "run_dir": str(run),
                      "files": "pair-%02d" % i, "wall_seconds": 1.0})
    meta = {"version": 1, "scenario": "demo", "kernel": "baseline",
            "variant": "baseline", "kernel_line": "6.1", "repeat": 1,
            "icount_shift": None, "pairs_asked": len(runs), "host": "h",
            "started": "2026-12-07T00:00:00Z", "dir": str(cal),
            "pairs": pairs}
    (cal / "calibration.json").write_text(json.dumps(meta))
    return cal


def test_report_of_a_calibration_directory(sw, demo_run, tmp_path):
    """report DIR of a calibration directory prints its tallies (text and
    JSON), as calibrate does at its end; other formats are refused."""
    other = tmp_path / "run-demo-2"
    shutil.copytree(demo_run, other, symlinks=True)
    cal = make_calibration(tmp_path, [demo_run, other])
    r = sw.expect(0, "report", cal)
    assert "calibration of demo: kernel baseline" in r.out, r
    assert "exit 12 with Holm (the exit code):" in r.out, r
    assert "exit 12 before Holm (each gated alone):" in r.out, r
    assert "runs' own exit codes: 0 x2" in r.out, r
    d = sw.expect(0, "report", "--json", cal).json()
    assert d["tallied_pairs"] == 2, d
    assert d["exit_code"]["stated"] == 0.05, d
    assert set(d["exit_code"]["holm"]) == {"pairs", "nonzero", "rate",
                                           "ci95"}, d
    assert all(m["pairs"] == 2 for m in d["metrics"]), d["metrics"]
    r = sw.expect(EXIT_USAGE, "report", "--csv", cal)
    assert "text and json only" in r.err, r


def test_report_of_a_calibration_leaves_out_lost_runs(sw, demo_run,
                                                      tmp_path):
    cal = make_calibration(tmp_path, [demo_run, tmp_path / "gone"])
    r = sw.expect(0, "report", cal)
    assert "1 pair left out" in r.err and "gone" in r.err, r
    assert "runs' own exit codes: 0 x1" in r.out, r
    # a pair interrupted (its run has some of its guests) is not a pair
    meta = json.loads((cal / "calibration.json").read_text())
    meta["pairs"][1]["run_dir"] = str(demo_run)
    meta["pairs"][1]["exit_code"] = 130
    (cal / "calibration.json").write_text(json.dumps(meta))
    r = sw.expect(0, "report", cal)
    assert "1 pair left out (pair 2: interrupted)" in r.err, r
    assert "runs' own exit codes: 0 x1" in r.out, r
    (cal / "calibration.json").write_text("[]")
    r = sw.expect(EXIT_DATA, "report", cal)
    assert "not a calibration" in r.err, r


@pytest.mark.boot
@pytest.mark.slow
def test_calibrate_two_pairs(guests):
    """Two pairs of 2 runs per side of a short zram scenario: the
    calibration directory holds calibration.json and each pair's run
    output, the JSON tallies every pair, and report prints the same."""
    sw = guests
    r = sw.run("calibrate", "--json", "--pairs", "2", "--repeat", "2",
               SHORT, timeout=1800)
    assert r.rc == 0, r.tail()
    d = r.json()
    assert d["tallied_pairs"] == 2 and d["pairs_asked"] == 2, d
    assert [p["exit_code"] for p in d["pairs"]] == [0, 0], d["pairs"]
    assert d["exit_code"]["holm"]["pairs"] == 2, d["exit_code"]
    assert d["exit_code"]["gated_metrics"] == 1, d["exit_code"]
    m = {x["metric"]: x for x in d["metrics"]}
    assert m["pswpout"]["gated"] and m["pswpout"]["pairs"] == 2, m
    assert not m["workload_seconds"]["gated"], m
    assert d["resampled"]["draws"] == 1000, d.get("resampled")
    assert r.err.count("swapctl calibrate: pair ") == 2, r.err
    for p in d["pairs"]:
        run = json.loads((REPO / d["dir"] / (p["files"] + ".json"))
                         .read_text())
        assert run["dir"] == p["run_dir"], run
        assert [x["kernel"] for x in run["results"]] == ["A", "B"] * 2
    rep = sw.expect(0, "report", "--json", d["dir"]).json()
    assert rep["metrics"] == d["metrics"], rep
