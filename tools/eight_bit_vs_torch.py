#!/usr/bin/env python3
"""gemmhost's 8-bit rows (config/bench-8bit.ini's results) against PyTorch's FP8 and int8 GEMMs
on the same GPU, in the same call.

    python3 tools/eight_bit_vs_torch.py RESULTS.json [--warmup 2] [--repeat 10] [--peak 1979]

For every square size of the results file it times torch._scaled_mm (e4m3 x e4m3, scales 1,
out_dtype float32: gemmhost's e4m3 -> f32 with `trans = nt`, which is PyTorch's row-major A
times a column-major B) and torch._int_mm (i8 x i8 -> i32), both through cuBLASLt, by CUDA
events one call at a time (the median) and from a CUDA graph of 20 calls, and divides each of
gemmhost's rows by the faster PyTorch path. So cuBLASLt's row in gemmhost can be checked
against an independent caller of the same library before any kernel is said to beat it.
Also prints each row's share of the dense tensor peak (--peak, TFLOP/s; 1979 is the H100/H200
SXM FP8 and INT8 figure at 1830 MHz). Without PyTorch it says so and prints gemmhost's rows."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemmhost_json  # noqa: E402
from baseline_vs_torch import time_calls, torch_or_why  # noqa: E402

VENDOR = {"e4m3": "cublaslt-fp8", "i8": "cublaslt-i8"}


def torch_rows(torch, sizes, warmup, repeat):
    """{(dtype, n): (events TFLOP/s, graph TFLOP/s, what ran)}; a path PyTorch refuses is left out, said why."""
    out = {}
    g = torch.Generator(device="cuda").manual_seed(1)
    for n in sizes:
        flop = 2.0 * n ** 3
        a = (torch.rand(n, n, device="cuda", generator=g) * 2 - 1)
        bt = (torch.rand(n, n, device="cuda", generator=g) * 2 - 1)
        try:
            a8, b8 = a.to(torch.float8_e4m3fn), bt.to(torch.float8_e4m3fn).t()  # B column-major: nt
            one = torch.ones((), device="cuda", dtype=torch.float32)
            t = time_calls(torch, lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one,
                                                           out_dtype=torch.float32), warmup, repeat)
            out[("e4m3", n)] = (flop / t[0] / 1e12, flop / t[1] / 1e12, "torch._scaled_mm e4m3 -> f32")
        except Exception as e:  # an older PyTorch, or a GPU without FP8
            print(f"PyTorch e4m3 at {n}: {type(e).__name__}: {e}", file=sys.stderr)
        try:
            ai = torch.randint(-8, 9, (n, n), device="cuda", dtype=torch.int8, generator=g)
            bi = torch.randint(-8, 9, (n, n), device="cuda", dtype=torch.int8, generator=g).t()
            t = time_calls(torch, lambda: torch._int_mm(ai, bi), warmup, repeat)
            out[("i8", n)] = (flop / t[0] / 1e12, flop / t[1] / 1e12, "torch._int_mm i8 -> i32")
        except Exception as e:
            print(f"PyTorch i8 at {n}: {type(e).__name__}: {e}", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="gemmhost's results JSON (or its PREFIX) from config/bench-8bit.ini")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--peak", type=float, default=1979.0, help="dense tensor peak in TFLOP/s (default 1979)")
    args = ap.parse_args()
    try:
        doc = gemmhost_json.load(args.results)
    except gemmhost_json.NotResults as e:
        print(e, file=sys.stderr)
        return 2
    rows, vendor = {}, {}
    for r in doc["results"]:
        if r["dtype"] in VENDOR and r["m"] == r["n"] == r["k"] and r["status"] == "pass" and r["gflops"]:
            key = (r["dtype"], f"{r['backend']} {r['kernel']} {r['params']}".strip())
            rows.setdefault(key, {})[r["m"]] = r["gflops"] / 1000.0
            if r["kernel"] == VENDOR[r["dtype"]]:
                vendor.setdefault(r["dtype"], {})[r["m"]] = r["gflops"] / 1000.0
    if not rows:
        print(f"{args.results}: no passing square e4m3 or i8 result", file=sys.stderr)
        return 1
    sizes = sorted({n for cells in rows.values() for n in cells})
    torch, why = torch_or_why()
    pt = {}
    if torch is None:
        print(f"PyTorch: {why}; gemmhost's rows alone below.")
    else:
        print(f"PyTorch {torch.__version__} (CUDA {torch.version.cuda}) on {torch.cuda.get_device_name(0)}")
        pt = torch_rows(torch, sizes, args.warmup, args.repeat)

    head = "| dtype | row | " + " | ".join(str(n) for n in sizes) + " |"
    sep = "|" + "---|" * (2 + len(sizes))
    print(f"\nTFLOP/s (TOP/s for i8), and % of the {args.peak:g} dense peak")
    print(head)
    print(sep)
    for (dtype, name), cells in sorted(rows.items()):
        print(f"| {dtype} | {name} | " + " | ".join(
            f"{cells[n]:.0f} ({100 * cells[n] / args.peak:.0f}%)" if n in cells else "-" for n in sizes) + " |")
    for dtype in VENDOR:
        if any((dtype, n) in pt for n in sizes):
            what = next(pt[(dtype, n)][2] for n in sizes if (dtype, n) in pt)
            for i, path in ((0, "events"), (1, "graph")):
                print(f"| {dtype} | {what} ({path}) | " + " | ".join(
                    f"{pt[(dtype, n)][i]:.0f} ({100 * pt[(dtype, n)][i] / args.peak:.0f}%)" if (dtype, n) in pt
                    else "-" for n in sizes) + " |")

    print("\nRatios: to gemmhost's cuBLASLt row of the dtype, and [to PyTorch's faster path]")
    print(head)
    print(sep)
    for (dtype, name), cells in sorted(rows.items()):
        base = vendor.get(dtype, {})
        out = []
        for n in sizes:
            if n not in cells:
                out.append("-")
                continue
            cell = f"{cells[n] / base[n]:.2f}" if n in base else "-"
            if (dtype, n) in pt:
                cell += f" [{cells[n] / max(pt[(dtype, n)][:2]):.2f}]"
            out.append(cell)
        print(f"| {dtype} | {name} | " + " | ".join(out) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
