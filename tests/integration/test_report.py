# SPDX-License-Identifier: GPL-2.0
"""swapctl report on recorded runs (no guest): what the text says about
suspicious recordings, errors and exit codes."""
import json

from harness import EXIT_OK


def rewind_counter(rundir, guest="baseline-1", counter="pswpout"):
    """Make @counter go back to 0 in one sample in the middle of the
    recording, then climb again: a counter reset."""
    path = rundir / guest / "samples.jsonl"
    lines = path.read_text().splitlines()
    samples = [i for i, line in enumerate(lines)
               if json.loads(line).get("type") == "sample" and
               json.loads(line)["vmstat"].get(counter, 0) > 0]
    i = samples[len(samples) // 2]
    d = json.loads(lines[i])
    d["vmstat"][counter] = 0
    lines[i] = json.dumps(d, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")


def test_text_says_when_counters_went_backwards(sw, demo_run):
    clean = sw.expect(EXIT_OK, "report", demo_run)
    assert "backwards" not in clean.out
    rewind_counter(demo_run)
    r = sw.expect(EXIT_OK, "report", demo_run)
    warn = [line for line in r.out.splitlines()
            if line.startswith("warning: baseline-1: counters went "
                               "backwards")]
    assert warn, r.out
    assert "inflated" in warn[0]
    j = sw.expect(EXIT_OK, "report", "--json", demo_run).json()
    g = {x["kernel"]: x for x in j["guests"]}
    assert g["baseline"]["stream"]["resets"] >= 1
    assert g["patched"]["stream"]["resets"] == 0


def test_compare_says_when_counters_went_backwards(sw, demo_run,
                                                   tmp_path):
    import shutil
    b = tmp_path / "run-b"
    shutil.copytree(demo_run, b)
    rewind_counter(b, guest="patched-1")
    r = sw.expect(EXIT_OK, "report", demo_run, b)
    assert "warning: B patched-1: counters went backwards" in r.out, r.out
    assert "warning: A" not in r.out
