/* The cublas, cublas-tf32 and cublas-strict kernels: cuBLAS as an ordinary
 * user gets it, through cuBLASLt (as PyTorch calls it).
 *
 * Per case (shape, dtype, transposes, leading dimensions, alignment), on its
 * first run: cuBLASLt's heuristic proposes up to GH_CUDA_LT_CANDIDATES
 * algorithms for a GH_CUDA_LT_WORKSPACE workspace; each is timed on a
 * scratch copy of C, outside the caller's timed region, and the fastest is
 * kept for the device for the rest of the run and named in the result's
 * note. Without libcublasLt the legacy cuBLAS API runs instead, and the note
 * says so. */
#ifndef GH_CUDA_CUBLASLT_H
#define GH_CUDA_CUBLASLT_H

#include <stddef.h>

#include "state.h"

/* 32 MiB: what PyTorch gives cuBLAS(Lt) on Hopper. */
#define GH_CUDA_LT_WORKSPACE   ((size_t)32 << 20)
#define GH_CUDA_LT_CANDIDATES  8
#define GH_CUDA_LT_SELECT_RUNS 3 /* timed runs per candidate, after one untimed */

/* Queues args (checked by gemm()) on dev, current on this thread, on
 * `stream` with slot's workspace (made on first use: each stream has its
 * own), gh_cuda_launches(t) times, timed by t's events when it has them.
 * variant: GH_CUDA_BLAS_*. report (may be NULL) receives the sentence for
 * the result (the algorithm kept and how it was chosen) and the split of K
 * it makes in C's type, if any. */
gh_status gh_cuda_blas_enqueue(gh_plugin *ctx, gh_cuda_device *dev, gh_cuda_blas *slot, CUstream stream, int variant,
                               const gh_gemm_args *args, const gh_cuda_timed *t, gh_cuda_report *report);

/* Frees a slot's workspace and legacy handle (dev's context current, the
 * stream idle). */
void gh_cuda_blas_release(gh_plugin *ctx, const gh_cuda_device *dev, gh_cuda_blas *slot);
/* Frees the device's cuBLASLt handle and its cached choices. */
void gh_cuda_blas_device_release(gh_cuda_device *dev);

#endif
