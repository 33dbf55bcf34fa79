# SPDX-License-Identifier: GPL-2.0
"""Helpers of the swapctl integration tests: run the binary, the test work
directory and its configuration, recorded runs, leftover processes.
See conftest.py for the fixtures and doc/HACKING.md for how to add a
test."""
import atexit
import contextlib
import fcntl
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SWAPCTL = Path(os.environ.get("SWAPCTL", REPO / "swapctl")).resolve()
SESSION = None          # the session's Swapctl, for the terminal summary

# Exit codes: EXIT_* of enum swapctl_exit, read from src/core/swapctl.h so
# that the tests and the code cannot disagree (swapctl(1) documents them).
EXIT_CODES = {m.group(1): int(m.group(2)) for m in re.finditer(
    r"^\s*(EXIT_[A-Z_]+)\s*=\s*(\d+)",
    (REPO / "src" / "core" / "swapctl.h").read_text(), re.M)}
globals().update(EXIT_CODES)


# jansson's own wording, which never reaches the user (src/core/jfile.c)
JANSSON_WORDS = ("JSON_ALLOW_NUL", " near '", "near end of file",
                 "invalid token", "too big integer", "too big negative",
                 "premature end of input", "'[' or '{' expected",
                 "end of file expected", "unexpected token",
                 "NUL byte in object key", "duplicate object key",
                 "string or '}' expected", "unable to decode byte",
                 "real number overflow", "maximum parsing depth")


def cache_home():
    return Path(os.environ.get("XDG_CACHE_HOME") or
                Path.home() / ".cache")


def default_workdir():
    """The user's work dir when swapctl.conf sets none. Tests never use
    it (they only read its ccache and take its build.lock)."""
    return cache_home() / "swapctl"


def test_workdir():
    return Path(os.environ.get("SWAPCTL_TEST_WORKDIR") or
                cache_home() / "swapctl-test")


@contextlib.contextmanager
def default_build_lock():
    """Hold the default work dir's build.lock (the machine's one kernel
    build at a time) when that work dir exists; say so when waiting."""
    d = default_workdir()
    if not d.is_dir():
        yield
        return
    with open(d / "build.lock", "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("waiting for %s/build.lock (another kernel build)" % d,
                  file=sys.stderr, flush=True)
            fcntl.flock(f, fcntl.LOCK_EX)
        yield


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Result:
    """What one swapctl command did."""

    def __init__(self, args, rc, out, err):
        self.args, self.rc, self.out, self.err = args, rc, out, err

    def tail(self, n=30):
        return "\n".join(self.err.splitlines()[-n:])

    def json(self):
        return json.loads(self.out)

    def __repr__(self):
        return "swapctl %s: exit %d\nstderr:\n%s" % (
            " ".join(map(str, self.args)), self.rc, self.tail())


class Swapctl:
    def __init__(self):
        self.workdir = test_workdir().resolve()
        # one per test run: runs of two checkouts may share the work dir
        self.config = self.workdir / ("swapctl-test.%d.conf" % os.getpid())
        self.series = os.environ.get("SWAPCTL_SERIES", "swap-ops")
        self.nfs_port = int(os.environ.get("SWAPCTL_TEST_NFS_PORT") or
                            free_port())
        self.kernels_note = "not needed"

    def setup(self):
        if not SWAPCTL.is_file():
            raise RuntimeError("%s does not exist: run make first" % SWAPCTL)
        dflt = default_workdir().resolve()
        if self.workdir == dflt:
            raise RuntimeError("SWAPCTL_TEST_WORKDIR is the default work "
                               "dir %s: tests need one of their own" % dflt)
        if REPO in self.workdir.parents or self.workdir == REPO:
            raise RuntimeError("SWAPCTL_TEST_WORKDIR %s is inside the "
                               "repository" % self.workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.write_config(self.config)
        atexit.register(self.config.unlink, missing_ok=True)

    def write_config(self, path, **keys):
        """Write a swapctl.conf for the test work dir; @keys add to or
        override its settings (None drops a key)."""
        conf = {"workdir": str(self.workdir), "series": self.series,
                "nfs_port": str(self.nfs_port)}
        conf.update(keys)
        text = "".join("%s = %s\n" % (k, v) for k, v in conf.items()
                       if v is not None)
        tmp = Path(str(path) + ".tmp")
        tmp.write_text("# written by tests/integration (harness.py)\n" +
                       text)
        tmp.replace(path)
        return Path(path)

    def env(self, extra=None):
        e = dict(os.environ)
        e["SWAPCTL_CONFIG"] = str(self.config)
        e.pop("COLUMNS", None)
        e.pop("LINES", None)
        if extra:
            for k, v in extra.items():
                if v is None:
                    e.pop(k, None)
                else:
                    e[k] = v
        return e

    def run(self, *args, input=None, timeout=900, env=None, cwd=REPO,
            stdout=None):
        """Run swapctl ARGS from the top of the repository. @stdout: a
        file object to send standard output to instead of capturing it."""
        check_tier(args)
        argv = [str(SWAPCTL)] + [str(a) for a in args]
        p = subprocess.run(argv, input=input, cwd=cwd, env=self.env(env),
                           stdout=stdout if stdout else subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout,
                           text=True)
        return Result(args, p.returncode, p.stdout or "", p.stderr)

    def expect(self, code, *args, **kw):
        """Run swapctl ARGS and assert its exit code."""
        r = self.run(*args, **kw)
        assert r.rc == code, "expected exit %d, got %r" % (code, r)
        return r

    def popen(self, *args, env=None, **kw):
        argv = [str(SWAPCTL)] + [str(a) for a in args]
        return subprocess.Popen(argv, cwd=REPO, env=self.env(env), text=True,
                                **kw)

    # ---- kernels ----

    def kernel_files(self):
        k = self.workdir / "kernels"
        return [k / "baseline" / "bzImage", k / "baseline" / "manifest.json",
                k / self.series / "bzImage",
                k / self.series / "manifest.json", k / "initramfs.cpio"]

    def borrow_kernels(self, src):
        src = Path(src).expanduser().resolve()
        kdir = self.workdir / "kernels"
        kdir.mkdir(parents=True, exist_ok=True)
        # baseline and the configured series must be there; every other
        # series under patches/ is linked when DIR has it (bhe-ops)
        others = sorted(d.name for d in (REPO / "patches").iterdir()
                        if (d / "series").is_file() and
                        d.name not in ("baseline", self.series) and
                        (src / d.name / "bzImage").is_file())
        # and the debug build of each, <v>-debug, when DIR has it
        # (test_debug.py boots those)
        variants = ["baseline", self.series] + others
        debug = [v + "-debug" for v in variants
                 if (src / (v + "-debug") / "bzImage").is_file()]
        for v in variants + debug:
            if not (src / v / "bzImage").is_file():
                raise RuntimeError("SWAPCTL_TEST_KERNELS: %s/%s/bzImage "
                                   "does not exist" % (src, v))
            link = kdir / v
            if link.exists() and not link.is_symlink():
                raise RuntimeError("SWAPCTL_TEST_KERNELS: %s is a kernel "
                                   "built here, not a link; remove it or "
                                   "unset SWAPCTL_TEST_KERNELS" % link)
            tmp = kdir / (v + ".link")
            if tmp.is_symlink():
                tmp.unlink()
            tmp.symlink_to(src / v)
            tmp.replace(link)
        self.borrowed = src

    def kernels_borrowed(self):
        return (self.workdir / "kernels" / "baseline").is_symlink()

    def seed_ccache(self):
        """An empty test work dir starts from the default work dir's ccache
        (a warm build of both kernels instead of a cold one)."""
        mine = self.workdir / "ccache"
        theirs = default_workdir() / "ccache"
        if mine.exists() or not theirs.is_dir():
            return
        tmp = self.workdir / "ccache.seed"
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run(["cp", "-a", str(theirs), str(tmp)], check=True)
        tmp.rename(mine)

    # ---- processes ----

    def processes_mentioning(self, path):
        """Processes (pid, argv) whose command line names something under
        @path: a qemu of one of our guests, our ganesha.nfsd."""
        path = str(path)
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    argv = f.read().decode(errors="replace").split("\0")
            except OSError:
                continue
            if any(path in a for a in argv):
                found.append((int(pid), argv))
        return found

    def assert_no_leftovers(self, rundir):
        """No qemu, no ganesha and no agent socket of @rundir are left."""
        procs = self.processes_mentioning(rundir)
        assert not procs, "left running: %r" % [
            (p, " ".join(a)[:200]) for p, a in procs]
        socks = list(Path(rundir).rglob("agent.sock"))
        assert not socks, "agent sockets left: %r" % socks


class Run:
    """One `swapctl run --json`: exit code, the JSON, the run directory."""

    def __init__(self, result):
        self.result = result
        self.rc = result.rc
        try:
            self.json = json.loads(result.out)
        except ValueError:
            self.json = None
        self.dir = Path(self.json["dir"]) if self.json and \
            self.json.get("dir") else None

    def __repr__(self):
        return repr(self.result)


# ---- tiers: make check boots the quick scenarios, make check-full all ----
#
# make check (pytest -m "not full") must finish within 10 minutes on two
# cores with the kernels built, so the guests it boots run short
# workloads: the quick scenarios of tests/fixtures/scenarios/ (NAME-quick:
# a shipped scenario's set-up over a few tens of MiB, see the README
# there) and the shipped scenarios in QUICK_SHIPPED (64 MiB or less and
# under a minute for both kernels). A test that runs any other shipped
# scenario, repeats of one, a command workload of minutes or the debug
# kernels is marked full (make check-full). Swapctl.run() and Runs.get()
# fail a make check test that runs a shipped scenario outside
# QUICK_SHIPPED, so that the rule holds without anyone timing the suite.
QUICK_DIR = REPO / "tests" / "fixtures" / "scenarios"
QUICK_SHIPPED = {"fault-read-error", "fault-pool-exhaust", "fault-swapoff",
                 "fault-swap-churn", "fault-oom"}
FULL_TEST = None        # the running test is marked full (conftest.py)


def quick(name):
    """tests/fixtures/scenarios/NAME-quick.json, make check's short form
    of scenarios/NAME.json."""
    return QUICK_DIR / ("%s-quick.json" % name)


def scenario_path(scenario):
    """A scenario given as a name (scenarios/NAME.json) or a path."""
    return Path(scenario) if os.sep in str(scenario) else \
        REPO / "scenarios" / ("%s.json" % scenario)


def check_tier(args):
    """Fail a make check boot test (marked boot, not full: FULL_TEST is
    False) whose `swapctl run` boots a shipped scenario that make check
    does not run."""
    if FULL_TEST is not False or "run" not in [str(a) for a in args] or \
            "--dry-run" in [str(a) for a in args]:
        return
    shipped = REPO / "scenarios"
    for a in args:
        p = Path(str(a))
        p = p if p.is_absolute() else REPO / p
        if p.suffix == ".json" and p.parent == shipped and \
                p.stem not in QUICK_SHIPPED:
            raise AssertionError(
                "%s: a make check test boots the shipped scenario %s; run "
                "harness.quick(%r) (tests/fixtures/scenarios/) or mark the "
                "test full (harness.py, tiers)" % (p, p.stem, p.stem))


def untimed(scenario, dst, kernels=None):
    """SCENARIO (a name of scenarios/ or a path) copied to
    DST/<its name>.json with only the counters left in its no_regression,
    for a test of something else that runs repeats: on this shared 2-core
    host two repeats of a time once gave a significant 1.049x
    workload_seconds (exit 12, CI of 2026-12-07) and four guests at once
    1.18x; the tool reporting a timing verdict is right, a test asserting
    exit 0 on it is a wall-clock assert. @kernels: a list replacing the
    scenario's kernels."""
    src = scenario_path(scenario)
    scn = json.loads(src.read_text())
    timed = ("_seconds", "_us", "_ms_per_mib")
    scn["no_regression"] = [m for m in scn.get("no_regression", [])
                            if not m.endswith(timed)]
    if kernels:
        scn["kernels"] = kernels
    path = Path(dst) / src.name
    path.write_text(json.dumps(scn, indent=2))
    return path


def workload_pages(scenario):
    """The pages of SCENARIO's synthetic workload (size_mb, 4 KiB)."""
    scn = json.loads(scenario_path(scenario).read_text())
    return scn["workload"]["size_mb"] * 256


class Runs:
    """Scenario runs made once per test run, shared between tests."""

    def __init__(self, sw):
        self.sw = sw
        self.done = {}

    def get(self, scenario, *args, timeout=1800):
        """Run scenarios/SCENARIO.json (or a path) with ARGS, once."""
        key = (str(scenario),) + tuple(map(str, args))
        path = scenario_path(scenario)
        check_tier(["run", path])
        if key not in self.done:
            r = self.sw.run("run", "--json", *args, path, timeout=timeout)
            self.done[key] = Run(r)
        return self.done[key]


def running_run(demo_run, tmp_path):
    """A copy of @demo_run in a work dir of its own whose one run says
    "running": <wd>/runs/<id>, runs/latest naming it and a run.lock
    (unheld: a test that wants it held takes it). Returns the run dir."""
    wd = tmp_path / "wd"
    run = wd / "runs" / "20261203-120000-demo"
    run.parent.mkdir(parents=True)
    shutil.copytree(demo_run, run)
    (run / "state").write_text("running\n")
    (wd / "runs" / "latest").symlink_to(run.name)
    (wd / "run.lock").touch()
    return run
