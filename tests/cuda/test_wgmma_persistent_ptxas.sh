#!/usr/bin/env bash
# cuda_kernel_ptxas_wgmma_persistent_<case>: kernels/cuda/wgmma.cu with one
# variant's defines and PERSISTENT 1 (a block walking tile after tile),
# assembled for sm_90a with spills as errors and no wgmma serialised by
# ptxas (see test_wgmma_ptxas.sh), its PTX reading the grid's size
# (%nctaid.x: the step from one tile of a block to its next); with
# PERSISTENT 0 the PTX does not (the tile loop compiled away, a block per
# tile as before). Compiled only: running it needs an H100 (cuda_plugin).
# Usage: test_wgmma_persistent_ptxas.sh NVCC KERNEL_DIR GENERATED_DIR OUT_DIR NAME -DDTYPE=... (the variant's defines)
set -u
nvcc=$1 kernels=$2 generated=$3 out_dir=$4 name=$5
shift 5
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/expect.sh"
. "$src/tests/cuda/wgmma_ptxas_checks.sh"
ptxas="$(dirname "$nvcc")/ptxas"

for persistent in 0 1; do
  base="$out_dir/wgmma_persistent${persistent}_$name"
  "$nvcc" -ptx -arch=sm_90a "$@" -DPERSISTENT=$persistent -I "$kernels" -I "$generated" "$kernels/wgmma.cu" \
    -o "$base.ptx" 2>&1
  expect_status "$name persistent $persistent: compiles to PTX for sm_90a" $? 0
  grid_reads=$(grep -c "%nctaid.x" "$base.ptx")
  if [ "$persistent" = 1 ]; then
    expect_status "$name persistent 1: the PTX reads the grid's size (the tiles' stride)" \
      "$([ "$grid_reads" -gt 0 ] && echo 1 || echo 0)" 1
  else
    expect_status "$name persistent 0: the PTX does not read the grid's size (one tile a block)" "$grid_reads" 0
  fi
done

# The persistent one through ptxas, as NVRTC would assemble it.
out=$("$ptxas" -arch=sm_90a -v -warn-spills -Werror "$base.ptx" -o "$base.cubin" 2>&1)
expect_ptxas_clean "$name persistent 1" $? "$out"
finish
