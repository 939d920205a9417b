#!/usr/bin/env python3
"""Prints a gemmhost run's agreement table compactly: one row per case, one
column per backend/device/kernel, a letter per group of bit-identical
outputs (A = the group the first column is in), and the largest difference
between groups in units of the error bound.  usage: agreement_table.py RESULTS.json"""
import json, sys
from collections import OrderedDict


def main(path):
    doc = json.load(open(path))
    columns = OrderedDict()
    for case in doc["agreement"]:
        for g in case["groups"]:
            for m in g["members"]:
                columns.setdefault(m, None)
    names = list(columns)
    print("columns:")
    for i, n in enumerate(names):
        print(f"  {i + 1:2}: {n}")
    header = f"{'case':<24} {'max diff/bound':>14}  " + " ".join(f"{i + 1:>2}" for i in range(len(names)))
    print(header)
    for case in doc["agreement"]:
        where = {}
        for gi, g in enumerate(case["groups"]):
            for m in g["members"]:
                where[m] = gi
        order = {}  # letters in order of first appearance across columns
        cells = []
        for n in names:
            if n not in where:
                cells.append(" .")
                continue
            letter = order.setdefault(where[n], chr(ord("A") + len(order)))
            cells.append(f" {letter}")
        label = f"{case['dtype']} {case['trans']} {case['m']}x{case['n']}x{case['k']}"
        diff = case["max_diff_in_bounds"]
        diff_text = f"{diff:.3g}" if isinstance(diff, (int, float)) else "n/a"  # null: not finite
        print(f"{label:<24} {diff_text:>14}  " + " ".join(cells))


if __name__ == "__main__":
    main(sys.argv[1])
