# SPDX-License-Identifier: GPL-2.0
"""Every command: -h/--help exit 0, a bad option is one line and exit 2
(the issue found them differing per command)."""
import subprocess

import pytest

import harness
from harness import EXIT_OK, EXIT_USAGE


def commands():
    if not harness.SWAPCTL.is_file():
        return ["help"]
    out = subprocess.run([str(harness.SWAPCTL), "--help"],
                         capture_output=True, text=True).stdout
    names, on = [], False
    for line in out.splitlines():
        if line.startswith("commands:"):
            on = True
        elif on and line.startswith("  ") and line.split():
            names.append(line.split()[0])
        elif on and not line.strip():
            if names:
                break
    return names


@pytest.mark.parametrize("cmd", commands())
def test_help_exits_0(sw, cmd):
    for flag in ("-h", "--help"):
        r = sw.expect(EXIT_OK, cmd, flag)
        assert r.out.startswith("usage: swapctl %s" % cmd), r.out[:80]
    assert sw.expect(EXIT_OK, "help", cmd).out == \
        sw.expect(EXIT_OK, cmd, "--help").out


@pytest.mark.parametrize("cmd", commands())
def test_bad_option_is_one_line_and_exit_2(sw, cmd):
    r = sw.expect(EXIT_USAGE, cmd, "--no-such-option")
    assert r.err.count("\n") == 1, r.err
    assert r.err.startswith("swapctl %s: unknown option '--no-such-option'"
                            % cmd), r.err
    assert r.out == ""
