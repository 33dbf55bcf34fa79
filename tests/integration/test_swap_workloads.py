# SPDX-License-Identifier: GPL-2.0
"""What swap maintainers measure (issue 35): zswap writing back to a disk
on both lines, Redis filled past its cgroup and read back with
redis-benchmark (its data set's digest unchanged), and brd as a swap
device. Short fixtures (tests/fixtures/*-short.json): a few seconds of
workload per guest; the shipped scenarios (zswap-swap, zswap-swap-6.12,
brd-swap, redis-swap, redis-bgsave-swap and the designs-* twins) run by
hand."""
import json
import os

import pytest

import harness
from harness import EXIT_GUEST, EXIT_OK, REPO

FIX = REPO / "tests" / "fixtures"


def results(run):
    assert run.json is not None, "no JSON on stdout: %r" % run
    return {r["kernel"]: r for r in run.json["results"]}


def guest_lines(run):
    out = {}
    for d in sorted(run.dir.iterdir()):
        f = d / "samples.jsonl"
        if d.is_dir() and f.is_file():
            out[d.name] = [json.loads(x) for x in
                           f.read_text().splitlines() if x.strip()]
    return out


@pytest.mark.boot
def test_zswap_writes_back_and_loses_nothing(runs):
    """A 2% zswap pool in front of a disk: on both kernels zswap writes
    entries back to the disk (debugfs written_back_pages, the result
    line's values) and every page reads back intact."""
    run = runs.get(FIX / "zswap-short.json")
    res = results(run)
    assert sorted(res) == ["baseline", "patched"], res.keys()
    for k, r in res.items():
        m = r["metrics"]
        assert r["status"] == "pass", (k, r.get("reason"))
        assert m["pages_corrupt"] == 0, (k, m["pages_corrupt"])
        assert m["pages_verified"] > 0, k
        assert (m["zswap_written_back_pages"] or 0) > 0, (k, m)
        assert (m["zswap_pool_peak_kib"] or 0) > 0, (k, m)
    assert run.rc == EXIT_OK, run
    for name, lines in guest_lines(run).items():
        (r,) = [x for x in lines if x.get("type") == "result"]
        assert r["values"]["zswap_written_back_pages"] > 0, (name, r)
    runs.sw.assert_no_leftovers(run.dir)


def kernel_612(sw):
    """baseline@6.12 in the test work dir: built there, or linked from
    $SWAPCTL_TEST_KERNELS; None when neither has it."""
    mine = sw.workdir / "kernels" / "baseline@6.12"
    if (mine / "bzImage").is_file():
        return mine
    src = os.environ.get("SWAPCTL_TEST_KERNELS")
    theirs = src and harness.Path(src).expanduser() / "baseline@6.12"
    if not theirs or not (theirs / "bzImage").is_file() or \
            mine.exists() or mine.is_symlink():
        return None
    mine.symlink_to(theirs.resolve())
    return mine


@pytest.mark.boot
def test_zswap_writes_back_on_612(runs):
    """The same on the 6.12 line, whose shrink worker writes back until
    the pool is below its accept threshold: written_back_pages (and
    vmstat zswpwb) grow, no page is lost."""
    if not kernel_612(runs.sw):
        pytest.skip("no baseline@6.12 (swapctl build --line 6.12 "
                    "--baseline, or SWAPCTL_TEST_KERNELS with it)")
    run = runs.get(FIX / "zswap-short.json", "--line", "6.12",
                   "--kernels", "baseline")
    (r,) = results(run).values()
    m = r["metrics"]
    assert run.json["kernel_line"] == "6.12"
    assert r["status"] == "pass", r.get("reason")
    assert m["pages_corrupt"] == 0
    assert (m["zswap_written_back_pages"] or 0) > 0, m
    assert run.rc == EXIT_OK, run
    for lines in guest_lines(run).values():
        last = [x for x in lines if x.get("type") == "sample"][-1]
        assert last["vmstat"].get("zswpwb", 0) > 0, last["vmstat"]


@pytest.mark.boot
def test_brd_swap_on_both_kernels(runs):
    """brd as a swap backend: the kernel command line sizes it
    (brd.rd_size), the guest swaps on /dev/ram0, every page is
    verified."""
    run = runs.get(FIX / "brd-short.json")
    res = results(run)
    for k, r in res.items():
        m = r["metrics"]
        assert r["status"] == "pass", (k, r.get("reason"))
        assert m["pages_corrupt"] == 0 and m["pages_verified"] > 0, k
        assert (m["pswpout"] or 0) > 0 and (m["pswpin"] or 0) > 0, k
    assert run.rc == EXIT_OK, run
    for name, lines in guest_lines(run).items():
        (sw,) = [x for x in lines if x.get("type") == "swap"]
        (b,) = sw["backends"]
        assert b["type"] == "brd" and b["name"] == "/dev/ram0", b
        assert b["size_kb"] >= 64 * 1024 - 4, b
        xml = (run.dir / name / "domain.xml").read_text()
        assert "brd.rd_nr=1 brd.rd_size=65536" in xml, name


@pytest.mark.boot
@pytest.mark.slow
def test_redis_digest_unchanged_after_swapping(runs):
    """Redis in a 12 MiB cgroup with 20 MiB of data, read back at random
    with redis-benchmark during a BGSAVE: DEBUG DIGEST unchanged, and
    requests/s and the p99 latency are metrics."""
    run = runs.get(FIX / "redis-short.json")
    res = results(run)
    assert sorted(res) == ["baseline", "patched"], res.keys()
    for k, r in res.items():
        m = r["metrics"]
        assert r["status"] == "pass", (k, r.get("reason"))
        assert m["redis_keys"] == 10000, (k, m)
        assert (m["redis_get_rps"] or 0) > 0, (k, m)
        assert (m["redis_get_p99_us"] or 0) >= (m["redis_get_p50_us"] or 0)
        assert (m["pswpout"] or 0) > 0, k
    assert run.rc == EXIT_OK, run
    for name, lines in guest_lines(run).items():
        msgs = [x.get("msg", "") for x in lines if x.get("type") == "log"]
        assert any("unchanged after 4000 GETs and a BGSAVE" in x
                   for x in msgs), (name, msgs[-8:])
    runs.sw.assert_no_leftovers(run.dir)


@pytest.mark.boot
def test_redis_changed_value_fails_the_run(runs, tmp_path):
    """The digest check can fail: a value changed after the load (as a
    lost page would) makes redisrun exit 1 and the run a guest error."""
    d = json.loads((FIX / "redis-short.json").read_text())
    d["name"] = "it-redis-changed"
    d["kernels"] = ["baseline"]
    d["expect"] = []
    g = d["workload"]["command"]["groups"][0]
    g["argv"] = ["/run/swapctl-bin/redisrun", "--keys", "2000",
                 "--value-bytes", "1024", "--requests", "500",
                 "--test-change-key", "7"]
    g["memory_max_mb"] = 64
    path = tmp_path / "redis-changed.json"
    path.write_text(json.dumps(d))
    run = runs.get(path)
    assert run.rc == EXIT_GUEST, run
    (r,) = results(run).values()
    assert "group redis (limited run): /run/swapctl-bin/redisrun exited " \
        "with status 1" in (r.get("reason") or ""), r
    assert r["metrics"].get("redis_keys") is None, r["metrics"]
    msgs = [x.get("msg", "") for lines in guest_lines(run).values()
            for x in lines if x.get("type") == "log"]
    assert any("DEBUG DIGEST changed" in x for x in msgs), msgs[-8:]
