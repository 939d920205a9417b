/* The cublas kernel: cuBLAS SGEMM/DGEMM on the device's primary context and stream. */
#ifndef GH_CUDA_CUBLAS_H
#define GH_CUDA_CUBLAS_H

#include "cuda_plugin.h"

/* Runs args (already checked by gemm()) on dev, current on this thread, and
 * times it with events; *ms is the kernel time. */
gh_status gh_cuda_cublas_gemm(gh_plugin *ctx, gh_cuda_device *dev, const gh_gemm_args *args, double *ms);

/* Destroys dev's cuBLAS handle, if it has one (its context current). */
void gh_cuda_cublas_release(gh_plugin *ctx, gh_cuda_device *dev);

#endif
