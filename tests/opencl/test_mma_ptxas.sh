#!/usr/bin/env bash
# opencl_mma_ptxas: kernels/opencl/mma.cl's inline PTX assembles (clang to
# PTX for NVIDIA's OpenCL target, then ptxas for sm_90, through
# tools/ocl_ptxas.sh) in every dtype, transpose and copy path, without
# spilling: the check CI can make of a kernel only NVIDIA's OpenCL runs.
# CI assembles the default in each dtype (i8 x i8 -> i32 too, and i8 for
# sm_80 as well: m16n8k32.s8 is Ampere's); with `full` (ctest's
# opencl_mma_ptxas_full, label full-sweep) the other variants it checks.
# Usage: test_mma_ptxas.sh SOURCE_DIR [full]. Exit 77: no clang or no ptxas.
set -u
src=$1 full=${2:-}
. "$src/tests/expect.sh"

. "$src/tests/opencl/ptxas_tools.sh"

sm80=()
if [ "$full" = full ]; then
  # 4 stages 16 deep in f16 (tests/opencl/mma.ini's), and 32 deep in i8.
  variants=(f16:BM=64,BN=64,BK=16,WM=32,WN=32,STAGES=4 i8:BM=64,BN=64,BK=32,WM=32,WN=32,STAGES=4)
else
  # The default in 16 bits and i8 (32 deep, 2 stages) and f32 as built (16 deep).
  variants=(f16:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2 bf16:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2
    f32:BM=128,BN=128,BK=16,WM=64,WN=64,STAGES=2 i8:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2)
  sm80=(i8:BM=128,BN=128,BK=32,WM=64,WN=64,STAGES=2)
fi
out=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" "${variants[@]}" 2>&1)
expect_status "every variant and path assembles (sm_90)" $? 0
if [ ${#sm80[@]} -gt 0 ]; then
  out80=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" -a sm_80 "${sm80[@]}" 2>&1)
  expect_status "i8 assembles for sm_80" $? 0
  out+=$'\n'"sm_80 $out80"
fi
echo "$out"
expect_status "${#variants[@]} + ${#sm80[@]} variants of eight paths each" \
  "$(grep -c 'registers by path ([^)]*):\( [0-9]*\)\{8\};' <<<"$out")" $((${#variants[@]} + ${#sm80[@]}))
expect_status "no path spills" "$(grep -c 'SPILLS' <<<"$out")" 0
finish
