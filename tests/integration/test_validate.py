# SPDX-License-Identifier: GPL-2.0
"""swapctl validate and what swapctl run refuses before starting."""
import json
import os

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


# What the guest would refuse (or cannot run), validate and run refuse
# first: (scenario, the message's key part).
def scenario(swap, workload, guest=None):
    d = {"name": "x", "swap": swap, "workload": workload}
    if guest:
        d["guest"] = guest
    return d


CANNOT_RUN = {
    "two-fill-phases": (
        scenario([{"type": "blk", "size_mb": 64}],
                 {"size_mb": 8, "phases": ["fill", "pageout", "fill"]}),
        "workload.phases[2]: \"fill\" only once, as the first phase"),
    "incompressible-on-zram": (
        scenario([{"type": "zram", "size_mb": 384}],
                 {"size_mb": 240, "phases": ["fill", "pageout"]},
                 {"memory_mb": 256}),
        "zram keeps the data in RAM, incompressible without unique_words"),
    "1-tib-swap-disk": (
        scenario([{"type": "blk", "size_mb": 1048576}],
                 {"size_mb": 8, "phases": ["fill"]}, {"memory_mb": 256}),
        "swap[0].size_mb: 1048576 MiB of swap needs 262144 KiB of swap map,"
        " more than 1/16 of the guest's 256 MiB of RAM"),
}


@pytest.mark.parametrize("case", sorted(CANNOT_RUN))
@pytest.mark.parametrize("cmd", [["validate"], ["run", "--dry-run"]],
                         ids=["validate", "run-dry-run"])
def test_refuses_what_cannot_run(sw, tmp_path, case, cmd):
    d, msg = CANNOT_RUN[case]
    path = tmp_path / ("%s.json" % case)
    path.write_text(json.dumps(d, indent=1))
    r = sw.expect(EXIT_CONFIG, *cmd, path)
    assert msg in r.err, r.err
    assert len(r.err.splitlines()) == 1, r.err


def test_compressible_workload_on_zram_fits(sw, tmp_path):
    # the same 240 MiB on the same zram fits when it compresses
    d, _ = CANNOT_RUN["incompressible-on-zram"]
    d = json.loads(json.dumps(d))
    d["workload"]["unique_words"] = 32
    path = tmp_path / "compressible.json"
    path.write_text(json.dumps(d))
    sw.expect(0, "validate", path)


def host():
    mem = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) // 1024
    return mem, os.cpu_count()


@pytest.mark.parametrize("what", ["memory", "cpus"])
def test_refuses_a_guest_bigger_than_the_host(sw, tmp_path, what):
    mem, cpus = host()
    g = {"memory_mb": 65536, "cpus": 64}
    if what == "memory":
        if 65536 <= mem * 3 // 4:
            pytest.skip("this host has %d MiB: a 64 GiB guest fits" % mem)
        want = "guest.memory_mb: a 65536 MiB guest is more than 3/4 of " \
            "this host's %d MiB of RAM" % mem
    else:
        g["memory_mb"] = 256
        if cpus >= 64:
            pytest.skip("this host has %d CPUs" % cpus)
        want = "guest.cpus: 64 vCPUs are more than this host's %d CPUs" % cpus
    d = scenario([{"type": "blk", "size_mb": 64}],
                 {"size_mb": 8, "phases": ["fill"]}, g)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(d))
    for cmd in (["validate"], ["run", "--dry-run"]):
        r = sw.expect(EXIT_CONFIG, *cmd, path)
        assert want in r.err, r.err


def test_host_limit_from_the_configuration_names_the_key(sw, tmp_path):
    conf = sw.write_config(tmp_path / "big.conf", guest_cpus="64")
    if os.cpu_count() >= 64:
        pytest.skip("this host has %d CPUs" % os.cpu_count())
    r = sw.expect(EXIT_CONFIG, "--config", conf, "validate",
                  REPO / "scenarios" / "default.json")
    assert "guest_cpus (%s): 64 vCPUs" % conf in r.err, r.err
