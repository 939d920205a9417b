#!/usr/bin/env bash
# gemmhost end to end on tests/cuda/half.ini: the CUDA plugin's kernels in
# f16 and bf16, then with beta = 0, then cublas-tf32 in f32. Every row must
# pass, in the expected number. Without a CUDA device gemmhost must say why
# (exit 3); then this test exits 77 (skipped).
# Usage: test_half.sh GEMMHOST HALF_INI PYTHON
set -u
gemmhost=$1 config=$2 python=$3
command -v "$python" >/dev/null || python=python3  # the configured one may not exist on another machine
src=$(cd "$(dirname "$0")/../.." && pwd)
check="$python $src/tests/e2e/check_results.py"
. "$src/tests/expect.sh"
half=cuda,cuda-blocked,cuda-blocked-128,cuda-mma

out=$("$gemmhost" --quiet --config "$config" --backend "$half" --output "$work/half" 2>&1)
status=$?
if [ $status = 3 ] && grep -q "plugin cuda has no usable device" <<<"$out"; then
  # The plain reason, not a crash or a config error: no driver, or a driver
  # without a device.
  expect_in "no CUDA device: gemmhost names the missing driver or device" "$out" "backend cuda could not run: plugin cuda has no usable device: "
  if grep -qE "no CUDA driver|CUDA driver found but" <<<"$out"; then ok "the reason names the CUDA driver"; else bad "the reason names the CUDA driver"; fi
  finish || exit 1
  echo "skip: no CUDA device here: $(grep -m1 -o 'plugin cuda has no usable device: .*' <<<"$out")"
  exit 77
fi
echo "$out" | tail -n 5
# 6 sizes x 2 dtypes x 4 transposes x (naive + 4 tiled + cublas + 8 blocked + 2 mma).
expect_status "f16 and bf16, beta -3" $status 0
expect_ok "f16/bf16: 768 rows, all pass, every kernel" $check "$work/half" --rows 768 --status pass \
  --distinct dtype=2 --distinct trans=4 --distinct m=5 --require kernel=naive --require kernel=tiled \
  --require kernel=blocked --require kernel=cublas --require kernel=mma --require dtype=f16 --require dtype=bf16 \
  --require arithmetic="f32 accumulate"

# beta = 0: C is NaN on the device before the run and must never be read.
"$gemmhost" --quiet --config "$config" --backend "$half" --set run.beta=0 --size 37x53x29,8x8x4096 \
  --output "$work/beta0" >"$work/beta0.out" 2>&1
expect_status "f16 and bf16, beta 0" $? 0
expect_ok "beta 0: 256 rows, all pass" $check "$work/beta0" --rows 256 --status pass

# cublas-tf32 and mma: f32 with TF32 inputs, judged by the TF32 bound they declare.
"$gemmhost" --quiet --config "$config" --backend cuda-tf32 --dtype f32 --output "$work/tf32" >"$work/tf32.out" 2>&1
expect_status "cublas-tf32 and mma in f32" $? 0
expect_ok "cublas-tf32 and mma: 48 rows, all pass, TF32 declared" $check "$work/tf32" --rows 48 --status pass \
  --require kernel=mma --require arithmetic="tf32 inputs, f32 accumulate"
finish
