#!/usr/bin/env python3
"""Reads what test_report left on disk with Python's own JSON and CSV readers:
strict JSON (no NaN/Infinity), RFC 4180 CSV, and the same fields in both."""
import csv
import glob
import json
import os
import sys

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
    for i, path in enumerate(snapshots, 1):
        doc = load_json(path)
        check(len(doc["results"]) == i, "%s holds %d results" % (path, i))

    doc = load_json(os.path.join(out_dir, "basic.json"))
    check(set(doc) == {"gemmhost", "config", "plugins", "devices", "results", "agreement", "splits", "notes"},
          "top-level keys: %s" % sorted(doc))
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
    check(len(killed["results"]) == 3 and killed["notes"] == ["about to die"], "killed run's JSON")
    check(len(load_csv(os.path.join(out_dir, "killed.csv"))) == 4, "killed run's CSV")


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except (OSError, ValueError, KeyError, IndexError) as e:
        failures.append(repr(e))
        print("FAILED:", repr(e), file=sys.stderr)
    print("%d passed, %d failed" % (passes, len(failures)))
    sys.exit(1 if failures else 0)
