#!/usr/bin/env bash
# opencl_wgmma_ptxas: kernels/opencl/wgmma.cl assembles for sm_90a after the
# plugin's rewrite (clang to PTX for NVIDIA's OpenCL target, the "//SM90A "
# marks dropped and the target made sm_90a, then ptxas; tools/ocl_ptxas.sh),
# in both dtypes, every transpose and copy path of three variants, with its
# wgmma.mma_async (one per k16 of a step) in every program and no spills: the check CI
# can make of a kernel only a Hopper runs.
# Usage: test_wgmma_ptxas.sh SOURCE_DIR. Exit 77: no clang or no ptxas.
set -u
src=$1
. "$src/tests/expect.sh"

. "$src/tests/opencl/ptxas_tools.sh"

out=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" -k wgmma 2>&1)
expect_status "every variant and path assembles for sm_90a" $? 0
echo "$out"
expect_status "six variants of eight paths each" "$(grep -c 'registers by path ([^)]*):\( [0-9]*\)\{8\};' <<<"$out")" 6
expect_status "two wgmma.mma_async a step 32 deep (two k16) in all 32 of its programs" \
  "$(grep 'BK=32' <<<"$out" | grep -c 'wgmma.mma_async by path: 2 2 2 2 2 2 2 2$')" 4
expect_status "one a step 16 deep in all 16 of its programs" \
  "$(grep 'BK=16' <<<"$out" | grep -c 'wgmma.mma_async by path: 1 1 1 1 1 1 1 1$')" 2
expect_status "no path spills" "$(grep -c 'SPILLS' <<<"$out")" 0
finish
