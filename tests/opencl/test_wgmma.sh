#!/usr/bin/env bash
# opencl_wgmma: the OpenCL plugin's wgmma kernel end to end on
# tests/opencl/wgmma.ini and, in 8 bits, wgmma8.ini, with padded rows (its
# element copy path) and again unpadded (the 16-byte path where shapes allow). On an NVIDIA Hopper
# (H100, H200, H800, GH200, H20: compute capability 9.0) every row must pass;
# on other NVIDIA devices every row is unsupported naming compute capability
# 9.0; on every other device (PoCL in CI) every row is unsupported, the
# reason naming sm_90a and NVIDIA.
# Usage: test_wgmma.sh GEMMHOST SOURCE_DIR PYTHON. Exit 77: no OpenCL device.
set -u
. "$(dirname "$0")/e2e_setup.sh" wgmma.ini "$@"

# 9 sizes x 2 dtypes x 4 transposes x 3 variants; in 8 bits (wgmma8.ini)
# 7 sizes x 2 dtypes x 4 transposes x 2 variants.
rows=216 rows8=112
config8="$src/tests/opencl/wgmma8.ini"
on_nvidia8=(--set opencl-wgmma8.platform=NVIDIA --set opencl-wgmma8-deep.platform=NVIDIA)
nvidia=$(grep '^  device opencl/.*NVIDIA' <<<"$list")
# Only the NVIDIA platform: a machine may have PoCL beside it.
on_nvidia=(--set opencl-wgmma.platform=NVIDIA --set opencl-wgmma-n256.platform=NVIDIA
  --set opencl-wgmma-s4.platform=NVIDIA)
if grep -Eq 'H100|H200|H800|GH200|H20\b' <<<"$nvidia"; then
  for pad in 3 0; do
    "$gemmhost" --quiet --config "$config" "${on_nvidia[@]}" --set run.ld_pad=$pad --output "$work/wgmma$pad"
    expect_status "wgmma on a Hopper, ld_pad $pad: f16 and bf16" $? 0
    expect_ok "$rows rows, all pass, every dtype and transpose (ld_pad $pad)" $check "$work/wgmma$pad" \
      --rows $rows --status pass --distinct dtype=2 --distinct trans=4 --distinct params=3
    "$gemmhost" --quiet --config "$config8" "${on_nvidia8[@]}" --set run.ld_pad=$pad --output "$work/wgmma8_$pad"
    expect_status "wgmma on a Hopper, ld_pad $pad: e4m3 and i8" $? 0
    expect_ok "$rows8 rows, all pass, both dtypes, every transpose (ld_pad $pad)" $check "$work/wgmma8_$pad" \
      --rows $rows8 --status pass --distinct dtype=2 --distinct trans=4 --distinct params=2
  done
  "$gemmhost" --quiet --config "$config8" "${on_nvidia8[@]}" --set run.dtype=e5m2 --set run.b_dtype=e4m3 \
    --set run.c_dtype=bf16 --output "$work/wgmma8_mixed"
  expect_status "wgmma on a Hopper: e5m2 x e4m3 -> bf16" $? 0
  expect_ok "$((rows8 / 2)) rows, all pass" $check "$work/wgmma8_mixed" --rows $((rows8 / 2)) --status pass
elif [ -n "$nvidia" ]; then
  # refused_before_hopper NAME CONFIG SETS...: every row refused, naming compute capability 9.0.
  refused_before_hopper() {
    local name=$1 cfg=$2
    shift 2
    "$gemmhost" --quiet --config "$cfg" "$@" --output "$work/$name" >"$work/$name.out" 2>&1
    expect_status "$name on NVIDIA before Hopper: nothing runs (exit 3)" $? 3
    all_refused "$work/$name.csv" "compute capability 9.0"
    expect_status "$name: every row refused, naming compute capability 9.0" $? 0
  }
  refused_before_hopper wgmma "$config" "${on_nvidia[@]}"
  refused_before_hopper wgmma8 "$config8" "${on_nvidia8[@]}"
else
  for run in wgmma:$rows:"$config" wgmma8:$rows8:"$config8"; do
    name=${run%%:*} n=${run#*:} n=${n%%:*}
    "$gemmhost" --quiet --config "${run#*:*:}" --output "$work/$name" >"$work/$name.out" 2>&1
    expect_status "$name off NVIDIA: nothing runs (exit 3)" $? 3
    expect_ok "$name: $n rows, all unsupported" $check "$work/$name" --rows $n --status unsupported
    all_refused "$work/$name.csv" sm_90a NVIDIA
    expect_status "$name: every reason names sm_90a and NVIDIA" $? 0
  done
fi
finish
