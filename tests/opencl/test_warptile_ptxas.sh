#!/usr/bin/env bash
# opencl_warptile_ptxas: kernels/opencl/warptile.cl at its default, in f32,
# f16 and bf16, and its cp.async programs (GH_NV_ASYNC: inline PTX) for the
# four transpose pairs in f32 (with GH_NV_REGISTER_CAP: the late barrier)
# and two in f64 (the order before), compiled offline for NVIDIA's
# OpenCL target and assembled for sm_90 (tools/ocl_ptxas.sh): its staged
# tiles stay in registers (no stack frame) and it needs few enough
# registers for two work-groups of 256 per multiprocessor, or close: NVIDIA's compiler gave 128 where this
# proxy gives 130, and the loads with an address per piece took 185 there
# (167 here, with a stack frame), one work-group and 0.65 of cuBLAS.
# Usage: test_warptile_ptxas.sh SOURCE_DIR. Exit 77: no clang or no ptxas.
set -u
src=$1
. "$src/tests/expect.sh"

. "$src/tests/opencl/ptxas_tools.sh"

out=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" -k warptile 2>&1)
expect_status "the default assembles in f32, f16 and bf16, and f32's cp.async programs" $? 0
echo "$out"
expect_status "seven variants, none with a stack frame" "$(grep -c ' 0 bytes stack frame' <<<"$out")" 7
expect_status "the four cp.async programs among them, with the late barrier's define" "$(grep -c 'GH_NV_ASYNC=[1-4],GH_NV_REGISTER_CAP=128:' <<<"$out")" 4
most=$(grep -o 'Used [0-9]* registers' <<<"$out" | grep -o '[0-9]*' | sort -n | tail -1)
expect_status "at most 136 registers (the most: ${most:-none})" "$([ -n "$most" ] && [ "$most" -le 136 ] && echo 1 || echo 0)" 1
# f64's cp.async programs (bk 8: NVIDIA's 48 KB) for nn (8-byte element
# copies) and tn (16-byte pieces); f64 holds twice the registers, so no
# bound here.
d64=BM=128,BN=128,BK=8,WM=64,WN=32,TM=8,TN=8
out64=$(PTXAS=$ptxas bash "$src/tools/ocl_ptxas.sh" -k warptile f64:$d64,GH_NV_ASYNC=1 f64:$d64,GH_NV_ASYNC=2 2>&1)
expect_status "f64's nn and tn cp.async programs assemble" $? 0
echo "$out64"
expect_status "without a stack frame" "$(grep -c ' 0 bytes stack frame' <<<"$out64")" 2
finish
