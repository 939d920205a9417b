#!/usr/bin/env bash
# opencl_mma: the OpenCL plugin's mma kernel end to end on tests/opencl/mma.ini.
# On NVIDIA devices of compute capability 8.0+ (the GPU machine) every row
# must pass, f32 as declared TF32; on every other device (PoCL in CI) every
# row must be unsupported, the reason naming inline PTX and NVIDIA.
# Usage: test_mma.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77: no OpenCL device.
set -u
gemmhost=$1 src=$2 python=$3
command -v "$python" >/dev/null || python=python3  # the configured one may not exist on another machine
check="$python $src/tests/e2e/check_results.py"
config="$src/tests/opencl/mma.ini"
. "$src/tests/expect.sh"

list=$("$gemmhost" --list --summary 2>&1)
plugin=$(grep '^plugin opencl ' <<<"$list")
if [ -z "$plugin" ] || grep -q 'no usable device' <<<"$plugin"; then
  echo "skip: no OpenCL device: ${plugin:-the opencl plugin was not found}"
  exit 77
fi

# 7 sizes x 3 dtypes x 4 transposes x 3 variants.
if grep -q '^  device opencl/.*NVIDIA' <<<"$list"; then
  # Only the NVIDIA platform: a machine may have PoCL beside it.
  "$gemmhost" --quiet --config "$config" --set opencl-mma.platform=NVIDIA --set opencl-mma-s4.platform=NVIDIA \
    --set opencl-mma-64.platform=NVIDIA \
    --output "$work/mma"
  expect_status "mma on NVIDIA: f16, bf16, f32 as TF32" $? 0
  expect_ok "252 rows, all pass, every dtype and transpose" $check "$work/mma" --rows 252 --status pass \
    --distinct dtype=3 --distinct trans=4 --distinct params=3 --require arithmetic="tf32 inputs, f32 accumulate"
else
  "$gemmhost" --quiet --config "$config" --output "$work/mma" >"$work/mma.out" 2>&1
  expect_status "mma off NVIDIA: nothing runs (exit 3)" $? 3
  expect_ok "252 rows, all unsupported" $check "$work/mma" --rows 252 --status unsupported
  $python - "$work/mma.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if "inline PTX" not in r["detail"] or "NVIDIA" not in r["detail"]]
for r in bad[:3]:
    print("reason without 'inline PTX' and 'NVIDIA':", r["detail"])
sys.exit(1 if bad or not rows else 0)
PY
  expect_status "every reason names inline PTX and NVIDIA" $? 0
fi
finish
