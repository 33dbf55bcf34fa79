# SPDX-License-Identifier: GPL-2.0
"""Outputs: a path that is not a regular file is never replaced, "-" is
standard output, and a failed write to standard output is a failure
(exit 10), for every command."""
import os
import stat

import pytest

from harness import EXIT_OUTPUT, EXIT_USAGE, REPO


def device_node(path):
    """A character device like /dev/full (1:7) at @path, or a FIFO where
    device nodes cannot be made."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 7))
    except OSError:
        os.mkfifo(path, 0o600)
    return os.lstat(path).st_mode


@pytest.mark.parametrize("kind", ["device", "fifo", "directory"])
def test_report_svg_refuses_what_is_not_a_regular_file(sw, demo_run,
                                                       tmp_path, kind):
    target = tmp_path / "target"
    if kind == "device":
        mode = device_node(target)
    elif kind == "fifo":
        os.mkfifo(target, 0o600)
        mode = os.lstat(target).st_mode
    else:
        target.mkdir()
        mode = os.lstat(target).st_mode
    r = sw.expect(EXIT_OUTPUT, "report", "--svg", target, demo_run)
    assert len(r.err.splitlines()) == 1, r.err
    assert str(target) in r.err and "not a regular file" in r.err
    assert os.lstat(target).st_mode == mode, "the target was replaced"
    assert not list(tmp_path.glob("target.tmp*"))


def test_report_svg_dash_is_standard_output(sw, demo_run, tmp_path):
    r = sw.expect(0, "report", "--svg", "-", demo_run, cwd=tmp_path)
    assert r.out.startswith("<?xml") and "<svg" in r.out
    assert not (tmp_path / "-").exists()


def test_report_svg_dash_with_a_table_is_refused(sw, demo_run):
    r = sw.expect(EXIT_USAGE, "report", "--json", "--svg", "-", demo_run)
    assert "--svg -" in r.err


def test_report_svg_through_a_link_keeps_the_link(sw, demo_run, tmp_path):
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    sw.expect(0, "report", "--svg", link, demo_run)
    assert link.is_symlink()
    assert "<svg" in real.read_text()


STDOUT_COMMANDS = {
    "report-json": ["report", "--json", "DEMO"],
    "report-text": ["report", "DEMO"],
    "report-csv": ["report", "--csv", "DEMO"],
    "top-once": ["top", "--once", "DEMO"],
    "validate-plan": ["validate", "--plan", REPO / "scenarios/default.json"],
    "run-dry-run": ["run", "--dry-run", REPO / "scenarios/default.json"],
    "help": ["help"],
    "help-run": ["help", "run"],
    "version": ["--version"],
}


@pytest.mark.parametrize("name", sorted(STDOUT_COMMANDS))
def test_full_standard_output_fails(sw, demo_run, name):
    args = [demo_run if a == "DEMO" else a for a in STDOUT_COMMANDS[name]]
    with open("/dev/full", "w") as full:
        r = sw.run(*args, stdout=full)
    assert r.rc == EXIT_OUTPUT, r
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert "write failed" in r.err
