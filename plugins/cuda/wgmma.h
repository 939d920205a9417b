/*
 * What the wgmma kernel (kernels/cuda/wgmma.cu) needs from the host: a
 * Hopper device, operands TMA can read in place, and the two tensor maps
 * that describe op(A) and op(B) to it.
 */
#ifndef GH_CUDA_WGMMA_H
#define GH_CUDA_WGMMA_H

#include <stddef.h>

#include "kernels.h"
#include "state.h"

/* 1 when dev and the request's layout suit wgmma; 0 with the rule they
 * break in why: compute capability 9.0 (sm_90a's wgmma and setmaxnreg),
 * A and B 16-byte aligned with rows of whole 16 bytes (TMA), and in f32
 * (TF32) op(A) and op(B) both K-major, i.e. trans nt. */
int gh_cuda_wgmma_layout_fits(const gh_cuda_device *dev, const gh_gemm_args *a, char *why, size_t why_size);

/* 1 when the driver can launch variant v: cluster 2 needs cuLaunchKernelEx
 * (CUDA 11.8); 0 with the reason in why. */
int gh_cuda_wgmma_cluster_fits(const gh_cu_api *cu, const gh_cuda_variant *v, char *why, size_t why_size);

/* Encodes the tensor maps of op(A) and op(B) for variant v: BM (or BN, or
 * BN / 2 with cluster 2) rows of one 128-byte swizzle row of K where the
 * operand is K-major, else pieces of 64 M (or N) by the same K, zero-filled
 * past the edges. */
gh_status gh_cuda_wgmma_maps(gh_plugin *ctx, const gh_gemm_args *a, const gh_cuda_variant *v, CUtensorMap *map_a,
                             CUtensorMap *map_b);

#endif
