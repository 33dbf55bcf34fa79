# SPDX-License-Identifier: GPL-2.0
"""The documentation against the tool and itself, no guest needed:
- --help and the man pages agree (tests/check-help-man: each command's
  page, OPTIONS and EXIT STATUS, and swapctl-metrics(7) against the
  registry);
- every relative link of the Markdown (README.md, doc/) reaches a file,
  and its #anchor a heading there; every doc/ or man/ path the Markdown
  and the man pages name exists;
- every page a man page refers to (swapctl-x(N), swapctl.conf(5)) is one
  of ours;
- every option of a `swapctl CMD ...` line of the guides' and README's
  examples is an option of CMD;
- make install DESTDIR=... installs every page, and man finds them."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from harness import REPO, SWAPCTL

GLOBAL_OPTS = {"--config", "-v", "--verbose", "--version", "-h", "--help"}


def markdown_files():
    return [REPO / "README.md"] + sorted((REPO / "doc").rglob("*.md"))


def man_pages():
    return sorted(p for p in (REPO / "man").iterdir()
                  if re.search(r"\.[157](\.in)?$", p.name))


def slug(heading):
    """GitHub's anchor of a heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    return {slug(m.group(1)) for m in
            re.finditer(r"^#+ (.*)$", path.read_text(), re.M)}


def md_links(text):
    """The targets of [text](target), outside code."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_help_agrees_with_man(sw):
    p = subprocess.run([str(REPO / "tests" / "check-help-man")], cwd=REPO,
                       capture_output=True, text=True,
                       env=dict(os.environ, SWAPCTL=str(SWAPCTL)))
    fails = [line for line in p.stdout.splitlines()
             if line.startswith("FAIL ")]
    assert p.returncode == 0 and not fails, "\n".join(fails) or p.stderr


def test_markdown_links_reach_files_and_headings():
    bad = []
    for md in markdown_files():
        for target in md_links(md.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dst = (md.parent / path).resolve() if path else md
            if not dst.exists():
                bad.append("%s: %s: no such file" %
                           (md.relative_to(REPO), target))
            elif anchor and dst.is_file() and anchor not in anchors(dst):
                bad.append("%s: %s: no heading #%s in %s" %
                           (md.relative_to(REPO), target, anchor,
                            dst.relative_to(REPO)))
    assert not bad, "\n".join(bad)


def test_named_doc_and_man_paths_exist():
    # "doc/measurements/x.md" in prose or a man page, from the repository
    bad = []
    for f in markdown_files() + man_pages():
        text = f.read_text().replace("\\-", "-").replace("\\fR", "")
        for m in re.finditer(r"(?<![\w/.])((?:doc|man)/[\w./<>-]*[\w>])",
                             text):
            path = m.group(1)
            if "<" in path or path.endswith("/") or "*" in path:
                continue
            if not (REPO / path).exists():
                bad.append("%s: %s" % (f.relative_to(REPO), path))
    assert not bad, "\n".join(bad)


def test_man_references_are_our_pages():
    ours = {p.name.removesuffix(".in") for p in man_pages()}
    bad = []
    for page in man_pages():
        text = page.read_text().replace("\\-", "-")
        text = re.sub(r"^\.\\\".*$", "", text, flags=re.M)
        for name, sec in re.findall(r"\b(swapctl[\w.-]*) ?\(([157])\)",
                                    text):
            if "%s.%s" % (name, sec) not in ours:
                bad.append("%s: %s(%s)" % (page.name, name, sec))
    assert not bad, "\n".join(bad)


def example_lines():
    """(file, line) of every `swapctl CMD ...` command line of the
    guides' and the README's code blocks (indented 4, or fenced)."""
    for md in [REPO / "README.md"] + sorted((REPO / "doc" / "guide")
                                            .glob("*.md")):
        for line in md.read_text().splitlines():
            m = re.match(r"^ {4,}(?:\$ )?(?:\./)?(swapctl .*)$", line)
            if m:
                yield md, m.group(1)


def test_guide_examples_use_real_options(sw):
    helps = {}
    bad = []
    n = 0
    for md, line in example_lines():
        words = line.split("#", 1)[0].split()
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[1:] if words[0] != "--config" else words[2:]
        if not words or words[0] not in ("build", "run", "top", "report",
                                         "validate", "metrics", "list",
                                         "bisect", "help"):
            continue
        cmd = words[0]
        if cmd not in helps:
            r = sw.run(cmd, "--help")
            helps[cmd] = set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)",
                                        r.out.split("exit codes")[0]))
        for w in words[1:]:
            if w in ("|", ">", "&&", "\\"):
                break
            opt = w.split("=", 1)[0]
            if opt.startswith("-") and opt != "-":
                n += 1
                if opt not in helps[cmd]:
                    bad.append("%s: swapctl %s has no option %s: %s" %
                               (md.relative_to(REPO), cmd, opt, line))
    assert n > 20, "found only %d options in the examples" % n
    assert not bad, "\n".join(bad)


def test_make_install_installs_every_page(tmp_path):
    if not shutil.which("man") or not shutil.which("make"):
        pytest.skip("man or make is not installed ('make deps')")
    dest = tmp_path / "inst"
    p = subprocess.run(["make", "-s", "install", "DESTDIR=%s" % dest,
                        "PREFIX=/usr"], cwd=REPO, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    mandir = dest / "usr" / "share" / "man"
    want = {p.name.removesuffix(".in") for p in man_pages()}
    got = {f.name for f in mandir.rglob("*") if f.is_file()}
    assert want <= got, want - got
    for name in sorted(want):
        sec = name.rsplit(".", 1)[1]
        assert (mandir / ("man" + sec) / name).is_file(), name
        r = subprocess.run(["man", "-l", str(mandir / ("man" + sec) /
                                             name)],
                           capture_output=True, text=True,
                           env=dict(os.environ, MANWIDTH="80",
                                    MAN_KEEP_FORMATTING="0"))
        out = re.sub(".\b", "", r.stdout)
        assert r.returncode == 0 and "\nNAME\n" in out, (name, r.stderr)
    r = subprocess.run(["man", "-w", "swapctl-run"], capture_output=True,
                       text=True, env=dict(os.environ,
                                           MANPATH=str(mandir)))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(mandir / "man1" / "swapctl-run.1"), \
        r.stdout


# the commands whose transcripts are run: they only read
READ_ONLY = ("validate", "metrics", "report", "help")


def transcripts():
    """(file, argv, expected lines) of each `$ swapctl CMD ...` transcript
    of the guides, CMD one that only reads, whose paths are relative and
    lie in the repository (run from its top): the command's lines until a
    blank line or the next `$`; a line `...` stands for any lines."""
    for md in sorted((REPO / "doc" / "guide").glob("*.md")):
        lines = md.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.match(r"^    \$ swapctl (.*)$", line)
            if not m:
                continue
            argv = m.group(1).split()
            paths = [a for a in argv if "/" in a or a.endswith(".json")]
            if not argv or argv[0] not in READ_ONLY or \
                    any(a.startswith(("/", "~")) or ".." in a or
                        not (REPO / a).exists() for a in paths):
                continue
            want = []
            rest = lines[i + 1:]
            for k, out in enumerate(rest):
                more = k + 1 < len(rest) and rest[k + 1].startswith("    ") \
                    and not rest[k + 1].startswith("    $ ")
                if out == "" and more:
                    want.append("")
                    continue
                if not out.startswith("    ") or out.startswith("    $ "):
                    break
                want.append(out[4:])
            yield md, argv, want


def matches(want, got):
    """Whether the lines @got hold @want in order, each `...` of @want
    standing for any lines (none too)."""
    if not want:
        return not got
    if want[0] == "...":
        return any(matches(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and got[0] == want[0] and matches(want[1:], got[1:])


def test_guide_transcripts_are_real(sw):
    n = 0
    bad = []
    for md, argv, want in transcripts():
        n += 1
        p = subprocess.run([str(SWAPCTL)] + argv, cwd=REPO,
                           capture_output=True, text=True,
                           env=sw.env({"COLUMNS": "200"}))
        got = [line.rstrip() for line in (p.stdout + p.stderr).splitlines()]
        if not matches([w.rstrip() for w in want], got):
            bad.append("%s: swapctl %s:\n  shown:\n    %s\n  printed:\n    %s"
                       % (md.relative_to(REPO), " ".join(argv),
                          "\n    ".join(want), "\n    ".join(got)))
    assert n >= 4, "only %d transcripts to check" % n
    assert not bad, "\n".join(bad)


def test_guide_json_blocks_are_the_example_files():
    # an indented JSON block right after a link to examples/X.json is X
    import json
    n = 0
    for md in sorted((REPO / "doc" / "guide").glob("*.md")):
        text = md.read_text()
        for m in re.finditer(r"\]\((examples/[\w.-]+\.json)\):\n\n((?: {4}.*\n)+)",
                             text):
            n += 1
            block = "\n".join(line[4:] for line in m.group(2).splitlines())
            assert json.loads(block) == json.loads(
                (md.parent / m.group(1)).read_text()), (md, m.group(1))
    assert n >= 1
