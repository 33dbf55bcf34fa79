# SPDX-License-Identifier: GPL-2.0
"""--help and the man pages agree."""
import os
import re
import subprocess

import pytest

from harness import REPO


def man_section(page, start, end):
    """The text of man/PAGE from the heading START up to END."""
    env = dict(os.environ, MANWIDTH="200")
    text = subprocess.run(["man", "-l", str(REPO / "man" / page)],
                          env=env, capture_output=True, text=True,
                          check=True).stdout
    m = re.search(r"^%s\b.*?(?=^%s\b)" % (start, end), text, re.S | re.M)
    assert m, "man/%s has no %s section" % (page, start)
    return m.group(0)


def test_help_build_is_build_help(sw):
    a = sw.expect(0, "help", "build")
    b = sw.expect(0, "build", "--help")
    assert a.out == b.out


def build_options():
    # collected without the fixture: the binary may not exist yet
    import harness
    if not harness.SWAPCTL.is_file():
        return []
    out = subprocess.run([str(harness.SWAPCTL), "build", "--help"],
                         capture_output=True, text=True).stdout
    return sorted(set(re.findall(r"--[a-z-]+", out)))


@pytest.mark.parametrize("opt", build_options())
def test_man_documents_build_option(sw, opt):
    assert opt in man_section("swapctl.1", "BUILD", "RUN")
