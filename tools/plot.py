#!/usr/bin/env python3
"""Draws a gemmhost run's results (PREFIX.json, or PREFIX) as pictures, PNG and SVG:

  PREFIX-gflops.png/.svg     GFLOP/s against problem size, one panel per dtype, one line per
                             backend, kernel and parameters (colour) and transpose (marker);
                             baseline kernels (cublas, clblast, --baseline NAME) dashed.
                             Only results that passed; the others are counted in a note.
  PREFIX-agreement.png/.svg  the agreement table: one row per case, one column per backend
                             variant, each cell the letter of its group of bit-identical outputs
                             (A = the group the first column is in), and per case the largest
                             difference between groups in units of the error bound.

Given the comparison that `gemmhost compare --json A.json B.json ... > CMP.json` prints, it draws
CMP-speed (per later file, kernel and case the time ratio against A with its spread) and
CMP-files (the agreement heatmap across files) instead; see plot_compare.py.

Written next to the JSON, or into --out DIR. Prints each file written.
Exit status: 0 at least one picture written (a picture that cannot be drawn, e.g. no passing
timed result, is said on stderr and skipped); 1 nothing to draw, or matplotlib missing;
2 bad arguments, or the file is missing, unreadable or not a gemmhost results JSON.
Needs matplotlib (Debian: python3-matplotlib); draws without a display (Agg).
"""
import argparse
import json
import math
import os
import sys
from collections import Counter, OrderedDict

import gemmhost_json
import plot_compare

BASELINE_KERNELS = ("cublas", "clblast")
TRANSPOSES = ("nn", "nt", "tn", "tt")
TRANS_MARKERS = {"nn": "o", "nt": "s", "tn": "^", "tt": "D"}
DTYPE_ORDER = ("f32", "f64", "i32")
# Group letters' colours (A, the first column's group, pale green, then clearly different hues)
# and MISSING_COLOUR for a column that did not run a case: one set for both agreement pictures.
GROUP_COLOURS, MISSING_COLOUR = plot_compare.GROUP_COLOURS, plot_compare.MISSING_COLOUR


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("json", help="gemmhost results: PREFIX.json (or PREFIX)")
    ap.add_argument("--out", metavar="DIR", help="folder for the pictures (default: the JSON's folder)")
    ap.add_argument("--baseline", metavar="NAME", action="append", default=[],
                    help="draw kernel NAME as a dashed reference line (repeatable; cublas and clblast always are)")
    ap.add_argument("--trans", metavar="T", action="append", default=[],
                    help="only transpose T, in both pictures (nn, nt, tn, tt; repeatable or comma-separated; "
                         "default: all)")
    a = ap.parse_args(argv)
    wanted = [t.strip() for spec in a.trans for t in spec.split(",") if t.strip()]
    for t in wanted:
        if t not in TRANSPOSES:
            ap.error(f"--trans {t}: not one of {', '.join(TRANSPOSES)}")
    a.trans = wanted
    return a


def dtype_key(d):
    return (DTYPE_ORDER.index(d), d) if d in DTYPE_ORDER else (len(DTYPE_ORDER), d)


def shape_label(m, n, k):
    return str(m) if m == n == k else f"{m}x{n}x{k}"


def size_of(m, n, k):
    """The x coordinate: the cube root of M*N*K (the edge of a cube with the same work)."""
    return (m * n * k) ** (1.0 / 3.0)


def device_names(doc):
    names = OrderedDict()
    for r in doc["results"]:
        names.setdefault((r["backend"], r["device_index"]), r.get("device_name", ""))
    return names


def variant_labels(doc):
    """A legend label per (backend, device, kernel, params): "cpu naive", "opencl tiled tile=16";
    the device index is added (opencl/1) only for a backend that ran on several devices."""
    devices = {}
    for r in doc["results"]:
        devices.setdefault(r["backend"], set()).add(r["device_index"])

    def label(r):
        who = r["backend"] + (f"/{r['device_index']}" if len(devices[r["backend"]]) > 1 else "")
        return " ".join(p for p in (who, r["kernel"], r["params"]) if p)
    return label


def timed(r):
    g = r["gflops"]
    return isinstance(g, (int, float)) and math.isfinite(g) and g > 0


def gflops_series(doc, trans_wanted, baselines):
    """{dtype: {(label, trans): [(x, gflops, shape)]}}, the baselines ({label: kernel}), the
    dtypes seen, and what was left out and why (Counter)."""
    label = variant_labels(doc)
    panels = {}
    base_labels = {}
    skipped = Counter()
    dtypes = set()
    for r in doc["results"]:
        if trans_wanted and r["trans"] not in trans_wanted:
            continue
        dtypes.add(r["dtype"])
        if r["status"] != "pass":
            skipped[r["status"]] += 1
            continue
        if not timed(r):
            skipped["pass without a time"] += 1
            continue
        name = label(r)
        if r["kernel"] in baselines:
            base_labels[name] = r["kernel"]
        points = panels.setdefault(r["dtype"], {}).setdefault((name, r["trans"]), [])
        points.append((size_of(r["m"], r["n"], r["k"]), r["gflops"], shape_label(r["m"], r["n"], r["k"])))
    return panels, base_labels, sorted(dtypes, key=dtype_key), skipped


def colours_for(labels, plt):
    cmap = plt.get_cmap("tab10" if len(labels) <= 10 else "tab20")
    return {name: cmap(i % cmap.N) for i, name in enumerate(labels)}


def size_ticks(ax, points, log):
    """A tick at each size run, labelled N for an N cube and MxNxK otherwise, when they are few
    enough to read. Sizes closer than 3.5% of the axis share the first one's tick label, one line each."""
    shapes = sorted({(x, s) for x, _, s in points})
    if len(shapes) > 12:
        return
    from matplotlib.ticker import NullFormatter, NullLocator
    at = (lambda x: math.log(x)) if log else (lambda x: x)
    gap = 0.035 * ((at(shapes[-1][0]) - at(shapes[0][0])) or 1)
    ticks, labels, lead = [], [], None
    for x, s in shapes:
        ticks.append(x)
        if lead is not None and at(x) - at(ticks[lead]) < gap:
            labels[lead] += "\n" + s  # rotated: side by side
            labels.append("")
        else:
            lead = len(labels)
            labels.append(s)
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(ticks)
    skewed = any("x" in s or "\n" in s for s in labels)
    ax.set_xticklabels(labels, rotation=90 if skewed else 0, fontsize=8 if skewed else 9)


def spans(values, factor):
    lo, hi = min(values), max(values)
    return lo > 0 and hi / lo >= factor


def draw_gflops(doc, name, args, plt):
    baselines = set(BASELINE_KERNELS) | set(args.baseline)
    panels, base_labels, dtypes, skipped = gflops_series(doc, args.trans, baselines)
    if skipped:
        why = ", ".join(f"{n} {s}" for s, n in sorted(skipped.items()))
        print(f"note: left out of the GFLOP/s plot: {sum(skipped.values())} results ({why}); only passing, "
              f"timed results are drawn")
    if not panels:
        return None, "no passing timed results" + (f" with trans {', '.join(args.trans)}" if args.trans else "")
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter, ScalarFormatter

    seen = list(OrderedDict.fromkeys(lab for dt in dtypes for lab, _ in panels.get(dt, {})))
    labels = [lab for lab in seen if lab not in base_labels] + [lab for lab in seen if lab in base_labels]
    colour = colours_for(labels, plt)
    trans_seen = sorted({t for dt in panels for _, t in panels[dt]}, key=TRANSPOSES.index)

    cols = min(3, len(dtypes))
    rows = math.ceil(len(dtypes) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.8 * rows), squeeze=False)
    for ax in axes.flat[len(dtypes):]:
        ax.set_visible(False)
    for ax, dt in zip(axes.flat, dtypes):
        series = panels.get(dt, {})
        title = dt + (f" (trans {', '.join(trans_seen)})" if len(trans_seen) == 1 else "")
        ax.set_title(title, fontsize=11, fontweight="bold")
        ax.grid(True, which="major", alpha=0.3)
        if not series:
            ax.text(0.5, 0.5, "no passing timed results", ha="center", va="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
            continue
        every = [p for pts in series.values() for p in pts]
        ends = {}
        for (lab, t), pts in sorted(series.items(), key=lambda kv: (labels.index(kv[0][0]), kv[0][1])):
            pts.sort()
            base = lab in base_labels
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=colour[lab],
                    linestyle="--" if base else "-", linewidth=2.0 if base else 1.4,
                    marker=TRANS_MARKERS.get(t, "o"), markersize=5, alpha=0.9)
            if base and (lab not in ends or pts[-1][1] > ends[lab][1]):
                ends[lab] = pts[-1]
        for lab, (x, g, _) in ends.items():  # each baseline named once, at its highest right end
            ax.annotate(base_labels[lab], (x, g), xytext=(4, 0), textcoords="offset points", fontsize=8,
                        color=colour[lab], va="center")
        log_x = spans([p[0] for p in every], 4)
        if log_x:
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(ScalarFormatter())
        if spans([p[1] for p in every], 10):
            ax.set_yscale("log")
            if not spans([p[1] for p in every], 1000):  # few decades: label 1, 2, 5 of each
                ax.yaxis.set_major_locator(LogLocator(subs=(1, 2, 5), numticks=30))
                ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
                ax.yaxis.set_minor_formatter(NullFormatter())
        size_ticks(ax, every, log_x)
        ax.set_xlabel("size: cube root of M*N*K (tick labels: N = NxNxN, else MxNxK)", fontsize=8)
        ax.set_ylabel("GFLOP/s (2MNK / median kernel time)", fontsize=8)
        ax.tick_params(labelsize=8)

    handles = [Line2D([], [], color=colour[lab], linestyle="--" if lab in base_labels else "-",
                      linewidth=2.0 if lab in base_labels else 1.4,
                      label=lab + (" (baseline)" if lab in base_labels else "")) for lab in labels]
    if len(trans_seen) > 1:
        handles.append(Line2D([], [], linestyle="none", label=""))
        handles += [Line2D([], [], color="0.35", marker=TRANS_MARKERS.get(t, "o"), linestyle="none",
                           label=f"trans {t}") for t in trans_seen]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.93), fontsize=9, frameon=False,
               title="backend kernel params", title_fontsize=9)
    fig.suptitle(f"{name}: GFLOP/s by problem size", fontsize=12)
    devices = "; ".join(f"{b}/{i}: {d}" for (b, i), d in device_names(doc).items())
    fig.text(0.0, -0.01, "devices: " + devices, fontsize=7, color="0.3", va="top", wrap=True)
    fig.tight_layout()
    return fig, None


def agreement_grid(cases):
    """Columns (members in order of first appearance), and per case: the case and the group
    index of each column (-1: not in this case) in letter order."""
    columns = list(OrderedDict.fromkeys(m for a in cases for g in a["groups"] for m in g["members"]))
    rows = []
    for a in cases:
        where = {m: gi for gi, g in enumerate(a["groups"]) for m in g["members"]}
        order = {}  # letters in order of first appearance across the columns, as agreement_table.py
        cells = [order.setdefault(where[c], len(order)) if c in where else -1 for c in columns]
        rows.append((a, cells))
    return columns, rows


def diff_text(d):
    return f"{d:.3g}" if isinstance(d, (int, float)) and math.isfinite(d) else "n/a"


def draw_agreement(doc, name, args, plt):
    cases = [a for a in doc["agreement"] if (not args.trans or a["trans"] in args.trans)
             and any(g["members"] for g in a["groups"])]
    if not cases:
        return None, "no agreement entry with a member" + (
            f" and trans {', '.join(args.trans)}" if args.trans else " (no case finished)")
    import numpy as np
    from matplotlib.colors import BoundaryNorm, ListedColormap

    columns, rows = agreement_grid(cases)
    ngroups = max(max(cells) for _, cells in rows) + 1
    palette = [GROUP_COLOURS[i % len(GROUP_COLOURS)] for i in range(ngroups)]
    cmap = ListedColormap([MISSING_COLOUR] + palette)
    norm = BoundaryNorm(np.arange(-1.5, ngroups, 1.0), cmap.N)
    grid = np.array([cells for _, cells in rows])
    diffs = [a["max_diff_in_bounds"] for a, _ in rows]
    finite = [d for d in diffs if isinstance(d, (int, float)) and math.isfinite(d)]
    beyond = [d for d in diffs if not (isinstance(d, (int, float)) and math.isfinite(d)) or d > 1]
    split = sum(1 for a, _ in rows if len(a["groups"]) > 1)

    height = 2.2 + 0.21 * len(rows)
    width = 3.2 + 0.42 * len(columns) + 1.6
    fig = plt.figure(figsize=(width, height), layout="constrained")
    # Main grid, a narrow strip for diff/bound, its colour bar.
    spec = fig.add_gridspec(1, 3, width_ratios=[len(columns), 1.1, 0.3])
    ax = fig.add_subplot(spec[0])
    ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
    for i, (_, cells) in enumerate(rows):
        for j, g in enumerate(cells):
            ax.text(j, i, chr(ord("A") + g) if g >= 0 else "-", ha="center", va="center", fontsize=7,
                    color="0.15" if g >= 0 else "0.55")
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels(columns, rotation=90, fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{a['dtype']} {a['trans']} {shape_label(a['m'], a['n'], a['k'])}   "
                        f"[{diff_text(a['max_diff_in_bounds'])}]" for a, _ in rows], fontsize=7, family="monospace")
    ax.set_ylabel("case: dtype trans MxNxK   [max diff between groups / error bound]", fontsize=8)
    ax.set_xticks(np.arange(-0.5, len(columns)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(rows)), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.tick_params(which="minor", length=0)
    for i in range(1, len(rows)):  # a line where the dtype changes
        if rows[i][0]["dtype"] != rows[i - 1][0]["dtype"]:
            ax.axhline(i - 0.5, color="0.2", linewidth=1.2)

    top = max([1.0] + finite)
    values = np.array([[d if isinstance(d, (int, float)) and math.isfinite(d) else np.nan] for d in diffs])
    hot = [not (isinstance(d, (int, float)) and math.isfinite(d)) or d > 0.6 * top for d in diffs]
    plot_compare.draw_diff_strip(fig, spec, ax, plt, values, top, [diff_text(d) for d in diffs], hot, bad="0.6",
                                 label="max difference between groups / error bound (> 1: beyond it)")

    fig.suptitle(f"{name}: agreement of bit-identical outputs\n"
                 f"{len(rows)} cases, {split} with more than one group, largest diff/bound "
                 f"{diff_text(max(finite) if finite else float('nan'))}"
                 + (f", {len(beyond)} beyond the bound" if beyond else "")
                 + "\nletters: groups within a case, A = the first column's group; -: not run in this case",
                 fontsize=10)
    return fig, None


def save(fig, prefix, what, plt):
    """Writes PREFIX-WHAT.png and .svg, printing each; returns their paths."""
    written = []
    # Agg draws at most 2^16 pixels a side: a table of thousands of cases gets fewer dots per inch.
    dpi = min(110, 60000 / max(fig.get_size_inches()))
    for ext in ("png", "svg"):
        path = f"{prefix}-{what}.{ext}"
        fig.savefig(path, dpi=dpi, bbox_inches="tight",
                    metadata={"Date": None} if ext == "svg" else {"Software": None})
        print("wrote", path)
        written.append(path)
    plt.close(fig)
    return written


def read_json_quietly(path):
    """The JSON document at path, or None when it cannot be read (gemmhost_json.load then says why)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main(argv):
    args = parse_args(argv)
    comparison = plot_compare.is_comparison(read_json_quietly(gemmhost_json.resolve(args.json)))
    try:
        doc = read_json_quietly(gemmhost_json.resolve(args.json)) if comparison else gemmhost_json.load(args.json)
    except gemmhost_json.NotResults as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    try:
        import matplotlib
    except ImportError:
        print(f"plot.py: needs matplotlib, which {sys.executable} does not have "
              "(Debian: apt-get install python3-matplotlib, then run it with /usr/bin/python3)", file=sys.stderr)
        return 1
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, smaller
    matplotlib.rcParams["svg.hashsalt"] = "gemmhost"  # same input, same SVG
    import matplotlib.pyplot as plt

    prefix = gemmhost_json.prefix_of(args.json)
    name = os.path.basename(prefix)
    if args.out:
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as e:
            print(f"plot.py: --out {args.out}: cannot create the folder: {e.strerror}", file=sys.stderr)
            return 2
        prefix = os.path.join(args.out, name)

    written = []
    drawings = (("gflops", lambda: draw_gflops(doc, name, args, plt)),
                ("agreement", lambda: draw_agreement(doc, name, args, plt)))
    if comparison:
        drawings = (("speed", lambda: plot_compare.draw_speed(doc, name, plt)),
                    ("files", lambda: plot_compare.draw_files(doc, name, plt)))
    for what, draw in drawings:
        fig, why = draw()
        if fig is None:
            print(f"plot.py: {what}: not drawn: {why} in {gemmhost_json.resolve(args.json)}", file=sys.stderr)
            continue
        try:
            written += save(fig, prefix, what, plt)
        except OSError as e:
            print(f"plot.py: cannot write {e.filename or prefix + '-' + what}: {e.strerror}", file=sys.stderr)
            return 1
    if not written:
        print(f"plot.py: nothing to draw from {gemmhost_json.resolve(args.json)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
