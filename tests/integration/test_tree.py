# SPDX-License-Identifier: GPL-2.0
"""swapctl build --tree: kernels from a git tree of the user's (--range,
--apply with an mbox, a directory or a quilt series file), the refusals,
and the tree and index left as they were.

A toy "kernel" repository stands in for Linux: its Makefile fakes
tinyconfig, olddefconfig and bzImage (the bzImage is the concatenation of
its objects, one per src/*.c, each compiled only when its source is newer),
and scripts/kconfig/merge_config.sh appends the fragments. Each test has a
work directory of its own. One real build (@pytest.mark.full) makes a git
tree of linux-source-6.1 with patches/swap-ops on a topic branch and runs
zram-swap on base and topic."""
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import harness
from harness import (EXIT_DIRTY, EXIT_NOT_GIT, EXIT_OK, EXIT_PATCH,
                     EXIT_REF, EXIT_USAGE)

TOY_MAKEFILE = """\
VERSION = 6
PATCHLEVEL = 1
O ?= .
OBJS := $(patsubst src/%.c,$(O)/%.o,$(wildcard src/*.c))
tinyconfig:
\tmkdir -p $(O) && echo CONFIG_TOY=y > $(O)/.config
olddefconfig:
\ttest -f $(O)/.config
$(O)/%.o: src/%.c
\t@echo "  CC      $*.o"
\tcp $< $@
bzImage: $(OBJS)
\tmkdir -p $(O)/arch/x86/boot $(O)/include/config
\tcat $(OBJS) > $(O)/arch/x86/boot/bzImage
\techo $(VERSION).$(PATCHLEVEL).0-toy > $(O)/include/config/kernel.release
.PHONY: tinyconfig olddefconfig bzImage
"""

# merge_config.sh -m -O DIR BASE FRAGMENT...: append the fragments
TOY_MERGE = """\
#!/bin/sh
shift; shift; dir=$1; shift; base=$1; shift
cat "$@" >> "$dir/$base"
"""

# fixed dates: a toy made again with the same messages has the same ids
ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@localhost",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@localhost",
       "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
       "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z", "LC_ALL": "C"}


def git(tree, *args):
    env = dict(os.environ)
    env.update(ENV)
    p = subprocess.run(["git", "-C", str(tree)] + list(args), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, check=True)
    return p.stdout.strip()


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class Toy:
    """A toy kernel repository with branches base and topic (topic changes
    src/b.c), a work dir and a config of its own."""

    def __init__(self, sw, tmp, again=""):
        self.sw = sw
        self.tree = tmp / "toy"
        self.workdir = tmp / "wd"
        self.conf = sw.write_config(tmp / "toy.conf",
                                    workdir=str(self.workdir))
        t = self.tree
        (t / "src").mkdir(parents=True)
        (t / "scripts" / "kconfig").mkdir(parents=True)
        (t / "Makefile").write_text(TOY_MAKEFILE)
        m = t / "scripts" / "kconfig" / "merge_config.sh"
        m.write_text(TOY_MERGE)
        m.chmod(0o755)
        (t / "src" / "a.c").write_text("int a;\n")
        (t / "src" / "b.c").write_text("int b;\n")
        git(t, "init", "-q", "-b", "base")
        git(t, "add", "-A")
        git(t, "commit", "-q", "-m", "toy: base" + again)
        git(t, "checkout", "-q", "-b", "topic")
        (t / "src" / "b.c").write_text("int b;\nint batched;\n")
        git(t, "commit", "-q", "-am", "toy: batch b")
        git(t, "checkout", "-q", "base")

    def run(self, *args):
        return self.sw.run(*args, env={"SWAPCTL_CONFIG": str(self.conf)})

    def expect(self, code, *args):
        r = self.run(*args)
        assert r.rc == code, "expected exit %d, got %r" % (code, r)
        return r

    def kernel(self, name):
        return self.workdir / "kernels" / name

    def manifest(self, name):
        return json.loads((self.kernel(name) / "manifest.json").read_text())

    def image(self, name):
        return (self.kernel(name) / "bzImage").read_text()

    def state(self):
        """What must not change in the user's tree: HEAD, the index's
        bytes and mtime, the status, the files."""
        idx = self.tree / ".git" / "index"
        return (git(self.tree, "rev-parse", "HEAD"), sha(idx),
                idx.stat().st_mtime_ns,
                git(self.tree, "--no-optional-locks", "status",
                    "--porcelain", "--ignored"),
                sorted(str(p.relative_to(self.tree))
                       for p in self.tree.rglob("*")
                       if ".git" not in p.parts))


@pytest.fixture
def toy(sw, tmp_path):
    if not shutil.which("git"):
        pytest.skip("git is not installed ('make deps')")
    return Toy(sw, tmp_path)


def test_range_builds_base_and_topic_leaving_the_tree_alone(toy):
    before = toy.state()
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert toy.state() == before
    assert toy.image("base") == "int a;\nint b;\n"
    assert toy.image("topic") == "int a;\nint b;\nint batched;\n"
    for name, ref in (("base", "base"), ("topic", "topic")):
        src = toy.manifest(name)["source"]
        assert src == {"kind": "git", "tree": str(toy.tree), "ref": ref,
                       "commit": git(toy.tree, "rev-parse", ref),
                       "apply": ""}, src
    # the topic tree starts from the base's out/: only b.o is compiled
    assert re.search(r"topic: starting from \S+/trees/base/out", r.err), \
        r.err
    assert re.search(r"^swapctl build: base: 2 objects compiled", r.err,
                     re.M), r.err
    assert re.search(r"^swapctl build: topic: 1 objects compiled", r.err,
                     re.M), r.err
    # the kernels' trees are worktrees of the work dir, detached
    wt = git(toy.tree, "worktree", "list", "--porcelain")
    assert str(toy.workdir / "trees" / "topic") in wt and "detached" in wt
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "base: up to date" in r.err and "topic: up to date" in r.err


def test_dry_run_names_the_tree_and_commits_and_makes_nothing(toy):
    before = toy.state()
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic", "--dry-run")
    assert toy.state() == before
    assert not (toy.workdir / "trees").exists()
    assert "git tree     %s" % toy.tree in r.out, r.out
    assert "tarball " not in r.out and "extract " not in r.out, r.out
    assert "source     %s topic (%s)" % (
        toy.tree, git(toy.tree, "rev-parse", "topic")) in r.out, r.out


def test_moving_topic_rebuilds_only_what_changed(toy):
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic")
    git(toy.tree, "checkout", "-q", "topic")
    (toy.tree / "src" / "a.c").write_text("int a2;\n")
    git(toy.tree, "commit", "-q", "-am", "toy: a2")
    git(toy.tree, "checkout", "-q", "base")
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "base: up to date" in r.err, r.err
    assert re.search(r"^swapctl build: topic: 1 objects compiled", r.err,
                     re.M), r.err
    assert toy.image("topic") == "int a2;\nint b;\nint batched;\n"


def test_list_shows_each_kernel_with_its_source(toy):
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic")
    r = toy.expect(EXIT_OK, "list")
    commit = git(toy.tree, "rev-parse", "topic")[:12]
    line = [ln for ln in r.out.splitlines() if ln.split()[:1] == ["topic"]]
    assert line and "git %s topic (%s)" % (toy.tree, commit) in line[0], \
        r.out
    j = toy.expect(EXIT_OK, "list", "--json").json()
    k = {e["variant"]: e for e in j["kernels"]}
    assert k["base"]["source"]["kind"] == "git"
    assert k["base"]["source"]["commit"] == git(toy.tree, "rev-parse",
                                                "base")


def test_mbox_is_applied_with_git_am_onto_base(toy, tmp_path):
    mbox = tmp_path / "batch-b.mbox"
    mbox.write_text(git(toy.tree, "format-patch", "--stdout",
                        "base..topic") + "\n")
    before = toy.state()
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--apply", mbox,
               "--base", "base")
    assert toy.state() == before
    assert toy.image("batch-b") == "int a;\nint b;\nint batched;\n"
    m = toy.manifest("batch-b")
    assert m["source"]["apply"] == str(mbox)
    assert m["source"]["commit"] == git(toy.tree, "rev-parse", "base")
    assert [p["name"] for p in m["patches"]] == ["batch-b.mbox"]


def test_quilt_directory_of_plain_diffs(toy, tmp_path):
    d = tmp_path / "quilt"
    d.mkdir()
    (d / "b.diff").write_text(git(toy.tree, "diff", "base", "topic") + "\n")
    (d / "series").write_text("# plain diffs, no mail headers\nb.diff\n")
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--apply", d / "series",
               "--base", "base", "--names", "b0,b1")
    assert toy.image("b1") == "int a;\nint b;\nint batched;\n"
    assert toy.image("b0") == "int a;\nint b;\n"


def test_directory_of_format_patch_files(toy, tmp_path):
    """git format-patch -o DIR: no series file, the patches by name, each
    a commit of its own on the kernel's worktree."""
    git(toy.tree, "checkout", "-q", "topic")
    (toy.tree / "src" / "a.c").write_text("int a;\nint a_batched;\n")
    git(toy.tree, "commit", "-q", "-am", "toy: batch a")
    git(toy.tree, "checkout", "-q", "base")
    d = tmp_path / "outgoing"
    git(toy.tree, "format-patch", "-q", "-o", str(d), "base..topic")
    before = toy.state()
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--apply", d,
               "--base", "base")
    assert toy.state() == before
    assert toy.image("outgoing") == \
        "int a;\nint a_batched;\nint b;\nint batched;\n"
    m = toy.manifest("outgoing")
    assert [p["name"] for p in m["patches"]] == \
        ["0001-toy-batch-b.patch", "0002-toy-batch-a.patch"], m["patches"]
    log = git(toy.workdir / "trees" / "outgoing", "log", "--format=%s",
              "-3")
    assert log.splitlines() == ["toy: batch a", "toy: batch b",
                                "toy: base"], log


def test_keep_each_installs_the_kernel_after_every_patch(toy, tmp_path):
    """--keep-each (swapctl bisect's builds): kernels/<series>.01, .02
    hold the kernel after patch 1 and 2; a second build makes none of
    them again; a changed patch 2 rebuilds only .02 (and the series')."""
    git(toy.tree, "checkout", "-q", "topic")
    (toy.tree / "src" / "a.c").write_text("int a;\nint a_batched;\n")
    git(toy.tree, "commit", "-q", "-am", "toy: batch a")
    git(toy.tree, "checkout", "-q", "base")
    d = tmp_path / "two"
    git(toy.tree, "format-patch", "-q", "-o", str(d), "base..topic")
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--apply", d,
                   "--base", "base", "--keep-each")
    assert toy.image("two.01") == "int a;\nint b;\nint batched;\n"
    assert toy.image("two.02") == toy.image("two") == \
        "int a;\nint a_batched;\nint b;\nint batched;\n"
    m = toy.manifest("two.01")
    assert m["step"] == {"of": "two", "patch": 1, "patches": 2,
                         "name": "0001-toy-batch-b.patch"}, m["step"]
    assert [p["name"] for p in m["patches"]] == ["0001-toy-batch-b.patch"]
    assert m["source"]["commit"] == git(toy.tree, "rev-parse", "base")
    assert "two.01: the kernel after patch 1/2" in r.err, r.err
    assert not toy.kernel("base.01").exists()
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--apply", d,
                   "--base", "base", "--keep-each")
    for name in ("two.01", "two.02", "two"):
        assert "%s: up to date" % name in r.err, r.err
    assert "objects compiled" not in r.err, r.err
    p2 = sorted(d.iterdir())[1]
    p2.write_text(p2.read_text().replace("+int a_batched;",
                                         "+int a_batched2;"))
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--apply", d,
                   "--base", "base", "--keep-each")
    assert "two.01: up to date" in r.err, r.err
    assert toy.image("two.02").startswith("int a;\nint a_batched2;\n")


def test_patch_that_does_not_apply_names_subject_and_hunk(toy, tmp_path):
    bad = tmp_path / "bad.mbox"
    text = git(toy.tree, "format-patch", "--stdout", "base..topic")
    bad.write_text(text.replace(" int b;\n+int batched;",
                                " int c;\n+int batched;") + "\n")
    r = toy.expect(EXIT_PATCH, "build", "--tree", toy.tree, "--apply", bad,
                   "--base", "base")
    assert str(bad) in r.err and "0001 toy: batch b" in r.err, r.err
    assert "patch failed: src/b.c:1" in r.err, r.err
    assert len(r.err.strip().splitlines()[-1]) < 400
    assert not toy.kernel("bad").exists()
    # a directory of patches names the file and its place in the series
    d = tmp_path / "dir"
    d.mkdir()
    (d / "0001-bad.patch").write_text(bad.read_text())
    r = toy.expect(EXIT_PATCH, "build", "--tree", toy.tree, "--apply", d,
                   "--base", "base")
    assert "0001-bad.patch: patch 1/1" in r.err, r.err
    assert "patch failed: src/b.c:1" in r.err, r.err


def test_refusals(toy, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    r = toy.expect(EXIT_NOT_GIT, "build", "--tree", plain,
                   "--range", "base..topic")
    assert "%s: not a git work tree (--tree)" % plain in r.err, r.err
    r = toy.expect(EXIT_REF, "build", "--tree", toy.tree,
                   "--range", "base..no-such-topic")
    assert "unknown ref 'no-such-topic'" in r.err, r.err
    # kernel_tree from the configuration names where it came from
    conf = toy.sw.write_config(tmp_path / "kt.conf",
                               workdir=str(toy.workdir),
                               kernel_tree=str(plain))
    r = toy.sw.run("build", "--range", "base..topic",
                   env={"SWAPCTL_CONFIG": str(conf)})
    assert r.rc == EXIT_NOT_GIT and "kernel_tree, from %s" % conf in r.err, r
    r = toy.expect(EXIT_USAGE, "build", "--tree", toy.tree,
                   "--range", "base")
    assert "is not BASE..TOPIC" in r.err, r.err
    r = toy.expect(EXIT_USAGE, "build", "--tree", toy.tree)
    assert "need --range" in r.err, r.err


def set_line(tree, line, msg):
    """Commit the toy's Makefile as kernel line @line on the branch
    checked out."""
    major, minor = line.split(".")
    mk = tree / "Makefile"
    text = re.sub(r"(?m)^VERSION = .*$", "VERSION = " + major,
                  mk.read_text())
    mk.write_text(re.sub(r"(?m)^PATCHLEVEL = .*$", "PATCHLEVEL = " + minor,
                         text))
    git(tree, "commit", "-q", "-am", msg)


def test_the_trees_line_selects_its_guest_fragment(toy):
    """A 6.12 tree gets patches/6.12/kernel.config (no FRONTSWAP, zram's
    own backends), as `build --line 6.12` does; a 6.1 tree
    guest/kernel.config."""
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic", "--dry-run")
    assert "kernel line  6.1 (its Makefile; guest fragment %s)" % (
        harness.REPO / "guest" / "kernel.config") in r.out, r.out
    for b in ("base", "topic"):
        git(toy.tree, "checkout", "-q", b)
        set_line(toy.tree, "6.12", "toy: 6.12")
    git(toy.tree, "checkout", "-q", "base")
    frag = harness.REPO / "patches" / "6.12" / "kernel.config"
    j = toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range",
                   "base..topic", "--dry-run", "--json").json()
    assert j["kernel_line"] == "6.12" and j["fragment"] == str(frag), j
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic")
    config = (toy.workdir / "trees" / "topic" / "out" / ".config").read_text()
    assert "CONFIG_ZRAM_BACKEND_LZO=y" in config, config
    assert "CONFIG_FRONTSWAP=y" not in config, config
    assert toy.manifest("topic")["kernel_line"] == "6.12"
    assert toy.manifest("topic")["fragment_sha256"] == sha(frag)
    # a newer line with no fragment of its own takes the newest older one
    git(toy.tree, "checkout", "-q", "topic")
    set_line(toy.tree, "6.13", "toy: 6.13")
    git(toy.tree, "checkout", "-q", "base")
    j = toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range",
                   "base..topic", "--dry-run", "--json").json()
    assert j["kernel_line"] == "6.13" and j["fragment"] == str(frag), j


def test_a_range_across_fragments_and_a_tree_that_is_no_kernel(toy):
    before = toy.state()
    git(toy.tree, "checkout", "-q", "topic")
    set_line(toy.tree, "6.12", "toy: 6.12")
    git(toy.tree, "checkout", "-q", "base")
    before = toy.state()
    r = toy.expect(EXIT_USAGE, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "base is kernel line 6.1 and topic is 6.12: they need " \
        "different guest fragments" in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert toy.state() == before
    assert not (toy.workdir / "trees").exists()
    git(toy.tree, "checkout", "-q", "topic")
    mk = toy.tree / "Makefile"
    mk.write_text(re.sub(r"(?m)^(VERSION|PATCHLEVEL) = .*\n", "",
                         mk.read_text()))
    git(toy.tree, "commit", "-q", "-am", "toy: no version")
    git(toy.tree, "checkout", "-q", "base")
    r = toy.expect(EXIT_NOT_GIT, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "topic (%s) has no top Makefile with VERSION and PATCHLEVEL" % (
        git(toy.tree, "rev-parse", "topic")) in r.err, r.err


# Each refusal of --tree: the arguments ({tree}, {tmp} filled in), the
# exit code, and what its one line must say. None builds anything.
REFUSALS = [
    (["--range", "base..topic", "--apply", "{tmp}/x.mbox"], EXIT_USAGE,
     "--range and --apply exclude each other"),
    (["--range", "base..topic", "--series", "swap-ops"], EXIT_USAGE,
     "they exclude --series, --baseline, --all and --patches"),
    (["--apply", "{tmp}/x.mbox", "--all"], EXIT_USAGE,
     "they exclude --series, --baseline, --all and --patches"),
    (["--base", "base"], EXIT_USAGE,
     "--tree, --base and --names need --range BASE..TOPIC or --apply"),
    (["--names", "a,b"], EXIT_USAGE,
     "--tree, --base and --names need --range BASE..TOPIC or --apply"),
    (["--range", "base..topic", "--base", "base"], EXIT_USAGE,
     "--base goes with --apply"),
    (["--range", "base...topic"], EXIT_USAGE,
     "--range: 'base...topic' is not BASE..TOPIC"),
    (["--range", "..topic"], EXIT_USAGE,
     "--range: '..topic' is not BASE..TOPIC"),
    (["--range", "base.."], EXIT_USAGE,
     "--range: 'base..' is not BASE..TOPIC"),
    (["--range", "base..topic", "--names", "onlyone"], EXIT_USAGE,
     "--names: 'onlyone' is not BASE,PATCHED"),
    (["--range", "base..topic", "--names", "same,same"], EXIT_USAGE,
     "both kernels would be named 'same'"),
    (["--range", "base..topic", "--names", "a,b-debug"], EXIT_USAGE,
     "--names: 'b-debug' cannot name a kernel"),
    (["--range", "base..topic", "--names", "a,b/c"], EXIT_USAGE,
     "--names: 'b/c' cannot name a kernel"),
    (["--range", "-base..topic"], EXIT_REF,
     "'-base' is not a ref (--range)"),
    (["--range", "base..topic~5"], EXIT_REF,
     "unknown ref 'topic~5': it names no commit (--range)"),
    (["--apply", "{tmp}/x.mbox", "--base", "nope"], EXIT_REF,
     "unknown ref 'nope': it names no commit (--base)"),
    (["--apply", "{tmp}/missing.mbox"], EXIT_PATCH,
     "--apply: {tmp}/missing.mbox: No such file or directory"),
    (["--apply", "{tmp}/empty"], EXIT_PATCH,
     "{tmp}/empty: no series file and no *.patch or *.diff file"),
    (["--apply", "{tmp}/noseries/series"], EXIT_PATCH,
     "the series lists no patch"),
    (["--apply", "{tmp}/badseries/series"], EXIT_PATCH,
     "{tmp}/badseries/series:1: "),
    # issue 33, item 9: a mail without a diff was "apply 1/1"
    (["--apply", "{tmp}/nodiff.mbox"], EXIT_PATCH,
     "{tmp}/nodiff.mbox: a mail without a diff"),
    (["--dry-run", "--apply", "{tmp}/nodiff.mbox"], EXIT_PATCH,
     "{tmp}/nodiff.mbox: a mail without a diff"),
    # item 13: binary garbage read as a quilt series was echoed raw
    (["--apply", "{tmp}/garbage.bin"], EXIT_PATCH,
     "{tmp}/garbage.bin: binary data: not a series file"),
    (["--apply", "{tmp}/ctrl/series"], EXIT_PATCH,
     "unknown option '??[2J'"),
]


@pytest.mark.parametrize("args,code,msg", REFUSALS,
                         ids=["%d-%s" % (i, r[2].split()[0].strip("-'"))
                              for i, r in enumerate(REFUSALS)])
def test_each_refusal_says_why_and_makes_nothing(toy, tmp_path, args, code,
                                                 msg):
    (tmp_path / "x.mbox").write_text(
        git(toy.tree, "format-patch", "--stdout", "base..topic") + "\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("no patch here\n")
    (tmp_path / "noseries").mkdir()
    (tmp_path / "noseries" / "series").write_text("# nothing\n")
    (tmp_path / "badseries").mkdir()
    (tmp_path / "badseries" / "series").write_text("absent.patch\n")
    (tmp_path / "nodiff.mbox").write_text(
        "From 0 Mon Sep 17 00:00:00 2001\nFrom: a <a@b>\n"
        "Subject: [PATCH] words only\n\nno diff here\n")
    (tmp_path / "garbage.bin").write_bytes(bytes(range(256)) * 8)
    (tmp_path / "ctrl").mkdir()
    (tmp_path / "ctrl" / "series").write_bytes(b"a.patch \xc2\x9b[2J\n")
    before = toy.state()
    argv = [a.format(tmp=tmp_path) for a in args]
    r = toy.expect(code, "build", "--tree", toy.tree, *argv)
    want = msg.format(tmp=tmp_path)
    assert want in r.err, r.err
    assert len(r.err.strip().splitlines()) == 1, r.err
    assert toy.state() == before
    assert not (toy.workdir / "trees").exists()
    assert not (toy.workdir / "kernels").exists()


def test_no_tree_at_all_and_a_missing_directory(toy, tmp_path):
    conf = toy.sw.write_config(tmp_path / "nokt.conf",
                               workdir=str(toy.workdir), kernel_tree=None)
    r = toy.sw.run("build", "--range", "base..topic",
                   env={"SWAPCTL_CONFIG": str(conf)})
    assert r.rc == EXIT_USAGE, r
    assert "need a git tree: --tree DIR, or kernel_tree in %s" % conf \
        in r.err, r.err
    gone = tmp_path / "gone"
    r = toy.expect(EXIT_NOT_GIT, "build", "--tree", gone,
                   "--range", "base..topic")
    assert "%s: No such file or directory (--tree)" % gone in r.err, r.err


def test_tarball_build_does_not_replace_a_git_kernel(toy):
    """A kernel (and tree) built from the git tree under the name
    'baseline': swapctl build of the tarball's baseline refuses before it
    takes the lock or extracts anything."""
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic",
               "--names", "baseline,topic")
    img = toy.image("baseline")
    r = toy.expect(EXIT_USAGE, "build", "--baseline")
    assert "kernels/baseline: built from a git tree" in r.err or \
        "kernels/baseline: built from the git tree %s" % toy.tree in r.err, \
        r.err
    assert "remove it first" in r.err, r.err
    assert toy.image("baseline") == img
    assert not (toy.workdir / "src").exists()


def test_dirty_tree_refused_only_when_its_head_is_built(toy):
    (toy.tree / "src" / "a.c").write_text("int a_edited;\n")
    before = toy.state()
    # HEAD is base: its uncommitted edit would be left out
    r = toy.expect(EXIT_DIRTY, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "uncommitted changes (src/a.c) and 'base' is its HEAD" in r.err, \
        r.err
    assert toy.state() == before
    # neither commit is HEAD: the edit does not matter
    git(toy.tree, "branch", "b2", "base")
    git(toy.tree, "stash", "-q")
    git(toy.tree, "checkout", "-q", "topic")
    git(toy.tree, "checkout", "-q", "-b", "elsewhere")
    git(toy.tree, "commit", "-q", "--allow-empty", "-m", "elsewhere")
    git(toy.tree, "stash", "pop", "-q")
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "b2..topic")


def test_kernel_of_another_source_is_not_replaced(toy):
    k = toy.kernel("base")
    k.mkdir(parents=True)
    (k / "manifest.json").write_text(json.dumps(
        {"variant": "base", "tarball": "/usr/src/linux-source-6.1.tar.xz",
         "series": ""}))
    r = toy.expect(EXIT_USAGE, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "kernels/base: built from the tarball" in r.err, r.err
    assert "--names" in r.err
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic",
               "--names", "tbase,ttopic")
    assert toy.image("ttopic").endswith("int batched;\n")


def test_clean_removes_the_worktrees(toy):
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic")
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic",
               "--clean")
    assert not (toy.workdir / "trees" / "topic").exists()
    assert str(toy.workdir) not in git(toy.tree, "worktree", "list")


@pytest.mark.parametrize("again", ["", " (made again)"],
                         ids=["same-commits", "new-commits"])
def test_remade_repository_gets_new_worktrees(toy, tmp_path, again):
    """The repository removed and made again: with new commit ids the
    stamps differ; with the same ids (same files, messages and dates) the
    stamps match but the worktrees belong to the removed repository."""
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic")
    old = git(toy.tree, "rev-parse", "topic")
    shutil.rmtree(toy.tree)
    Toy(toy.sw, tmp_path, again=again)
    assert (git(toy.tree, "rev-parse", "topic") == old) == (not again)
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "base: git worktree add" in r.err, r.err
    assert toy.image("topic") == "int a;\nint b;\nint batched;\n"
    assert str(toy.workdir / "trees" / "topic") in \
        git(toy.tree, "worktree", "list")
    git(toy.workdir / "trees" / "topic", "status", "--porcelain")


def test_trees_removed_by_hand_are_made_again(toy):
    """rm -rf <workdir>/trees leaves the worktrees registered (missing) in
    the user's repository: git worktree add -f makes them again."""
    toy.expect(EXIT_OK, "build", "--tree", toy.tree, "--range", "base..topic")
    shutil.rmtree(toy.workdir / "trees")
    shutil.rmtree(toy.kernel("topic"))
    r = toy.expect(EXIT_OK, "build", "--tree", toy.tree,
                   "--range", "base..topic")
    assert "topic: git worktree add" in r.err, r.err
    assert toy.image("topic") == "int a;\nint b;\nint batched;\n"
    git(toy.workdir / "trees" / "topic", "status", "--porcelain")


# ---- one real build: linux-source-6.1 as a git tree ----

def linux_git_tree(sw, line="6.1"):
    """<test workdir>/linux-git[-LINE]: Debian's linux-source-LINE tarball
    committed as branch base, the line's swap-ops series applied by git
    am on branch topic (made again when the series changed). Fixed dates,
    so the commits are the same each time they are made."""
    tarball = "/usr/src/linux-source-%s.tar.xz" % line
    if not os.path.exists(tarball):
        pytest.skip("no %s ('make deps')" % tarball)
    suffix = "" if line == "6.1" else "-" + line
    tree = sw.workdir / ("linux-git" + suffix) / ("linux-source-" + line)
    series = harness.REPO / "patches" / ("" if line == "6.1" else line) / \
        "swap-ops"
    patches = [str(series / ln.split()[0])
               for ln in (series / "series").read_text().splitlines()
               if ln.strip() and not ln.startswith("#")]
    digest = hashlib.sha256(b"".join(Path(p).read_bytes()
                                     for p in patches)).hexdigest()
    stamp = tree / ".git" / "swapctl-series"
    env = dict(os.environ)
    env.update(ENV)
    env.update({"GIT_AUTHOR_DATE": "2023-01-01T00:00:00Z",
                "GIT_COMMITTER_DATE": "2023-01-01T00:00:00Z"})
    try:
        git(tree, "rev-parse", "--verify", "-q", "base")
    except (subprocess.CalledProcessError, FileNotFoundError):
        shutil.rmtree(tree.parent, ignore_errors=True)
        tree.parent.mkdir(parents=True)
        for argv in (["tar", "-xf", tarball, "-C", str(tree.parent)],
                     ["git", "-C", str(tree), "init", "-q", "-b", "base"],
                     # Debian's .gitignore ignores everything at the top
                     ["git", "-C", str(tree), "add", "-A", "-f", "."],
                     ["git", "-C", str(tree), "commit", "-q", "-m",
                      "linux-source-%s as Debian ships it" % line]):
            subprocess.run(argv, env=env, check=True)
    if stamp.exists() and stamp.read_text() == digest:
        return tree
    for argv in (["git", "-C", str(tree), "checkout", "-q", "-B", "topic",
                  "base"],
                 ["git", "-C", str(tree), "am", "-q"] + patches,
                 ["git", "-C", str(tree), "checkout", "-q", "base"]):
        subprocess.run(argv, env=env, check=True)
    stamp.write_text(digest)
    return tree


@pytest.mark.full
@pytest.mark.build
@pytest.mark.boot
@pytest.mark.slow
def test_linux_git_range_builds_and_runs_zram(guests, tmp_path):
    """The 6.1 tarball as a git tree (base: no nrswpin/nrswpout counters),
    patches/swap-ops on topic: swapctl build --tree T --range base..topic,
    then zram-swap on the tarball's baseline, base and topic. base's pages
    per I/O are missing and not measured, everything else is compared;
    topic batches its writes as swap-ops does."""
    sw = guests
    tree = linux_git_tree(sw)
    before = git(tree, "--no-optional-locks", "status", "--porcelain")
    with harness.default_build_lock():
        r = sw.run("build", "--tree", tree, "--range", "base..topic",
                   "--names", "git-base,git-topic", timeout=4 * 3600)
    assert r.rc == EXIT_OK, r.tail()
    assert git(tree, "--no-optional-locks", "status", "--porcelain") == \
        before
    m = json.loads((sw.workdir / "kernels" / "git-topic" /
                    "manifest.json").read_text())
    assert m["source"]["commit"] == git(tree, "rev-parse", "topic")
    run = sw.run("run", "--json", "--kernels", "baseline,git-base,git-topic",
                 harness.REPO / "scenarios" / "zram-swap.json", timeout=3600)
    j = json.loads(run.out)
    assert run.rc in (EXIT_OK, harness.EXIT_REGRESSION), run.tail()
    assert all(g["status"] == "pass" for g in j["results"]), j["results"]
    res = {g["kernel"]: g["metrics"] for g in j["results"]}
    assert res["git-base"]["write_pages_per_io"] is None or \
        res["git-base"]["write_pages_per_io"] == "missing", res["git-base"]
    assert res["git-topic"]["write_pages_per_io"] > 8, res["git-topic"]
    assert res["git-base"]["pswpout"] > 0
    for c in j["comparisons"]:
        if c["kernel"] == "git-base" and c["metric"] in (
                "write_pages_per_io", "read_pages_per_io"):
            assert c["verdict"] == "not measured", c
        elif c["kernel"] == "git-base" and c["metric"] == "pswpout":
            assert c["verdict"] != "not measured", c


@pytest.mark.full
@pytest.mark.build
@pytest.mark.boot
@pytest.mark.slow
def test_linux_612_git_range_builds_and_runs_bdev_and_zram(guests):
    """Issue 18's demonstration: the 6.12 tarball as a git tree, the 6.12
    swap-ops series on topic; build --range base..topic configures it
    with the 6.12 fragment, and bdev-swap and zram-swap run on both: base
    (no counters) has pages per I/O not measured, topic batches its
    writes, both evict the same pages and lose none."""
    sw = guests
    tree = linux_git_tree(sw, "6.12")
    with harness.default_build_lock():
        r = sw.run("build", "--tree", tree, "--range", "base..topic",
                   "--names", "git612-base,git612-topic", timeout=4 * 3600)
    assert r.rc == EXIT_OK, r.tail()
    for k in ("git612-base", "git612-topic"):
        m = json.loads((sw.workdir / "kernels" / k /
                        "manifest.json").read_text())
        assert m["kernel_line"] == "6.12", m
    for scen, batched in (("bdev-swap", 4), ("zram-swap", 8)):
        run = sw.run("run", "--json", "--kernels",
                     "git612-base,git612-topic",
                     harness.REPO / "scenarios" / (scen + ".json"),
                     timeout=3600)
        assert run.rc in (EXIT_OK, harness.EXIT_REGRESSION), run.tail()
        j = json.loads(run.out)
        assert all(g["status"] == "pass" for g in j["results"]), \
            j["results"]
        res = {g["kernel"]: g["metrics"] for g in j["results"]}
        base, topic = res["git612-base"], res["git612-topic"]
        assert base["write_pages_per_io"] in (None, "missing"), base
        assert topic["write_pages_per_io"] > batched, (scen, topic)
        for m in (base, topic):
            assert m["pages_corrupt"] == 0 and m["pages_failed"] == 0, m
        assert abs(topic["pswpout"] / base["pswpout"] - 1) < 0.02, \
            (scen, base["pswpout"], topic["pswpout"])
