# SPDX-License-Identifier: GPL-2.0
"""swapctl top on recorded and stale runs (no guest needed)."""
import fcntl
import json

import pytest

import harness
from harness import EXIT_DATA, EXIT_OK, EXIT_SETUP, EXIT_USAGE


@pytest.fixture
def stale_run(demo_run, tmp_path):
    """A work dir whose one run says "running" with nothing behind it:
    <wd>/runs/<id>, runs/latest pointing at it, an unheld run.lock."""
    return harness.running_run(demo_run, tmp_path)


def test_top_batch_exits_on_a_stale_running_state(sw, stale_run):
    r = sw.run("top", "-b", "-d", "0.2", stale_run, timeout=30)
    assert r.rc == EXIT_DATA, r
    assert "state says running, but no swapctl run holds its run.lock" \
        in r.err, r.err
    assert len(r.err.splitlines()) == 1
    assert "baseline" in r.out      # what was recorded is shown


def test_top_batch_exits_when_another_run_is_going_on(sw, stale_run):
    # the lock is held (by "another run"), but runs/latest names it
    other = stale_run.parent / "20261203-130000-other"
    other.mkdir()
    latest = stale_run.parent / "latest"
    latest.unlink()
    latest.symlink_to(other.name)
    with open(stale_run.parent.parent / "run.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = sw.run("top", "-b", "-d", "0.2", stale_run, timeout=30)
    assert r.rc == EXIT_DATA, r
    assert "the run going on is %s" % other in r.err, r.err


def test_top_batch_follows_a_run_that_holds_the_lock(sw, stale_run):
    # not stale: the lock is held and runs/latest is this run
    with open(stale_run.parent.parent / "run.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = sw.run("top", "-b", "-d", "0.2", "-n", "15", stale_run,
                   timeout=30)
    assert r.rc == EXIT_OK, r
    assert "state says running" not in r.err


def test_top_and_report_agree_on_a_directory_that_is_no_run(sw, tmp_path):
    (tmp_path / "nothing").mkdir()
    for cmd in (["top", "--once"], ["top", "-b"], ["report"],
                ["report", "--json"]):
        r = sw.expect(EXIT_DATA, *cmd, tmp_path / "nothing")
        assert "no guest directories" in r.err
        r = sw.expect(EXIT_USAGE, *cmd, tmp_path / "absent")
        assert "no such run directory" in r.err


def test_top_and_report_without_any_run(sw, tmp_path):
    conf = sw.write_config(tmp_path / "empty.conf",
                           workdir=str(tmp_path / "wd"))
    for cmd in (["top", "--once"], ["report"]):
        r = sw.expect(EXIT_SETUP, "--config", conf, *cmd)
        assert "no run yet" in r.err


def test_an_empty_samples_file_is_an_error(sw, demo_run):
    (demo_run / "patched-1" / "samples.jsonl").write_text("")
    for cmd in (["report"], ["report", "--json"], ["top", "--once"]):
        r = sw.run(*cmd, demo_run)
        assert r.rc == EXIT_DATA, r
        assert "patched-1/samples.jsonl: empty (the guest sent nothing)" \
            in r.err
        assert "baseline" in r.out      # the other guest is still shown


def test_top_keeps_the_ratio_column_at_60_columns(sw, demo_run):
    r = sw.expect(EXIT_OK, "top", "--once", demo_run,
                  env={"COLUMNS": "60"})
    assert max(len(line) for line in r.out.splitlines()) <= 60, r.out
    row = [line for line in r.out.splitlines()
           if line.startswith("write pages/I/O")][0]
    assert row.rstrip().endswith("x"), row      # the ratio is there


def test_top_once_keeps_the_rates_a_recording_ended_on(sw):
    # the recording's last second is idle (the workload ended before the
    # guest powered off): the rates of its last second of swap I/O stay
    run = harness.REPO / "tests" / "fixtures" / "run-bdev-unfixed"
    r = sw.expect(EXIT_OK, "top", "--once", run)
    assert "rates: last 1 s with swap I/O (ended)" in r.out, r.out
    row = [line for line in r.out.splitlines()
           if line.startswith("pages swapped in/s")][0]
    assert float(row.split()[3]) > 1000, row    # baseline, not 0.0
    assert float(row.split()[4]) > 1000, row    # patched


def test_top_says_no_nrswp_only_in_the_column_without(sw, demo_run):
    r = sw.expect(EXIT_OK, "top", "--once", demo_run)
    # both kernels have nrswp*: a counter they lack is "-", not "no nrswp"
    assert "no nrswp counters" not in r.out, r.out
    # the baseline without nrswpin/nrswpout: its column only
    f = demo_run / "baseline-1" / "samples.jsonl"
    lines = []
    for line in f.read_text().splitlines():
        d = json.loads(line)
        if d.get("type") == "hello":
            d["counters"] = [c for c in d["counters"]
                             if not c.startswith("nrswp")]
        for c in ("nrswpin", "nrswpout"):
            d.get("vmstat", {}).pop(c, None)
        lines.append(json.dumps(d))
    f.write_text("\n".join(lines) + "\n")
    r = sw.expect(EXIT_OK, "top", "--once", demo_run)
    row = [line for line in r.out.splitlines()
           if line.startswith("swap write I/Os ")][0]
    assert row.count("no nrswp counters") == 1, row
    assert row.split()[-2] == "6178", row       # the patched column
    row = [line for line in r.out.splitlines()
           if line.startswith("write batches deferred")][0]
    assert row.count("no nrswp counters") == 1, row


def test_top_at_40_columns_labels_say_the_direction(sw, demo_run):
    r = sw.expect(EXIT_OK, "top", "--once", demo_run,
                  env={"COLUMNS": "40"})
    out = r.out.splitlines()
    assert max(len(line) for line in out) <= 40, r.out
    assert "pages swapped" not in r.out, r.out
    labels = [line[:13].strip() for line in out]
    for label in ("pages out/s", "pages in/s", "out pages/IO",
                  "in pages/IO", "pages out", "pages in"):
        assert label in labels, (label, r.out)
