/* The cublas and cublas-tf32 kernels: cuBLAS on a device's primary context. */
#ifndef GH_CUDA_CUBLAS_H
#define GH_CUDA_CUBLAS_H

#include "state.h"

/* Queues args (already checked by gemm()) on dev, current on this thread,
 * through the handle *handle, which is bound to `stream` (created on it when
 * NULL; each stream has its own, so that no two streams share a cuBLAS
 * workspace). t, when not NULL, times the call (gate.h).
 * tf32 0: the cublas kernel (SGEMM, DGEMM; f16 and bf16 through
 * cublasGemmEx with f32 compute); 1: cublas-tf32 (f32 on TF32 tensor cores,
 * GH_UNSUPPORTED below compute capability 8.0, which has none). */
gh_status gh_cuda_cublas_enqueue(gh_plugin *ctx, gh_cuda_device *dev, cublasHandle_t *handle, CUstream stream, int tf32,
                                 const gh_gemm_args *args, const gh_cuda_timed *t);

/* Destroys *handle if set (dev's context current) and clears it. */
void gh_cuda_cublas_destroy(const gh_cuda_device *dev, cublasHandle_t *handle);

#endif
