/* The naive, tiled and blocked kernels: launch geometry, device limits, launch. */
#ifndef GH_CUDA_KERNELS_H
#define GH_CUDA_KERNELS_H

#include "state.h"

/* Queues args (already checked by gemm()) with kernel GH_CUDA_NAIVE,
 * GH_CUDA_TILED or GH_CUDA_BLOCKED in the given variant on `stream` of dev,
 * current on this thread, between the events start and stop when they are
 * not NULL. A variant over the device's limits (threads or shared memory per
 * block, grid size) is GH_UNSUPPORTED, naming the limit, before anything is
 * compiled or queued. */
gh_status gh_cuda_kernel_enqueue(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *args,
                                 const gh_cuda_variant *variant, CUstream stream, CUevent start, CUevent stop);

/* What the blocked kernel needs, as blocked.cu computes it: its step along K
 * for a dtype, and its static shared memory in bytes. */
int gh_cuda_blocked_depth(gh_dtype dtype);
long long gh_cuda_blocked_shared_bytes(gh_dtype dtype, int64_t tile);

#endif
