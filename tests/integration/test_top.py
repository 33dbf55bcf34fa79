# SPDX-License-Identifier: GPL-2.0
"""swapctl top on recorded and stale runs (no guest needed)."""
import fcntl

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
