#!/usr/bin/env bash
# gemmhost end to end: configs from config/, the built-in default, bad input,
# a run killed half-way. Usage: test_e2e.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3  # the configured one may not exist on another machine
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"

# The built-in default: the C plugin's naive and tiled on small odd shapes.
out=$("$gemmhost" --output "$work/default" 2>&1)
expect_status "built-in default config" $? 0
# Beside a GPU the default also runs cuBLAS, which declares i32 unsupported.
expect_ok "default results all pass (or are declared unsupported), both C kernels" $check "$work/default" \
  --status pass --or-unsupported --require backend=cpu --require kernel=naive --require kernel=tiled --distinct m=3

# Every dtype and transpose on odd shapes: 7 sizes x 3 dtypes x 4 trans x (naive + 3 tiles).
"$gemmhost" --quiet --config "$src/config/cpu-odd-shapes.ini" --output "$work/odd"
expect_status "C plugin on odd shapes" $? 0
expect_ok "odd shapes: 336 rows, all pass" $check "$work/odd" --rows 336 --status pass --distinct dtype=3 --distinct trans=4

# Every CPU-reachable backend on the same cases: C, OpenCL (PoCL), Vulkan (lavapipe).
# 8 sizes x 3 dtypes x 4 transposes x 3 backends x (naive + 2 tiles).
"$gemmhost" --quiet --config "$src/config/agreement.ini" --output "$work/agree"
expect_status "C, OpenCL and Vulkan side by side" $? 0
# 864 rows on software devices alone; a GPU's OpenCL and Vulkan devices add theirs.
expect_ok "agreement: 864 rows, all pass, all three backends" $check "$work/agree" --rows 864 --software-only --status pass \
  --require backend=cpu --require backend=opencl --require backend=vulkan
expect_ok "agreement: i32 outputs of every backend identical" $python -c "
import json, sys
doc = json.load(open('$work/agree.json'))
split = [a for a in doc['agreement'] if a['dtype'] == 'i32' and len(a['groups']) != 1]
print(len(split), 'i32 cases whose backends disagree')
sys.exit(1 if split or not doc['agreement'] else 0)"

"$gemmhost" --quiet --config "$src/config/cpu-large-verify.ini" --output "$work/large"
expect_status "Freivalds and sampled entries past full_max" $? 0
expect_ok "large: verified with freivalds+sample" $check "$work/large" --rows 4 --status pass \
  --require verify_method=freivalds+sample

# --set overrides and --dry-run, which runs and writes nothing.
out=$("$gemmhost" --config "$src/config/cpu-odd-shapes.ini" --set run.sizes=8 --set cpu.tile=8 --dry-run --output "$work/dry" 2>&1)
expect_status "--dry-run" $? 0
expect_in "--dry-run counts the runs" "$out" "total: 24 runs"
[ -e "$work/dry.csv" ] && bad "--dry-run wrote results" || ok "--dry-run wrote nothing"

# Bad input: exit 2 and nothing written.
printf '[run]\nsizes = 64, 0x3x3\noutput = %s/bad\n' "$work" >"$work/bad.ini"
out=$("$gemmhost" --config "$work/bad.ini" 2>&1)
expect_status "impossible size" $? 2
expect_in "impossible size names file and line" "$out" "bad.ini:2"
[ -e "$work/bad.csv" ] && bad "a config error wrote results" || ok "a config error wrote nothing"
out=$("$gemmhost" --config "$work/no-such.ini" 2>&1)
expect_status "missing config file" $? 2
expect_in "missing config file named" "$out" "no-such.ini"
out=$("$gemmhost" --frobnicate 2>&1)
expect_status "unknown option" $? 2

# A config that asks for CUDA on a machine without a CUDA device: the host
# says why and carries on with the other backends, exit 3.
if "$gemmhost" --list 2>&1 | grep -q '^plugin cuda:'; then
  if "$gemmhost" --list 2>&1 | sed -n '/^plugin cuda:/,/^plugin /p' | grep -q 'no usable device'; then
    printf '[run]\nsizes = 16\nrepeat = 1\noutput = %s/nocuda\n[backend cpu]\nplugin = cpu\n[backend cuda]\nplugin = cuda\n' "$work" >"$work/nocuda.ini"
    out=$("$gemmhost" --config "$work/nocuda.ini" 2>&1)
    expect_status "CUDA requested without a CUDA device" $? 3
    expect_in "the missing CUDA driver or device is said plainly" "$out" "backend cuda could not run: plugin cuda has no usable device"
    expect_ok "the C plugin's results are still there" $check "$work/nocuda" --status pass --require backend=cpu
  else
    echo "skip: this machine has a CUDA device; the no-CUDA check runs only without one"
  fi
else
  echo "skip: the CUDA plugin was not built here (no CUDA toolkit), so the no-CUDA check cannot run"
fi

# A run killed half-way leaves every finished result readable on disk.
printf '[run]\nsizes = 300, 301, 302, 303, 304, 305, 306, 307\ndtype = f64\nrepeat = 3\noutput = %s/killed\n[backend cpu]\nplugin = cpu\nkernels = naive\nthreads = 1\n' "$work" >"$work/long.ini"
"$gemmhost" --quiet --config "$work/long.ini" &
pid=$!
for _ in $(seq 100); do
  [ -f "$work/killed.csv" ] && [ "$(wc -l <"$work/killed.csv")" -ge 3 ] && break
  sleep 0.1
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
expect_ok "killed run: finished results readable in CSV and JSON" $check "$work/killed" --min-rows 2 --status pass

finish
