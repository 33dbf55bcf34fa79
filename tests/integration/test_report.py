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


def repeats(demo_run, tmp_path, n):
    """A recording of @n repetitions of both kernels (copies of the demo)."""
    import shutil
    run = tmp_path / ("rep%d" % n)
    run.mkdir()
    for f in ("scenario.json", "state"):
        shutil.copy(demo_run / f, run / f)
    for i in range(1, n + 1):
        for k in ("baseline", "patched"):
            shutil.copytree(demo_run / ("%s-1" % k), run / ("%s-%d" % (k, i)))
    return run


def widest(text):
    return max(len(line) for line in text.splitlines())


def test_report_fits_columns(sw, demo_run, tmp_path):
    run = repeats(demo_run, tmp_path, 5)
    for cols in (60, 80, 100):
        r = sw.expect(EXIT_OK, "report", run, env={"COLUMNS": str(cols)})
        assert widest(r.out) <= cols, "COLUMNS=%d:\n%s" % (cols, r.out)
        assert "patched/baseline" in r.out      # the ratios stay
        assert "15.59x" in r.out
    # into a pipe without COLUMNS: no limit, one table side by side
    r = sw.expect(EXIT_OK, "report", run)
    assert any("15.59 ±0.00" in line and "15.59x" in line
               for line in r.out.splitlines())


def test_report_per_guest_columns_only_when_they_fit(sw, demo_run):
    wide = sw.expect(EXIT_OK, "report", demo_run, env={"COLUMNS": "120"})
    assert "baseline-1" in wide.out
    narrow = sw.expect(EXIT_OK, "report", demo_run, env={"COLUMNS": "56"})
    assert widest(narrow.out) <= 56, narrow.out
    assert "(2 guests: per guest values with --csv or --json)" in narrow.out
