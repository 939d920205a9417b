#!/usr/bin/env bash
# cuda_kernel_ptxas_warptile_registers_<dtype>: kernels/cuda/warptile.cu at
# its default (minblocks 0), assembled for sm_90 with spills as errors, and
# every one of its eight kernels within the register budget that minblocks 0
# means for the dtype: 128 in f32 (two blocks of 256 threads per SM; left
# free, ptxas takes 145 and the kernel runs 0.85 of cuBLAS at 4096 against
# 0.92 on an H100), 255 in f64, f16 and bf16 (one block). Nothing else
# catches f32 losing its cap: without it the kernel is still correct and
# spills nothing.
# Usage: test_warptile_registers.sh NVCC KERNEL_DIR OUT_DIR DTYPE MAX_REGISTERS -DBM=... (the default's defines)
set -u
nvcc=$1 kernels=$2 out_dir=$3 dtype=$4 most_allowed=$5
shift 5
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/expect.sh"

out=$("$nvcc" -cubin -arch=sm_90 -Xptxas -v -Xptxas -warn-spills -Xptxas -Werror -DDTYPE="$dtype" "$@" \
  -I "$kernels" "$kernels/warptile.cu" -o "$out_dir/warptile_$dtype.cubin" 2>&1)
status=$?
expect_status "$dtype: assembles for sm_90 without spills" $status 0
[ "$status" = 0 ] || echo "$out"
grep -E 'Compiling entry|Used [0-9]+ registers' <<<"$out"
counts=$(grep -oE 'Used [0-9]+ registers' <<<"$out" | grep -oE '[0-9]+')
expect_status "$dtype: eight kernels report their registers" "$(grep -c . <<<"$counts")" 8
most=$(sort -n <<<"$counts" | tail -1)
expect_status "$dtype: at most $most_allowed registers (the most: ${most:-none})" \
  "$([ -n "$most" ] && [ "$most" -le "$most_allowed" ] && echo 1 || echo 0)" 1
finish
