#!/usr/bin/env python3
"""gemmhost probe files as one markdown table: a row per device, kernel (and variant) and dtype,
a column per property of the arithmetic, each the measured verdict ("(!)" where it differs from
what the kernel declares), then every differing finding in words.

    tools/probe_md.py PROBE.json [PROBE.json ...] > docs/probe-results.md

The files come from `gemmhost probe --output PREFIX` (docs/probe.md); each row names its device,
so files from several machines can share a table."""
import json
import sys

COLUMNS = (("accumulator", "sum"), ("acc_promotion", "promotion"), ("input_rounding", "inputs"),
           ("input_decoding", "8-bit inputs"), ("products", "products"), ("subnormal_inputs", "subnormal in"),
           ("subnormal_results", "subnormal out"), ("order", "order over K"), ("repeats", "repeats"),
           ("int_overflow", "i32 overflow"), ("layout", "layout"))


def verdict(f):
    v = f.get("verdict") or ""
    if f["property"] in ("accumulator", "input_rounding") and f.get("bits") is not None:
        v = f"{f['bits']} bits, {v}"
    if f["property"] == "acc_promotion" and f.get("every"):
        v = f"every {f['every']}"
    return v + (" (!)" if f.get("mismatch") else "")


def load(path):
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as e:
        sys.exit(f"{path}: {e}")
    if not isinstance(doc, dict) or "gemmhost_probe" not in doc or not isinstance(doc.get("subjects"), list):
        sys.exit(f"{path}: not a gemmhost probe file (no gemmhost_probe and subjects)")
    return doc


def main(paths):
    if not paths:
        sys.exit(__doc__.split("\n\n")[1])
    print("| device | kernel | dtype | " + " | ".join(name for _, name in COLUMNS) + " |")
    print("|" + "---|" * (3 + len(COLUMNS)))
    differing = []
    for path in paths:
        for s in load(path)["subjects"]:
            first = {}
            for f in s["findings"]:
                first.setdefault(f["property"], f)
            ran = [f for f in first.values() if f.get("outcome") in (None, "ran") and f["property"] != "layout"]
            if not ran:
                continue  # a dtype the kernel refused: the probe's own table says why
            kernel = f"{s['kernel']} {s['params']}".strip()
            device = s["device"].split(":", 1)[-1]
            cells = [verdict(first[p]) if p in first else "" for p, _ in COLUMNS]
            print(f"| {device} | {kernel} | {s['dtype']} | " + " | ".join(c.replace("|", "/") for c in cells) + " |")
            differing += [f"- {device}, {kernel}, {s['dtype']}: {f['property']}: {f['text']} (declared: "
                          f"{f.get('declared') or 'nothing'})" for f in s["findings"] if f.get("mismatch")]
    if differing:
        print("\nFindings that differ from the kernels' declarations:\n")
        print("\n".join(differing))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
