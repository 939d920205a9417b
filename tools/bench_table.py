#!/usr/bin/env python3
"""Prints a benchmark table from a gemmhost CSV: one row per backend, kernel
and parameters, one column per size with GFLOP/s and the ratios to the
cuBLAS and the CLBlast results of the same size and dtype from the same run
(in FP8 and i8, cuBLAS is cuBLASLt's cublaslt-fp8 and cublaslt-i8 rows)."""
import csv, sys
from collections import OrderedDict


# The vendor rows each result is divided by: cuBLAS (through cuBLASLt; its FP8
# GEMM without fast accumulation and its int8 GEMM for 8-bit) and CLBlast.
VENDOR = ("cublas", "cublaslt-fp8", "cublaslt-i8", "clblast")


def shape(r):
    return f"{r['m']}x{r['n']}x{r['k']}" if not (r['m'] == r['n'] == r['k']) else r['m']


def column(r, with_trans):
    """A table column: dtype and size, and the transposes where a run has several."""
    return (r["dtype"], (r["trans"] + " " if with_trans else "") + shape(r))


def main(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    with_trans = len({r["trans"] for r in rows}) > 1
    sizes = list(OrderedDict.fromkeys(column(r, with_trans) for r in rows))
    baseline, clblast = {}, {}
    for r in rows:
        if r["kernel"] in VENDOR and r["status"] == "pass" and r["gflops"]:
            (clblast if r["kernel"] == "clblast" else baseline)[column(r, with_trans)] = float(r["gflops"])
    table = OrderedDict()
    for r in rows:
        key = (r["backend"], r["device_name"][:24], r["kernel"], r["params"])
        table.setdefault(key, {})[column(r, with_trans)] = r
    wb = max([len("backend")] + [len(k[0]) for k in table])
    wp = max([len("params")] + [len(k[3]) for k in table])
    wk = max([len("kernel")] + [len(k[2]) for k in table])
    head = f"{'backend':<{wb}} {'device':<24} {'kernel':<{wk}} {'params':<{wp}}"
    for dt, s in sizes:
        head += f" | {dt + ' ' + s:>26}"
    print(head)
    print("-" * len(head))
    for (backend, device, kernel, params), cells in table.items():
        line = f"{backend:<{wb}} {device:<24} {kernel:<{wk}} {params:<{wp}}"
        for size in sizes:
            r = cells.get(size)
            if r is None:
                cell = ""
            elif r["status"] != "pass":
                cell = r["status"]
            else:
                g = float(r["gflops"])
                base, cl = baseline.get(size), clblast.get(size)
                cell = (f"{g:9.0f}" if g >= 100 else f"{g:9.2f}") + (f" ({g / base:4.2f}x)" if base else "        ")
                cell += f" [{g / cl:4.2f}x]" if cl else "        "
            line += f" | {cell:>26}"
        print(line)
        # `auto` parameters: what each size ran with (from the tune cache, or the default).
        used = [f"{s[0]} {s[1]}: {cells[s]['params_used']}" for s in sizes
                if s in cells and cells[s].get("params_used") and cells[s]["params_used"] != params]
        if used:
            print(f"{'':<{wb}}   parameters used: " + "; ".join(used))
    print("\nGFLOP/s from the median device-timed kernel; (ratio) to cuBLAS and [ratio] to CLBlast at the same size")
    print("and dtype in this run (CLBlast timed over its whole call: every kernel it queued).")
    print("\nTransfers (host-timed, ms): upload of A, B and C / download of C")
    seen = set()
    for r in rows:
        key = (r["dtype"], shape(r), r["backend"])
        if key in seen or not r["upload_ms"]:
            continue
        seen.add(key)
        print(f"  {key[0]} {key[1]:>6}: {key[2]:<{wb}} {float(r['upload_ms']):9.2f} / {float(r['download_ms']):8.2f}")
    fails = [r for r in rows if r["status"] != "pass"]
    if fails:
        print(f"\n{len(fails)} results did not pass:")
        for r in fails:
            print(f"  {r['backend']} {r['kernel']} {r['params']} {shape(r)}: {r['status']}: {r['detail']}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench-gpu.csv")
