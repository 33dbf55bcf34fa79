# SPDX-License-Identifier: GPL-2.0
"""Command workloads: the host's own programs in the guest (its root shared
read-only over 9p), in cgroups, with their outputs checked against a
reference run. make check runs the two one-guest tests (an output that
differs, a command that fails); make check-full the short stress-ng
(15 s per kernel, tests/fixtures/stress-ng-short.json), the short
kernel-build (two mm/ objects, about 3 minutes per kernel,
tests/fixtures/kernel-build-short.json) and the usemem pair. The full shipped scenarios (kernel-build, stress-ng, usemem, memcg-pair and their
zram twins) take minutes each: make bench runs kernel-build and
kernel-build-zram with --repeat 3, the others run by hand."""
import hashlib
import json
import re
import subprocess

import pytest

import harness
from harness import EXIT_CORRUPT, EXIT_GUEST, REPO


def guest_lines(run):
    """{guest dir name: [parsed lines of its samples.jsonl]}"""
    out = {}
    for d in sorted(run.dir.iterdir()):
        f = d / "samples.jsonl"
        if d.is_dir() and f.is_file():
            out[d.name] = [json.loads(x) for x in
                           f.read_text().splitlines() if x.strip()]
    return out


def of_type(lines, t):
    return [x for x in lines if x.get("type") == t]


def check_guest(name, lines, reference):
    """What is wrong with one guest's stream of a passing command run."""
    errs = []
    res = of_type(lines, "result")
    if len(res) != 1:
        return ["%s: %d result lines" % (name, len(res))]
    r = res[0]
    if r.get("status") != "pass":
        errs.append("%s: status %s (%s)" % (name, r.get("status"),
                                           r.get("reason")))
    # the write test inside the guest: the host's root refused it
    if r.get("host_root_ro") is not True:
        errs.append("%s: host_root_ro is %r" % (name, r.get("host_root_ro")))
    if not any("host root read-only" in x.get("msg", "") and
               "Read-only file system" in x.get("msg", "")
               for x in of_type(lines, "log")):
        errs.append("%s: no log line of the refused write" % name)
    if r.get("commands_failed") != 0 or not r.get("commands"):
        errs.append("%s: commands %r, failed %r" % (
            name, r.get("commands"), r.get("commands_failed")))
    ends = [x for x in of_type(lines, "command") if x["state"] == "end"]
    lim = [x for x in ends if x["run"] == "limited"]
    if not lim or any(x["exit"] != 0 for x in lim):
        errs.append("%s: limited runs %r" % (name, lim))
    if reference:
        ref = {x["group"]: x for x in ends if x["run"] == "reference"}
        if not r.get("outputs_compared"):
            errs.append("%s: no output compared" % name)
        if r.get("outputs_differ") != 0:
            errs.append("%s: %r outputs differ" % (name,
                                                  r.get("outputs_differ")))
        for x in lim:
            want = ref.get(x["group"], {}).get("outputs_sha256")
            if not want or x.get("outputs_sha256") != want:
                errs.append("%s: group %s outputs %r, reference %r" % (
                    name, x["group"], x.get("outputs_sha256"), want))
    phases = [x for x in of_type(lines, "phase") if x["state"] == "end"]
    if [p["name"] for p in phases] != ["command"]:
        errs.append("%s: phases %r" % (name, [p["name"] for p in phases]))
    return errs


def check_run(run, reference):
    assert run.json is not None, "no JSON on stdout: %r" % run
    d = run.json
    errs = []
    res = d.get("results", [])
    if sorted(r["kernel"] for r in res) != ["baseline", "patched"]:
        errs.append("kernels %r" % [r.get("kernel") for r in res])
    for r in res:
        k = r["kernel"]
        if r["status"] != "pass":
            errs.append("%s: %s (%s)" % (k, r["status"], r.get("reason")))
        m = r["metrics"]
        if not (m.get("pswpout") or 0) > 0:
            errs.append("%s: nothing swapped out" % k)
        if r["console_problems"]:
            errs.append("%s: console: %s" % (k, r["console_first_problem"]))
        if m.get("workload_seconds") is None:
            errs.append("%s: no workload time" % k)
    for name, lines in guest_lines(run).items():
        errs += check_guest(name, lines, reference)
    assert run.rc == 0 and not errs, "%r\n%s" % (run, "\n".join(errs))
    run_sw = harness.SESSION
    if run_sw:
        run_sw.assert_no_leftovers(run.dir)


def kbuild_tree(sw):
    trees = list(sw.workdir.glob("kbuild/*-tinyconfig/.swapctl-prepared"))
    return trees[0].parent if len(trees) == 1 else None


@pytest.fixture(scope="module")
def kbuild_ready(guests, tmp_path_factory):
    """The tree kernel-build compiles, prepared in the test work dir from
    its extracted source (the default work dir's when kernels are
    borrowed). Preparing it builds mm/ of a tinyconfig tree on the host
    (about a minute at -j2): under the default work dir's build lock, so
    the run that prepares it boots one guest that only runs true."""
    sw = guests
    src = sw.workdir / "src"
    theirs = harness.default_workdir() / "src"
    if not src.exists() and theirs.is_dir():
        src.symlink_to(theirs)
    out = kbuild_tree(sw)
    if out and (out / "swapctl-kbuild.mk").is_file():
        return sw
    d = json.loads((REPO / "tests" / "fixtures" /
                    "kernel-build-short.json").read_text())
    d["name"] = "it-kbuild-prepare"
    d["kernels"] = ["baseline"]
    d["expect"] = []
    d["timeout_s"] = 120
    d["workload"]["command"]["reference"] = False
    d["workload"]["command"]["groups"] = [{"name": "true", "argv": ["true"]}]
    path = tmp_path_factory.mktemp("kbuild") / "prepare.json"
    path.write_text(json.dumps(d))
    with harness.default_build_lock():
        r = sw.run("run", "--json", path, timeout=1800)
    out = kbuild_tree(sw)
    if not out or not (out / "swapctl-kbuild.mk").is_file():
        pytest.fail("the kernel tree was not prepared: %r" % r)
    return sw


def host_digest(out, objs):
    """outputs_sha256 the guest reports for OBJS of the tree OUT, computed
    from the objects Kbuild built on the host (out/host-objs/)."""
    lines = []
    for o in sorted(objs):
        data = (out / "host-objs" / o).read_bytes()
        lines.append("%s %s\n" % (out / o, hashlib.sha256(data).hexdigest()))
    return hashlib.sha256("".join(sorted(lines)).encode()).hexdigest()


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_stress_ng_verifies_on_both_kernels(runs):
    run = runs.get(REPO / "tests" / "fixtures" / "stress-ng-short.json")
    check_run(run, reference=False)


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_kernel_build_objects_identical_on_both_kernels(runs, kbuild_ready):
    """Both kernels swap while building, and the objects are those of the
    unlimited reference run in the same guest and those Kbuild built on the
    host: gcc's output does not depend on the swapping under it."""
    fixture = REPO / "tests" / "fixtures" / "kernel-build-short.json"
    run = runs.get(fixture)
    check_run(run, reference=True)
    argv = json.loads(fixture.read_text())["workload"]["command"][
        "groups"][0]["argv"]
    want = host_digest(kbuild_tree(kbuild_ready),
                       [a for a in argv if a.endswith(".o")])
    for name, lines in guest_lines(run).items():
        for x in of_type(lines, "command"):
            if x["state"] == "end":
                assert x.get("outputs") == 2 and \
                    x.get("outputs_sha256") == want, (name, x, want)


def one_kernel(tmp_path, name, groups, reference):
    d = json.loads((REPO / "tests" / "fixtures" /
                    "stress-ng-short.json").read_text())
    d["name"] = name
    d["kernels"] = ["baseline"]
    d["expect"] = []
    d["timeout_s"] = 90
    d["workload"] = {"command": {"reference": reference, "groups": groups}}
    path = tmp_path / (name + ".json")
    path.write_text(json.dumps(d))
    return path


@pytest.mark.boot
def test_outputs_that_differ_from_the_reference_fail(runs, tmp_path):
    """The comparison can fail: a command whose output changes between
    runs (the time) must make the run corrupt."""
    path = one_kernel(tmp_path, "it-differ", [{
        "name": "clock",
        "argv": ["sh", "-c", "date +%s%N > /tmp/out"],
        "memory_max_mb": 64,
        "outputs": ["/tmp/out"]}], True)
    run = runs.get(path)
    assert run.rc == EXIT_CORRUPT, run
    lines = list(guest_lines(run).values())[0]
    r = of_type(lines, "result")[0]
    assert r["status"] == "corrupt" and r["outputs_differ"] == 1, r
    assert r["outputs_compared"] == 1 and r["host_root_ro"] is True, r
    runs.sw.assert_no_leftovers(run.dir)


@pytest.mark.boot
def test_failing_command_is_a_guest_error(runs, tmp_path):
    """A command that exits non-zero fails the run, naming the group."""
    path = one_kernel(tmp_path, "it-fail", [{
        "name": "falls",
        "argv": ["sh", "-c", "echo about to fail; exit 3"],
        "memory_max_mb": 64}], False)
    run = runs.get(path)
    assert run.rc == EXIT_GUEST, run
    r = run.json["results"][0]
    assert "group falls (limited run): sh exited with status 3" in \
        (r.get("reason") or ""), r
    lines = list(guest_lines(run).values())[0]
    assert any("about to fail" in x.get("msg", "")
               for x in of_type(lines, "log")), "no log of its output"
    runs.sw.assert_no_leftovers(run.dir)


def test_command_scenarios_validate(sw):
    names = [p.stem for p in (REPO / "scenarios").glob("*.json")
             if "command" in json.loads(p.read_text())["workload"]]
    assert len(names) >= 8, names
    for n in names + ["../tests/fixtures/kernel-build-short",
                      "../tests/fixtures/stress-ng-short"]:
        sw.expect(0, "validate", REPO / "scenarios" / (n + ".json"))


# Issue 19's pairs: each *-global scenario is its memcg twin with the
# memory cgroup limits taken away and the guest made small enough that
# the same workload is pushed out by global reclaim.
PAIRS = {"usemem": "usemem-global", "kernel-build": "kernel-build-global"}


def test_global_twins_differ_only_in_the_limits():
    for memcg, glob in PAIRS.items():
        a = json.loads((REPO / "scenarios" / (memcg + ".json")).read_text())
        b = json.loads((REPO / "scenarios" / (glob + ".json")).read_text())
        assert b["guest"]["memory_mb"] < a["guest"]["memory_mb"], glob
        for g in a["workload"]["command"]["groups"]:
            assert g.pop("memory_max_mb") < a["guest"]["memory_mb"], memcg
        for g in b["workload"]["command"]["groups"]:
            assert "memory_max_mb" not in g and "memory_high_mb" not in g, \
                (glob, g)
        for d in (a, b):
            for k in ("name", "description"):
                del d[k]
            del d["guest"]["memory_mb"]
        assert a == b, (memcg, glob)


def group_peaks(run):
    """{guest: {group: memory_peak_kb}} of the limited runs."""
    out = {}
    for name, lines in guest_lines(run).items():
        out[name] = {x["group"]: x["memory_peak_kb"]
                     for x in of_type(lines, "command")
                     if x["state"] == "end" and x["run"] == "limited"}
    return out


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_usemem_pair_memcg_and_global(runs):
    """usemem under its 64 MiB memory.max per group, and usemem-global
    without limits in a 160 MiB guest: both kernels swap in both, every
    usemem pass verifies; in the memcg half no group's peak exceeds its
    limit, in the global half a group grows beyond it (no memcg limit
    acted: the pressure was global)."""
    limits = {g["name"]: g["memory_max_mb"] * 1024 for g in json.loads(
        (REPO / "scenarios" / "usemem.json").read_text())["workload"][
            "command"]["groups"]}
    memcg = runs.get(REPO / "scenarios" / "usemem.json")
    check_run(memcg, reference=False)
    for name, peaks in group_peaks(memcg).items():
        assert peaks and all(peaks[g] <= limits[g] for g in peaks), \
            (name, peaks, limits)
    glob = runs.get(REPO / "scenarios" / "usemem-global.json")
    check_run(glob, reference=False)
    for name, peaks in group_peaks(glob).items():
        assert any(peaks[g] > limits[g] for g in peaks), \
            (name, peaks, limits)
    for run in (memcg, glob):
        ppio = {r["kernel"]: r["metrics"]["write_pages_per_io"]
                for r in run.json["results"]}
        assert ppio["patched"] >= 4 * ppio["baseline"], (run, ppio)


def test_usemem_forkers_fork_and_are_reaped(tmp_path):
    """usemem --forkers (cg-nfs-fork's lock contention) on the host, no
    guest: the forkers' children are counted and reaped, every page
    verifies, and a count beyond the limit is refused with exit 2."""
    usemem = REPO / "guest" / "build" / "usemem"
    r = subprocess.run([str(usemem), "--mb", "8", "--passes", "2",
                        "--forkers", "2", "--readers", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r
    # the summary line; vm-scalability's "N bytes / N usecs" lines follow
    m = re.search(r" corrupt=(\d+) .* forkers=2 forks=(\d+) "
                  r"bad_forkers=(\d+)$", r.stdout, re.M)
    assert m, r.stdout
    assert m.group(1) == "0" and m.group(3) == "0", r.stdout
    assert int(m.group(2)) > 0, r.stdout
    r = subprocess.run([str(usemem), "--forkers", "65"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--forkers" in r.stderr, r
