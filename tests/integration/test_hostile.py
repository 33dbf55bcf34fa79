# SPDX-License-Identifier: GPL-2.0
"""Hostile files and inputs (issue 33): no hang, nothing written through
a link, every refusal one line with its documented exit code. No guest
needed."""
import fcntl
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import time

import pytest

import harness
from harness import JANSSON_WORDS, EXIT_CONFIG, EXIT_DATA, EXIT_INTERRUPTED, EXIT_OK, \
    EXIT_OUTPUT, EXIT_SETUP, EXIT_USAGE

# what every one of these commands must finish within
QUICK = 20


@pytest.fixture
def live_run(demo_run, tmp_path):
    """A work dir whose one run says "running": <wd>/runs/<id>,
    runs/latest naming it, a run.lock (held by the test while it runs)."""
    return harness.running_run(demo_run, tmp_path)


def replace(path, how, target=None):
    """Make @path a FIFO, a link to @target, a directory or a sparse file
    of @target bytes."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    if how == "fifo":
        os.mkfifo(path)
    elif how == "link":
        path.symlink_to(target)
    elif how == "dir":
        path.mkdir()
    elif how == "sparse":
        with open(path, "wb") as f:
            f.truncate(target)


def test_top_live_stops_on_sigterm_while_a_file_never_ends(sw, live_run):
    # item 1: a live samples.jsonl that does not reach its end (1 TiB of
    # holes): each poll reads a bounded amount, SIGTERM exits 130
    replace(live_run / "patched-1" / "samples.jsonl", "sparse", 1 << 40)
    with open(live_run.parent.parent / "run.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = sw.popen("top", "-b", "-d", "1", live_run,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(2)
        p.send_signal(signal.SIGTERM)
        try:
            rc = p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            pytest.fail("top -b ignored SIGTERM while reading")
        p.stderr.close()
    assert rc == EXIT_INTERRUPTED


def test_top_live_refuses_dev_zero(sw, live_run):
    # item 1: /dev/zero is no samples file
    replace(live_run / "patched-1" / "samples.jsonl", "link", "/dev/zero")
    with open(live_run.parent.parent / "run.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        r = sw.run("top", "-b", "-d", "1", live_run, timeout=QUICK)
    assert r.rc == EXIT_DATA, r
    assert "patched-1/samples.jsonl: not a regular file" in r.err, r.err
    assert len(r.err.splitlines()) == 1


@pytest.mark.parametrize("how,target", [("fifo", None),
                                        ("link", "/dev/zero"),
                                        ("dir", None)])
def test_run_readers_refuse_what_is_no_regular_file(sw, demo_run, how,
                                                     target):
    # item 2 (a FIFO blocked open() for ever) and item 11 (a directory or
    # /dev/zero was "empty (the guest sent nothing)")
    replace(demo_run / "patched-1" / "samples.jsonl", how, target)
    for cmd in (["report"], ["top", "-b"], ["top", "--once"],
                ["bisect", "--run"]):
        r = sw.run(*cmd, demo_run, timeout=QUICK)
        assert r.rc == EXIT_DATA, r
        assert "patched-1/samples.jsonl: " in r.err, r.err
        assert ("not a regular file" if how != "dir" else
                "Is a directory") in r.err, r.err
        assert len(r.err.splitlines()) == 1


def test_validate_and_config_refuse_a_fifo(sw, tmp_path):
    # item 2: validate fifo.json and --config fifo.conf blocked in open()
    os.mkfifo(tmp_path / "fifo.json")
    r = sw.run("validate", tmp_path / "fifo.json", timeout=QUICK)
    assert r.rc == EXIT_CONFIG, r
    assert "fifo.json: not a regular file" in r.err, r.err
    os.mkfifo(tmp_path / "fifo.conf")
    r = sw.run("--config", tmp_path / "fifo.conf", "list", timeout=QUICK)
    assert r.rc == EXIT_CONFIG, r
    assert "fifo.conf: not a regular file" in r.err, r.err


def limit_memory():
    # before the fix --config /dev/zero grew without bound
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_config_file_is_capped(sw, tmp_path):
    # item 3: the configuration file is read with a size limit
    p = subprocess.run([str(harness.SWAPCTL), "--config", "/dev/zero",
                        "list"], cwd=str(harness.REPO), env=sw.env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=QUICK, preexec_fn=limit_memory)
    assert p.returncode == EXIT_CONFIG, p
    assert "/dev/zero: not a regular file" in p.stderr, p.stderr
    big = tmp_path / "big.conf"
    big.write_text("# filler\n" * 200000)
    r = sw.run("--config", big, "list", timeout=QUICK)
    assert r.rc == EXIT_CONFIG, r
    assert "big.conf: larger than 1024 KiB" in r.err, r.err


def test_not_a_run_is_refused(sw, tmp_path, demo_run):
    # item 5: any directory with <name>-<N> subdirectories was a run
    etc = tmp_path / "etc"
    (etc / "dbus-1").mkdir(parents=True)
    (etc / "polkit-1").mkdir()
    for cmd in (["report"], ["top", "-b"], ["bisect", "--run"]):
        r = sw.run(*cmd, etc, timeout=QUICK)
        assert r.rc == EXIT_DATA, r
        assert "not a run directory" in r.err, r.err
    # a run whose every samples.jsonl was deleted
    for g in ("baseline-1", "patched-1"):
        (demo_run / g / "samples.jsonl").unlink()
    for cmd in (["report"], ["top", "-b"], ["bisect", "--run"]):
        r = sw.run(*cmd, demo_run, timeout=QUICK)
        assert r.rc == EXIT_DATA, r
        assert "no guest has a samples.jsonl" in r.err, r.err


def test_list_tells_a_corrupt_manifest_from_a_missing_one(sw, tmp_path):
    # item 11: a corrupt manifest.json was "no manifest.json"
    wd = tmp_path / "wd"
    (wd / "kernels" / "baseline").mkdir(parents=True)
    (wd / "kernels" / "baseline" / "manifest.json").write_text("{\"x\": ")
    (wd / "kernels" / "patched").mkdir()
    conf = sw.write_config(tmp_path / "c.conf", workdir=str(wd))
    r = sw.run("--config", conf, "list", "--json", timeout=QUICK)
    assert "manifest.json:1:" in r.out, r
    assert "x: expected a value, at the end of the text" in r.out, r
    assert "no manifest.json" in r.out, r


def test_exit_ok_on_the_demo_run(sw, demo_run):
    sw.expect(EXIT_OK, "report", demo_run, timeout=QUICK)


def test_samples_going_back_in_time_are_reported(sw, demo_run):
    # item 6: a clock running backwards gave "0.00x worse" and exit 0
    p = demo_run / "patched-1" / "samples.jsonl"
    lines = [json.loads(x) for x in p.read_text().splitlines()]
    top = max(x["t_ns"] for x in lines) + 10 ** 9
    for x in lines:
        x["t_ns"] = top - x["t_ns"]
    p.write_text("".join(json.dumps(x) + "\n" for x in lines))
    for cmd in (["report"], ["top", "-b"], ["bisect", "--run"]):
        r = sw.run(*cmd, demo_run, timeout=QUICK)
        assert r.rc == EXIT_DATA, r
        assert "patched-1/samples.jsonl: 191 samples went back in time" \
            in r.err, r.err


def test_run_kernel_names_and_given_files_are_checked(sw, tmp_path):
    # item 7: --kernel NAME=FILE with a NAME not among the run's kernels
    # was ignored; --dry-run said nothing of given files that are missing
    scn = harness.REPO / "scenarios" / "zram-swap.json"
    r = sw.run("run", "--dry-run", "--kernel", "pached=/nonexistent", scn,
               timeout=QUICK)
    assert r.rc == EXIT_USAGE, r
    assert "'pached' is not a kernel of this run (baseline, patched)" \
        in r.err, r.err
    r = sw.run("run", "--dry-run", "--kernel", "baseline=/nonexistent", scn,
               timeout=QUICK)
    assert r.rc == EXIT_SETUP, r
    assert "kernel baseline: /nonexistent: No such file" in r.err, r.err
    r = sw.run("run", "--dry-run", "--initramfs", "/nonexistent", scn,
               timeout=QUICK)
    assert r.rc == EXIT_SETUP, r
    assert "/nonexistent: No such file" in r.err, r.err
    r = sw.run("run", "--dry-run", "--initramfs", tmp_path, scn,
               timeout=QUICK)
    assert r.rc == EXIT_SETUP, r
    assert "not a regular file" in r.err, r.err


@pytest.mark.parametrize("change,why", [
    ({"kernels": ["patched", "swap-ops"]}, '"patched" is "swap-ops"'),
    ({"kernels": ["baseline", "each"]}, '"each" is reserved'),
])
def test_validate_refuses_what_run_refuses(sw, tmp_path, change, why):
    # item 8: validate said ok where run refused or compared a kernel
    # with itself
    scn = json.loads((harness.REPO / "scenarios" /
                      "zram-swap.json").read_text())
    scn.update(change)
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn))
    conf = sw.write_config(tmp_path / "c.conf", series="swap-ops")
    for cmd in (["validate"], ["run", "--dry-run"]):
        r = sw.run("--config", conf, *cmd, f, timeout=QUICK)
        assert r.rc == EXIT_CONFIG, r
        assert why in r.err, r.err


def test_validate_refuses_mthp_on_an_old_line(sw, tmp_path):
    scn = json.loads((harness.REPO / "scenarios" /
                      "mthp-swap.json").read_text())
    scn.pop("kernel_line", None)
    f = tmp_path / "m.json"
    f.write_text(json.dumps(scn))
    conf = sw.write_config(tmp_path / "c.conf", kernel_line="6.1")
    for cmd in (["validate"], ["run", "--dry-run"]):
        r = sw.run("--config", conf, *cmd, f, timeout=QUICK)
        assert r.rc == EXIT_CONFIG, r
        assert "mthp: kernel line 6.1" in r.err, r.err
    r = sw.run("run", "--dry-run", "--kernels", "baseline,,patched",
               harness.REPO / "scenarios" / "zram-swap.json", timeout=QUICK)
    assert r.rc == EXIT_USAGE and "'' is empty" in r.err, r


def test_build_dry_run_refuses_a_workdir_inside_the_repository(sw, tmp_path):
    # item 9: the dry run passed it; the build refused it after creating
    # the directory
    inside = harness.REPO / "wd-inside-test-33"
    assert not inside.exists()
    conf = sw.write_config(tmp_path / "in.conf", workdir=str(inside / "x"))
    r = sw.run("--config", conf, "build", "--dry-run", "--baseline",
               timeout=QUICK)
    assert r.rc == EXIT_CONFIG, r
    assert "must not be inside the repository" in r.err, r.err
    conf = sw.write_config(tmp_path / "in2.conf", workdir=str(inside / "x"),
                           kernel_tarball="/nonexistent.tar.xz")
    r = sw.run("--config", conf, "build", "--baseline", timeout=QUICK)
    created = inside.exists()
    if created:
        shutil.rmtree(inside)
    assert r.rc == EXIT_CONFIG, r
    assert not created


def make_n(*args):
    return subprocess.run(["make", "-n", "-B", *args, "build/core/util.o"],
                          cwd=str(harness.REPO), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          timeout=QUICK).stdout


def test_makefile_lets_sanitizer_builds_through():
    # item 16: -Werror was forced into every CFLAGS, so gcc's warnings
    # under -fsanitize (-Wrestrict in run.c) failed the build
    assert " -Werror " in make_n()
    out = make_n("CFLAGS=-O1 -g -fsanitize=address,undefined")
    assert "-fsanitize=address,undefined" in out, out
    assert "-Werror" not in out, out
    out = make_n("-p")
    assert re.search(r"^check:.*\bcheck-asan\b", out, re.M), \
        "make check does not run check-asan"


def test_reasons_say_what_is_wrong(sw, tmp_path, demo_run):
    # item 11: misleading reasons
    (tmp_path / "dir.json").mkdir()
    r = sw.run("validate", tmp_path / "dir.json", timeout=QUICK)
    assert r.rc == EXIT_CONFIG and "dir.json: Is a directory" in r.err, r
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + (harness.REPO / "scenarios" /
                                       "zram-swap.json").read_bytes())
    r = sw.run("validate", bom, timeout=QUICK)
    assert r.rc == EXIT_CONFIG, r
    assert "bom.json:1:1: starts with a UTF-8 byte order mark" in r.err, r
    svg = tmp_path / "keep.svg"
    svg.symlink_to(tmp_path / "nothing")
    r = sw.run("report", "--svg", svg, demo_run, timeout=QUICK)
    assert r.rc == EXIT_OUTPUT, r
    assert "a link to nothing (dangling" in r.err, r.err
    assert not (tmp_path / "nothing").exists()
    wd = tmp_path / "wd"
    (wd / "runs").mkdir(parents=True)
    (wd / "runs" / "latest").symlink_to("20990101-000000-gone")
    conf = sw.write_config(tmp_path / "c.conf", workdir=str(wd))
    for cmd in (["report"], ["top", "--once"]):
        r = sw.run("--config", conf, *cmd, timeout=QUICK)
        assert r.rc == EXIT_SETUP, r
        assert "names 20990101-000000-gone, which is no run directory" \
            in r.err, r.err


JSON_ERRORS = [
    # (text, what the message must say after "<file>:<line>:<column>: ")
    ('{"name": "x", "swap": [{"type": "zram", '
     '"size_mb": 99999999999999999999999}]}',
     "swap[0].size_mb: an integer above 2^63-1"),
    ('{"name": "a\\u0000b"}',
     "name: \\u0000 (a NUL character) in a string"),
    ('{"name": "x", "workload": {"size_mb": 1e999}}',
     "workload.size_mb: a number beyond 1.8e308"),
    ('{"name": "x", "repeat": NaN}',
     "repeat: not a JSON value (NaN, Infinity and bare words are not JSON)"),
    ('{"name": "x", "name": "y"}', "a key given twice, at '\"name\"'"),
    ('{"name": "x", "kernels": [', "kernels[0]: "),
    ('"x"', "expected a JSON object {...} or array [...]"),
]


@pytest.mark.parametrize("text,why", JSON_ERRORS)
def test_json_errors_name_the_key_in_our_words(sw, tmp_path, text, why):
    # item 12: scenario files (validate, run), manifest.json (list) and
    # summary.json (report) say the key path and what is wrong in our
    # words, never jansson's ("too big integer near ...", JSON_ALLOW_NUL)
    f = tmp_path / "s.json"
    f.write_text(text)
    for cmd in (["validate"], ["run", "--dry-run"]):
        r = sw.run(*cmd, f, timeout=QUICK)
        assert r.rc == EXIT_CONFIG, r
        assert re.search(r"s\.json:\d+:\d+: " + re.escape(why), r.err), r.err
        assert not [w for w in JANSSON_WORDS if w in r.err], r.err
    if "twice" in why:
        return      # manifests and summaries may repeat a key
    wd = tmp_path / "wd"
    (wd / "kernels" / "baseline").mkdir(parents=True)
    (wd / "kernels" / "baseline" / "manifest.json").write_text(text)
    conf = sw.write_config(tmp_path / "c.conf", workdir=str(wd))
    r = sw.expect(EXIT_OK, "--config", conf, "list", timeout=QUICK)
    assert re.search(r"manifest\.json:\d+:\d+: " + re.escape(why), r.out), \
        r.out
    assert not [w for w in JANSSON_WORDS if w in r.out + r.err], r.out
    run = tmp_path / "run"
    shutil.copytree(harness.REPO / "tests" / "fixtures" / "run-demo", run)
    (run / "summary.json").write_text(text)
    for cmd in (["report"], ["bisect", "--run"]):
        r = sw.expect(EXIT_OK, *cmd, run, timeout=QUICK)
        assert re.search(r"summary\.json:\d+:\d+: " + re.escape(why),
                         r.err), r.err
        assert not [w for w in JANSSON_WORDS if w in r.out + r.err], r.err


def test_same_cause_same_code(sw, tmp_path):
    # item 14: metrics > /dev/full was 1, others 10; bisect --run was 4
    with open("/dev/full", "w") as full:
        for cmd in (["metrics"], ["metrics", "--json"], ["list"],
                    ["report", harness.REPO / "tests" / "fixtures" /
                     "run-demo"]):
            r = sw.run(*cmd, stdout=full, timeout=QUICK)
            assert r.rc == EXIT_OUTPUT, r
    for cmd in (["report"], ["top", "--once"], ["bisect", "--run"]):
        r = sw.run(*cmd, tmp_path / "absent", timeout=QUICK)
        assert r.rc == EXIT_USAGE, r


def test_top_speed_has_a_floor(sw, demo_run):
    # item 10: --speed 1e-300 never finished
    r = sw.run("top", "-b", "--speed", "1e-300", demo_run, timeout=QUICK)
    assert r.rc == EXIT_USAGE and "from 0.01 to 10000" in r.err, r


def test_silent_acceptances_are_refused_or_warned(sw, tmp_path, demo_run):
    # item 10
    r = sw.run("build", "--dry-run", "--series", "bhe-ops", "--series",
               "swap-ops", timeout=QUICK)
    assert r.rc == EXIT_USAGE, r
    assert "option '--series' given twice" in r.err, r.err
    (demo_run / "summary.json").write_text('{"kernel_line": "6.1"}')
    r = sw.run("bisect", "--run", demo_run, "--line", "6.12", timeout=QUICK)
    assert r.rc == EXIT_USAGE, r
    assert "is a run of line 6.1" in r.err, r.err
    sw.expect(EXIT_OK, "bisect", "--run", demo_run, "--line", "6.1",
              timeout=QUICK)
    other = harness.REPO / "tests" / "fixtures" / "run-zram-unfixed"
    r = sw.run("report", demo_run, other, timeout=QUICK)
    assert "warning: run-demo is a run of scenario 'demo-blk', " \
        "run-zram-unfixed of 'zram-swap'" in r.err, r.err


def test_fixture_scenarios_validate(sw):
    # the run-demo fixture's scenario.json used "backends"
    for f in (harness.REPO / "tests" / "fixtures").glob("run-*/scenario.json"):
        sw.expect(EXIT_OK, "validate", f, timeout=QUICK)


def test_build_line_names_what_make_deps_installs(sw):
    # item 11: build --line 6.2 said 'make deps' installs linux-source-6.2
    deps = re.findall(r"linux-source-(\d+\.\d+)",
                      (harness.REPO / "Makefile").read_text())
    kline = (harness.REPO / "src" / "core" / "kline.h").read_text()
    assert re.search(r'#define KLINE_DEPS\s+"%s"' % " ".join(deps), kline)
    r = sw.run("build", "--dry-run", "--line", "6.2", "--baseline",
               timeout=QUICK)
    assert r.rc == EXIT_SETUP, r
    assert "installs linux-source-6.2" not in r.err, r.err
    assert "install linux-source-6.2, or name a tarball" in r.err, r.err


def test_one_table_of_exit_codes(sw):
    # item 14: enum swapctl_exit, swapctl(1) EXIT STATUS and every
    # command's --help agree
    man = (harness.REPO / "man" / "swapctl.1").read_text()
    sec = man.split(".SH EXIT STATUS", 1)[1].split("\n.SH ", 1)[0]
    man_codes = {int(x) for x in re.findall(r"^\.TP\n\.B (\d+)$", sec,
                                             re.M)}
    assert man_codes == set(harness.EXIT_CODES.values())
    r = sw.expect(EXIT_OK, "--help")
    assert {int(x) for x in re.findall(r"^ +(\d+)  ", r.out.split(
        "exit codes")[1], re.M)} == man_codes, r.out
    for cmd in ("build", "run", "top", "report", "validate", "metrics",
                "list", "bisect"):
        r = sw.expect(EXIT_OK, cmd, "--help")
        assert "exit codes (swapctl(1), EXIT STATUS):" in r.out, cmd
        listed = {int(x) for x in re.findall(
            r"^ +(\d+)  ", r.out.split("exit codes")[1], re.M)}
        assert {0, 2, 3} <= listed <= man_codes, (cmd, listed)
