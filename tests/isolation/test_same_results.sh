#!/usr/bin/env bash
# --no-isolation gives the same results as isolation (the default): every
# column of the CSV but the timings, the agreement groups, the split's
# members. Usage: test_same_results.sh GEMMHOST SOURCE_DIR PYTHON FAKES_DIR
set -u
gemmhost=$1 src=$2 python=$3 fakes=$4
command -v "$python" >/dev/null || python=python3
. "$src/tests/expect.sh"

cat >"$work/same.ini" <<INI
[run]
sizes = 17x9x12, 1x1x1, 33
dtype = f32, f64, i32
trans = nn, tt
beta = 2
plugin_dir = $fakes
[backend cpu]
plugin = cpu
kernels = naive, tiled
tile = 4, 16
[backend cpu2]
plugin = cpu
kernels = tiled
[backend good]
plugin = fake_good
[backend old]
plugin = fake_old_minor
[split twins]
backends = cpu, cpu2
kernel = tiled
panel = 8
INI
timeout 120 "$gemmhost" --quiet --config "$work/same.ini" --output "$work/isolated"
expect_status "isolated run" $? 0
timeout 120 "$gemmhost" --quiet --config "$work/same.ini" --output "$work/inprocess" --no-isolation
expect_status "the same run with --no-isolation" $? 0
expect_ok "the same results, row by row (timings aside), agreement and splits" $python - "$work" <<'PY'
import csv, json, sys
# the spread of the times, and whether a kernel was small enough to batch, follow the timings
timing = {"kernel_ms_median", "kernel_ms_min", "kernel_ms_max", "upload_ms", "download_ms", "gflops",
          "spread", "spread_reached", "batch", "batch_note"}
def rows(name):
    return [{k: v for k, v in r.items() if k not in timing}
            for r in csv.DictReader(open(f"{sys.argv[1]}/{name}.csv"))]
a, b = rows("isolated"), rows("inprocess")
problems = [] if len(a) == len(b) and len(a) > 0 else [f"{len(a)} rows isolated, {len(b)} in process"]
for i, (x, y) in enumerate(zip(a, b)):
    differ = [k for k in x if x[k] != y.get(k)]
    if differ:
        problems.append(f"row {i}: {', '.join(differ)} differ: {[(x[k], y.get(k)) for k in differ][:3]}")
ja, jb = (json.load(open(f"{sys.argv[1]}/{n}.json")) for n in ("isolated", "inprocess"))
if ja["agreement"] != jb["agreement"]:
    problems.append("the agreement groups differ")
strip = lambda s: [(m["backend"], m["device_index"], m["kernel"], m["params"], m["streams"], m["layout"])
                   for m in s["members"]]
if [strip(s) for s in ja["splits"]] != [strip(s) for s in jb["splits"]]:
    problems.append("the splits' members differ")
if [d for d in ja["devices"]] != [d for d in jb["devices"]]:
    problems.append("the devices differ")
print(len(a), "rows compared;", len(ja["splits"]), "split entries")
for p in problems[:10]:
    print("problem:", p)
sys.exit(1 if problems else 0)
PY
isolated_config=$($python -c "import json,sys; print(json.load(open('$work/inprocess.json'))['config'])" 2>/dev/null)
expect_in "the JSON's config records --no-isolation" "$isolated_config" "run.isolation=none"
finish
