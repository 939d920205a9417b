#!/usr/bin/env bash
# opencl_wgmma_ptxas: kernels/opencl/wgmma.cl assembles for sm_90a after the
# plugin's rewrite (clang to PTX for NVIDIA's OpenCL target, the "//SM90A "
# marks dropped and the target made sm_90a, then ptxas; tools/ocl_ptxas.sh),
# in both dtypes, every transpose and copy path, with its wgmma.mma_async
# (one per k16 of a step) in every program and no spills: the check CI can
# make of a kernel only a Hopper runs. CI assembles the default (128 x 128,
# 32 deep, 3 stages) in f16 and bf16; with `full` (ctest's
# opencl_wgmma_ptxas_full, label full-sweep) the other two variants of
# tools/ocl_ptxas.sh's wgmma set (tests/opencl/wgmma.ini's), in both.
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
deep=$(printf '%s\n' "${variants[@]}" | grep -c 'BK=32') shallow=$(printf '%s\n' "${variants[@]}" | grep -c 'BK=16')
out=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" -k wgmma "${variants[@]}" 2>&1)
expect_status "every variant and path assembles for sm_90a" $? 0
echo "$out"
expect_status "${#variants[@]} variants of eight paths each" \
  "$(grep -c 'registers by path ([^)]*):\( [0-9]*\)\{8\};' <<<"$out")" ${#variants[@]}
expect_status "two wgmma.mma_async a step 32 deep (two k16) in all $((8 * deep)) of its programs" \
  "$(grep 'BK=32' <<<"$out" | grep -c 'wgmma.mma_async by path: 2 2 2 2 2 2 2 2$')" "$deep"
expect_status "one a step 16 deep in all $((8 * shallow)) of its programs" \
  "$(grep 'BK=16' <<<"$out" | grep -c 'wgmma.mma_async by path: 1 1 1 1 1 1 1 1$')" "$shallow"
expect_status "no path spills" "$(grep -c 'SPILLS' <<<"$out")" 0
finish
