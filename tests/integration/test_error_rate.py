# SPDX-License-Identifier: GPL-2.0
"""tools/error-rate (make bench-nfs-debug): guests with swap write errors
per kernel, pooled over runs, and Fisher's exact p; no guest needed."""
import json
import subprocess

from harness import REPO

TOOL = REPO / "tools" / "error-rate"


def run_json(path, guests):
    """A `swapctl run --json` object with @guests (kernel, write errors,
    deferred write batches or None[, s below min, free low KiB])."""
    def metrics(w, d, mem):
        m = {"swap_write_errors": w, "swap_read_errors": 0,
             "nrswpout_deferred": d}
        if mem:
            m["below_min_s"], m["free_low_kib"] = mem
        return m
    path.write_text(json.dumps({"results": [
        {"kernel": g[0], "console_problems": [],
         "metrics": metrics(g[1], g[2], g[3:])} for g in guests]}))
    return path


def rows(out):
    return {r[0]: r[1:] for r in
            ([c.strip() for c in line.strip("|").split("|")]
             for line in out.splitlines()[2:])}


def test_pooled_counts_and_fisher(tmp_path):
    # 7 guests each over two runs: 2 of 7 of the series, 0 of 7 of the
    # baseline (the debug cg-nfs-fork runs of 2026-12-06/07) -> p 0.231
    a = run_json(tmp_path / "a.json",
                 [("baseline", 0, None), ("patched", 10, 20)] +
                 [("baseline", 0, None), ("patched", 0, 5)] * 2)
    b = run_json(tmp_path / "b.json",
                 [("baseline", 0, None), ("patched", 0, 3)] * 3 +
                 [("baseline", 0, None), ("patched", 7, 1)])
    r = subprocess.run([str(TOOL), a, b], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    t = rows(r.stdout)
    assert t["baseline"] == ["7", "0", "0", "0", "0", "-", "-", "-", "-"], t
    assert t["patched"] == ["7", "2", "17", "0", "0", "40", "-", "-",
                            "0.231"], t


def test_clear_difference_is_significant(tmp_path):
    # 5 of 10 against 0 of 10: p = C(10,5)/C(20,5) = 0.0163
    a = run_json(tmp_path / "a.json",
                 [("baseline", 0, None)] * 10 +
                 [("patched", 1, 0)] * 5 + [("patched", 0, 0)] * 5)
    r = subprocess.run([str(TOOL), a], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert rows(r.stdout)["patched"][-1] == "0.016", r.stdout


def test_medians_of_the_mem_gauges(tmp_path):
    # guests that sent the mem gauges, and one older guest that did not
    a = run_json(tmp_path / "a.json",
                 [("baseline", 0, None, 2.9, 2332),
                  ("baseline", 0, None, 0.4, 3000),
                  ("baseline", 0, None, 1.0, 2500),
                  ("patched", 0, 1, 0.2, 3476),
                  ("patched", 0, 1, 0.6, 3000),
                  ("patched", 1, 1)])
    r = subprocess.run([str(TOOL), a], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    t = rows(r.stdout)
    assert t["baseline"][6:8] == ["1.0", "2500"], t
    assert t["patched"][6:8] == ["0.4", "3238"], t


def test_refusals(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = subprocess.run([str(TOOL), bad], capture_output=True, text=True)
    assert r.returncode == 1 and "bad.json: no \"results\" or \"guests\"" \
        in r.stderr, r
    a = run_json(tmp_path / "a.json", [("baseline", 0, None)])
    r = subprocess.run([str(TOOL), "--reference", "nope", a],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "--reference nope: no guest" in r.stderr, r
