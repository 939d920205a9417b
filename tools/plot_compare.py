"""Pictures of a comparison: the document `gemmhost compare --json A.json B.json ...` prints.

  PREFIX-speed.png/.svg      per later file against A, per kernel (colour) and case (x, in the
                             comparison's order), the ratio of median kernel times other/A with
                             its spread ([other min / A max, other max / A min]) as an error bar,
                             on a log axis; the threshold's band around 1 shaded; SLOW and FAST
                             verdicts ringed.
  PREFIX-files.png/.svg      the agreement heatmap across files: one row per case, one column per
                             file, each cell the letters of the groups of bit-identical outputs
                             that file's results fall in (A = the first group of the case), and
                             per case the largest difference between groups in units of the
                             error bound (from the output fingerprints).

Used by plot.py when its input is a comparison (it has "comparisons" and "agreement").
"""
import math
from collections import OrderedDict

GROUP_COLOURS = ("#c7e9c0", "#fdae6b", "#9ecae1", "#fc9272", "#bcbddc", "#fdd0a2", "#a1d99b", "#d9d9d9")
MISSING_COLOUR = "#f0f0f0"


def is_comparison(doc):
    return isinstance(doc, dict) and isinstance(doc.get("comparisons"), list) and isinstance(
        doc.get("agreement"), list) and isinstance(doc.get("files"), list)


def finite(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def ratio_spread(row):
    """(ratio, low, high) of one speed row, or None when it has no finite ratio."""
    base, other, ratio = row.get("base_ms") or {}, row.get("other_ms") or {}, row.get("ratio")
    if not finite(ratio):
        return None
    lo, hi = ratio, ratio
    if all(finite(v) and v > 0 for v in (base.get("min"), base.get("max"), other.get("min"), other.get("max"))):
        lo, hi = other["min"] / base["max"], other["max"] / base["min"]
    return ratio, min(lo, ratio), max(hi, ratio)


def draw_speed(doc, name, plt):
    pairs = [c for c in doc["comparisons"] if c.get("speed")]
    if not pairs:
        return None, "no result passed and was timed in A and a later file"
    threshold = doc.get("threshold") if finite(doc.get("threshold")) else 0.05
    kernels = list(OrderedDict.fromkeys(r["result"] for c in pairs for r in c["speed"]))
    cases = list(OrderedDict.fromkeys(r["case"] for c in pairs for r in c["speed"]))
    colours = plt.get_cmap("tab10" if len(kernels) <= 10 else "tab20")
    width = 3.0 + 0.32 * len(cases)
    fig, axes = plt.subplots(len(pairs), 1, figsize=(max(7.0, width), 3.2 * len(pairs) + 1.2), squeeze=False,
                             layout="constrained")
    for ax, cmp in zip(axes[:, 0], pairs):
        ax.axhspan(1 - threshold, 1 + threshold, color="0.9", zorder=0)
        ax.axhline(1.0, color="0.4", linewidth=0.8, zorder=1)
        for ki, kernel in enumerate(kernels):
            xs, ys, lo, hi, ringed = [], [], [], [], []
            for r in cmp["speed"]:
                if r["result"] != kernel:
                    continue
                spread = ratio_spread(r)
                if not spread:
                    continue
                x = cases.index(r["case"]) + (ki - (len(kernels) - 1) / 2) * 0.6 / max(1, len(kernels))
                xs.append(x)
                ys.append(spread[0])
                lo.append(spread[0] - spread[1])
                hi.append(spread[2] - spread[0])
                if r.get("verdict") in ("SLOW", "FAST"):
                    ringed.append((x, spread[0]))
            if not xs:
                continue
            colour = colours(ki % colours.N)
            ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", markersize=4, capsize=2, color=colour, label=kernel,
                        zorder=3)
            if ringed:
                ax.scatter([p[0] for p in ringed], [p[1] for p in ringed], s=90, facecolors="none",
                           edgecolors="red", linewidths=1.2, zorder=4)
        ax.set_yscale("log")
        ax.set_ylabel(f"{cmp['other']} / {cmp['base']} median kernel time", fontsize=8)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases, rotation=60, ha="right", fontsize=7)
        s = cmp.get("summary", {})
        g = s.get("geomean_ratio")
        ax.set_title(f"{cmp['other']} against {cmp['base']}: {s.get('same', 0)} SAME, {s.get('fast', 0)} FAST, "
                     f"{s.get('slow', 0)} SLOW" + (f", geometric mean ratio {g:.3f}" if finite(g) else ""),
                     fontsize=9)
        ax.grid(axis="y", which="both", color="0.85", linewidth=0.5)
    axes[0, 0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.suptitle(f"{name}: kernel time ratios with their spread (bars: other min/A max .. other max/A min; "
                 f"grey band: threshold {threshold * 100:g}%; red ring: SLOW or FAST)", fontsize=9)
    return fig, None


def file_cells(doc):
    """Per agreement entry: the files' labels, and per file the group indices its results are in."""
    labels = [f["label"] for f in doc["files"]]
    rows = []
    for entry in doc["agreement"]:
        per_file = []
        for label in labels:
            groups = [gi for gi, g in enumerate(entry.get("groups", [])) if (g.get("per_file") or {}).get(label)]
            per_file.append(groups)
        rows.append((entry, per_file))
    return labels, rows


def draw_diff_strip(fig, spec, ax, plt, values, top, texts, hot, bad, label):
    """The narrow strip beside an agreement grid (spec[1], sharing ax's rows) and its colour bar
    (spec[2]): per row its diff/bound as a red cell up to `top` with texts[i] on it, white where
    hot[i]; cells without a number in `bad`. plot.py's agreement picture draws the same strip."""
    strip = fig.add_subplot(spec[1], sharey=ax)
    heat = plt.get_cmap("Reds").copy()
    heat.set_bad(bad)
    image = strip.imshow(values, cmap=heat, vmin=0, vmax=top, aspect="auto", interpolation="nearest")
    for i, (text, h) in enumerate(zip(texts, hot)):
        strip.text(0, i, text, ha="center", va="center", fontsize=6.5, color="white" if h else "0.15")
    strip.set_xticks([0])
    strip.set_xticklabels(["diff/bound"], rotation=90, fontsize=8)
    strip.xaxis.tick_top()
    strip.tick_params(axis="y", which="both", left=False, labelleft=False)
    bar = fig.colorbar(image, cax=fig.add_subplot(spec[2]))
    bar.set_label(label, fontsize=8)
    bar.ax.tick_params(labelsize=7)


def draw_files(doc, name, plt):
    labels, rows = file_cells(doc)
    rows = [(e, cells) for e, cells in rows if any(cells)]
    if not rows:
        return None, "no case ran in any file"
    import numpy as np
    from matplotlib.colors import BoundaryNorm, ListedColormap

    ngroups = max([1] + [g + 1 for _, cells in rows for c in cells for g in c])
    cmap = ListedColormap([MISSING_COLOUR] + [GROUP_COLOURS[i % len(GROUP_COLOURS)] for i in range(ngroups)])
    norm = BoundaryNorm(np.arange(-1.5, ngroups, 1.0), cmap.N)
    grid = np.array([[c[0] if c else -1 for c in cells] for _, cells in rows])
    diffs = [e.get("max_diff_in_bounds") for e, _ in rows]
    top = max([1.0] + [d for d in diffs if finite(d)])

    fig = plt.figure(figsize=(3.5 + 0.9 * len(labels) + 1.6, 2.0 + 0.24 * len(rows)), layout="constrained")
    spec = fig.add_gridspec(1, 3, width_ratios=[len(labels), 0.9, 0.25])
    ax = fig.add_subplot(spec[0])
    ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
    for i, (_, cells) in enumerate(rows):
        for j, c in enumerate(cells):
            ax.text(j, i, "".join(chr(ord("A") + g) for g in c) if c else "-", ha="center", va="center",
                    fontsize=7, color="0.15" if c else "0.55")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([f"{f['label']}: {f.get('host', '')}" for f in doc["files"]], rotation=90, fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([e.get("case", "?") for e, _ in rows], fontsize=7, family="monospace")

    values = np.array([[d if finite(d) else np.nan] for d in diffs])
    texts = [f"{d:.3g}" if finite(d) else ("same" if len(e.get("groups", [])) < 2 else "n/a")
             for d, (e, _) in zip(diffs, rows)]
    hot = [finite(d) and d > 0.6 * top for d in diffs]
    draw_diff_strip(fig, spec, ax, plt, values, top, texts, hot, bad="0.85",
                    label="largest difference between groups / error bound (> 1: beyond it)")
    split = sum(1 for e, _ in rows if len(e.get("groups", [])) > 1)
    fig.suptitle(f"{name}: outputs across {len(labels)} files, {len(rows)} cases, {split} with more than one "
                 "group\nletters: groups of bit-identical outputs within a case; -: the file did not run it",
                 fontsize=10)
    return fig, None
