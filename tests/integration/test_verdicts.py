# SPDX-License-Identifier: GPL-2.0
"""One verdict vocabulary (issue 33): better, worse, changed, no
significant change, not judged (one run), not measured - the words of
src/results/verdict.c, its one definition, with their 7-column forms
(text-email) and grid characters (bisect) beside them. Every output
that says a verdict is grepped for the other words it once used ("no
change", "~" for it, "no test", "1 run: no test"). No guest needed."""
import json
import re
import shutil

import harness
from harness import EXIT_OK

QUICK = 20
WORDS = {"better", "worse", "changed", "no significant change",
         "not judged (one run)", "not measured"}
# JSON and KCIDB keep enum verdict's words: the one-run case is "no
# significant change" there, with "p": null saying it had no test
JSON_WORDS = WORDS - {"not judged (one run)"}
ABBR = {"better", "worse", "changed", "n.s.", "1 run", "-"}
OTHERS = [re.compile(x) for x in (
    r"(?<!significant )\bno change\b", r"\bno test\b", r"\bunchanged\b",
    r"(?m)[\dx-] ~$", r"(?m)\dx ~ ", r"\bno sig\b")]


def two_repeats(demo_run, tmp_path):
    """The demo run with a second repeat of each kernel (the first one's
    samples): verdicts with a test ("no significant change")."""
    run = tmp_path / "rep"
    shutil.copytree(demo_run, run)
    for k in ("baseline", "patched"):
        shutil.copytree(run / (k + "-1"), run / (k + "-2"))
    return run


def outputs(sw, run, tmp_path):
    out = {}
    for name, args in (("text", []), ("email", ["--format", "text-email"]),
                       ("json", ["--json"]), ("kcidb", ["--kcidb"]),
                       ("csv", ["--csv"])):
        out[name] = sw.expect(EXIT_OK, "report", *args, run,
                              timeout=QUICK).out
    svg = tmp_path / ("%s.svg" % run.name)
    sw.expect(EXIT_OK, "report", "--svg", svg, run, timeout=QUICK)
    out["svg"] = svg.read_text()
    out["top"] = sw.expect(EXIT_OK, "top", "--once", run,
                           timeout=QUICK).out
    out["top-b"] = sw.expect(EXIT_OK, "top", "-b", "--speed", "1000", "-d",
                             "0.1", run, timeout=QUICK).out
    out["bisect"] = sw.expect(EXIT_OK, "bisect", "--run", run,
                              timeout=QUICK).out
    out["bisect-json"] = sw.expect(EXIT_OK, "bisect", "--run", run,
                                   "--json", timeout=QUICK).out
    return out


def json_verdicts(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("verdict", "final") and isinstance(v, str):
                yield v
            else:
                yield from json_verdicts(v)
    elif isinstance(o, list):
        for v in o:
            yield from json_verdicts(v)


def check(out):
    for name, text in out.items():
        for rx in OTHERS:
            m = rx.search(text)
            assert not m, "%s says %r:\n%s" % (
                name, m.group(0), text[max(0, m.start() - 300):m.end() + 50])
    for name in ("json", "kcidb", "bisect-json"):
        said = set(json_verdicts(json.loads(out[name])))
        assert said and said <= JSON_WORDS, (name, said)
    rows = [x for x in out["email"].split("\nMeans over")[0].splitlines()
            if re.match(r"^\S.{21} +\S+ +\S+ ", x) and len(x) > 70 and
            not x.startswith("metric ")]
    assert rows, out["email"]
    for x in rows:
        assert x[71:].strip() in ABBR, x
    # the legends come from the vocabulary
    for w in ("n.s.: no significant change", "1 run: not judged (one run)",
              "-: not measured"):
        assert w in " ".join(out["email"].split()), out["email"]
    assert "(. not measured, = no significant change, + better, - worse, " \
        "~ changed)" in out["bisect"], out["bisect"]


def test_one_run(sw, demo_run, tmp_path):
    out = outputs(sw, demo_run, tmp_path)
    check(out)
    assert "not judged (one run)" in out["text"]
    assert "not judged (one run)" in out["bisect"]
    assert re.search(r"(?m) 1 run$", out["email"]), out["email"]


def test_repeats(sw, demo_run, tmp_path):
    out = outputs(sw, two_repeats(demo_run, tmp_path), tmp_path)
    check(out)
    assert "no significant change" in out["text"]
    assert re.search(r"(?m) n\.s\.$", out["email"]), out["email"]


def test_words_are_defined_once():
    # the verdicts' words are literals in verdict.c only
    src = harness.REPO / "src"
    for f in src.rglob("*.c"):
        if f.name == "verdict.c":
            continue
        text = f.read_text()
        for w in ("no significant change", "not judged (one run)",
                  "not measured", "1 run", "n.s."):
            assert '"%s"' % w not in text, (f, w)
