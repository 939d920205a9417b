#!/usr/bin/env python3
"""Checks a gemmhost CSV (and its JSON twin): row counts, statuses, coverage.

usage: check_results.py PREFIX [--rows N] [--min-rows N] [--status S] [--or-unsupported] [--or-cancelled]
                        [--software-only] [--killed] [--require COLUMN=VALUE]... [--distinct COLUMN=N]...
Exits 1 with a line per problem; prints what it checked.
"""
import argparse, csv, json, sys

# Columns written alike to both files, compared row by row.
SAME_IN_BOTH = ["case_index", "backend", "kernel", "params", "dtype", "trans", "m", "n", "k", "status", "output_hash"]


def check_same(rows, results, source, problems):
    for i, (row, res) in enumerate(zip(rows, results)):
        differ = [k for k in SAME_IN_BOTH if row[k] != ("" if res[k] is None else str(res[k]))]
        if differ:
            problems.append(f"result {i}: CSV and {source} differ in {', '.join(differ)}")


def log_results(path):
    """The result records of a record log; a last line cut by the kill is left out."""
    out = []
    with open(path) as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines):
        if not line:
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines) - 1:
                break  # cut by the kill
            raise
        if rec.get("record") == "result":
            out.append(rec["value"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix")
    ap.add_argument("--rows", type=int, help="exact number of result rows")
    ap.add_argument("--min-rows", type=int, default=1)
    ap.add_argument("--status", help="every row must have this status")
    ap.add_argument("--or-unsupported", action="store_true",
                    help="with --status: a row may instead be unsupported, with its reason given")
    ap.add_argument("--or-cancelled", action="store_true",
                    help="with --status: the last row may instead be cancelled (a run stopped by a signal)")
    ap.add_argument("--software-only", action="store_true",
                    help="--rows applies only when every device of the run is a software device (the CI "
                         "machine's set); elsewhere, e.g. beside a GPU, it is a minimum")
    ap.add_argument("--killed", action="store_true",
                    help="the run was killed: the results are read from the record log PREFIX.jsonl, which may "
                         "hold one result more than the CSV (gemmhost writes a result to the log, then the CSV, "
                         "and the kill may fall between), never one less; the JSON is its last checkpoint, whose "
                         "results must be the first ones of the CSV; --min-rows applies to the CSV and the log")
    ap.add_argument("--require", action="append", default=[], help="some row has COLUMN=VALUE")
    ap.add_argument("--distinct", action="append", default=[], help="COLUMN has at least N distinct values")
    a = ap.parse_args()
    problems = []
    with open(a.prefix + ".csv", newline="") as f:
        rows = list(csv.DictReader(f))
    with open(a.prefix + ".json") as f:
        doc = json.load(f)
    results = doc["results"]
    if a.killed:
        # The JSON is a checkpoint: at most the CSV's rows, each matching its row.
        if len(results) > len(rows):
            problems.append(f"the JSON checkpoint has {len(results)} results, more than the CSV's {len(rows)}")
        check_same(rows, results, "JSON", problems)
        results = log_results(a.prefix + ".jsonl")
    lag = len(rows) - len(results)
    source = "the record log" if a.killed else "JSON"
    if lag != 0 and not (a.killed and lag == -1):
        problems.append(f"{source} has {len(results)} results, CSV {len(rows)}")
    check_same(rows, results, source, problems)
    if a.killed and len(results) < a.min_rows:
        problems.append(f"{source} has {len(results)} results, expected at least {a.min_rows}")
    exact = a.rows is not None and (not a.software_only or all(d["is_software"] for d in doc["devices"]))
    if exact and len(rows) != a.rows:
        problems.append(f"{len(rows)} rows, expected {a.rows}")
    elif a.rows is not None and len(rows) < a.rows:
        problems.append(f"{len(rows)} rows, expected at least {a.rows} (more devices than software ones)")
    if len(rows) < a.min_rows:
        problems.append(f"{len(rows)} rows, expected at least {a.min_rows}")
    if a.status:
        for i, r in enumerate(rows):
            declared = bool(a.or_unsupported and r["status"] == "unsupported" and r["detail"])
            declared |= a.or_cancelled and i == len(rows) - 1 and r["status"] == "cancelled"
            if r["status"] != a.status and not declared:
                problems.append(f"{r['backend']}/{r['kernel']} {r['params']} {r['dtype']} {r['trans']} "
                                f"{r['m']}x{r['n']}x{r['k']}: {r['status']}: {r['detail']}")
    for req in a.require:
        col, val = req.split("=", 1)
        if not any(r.get(col) == val for r in rows):
            problems.append(f"no row with {col}={val}")
    for d in a.distinct:
        col, n = d.split("=", 1)
        got = len({r.get(col) for r in rows})
        if got < int(n):
            problems.append(f"{col} has {got} distinct values, expected at least {n}")
    for p in problems:
        print("problem:", p)
    print(f"checked {len(rows)} rows of {a.prefix}.csv: {'ok' if not problems else 'FAILED'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
