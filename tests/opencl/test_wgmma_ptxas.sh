#!/usr/bin/env bash
# opencl_wgmma_ptxas: kernels/opencl/wgmma.cl assembles for sm_90a after the
# plugin's rewrite (clang to PTX for NVIDIA's OpenCL target, the "//SM90A "
# marks dropped and the target made sm_90a, then ptxas; tools/ocl_ptxas.sh),
# in f16, bf16 and 8 bits, every transpose and copy path, with its
# wgmma.mma_async (one per k16 of a step, k32 in 8 bits) in every program
# and no spills: the check CI can make of a kernel only a Hopper runs. CI
# assembles the default (128 x 128, 32 deep, 3 stages) in f16, bf16, e4m3
# and i8, and e4m3*e5m2->bf16 64 deep; with `full` (ctest's
# opencl_wgmma_ptxas_full, label full-sweep) the other two variants of
# tools/ocl_ptxas.sh's wgmma set (tests/opencl/wgmma.ini's) in f16 and bf16,
# and three more 8-bit ones.
# Usage: test_wgmma_ptxas.sh SOURCE_DIR [full]. Exit 77: no clang or no ptxas.
set -u
src=$1 full=${2:-}
. "$src/tests/expect.sh"

. "$src/tests/opencl/ptxas_tools.sh"

variants=()
for t in f16 bf16; do
  if [ "$full" = full ]; then
    variants+=($t:BM=128,BN=256,BK=16,STAGES=4 $t:BM=64,BN=64,BK=32,STAGES=4)
  else
    variants+=($t:BM=128,BN=128,BK=32,STAGES=3)
  fi
done
# 8 bits: the default in e4m3 and i8 (one k32 a step), and 64 deep (two) for
# a mixed FP8 pair into bf16; with `full`, the other FP8 pairs and C types.
if [ "$full" = full ]; then
  variants+=('e5m2*e4m3->f16:BM=128,BN=256,BK=64,STAGES=2' 'e5m2*e5m2:BM=64,BN=64,BK=32,STAGES=4'
    i8:BM=128,BN=256,BK=64,STAGES=2)
else
  variants+=(e4m3:BM=128,BN=128,BK=32,STAGES=3 i8:BM=128,BN=128,BK=32,STAGES=3
    'e4m3*e5m2->bf16:BM=128,BN=128,BK=64,STAGES=3')
fi
out=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" -k wgmma "${variants[@]}" 2>&1)
expect_status "every variant and path assembles for sm_90a" $? 0
echo "$out"
expect_status "${#variants[@]} variants of eight paths each" \
  "$(grep -c 'registers by path ([^)]*):\( [0-9]*\)\{8\};' <<<"$out")" ${#variants[@]}
# One wgmma.mma_async per instruction of a step in each of the eight
# programs: BK / 16 for f16 and bf16, BK / 32 for 8 bits.
for v in "${variants[@]}"; do
  bk=${v#*BK=} bk=${bk%%,*} per=16
  case $v in e4m3* | e5m2* | i8*) per=32 ;; esac
  n=$((bk / per))
  line=$(grep -F "$v:" <<<"$out")
  expect_in "$v: $n wgmma.mma_async a step in every path" "$line" \
    "wgmma.mma_async by path: $n $n $n $n $n $n $n $n"
done
expect_status "no path spills" "$(grep -c 'SPILLS' <<<"$out")" 0
finish
