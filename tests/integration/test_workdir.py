# SPDX-License-Identifier: GPL-2.0
"""A run in a work dir whose path has characters that mean something in a
URI: the embedded driver must get the whole path as its root."""
import shutil
import tempfile
from pathlib import Path

import pytest

from harness import EXIT_OK, quick


@pytest.mark.boot
@pytest.mark.slow
def test_run_in_a_work_dir_with_ampersand_and_hash(guests, tmp_path):
    # short: the agent socket's path must stay under 108 bytes
    top = Path(tempfile.mkdtemp(prefix="swt", dir="/tmp"))
    try:
        one_run(guests, top, tmp_path)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def one_run(guests, top, tmp_path):
    wd = top / "w&d#x"
    k = wd / "kernels"
    k.mkdir(parents=True)
    src = guests.workdir / "kernels"
    (k / "baseline").symlink_to((src / "baseline").resolve())
    (k / "initramfs.cpio").symlink_to((src / "initramfs.cpio").resolve())
    conf = guests.write_config(tmp_path / "amp.conf", workdir=str(wd))
    r = guests.run("--config", conf, "run", "--json", "--kernels",
                   "baseline", quick("bdev-swap"), timeout=900)
    assert r.rc == EXIT_OK, r
    assert r.json()["results"][0]["status"] == "pass"
    # the driver's root is <wd>/libvirt, not a path cut at '&' or '#'
    assert (wd / "libvirt").is_dir()
    assert not (top / "w").exists()
    guests.assert_no_leftovers(wd)
