# SPDX-License-Identifier: GPL-2.0
"""make check's scenarios (conftest.py, "Tiers"): the quick scenarios of
tests/fixtures/scenarios/ are their shipped scenarios made short, nothing
else changed, and together with harness.QUICK_SHIPPED they boot every
swap backend and every fault kind the shipped scenarios use. No guest."""
import json

import pytest

import harness
from harness import QUICK_DIR, QUICK_SHIPPED, REPO

# Each quick scenario and the shipped ones it stands for in make check.
ORIGINS = {
    "bdev-swap-quick": ["bdev-swap", "designs-bdev-swap"],
    "zram-swap-quick": ["zram-swap", "designs-zram-swap"],
    "ext4-swapfile-quick": ["ext4-swapfile", "designs-ext4-swapfile"],
    "nfs-swap-quick": ["nfs-swap", "designs-nfs-swap"],
    "brd-swap-quick": ["brd-swap", "designs-brd-swap"],
    "fault-nfs-quick": ["fault-nfs-stall", "fault-nfs-restart"],
}
# What making a scenario short may change: its name and description, the
# kernels (the backends' run the baseline, bhe-ops and the series at
# once), the sizes (guest memory, workload, swap, pressure phases), the
# expectations scaled to them, the fault durations, the seed; and for
# fault-nfs-quick, which runs two faults in one boot, its phases (a
# second pageout, pressure and read for the second fault).
SIZES = ("name", "description", "kernels", "expect", "timeout_s")
MERGED = {"fault-nfs-quick"}


def load(path):
    return json.loads(path.read_text())


def shape(d, phases=True):
    """@d without what a quick scenario may change."""
    d = json.loads(json.dumps(d))
    for k in SIZES:
        d.pop(k, None)
    d.get("guest", {}).pop("memory_mb", None)
    for s in d.get("swap", []):
        s.pop("size_mb", None)
    w = d.get("workload", {})
    w.pop("size_mb", None)
    w.pop("seed", None)
    if phases:
        for p in w.get("phases", []):
            if isinstance(p, dict):
                p.pop("mb", None)
    else:
        w.pop("phases", None)
    for f in d.get("faults", []):
        f.pop("duration_s", None)
    if not phases:
        d["faults"] = sorted(f["kind"] for f in d.get("faults", []))
    return d


def quick_files():
    return sorted(QUICK_DIR.glob("*.json"))


def test_every_quick_scenario_has_its_origins():
    assert sorted(p.stem for p in quick_files()) == sorted(ORIGINS)
    for stem, origins in ORIGINS.items():
        for o in origins:
            assert (REPO / "scenarios" / ("%s.json" % o)).is_file(), o


@pytest.mark.parametrize("path", quick_files(), ids=lambda p: p.stem)
def test_quick_scenario_is_its_origin_made_short(sw, path):
    """Same guest, sysctls, swap types, phases and faults as the shipped
    scenario, smaller; valid; named after its file."""
    sw.expect(0, "validate", path)
    q = load(path)
    assert q["name"] == path.stem, q["name"]
    for o in ORIGINS[path.stem]:
        src = load(REPO / "scenarios" / ("%s.json" % o))
        # fault-nfs-quick: both origins' faults, its own phases
        if path.stem in MERGED:
            a, b = shape(q, phases=False), shape(src, phases=False)
            assert set(b["faults"]) <= set(a["faults"]), (o, a["faults"])
            a.pop("faults"), b.pop("faults")
        else:
            a, b = shape(q), shape(src)
        assert a == b, (path.stem, o)
        # smaller, never larger
        assert q["workload"]["size_mb"] < src["workload"]["size_mb"], o


def make_check_scenarios():
    return [load(p) for p in quick_files()] + \
        [load(REPO / "scenarios" / ("%s.json" % n)) for n in QUICK_SHIPPED]


def test_make_check_boots_every_backend_and_fault_kind():
    """Every swap type and fault kind of a shipped scenario is in one
    that make check boots, on the baseline and the series (and bhe-ops
    on every backend)."""
    shipped = [load(p) for p in (REPO / "scenarios").glob("*.json")]
    want_swap = {s["type"] for d in shipped for s in d.get("swap", [])}
    want_fault = {f["kind"] for d in shipped for f in d.get("faults", [])}
    mine = make_check_scenarios()
    for d in mine:
        ks = d.get("kernels", [])
        assert "baseline" in ks and "patched" in ks, (d["name"], ks)
    have_swap = {s["type"] for d in mine for s in d.get("swap", [])}
    have_fault = {f["kind"] for d in mine for f in d.get("faults", [])}
    assert want_swap <= have_swap, want_swap - have_swap
    assert want_fault <= have_fault, want_fault - have_fault
    three = {s["type"] for d in mine for s in d.get("swap", [])
             if "bhe-ops" in d.get("kernels", [])}
    assert want_swap <= three, want_swap - three


def test_tier_guard_refuses_a_long_scenario_in_make_check(monkeypatch):
    """harness.check_tier(): a make check test booting a shipped scenario
    outside QUICK_SHIPPED fails, naming it; a full test, a dry run, a
    quick scenario and QUICK_SHIPPED pass."""
    long = REPO / "scenarios" / "bdev-swap.json"
    monkeypatch.setattr(harness, "FULL_TEST", False)
    with pytest.raises(AssertionError, match="bdev-swap"):
        harness.check_tier(["run", "--json", long])
    with pytest.raises(AssertionError, match="nfs-swap"):
        harness.check_tier(["run", "scenarios/nfs-swap.json"])
    harness.check_tier(["run", "--dry-run", long])
    harness.check_tier(["run", harness.quick("bdev-swap")])
    for n in QUICK_SHIPPED:
        harness.check_tier(["run", REPO / "scenarios" / ("%s.json" % n)])
    monkeypatch.setattr(harness, "FULL_TEST", True)
    harness.check_tier(["run", long])
