#!/usr/bin/env bash
# cuda_kernel_ptxas_wgmma_cluster_<types>: kernels/cuda/wgmma.cu at its
# default shape with CLUSTER 2 (pairs of blocks sharing B through TMA
# multicast), assembled for sm_90a with spills as errors, its PTX holding
# what the pairing needs (the multicast copy, the remote arrival through
# mapa, the cluster barrier); and with CLUSTER 1 none of them (each block
# alone, as before). Compiled only: running it needs an H100 (cuda_plugin).
# Usage: test_wgmma_cluster_ptxas.sh NVCC KERNEL_DIR GENERATED_DIR OUT_DIR NAME -DDTYPE=... (the type defines)
set -u
nvcc=$1 kernels=$2 generated=$3 out_dir=$4 name=$5
shift 5
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/expect.sh"

shape=(-DBM=128 -DBN=256 -DSTAGES=4 -DPROMOTE=0 -DPERSISTENT=0)
for cluster in 1 2; do
  base="$out_dir/wgmma_cluster${cluster}_$name"
  out=$("$nvcc" -cubin -arch=sm_90a -Xptxas -v -Xptxas -warn-spills -Xptxas -Werror "$@" "${shape[@]}" \
    -DCLUSTER=$cluster -I "$kernels" -I "$generated" "$kernels/wgmma.cu" -o "$base.cubin" 2>&1)
  status=$?
  expect_status "$name cluster $cluster: assembles for sm_90a without spills" $status 0
  [ "$status" = 0 ] || echo "$out"
  grep -E 'Compiling entry|Used [0-9]+ registers|spill' <<<"$out"
  "$nvcc" -ptx -arch=sm_90a "$@" "${shape[@]}" -DCLUSTER=$cluster -I "$kernels" -I "$generated" \
    "$kernels/wgmma.cu" -o "$base.ptx" 2>&1
  for instruction in "multicast::cluster" "mapa.shared::cluster" "barrier.cluster.wait"; do
    count=$(grep -c -- "$instruction" "$base.ptx")
    if [ "$cluster" = 2 ]; then
      expect_status "$name cluster 2: the PTX has $instruction" "$([ "$count" -gt 0 ] && echo 1 || echo 0)" 1
    else
      expect_status "$name cluster 1: the PTX has no $instruction" "$count" 0
    fi
  done
done
finish
