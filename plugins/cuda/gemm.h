/* gemm(): argument checks, the launch (a source kernel or cuBLAS), timing. */
#ifndef GH_CUDA_GEMM_H
#define GH_CUDA_GEMM_H

#include "state.h"

/* Everything about a GEMM request that the host side can check, for the
 * call named `call`: the device, the kernel, the arguments, the parameters
 * (their variant into *variant), and that A, B and C lie inside their
 * buffers, all on `device`. */
gh_status gh_cuda_gemm_check(gh_plugin *ctx, const char *call, int device, int kernel, const gh_gemm_args *args,
                             gh_cuda_variant *variant);

/* Queues a checked GEMM on `stream` of dev (current on this thread),
 * gh_cuda_launches(t) times back to back, timed by t's events when it has
 * them (gate.h). cuBLAS runs with the stream's *blas (cublaslt.h). report
 * (may be NULL) receives a sentence for the result ("" from the source
 * kernels) and the split of K cuBLASLt made. A request over one of the
 * device's limits returns GH_UNSUPPORTED, naming it, with nothing queued. */
gh_status gh_cuda_gemm_enqueue(gh_plugin *ctx, gh_cuda_device *dev, int kernel, const gh_gemm_args *args,
                               const gh_cuda_variant *variant, CUstream stream, gh_cuda_blas *blas,
                               const gh_cuda_timed *t, gh_cuda_report *report);

/* gemm(): the blocking call, on the device's own stream. */
gh_status gh_cuda_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing);

#endif
