# SPDX-License-Identifier: GPL-2.0
"""swapctl list: the shipped scenarios and the built kernels."""
import json

from harness import EXIT_OK, REPO


def manifest(kdir, variant, version, patches, built_at, secs, **more):
    d = kdir / variant
    d.mkdir(parents=True)
    (d / "bzImage").write_bytes(b"\0" * 16)
    m = {"variant": variant, "kernel_version": version,
         "patches": [{"name": p, "sha256": "0" * 64} for p in patches],
         "built_at": built_at, "build_seconds": secs}
    m.update(more)
    (d / "manifest.json").write_text(json.dumps(m))


def test_list_shows_scenarios_and_kernels(sw, tmp_path):
    wd = tmp_path / "wd"
    k = wd / "kernels"
    manifest(k, "baseline", "6.1.192", ["0001-a.patch"],
             "2026-12-03T13:26:38Z", 70.2)
    manifest(k, "swap-ops-debug", "6.1.192-dbg",
             ["0001-a.patch", "0002-b.patch"], "2026-12-03T14:00:00Z", 90)
    manifest(k, "odd", "unknown", [], "2026-12-03T15:00:00Z", 1)
    manifest(k, "next", "6.13.0-rc1", [], "2026-12-03T16:00:00Z", 1,
             kernel_line="6.12")
    (k / "half-built").mkdir()
    (k / "initramfs.cpio").write_bytes(b"")
    conf = sw.write_config(tmp_path / "list.conf", workdir=str(wd))

    d = sw.expect(EXIT_OK, "--config", conf, "list", "--json").json()
    shipped = sorted(REPO.glob("scenarios/*.json"))
    assert [s["file"] for s in d["scenarios"]] == [str(p) for p in shipped]
    for s, p in zip(d["scenarios"], shipped):
        src = json.loads(p.read_text())
        assert s["name"] == src["name"]
        assert s["backends"] == [b["type"] for b in src.get("swap", [])]
        assert s["description"] == src.get("description", "")
    kern = {x["variant"]: x for x in d["kernels"]}
    assert sorted(kern) == ["baseline", "half-built", "next", "odd",
                            "swap-ops-debug"]
    assert kern["baseline"]["version"] == "6.1.192"
    assert kern["baseline"]["patches"] == ["0001-a.patch"]
    assert kern["baseline"]["debug"] is False
    assert kern["baseline"]["built_at"] == "2026-12-03T13:26:38Z"
    assert kern["swap-ops-debug"]["debug"] is True
    assert len(kern["swap-ops-debug"]["patches"]) == 2
    assert "no manifest.json" in kern["half-built"]["error"]
    # the line: the manifest's kernel_line, else MAJOR.MINOR of the version
    assert kern["baseline"]["line"] == "6.1"
    assert kern["next"]["line"] == "6.12"
    assert kern["odd"]["line"] is None
    lines_of = {s["name"]: s["kernel_line"] for s in d["scenarios"]}
    assert lines_of["default"] == "6.1" and lines_of["bdev-swap"] is None

    r = sw.expect(EXIT_OK, "--config", conf, "list")
    lines = r.out.splitlines()
    assert any(x.split()[:2] == ["bdev-swap", "blk"] for x in lines)
    assert any(x.split()[:2] == ["multi-device", "blk,blk"] for x in lines)
    base = [x for x in lines if x.split()[:1] == ["baseline"]][0]
    assert "6.1.192" in base and "1 patch " in base and "(70 s)" in base
    assert base.split()[1:3] == ["6.1", "6.1.192"], base
    nxt = [x for x in lines if x.split()[:1] == ["next"]][0]
    assert nxt.split()[1:3] == ["6.12", "6.13.0-rc1"], nxt
    odd = [x for x in lines if x.split()[:1] == ["odd"]][0]
    assert odd.split()[1:3] == ["?", "unknown"], odd
    dflt = [x for x in lines if x.split()[:1] == ["default"]][0]
    assert dflt.split()[1:3] == ["blk", "(6.1)"], dflt
    dbg = [x for x in lines if x.split()[:1] == ["swap-ops-debug"]][0]
    assert "  debug  " in dbg and "2 patches" in dbg, dbg
    # a manifest from before "source": the tarball it names
    assert dbg.rstrip().endswith("tarball"), dbg


def test_list_without_kernels(sw, tmp_path):
    conf = sw.write_config(tmp_path / "empty.conf",
                           workdir=str(tmp_path / "none"))
    r = sw.expect(EXIT_OK, "--config", conf, "list")
    assert "(none: 'swapctl build --all')" in r.out
    d = sw.expect(EXIT_OK, "--config", conf, "list", "--json").json()
    assert d["kernels"] == [] and d["scenarios"]
