# SPDX-License-Identifier: GPL-2.0
"""A generated corpus of hostile inputs (issue 33) against every command
that reads a file: scenario files (validate, run --dry-run), the
configuration file (--config), the files of a run directory (report,
top, bisect --run; samples.jsonl, scenario.json, state, kernels,
summary.json, host.json), a kernel's manifest.json (list) and report's --svg
output. No guest is booted, nothing is built.

Each input is a kind of file put where a command reads one: a FIFO, a
link to /dev/zero or /dev/null, a dangling link, a link loop, a
directory, an empty file, a 4 GiB sparse file, binary garbage, control
bytes and escape sequences, a UTF-8 byte order mark, NUL bytes, invalid
UTF-8, one endless line, deep nesting, NaN and Infinity, 1e308 and
numbers past any integer, truncated JSON, and for samples a clock
running backwards.

Handled well means: the command ends within QUICK seconds (a FIFO or a
device blocks or never ends otherwise), under a 2 GiB address-space
limit, with no signal and no exit 1 (internal failure); a refusal
(non-zero exit) says why in lines that start with "swapctl"; nothing it
prints holds a control byte other than newline and tab; what is never a
valid input (a FIFO, a device, a directory, a dangling link, garbage)
is refused where the command cannot do without the file; and report
--svg never writes through a link or replaces what is not a regular
file. `make check` runs it (tests/integration, no guest needed).
"""
import fcntl
import json
import os
import random
import resource
import shutil
import subprocess

import pytest

import harness
from harness import EXIT_CODES, JANSSON_WORDS

QUICK = 20
DOCUMENTED = set(EXIT_CODES.values()) - {EXIT_CODES["EXIT_FAILURE_GENERIC"]}
SCENARIO = harness.REPO / "scenarios" / "zram-swap.json"


# ---- the payloads: (name, how to make the file at a path) ----

def fifo(p):
    os.mkfifo(p)


def link_to(target):
    def make(p):
        os.symlink(target, p)
    return make


def loop(p):
    other = str(p) + ".loop"
    os.symlink(other, p)
    os.symlink(str(p), other)


def directory(p):
    os.mkdir(p)


def sparse(size):
    def make(p):
        with open(p, "wb") as f:
            f.truncate(size)
    return make


def data(b):
    def make(p):
        with open(p, "wb") as f:
            f.write(b)
    return make


def garbage(p):
    rnd = random.Random(33)
    data(bytes(rnd.getrandbits(8) for _ in range(1 << 16)))(p)


CTRL = "\x1b[2J\x1b]0;owned\x07\r\x08\x7f\x9b"

# never a valid input anywhere: a command that needs the file refuses it
UNUSABLE = [
    ("fifo", fifo),
    ("dev-zero", link_to("/dev/zero")),
    ("dev-null", link_to("/dev/null")),
    ("dangling", link_to("/nonexistent/swapctl-33")),
    ("loop", loop),
    ("dir", directory),
    ("empty", data(b"")),
    ("sparse-4g", sparse(4 << 30)),
    ("garbage", garbage),
    ("nul", data(b"{\"name\": \"a\x00b\"}\n")),
    ("bad-utf8", data(b"{\"name\": \"\xff\xfe\xc0\xaf\"}\n")),
    ("endless-line", data(b"{\"x\": \"" + b"A" * (2 << 20))),
    ("deep", data(b"[" * 200000 + b"]" * 200000)),
    ("truncated", data(b"{\"name\": \"x\", \"kernels\": [")),
]


def json_text(obj):
    return data(json.dumps(obj).encode())


def scenario_with(**change):
    scn = json.loads(SCENARIO.read_text())
    scn.update(change)
    return scn


# JSON that parses, with hostile values
JSON_VALUES = [
    ("ctrl-name", json_text(scenario_with(name="zram" + CTRL))),
    ("ctrl-key", json_text(dict(scenario_with(), **{"k" + CTRL: 1}))),
    ("bom", data(b"\xef\xbb\xbf" + SCENARIO.read_bytes())),
    ("nan", data(SCENARIO.read_text().replace(
        '"size_mb": ', '"size_mb": NaN, "x": ').encode())),
    ("infinity", data(b"{\"name\": \"x\", \"repeat\": Infinity}")),
    ("1e308", json_text(scenario_with(repeat=1e308))),
    ("1e999", data(b"{\"name\": \"x\", \"repeat\": 1e999}")),
    ("bigint", data(b"{\"name\": \"x\", \"repeat\": "
                    b"99999999999999999999999999}")),
    ("negative", json_text(scenario_with(repeat=-1))),
    ("dup-key", data(b'{"name": "x", "name": "y"}')),
    ("nul-key", data(b'{"name": "x", "a\\u0000": 1}')),
    ("deep-bigint", data(b'{"name": "x", "swap": [{"type": "zram", '
                         b'"size_mb": 99999999999999999999999}]}')),
    ("trailing", data(SCENARIO.read_bytes() + b" x")),
    ("array", json_text([1, 2, 3])),
    ("string", json_text("just a string")),
]

BAD_SCENARIO = ("nan", "infinity", "1e308", "1e999", "bigint", "negative",
                "array", "string", "ctrl-key", "dup-key", "nul-key",
                "deep-bigint", "trailing")

CONFIG_VALUES = [
    ("ctrl", data(("workdir = /tmp/x" + CTRL + "\n").encode())),
    ("quote", data(b'workdir = "/tmp/x/"work"\n')),
    ("bom", data(b"\xef\xbb\xbfworkdir = /tmp/x\n")),
    ("huge-number", data(b"jobs = 99999999999999999999999\n")),
    ("nan", data(b"jobs = nan\n")),
    ("long-line", data(b"workdir = " + b"/x" * (300 << 10) + b"\n")),
    ("big", data(b"# filler\n" * 200000)),
]


def samples_lines(f):
    base = (harness.REPO / "tests" / "fixtures" / "run-demo" /
            "baseline-1" / "samples.jsonl")
    lines = [json.loads(x) for x in base.read_text().splitlines()]
    return data("".join(json.dumps(x) + "\n" for x in f(lines)).encode())


def backwards(lines):
    top = max(x["t_ns"] for x in lines) + 10 ** 9
    for x in lines:
        x["t_ns"] = top - x["t_ns"]
    return lines


def with_ctrl(lines):
    for x in lines:
        if x.get("type") == "log":
            x["msg"] = CTRL
        if x.get("type") == "hello":
            x["kernel"] = "6.1" + CTRL
    return lines


def with_huge(lines):
    for x in lines:
        if x.get("type") == "sample":
            x["vmstat"]["pswpout"] = 10 ** 30
            x["t_ns"] = 2 ** 64 - 1
    return lines


SUMMARY_VALUES = [
    ("ctrl-host", json_text({"results": [
        {"kernel": "baseline", "rep": 1, "host": "qemu:///x" + CTRL,
         "rerun": CTRL},
        {"kernel": "patched", "rep": 1, "host": "qemu:///y" + CTRL}]})),
]

MANIFEST_VALUES = [
    ("ctrl-1e308", json_text({"kernel_version": "6.1" + CTRL,
                              "build_seconds": 1e308,
                              "built_at": CTRL, "patches": [CTRL],
                              "source": {"kind": "tarball",
                                         "tarball": "/a/b" + CTRL,
                                         "series": CTRL + "/series"}})),
    ("git-ctrl", json_text({"kernel_version": "6.1", "build_seconds": -1,
                            "source": {"kind": "git", "tree": CTRL,
                                       "ref": CTRL, "commit": CTRL,
                                       "apply": CTRL}})),
]

SAMPLES_VALUES = [
    ("backwards", samples_lines(backwards)),
    ("ctrl", samples_lines(with_ctrl)),
    ("huge", samples_lines(with_huge)),
    ("nan", data(b'{"v":1,"seq":0,"t_ns":NaN,"type":"hello"}\n')),
    ("bom", data(b"\xef\xbb\xbf" + (harness.REPO / "tests" / "fixtures" /
                                    "run-demo" / "baseline-1" /
                                    "samples.jsonl").read_bytes())),
]


# ---- the targets: where the payload goes and which command reads it ----

class Case:
    def __init__(self, target, name, make, must_refuse):
        self.target, self.name, self.make = target, name, make
        self.must_refuse = must_refuse

    def id(self):
        return "%s-%s" % (self.target, self.name)


def fresh_run(tmp):
    run = tmp / "run"
    shutil.copytree(harness.REPO / "tests" / "fixtures" / "run-demo", run,
                    symlinks=True)
    return run


def replace_file(path, make):
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)
    make(path)


# target: (what to replace, the command lines, whether the file is needed)
RUN_FILES = {
    "samples": "baseline-1/samples.jsonl",
    "scenario": "scenario.json",
    "state": "state",
    "kernels": "kernels",
    "summary": "summary.json",
    "host": "host.json",
}
RUN_CMDS = [["report"], ["report", "--json"], ["report", "--csv"],
            ["report", "--kcidb"],
            ["report", "--format", "text-email"], ["top", "--once"],
            ["top", "-b", "--speed", "1000", "-d", "0.1"],
            ["bisect", "--run"]]


def cases():
    out = []
    for name, make in UNUSABLE + JSON_VALUES:
        out.append(Case("validate", name, make,
                        must_refuse=(name, make) in UNUSABLE or
                        name in BAD_SCENARIO))
        out.append(Case("run-dry", name, make,
                        must_refuse=(name, make) in UNUSABLE or
                        name in BAD_SCENARIO))
    for name, make in UNUSABLE + CONFIG_VALUES:
        out.append(Case("config", name, make,
                        must_refuse=(name, make) in UNUSABLE and
                        name != "empty" or name in ("huge-number", "nan",
                                                    "big", "quote")))
    for f in RUN_FILES:
        extra = (SAMPLES_VALUES if f == "samples" else
                 JSON_VALUES + SUMMARY_VALUES if f == "summary" else
                 JSON_VALUES)
        for name, make in UNUSABLE + extra:
            out.append(Case("run-" + f, name, make,
                            must_refuse=f == "samples" and (
                                (name, make) in UNUSABLE or
                                name in ("backwards", "nan"))))
    for name, make in UNUSABLE + JSON_VALUES + MANIFEST_VALUES:
        out.append(Case("manifest", name, make, must_refuse=False))
    # a file whose name holds control bytes
    out.append(Case("validate-name", "ctrl", None, must_refuse=False))
    # build --apply: the file itself, and a patch a quilt series lists
    for name, make in UNUSABLE:
        out.append(Case("apply", name, make, must_refuse=True))
        out.append(Case("apply-patch", name, make, must_refuse=True))
    # a live run's file may still grow: what is no regular file (or a
    # link to nothing) is refused, lines of garbage are counted as bad
    # in the view ("lines ok/bad/lost") while the run goes on
    for name, make in UNUSABLE:
        out.append(Case("live-samples", name, make,
                        must_refuse=name in ("fifo", "dev-zero", "dev-null",
                                             "dangling", "loop", "dir")))
    for name, make in [("fifo", fifo), ("dev-null", link_to("/dev/null")),
                       ("dangling", link_to("/nonexistent/swapctl-33")),
                       ("loop", loop), ("dir", directory)]:
        out.append(Case("svg", name, make, must_refuse=True))
    return out


CASES = cases()


# SWAPCTL=<an ASan/UBSan build> needs no address-space limit (the
# sanitizers reserve terabytes of shadow): SWAPCTL_TEST_SANITIZED=1
SANITIZED = os.environ.get("SWAPCTL_TEST_SANITIZED") == "1"


def limit():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def swapctl(sw, *args, env=None):
    """Run swapctl with bytes kept as they are (control bytes count)."""
    argv = [str(harness.SWAPCTL)] + [str(a) for a in args]
    try:
        p = subprocess.run(argv, cwd=str(harness.REPO), env=sw.env(env),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=QUICK,
                           preexec_fn=limit)
    except subprocess.TimeoutExpired:
        pytest.fail("swapctl %s: no end within %d s" % (
            " ".join(str(a) for a in args), QUICK))
    return p


def check(p, what, must_refuse, lines=1):
    rc = p.returncode
    err = p.stderr.decode("utf-8", "replace")
    assert rc >= 0, "%s: killed by signal %d\n%s" % (what, -rc, err[-2000:])
    assert rc in DOCUMENTED, "%s: exit %d\n%s" % (what, rc, err[-2000:])
    # JSON escapes C0 bytes but may carry DEL as it is (valid JSON, and
    # a terminal shows nothing for it): only text output must not
    is_json = any(a in ("--json", "--kcidb") for a in p.args)
    for name, out in (("stdout", p.stdout), ("stderr", p.stderr)):
        bad = [b for b in set(out) if (b < 0x20 and b not in (9, 10)) or
               (b == 0x7f and not (is_json and name == "stdout"))]
        assert not bad, "%s: control bytes %r on %s: %r" % (
            what, bad, name, out[:3000])
    for line in p.stdout.splitlines() + p.stderr.splitlines():
        assert len(line) <= 2000, "%s: a line of %d bytes: %r" % (
            what, len(line), line[:200])
    said = p.stdout.decode("utf-8", "replace") + err
    assert not [w for w in JANSSON_WORDS if w in said], \
        "%s: jansson's words: %r" % (what, said[-2000:])
    if rc:
        errs = [x for x in err.splitlines() if x.strip()]
        assert errs, "%s: exit %d with nothing on stderr" % (what, rc)
        assert all(x.startswith("swapctl") for x in errs), \
            "%s: %r" % (what, err)
    if must_refuse:
        assert rc != 0, "%s: exit 0 on an unusable input\n%s" % (what, err)


@pytest.mark.parametrize("case", CASES, ids=[c.id() for c in CASES])
def test_hostile_input(sw, tmp_path, case):
    t = case.target
    if t in ("validate", "run-dry"):
        f = tmp_path / "s.json"
        case.make(f)
        cmd = ["validate"] if t == "validate" else ["run", "--dry-run"]
        check(swapctl(sw, *cmd, f), "%s %s" % (" ".join(cmd), case.id()),
              case.must_refuse)
        return
    if t == "validate-name":
        f = tmp_path / ("s" + CTRL + ".json")
        shutil.copy(SCENARIO, f)
        check(swapctl(sw, "validate", f), case.id(), False)
        return
    if t in ("apply", "apply-patch"):
        if not shutil.which("git"):
            pytest.skip("git is not installed ('make deps')")
        tree = tmp_path / "tree"
        tree.mkdir()
        for args in (["init", "-q"], ["commit", "-q", "--allow-empty",
                                      "-m", "x"]):
            subprocess.run(["git", "-C", str(tree), "-c", "user.name=t",
                            "-c", "user.email=t@t"] + args, check=True)
        if t == "apply":
            f = tmp_path / "x.mbox"
            case.make(f)
        else:
            f = tmp_path / "series-dir"
            f.mkdir()
            (f / "series").write_text("0001-x.patch\n")
            case.make(f / "0001-x.patch")
        conf = sw.write_config(tmp_path / "c.conf",
                               workdir=str(tmp_path / "wd"))
        check(swapctl(sw, "--config", conf, "build", "--dry-run", "--tree",
                      tree, "--apply", f), case.id(), case.must_refuse)
        assert not (tmp_path / "wd" / "trees").exists()
        return
    if t == "config":
        f = tmp_path / "c.conf"
        case.make(f)
        check(swapctl(sw, "--config", f, "list"), case.id(),
              case.must_refuse)
        return
    if t.startswith("run-"):
        run = fresh_run(tmp_path)
        replace_file(run / RUN_FILES[t[4:]], case.make)
        for cmd in RUN_CMDS:
            check(swapctl(sw, *cmd, run), "%s %s" % (" ".join(cmd),
                                                    case.id()),
                  case.must_refuse)
        return
    if t == "manifest":
        wd = tmp_path / "wd"
        (wd / "kernels" / "baseline").mkdir(parents=True)
        case.make(wd / "kernels" / "baseline" / "manifest.json")
        conf = sw.write_config(tmp_path / "c.conf", workdir=str(wd))
        for cmd in (["list"], ["list", "--json"]):
            check(swapctl(sw, "--config", conf, *cmd),
                  "%s %s" % (" ".join(cmd), case.id()), case.must_refuse)
        return
    if t == "live-samples":
        wd = tmp_path / "wd"
        run = wd / "runs" / "20261203-120000-demo"
        run.parent.mkdir(parents=True)
        shutil.copytree(harness.REPO / "tests" / "fixtures" / "run-demo",
                        run)
        (run / "state").write_text("running\n")
        (wd / "runs" / "latest").symlink_to(run.name)
        (wd / "run.lock").touch()
        replace_file(run / "patched-1" / "samples.jsonl", case.make)
        with open(wd / "run.lock") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            p = swapctl(sw, "top", "-b", "-d", "0.2", "-n", "5", run)
        check(p, case.id(), case.must_refuse)
        return
    if t == "svg":
        run = fresh_run(tmp_path)
        victim = tmp_path / "victim"
        victim.write_text("precious")
        out = tmp_path / "keep.svg"
        case.make(out)
        before = os.lstat(out) if os.path.lexists(out) else None
        p = swapctl(sw, "report", "--svg", out, run)
        check(p, case.id(), case.must_refuse)
        assert p.returncode == EXIT_CODES["EXIT_OUTPUT"], p
        assert victim.read_text() == "precious"
        after = os.lstat(out) if os.path.lexists(out) else None
        assert (before is None) == (after is None)
        if before:
            assert (before.st_mode, before.st_ino) == (after.st_mode,
                                                       after.st_ino)
        return
    raise AssertionError("unknown target " + t)


def test_corpus_size():
    # the corpus is generated; this names its size in the test output
    n = len(CASES)
    runs = sum(len(RUN_CMDS) for c in CASES if c.target.startswith("run-"))
    print("hostile corpus: %d inputs, %d command runs" % (
        n, runs + sum(1 for c in CASES if not c.target.startswith("run-"))))
    assert n >= 200
