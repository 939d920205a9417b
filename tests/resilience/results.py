#!/usr/bin/env python3
"""Reads gemmhost's result files for the resilience tests.

  results.py check PREFIX         the CSV and JSON are complete documents that agree
                                  (one CSV row per JSON result, same keys) and no kernel
                                  time is 0, negative or NaN; prints what it found
  results.py rows PREFIX          one line per result: backend status detail
  results.py same PREFIX_A PREFIX_B
                                  the results, agreement, split entries and notes of two
                                  runs are equal once timings are left out (the CSV too)
  results.py kept PREFIX_A PREFIX_B
                                  every result of A with a final status is in B as it was,
                                  timings included: --resume reported it again, did not rerun it
  results.py second-signal GEMMHOST CONFIG PREFIX
                                  runs CONFIG (a plugin that hangs in its third gemm),
                                  sends SIGINT once the hang has begun, then SIGINT again:
                                  prints how gemmhost ended
Exit status 0 when the check holds; 1 with the reasons printed.
"""
import csv
import json
import math
import os
import signal
import subprocess
import sys
import time

# Measured, so different in every run; a split's chunks go to whichever member is free.
TIMING = {"kernel_ms_median", "kernel_ms_min", "kernel_ms_max", "upload_ms", "download_ms", "gflops",
          "wall_ms", "compute_ms", "wait_ms", "chunks", "gemms", "bytes_up", "bytes_down"}
TIME_KEYS = ("kernel_ms_median", "kernel_ms_min", "kernel_ms_max")
# Members the JSON holds and the CSV does not (arrays: the output fingerprint).
JSON_ONLY = {"fingerprint"}


def load(prefix):
    with open(prefix + ".json") as f:
        doc = json.load(f)
    with open(prefix + ".csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return doc, rows


def check(prefix):
    problems = []
    doc, rows = load(prefix)
    results = doc["results"]
    if len(rows) != len(results):
        problems.append(f"{len(rows)} CSV rows but {len(results)} JSON results")
    for i, (row, res) in enumerate(zip(rows, results)):
        if list(row.keys()) != [k for k in res.keys() if k not in JSON_ONLY]:
            problems.append(f"result {i + 1}: CSV columns and JSON keys differ")
        if row["status"] != res["status"] or row["backend"] != res["backend"]:
            problems.append(f"result {i + 1}: CSV and JSON disagree")
        for key in TIME_KEYS:
            v = res[key]
            if v is not None and not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                problems.append(f"result {i + 1}: JSON {key} = {v}")
            text = row[key]
            if text and not (math.isfinite(float(text)) and float(text) > 0):
                problems.append(f"result {i + 1}: CSV {key} = {text}")
    print(f"{prefix}: {len(results)} results, complete {json.dumps(doc['complete'])}, "
          f"cancelled {json.dumps(doc.get('cancelled'))}")
    for p in problems:
        print("  " + p)
    return not problems


def rows(prefix):
    doc, _ = load(prefix)
    for r in doc["results"]:
        print(f"{r['backend']} {r['status']} {r['detail']}")
    for n in doc["notes"]:
        print(f"note {n}")
    return True


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def same(a, b):
    (da, ra), (db, rb) = load(a), load(b)
    ok = True
    for key in ("results", "agreement", "splits", "notes", "settings"):
        if strip(da[key]) != strip(db[key]):
            ok = False
            print(f"{key} differ:")
            for i, (x, y) in enumerate(zip(strip(da[key]), strip(db[key]))):
                if x != y:
                    print(f"  first at {i}:\n    {x}\n    {y}")
                    break
            print(f"  ({len(da[key])} and {len(db[key])} entries)")
    if strip(ra) != strip(rb):
        ok = False
        print(f"CSV rows differ ({len(ra)} and {len(rb)} rows)")
    if ok:
        print(f"{a} and {b}: the same {len(da['results'])} results, {len(da['agreement'])} agreement entries")
    return ok


def kept(a, b):
    key = lambda r: (r["case_index"], r["backend"], r["device_index"], r["kernel"], r["params"])
    in_b = {key(r): r for r in load(b)[0]["results"]}
    final = [r for r in load(a)[0]["results"] if r["status"] != "cancelled"]
    changed = [r for r in final if in_b.get(key(r)) != r]
    for r in changed[:3]:
        print(f"  not kept as it was: {key(r)}")
    print(f"{len(final) - len(changed)} of the {len(final)} final results of {a} are in {b} as they were")
    return bool(final) and not changed


def wait_for(what, cond, proc):
    """Waits on an event of the process, not a time: fails only if it exits first."""
    while not cond():
        if proc.poll() is not None:
            print(f"gemmhost ended (status {proc.returncode}) before {what}")
            return False
        time.sleep(0.01)
    return True


def state(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def second_signal(gemmhost, config, prefix):
    log = prefix + ".log"
    env = dict(os.environ, GEMMHOST_PROGRESS_INTERVAL="0")
    with open(log, "w") as err:
        proc = subprocess.Popen([gemmhost, "--config", config, "--output", prefix], stdout=subprocess.DEVNULL,
                                stderr=err, env=env)
    text = lambda: open(log).read()
    # The third call starts after this line, and then the process sleeps in the plugin for good.
    if not wait_for("its third gemm call", lambda: "(repetition 3 of" in text() and state(proc.pid) == "S", proc):
        return False
    proc.send_signal(signal.SIGINT)
    if not wait_for("it said it would stop", lambda: "stopping after the call in progress" in text(), proc):
        return False
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)  # "at once"; a run that ignores it would otherwise hang the test
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        print("still running 60 s after the second SIGINT")
        return False
    print(f"returncode {proc.returncode}")
    return True


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "check" and len(argv) == 3:
        return check(argv[2])
    if cmd == "rows" and len(argv) == 3:
        return rows(argv[2])
    if cmd == "same" and len(argv) == 4:
        return same(argv[2], argv[3])
    if cmd == "kept" and len(argv) == 4:
        return kept(argv[2], argv[3])
    if cmd == "second-signal" and len(argv) == 5:
        return second_signal(argv[2], argv[3], argv[4])
    print(__doc__)
    return False


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv) else 1)
