#!/usr/bin/env bash
# cuda_kernel_ptxas_wgmma_<case>: kernels/cuda/wgmma.cu with one variant's
# defines, assembled for sm_90a (what NVRTC builds for the H100 and H200)
# with spills as errors, and no "wgmma.mma_async instructions are
# serialized" from ptxas (C7514, C7518...: info lines that -Werror lets
# through): ptxas waits for every wgmma when it cannot prove that the
# accumulators a non-wgmma instruction reads are done, e.g. promote's adds
# reading a narrow sum a loop-carried wgmma still writes. The kernel stays
# correct, it only loses its overlap, so nothing else catches it without a
# GPU.
# Usage: test_wgmma_ptxas.sh NVCC KERNEL_DIR GENERATED_DIR OUT_DIR NAME -DDTYPE=... (the variant's defines)
set -u
nvcc=$1 kernels=$2 generated=$3 out_dir=$4 name=$5
shift 5
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/expect.sh"
. "$src/tests/cuda/wgmma_ptxas_checks.sh"

out=$("$nvcc" -cubin -arch=sm_90a -Xptxas -v -Xptxas -warn-spills -Xptxas -Werror "$@" -I "$kernels" -I "$generated" \
  "$kernels/wgmma.cu" -o "$out_dir/wgmma_$name.cubin" 2>&1)
expect_ptxas_clean "$name" $? "$out"
finish
