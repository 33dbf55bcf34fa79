# SPDX-License-Identifier: GPL-2.0
"""swapctl run --debug (issue 9, debug kernels; issue 12, no splat on
debug builds): the debug builds of the baseline and of every series are
booted, every result says "debug": true, and a console splat fails the
guest with its lines quoted."""
import json

import pytest

from harness import REPO


def test_debug_dry_run_boots_the_debug_builds(sw):
    r = sw.expect(0, "run", "--debug", "--dry-run",
                  REPO / "scenarios" / "bdev-swap.json")
    assert "/kernels/baseline-debug/bzImage</kernel>" in r.out, r.out
    assert "/kernels/%s-debug/bzImage</kernel>" % sw.series in r.out
    assert "page_owner=on" in r.out


def all_variants():
    """baseline and every series under patches/ (swap-ops, bhe-ops)."""
    return ["baseline"] + sorted(
        d.name for d in (REPO / "patches").iterdir()
        if d.name != "baseline" and (d / "series").is_file())


def test_every_series_is_covered():
    assert {"baseline", "swap-ops", "bhe-ops"} <= set(all_variants())


def test_debug_dry_run_boots_every_series(sw):
    r = sw.expect(0, "run", "--debug", "--dry-run", "--kernels",
                  ",".join(all_variants()),
                  REPO / "scenarios" / "zram-swap.json")
    for v in all_variants():
        assert "/kernels/%s-debug/bzImage</kernel>" % v in r.out, v


def debug_kernels(sw):
    k = sw.workdir / "kernels"
    return [k / ("%s-debug" % v) / "bzImage" for v in all_variants()]


# A debug kernel keeps memory for itself (lockdep's
# tables, page_owner's stack depot): in the scenario's own 256 MiB the
# ext4-swapfile workload ran under pressure that timing decided (pswpin
# 130850 / 119582 / 126491 on the three debug kernels, 51200 without
# debug), with this much more 51200 on each, as without debug.
DEBUG_EXTRA_MB = 128


def slow_copy(name, tmp_path):
    """The shipped scenario with 4 times its guest time limit: TCG runs a
    lockdep + DEBUG_PAGEALLOC kernel several times slower (nfs-swap's
    mkswap alone took more than its 420 s on a loaded host); its guests
    get DEBUG_EXTRA_MB more memory and its pressure phases allocate that
    much more, so the same reclaim happens as on the kernels without
    debug."""
    scn = json.loads((REPO / "scenarios" / ("%s.json" % name)).read_text())
    scn["timeout_s"] = min(86400, 4 * scn.get("timeout_s", 300))
    guest = scn.setdefault("guest", {})
    guest["memory_mb"] = guest.get("memory_mb", 256) + DEBUG_EXTRA_MB
    for p in scn["workload"]["phases"]:
        if isinstance(p, dict) and p.get("name") == "pressure":
            p["mb"] += DEBUG_EXTRA_MB
    path = tmp_path / ("%s.json" % name)
    path.write_text(json.dumps(scn, indent=2))
    return path


@pytest.mark.full
@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name", ["bdev-swap", "zram-swap", "ext4-swapfile",
                                  "nfs-swap"])
def test_shipped_scenario_on_debug_kernels(runs, name, tmp_path):
    """No splat on the debug builds of the baseline, swap-ops and bhe-ops
    (build them with 'swapctl build --all --debug' in the test work dir,
    or borrow them with SWAPCTL_TEST_KERNELS=DIR holding <v>-debug/)."""
    missing = [str(p) for p in debug_kernels(runs.sw) if not p.exists()]
    if missing:
        pytest.skip("debug kernels not built: %s" % ", ".join(missing))
    scn = slow_copy(name, tmp_path)
    run = runs.get(scn, "--debug", "--kernels", ",".join(all_variants()),
                   timeout=len(all_variants()) *
                   (json.loads(scn.read_text())["timeout_s"] + 120))
    assert run.json is not None, run
    assert run.json.get("debug") is True
    assert sorted(r["kernel"] for r in run.json["results"]) == \
        sorted(all_variants()), run.json["results"]
    splats = []
    for r in run.json["results"]:
        assert r["debug"] is True
        for s in r["console_splats"]:
            splats.append("%s %s:\n  %s" % (r["kernel"], s["kind"],
                                            "\n  ".join(s["lines"])))
        assert r["console_problems"] == 0 or r["console_splats"], r
    assert not splats, "\n".join(splats)
    # no splat, so every guest must have passed (a timeout fails too)
    failed = ["%s: %s" % (r["kernel"], r["reason"]) for r in
              run.json["results"] if r["status"] != "pass"]
    assert not failed and run.rc == 0, (failed, run)
