# SPDX-License-Identifier: GPL-2.0
"""Power (issue 19): --repeat auto stops when the power targets' minimum
detectable effect reaches the goal, --icount makes guest time count
instructions (so time metrics stop varying with the host's load), and the
refusals of the options. The formulas themselves are unit-tested in
tests/test_results.c (test_mde_repeats)."""
import json

import pytest

from harness import EXIT_USAGE, REPO


@pytest.mark.parametrize("args, says", [
    (["--effect", "2x"], "'--effect': '2x'"),
    (["--effect", "0"], "'--effect': '0'"),
    (["--repeat-limit", "5"], "is for '--repeat auto'"),
    (["--repeat", "auto", "--repeat-limit", "2"], "'--repeat-limit': '2'"),
    (["--icount", "11"], "'--icount': '11'"),
    (["--metric", "nosuch"], "'nosuch': no such metric"),
    (["--repeat", "bogus"], "'--repeat': 'bogus'"),
])
def test_power_options_refused(sw, args, says):
    r = sw.expect(EXIT_USAGE, "run", "--dry-run", *args,
                  REPO / "scenarios" / "zram-swap.json")
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r


def test_repeat_auto_dry_run_names_the_goal(sw):
    r = sw.expect(0, "run", "--dry-run", "--repeat", "auto", "--effect",
                  "2%", "--repeat-limit", "4",
                  REPO / "scenarios" / "zram-swap.json")
    assert "# repeats: auto, 3 to 4 runs per kernel" in r.out, r
    assert "mde <= 2%" in r.out, r


def test_icount_dry_run_domain(sw):
    r = sw.run("run", "--dry-run", "--icount", "3",
               REPO / "scenarios" / "zram-swap.json")
    if r.rc == EXIT_USAGE and "KVM" in r.err:
        pytest.skip("KVM here: --icount is refused (%s)" % r.err.strip())
    assert r.rc == 0, r
    assert "<qemu:arg value='shift=3,sleep=off'/>" in r.out, r
    assert "<vcpu>1</vcpu>" in r.out.replace(" placement='static'", ""), r


def test_icount_gives_groups_the_one_cpu(sw):
    """--icount runs one vCPU: a command group asking for 2 CPUs (the
    kernel-build pair's) gets the one, said on stderr, instead of the
    guest refusing the group (cpus=2 but the guest has 1 CPUs)."""
    r = sw.run("run", "--dry-run", "--icount", "3",
               REPO / "tests" / "fixtures" / "stress-ng-short.json")
    if r.rc == EXIT_USAGE and "KVM" in r.err:
        pytest.skip("KVM here: --icount is refused (%s)" % r.err.strip())
    assert r.rc == 0, r
    assert "group name=stress memory_max_mb=48 cpus=1" in r.out, r
    assert "group stress gets the guest's 1 CPU instead of cpus 2" in r.err, r
    plain = sw.expect(0, "run", "--dry-run",
                      REPO / "tests" / "fixtures" / "stress-ng-short.json")
    assert "group name=stress memory_max_mb=48 cpus=2" in plain.out, plain


def test_icount_leaves_the_time_limit_to_the_host(sw):
    """Under -icount sleep=off the guest's clock jumps over idle waits
    (a bdev-swap guest's watchdog fired at 240 guest seconds after 42 s
    of host time): the guest gets the longest timeout_s and the
    scenario's stays the host's limit, in host time."""
    scn = REPO / "scenarios" / "bdev-swap.json"
    limit = json.loads(scn.read_text())["timeout_s"]
    r = sw.run("run", "--dry-run", "--icount", "3", scn)
    if r.rc == EXIT_USAGE and "KVM" in r.err:
        pytest.skip("KVM here: --icount is refused (%s)" % r.err.strip())
    assert r.rc == 0, r
    assert "\ntimeout_s 86400\n" in r.out, r
    plain = sw.expect(0, "run", "--dry-run", scn)
    assert "\ntimeout_s %d\n" % limit in plain.out, plain


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_repeat_auto_with_icount(guests, tmp_path):
    """zram-swap under --icount 3 with --repeat auto on pswpout (a count
    that barely varies: auto's goal of 10% is reached at its minimum of 3
    repeats, 4 at most; its mde was 5% at 3): every guest boots and finishes under virtual
    time, the run says so, and auto stops within its limit. The spread
    of workload_seconds under icount (cv 0.02-0.7% here, plain TCG 10%;
    make bench-cost measures it) is printed, not judged: it was asserted
    under 3% (and its mde_noise under 5%), which is a time of a shared
    host. The scenario's no_regression list is dropped: under icount
    swap-ops' ~4% more instructions on zram would be a regression (exit
    12), which is a finding, not what this test checks."""
    scn = json.loads((REPO / "scenarios" / "zram-swap.json").read_text())
    scn["name"] = "zram-swap-power"
    scn["no_regression"] = []
    path = tmp_path / "zram-swap-power.json"
    path.write_text(json.dumps(scn))
    sw = guests
    r = sw.run("run", "--json", "--repeat", "auto", "--repeat-limit", "4",
               "--effect", "10%", "--metric", "pswpout",
               "--icount", "3", path, timeout=2400)
    if r.rc == EXIT_USAGE and "KVM" in r.err:
        pytest.skip("KVM here: --icount is refused")
    d = r.json()
    assert r.rc == 0, r
    assert d["icount_shift"] == 3, d["icount_shift"]
    auto = d["power"]["repeat_auto"]
    assert auto["reached"] is True and auto["repeats"] in (3, 4), auto
    n = auto["repeats"]
    assert d["repeat"] == n, d["repeat"]
    assert len(d["results"]) == 2 * n, [x["name"] for x in d["results"]]
    assert all(x["status"] == "pass" and x["metrics"]["pages_corrupt"] == 0
               for x in d["results"])
    cmp = {c["metric"]: c for c in d["comparisons"]}
    assert cmp["pswpout"]["repeats_needed"]["effect"] == 0.1, cmp
    w = cmp["workload_seconds"]
    print("workload_seconds under icount: mde_noise %r, cv %r"
          % (w["mde_noise"], {k: d["kernels"][k]["workload_seconds"]
                              ["stddev"] / d["kernels"][k]
                              ["workload_seconds"]["mean"]
                              for k in ("baseline", "patched")}))
