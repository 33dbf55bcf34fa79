# SPDX-License-Identifier: GPL-2.0
"""swapctl build: the kernels of the test work dir, errors that name the
patch, the hunk, the file and the line."""
import time

import pytest

from harness import EXIT_CONFIG, EXIT_PATCH, EXIT_SETUP, EXIT_USAGE

CORRUPT = ("--- a/mm/page_io.c\n+++ b/mm/page_io.c\n@@ -1,3 +1,4 @@\n"
           " no such line\n+x\n still none\n and none\n")


@pytest.mark.build
def test_build_all_makes_the_kernels(kernels):
    # the fixture asserts the files exist; here: they are not empty
    for f in kernels.kernel_files():
        assert f.stat().st_size > 0, f


@pytest.mark.build
def test_second_build_is_a_no_op(kernels):
    if kernels.kernels_borrowed():
        pytest.skip("kernels borrowed from SWAPCTL_TEST_KERNELS: building "
                    "here would write into them")
    t0 = time.monotonic()
    r = kernels.expect(0, "build", "--all")
    took = time.monotonic() - t0
    assert "up to date" in r.err
    assert took < 30, "a no-op build took %.0f s" % took


@pytest.fixture
def patches(tmp_path):
    p = tmp_path / "patches"
    for d in ("it-corrupt", "it-missing", "baseline"):
        (p / d).mkdir(parents=True)
    (p / "it-corrupt" / "0001-corrupt.patch").write_text(CORRUPT)
    (p / "it-corrupt" / "series").write_text("0001-corrupt.patch\n")
    (p / "it-missing" / "series").write_text("0001-gone.patch\n")
    return p


@pytest.mark.build
def test_corrupt_patch_names_patch_and_hunk(sw, patches):
    r = sw.expect(EXIT_PATCH, "build", "--patches", patches,
                  "--series", "it-corrupt")
    assert "0001-corrupt.patch" in r.err and "does not apply" in r.err \
        and "Hunk #1 FAILED" in r.err, r.err
    assert not (sw.workdir / "trees" / "it-corrupt").exists()
    assert not (sw.workdir / "trees" / "it-corrupt.new").exists()


@pytest.mark.build
def test_missing_patch_names_series_line(sw, patches):
    r = sw.expect(EXIT_PATCH, "build", "--patches", patches,
                  "--series", "it-missing")
    assert "it-missing/series:1: " in r.err and "0001-gone.patch" in r.err


def test_unknown_config_key(sw, tmp_path):
    conf = tmp_path / "bad.conf"
    conf.write_text("jobs = 2\nbogus_key = 1\n")
    r = sw.expect(EXIT_CONFIG, "--config", conf, "build", "--baseline")
    assert "bad.conf:2: unknown key" in r.err


def test_missing_tarball(sw, tmp_path):
    conf = sw.write_config(tmp_path / "notar.conf",
                           kernel_tarball="/nonexistent/linux.tar.xz")
    r = sw.expect(EXIT_SETUP, "--config", conf, "build", "--baseline")
    assert "/nonexistent/linux.tar.xz: No such file" in r.err


def test_bad_option(sw):
    sw.expect(EXIT_USAGE, "build", "--no-such-option")
