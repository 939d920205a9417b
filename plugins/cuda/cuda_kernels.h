/* The naive and tiled kernels: launch geometry, device limits, launch, timing. */
#ifndef GH_CUDA_KERNELS_H
#define GH_CUDA_KERNELS_H

#include "cuda_plugin.h"

/* Runs args (already checked by gemm()) with kernel GH_CUDA_NAIVE or
 * GH_CUDA_TILED on dev, current on this thread. tile is the tiled kernel's
 * parameter (ignored by naive). A tile over the device's limits is
 * GH_UNSUPPORTED before anything is launched. *ms is the kernel time. */
gh_status gh_cuda_kernel_gemm(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *args,
                              int64_t tile, double *ms);

#endif
