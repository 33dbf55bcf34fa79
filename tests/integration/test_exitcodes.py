# SPDX-License-Identifier: GPL-2.0
"""The audit of exit codes (issue 33 item 14), as a table: each cause a
command can meet, the code enum swapctl_exit (src/core/exitcodes.c) gives
it, and every command that can meet it. Each row runs the cause against
each of its commands and asserts the code; every code of the table is in
that command's --help list (generated from the same table). No guest is
booted, nothing is built (build only --dry-run).

Rules the table follows: a file of a kind is one cause whichever command
reads it - a configuration or scenario file that is missing, no regular
file or bad is 3; a run directory given that does not exist is 2 (a
command line naming nothing), one that is there but no usable run is 11
(also too few kernels for bisect); no run yet (nothing in runs/) is 4;
standard output or a named output that cannot be written is 10."""
import json
import os
import re
import shutil
import subprocess

import pytest

import harness
from harness import (EXIT_CODES, EXIT_CONFIG, EXIT_DATA, EXIT_DIRTY,
                     EXIT_NOT_GIT, EXIT_OUTPUT, EXIT_PATCH, EXIT_REF,
                     EXIT_SETUP, EXIT_USAGE)

QUICK = 30
SCN = str(harness.REPO / "scenarios" / "zram-swap.json")

# every command, as it runs without a guest or a build
EVERY = [["validate", SCN], ["list"], ["metrics"], ["report", "{run}"],
         ["top", "--once", "{run}"], ["bisect", "--run", "{run}"],
         ["run", "--dry-run", SCN], ["build", "--dry-run"]]
RUN_READERS = [["report", "{run}"], ["report", "--json", "{run}"],
               ["top", "--once", "{run}"],
               ["top", "-b", "--speed", "1000", "-d", "0.1", "{run}"],
               ["bisect", "--run", "{run}"]]
OUTPUTS = (EVERY + RUN_READERS[1:] +
           [["list", "--json"], ["metrics", "--json"],
            ["report", "--csv", "{run}"], ["report", "--kcidb", "{run}"],
            ["report", "--format", "text-email", "{run}"],
            ["bisect", "--run", "{run}", "--json"]] +
           [[c[0], "--help"] for c in EVERY] + [["--help"]])


def pre(args, *more):
    """@args with @more put before the command's own arguments."""
    return [[c[0]] + list(more) + c[1:] for c in args]


# (cause, code, what the context must set up, the command lines)
CAUSES = [
    ("an unknown option", EXIT_USAGE, None,
     pre(EVERY, "--no-such-option")),
    ("an option value out of range", EXIT_USAGE, None,
     [["top", "-b", "--speed", "0", "{run}"],
      ["run", "--dry-run", "--repeat", "0", SCN],
      ["report", "--metric", "no_such_metric", "{run}"],
      ["top", "--once", "--metric", "no_such_metric", "{run}"],
      ["bisect", "--run", "{run}", "--metric", "no_such_metric"],
      ["metrics", "no_such_metric"],
      ["build", "--dry-run", "--series", "a", "--series", "b"]]),
    ("an unknown key in swapctl.conf", EXIT_CONFIG, "badconf",
     [["--config", "{badconf}"] + c for c in EVERY]),
    ("--config FILE that does not exist", EXIT_CONFIG, None,
     [["--config", "/nonexistent/swapctl.conf"] + c for c in EVERY]),
    ("--config FILE that is a FIFO", EXIT_CONFIG, "fifo",
     [["--config", "{fifo}"] + c for c in EVERY]),
    ("a scenario file that does not exist", EXIT_CONFIG, None,
     [["validate", "/nonexistent/s.json"],
      ["run", "--dry-run", "/nonexistent/s.json"]]),
    ("a scenario that is not valid JSON", EXIT_CONFIG, "badscn",
     [["validate", "{badscn}"], ["run", "--dry-run", "{badscn}"]]),
    ("a run directory that does not exist", EXIT_USAGE, None,
     [[x if x != "{run}" else "/nonexistent/run" for x in c]
      for c in RUN_READERS]),
    ("a directory that is no run", EXIT_DATA, "norun",
     [[x if x != "{run}" else "{norun}" for x in c] for c in RUN_READERS]),
    ("a run whose samples.jsonl are all gone", EXIT_DATA, "nosamples",
     RUN_READERS),
    ("samples going back in time", EXIT_DATA, "backwards", RUN_READERS),
    ("bisect of a run of one kernel", EXIT_DATA, "onekernel",
     [["bisect", "--run", "{run}"]]),
    ("no run yet", EXIT_SETUP, "emptywd",
     [["--config", "{emptyconf}"] + c for c in
      (["report"], ["top", "--once"], ["top", "-b"])]),
    # "latest" named on the command line is a path: 2 when it is not there
    ("runs/latest given and not there", EXIT_USAGE, "emptywd",
     [["--config", "{emptyconf}"] + c + ["latest"] for c in
      (["report"], ["top", "--once"], ["bisect", "--run"])]),
    ("standard output cannot be written", EXIT_OUTPUT, "full", OUTPUTS),
    ("--svg names a directory", EXIT_OUTPUT, None,
     [["report", "--svg", "/tmp", "{run}"]]),
    ("a kernel file that does not exist", EXIT_SETUP, None,
     [["run", "--dry-run", "--kernel", "baseline=/nonexistent/bzImage",
       SCN],
      ["run", "--dry-run", "--initramfs", "/nonexistent/i.cpio", SCN]]),
    ("a series that does not exist", EXIT_PATCH, None,
     [["build", "--dry-run", "--series", "no-such-series"]]),
    ("--tree that is no git work tree", EXIT_NOT_GIT, "notgit",
     [["build", "--dry-run", "--tree", "{notgit}", "--range", "a..b"]]),
    ("--tree whose commit is no kernel tree", EXIT_NOT_GIT, "git",
     [["build", "--dry-run", "--tree", "{git}", "--range",
       "HEAD~2..HEAD"]]),
    ("--tree with uncommitted changes", EXIT_DIRTY, "git",
     [["build", "--dry-run", "--tree", "{git}", "--range", "HEAD~1..HEAD"],
      ["build", "--dry-run", "--tree", "{git}", "--apply",
       str(harness.REPO / "patches" / "swap-ops")]]),
    ("--range with a ref that names no commit", EXIT_REF, "git",
     [["build", "--dry-run", "--tree", "{git}", "--range",
       "no-such-ref..HEAD"]]),
]


def git(tree, *args):
    subprocess.run(["git", "-C", str(tree), "-c", "user.name=t", "-c",
                    "user.email=t@t"] + list(args), check=True,
                   stdout=subprocess.DEVNULL)


def context(sw, tmp_path, need):
    run = tmp_path / "run"
    shutil.copytree(harness.REPO / "tests" / "fixtures" / "run-demo", run,
                    symlinks=True)
    ctx = {"run": str(run)}
    if need == "badconf":
        ctx["badconf"] = str(sw.write_config(tmp_path / "bad.conf",
                                             no_such_key="1"))
    elif need == "fifo":
        os.mkfifo(tmp_path / "c.conf")
        ctx["fifo"] = str(tmp_path / "c.conf")
    elif need == "badscn":
        (tmp_path / "s.json").write_text('{"name": "x", "repeat": NaN}')
        ctx["badscn"] = str(tmp_path / "s.json")
    elif need == "norun":
        (tmp_path / "etc" / "dbus-1").mkdir(parents=True)
        ctx["norun"] = str(tmp_path / "etc")
    elif need == "nosamples":
        for g in ("baseline-1", "patched-1"):
            (run / g / "samples.jsonl").unlink()
    elif need == "backwards":
        p = run / "patched-1" / "samples.jsonl"
        lines = [json.loads(x) for x in p.read_text().splitlines()]
        top = max(x["t_ns"] for x in lines) + 10 ** 9
        for x in lines:
            x["t_ns"] = top - x["t_ns"]
        p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    elif need == "onekernel":
        shutil.rmtree(run / "patched-1")
        scn = json.loads((run / "scenario.json").read_text())
        scn["kernels"] = scn.get("kernels", ["baseline"])[:1]
        (run / "scenario.json").write_text(json.dumps(scn))
    elif need == "emptywd":
        (tmp_path / "wd").mkdir()
        ctx["emptyconf"] = str(sw.write_config(tmp_path / "e.conf",
                                               workdir=str(tmp_path / "wd")))
    elif need == "notgit":
        (tmp_path / "plain").mkdir()
        ctx["notgit"] = str(tmp_path / "plain")
    elif need == "git":
        if not shutil.which("git"):
            pytest.skip("git is not installed ('make deps')")
        tree = tmp_path / "tree"
        tree.mkdir()
        (tree / "f").write_text("a\n")
        git(tree, "init", "-q")
        git(tree, "add", ".")
        git(tree, "commit", "-q", "-m", "no kernel tree")
        (tree / "Makefile").write_text("VERSION = 6\nPATCHLEVEL = 1\n")
        git(tree, "add", ".")
        git(tree, "commit", "-q", "-m", "a")
        (tree / "f").write_text("b\n")
        git(tree, "commit", "-q", "-a", "-m", "b")
        (tree / "f").write_text("c\n")
        ctx["git"] = str(tree)
    return ctx


ROWS = [(cause, code, need, cmd) for cause, code, need, cmds in CAUSES
        for cmd in cmds]


def row_id(row):
    return "%s: %s" % (row[0], " ".join(row[3]))


@pytest.mark.parametrize("row", ROWS, ids=[row_id(r) for r in ROWS])
def test_cause_gives_its_code(sw, tmp_path, row):
    cause, code, need, cmd = row
    ctx = context(sw, tmp_path, need)
    args = [x.format(**ctx) for x in cmd]
    if need == "full":
        with open("/dev/full", "w") as full:
            r = sw.run(*args, stdout=full, timeout=QUICK)
    else:
        r = sw.run(*args, timeout=QUICK)
    assert r.rc == code, "%s: swapctl %s: exit %d, want %d\n%s" % (
        cause, " ".join(args), r.rc, code, r.err[-1500:])
    lines = [x for x in r.err.splitlines() if x.strip()]
    assert lines and all(x.startswith("swapctl") for x in lines), r.err


def command_of(cmd):
    i = 2 if cmd[0] == "--config" else 0
    return cmd[i] if not cmd[i].startswith("-") else None


def help_codes(sw, name):
    out = sw.expect(0, name, "--help", timeout=QUICK).out
    return {int(x) for x in re.findall(r"^ +(\d+)  ",
                                       out.split("exit codes")[1], re.M)}


def test_help_lists_every_code_of_the_table(sw):
    # what a command's --help lists (a per-command list of causes) must
    # cover what the audit saw it return
    want = {}
    for cause, code, need, cmds in CAUSES:
        for cmd in cmds:
            name = command_of(cmd)
            if name:
                want.setdefault(name, set()).add(code)
    assert set(want) == {c[0] for c in EVERY}
    for name, codes in want.items():
        listed = help_codes(sw, name)
        assert codes <= listed, (name, codes - listed)
        assert listed <= set(EXIT_CODES.values()), (name, listed)


def test_every_code_has_a_cause():
    # no code of enum swapctl_exit without its line in exitcodes.c
    table = (harness.REPO / "src" / "core" / "exitcodes.c").read_text()
    for name in EXIT_CODES:
        assert "{ %s, " % name in table, name
