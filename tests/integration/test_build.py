# SPDX-License-Identifier: GPL-2.0
"""swapctl build: the kernels of the test work dir, errors that name the
patch, the hunk, the file and the line."""
import re

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
    # "up to date" and no make ran ("building", "objects compiled"): what
    # a no-op is, rather than a bound on its time (a wall-clock assert
    # on a shared host: it was "took < 30 s")
    r = kernels.expect(0, "build", "--all")
    assert "up to date" in r.err
    assert ": building (" not in r.err and "objects compiled" not in \
        r.err, r.err


@pytest.mark.build
def test_series_start_from_the_baseline_build(kernels):
    """A series built for the first time starts from a copy of the
    baseline's out/: make compiles the files the series change and what
    includes them, not the ~1500 objects of a full build."""
    log = getattr(kernels, "build_log", "")
    fresh = re.search(r"^swapctl build: %s: starting from (\S+)/out"
                      % re.escape(kernels.series), log, re.M)
    if not fresh:
        pytest.skip("the test work dir's %s tree was built before this "
                    "session (%s)" % (kernels.series, kernels.kernels_note))
    assert fresh.group(1).endswith("/trees/baseline")
    m = re.search(r"^swapctl build: %s: (\d+) objects compiled"
                  % re.escape(kernels.series), log, re.M)
    assert m, log[-2000:]
    full = re.search(r"^swapctl build: baseline: (\d+) objects compiled",
                     log, re.M)
    # measured: 465 of 1525 (swap-ops changes mm/ headers many include)
    assert int(m.group(1)) < 800, m.group(0)
    if full:
        assert int(m.group(1)) * 3 < int(full.group(1)), (m.group(0),
                                                          full.group(0))


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


@pytest.fixture
def series_root(tmp_path):
    """baseline (no series file), two series and a directory without one."""
    p = tmp_path / "series-root"
    (p / "baseline").mkdir(parents=True)
    for name in ("zz-late", "aa-early"):
        (p / name).mkdir()
        (p / name / "0001-x.patch").write_text(CORRUPT)
        (p / name / "series").write_text("0001-x.patch\n")
    (p / "notes").mkdir()
    (p / "notes" / "README").write_text("not a series\n")
    return p


def dry(sw, *args):
    r = sw.expect(0, "build", "--dry-run", "--json", *args)
    return r.json()


def test_dry_run_starts_nothing(sw, series_root):
    before = sorted(str(p) for p in sw.workdir.rglob("*"))
    r = sw.expect(0, "build", "--dry-run", "--patches", series_root,
                  "--series", "aa-early")
    assert "variant aa-early" in r.out and "0001-x.patch -p1" in r.out
    assert "nothing was started" in r.out
    assert "tinyconfig + " in r.out and "make -C " in r.out
    j = dry(sw, "--patches", series_root, "--series", "aa-early")
    assert j["dry_run"] is True and len(j["variants"]) == 1
    v = j["variants"][0]
    assert v["variant"] == "aa-early" and v["debug"] is False
    assert [p["name"] for p in v["patches"]] == ["0001-x.patch"]
    assert v["make"][:2] == ["make", "-C"] and "bzImage" in v["make"]
    assert v["kernel"].endswith("/kernels/aa-early/bzImage")
    # a corrupt patch is not applied by a dry run: nothing changed
    assert sorted(str(p) for p in sw.workdir.rglob("*")) == before


def test_all_builds_every_series_directory(sw, series_root):
    j = dry(sw, "--patches", series_root, "--all")
    assert [v["variant"] for v in j["variants"]] == \
        ["baseline", "aa-early", "zz-late"]
    assert j["variants"][0]["patches"] == []


def test_debug_variants(sw, series_root):
    j = dry(sw, "--patches", series_root, "--all", "--debug")
    names = [v["variant"] for v in j["variants"]]
    assert names == ["baseline-debug", "aa-early-debug", "zz-late-debug"]
    for v in j["variants"]:
        assert v["debug"] is True
        assert v["fragments"][-1].endswith("guest/debug.config")
        assert v["fragments"][0].endswith("guest/kernel.config")
        assert v["tree"].endswith("/trees/" + v["variant"])
        assert v["kernel"].endswith("/kernels/%s/bzImage" % v["variant"])


def test_default_is_baseline_and_configured_series(sw):
    j = dry(sw)
    assert [v["variant"] for v in j["variants"]] == ["baseline", sw.series]


def test_series_named_like_a_debug_variant(sw, series_root):
    (series_root / "aa-early").rename(series_root / "aa-debug")
    r = sw.expect(EXIT_PATCH, "build", "--dry-run", "--patches",
                  series_root, "--all")
    assert "aa-debug: a series name must not end in -debug" in r.err


def test_dry_run_excludes_clean(sw):
    r = sw.expect(EXIT_USAGE, "build", "--dry-run", "--clean")
    assert "exclude each other" in r.err


def test_config_set_variants(sw, series_root):
    """--config-set: a fragment of its own, merged last, and variants of
    their own (so a CONFIG_SWAP=n build never replaces the kernel)."""
    j = dry(sw, "--patches", series_root, "--series", "aa-early", "--debug",
            "--config-set", "CONFIG_MEMCG=n",
            "--config-set", "CONFIG_BLK_CGROUP=n")
    v, = j["variants"]
    assert v["variant"] == "aa-early-debug-cfg-memcg_n-blk_cgroup_n"
    assert v["config_set"] == ("# CONFIG_MEMCG is not set\n"
                               "# CONFIG_BLK_CGROUP is not set\n")
    assert v["fragments"][0].endswith("guest/kernel.config")
    assert v["fragments"][1].endswith("guest/debug.config")
    assert v["fragments"][2] == v["tree"] + "/out/swapctl-config-set.config"
    assert v["kernel"].endswith("/kernels/%s/bzImage" % v["variant"])
    r = sw.expect(0, "build", "--dry-run", "--patches", series_root,
                  "--all", "--config-set", "CONFIG_SWAP=n")
    assert "variant baseline-cfg-swap_n" in r.out
    assert "variant zz-late-cfg-swap_n" in r.out
    assert "  config-set # CONFIG_SWAP is not set" in r.out
    # without it, nothing says config_set
    assert "config_set" not in dry(sw, "--patches", series_root,
                                   "--series", "aa-early")["variants"][0]


@pytest.mark.parametrize("arg,why", [
    ("SWAP=n", "give CONFIG_SYMBOL=VALUE"),
    ("CONFIG_swap=n", "not a Kconfig symbol"),
    ("CONFIG_SWAP=no", "must be y, m, n or an integer"),
])
def test_config_set_refused(sw, arg, why):
    r = sw.expect(EXIT_USAGE, "build", "--dry-run", "--config-set", arg)
    assert "--config-set" in r.err and why in r.err, r.err
    r = sw.expect(EXIT_USAGE, "build", "--dry-run", "--config-set",
                  "CONFIG_SWAP=n", "--config-set", "CONFIG_SWAP=y")
    assert "CONFIG_SWAP: given twice" in r.err
