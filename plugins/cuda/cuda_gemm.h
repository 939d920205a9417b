/* The kernels this plugin offers, and gemm(): argument checks and dispatch. */
#ifndef GH_CUDA_GEMM_H
#define GH_CUDA_GEMM_H

#include "cuda_plugin.h"

extern const gh_kernel_info gh_cuda_kernel_infos[GH_CUDA_KERNEL_COUNT];

gh_status gh_cuda_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing);

#endif
