#!/usr/bin/env bash
# opencl_mma: the OpenCL plugin's mma kernel end to end on tests/opencl/mma.ini.
# On NVIDIA devices of compute capability 8.0+ (the GPU machine) every row
# must pass, f32 as declared TF32; on every other device (PoCL in CI) every
# row must be unsupported, the reason naming inline PTX and NVIDIA. Then i8
# x i8 -> i32 (m16n8k32) on the same sizes and transposes: the two variants
# 32 deep pass exactly on NVIDIA (elsewhere are refused as above), and the
# one 16 deep is refused everywhere, naming i8's steps of 32.
# Usage: test_mma.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77: no OpenCL device.
set -u
. "$(dirname "$0")/e2e_setup.sh" mma.ini "$@"

on_nvidia=() # the bk 16 run's, below
# 7 sizes x 3 dtypes x 4 transposes x 3 variants.
if grep -q '^  device opencl/.*NVIDIA' <<<"$list"; then
  on_nvidia=(--set opencl-mma-s4.platform=NVIDIA)
  # Only the NVIDIA platform: a machine may have PoCL beside it.
  "$gemmhost" --quiet --config "$config" --set opencl-mma.platform=NVIDIA --set opencl-mma-s4.platform=NVIDIA \
    --set opencl-mma-64.platform=NVIDIA \
    --output "$work/mma"
  expect_status "mma on NVIDIA: f16, bf16, f32 as TF32" $? 0
  expect_ok "252 rows, all pass, every dtype and transpose" $check "$work/mma" --rows 252 --status pass \
    --distinct dtype=3 --distinct trans=4 --distinct params=3 --require arithmetic="tf32 inputs, f32 accumulate"
  "$gemmhost" --quiet --config "$config" --set opencl-mma.platform=NVIDIA --set opencl-mma-64.platform=NVIDIA \
    --dtype i8 --backend opencl-mma,opencl-mma-64 --output "$work/mma-i8"
  expect_status "mma i8 on NVIDIA" $? 0
  expect_ok "56 i8 rows, all pass, exact, every transpose" $check "$work/mma-i8" --rows 56 --status pass \
    --distinct trans=4 --distinct params=2 --require arithmetic=exact --require c_dtype=i32
else
  "$gemmhost" --quiet --config "$config" --output "$work/mma" >"$work/mma.out" 2>&1
  expect_status "mma off NVIDIA: nothing runs (exit 3)" $? 3
  expect_ok "252 rows, all unsupported" $check "$work/mma" --rows 252 --status unsupported
  all_refused "$work/mma.csv" "inline PTX" NVIDIA
  expect_status "every reason names inline PTX and NVIDIA" $? 0
  "$gemmhost" --quiet --config "$config" --dtype i8 --backend opencl-mma,opencl-mma-64 --output "$work/mma-i8" \
    >"$work/mma-i8.out" 2>&1
  expect_status "mma i8 off NVIDIA: nothing runs (exit 3)" $? 3
  expect_ok "56 i8 rows, all unsupported" $check "$work/mma-i8" --rows 56 --status unsupported --require c_dtype=i32
  all_refused "$work/mma-i8.csv" "inline PTX" NVIDIA
  expect_status "every i8 reason names inline PTX and NVIDIA" $? 0
fi
# bk 16 in i8, refused before any device is asked.
"$gemmhost" --quiet --config "$config" "${on_nvidia[@]}" --dtype i8 --backend opencl-mma-s4 --output "$work/mma-i8-bk16" \
  >"$work/mma-i8-bk16.out" 2>&1
expect_status "mma i8 with bk 16: nothing runs (exit 3)" $? 3
expect_ok "28 i8 rows, all unsupported" $check "$work/mma-i8-bk16" --rows 28 --status unsupported
all_refused "$work/mma-i8-bk16.csv" "steps of 32" "bk 16 is not a multiple of 32"
expect_status "every bk 16 reason names i8's steps of 32" $? 0
finish
