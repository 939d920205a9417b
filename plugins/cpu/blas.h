/* The `blas` kernel: the system's CBLAS (OpenBLAS on Debian, or the library
 * the `blas` option names), loaded at run time so the plugin works where
 * none is installed and says so. It is the CPU baseline the C and PoCL
 * kernels are compared with. */
#ifndef GEMMHOST_CPU_BLAS_H
#define GEMMHOST_CPU_BLAS_H

#include "state.h"

/* Runs C = alpha op(A) op(B) + beta C (f32 or f64) on the context's threads
 * and times it; GH_UNSUPPORTED (with the reason) where no CBLAS loads or a
 * size exceeds CBLAS's int. Loads the library at the first call. */
gh_status cpu_gemm_blas(gh_plugin *ctx, const gh_gemm_args *g, double *elapsed_ms);

/* Unloads what cpu_gemm_blas loaded. */
void cpu_blas_close(cpu_blas *blas);

#endif
