# SPDX-License-Identifier: GPL-2.0
"""swapctl report on recorded runs (no guest): what the text says about
suspicious recordings, errors and exit codes."""
import json

from harness import EXIT_OK, EXIT_USAGE


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


# ---- --format=text-email and --kcidb ----

EMAIL_WIDTH = 78
# the columns of a text-email row (src/results/email.c): label, the
# reference's mean, the kernel's mean, ratio [95% CI], verdict
E_LABEL, E_MEAN, E_RATIO, E_MDE = 22, 9, 20, 5
EMAIL_VERDICTS = {"better": "better", "worse": "worse", "changed": "changed",
                  "n.s.": "no significant change",
                  "1 run": "no significant change",
                  "-": "not measured"}


def spread_repeats(demo_run, tmp_path, n, kernel="patched"):
    """@n repeats of both kernels, @kernel's repeat i with every phase
    1.1 + 0.02 (i - 1) times slower: times with an interval that is not
    a point, and significantly worse."""
    run = repeats(demo_run, tmp_path, n)
    for i in range(1, n + 1):
        path = run / ("%s-%d" % (kernel, i)) / "samples.jsonl"
        out = []
        for line in path.read_text().splitlines():
            d = json.loads(line)
            if d.get("type") == "phase" and d.get("state") == "end":
                d["ns"] = int(d["ns"] * (1.1 + 0.02 * (i - 1)))
                line = json.dumps(d, separators=(",", ":"))
            out.append(line)
        path.write_text("\n".join(out) + "\n")
    return run


def close_to(shown, value):
    """Whether the number @shown (as the table prints it) is @value
    rounded to the digits it shows."""
    x = float(shown)
    if "e" in shown or "E" in shown:
        return abs(x - value) <= 0.06 * abs(value)
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    if "." not in shown and len(shown.lstrip("-")) >= 3:
        # %.3g of a ratio >= 100 drops the decimals
        return abs(x - value) <= 0.005 * abs(value) + 0.5
    return abs(x - value) <= 0.5 * 10 ** -decimals + 1e-6 * abs(value)


def email_rows(text):
    """{label: (ref mean, mean, ratio, mde, verdict)} of each block's rows,
    per block heading."""
    blocks, cur = {}, None
    for line in text.splitlines():
        if line.startswith("metric "):
            cur = blocks.setdefault(len(blocks), {})
            continue
        if cur is None or not line.strip():
            cur = None if not line.strip() else cur
            continue
        label = line[:E_LABEL].rstrip()
        a = line[E_LABEL + 1:E_LABEL + 1 + E_MEAN].strip()
        b = line[E_LABEL + 2 + E_MEAN:E_LABEL + 2 + 2 * E_MEAN].strip()
        ratio = line[E_LABEL + 4 + 2 * E_MEAN:
                     E_LABEL + 4 + 2 * E_MEAN + E_RATIO].strip()
        at = E_LABEL + 5 + 2 * E_MEAN + E_RATIO
        mde = line[at:at + E_MDE].strip()
        verdict = line[at + E_MDE + 1:].strip()
        cur[label] = (a, b, ratio, mde, verdict)
    return blocks


def check_email_cmp(label, row, cmp):
    """A row's ratio, interval, mde and verdict against report --json's."""
    _, _, ratio, mde, verdict = row
    assert EMAIL_VERDICTS[verdict] == cmp["verdict"], (label, row, cmp)
    if cmp.get("mde") is None or cmp["verdict"] == "not measured":
        assert mde == "-", (label, row, cmp)
    elif mde != ">999%":
        assert mde.endswith("%"), (label, row)
        assert abs(float(mde[:-1]) / 100 - cmp["mde"]) <= \
            0.0005 + 0.005 * cmp["mde"], (label, row, cmp)
    if cmp["ratio"] is None:
        assert ratio in ("-", "ref mean 0", "both 0"), (label, row)
        return
    words = ratio.replace("[", " ").replace(",", " ").replace("]", " ")
    nums = words.split()
    assert close_to(nums[0], cmp["ratio"]), (label, row, cmp)
    if len(nums) == 3:
        assert cmp["ci95"] is not None, (label, row)
        assert close_to(nums[1], cmp["ci95"][0]), (label, row, cmp)
        assert close_to(nums[2], cmp["ci95"][1]), (label, row, cmp)


def test_text_email_fits_and_matches_json(sw, demo_run, tmp_path):
    run = spread_repeats(demo_run, tmp_path, 3)
    text = sw.expect(EXIT_OK, "report", "--format=text-email", run).out
    lines = text.splitlines()
    assert widest(text) <= EMAIL_WIDTH, text
    assert lines[0] == "swapctl: scenario demo-blk, run rep3"
    assert "repeats: 3 per kernel" in lines
    assert "guests: 6, all passed" in lines
    assert "patched vs baseline" in lines
    j = sw.expect(EXIT_OK, "report", "--json", run).json()
    labels = {m["label"]: m for m in
              sw.expect(EXIT_OK, "metrics", "--json").json()}
    cmps = {c["metric"]: c for c in j["comparisons"]
            if c["kernel"] == "patched"}
    rows = email_rows(text)[0]
    seen = 0
    for label, row in rows.items():
        if label.startswith("phase "):
            idx = int(label.split()[1])
            cmp = j["phases"][idx - 1]["comparisons"][0]
            means = j["phases"][idx - 1]["seconds"]
            assert label == "phase %d %s s" % (idx,
                                               j["phases"][idx - 1]["name"])
        else:
            m = labels[label]
            cmp = cmps[m["key"]]
            means = {k: j["kernels"][k][m["key"]] for k in j["kernels"]}
            seen += 1
        check_email_cmp(label, row, cmp)
        for shown, k in zip(row[:2], ("baseline", "patched")):
            mean = means[k] if isinstance(means[k], dict) else None
            if mean is None or mean["mean"] is None:
                assert shown in ("n/a", "missing"), (label, row, means)
            else:
                assert close_to(shown, mean["mean"]), (label, row, means)
    # every metric with a value somewhere has its row, the rest are named
    measured = {c["metric"] for c in j["comparisons"]
                if any(j["kernels"][k][c["metric"]]["mean"] is not None
                       for k in j["kernels"])}
    assert seen == len(measured), (sorted(measured), rows.keys())
    assert any(r[4] == "worse" for lbl, r in rows.items()
               if lbl.startswith("phase ")), rows  # the spread counts
    flat = " ".join(text.split())
    for key in set(cmps) - measured:
        assert key in flat.split("Not measured on any kernel:")[1], key


def test_text_email_long_kernel_name(sw, demo_run, tmp_path):
    """A 32-character kernel name: the columns become A and B, the name
    stays whole, every line fits."""
    import shutil
    long = "swap-ops-cfg-CONFIG_SWAP_n-debug"
    assert len(long) == 32
    shutil.move(demo_run / "patched-1", demo_run / ("%s-1" % long))
    (demo_run / "kernels").write_text("baseline\n%s\n" % long)
    text = sw.expect(EXIT_OK, "report", "--format=text-email",
                     demo_run).out
    assert widest(text) <= EMAIL_WIDTH, text
    assert "A: baseline (reference)\nB: %s\n" % long in text
    assert ("metric" + " " * 25 + "A         B  ratio [95% CI]") in text
    row = email_rows(text)[0]["write pages/I/O"]
    assert row[2] == "15.59" and row[4] == "better", row


def test_report_format_choices(sw, demo_run):
    same = sw.expect(EXIT_OK, "report", "--format=json", demo_run).out
    assert same == sw.expect(EXIT_OK, "report", "--json", demo_run).out
    assert sw.expect(EXIT_OK, "report", "--format=kcidb", demo_run).out == \
        sw.expect(EXIT_OK, "report", "--kcidb", demo_run).out
    sw.expect(EXIT_OK, "report", "--format=csv", "--csv", demo_run)
    for args, what in (
            (("--format=json", "--csv"),
             "'--format=json' and '--csv' exclude each other"),
            (("--kcidb", "--text"), "'--text' and '--kcidb' exclude"),
            (("--format=text-email", "--json"),
             "'--format=text-email' and '--json' exclude"),
            (("--format=json", "--format=kcidb"),
             "'kcidb' after 'json': give one format"),
            (("--format=xml",), "unknown format 'xml' (text, json, csv, "
             "text-email, kcidb)"),
            (("--format=kcidb", demo_run),
             "--format=kcidb: one run directory, not two"),
            (("--format=text-email", demo_run),
             "--format=text-email: one run directory, not two")):
        r = sw.expect(EXIT_USAGE, "report", *args, demo_run)
        assert r.out == ""
        assert len(r.err.splitlines()) == 1 and what in r.err, r.err


def test_kcidb_paths_are_metrics(sw, demo_run):
    k = sw.expect(EXIT_OK, "report", "--kcidb", demo_run).json()
    keys = [m["key"] for m in sw.expect(EXIT_OK, "metrics", "--json").json()]
    assert k["version"] == {"major": 5, "minor": 3}
    assert set(k) == {"version", "checkouts", "builds", "tests"}
    ids = {}
    for kind, required in (("checkouts", ("id", "origin")),
                           ("builds", ("id", "checkout_id", "origin")),
                           ("tests", ("id", "build_id", "origin"))):
        for o in k[kind]:
            for f in required:
                assert isinstance(o.get(f), str) and o[f], (kind, f, o)
            assert o["origin"] == "swapctl"
            assert o["id"].startswith("swapctl:run-demo:"), o["id"]
        ids[kind] = [o["id"] for o in k[kind]]
        assert len(set(ids[kind])) == len(ids[kind]), kind
    assert ids["checkouts"] == ["swapctl:run-demo:baseline",
                                "swapctl:run-demo:patched"]
    for b in k["builds"]:
        assert b["checkout_id"] in ids["checkouts"]
        assert b["architecture"] == "x86_64" and b["config_name"]
    paths = set()
    for t in k["tests"]:
        assert t["build_id"] in ids["builds"]
        prefix, scenario, key = t["path"].split(".")
        assert (prefix, scenario) == ("swapctl", "demo-blk"), t["path"]
        assert key in keys, t["path"]
        assert t["status"] in ("PASS", "FAIL", "ERROR", "SKIP"), t
        if "number" in t:
            assert set(t["number"]) <= {"value", "unit"}
            assert isinstance(t["number"]["value"], (int, float))
        else:
            assert t["status"] != "PASS", t
        paths.add((t["misc"]["kernel"], key))
    # one test per guest and metric
    assert len(k["tests"]) == 2 * len(keys)
    assert paths == {(g, m) for g in ("baseline", "patched") for m in keys}
    # the values are the guests' own, as report --json has them
    j = sw.expect(EXIT_OK, "report", "--json", demo_run).json()
    g = {x["kernel"]: x["metrics"] for x in j["guests"]}
    for t in k["tests"]:
        v = g[t["misc"]["kernel"]][t["path"].split(".")[2]]
        if v is None:
            assert t["status"] == "SKIP" and "number" not in t, t
        else:
            assert abs(t["number"]["value"] - v) <= 1e-5 * abs(v), (t, v)
    # the patched kernel's better swap write I/Os pass, with the verdict
    t = [t for t in k["tests"] if t["id"] ==
         "swapctl:run-demo:patched-1:write_pages_per_io"][0]
    assert t["status"] == "PASS" and t["misc"]["verdict"] == "better"
    assert abs(t["misc"]["ratio"] - 15.59) < 0.01


def test_kcidb_run_facts_and_failures(sw, demo_run):
    """summary.json's variants reach the checkouts and builds; a corrupt
    guest fails its tests; a '.' in the scenario name becomes '_'."""
    (demo_run / "summary.json").write_text(json.dumps({
        "kernel_images": [
            {"name": "baseline", "variant": "baseline", "bzImage": True},
            {"name": "patched", "variant": "swap-ops", "bzImage": True}],
        "accel": "tcg", "guest": {"memory_mb": 256, "cpus": 2},
        "debug": False}))
    sc = json.loads((demo_run / "scenario.json").read_text())
    sc["name"] = "demo.blk"
    (demo_run / "scenario.json").write_text(json.dumps(sc))
    path = demo_run / "patched-1" / "samples.jsonl"
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        d = json.loads(line)
        if d.get("type") == "result":
            d["status"], d["pages_corrupt"] = "corrupt", 3
            lines[i] = json.dumps(d, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    k = sw.expect(EXIT_OK, "report", "--kcidb", demo_run).json()
    co = {c["id"]: c for c in k["checkouts"]}
    assert co["swapctl:run-demo:patched"]["misc"]["variant"] == "swap-ops"
    assert co["swapctl:run-demo:patched"]["valid"] is True
    assert all(b["status"] == "PASS" for b in k["builds"])
    t = {x["id"]: x for x in k["tests"]}
    assert t["swapctl:run-demo:patched-1:pswpout"]["path"] == \
        "swapctl.demo_blk.pswpout"
    assert t["swapctl:run-demo:patched-1:pswpout"]["status"] == "FAIL"
    assert t["swapctl:run-demo:baseline-1:pswpout"]["status"] == "PASS"
    env = t["swapctl:run-demo:baseline-1:pswpout"]["environment"]
    assert env["misc"] == {"accel": "tcg", "memory_mb": 256, "cpus": 2}
