# SPDX-License-Identifier: GPL-2.0
"""hosts in swapctl.conf: guests over two libvirt daemons on loopback,
each started here as user nobody (a session libvirtd: its own socket,
state and storage pool 'swapctl'), one of them killed mid-run."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from harness import EXIT_CONFIG, EXIT_INTERRUPTED, REPO, untimed

BDEV = REPO / "scenarios" / "bdev-swap.json"
NOBODY = 65534
LIBVIRTD = "/usr/sbin/libvirtd"


class Daemon:
    """A session libvirtd as nobody under DIR, with its pool 'swapctl'."""

    def __init__(self, top, name):
        self.dir = Path(top) / name
        (self.dir / "pool").mkdir(parents=True)
        for p in (self.dir, self.dir / "pool"):
            os.chown(p, NOBODY, NOBODY)
        env = {"HOME": str(self.dir), "PATH": "/usr/sbin:/usr/bin:/bin"}
        for var, sub in (("XDG_RUNTIME_DIR", "run"),
                         ("XDG_CONFIG_HOME", "config"),
                         ("XDG_CACHE_HOME", "cache"),
                         ("XDG_DATA_HOME", "data")):
            env[var] = str(self.dir / sub)
        self.log = open(self.dir / "libvirtd.log", "w")
        self.proc = subprocess.Popen(
            ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
             "--clear-groups", LIBVIRTD], env=env, stdin=subprocess.DEVNULL,
            stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.sock = self.dir / "run" / "libvirt" / "libvirt-sock"
        self.uri = "qemu+unix:///session?socket=%s" % self.sock
        end = time.monotonic() + 30
        while not self.sock.exists():
            assert self.proc.poll() is None and time.monotonic() < end, \
                "libvirtd did not start: %s" % (self.dir / "libvirtd.log")
            time.sleep(0.2)
        subprocess.run(["virsh", "-q", "-c", self.uri, "pool-create-as",
                        "swapctl", "dir", "--target",
                        str(self.dir / "pool")], check=True,
                       stdout=subprocess.DEVNULL)

    def qemus(self):
        """pids of the QEMUs this daemon started (their paths name it)."""
        out = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                argv = Path("/proc/%s/cmdline" % pid).read_bytes()
            except OSError:
                continue
            if b"qemu-system" in argv and str(self.dir).encode() in argv:
                out.append(int(pid))
        return out

    def kill(self):
        """The host fails: its daemon and its guests die at once."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for pid in self.qemus():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def volumes(self):
        return sorted(p.name for p in (self.dir / "pool").iterdir())


def run_log(p):
    """The run's stderr so far, the run stopped (for a failed wait)."""
    if p.poll() is None:
        p.kill()
    return p.communicate(timeout=60)[1][-3000:]


@pytest.fixture
def daemons():
    if os.geteuid() != 0 or not shutil.which("setpriv") or \
            not os.path.exists(LIBVIRTD):
        pytest.skip("needs root, setpriv and %s (libvirt-daemon)" % LIBVIRTD)
    # under /tmp: the daemons (nobody) cannot enter pytest's tmp_path
    top = tempfile.mkdtemp(prefix="swh-", dir="/tmp")
    os.chmod(top, 0o755)
    ds = []
    try:
        ds = [Daemon(top, "h1"), Daemon(top, "h2")]
        yield ds
    finally:
        for d in ds:
            d.kill()
        shutil.rmtree(top, ignore_errors=True)


def test_hosts_key_refused(sw, tmp_path):
    conf = sw.write_config(tmp_path / "h.conf", hosts="local box")
    r = sw.expect(EXIT_CONFIG, "--config", conf, "run", "--dry-run", BDEV)
    assert "hosts: 'box' is not a libvirt URI" in r.err, r.err


def test_dry_run_names_the_hosts(sw, tmp_path):
    conf = sw.write_config(tmp_path / "h.conf",
                           hosts="local, qemu+ssh://box/session")
    d = sw.expect(0, "--config", conf, "run", "--dry-run", "--json",
                  "--parallel", "2", BDEV).json()
    assert d["hosts"] == ["local", "qemu+ssh://box/session"], d["hosts"]
    t = sw.expect(0, "--config", conf, "run", "--dry-run", BDEV).out
    assert "# hosts: local, qemu+ssh://box/session (remote: volumes in " \
        "its pool 'swapctl')" in t, t


@pytest.mark.boot
@pytest.mark.slow
@pytest.mark.full
def test_two_hosts_one_killed(guests, daemons, tmp_path):
    """bdev-swap --repeat 4 --parallel 2 over two hosts: each takes a
    repeat's pair; the second is killed while its first pair runs. Its
    repeat re-runs whole on the first host, every guest is accounted for
    and passes, each result names its host, the report says so."""
    sw = guests
    h1, h2 = daemons
    conf = sw.write_config(tmp_path / "hosts.conf",
                           hosts="%s %s" % (h1.uri, h2.uri))
    p = sw.popen("--config", conf, "run", "--json", "--repeat", "4",
                 "--parallel", "2", untimed("bdev-swap", tmp_path),
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 300
        while time.monotonic() < end and len(h2.qemus()) < 2:
            time.sleep(0.5)
        assert len(h2.qemus()) == 2, "host 2 never ran its pair:\n%s" % \
            run_log(p)
        time.sleep(5)
        h2.kill()
        out, err = p.communicate(timeout=1500)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    import json
    assert p.returncode == 0, "exit %d\n%s" % (p.returncode, err[-3000:])
    d = json.loads(out)
    res = d["results"]
    assert [(x["kernel"], x["rep"]) for x in res] == [
        (k, i) for i in (1, 2, 3, 4) for k in ("baseline", "patched")]
    assert all(x["status"] == "pass" for x in res), [
        (x["kernel"], x["rep"], x["reason"]) for x in res]
    # every guest swapped its 200 MiB out (51200 pages; one page more or
    # less happens on either kernel), none lost a page
    assert all(x["metrics"]["pages_corrupt"] == 0 and
               abs(x["metrics"]["pswpout"] - 51200) <= 256 for x in res), [
        (x["kernel"], x["rep"], x["metrics"]["pswpout"]) for x in res]
    # repeat 2 went to host 2 and re-ran, whole, on host 1
    assert all(x["host"] == h1.uri for x in res), [x["host"] for x in res]
    rerun = [(x["kernel"], x["rep"]) for x in res if x["rerun"]]
    assert rerun == [("baseline", 2), ("patched", 2)], rerun
    assert all(h2.uri in x["rerun"] for x in res if x["rerun"])
    hosts = {h["uri"]: h for h in d["hosts"]}
    assert hosts[h1.uri]["lost"] is False and hosts[h1.uri]["guests"] == 8
    assert hosts[h2.uri]["lost"] is True and hosts[h2.uri]["guests"] == 2
    assert "host %s lost: repeat 2 re-runs on another host" % h2.uri in err
    # each wave was a pair; the lost one ran again
    assert d["waves"].count(["baseline-2", "patched-2"]) == 2, d["waves"]
    cmp = {c["metric"]: c["verdict"] for c in d["comparisons"]}
    assert cmp["write_pages_per_io"] == "better", cmp
    assert cmp["pswpout"] == "no significant change", cmp
    # the first host's volumes are gone with the run
    assert h1.volumes() == [], h1.volumes()
    sw.assert_no_leftovers(Path(d["dir"]))
    # run's table, report and its text-email: where each repeat ran
    line = "repeats on %s: 1 2 3 4 (2 re-run: host %s lost)" % (h1.uri,
                                                                 h2.uri)
    rep = sw.expect(0, "--config", conf, "report", d["dir"]).out
    assert line in rep, rep[-2000:]
    # one host was left: pooled, no word of blocking
    assert "blocked by host" not in rep
    mail = sw.expect(0, "--config", conf, "report", "--format=text-email",
                     d["dir"]).out
    assert " ".join(line.split()) in " ".join(mail.split()), mail[-2000:]
    assert all(len(x) <= 78 for x in mail.splitlines())
    rj = sw.expect(0, "--config", conf, "report", "--json", d["dir"]).json()
    assert sorted((g["kernel"], g["rep"], g["host"], g["rerun"])
                  for g in rj["guests"]) == sorted(
        (x["kernel"], x["rep"], x["host"], x["rerun"]) for x in res)
    assert all(c["blocked"] is None for c in rj["comparisons"])


def domains(d):
    """The domains a daemon still has, running or defined."""
    r = subprocess.run(["virsh", "-q", "-c", d.uri, "list", "--all",
                        "--name"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 0, r.stdout
    return [x for x in r.stdout.split() if x]


@pytest.mark.boot
@pytest.mark.slow
def test_sigint_on_two_hosts(guests, daemons, tmp_path):
    """SIGINT while both hosts run a pair: every guest on every host is
    stopped, every uploaded volume removed, the run exits 130 and its
    summary.json is the partial result, marked interrupted."""
    sw = guests
    h1, h2 = daemons
    conf = sw.write_config(tmp_path / "hosts.conf",
                           hosts="%s %s" % (h1.uri, h2.uri))
    p = sw.popen("--config", conf, "run", "--json", "--repeat", "4",
                 "--parallel", "2", BDEV, stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 300
        while time.monotonic() < end and (len(h1.qemus()) < 2 or
                                          len(h2.qemus()) < 2):
            time.sleep(0.5)
        assert len(h1.qemus()) == 2 and len(h2.qemus()) == 2, \
            "the two hosts never ran a pair each:\n%s" % run_log(p)
        # the kernels' and the running guests' volumes are there
        assert len(h1.volumes()) > 2 and len(h2.volumes()) > 2, \
            (h1.volumes(), h2.volumes())
        time.sleep(3)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=180)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    import json
    assert p.returncode == EXIT_INTERRUPTED, "exit %d\n%s" % (
        p.returncode, err[-3000:])
    assert "interrupted by signal 2" in err, err[-2000:]
    for h in (h1, h2):
        assert h.qemus() == [], "QEMU left on %s" % h.uri
        assert domains(h) == [], (h.uri, domains(h))
        assert h.volumes() == [], (h.uri, h.volumes())
    d = json.loads(out)
    assert d["status"] == "interrupted" and d["exit_code"] == 130, d
    rundir = Path(d["dir"])
    assert json.loads((rundir / "summary.json").read_text())["status"] \
        == "interrupted"
    assert (rundir / "state").read_text() == "done\n"
    # the four guests that ran say so, each on its host
    stopped = [x for x in d["results"] if x["reason"] == "interrupted"]
    assert sorted(x["host"] for x in stopped) == sorted(
        [h1.uri, h1.uri, h2.uri, h2.uri]), [
        (x["kernel"], x["rep"], x["host"], x["reason"]) for x in d["results"]]
    sw.assert_no_leftovers(rundir)


@pytest.mark.parametrize("scenario,what", [
    ("nfs-swap", "its nfsfile backend's NFS server (ganesha)"),
    ("stress-ng", "its command workload's share of the root (9p)")])
def test_this_machines_servers_refused_on_another(sw, tmp_path, scenario,
                                                  what):
    """NFS and command scenarios need this machine's server or root: a
    host that is another machine is refused, one line naming both; a
    loopback URI is this machine and is not."""
    path = REPO / "scenarios" / ("%s.json" % scenario)
    conf = sw.write_config(tmp_path / "h.conf",
                           hosts="local, qemu+ssh://box/session")
    r = sw.expect(EXIT_CONFIG, "--config", conf, "run", "--dry-run", path)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and lines[0] == (
        "swapctl run: %s: host qemu+ssh://box/session (hosts in %s): %s "
        "runs on this machine, which a guest on another machine cannot "
        "reach; run it on this machine's hosts only" % (path, conf, what)), \
        r.err
    conf = sw.write_config(tmp_path / "l.conf",
                           hosts="local, qemu+tcp://127.0.0.1/system")
    sw.expect(0, "--config", conf, "run", "--dry-run", path)
