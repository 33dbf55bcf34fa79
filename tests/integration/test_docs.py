# SPDX-License-Identifier: GPL-2.0
"""--help and the man pages agree: tests/check-help-man (also run by make
unit) checks every command's --help against its swapctl(1) section."""
import os
import subprocess

from harness import REPO, SWAPCTL


def test_help_agrees_with_man(sw):
    p = subprocess.run([str(REPO / "tests" / "check-help-man")], cwd=REPO,
                       capture_output=True, text=True,
                       env=dict(os.environ, SWAPCTL=str(SWAPCTL)))
    fails = [line for line in p.stdout.splitlines()
             if line.startswith("FAIL ")]
    assert p.returncode == 0 and not fails, "\n".join(fails) or p.stderr
