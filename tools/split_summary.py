#!/usr/bin/env python3
"""The split results of a gemmhost run, per case: wall time, GFLOP/s, the
speed-up over one GPU (a one-member split of the same case, else the split
with the fewest members), verification, and each member's share, NUMA node,
upload and download bandwidth, how it reached host memory (pinned, imported,
pageable) and how its B arrived. Also how the three matrices compare
with a member's memory limit (for an out-of-core check).

usage: split_summary.py PREFIX     (reads PREFIX.json)
"""
import json
import sys


def gib(n):
    return n / 2**30


def member_line(m):
    return (f"    {m['backend']}/{m['device_index']} ({m['device_name']}): {m['chunks']} chunks, "
            f"{m['gemms']} GEMMs, compute {m['compute_ms']:.1f} ms, upload {m['upload_ms']:.1f} ms, "
            f"download {m['download_ms']:.1f} ms, wait {m['wait_ms']:.1f} ms, "
            f"{gib(m['bytes_up']):.2f} GiB up, {gib(m['bytes_down']):.2f} GiB down; "
            f"{'streams' if m['streams'] else 'blocking calls'}; {m['layout']}"
            + f"\n      upload {m.get('upload_gbps', 0):.2f} GB/s, download {m.get('download_gbps', 0):.2f} GB/s; "
            + f"host memory: {m.get('host_memory') or '-'}; node {node_text(m)}; B: {m.get('b_path') or '-'}"
            + (f"\n      failed: {m['error']}" if m['error'] else ""))


def node_text(m):
    """The member's NUMA node, or why it has none (runs before numa support: '-')."""
    if m.get("numa_node") is not None:
        return f"{m['numa_node']} ({m.get('numa', '')})"
    return f"none ({m['numa']})" if m.get("numa") else "-"


def main(prefix):
    doc = json.load(open(prefix + ".json"))
    results = {(r["case_index"], r["backend"]): r for r in doc["results"]}
    cases = {}
    for s in doc["splits"]:
        cases.setdefault(s["case_index"], []).append(s)
    for case, splits in sorted(cases.items()):
        r0 = results[(case, splits[0]["backend"])]
        m, n, k = r0["m"], r0["n"], r0["k"]
        print(f"case {case}: {r0['dtype']} {r0['trans']} {m}x{n}x{k}")
        # The baseline: one GPU, i.e. a passing one-member split of the case
        # (transfers included, as the others), else the split with the fewest members.
        ok = [s for s in splits if results[(case, s["backend"])]["status"] == "pass"]
        base = min(ok, key=lambda s: len(s["members"])) if ok else None
        base_what = "one GPU" if base and len(base["members"]) == 1 else (base["backend"] if base else "")
        base_ms = results[(case, base["backend"])]["kernel_ms_median"] if base else None
        for s in splits:
            r = results[(case, s["backend"])]
            ms = r["kernel_ms_median"]
            line = f"  {s['backend']}: {r['status']}, {len(s['members'])} member(s)"
            if ms:
                line += (f", median {ms:.1f} ms (min {r['kernel_ms_min']:.1f}, max {r['kernel_ms_max']:.1f}) "
                         f"over {r['repeats']} runs, {r['gflops']:.0f} GFLOP/s")
                if base_ms and s is not base:
                    line += f", speed-up {base_ms / ms:.3f}x over {base_what} ({base['backend']})"
            line += (f"; verify {r['verify_method']}: err/bound {r['max_err_over_bound']}"
                     if r["verify_checked"] else "; not verified")
            print(line)
            if r["detail"]:
                print("    detail:", r["detail"])
            for mb in s["members"]:
                print(member_line(mb))
            used = max((mb["device_bytes"] for mb in s["members"]), default=0)
            esize = 8 if r["dtype"] == "f64" else 4
            three = (m * k + k * n + m * n) * esize
            if used:
                print(f"    A, B and C together: {gib(three):.2f} GiB = {three / used:.2f}x the most any member "
                      f"allocated ({gib(used):.2f} GiB)")
    standalone = [r for r in doc["results"] if r["plugin"] != "split"]
    for r in standalone:
        print(f"  on its own: {r['backend']}/{r['device_index']} {r['kernel']}: {r['status']}, "
              f"kernel median {r['kernel_ms_median']} ms, {r['gflops']} GFLOP/s (operands already on the device)")
    for a in doc["agreement"]:
        groups = "; ".join(", ".join(g["members"]) for g in a["groups"])
        print(f"  agreement case {a['case_index']}: {len(a['groups'])} group(s), max diff "
              f"{a['max_diff_in_bounds']} of the bound: {groups}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
