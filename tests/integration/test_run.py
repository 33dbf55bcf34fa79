# SPDX-License-Identifier: GPL-2.0
"""swapctl run on every shipped scenario, both kernels: counters, verdicts,
data integrity; then report and top on the recording; a wrong verification
seed; nothing left behind. make check runs the backends' quick scenarios
(tests/fixtures/scenarios/, on the baseline, bhe-ops and the series at
once: test_scenario_on_both_kernels and test_designs judge the same runs)
and the short fault scenarios (harness.QUICK_SHIPPED); the shipped
scenarios' long runs are make check-full's."""
import fcntl
import json
import os
import signal
import subprocess
import time

import pytest

from harness import EXIT_CORRUPT, EXIT_INTERRUPTED, QUICK_SHIPPED, REPO, \
    SWAPCTL, quick

# The backends: make check boots each one's quick scenario
# (tests/fixtures/scenarios/NAME-quick.json) on three kernels.
BACKENDS = ("bdev-swap", "zram-swap", "ext4-swapfile", "nfs-swap",
            "brd-swap")


def shipped():
    """The synthetic-workload scenarios of the 6.1 line; command workloads
    (the host's programs, minutes each) have their own tests in
    test_workloads.py, the three-kernel designs-* scenarios theirs in
    test_designs, the other lines' (mthp-swap) test_lines.py."""
    def ours(p):
        s = json.loads(p.read_text())
        return "command" not in s.get("workload", {}) and \
            s.get("kernel_line", "6.1") == "6.1" and \
            not p.stem.startswith("designs-")
    return sorted(p.stem for p in (REPO / "scenarios").glob("*.json")
                  if ours(p))


# Issue 9's must-show: on these the patched kernel's pswpout and pswpin
# are within SAME_SWAP_TOL of the baseline's (one run each), and on
# BATCHED it writes at least 8 pages per I/O. On RW_PAGE (zram: a
# ->rw_page() device) swap-ops does its I/O a page at a time, as the
# baseline does: its pages per I/O stay within 10% of the baseline's.
SAME_SWAP = {"zram-swap", "bdev-swap", "ext4-swapfile", "thp-swap",
             "nfs-swap"}
SAME_SWAP_TOL = 0.02
# A pressure phase's reclaim differs by a few MiB between kernels (their
# own memory differs), whatever the workload's size: on make check's
# zram-swap-quick (48 MiB) 2026-12-07, 737 and 1516 pages of ~25000-30000
# out (2.9% and 6%), where the shipped zram-swap's 2% of ~96000 pages
# allows 1900. So where the scenario has a pressure phase the tolerance
# is at least this many pages (8 MiB), about what 2% allows the shipped
# run; the shipped runs (make check-full) keep their 2%.
PRESSURE_SLACK_PAGES = 2048


def same_swap_tol(name, b):
    """The largest difference from the baseline's @b pages swapped out or
    in that counts as the same on scenario @name (shipped)."""
    scn = json.loads((REPO / "scenarios" / ("%s.json" % name)).read_text())
    pressure = any(isinstance(p, dict) and p.get("name") == "pressure"
                   for p in scn.get("workload", {}).get("phases", []))
    return max(SAME_SWAP_TOL * b, PRESSURE_SLACK_PAGES if pressure else 0)
BATCHED = {"bdev-swap", "ext4-swapfile"}
RW_PAGE = {"zram-swap"}


def check_result(r, need):
    """The checks every kernel's result of a passing run must pass."""
    k = r["kernel"]
    m = r["metrics"]
    need(r["status"] == "pass",
         "%s: status %s (%s)" % (k, r["status"], r.get("reason")))
    need(m["pages_corrupt"] == 0,
         "%s: %s corrupt pages" % (k, m["pages_corrupt"]))
    need((m["pages_verified"] or 0) > 0, "%s: no page verified" % k)
    need((m["pswpout"] or 0) > 0, "%s: nothing swapped out" % k)
    need(m["nrswpout"] is not None and m["nrswpout"] > 0,
         "%s: no nrswpout counter" % k)
    need(m["write_pages_per_io"] is not None,
         "%s: no write pages/I/O" % k)
    need(m["boot_seconds"] is not None and m["boot_seconds"] > 0,
         "%s: no boot time" % k)
    need(m["workload_seconds"] is not None, "%s: no workload time" % k)
    need(r["console_problems"] == 0,
         "%s: console: %s" % (k, r.get("console_first_problem")))
    need(r["stream"]["seq_gaps"] == 0,
         "%s: %d sequence gaps" % (k, r["stream"]["seq_gaps"]))


def check_verdicts(d, need):
    """No regression, every expectation met, the run passed."""
    need(not d.get("regressions"), "regressions: %r" % d.get("regressions"))
    need(all(e["pass"] for e in d.get("expectations", [])),
         "expectations: %r" % [e for e in d.get("expectations", [])
                               if not e["pass"]])
    need(d.get("status") == "pass" and d.get("exit_code") == 0,
         "status %r" % d.get("status"))


def check_summary(d, name, scenario=None, kernels=("baseline", "patched")):
    """The --json object of a passing run of scenario @name (the shipped
    one's name; @scenario: the run's own, e.g. NAME-quick) on @kernels:
    a list of what is wrong (empty when all is well) and the write pages
    per I/O. The same-swap checks hold for every kernel against the
    baseline, the batching ones for patched."""
    errs = []

    def need(cond, what):
        if not cond:
            errs.append(what)
    need(d.get("scenario") == (scenario or name),
         "scenario is %r" % d.get("scenario"))
    res = d.get("results", [])
    need(sorted(r["kernel"] for r in res) == sorted(kernels),
         "kernels %r" % [r.get("kernel") for r in res])
    others = [k for k in kernels if k != "baseline"]
    ppio = {}
    for r in res:
        check_result(r, need)
        ppio[r["kernel"]] = r["metrics"]["write_pages_per_io"] or 0
    for c in d.get("comparisons", []):
        need(c["reference"] == "baseline", "reference %r" % c["reference"])
        need(c["verdict"] in ("better", "worse", "no significant change",
                              "not measured", "changed"),
             "verdict %r" % c["verdict"])
    need(d.get("comparisons"), "no comparisons")
    check_verdicts(d, need)
    m = {r["kernel"]: r["metrics"] for r in res}
    if name in SAME_SWAP:
        # issue 9: the series reclaims and reads back what the baseline
        # does, within 2%, whatever it batches
        for c, k in ((c, k) for c in ("pswpout", "pswpin") for k in others):
            b = m.get("baseline", {}).get(c) or 0
            p = m.get(k, {}).get(c) or 0
            need(b > 0 and abs(p - b) <= same_swap_tol(name, b),
                 "%s %s %d vs baseline %d (%.4fx, not within %d%% or "
                 "the pressure phase's slack)"
                 % (k, c, p, b, p / b if b else 0, SAME_SWAP_TOL * 100))
    if name in SAME_SWAP:
        # issue 32 item 3: block I/O per page swapped (pgpgin/pgpgout,
        # KiB, counted by submit_bio()) as on the baseline: 4 KiB on a
        # disk, none on zram (->rw_page() is no bio); the 16-patch
        # series made zram count 4
        for io, sw in (("pgpgout", "pswpout"), ("pgpgin", "pswpin")):
            rel = {}
            for r in res:
                v = r.get("vmstat_all", {})
                rel[r["kernel"]] = v.get(io, 0) / max(v.get(sw, 0), 1)
            for k in others:
                b, p = rel.get("baseline", 0), rel.get(k, 0)
                need(abs(p - b) <= max(0.05 * b, 0.1),
                     "%s per page of %s: %s %.3f, baseline %.3f"
                     % (io, sw, k, p, b))
    if name in BATCHED:
        need(ppio.get("patched", 0) >= 8,
             "patched write pages/I/O %.2f < 8" % ppio.get("patched", 0))
    if name in RW_PAGE:
        for c, k in ((c, k) for c in ("write_pages_per_io",
                                      "read_pages_per_io") for k in others):
            b = m.get("baseline", {}).get(c)
            p = m.get(k, {}).get(c)
            need(b and p and abs(p / b - 1) <= 0.1,
                 "%s %s %r vs baseline %r on a ->rw_page() device"
                 % (k, c, p, b))
    if name == "bdev-swap":
        need(ppio.get("baseline", 99) <= 2,
             "baseline write pages/I/O %.2f > 2" % ppio.get("baseline", 99))
    if name == "thp-swap":
        for r in res:
            thp = r.get("vmstat_all", {}).get("thp_swpout", 0)
            need(thp > 0, "%s: no THP swapped out whole (thp_swpout %s)"
                 % (r["kernel"], thp))
        need(ppio.get("patched", 0) >= ppio.get("baseline", 0),
             "patched batches THPs less than baseline: %r" % ppio)
    if name == "nfs-swap":
        need(ppio.get("patched", 0) > 1.5,
             "NFS swap writes not batched: %.2f" % ppio.get("patched", 0))
    return errs, ppio


QUICK_KERNELS = ("baseline", "bhe-ops", "patched")


def scenario_params():
    """(shipped name, scenario to run): make check's are the backends'
    quick scenarios and QUICK_SHIPPED; every shipped one runs whole in
    make check-full (default is bdev-swap under another name)."""
    out = [pytest.param(n, quick(n), id="%s-quick" % n) for n in BACKENDS]
    for n in shipped():
        out.append(pytest.param(n, n, id=n, marks=() if n in QUICK_SHIPPED
                                else pytest.mark.full))
    return out


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name,scenario", scenario_params())
def test_scenario_on_both_kernels(runs, name, scenario):
    run = runs.get(scenario)
    assert run.json is not None, "no JSON on stdout: %r" % run
    if scenario == name:
        errs, ppio = check_summary(run.json, name)
    else:
        errs, ppio = check_summary(run.json, name, scenario.stem,
                                   QUICK_KERNELS)
    print("write pages/I/O: %r" % ppio)
    assert run.rc == 0 and not errs, "%r\n%s" % (run, "\n".join(errs))
    assert (run.dir / "summary.json").read_text() + "\n" == \
        run.result.out, "summary.json is not the --json output"
    assert (run.dir / "state").read_text().strip() == "done"
    runs.sw.assert_no_leftovers(run.dir)


@pytest.fixture(scope="module")
def recorded(runs):
    """A finished run to read back (bdev-swap-quick: shared with
    test_scenario_on_both_kernels when both run)."""
    run = runs.get(quick("bdev-swap"))
    if run.dir is None:
        pytest.fail("the bdev-swap-quick run left no run directory: %r"
                    % run)
    return run


@pytest.mark.boot
def test_registry_walk(sw, recorded):
    """Every metric of the registry: summary.json, report --json and top
    --once give the same value (tests/check-registry does the walk)."""
    sw.expect(0, "metrics", "--json")
    r = subprocess.run([str(REPO / "tests" / "check-registry"),
                        str(recorded.dir)], capture_output=True, text=True,
                       env=dict(os.environ, SWAPCTL=str(SWAPCTL)))
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.boot
def test_top_once_shows_both_kernels(sw, recorded):
    r = sw.expect(0, "top", "--once", recorded.dir)
    assert "write pages/I/O" in r.out, r.out[:300]
    assert "baseline" in r.out and "patched" in r.out


@pytest.mark.boot
def test_report_svg(sw, recorded, tmp_path):
    svg = tmp_path / "r.svg"
    sw.expect(0, "report", "--svg", svg, recorded.dir)
    assert "<svg" in svg.read_text()


@pytest.mark.boot
def test_wrong_verify_seed_counts_every_page_corrupt(runs, tmp_path):
    d = json.loads(quick("bdev-swap").read_text())
    d["name"] = "it-corrupt"
    d["kernels"] = ["baseline"]
    d["workload"]["verify_seed"] = d["workload"].get("seed", 12345) + 1
    d["expect"] = []
    path = tmp_path / "corrupt.json"
    path.write_text(json.dumps(d))
    run = runs.get(path)
    assert run.rc == EXIT_CORRUPT, run
    r = run.json["results"][0]["metrics"]
    assert r["pages_corrupt"] and r["pages_corrupt"] == r["pages_verified"]
    runs.sw.assert_no_leftovers(run.dir)


def designs():
    """The three-kernel scenarios (baseline, bhe-ops, swap-ops), issue 12."""
    return sorted(p.stem for p in (REPO / "scenarios").glob("designs-*.json"))


def check_designs(d, name, series="swap-ops"):
    """The --json object of a three-kernel run: what is wrong (empty when
    all is well). bhe-ops is He's "no functional change": the baseline's
    pages out and in within SAME_SWAP_TOL and its pages per I/O within
    10%; swap-ops (@series: "patched" in the quick scenarios) reclaims as
    much and batches block writes."""
    errs = []

    def need(cond, what):
        if not cond:
            errs.append(what)
    res = {r["kernel"]: r for r in d.get("results", [])}
    need(sorted(res) == sorted(["baseline", "bhe-ops", series]),
         "kernels %r" % sorted(res))
    for r in res.values():
        check_result(r, need)
    if errs:
        return errs
    base = res["baseline"]["metrics"]
    for k in ("bhe-ops", series):
        m = res[k]["metrics"]
        for c in ("pswpout", "pswpin"):
            b, p = base[c] or 0, m[c] or 0
            need(b > 0 and abs(p - b) <= same_swap_tol(
                name.replace("designs-", ""), b),
                 "%s %s %d vs baseline %d" % (k, c, p, b))
    bhe = res["bhe-ops"]["metrics"]
    for c in ("write_pages_per_io", "read_pages_per_io"):
        b, p = base[c], bhe[c]
        need(b and p and abs(p / b - 1) <= 0.1,
             "bhe-ops %s %r vs baseline %r" % (c, p, b))
    swo = res[series]["metrics"]["write_pages_per_io"]
    if name.replace("designs-", "") in RW_PAGE:
        b = base["write_pages_per_io"]
        need(b and swo and abs(swo / b - 1) <= 0.1,
             "swap-ops write pages/I/O %r vs baseline %r on a ->rw_page()"
             " device" % (swo, b))
    if name.replace("designs-", "") in BATCHED:
        need(swo >= 8, "swap-ops write pages/I/O %.2f < 8" % swo)
        need(bhe["write_pages_per_io"] < 2,
             "bhe-ops batches block writes: %.2f"
             % bhe["write_pages_per_io"])
    cmp = {(c["metric"], c["kernel"]) for c in d.get("comparisons", [])}
    for k in ("bhe-ops", series):
        need(("pswpout", k) in cmp, "no pswpout comparison for %s" % k)
    check_verdicts(d, need)
    return errs


def designs_params():
    """make check: each backend's quick scenario (its three kernels are
    designs-X's); make check-full: the shipped designs-X (all of them:
    designs-zswap-swap has no quick form, its zswap pool must overflow)."""
    out = []
    for n in designs():
        x = n.replace("designs-", "")
        if x in BACKENDS:
            out.append(pytest.param(n, quick(x), "patched",
                                    id="%s-quick" % x))
        out.append(pytest.param(n, n, "swap-ops", id=n,
                                marks=pytest.mark.full))
    return out


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name,scenario,series", designs_params())
def test_designs(runs, name, scenario, series):
    """The designs-* scenarios: the baseline and both designs in one run,
    judged by check_designs."""
    run = runs.get(scenario)
    assert run.json is not None, "no JSON on stdout: %r" % run
    errs = check_designs(run.json, name, series)
    print({r["kernel"]: (r["metrics"]["write_pages_per_io"],
                         r["metrics"]["pswpout"], r["metrics"]["pswpin"])
           for r in run.json["results"]})
    assert run.rc == 0 and not errs, "%r\n%s" % (run, "\n".join(errs))
    runs.sw.assert_no_leftovers(run.dir)


def test_designs_follow_their_scenarios():
    """A designs-X scenario is X on three kernels: same guest, swap,
    sysctls and workload, so its figures are X's."""
    assert designs(), "no designs-* scenario shipped"
    for n in designs():
        d = json.loads((REPO / "scenarios" / ("%s.json" % n)).read_text())
        x = json.loads((REPO / "scenarios" /
                        ("%s.json" % n.replace("designs-", ""))).read_text())
        assert d["kernels"] == ["baseline", "bhe-ops", "swap-ops"], n
        for k in set(d) | set(x):
            if k not in ("name", "description", "kernels", "expect"):
                assert d.get(k) == x.get(k), (n, k)


@pytest.mark.boot
def test_run_remakes_an_initramfs_older_than_swapctl(sw, guests):
    """The work dir's initramfs is remade from the guest programs next to
    swapctl before a run: one left from an older swapctl (here: a
    truncated file that boots no guest) must not be what the guest runs.
    Before this, such a guest refused the new plan's keys ("unknown key
    'drain'") and every kernel failed."""
    ird = sw.workdir / "kernels" / "initramfs.cpio"
    good = ird.read_bytes()
    try:
        ird.unlink()
        ird.write_bytes(good[:4096])
        r = sw.run("run", "--json", "--kernels", "baseline",
                   REPO / "tests" / "fixtures" / "bisect-zram-short.json",
                   timeout=900)
        assert r.rc == 0, r.tail()
        d = json.loads(r.out)
        assert d["results"][0]["status"] == "pass", d["results"]
        assert ird.read_bytes() == good
    finally:
        if ird.read_bytes() != good:
            ird.unlink()
            ird.write_bytes(good)


@pytest.mark.boot
def test_sigterm_while_waiting_for_the_run_lock(sw, kernels):
    """A run waiting for another's run.lock ends on SIGTERM with exit 130
    and one line saying so, and makes no run directory; it used to wait
    on (only SIGKILL ended it)."""
    runs_dir = sw.workdir / "runs"
    before = set(os.listdir(runs_dir)) if runs_dir.exists() else set()
    with open(sw.workdir / "run.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = sw.popen("run", REPO / "scenarios" / "bdev-swap.json",
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            line, end = "", time.monotonic() + 60
            while "waiting for another swapctl run" not in line and \
                    time.monotonic() < end and p.poll() is None:
                line = p.stderr.readline()
            assert "waiting for another swapctl run" in line, line
            p.send_signal(signal.SIGTERM)
            err = p.communicate(timeout=20)[1]
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
    assert p.returncode == EXIT_INTERRUPTED, (p.returncode, err)
    assert "run.lock: interrupted waiting for another swapctl run" in err, \
        err
    after = set(os.listdir(runs_dir)) if runs_dir.exists() else set()
    assert after == before, after - before
