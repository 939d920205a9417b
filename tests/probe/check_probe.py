"""Checks a `gemmhost probe` JSON file against expectations.

usage: check_probe.py FILE [--mismatches PROP,PROP|none] EXPECTATION...

EXPECTATION is [KERNEL/]DTYPE:PROPERTY:KEY=VALUE[,KEY=VALUE...]: every
subject of that dtype (and kernel) must have a finding for PROPERTY whose
KEY (verdict, bits, every, mismatch, outcome) is VALUE, or one of the
VALUEs separated by |. --mismatches: the properties that may be (and, each,
must be somewhere) flagged as differing from the declaration; none: nothing.
"""
import json
import sys


def fail(msg):
    print("check_probe: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    with open(path) as f:
        doc = json.load(f)
    subjects = doc["subjects"]
    if not subjects:
        fail(f"{path}: no subjects")
    mismatches = None
    if args and args[0] == "--mismatches":
        args.pop(0)
        spec = args.pop(0)
        mismatches = set() if spec == "none" else set(spec.split(","))
    for exp in args:
        where, prop, wants = exp.split(":", 2)
        kernel, dtype = where.split("/") if "/" in where else (None, where)
        chosen = [s for s in subjects if s["dtype"] == dtype and (kernel is None or s["kernel"] == kernel)]
        if not chosen:
            fail(f"{exp}: no subject of {where}")
        for s in chosen:
            name = f'{s["backend"]} {s["device"]} {s["kernel"]} {s["dtype"]}'
            found = [f for f in s["findings"] if f["property"] == prop]
            if not found:
                fail(f"{exp}: {name} has no {prop} finding (note: {s['note']!r}; has "
                     f"{[f['property'] for f in s['findings']]})")
            for want in wants.split(","):
                key, value = want.split("=", 1)
                got = found[0][key]
                got = {True: "1", False: "0", None: "null"}.get(got, str(got))
                if got not in value.split("|"):
                    fail(f"{exp}: {name}: {prop} {key} is {got}, not {value}: {found[0]['text']}")
    if mismatches is not None:
        flagged = {f["property"] for s in subjects for f in s["findings"] if f["mismatch"]}
        if flagged != mismatches:
            detail = [f'{s["kernel"]} {s["dtype"]} {f["property"]}: {f["text"]}' for s in subjects
                      for f in s["findings"] if f["mismatch"]]
            fail(f"flagged {sorted(flagged)}, expected {sorted(mismatches)}:\n  " + "\n  ".join(detail))
    total = sum(1 for s in subjects for f in s["findings"] if f["mismatch"])
    if doc["mismatches"] != total:
        fail(f"the document's mismatches {doc['mismatches']} is not the findings' {total}")


main()
