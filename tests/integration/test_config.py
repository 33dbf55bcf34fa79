# SPDX-License-Identifier: GPL-2.0
"""swapctl.conf: what is refused when the file is read, with FILE:LINE,
and what run refuses or warns about before starting (no guest)."""
import json

import pytest

from harness import EXIT_CONFIG, EXIT_OK, EXIT_USAGE, REPO

DEFAULT = REPO / "scenarios" / "default.json"
NFS = REPO / "scenarios" / "nfs-swap.json"


def test_duplicate_key_is_refused(sw, tmp_path):
    conf = tmp_path / "dup.conf"
    conf.write_text("jobs = 2\nccache = yes\njobs = 4\n")
    r = sw.expect(EXIT_CONFIG, "--config", conf, "validate", DEFAULT)
    assert "dup.conf:3: jobs: set twice (first on line 1)" in r.err, r.err
    assert len(r.err.splitlines()) == 1


@pytest.mark.parametrize("uri", ["garbage", "qemu:/system",
                                 "qemu:///sys tem", "://x/y"])
def test_garbage_libvirt_uri_is_refused_at_load(sw, tmp_path, uri):
    conf = tmp_path / "uri.conf"
    conf.write_text("nfs_port = 20491\nlibvirt_uri = %s\n" % uri)
    # refused by any command, long before run would connect
    r = sw.expect(EXIT_CONFIG, "--config", conf, "validate", DEFAULT)
    assert "uri.conf:2: libvirt_uri: '%s' is not a libvirt URI" % uri \
        in r.err, r.err


@pytest.mark.parametrize("uri", ["qemu:///system", "qemu+ssh://h/system",
                                 "qemu:///embed?root=/x/libvirt", ""])
def test_libvirt_uris_that_are_fine(sw, tmp_path, uri):
    conf = sw.write_config(tmp_path / "ok.conf", libvirt_uri=uri)
    r = sw.expect(EXIT_OK, "--config", conf, "run", "--dry-run", "--json",
                  DEFAULT)
    if uri:
        assert r.json()["uri"] == uri


def test_run_refuses_a_work_dir_inside_the_repository(sw, tmp_path):
    conf = sw.write_config(tmp_path / "in-repo.conf",
                           workdir=str(REPO / "build" / "wd-in-repo"))
    r = sw.expect(EXIT_CONFIG, "--config", conf, "run", "--dry-run",
                  DEFAULT)
    assert "the work directory must not be inside the repository" in r.err
    assert not (REPO / "build" / "wd-in-repo").exists()


def has_vmx():
    with open("/proc/cpuinfo") as f:
        flags = [line.split() for line in f if line.startswith("flags")]
    return any("vmx" in f or "svm" in f for f in flags)


def test_accel_kvm_without_vmx_warns(sw, tmp_path):
    if has_vmx():
        pytest.skip("this CPU has vmx/svm: accel = kvm is fine here")
    conf = sw.write_config(tmp_path / "kvm.conf", accel="kvm")
    r = sw.expect(EXIT_OK, "--config", conf, "run", "--dry-run", DEFAULT)
    assert "swapctl run: warning: accel = kvm, but /proc/cpuinfo has no " \
        "vmx or svm flag" in r.err, r.err
    assert "# accelerator: KVM (accel = kvm, but" in r.out
    assert "<domain type='kvm'>" in r.out
    auto = sw.expect(EXIT_OK, "run", "--dry-run", DEFAULT)
    assert "warning" not in auto.err
    assert "# accelerator: TCG (accel = auto: /proc/cpuinfo has no vmx " \
        "or svm flag)" in auto.out


def test_append_key_and_option_reach_the_kernel_command_line(sw, tmp_path):
    conf = sw.write_config(tmp_path / "append.conf",
                           append="\"transparent_hugepage=never\"")
    r = sw.expect(EXIT_OK, "--config", conf, "run", "--dry-run", "--json",
                  "--append", "swiotlb=noforce quiet", DEFAULT).json()
    want = "console=ttyS0 panic=-1 loglevel=5 no_timer_check " \
        "transparent_hugepage=never swiotlb=noforce quiet"
    assert r["cmdline"] == want
    for d in r["domains"]:
        assert "<cmdline>%s</cmdline>" % want in d["xml"]


def test_append_that_cannot_be_a_command_line_is_refused(sw, tmp_path):
    r = sw.expect(EXIT_USAGE, "run", "--dry-run", "--append", "a\nb",
                  DEFAULT)
    assert "--append" in r.err and "0x0a" in r.err
    conf = tmp_path / "append.conf"
    conf.write_text("append = a\tb\n")
    r = sw.expect(EXIT_CONFIG, "--config", conf, "validate", DEFAULT)
    assert "append.conf:1: append: byte 0x09" in r.err


def test_a_quote_in_the_work_dir_is_refused_for_nfs(sw, tmp_path):
    wd = tmp_path / 'w"d'
    conf = sw.write_config(tmp_path / "q.conf", workdir=str(wd))
    r = sw.expect(EXIT_CONFIG, "--config", conf, "run", "--dry-run", NFS)
    assert "has a '\"', which ganesha.conf cannot quote" in r.err, r.err
    # without NFS there is no ganesha.conf: fine
    sw.expect(EXIT_OK, "--config", conf, "run", "--dry-run", DEFAULT)


def test_work_dir_with_ampersand_and_hash_is_encoded_in_the_uri(sw,
                                                               tmp_path):
    wd = tmp_path / "w&d#x y%"
    conf = sw.write_config(tmp_path / "amp.conf", workdir=str(wd))
    r = sw.expect(EXIT_OK, "--config", conf, "run", "--dry-run", "--json",
                  DEFAULT).json()
    enc = str(tmp_path).replace("%", "%25") + "/w%26d%23x%20y%25/libvirt"
    assert r["uri"] == "qemu:///embed?root=" + enc, r["uri"]


def test_dry_run_shows_what_would_start(sw):
    r = sw.expect(EXIT_OK, "run", "--dry-run", NFS)
    lines = r.out.splitlines()
    assert lines[0].startswith("# accelerator: ")
    assert any(x.startswith("# libvirt URI: qemu:///embed?root=%s"
                            % sw.workdir) for x in lines)
    assert "# guest: 256 MiB, 2 vCPUs; kernel command line: console=ttyS0" \
        in r.out
    assert "ganesha.conf:" in r.out and "NFS_Port = %d;" % sw.nfs_port \
        in r.out
    r = sw.expect(EXIT_OK, "run", "--dry-run",
                  REPO / "scenarios" / "multi-device.json")
    assert "# disk vda: 256 MiB sparse image for swap[0] (blk)" in r.out
    assert "# disk vdb: 256 MiB sparse image for swap[1] (blk)" in r.out


def test_dry_run_json(sw):
    d = sw.expect(EXIT_OK, "run", "--dry-run", "--json", NFS).json()
    assert d["dry_run"] is True and d["scenario"] == "nfs-swap"
    assert d["accel"] in ("kvm", "tcg") and d["accel_why"]
    assert d["uri"].startswith("qemu:///embed?root=")
    assert [g["guest"] for g in d["domains"]] == ["baseline-1", "patched-1"]
    assert all("<domain" in g["xml"] for g in d["domains"])
    assert d["nfs"]["port"] == sw.nfs_port
    assert "Pseudo = /export;" in d["nfs"]["ganesha_conf"]
    assert d["plan"].startswith("# swapctl plan")
    d = sw.expect(EXIT_OK, "run", "--dry-run", "--json",
                  REPO / "scenarios" / "ext4-swapfile.json").json()
    assert d["nfs"] is None
    assert d["disks"] == [{"dev": "vda", "swap_index": 0,
                           "backend": "ext4file", "size_mb": 608}]


@pytest.mark.parametrize("opt", ["--patched-kernel", "--baseline-kernel",
                                 "--initramfs", "--append", "--kernels"])
def test_dry_run_refuses_empty_values(sw, opt):
    r = sw.expect(EXIT_USAGE, "run", "--dry-run", opt, "", DEFAULT)
    assert opt in r.err and len(r.err.splitlines()) == 1
