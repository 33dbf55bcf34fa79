# SPDX-License-Identifier: GPL-2.0
"""swapctl run --parallel N: the schedule (--dry-run), the refusal of an N
whose guests do not fit the host's memory, a parallel run with every guest
accounted for and the serial run's verdicts, and Ctrl-C during one."""
import json
import re
import signal
import subprocess
import time

import pytest

from harness import EXIT_INTERRUPTED, EXIT_USAGE, REPO, quick, untimed
from test_run import check_result, check_verdicts

BDEV = REPO / "scenarios" / "bdev-swap.json"
NFS = REPO / "scenarios" / "nfs-swap.json"

# What a serial bdev-swap run with repeats says of the counters the
# workload fixes (README, make bench): the same pages out and in, fewer
# and fuller write and read I/Os, nothing corrupt.
SERIAL_VERDICTS = {
    "pswpout": "no significant change",
    "pswpin": "no significant change",
    "nrswpout": "better",
    "write_pages_per_io": "better",
    "read_pages_per_io": "better",
    "pages_corrupt": "no significant change",
}


def meminfo():
    out = {}
    for line in open("/proc/meminfo"):
        k, v = line.split(":", 1)
        out[k] = int(v.split()[0]) // 1024
    return out


def test_dry_run_shows_the_waves(sw):
    d = sw.expect(0, "run", "--dry-run", "--json", "--parallel", "2",
                  "--repeat", "3", BDEV).json()
    assert d["parallel"] == 2
    assert d["waves"] == [["baseline-%d" % i, "patched-%d" % i]
                          for i in (1, 2, 3)]
    text = sw.expect(0, "run", "--dry-run", "--parallel", "2",
                     "--repeat", "3", BDEV).out
    assert "# schedule: 2 guests at once (--parallel 2), 3 waves" in text
    assert "#   wave 2: baseline-2 patched-2\n" in text
    # 3 rounds down to whole repeats; the last wave holds what is left
    d = sw.expect(0, "run", "--dry-run", "--json", "--parallel", "5",
                  "--repeat", "3", BDEV).json()
    assert d["parallel"] == 4
    assert d["waves"] == [["baseline-1", "patched-1", "baseline-2",
                           "patched-2"], ["baseline-3", "patched-3"]]
    # serial by default (parallel = 1)
    d = sw.expect(0, "run", "--dry-run", "--json", "--repeat", "2",
                  BDEV).json()
    assert d["parallel"] == 1 and len(d["waves"]) == 4


def test_dry_run_parallel_from_config(sw, tmp_path):
    conf = tmp_path / "par.conf"
    sw.write_config(conf, parallel="2")
    d = sw.expect(0, "--config", conf, "run", "--dry-run", "--json",
                  BDEV).json()
    assert d["parallel"] == 2 and d["waves"] == [["baseline-1",
                                                  "patched-1"]]
    # the option wins
    d = sw.expect(0, "--config", conf, "run", "--dry-run", "--json",
                  "--parallel", "1", BDEV).json()
    assert d["parallel"] == 1


def test_dry_run_nfs_ports(sw):
    """One NFS server per guest of a wave, each guest's plan naming its
    own port."""
    d = sw.expect(0, "run", "--dry-run", "--json", "--parallel", "2",
                  NFS).json()
    port = d["nfs"]["port"]
    assert d["nfs"]["last_port"] == port + 1
    assert "port=%d " % port in d["plan"]


def big_scenario(tmp_path):
    """bdev-swap with a guest as large as one may be (3/4 of MemTotal,
    at most 65536 MiB) and the N whose guests exceed MemAvailable."""
    mi = meminfo()
    mb = min(65536, mi["MemTotal"] * 3 // 4 - 1)
    n = 2
    while n * mb <= mi["MemAvailable"]:
        n += 1
    if n > 16:
        pytest.skip("this host fits 16 guests of %d MiB" % mb)
    scn = json.loads(BDEV.read_text())
    scn["name"] = "bdev-swap-big"
    scn["guest"]["memory_mb"] = mb
    path = tmp_path / "big.json"
    path.write_text(json.dumps(scn))
    return path, mb, n


def test_refuses_what_does_not_fit(sw, tmp_path):
    path, mb, n = big_scenario(tmp_path)
    # one such guest fits: the serial run is not refused
    sw.expect(0, "run", "--dry-run", "--json", path)
    r = sw.expect(EXIT_USAGE, "run", "--dry-run", "--parallel", str(n),
                  path)
    m = re.search(r"^swapctl run: --parallel %d: %d guests x (\d+) MiB = "
                  r"(\d+) MiB > (\d+) MiB available \(MemAvailable; a "
                  r"guest is %d MiB of RAM \+ (\d+) MiB for QEMU\)$"
                  % (n, n, mb), r.err, re.M)
    assert m, r.err
    per, total, avail, qemu = map(int, m.groups())
    assert per == mb + qemu and total == n * per
    assert total > avail
    assert abs(avail - meminfo()["MemAvailable"]) < 2048
    assert r.out == ""
    # the same from swapctl.conf, which the message names
    conf = tmp_path / "par.conf"
    sw.write_config(conf, parallel=str(n))
    r = sw.expect(EXIT_USAGE, "--config", conf, "run", "--dry-run", path)
    assert "swapctl run: parallel = %d (%s): %d guests x" % (n, conf, n) \
        in r.err, r.err


def test_cpus_beyond_the_host_are_a_warning(sw):
    import os
    n = 2 * os.cpu_count()
    r = sw.expect(0, "run", "--dry-run", "--parallel", str(n),
                  "--repeat", str(n), BDEV)
    assert re.search(r"^swapctl run: warning: --parallel %d: %d guests x "
                     r"2 vCPUs = %d vCPUs > %d host CPUs" %
                     (n, n, 2 * n, os.cpu_count()), r.err, re.M), r.err


def host_span(rundir, guest):
    """The first and last host t_ns of a guest's samples.jsonl."""
    ts = [json.loads(line)["t_ns"]
          for line in (rundir / guest / "samples.jsonl").open()
          if '"type":"host"' in line]
    assert ts, "%s: no host line" % guest
    return ts[0] / 1e9, ts[-1] / 1e9


@pytest.mark.boot
@pytest.mark.slow
def test_parallel_bdev_swap(runs, tmp_path):
    """bdev-swap-quick on its two kernels, two repeats two guests at a
    time: every guest accounted for, the serial run's verdicts on the
    counters, the waves' order. Timing is not gated (harness.untimed):
    two repeats on two shared cores once made workload_seconds a 1.049x
    "regression"."""
    run = runs.get(untimed(quick("bdev-swap"), tmp_path,
                           ["baseline", "patched"]),
                   "--parallel", "2", "--repeat", "2")
    d = run.json
    assert d is not None, "no JSON on stdout: %r" % run
    errs = []

    def need(cond, what):
        if not cond:
            errs.append(what)
    # every guest, in the serial order whatever order they ended in
    need([(r["kernel"], r["rep"]) for r in d["results"]] ==
         [("baseline", 1), ("patched", 1), ("baseline", 2), ("patched", 2)],
         "results %r" % [(r["kernel"], r["rep"]) for r in d["results"]])
    for r in d["results"]:
        check_result(r, need)
    check_verdicts(d, need)
    need(d["parallel"] == 2 and d["repeat"] == 2,
         "parallel %r, repeat %r" % (d["parallel"], d["repeat"]))
    need(d["waves"] == [["baseline-1", "patched-1"],
                        ["baseline-2", "patched-2"]], "waves %r" % d["waves"])
    got = {c["metric"]: c["verdict"] for c in d["comparisons"]}
    for metric, verdict in SERIAL_VERDICTS.items():
        need(got.get(metric) == verdict, "%s: %r, a serial run says %r"
             % (metric, got.get(metric), verdict))
    assert run.rc == 0 and not errs, "%r\n%s" % (run, "\n".join(errs))
    # a wave's guests ran at the same time (each started before the
    # other ended: an order, not a time); the next wave after them
    span = {g: host_span(run.dir, g) for g in
            ("baseline-1", "patched-1", "baseline-2", "patched-2")}
    assert span["baseline-1"][0] < span["patched-1"][1] and \
        span["patched-1"][0] < span["baseline-1"][1], span
    end1 = max(span["baseline-1"][1], span["patched-1"][1])
    assert min(span["baseline-2"][0], span["patched-2"][0]) > end1, span
    runs.sw.assert_no_leftovers(run.dir)


def count_mentioning(sw, prog):
    return sum(1 for _, a in sw.processes_mentioning(sw.workdir / "runs")
               if prog in a[0].rsplit("/", 1)[-1])


@pytest.mark.boot
@pytest.mark.slow
def test_sigint_mid_parallel_nfs_run(guests):
    """Ctrl-C while two guests and their two NFS servers run: exit 130,
    neither guest nor server left."""
    sw = guests
    p = sw.popen("run", "--parallel", "2", NFS, stdout=subprocess.DEVNULL,
                 stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and not (
                count_mentioning(sw, "qemu") >= 2 and
                count_mentioning(sw, "ganesha") >= 2):
            time.sleep(0.5)
        assert count_mentioning(sw, "qemu") >= 2, "not two guests at once"
        assert count_mentioning(sw, "ganesha") >= 2, "not two NFS servers"
        time.sleep(2)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == EXIT_INTERRUPTED, "exit %d\n%s" % (
        p.returncode, err[-2000:])
    assert "guests destroyed, NFS servers stopped" in err, err[-2000:]
    latest = (sw.workdir / "runs" / "latest").resolve()
    sw.assert_no_leftovers(latest)
    # no half line: each line of stderr is one whole message
    for line in err.splitlines():
        assert line.startswith("swapctl"), "mixed line %r" % line


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_repeat_auto_stops_between_waves(guests, tmp_path):
    """--repeat auto with --parallel 4 (waves of two whole repeats): the
    stop check runs only after a wave. pswpout is the same on every
    bdev-swap guest, so its minimum detectable effect is 0 from the first
    check on; serially that is after repeat 3 (auto's minimum), here
    after the wave that ends repeat 4. The scenario's no_regression keeps
    its counters only: four guests at once on two loaded cores once made
    workload_seconds a 1.18x "regression" (exit 12), a verdict on the
    host's load, not what this test checks."""
    path = untimed("bdev-swap", tmp_path)
    sw = guests
    r = sw.run("run", "--json", "--repeat", "auto", "--repeat-limit", "6",
               "--metric", "pswpout", "--parallel", "4", path, timeout=1800)
    d = r.json()
    assert r.rc == 0, r
    auto = d["power"]["repeat_auto"]
    assert auto["reached"] is True and auto["repeats"] == 4, auto
    assert d["repeat"] == 4 and d["parallel"] == 4, (d["repeat"],
                                                      d["parallel"])
    assert d["waves"] == [["baseline-1", "patched-1", "baseline-2",
                           "patched-2"],
                          ["baseline-3", "patched-3", "baseline-4",
                           "patched-4"]], d["waves"]
    assert [(x["kernel"], x["rep"]) for x in d["results"]] == [
        (k, i) for i in (1, 2, 3, 4) for k in ("baseline", "patched")]
    assert all(x["metrics"]["pages_corrupt"] == 0 for x in d["results"])
    assert "repeat auto: after 4 runs a kernel" in r.err, r.err
    assert "after 2 runs" not in r.err, r.err
