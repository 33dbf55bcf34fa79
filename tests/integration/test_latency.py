# SPDX-License-Identifier: GPL-2.0
"""Swap-in latency (issue 19): the workload's own clock around each
swap-in touch of its verifying phases, on zram and a block device, every
kernel of the run. Shares the scenario runs of test_run.py (runs.get:
the backends' quick scenarios), so it boots no guest of its own when
both run. The latencies are checked for consistency (p50 <= p99 <= max,
within the phase's time, summed as the phases), never against a bound:
they are times of a shared host."""
import json
from pathlib import Path

import pytest

from harness import quick

VERIFYING = ("read", "willneed")
EVERY = 8    # AGENT_SWAPIN_EVERY, common/agentproto.h
KEYS = ("swapin_faults", "swapin_p50_us", "swapin_p99_us", "swapin_max_us")


def guest_lines(guestdir):
    with open(Path(guestdir) / "samples.jsonl") as f:
        return [json.loads(x) for x in f if x.strip()]


def check_guest(lines, metrics, zram):
    """What must hold for one guest: a list of what does not."""
    errs = []

    def need(cond, what):
        if not cond:
            errs.append(what)
    res = [x for x in lines if x.get("type") == "result"]
    ends = [x for x in lines if x.get("type") == "phase" and
            x.get("state") == "end"]
    need(len(res) == 1, "%d result lines" % len(res))
    if not res:
        return errs
    r = res[0]
    n, p50, p99, mx = (r.get(k) for k in KEYS)
    need(None not in (n, p50, p99, mx), "result without swapin_*: %r" % r)
    if None in (n, p50, p99, mx):
        return errs
    need(n > 0 and p99 > 0, "no swap-in timed: %r" % r)
    need(p50 <= p99 <= mx, "p50 %d p99 %d max %d" % (p50, p99, mx))
    need(n <= r["pages_verified"], "%d faults > %d verified"
         % (n, r["pages_verified"]))
    # the run's figures are the phases' histograms summed
    timed = [e for e in ends if e["name"] in VERIFYING]
    need(timed and all("swapin_faults" in e for e in timed),
         "a verifying phase without swapin_*")
    need(not any("swapin_faults" in e for e in ends
                 if e["name"] not in VERIFYING),
         "a write phase timed swap-ins")
    need(sum(e.get("swapin_faults", 0) for e in timed) == n,
         "phases' faults do not sum to the result's %d" % n)
    need(max(e.get("swapin_max_us", 0) for e in timed) == mx,
         "the result's max %d is not the phases' largest" % mx)
    for e in timed:
        need(e["swapin_max_us"] * 1000 <= e["ns"],
             "%s: max %d us beyond its %d ns" % (e["name"],
                                                 e["swapin_max_us"], e["ns"]))
    # only swap-ins are timed: never more than the pages read from swap
    pswpin = metrics["pswpin"]
    need(n <= pswpin, "%d timed swap-ins > pswpin %d" % (n, pswpin))
    # one page in EVERY is a candidate (a hash of the index): zram reads
    # each page synchronously, no read-ahead, so nearly every candidate
    # swapped in is a timed touch (a few pages are the agent's or init's)
    if zram:
        lo, hi = 0.9 * pswpin / EVERY, 1.1 * pswpin / EVERY
        need(lo <= n <= hi, "zram: %d timed of %d pswpin, not about one "
             "in %d: sampling off, or resident touches?"
             % (n, pswpin, EVERY))
    for k in KEYS:
        need(metrics[k] == r[k], "summary %s %r != result line %r"
             % (k, metrics[k], r[k]))
    return errs


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name", ["zram-swap", "bdev-swap"])
def test_swapin_latency_both_kernels(runs, name):
    run = runs.get(quick(name))
    assert run.json is not None and run.dir is not None, repr(run)
    d = run.json
    kernels = sorted({r["kernel"] for r in d["results"]})
    assert {"baseline", "patched"} <= set(kernels), kernels
    errs = []
    for r in d["results"]:
        g = "%s-%s" % (r["kernel"], r["rep"])
        lines = guest_lines(r["dir"])
        errs += ["%s: %s" % (g, e) for e in
                 check_guest(lines, r["metrics"], name == "zram-swap")]
    # compared like every metric: a verdict per kernel, lower is better
    comp = {(c["metric"], c["kernel"]) for c in d["comparisons"]}
    for k in KEYS:
        if ((k, "patched") not in comp):
            errs.append("no comparison of %s" % k)
    assert not errs, "\n".join(errs)
