#!/usr/bin/env bash
# gemmhost end to end: configs from config/, the built-in default, bad input,
# a run killed half-way. Usage: test_e2e.sh GEMMHOST SOURCE_DIR PYTHON
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3  # the configured one may not exist on another machine
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"

# The built-in default: the C plugin's naive and tiled on small odd shapes.
# Run as a newcomer would: no config, no options, in an empty folder.
mkdir "$work/default" && (cd "$work/default" && "$gemmhost" >"$work/default.out" 2>"$work/default.err")
expect_status "built-in default config" $? 0
out=$(cat "$work/default.out")
lines=$(wc -l <"$work/default.out")
[ "$lines" -le 80 ] && ok "the default run's terminal output fits 80 lines ($lines)" ||
  { bad "the default run printed $lines lines"; sed 's/^/    | /' "$work/default.out"; }
grep -q '^agreement f32: all [0-9]* cases agree' <<<"$out" && ok "the default run names the f32 agreement" ||
  { bad "no f32 agreement verdict"; sed 's/^/    | /' "$work/default.out"; }
expect_in "the default run names the fastest f32" "$out" "fastest f32: "
grep -q ' unsupported$\|,unsupported,' "$work/default.out" && bad "an unsupported result listed" || ok "unsupported results not listed"
mv "$work/default/gemmhost-results.csv" "$work/default.csv" && mv "$work/default/gemmhost-results.json" "$work/default.json"
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
    printf '[run]\nsizes = 16\nrepeat = 1\noutput = %s/nocuda\n[backend cpu]\nplugin = cpu\nkernels = naive, tiled\n[backend cuda]\nplugin = cuda\n' "$work" >"$work/nocuda.ini"
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

# Exit 3 only for what was asked by name. The OpenCL plugin given by path
# with no `kernels` runs all of its kernels: on a device without NVIDIA's
# tensor cores (PoCL in CI) mma and wgmma are unsupported, and that is no
# failure of the run; `kernels = wgmma` in f32 (it has f16 and bf16) is a
# kernel that cannot run.
ocl=$(dirname "$gemmhost")/plugins/gemmhost-opencl.so
if [ -f "$ocl" ] && "$gemmhost" --list --summary 2>/dev/null | grep -q '^  device opencl/'; then
  printf '[run]\nsizes = 16\ndtype = f32\ntrans = nn\nwarmup = 0\nrepeat = 1\noutput = %s/ocl-all\n[backend ocl]\nplugin = %s\n' "$work" "$ocl" >"$work/ocl-all.ini"
  out=$("$gemmhost" --config "$work/ocl-all.ini" 2>&1)
  expect_status "OpenCL by path, no kernels (unsupported tensor-core kernels)" $? 0
  printf 'kernels = wgmma\n' | cat "$work/ocl-all.ini" - | sed "s|ocl-all|ocl-wgmma|" >"$work/ocl-wgmma.ini"
  out=$("$gemmhost" --config "$work/ocl-wgmma.ini" 2>&1)  # f32: wgmma has f16 and bf16 only, on any device
  expect_status "kernels = wgmma, which can run no case" $? 3
  expect_in "it says so" "$out" "kernel wgmma"
else
  echo "skip: no OpenCL plugin or device here, so the by-path OpenCL exit checks cannot run"
fi

# A run killed half-way leaves every finished result readable on disk, for
# any of the signals that end it. gemmhost prints a result's table row before
# it writes that result to the CSV and then the JSON, so once row N+1 has been
# read, N results are complete in both files. Nothing waits on the clock: the
# run has far more table than a pipe holds (2400 rows, about 400 KB), so once
# this script stops reading, gemmhost blocks on its output long before its end
# and the signal always finds it mid-run, however loaded the machine is.
printf '[run]\nsizes = %s\ndtype = f32, f64, i32\ntrans = nn, nt, tn, tt\nwarmup = 0\nrepeat = 1\n[backend long]\nplugin = cpu\nkernels = naive, tiled\ntile = 4, 8, 16, 32\nthreads = 1\n' \
  "$(seq -s ', ' 1 40)" >"$work/long.ini"
killed_run() { # SIGNAL N [CHECK OPTION]: kill the long run with SIGNAL once N results are finished
  local sig=$1 n=$2 more=${3:-} prefix=$work/killed-$1 rows=0 line
  # Its table comes through a pipe. An asynchronous command of a script ignores
  # SIGINT; env gives gemmhost the default action back.
  exec 3< <(exec env --default-signal=INT "$gemmhost" --verbose --config "$work/long.ini" --output "$prefix" 2>"$prefix.err")
  local pid=$!
  # Ends at row N+1, or at the end of the output if gemmhost ends first.
  while [ "$rows" -le "$n" ] && IFS= read -r line <&3; do
    case $line in "long "*) rows=$((rows + 1)) ;; esac
  done
  if [ "$rows" -le "$n" ]; then
    exec 3<&-
    wait "$pid"
    bad "killed run ($sig): gemmhost ended on its own (exit $?) after $rows results, before it could be killed"
    sed 's/^/    | /' "$prefix.err"
    return
  fi
  kill -s "$sig" "$pid"
  wait "$pid"
  expect_status "killed run ($sig): gemmhost ended by the signal" $? $((128 + $(kill -l "$sig")))
  exec 3<&-
  expect_ok "killed run ($sig): the $n finished results readable in CSV and JSON" \
    $check "$prefix" --killed --min-rows "$n" --status pass $more
}
killed_run KILL 3
# SIGTERM and SIGINT stop it at the next call: the result in progress is cancelled (tests/resilience).
killed_run TERM 3 --or-cancelled
killed_run INT 3 --or-cancelled

finish
