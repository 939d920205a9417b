#!/usr/bin/env bash
# opencl_mma: the OpenCL plugin's mma kernel end to end on tests/opencl/mma.ini.
# On NVIDIA devices of compute capability 8.0+ (the GPU machine) every row
# must pass, f32 as declared TF32; on every other device (PoCL in CI) every
# row must be unsupported, the reason naming inline PTX and NVIDIA.
# Usage: test_mma.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77: no OpenCL device.
set -u
. "$(dirname "$0")/e2e_setup.sh" mma.ini "$@"

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
  all_refused "$work/mma.csv" "inline PTX" NVIDIA
  expect_status "every reason names inline PTX and NVIDIA" $? 0
fi
finish
