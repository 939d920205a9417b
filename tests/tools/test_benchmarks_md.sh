#!/usr/bin/env bash
# tools/benchmarks_md.py: a tiny gemmhost run of the C plugin printed as markdown (header,
# a section and table per dtype, a row per kernel), the ratio to the vendor baseline on a copy
# whose GFLOP/s are set by hand, and bad input.
# Usage: test_benchmarks_md.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
tool=$src/tools/benchmarks_md.py
. "$src/tests/expect.sh"

[ -x "$tool" ] && ok "benchmarks_md.py is executable" || bad "benchmarks_md.py is not executable"

cat >"$work/tiny.ini" <<'INI'
[run]
sizes  = 16, 9x7x5
dtype  = f32, i32
trans  = nn
repeat = 1
verify = full

[backend cpu]
plugin  = cpu
kernels = naive, tiled
tile    = 8
INI
"$gemmhost" --quiet --config "$work/tiny.ini" --output "$work/tiny"
expect_status "gemmhost on the tiny config" $? 0

expect_run "benchmarks_md.py on the tiny run" 0 "# Benchmarks" "$python" "$tool" "$work/tiny.json"
expect_in "machine" "$out" "- Machine: $(hostname)"
expect_in "version and commit" "$out" "- gemmhost "
expect_in "the device" "$out" "  - cpu/0: "
expect_in "date" "$out" "- Date: 20"
expect_in "f32 section" "$out" "## f32"
expect_in "i32 section" "$out" "## i32"
expect_in "table header: a column per shape" "$out" "| backend | device | kernel | params | 16 | 9x7x5 |"
expect_in "no baseline said" "$out" "no vendor library (cuBLAS, CLBlast, BLAS) passed in this dtype"
rows=$(grep -cE '^\| cpu \| 0: .* \| (naive \| -|tiled \| tile=8) \| [0-9.]+ \| [0-9.]+ \|$' <<<"$out")
[ "$rows" = 4 ] && ok "a row per kernel and dtype, GFLOP/s in each shape" || bad "$rows kernel rows, expected 4"

# Ratios: a copy where tiled is renamed cublas, naive 10 GFLOP/s and cublas 40 at every shape.
"$python" - "$work/tiny.json" "$work/ratio.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    if r["kernel"] == "tiled":
        r["kernel"], r["params"], r["params_used"], r["gflops"] = "cublas", "", "", 40.0
    else:
        r["gflops"] = 10.0
doc["results"][0]["status"] = "FAIL"
naive = [r for r in doc["results"] if r["kernel"] == "naive" and r["dtype"] == "f32"]
naive[1]["params"], naive[1]["params_used"] = "tile=auto", "tile=16"
json.dump(doc, open(sys.argv[2], "w"))
PY
expect_run "benchmarks_md.py PREFIX (no .json)" 0 "ratio to cuBLAS (\`cublas\`) at the same shape" "$python" "$tool" "$work/ratio"
expect_in "a failed result shown as such" "$out" "| naive | - | FAIL |"
expect_in "naive at 0.25 of cublas" "$out" "| naive | tile=auto |  | 10 (0.25) |"
expect_in "auto parameters: what ran" "$out" "- cpu naive tile=auto at 9x7x5: ran tile=16"
expect_in "cublas at 1.00" "$out" "| cublas | - | 40 (1.00) | 40 (1.00) |"

# 8-bit: e4m3 and i8 on the C plugin, tiled renamed cublaslt-fp8 in e4m3 and cublaslt-i8 in i8
# (the vendor rows of 8-bit), with a kernel that has no case of a dtype (all unsupported).
"$gemmhost" --quiet --config "$work/tiny.ini" --dtype e4m3,i8 --trans nt --output "$work/eight"
expect_status "gemmhost on the tiny config in e4m3 and i8" $? 0
"$python" - "$work/eight.json" "$work/eight-named.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["results"]:
    if r["kernel"] == "tiled":
        r["kernel"] = "cublaslt-fp8" if r["dtype"] == "e4m3" else "cublaslt-i8"
        r["params"] = r["params_used"] = ""
        r["gflops"] = 40.0
    else:
        r["gflops"] = 10.0
    if r["kernel"] == "naive" and r["dtype"] == "i8":
        r["status"], r["gflops"] = "unsupported", None
json.dump(doc, open(sys.argv[2], "w"))
PY
expect_run "benchmarks_md.py on 8-bit" 0 "ratio to cuBLASLt's FP8 GEMM (\`cublaslt-fp8\`)" "$python" "$tool" "$work/eight-named.json"
expect_in "i8 held to cuBLASLt's int8 GEMM" "$out" "ratio to cuBLASLt's int8 GEMM (\`cublaslt-i8\`)"
expect_in "e4m3: naive at 0.25" "$out" "| naive | - | 10 (0.25) | 10 (0.25) |"
i8_section=$(sed -n '/^## i8/,$p' <<<"$out")
grep -qF "| naive |" <<<"$i8_section" && bad "a kernel with no i8 case has an i8 row" ||
  ok "a kernel with no i8 case has no i8 row"
# tools/eight_bit_vs_torch.py: without PyTorch here it says so and prints the rows and their ratio
# to the cuBLASLt row of their dtype.
if "$python" -c "import torch" 2>/dev/null; then
  echo "skip: PyTorch is installed here, eight_bit_vs_torch.py would time it (a GPU-machine tool)"
else
  expect_run "eight_bit_vs_torch.py without PyTorch" 0 "PyTorch: PyTorch not importable here" \
    "$python" "$src/tools/eight_bit_vs_torch.py" "$work/eight-named.json"
  expect_in "its naive e4m3 row at 0.25 of cublaslt-fp8" "$out" "| e4m3 | cpu naive | 0.25 |"
  expect_in "share of the peak" "$out" "| e4m3 | cpu cublaslt-fp8 | 0 (0%) |"
fi
echo '{"rows": []}' >"$work/other.json"
expect_run "eight_bit_vs_torch.py on a file that is not results" 2 "not a gemmhost results file" \
  "$python" "$src/tools/eight_bit_vs_torch.py" "$work/other.json"

# Bad input: exit 2, the file and the problem named.
expect_run "missing file" 2 "$work/no-such.json: no such file" "$python" "$tool" "$work/no-such.json"
echo '{"rows": []}' >"$work/other.json"
expect_run "JSON not from gemmhost" 2 "not a gemmhost results file" "$python" "$tool" "$work/other.json"
expect_run "no argument" 2 "benchmarks_md.py results.json" "$python" "$tool"

finish
