# SPDX-License-Identifier: GPL-2.0
"""swapctl run --debug (issue 9, debug kernels): the debug builds are
booted, every result says "debug": true, and a console splat fails the
guest with its lines quoted."""
import pytest

from harness import REPO


def test_debug_dry_run_boots_the_debug_builds(sw):
    r = sw.expect(0, "run", "--debug", "--dry-run",
                  REPO / "scenarios" / "bdev-swap.json")
    assert "/kernels/baseline-debug/bzImage</kernel>" in r.out, r.out
    assert "/kernels/%s-debug/bzImage</kernel>" % sw.series in r.out
    assert "page_owner=on" in r.out


def debug_kernels(sw):
    k = sw.workdir / "kernels"
    return [k / "baseline-debug" / "bzImage",
            k / ("%s-debug" % sw.series) / "bzImage"]


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.parametrize("name", ["bdev-swap", "zram-swap", "nfs-swap"])
def test_shipped_scenario_on_debug_kernels(runs, name):
    """No splat on the debug builds of both kernels (build them with
    'swapctl build --all --debug' in the test work dir)."""
    missing = [str(p) for p in debug_kernels(runs.sw) if not p.exists()]
    if missing:
        pytest.skip("debug kernels not built: %s" % ", ".join(missing))
    run = runs.get(name, "--debug")
    assert run.json is not None, run
    assert run.json.get("debug") is True
    splats = []
    for r in run.json["results"]:
        assert r["debug"] is True
        for s in r["console_splats"]:
            splats.append("%s %s:\n  %s" % (r["kernel"], s["kind"],
                                            "\n  ".join(s["lines"])))
        assert r["console_problems"] == 0 or r["console_splats"], r
    assert not splats, "\n".join(splats)
