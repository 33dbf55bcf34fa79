# SPDX-License-Identifier: GPL-2.0
"""swapctl validate and what swapctl run refuses before starting."""
import pytest

from harness import EXIT_CONFIG, EXIT_USAGE, REPO

BAD_TYPE = ('{\n  "name": "x",\n  "swap": [{"type": "blk", "size_mb": "big"}],'
            '\n  "workload": {"size_mb": 8, "phases": ["fill"]}\n}\n')


def shipped():
    return sorted((REPO / "scenarios").glob("*.json"))


@pytest.mark.parametrize("scenario", shipped(), ids=lambda p: p.stem)
def test_validate_shipped_scenario(sw, scenario):
    sw.expect(0, "validate", scenario)


@pytest.fixture
def bad_json(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text(BAD_TYPE)
    return p


def test_validate_wrong_type(sw, bad_json):
    r = sw.expect(EXIT_CONFIG, "validate", bad_json)
    assert "bad.json:3:39: swap[0].size_mb: expected an integer" in r.err


def test_run_refuses_bad_scenario(sw, bad_json):
    sw.expect(EXIT_CONFIG, "run", bad_json)


def test_run_dry_run_prints_plan_and_xml(sw):
    r = sw.expect(0, "run", "--dry-run", REPO / "scenarios" / "nfs-swap.json")
    assert "<interface type='user'>" in r.out
    assert any(line.startswith("swap type=nfsfile server=10.0.2.2")
               for line in r.out.splitlines())


def test_run_without_scenario(sw):
    sw.expect(EXIT_USAGE, "run")
