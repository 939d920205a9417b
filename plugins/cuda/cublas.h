/* The legacy cuBLAS API on a device's primary context: what the cublas
 * kernels run when libcublasLt is missing (cublaslt.h). */
#ifndef GH_CUDA_CUBLAS_H
#define GH_CUDA_CUBLAS_H

#include "state.h"

/* Queues args (already checked by gemm()) on dev, current on this thread,
 * through the handle *handle, which is bound to `stream` (created on it when
 * NULL; each stream has its own, so that no two streams share a cuBLAS
 * workspace). t, when not NULL, times the call (gate.h).
 * variant (GH_CUDA_BLAS_*, checked by the caller against the dtype and
 * device): SGEMM, DGEMM, f16 and bf16 through cublasGemmEx with f32
 * compute; TF32: f32 through cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32;
 * strict: no reduced-precision split-K sums. */
gh_status gh_cuda_cublas_enqueue(gh_plugin *ctx, gh_cuda_device *dev, cublasHandle_t *handle, CUstream stream,
                                 int variant, const gh_gemm_args *args, const gh_cuda_timed *t);

/* Destroys *handle if set (dev's context current) and clears it. */
void gh_cuda_cublas_destroy(const gh_cuda_device *dev, cublasHandle_t *handle);

#endif
