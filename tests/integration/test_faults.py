# SPDX-License-Identifier: GPL-2.0
"""The fault scenarios (scenarios/fault-*.json), both kernels: each fault
is injected and reported (fault lines start and end in samples.jsonl), no
page is ever corrupt, loud failures (SIGBUS) only where an error reached a
read, and nothing is left behind. The runs are shared with test_run.py's
test_scenario_on_both_kernels (the `runs` fixture runs each once)."""
import json
from pathlib import Path

import pytest

from harness import REPO


def lines(guest_dir, kind):
    """The JSON lines of @kind in a guest's samples.jsonl."""
    out = []
    with open(guest_dir / "samples.jsonl") as f:
        for raw in f:
            d = json.loads(raw)
            if d.get("type") == kind:
                out.append(d)
    return out


def check_common(run, fault, host=False):
    """What every fault run must show; returns {kernel: result}."""
    assert run.json is not None, "no JSON on stdout: %r" % run
    res = {r["kernel"]: r for r in run.json["results"]}
    assert sorted(res) == ["baseline", "patched"], run
    for k, r in res.items():
        m = r["metrics"]
        assert m["pages_corrupt"] == 0, "%s: %s corrupt" % (k, m)
        assert r["console_problems"] == 0, r.get("console_first_problem")
        ev = lines(Path(r["dir"]), "fault")
        mine = [e for e in ev if e["name"] == fault]
        states = [e["state"] for e in mine]
        assert states[:1] == ["start"] and "end" in states, \
            "%s: fault lines %r" % (k, ev)
        # host faults carry no seq (the host wrote them), guest ones do
        assert all(("seq" in e) != host for e in mine), mine
        assert all(e.get("index") == 0 for e in mine), mine
    return res


@pytest.mark.boot
@pytest.mark.slow
def test_read_errors_fail_loudly_never_silently(runs):
    run = runs.get("fault-read-error")
    res = check_common(run, "io_error")
    failed = {}
    for k, r in res.items():
        m = r["metrics"]
        # 16 bad slots: the pages on them fail loudly (SIGBUS) ...
        assert m["pages_failed_distinct"] >= 1, (k, m)
        assert m["swap_read_errors"] >= 1, (k, m)
        # ... and every other page is verified
        assert m["pages_verified"] > 0
        failed[k] = m["pages_failed_distinct"]
    print("pages failed for 16 bad slots: %r" % failed)
    # a batch must not fail for one bad slot
    assert failed["patched"] <= failed["baseline"], failed
    assert run.rc == 0, run


@pytest.mark.boot
@pytest.mark.slow
def test_write_errors_keep_every_page(runs):
    run = runs.get("fault-write-error")
    res = check_common(run, "io_error")
    for k, r in res.items():
        m = r["metrics"]
        assert m["pages_failed"] == 0, (k, m)
        assert m["swap_write_errors"] >= 1, (k, m)
        # every page verified in both reads, some came back from swap
        assert m["pages_verified"] == 2 * 24576, (k, m)
        assert m["pswpin"] > 0, (k, m)
    assert run.rc == 0, run


def counter_around(guest_dir, fault, counter):
    """@counter (a vmstat name) in the last sample before @fault's end
    line and in the last sample of the run."""
    at_end, last = None, None
    with open(guest_dir / "samples.jsonl") as f:
        for raw in f:
            d = json.loads(raw)
            if d.get("type") == "sample":
                last = d.get("vmstat", {}).get(counter, last)
            elif d.get("type") == "fault" and d.get("name") == fault and \
                    d.get("state") == "end":
                at_end = last
    return at_end, last


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name,fault", [
    ("fault-nfs-stall", "nfs_stall"), ("fault-nfs-restart", "nfs_restart")])
def test_nfs_server_faults_recover(runs, name, fault):
    run = runs.get(name)
    res = check_common(run, fault, host=True)
    for k, r in res.items():
        m = r["metrics"]
        assert m["pages_failed"] == 0, (k, m)
        assert m["pages_verified"] == 16384, (k, m)
        assert m["pswpin"] > 0, (k, m)
        # the guest went on swapping in from the server after it came
        # back (the fault hit the read phase, not a finished workload)
        at_end, last = counter_around(Path(r["dir"]), fault, "pswpin")
        assert at_end is not None and last > at_end, (k, at_end, last)
        assert r["status"] == "pass", (k, r.get("reason"))
    assert run.rc == 0, run
    # no ganesha.nfsd (stopped or restarted) and no qemu left
    runs.sw.assert_no_leftovers(run.dir)


@pytest.mark.boot
@pytest.mark.slow
def test_swapoff_under_load_verifies_every_page(runs):
    run = runs.get("fault-swapoff")
    res = check_common(run, "swapoff")
    for k, r in res.items():
        m = r["metrics"]
        assert m["pages_failed"] == 0, (k, m)
        assert m["pages_verified"] == 2 * 24576, (k, m)
        end = [e for e in lines(Path(r["dir"]),
                                "fault") if e["state"] == "end"]
        assert "done in" in end[0]["detail"], end
        assert "on again" in end[0]["detail"], end
        # until_phase 4: swap is on again before the second pageout starts
        ph = [p for p in lines(Path(r["dir"]), "phase")
              if p["index"] == 4 and p["state"] == "start"]
        assert ph and ph[0]["t_ns"] > end[0]["t_ns"], (k, end, ph)
    assert run.rc == 0, run


@pytest.mark.boot
@pytest.mark.slow
def test_swap_churn(runs):
    run = runs.get("fault-swap-churn")
    res = check_common(run, "swap_churn")
    for k, r in res.items():
        m = r["metrics"]
        assert m["pages_failed"] == 0, (k, m)
        assert m["pages_verified"] == 3 * 16384, (k, m)
        end = [e for e in lines(Path(r["dir"]),
                                "fault") if e["state"] == "end"]
        assert " 0 failed" in end[0]["detail"], end
        # "N swapoff/swapon cycles on ...": the loop ran while pages
        # were out (swapoff brought them back in)
        cycles = int(end[0]["detail"].split()[0])
        assert cycles >= 3, end
        assert m["pswpout"] > 0 and m["pswpin"] > 0, (k, m)
    assert run.rc == 0, run


@pytest.mark.boot
@pytest.mark.slow
def test_oom_is_the_expected_outcome(runs):
    run = runs.get("fault-oom")
    res = check_common(run, "oom")
    for k, r in res.items():
        results = lines(Path(r["dir"]), "result")
        assert [x["status"] for x in results] == ["oom"], (k, results)
        assert r["oom_kills"] >= 1, (k, r)
        assert r["status"] == "pass", (k, r.get("reason"))
        # pages verified before the OOM killer took the workload
        assert r["metrics"]["pages_verified"] > 0, (k, r["metrics"])
        end = [e for e in lines(Path(r["dir"]),
                                "fault") if e["state"] == "end"]
        assert "the OOM killer ran" in end[0]["detail"], end
    assert run.rc == 0, run
    runs.sw.assert_no_leftovers(run.dir)
