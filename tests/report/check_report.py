#!/usr/bin/env python3
"""Reads what test_report left on disk with Python's own JSON, CSV and XML
readers: strict JSON (no NaN/Infinity), RFC 4180 CSV, the same fields in
both, the run's metadata, and the JUnit XML's counts and reasons."""
import csv
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

failures = []
passes = 0


def check(cond, what):
    global passes
    if cond:
        passes += 1
    else:
        failures.append(what)
        print("FAILED:", what, file=sys.stderr)


def reject_constant(name):
    raise ValueError("non-standard JSON constant " + name)


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=reject_constant)


def load_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f, strict=True))


def main(out_dir):
    snapshots = sorted(glob.glob(os.path.join(out_dir, "snapshot_*.json")))
    check(len(snapshots) == 3, "three snapshots, found %d" % len(snapshots))
    for i, path in enumerate(snapshots, 1):  # the JSON of a running run: a checkpoint, whole, at most i results
        doc = load_json(path)
        check(len(doc["results"]) <= i, "%s holds %d results" % (path, len(doc["results"])))

    doc = load_json(os.path.join(out_dir, "basic.json"))
    check(set(doc) == {"complete", "cancelled", "gemmhost", "host", "command_line", "time", "config", "plugins",
                       "devices", "results", "agreement", "splits", "notes"},
          "top-level keys: %s" % sorted(doc))
    check(doc["complete"] is True, "a closed run is complete")
    check(doc["command_line"] == ["gemmhost", "--config", "my run.ini", "--junit", 'r"esults.xml'],
          "command line as a list: %s" % doc["command_line"])
    iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
    check(all(iso.match(doc["time"][k] or "") for k in ("start", "end", "updated")), "ISO 8601 UTC times: %s" % doc["time"])
    check(doc["time"]["start"] <= doc["time"]["end"], "start before end")
    check(isinstance(doc["host"], str) and doc["host"], "host name")
    g = doc["gemmhost"]
    check(g["version"] and g["build_type"] and re.match(r"^([0-9a-f]{7,40}(-dirty)?|unknown)$", g["git_commit"]),
          "version, commit and build type: %s" % g)
    check(doc["plugins"][0]["version"] == "0.1", "plugin versions kept")
    check(doc["config"].startswith("[run]\nsizes = 64\t") and "caf\u00e9" in doc["config"]
          and "\ufffd" in doc["config"], "config text round-trips")
    check(doc["plugins"][1]["loaded"] is False and "ABI" in doc["plugins"][1]["error"], "failed plugin kept")
    check(len(doc["devices"]) == 2, "devices stored once per backend/device")
    results = doc["results"]
    check(len(results) == 3, "three results")
    fail = results[1]
    check(fail["detail"] == 'bad value, got "x"\nat (1, 2)', "detail round-trips")
    check(fail["max_err_over_bound"] is None and fail["max_abs_err"] is None and fail["gflops"] is None,
          "non-finite numbers are null")
    check(fail["fail_expected"] == 0.125 and fail["fail_i"] == 1, "failing element")
    check(results[0]["output_hash"] == "00ab00cd00ef0012", "hash as hex")
    check(results[2]["kernel_ms_median"] is None and results[2]["device_vendor"] is None,
          "unsupported: no timing, no device")
    agreement = doc["agreement"][0]
    check([g["members"] for g in agreement["groups"]] == [["cpu/0/naive"], ["cpu/0/tiled[tile=16]"]],
          "agreement groups")
    check(doc["notes"] == ['backend cuda: no device (driver "missing")'], "notes")

    rows = load_csv(os.path.join(out_dir, "basic.csv"))
    check(len(rows) == 4, "basic.csv: header + 3 records, got %d" % len(rows))
    check(rows[0] == list(results[0].keys()), "CSV columns are the JSON result keys, in order")
    check(rows[2][rows[0].index("detail")] == fail["detail"], "CSV detail round-trips")
    check(all(len(r) == len(rows[0]) for r in rows), "every CSV record has every column")

    killed = load_json(os.path.join(out_dir, "killed.json"))
    check(len(killed["results"]) <= 3, "killed run's JSON: a checkpoint")
    check(killed["complete"] is False and killed["time"]["end"] is None, "a killed run is incomplete, without an end")
    with open(os.path.join(out_dir, "killed.jsonl"), encoding="utf-8") as f:
        records = [json.loads(line, parse_constant=reject_constant) for line in f]
    check(records[0]["record"] == "head" and records[0]["value"]["command_line"][0] == "gemmhost", "the log's head")
    check([r["record"] for r in records].count("result") == 3, "killed run's log has its 3 results")
    check([r["value"] for r in records if r["record"] == "note"] == ["about to die"], "killed run's log has its note")
    check(records[-1]["record"] != "end", "killed run's log has no end")

    check_junit(os.path.join(out_dir, "basic.xml"), tests=3, failures=1, errors=0, skipped=1, complete="true")
    root = ET.parse(os.path.join(out_dir, "killed.xml")).getroot()  # a checkpoint: whole, incomplete
    suite = root.find("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    check(props.get("complete") == "false" and int(suite.get("tests")) == len(suite.findall("testcase")) <= 3,
          "killed run's JUnit is whole and incomplete")


def check_junit(path, complete, **counts):
    root = ET.parse(path).getroot()
    suite = root.find("testsuite")
    for element in (root, suite):
        got = {k: int(element.get(k)) for k in counts}
        check(got == counts, "%s <%s> counts %s, want %s" % (path, element.tag, got, counts))
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    check(props.get("complete") == complete, "%s complete=%s" % (path, props.get("complete")))
    cases = suite.findall("testcase")
    check(len(cases) == counts["tests"], "%s: %d testcases" % (path, len(cases)))
    fail = [c for c in cases if c.find("failure") is not None]
    if fail:
        f = fail[0]
        check(f.get("classname") == "cpu.naive on 0:Intel Core i7-8700 Very Long Name CPU"
              and f.get("name") == "f32 nt 100x75x50", "failure's testcase: %s %s" % (f.get("classname"), f.get("name")))
        check(f.find("failure").get("message") == 'bad value, got "x"'
              and f.find("failure").text == 'bad value, got "x"\nat (1, 2)', "failure's message and whole reason")
        check(abs(float(f.get("time")) - 0.00025) < 1e-9, "time: the median kernel seconds")
    skipped = [c for c in cases if c.find("skipped") is not None]
    if skipped:
        check(skipped[0].find("skipped").get("message") == "f64 needs cl_khr_fp64"
              and skipped[0].get("classname") == "gpus.tiled on split(gpu0,gpu1)", "unsupported is skipped, with why")
    passed = [c for c in cases if len(c) == 0]
    if passed:
        check(passed[0].get("classname") == "cpu.tiled[tile=16] on 0:Intel Core i7-8700 Very Long Name CPU",
              "classname backend.kernel[params] on device: %s" % passed[0].get("classname"))
    return suite
    check(len(load_csv(os.path.join(out_dir, "killed.csv"))) == 4, "killed run's CSV")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except (OSError, ValueError, KeyError, IndexError, TypeError, ET.ParseError) as e:
        failures.append(repr(e))
        print("FAILED:", repr(e), file=sys.stderr)
    print("%d passed, %d failed" % (passes, len(failures)))
    sys.exit(1 if failures else 0)
