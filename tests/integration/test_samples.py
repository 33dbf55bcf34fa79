# SPDX-License-Identifier: GPL-2.0
"""What the guest reports beyond pages per I/O (issue 10): guest CPU time
by class, PSI memory totals, the residency check after each push-out
phase, the host's CPU time for the guest; and PSI on zram (issue 9:
the synchronous read is a memory stall on the patched kernel too)."""
import json

import pytest

from harness import quick


def lines(guest_dir):
    """samples.jsonl of one guest, by type."""
    out = {"sample": [], "phase": [], "host": []}
    with open(guest_dir / "samples.jsonl") as f:
        for line in f:
            o = json.loads(line)
            if o.get("type") in out:
                out[o["type"]].append(o)
    return out


def check_guest(r):
    """(errors, PSI some growth in us, pageout (evicted, asked))."""
    from pathlib import Path
    errs = []

    def need(cond, what):
        if not cond:
            errs.append("%s: %s" % (r["kernel"], what))
    g = lines(Path(r["dir"]))
    s = g["sample"]
    need(len(s) >= 2, "%d samples" % len(s))
    if len(s) < 2:
        return errs, 0, (0, 0)
    a, b = s[0], s[-1]
    need("cpu_ns" in a and "cpu_ns" in b, "no cpu_ns in the samples")
    need("psi" in a and "psi" in b, "no psi in the samples (CONFIG_PSI?)")
    if "cpu_ns" in a and "cpu_ns" in b:
        need(b["cpu_ns"]["system"] > a["cpu_ns"]["system"],
             "no system CPU time spent")
    psi = b["psi"]["some_us"] - a["psi"]["some_us"] \
        if "psi" in a and "psi" in b else 0
    # the "mem" gauges, and the metrics made of them, from the raw lines
    mem = [(x["t_ns"], x["mem"]) for x in s if "mem" in x]
    need(len(mem) == len(s), "%d of %d samples without mem"
         % (len(s) - len(mem), len(s)))
    if mem:
        m = r["metrics"]
        free = [x["free_kb"] for _, x in mem]
        need(all(x["min_kb"] > 0 for _, x in mem), "a min watermark of 0")
        need(0 < min(free) < max(free), "free memory flat: %d" % min(free))
        need(m["free_low_kib"] == min(free), "free_low_kib %r, samples %d"
             % (m["free_low_kib"], min(free)))
        wb = max(x["writeback_kb"] for _, x in mem)
        need(m["writeback_peak_kib"] == wb, "writeback_peak_kib %r, "
             "samples %d" % (m["writeback_peak_kib"], wb))
        below = sum(t1 - t0 for (t0, _), (t1, x) in zip(mem, mem[1:])
                    if x["free_kb"] < x["min_kb"]) / 1e9
        need(abs(m["below_min_s"] - below) < 0.05, "below_min_s %r, "
             "samples %.3f" % (m["below_min_s"], below))
    h = g["host"]
    need(h and "cpu_ns" in h[-1] and h[-1]["cpu_ns"]["total"] > 0,
         "no host cpu_ns")
    tot = [x["cpu_ns"]["total"] for x in h if "cpu_ns" in x]
    # a domain that shut off reported 0 ns once: no sample may go back
    need(all(b >= a > 0 for a, b in zip(tot, tot[1:])),
         "host cpu_ns not increasing: %r" % tot[-3:])
    ends = [p for p in g["phase"] if p["state"] == "end"]
    out = [p for p in ends if p["name"] in ("pageout", "pressure", "rewrite")]
    need(out, "no push-out phase ended")
    for p in out:
        need("asked" in p and "evicted" in p,
             "%s end without residency" % p["name"])
    for p in ends:
        need("ns" in p, "%s end without ns" % p["name"])
    po = [p for p in out if p["name"] == "pageout"]
    return errs, psi, (sum(p.get("evicted", 0) for p in po),
                       sum(p.get("asked", 0) for p in po))


def phase_psi(r, name):
    """Over the phases named @name: (PSI memory 'some' growth in us,
    the phases' own time in us, pages swapped in), from the samples
    around each phase (the last before its start, the first after its
    end)."""
    from pathlib import Path
    g = lines(Path(r["dir"]))
    s = [x for x in g["sample"] if "psi" in x]
    start, psi, us, pswpin = {}, 0, 0, 0
    for p in g["phase"]:
        if p["name"] != name:
            continue
        if p["state"] == "start":
            start[p.get("index")] = p["t_ns"]
            continue
        t0 = start.get(p.get("index"))
        if t0 is None or not s:
            continue
        a = [x for x in s if x["t_ns"] <= t0] or s[:1]
        b = [x for x in s if x["t_ns"] >= p["t_ns"]] or s[-1:]
        psi += b[0]["psi"]["some_us"] - a[-1]["psi"]["some_us"]
        pswpin += b[0]["vmstat"].get("pswpin", 0) - \
            a[-1]["vmstat"].get("pswpin", 0)
        us += p.get("ns", 0) / 1000
    return psi, us, pswpin


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name", ["zram-swap", "bdev-swap"])
def test_samples_carry_cpu_psi_residency(runs, name):
    run = runs.get(quick(name))
    assert run.json is not None, run
    errs = []
    for r in run.json["results"]:
        e, psi, ev = check_guest(r)
        errs += e
        m = r["metrics"]
        print("%s: PSI some +%d us, pageout evicted %d of %d, free low "
              "%r KiB, %r s below min, writeback peak %r KiB"
              % (r["kernel"], psi, ev[0], ev[1], m["free_low_kib"],
                 m["below_min_s"], m["writeback_peak_kib"]))
        # virtio-blk writes are in flight long enough for a sample to
        # see them; zram's complete before swap_writepage returns
        if name == "bdev-swap" and m["writeback_peak_kib"] <= 0:
            errs.append("%s: no writeback seen on bdev-swap" % r["kernel"])
    assert not errs, "\n".join(errs)


@pytest.mark.boot
@pytest.mark.slow
def test_zram_psi_grows_on_both_kernels(runs):
    """Issue 9's PSI must-show on zram-swap (make check: its quick
    scenario): MADV_PAGEOUT and the reads after it do not stall, its
    pressure phase does (direct reclaim, and kswapd, which PSI counts
    too). On every kernel 'some' must grow, over the run and in the
    pressure phase. How much is printed, not judged: 'some' is stalled
    time, which a loaded host's TCG stretches on one guest and not the
    other (the pressure phase's 'some' total was 0.28x and 1.09x of the
    baseline's in two runs; its share of the phase's time 0.81x and
    0.95x, 0.96x-1.15x in five interleaved repeats, make bench,
    2026-12-03); a bound on it was a wall-clock assert.

    Not covered: the workingset refault stall of a synchronous swap-in
    (issue 9, defect 2). No page swapped in here is a workingset page
    (workingset_restore_anon stays 0 on both kernels); what 'some' grows
    by during the read after the pressure phase is kswapd, 0.0002 to
    2.5 us per page swapped in, either kernel the larger."""
    run = runs.get(quick("zram-swap"))
    assert run.json is not None, run
    psi, share, errs = {}, {}, []
    for r in run.json["results"]:
        k = r["kernel"]
        e, psi[k], _ = check_guest(r)
        errs += e
        ps, us, _ = phase_psi(r, "pressure")
        share[k] = ps / us if us else 0
    print("PSI memory some growth (us): %r; stalled share of the pressure "
          "phase: %r" % (psi, share))
    assert not errs, "\n".join(errs)
    assert {"baseline", "patched"} <= set(psi), sorted(psi)
    for what, v in (("some", psi), ("pressure share", share)):
        assert all(x > 0 for x in v.values()), \
            "PSI %s does not grow on every kernel: %r" % (what, v)
