/*
 * The naive, tiled, blocked and warptile kernels built: their sources (sources.h)
 * compiled with NVRTC for the device's own architecture, loaded as modules
 * and cached per (device, kernel, dtype, variant).
 */
#ifndef GH_CUDA_COMPILE_H
#define GH_CUDA_COMPILE_H

#include <stddef.h>

#include "state.h"

/* The loaded kernel for (kernel, dtype, variant) on dev, which must be
 * current; compiled and loaded on first use. kernel is a source kernel
 * (GH_CUDA_NAIVE, GH_CUDA_TILED, GH_CUDA_BLOCKED, GH_CUDA_WARPTILE; a
 * warptile variant must fit, gh_cuda_warptile_fits). */
gh_status gh_cuda_get_kernel(gh_plugin *ctx, gh_cuda_device *dev, int kernel, gh_cuda_types types,
                             const gh_cuda_variant *variant, gh_cuda_module **out);

/* Unloads every module of dev (its context current). */
void gh_cuda_modules_release(gh_plugin *ctx, gh_cuda_device *dev);

/* Compiles one kernel for sm_<cc_major><cc_minor> into a CUBIN (malloc'd,
 * the caller frees). A compile failure returns GH_ERROR with NVRTC's log. */
gh_status gh_cuda_compile(const gh_plugin *ctx, int kernel, gh_cuda_types types, const gh_cuda_variant *variant,
                          int cc_major, int cc_minor, void **cubin, size_t *cubin_size);

/* The get_proc extra GEMMHOST_CUDA_COMPILE_ALL: every kernel, dtype and
 * variant that fits CUDA's 1024 threads per block (warptile: its
 * gh_cuda_warptile_samples in f32 and bf16, its default in f64 and f16),
 * and every 8-bit combination a kernel lists, compiled for the given
 * architecture with no device needed. */
gh_status gh_cuda_compile_all(gh_plugin *ctx, int cc_major, int cc_minor);

/* The get_proc extra GEMMHOST_CUDA_COMPILE: one variant of one source
 * kernel in one dtype, its arguments checked as gemm() checks them. */
gh_status gh_cuda_compile_one(gh_plugin *ctx, int kernel, gh_dtype dtype, const int64_t *params, size_t n_params,
                              int cc_major, int cc_minor);
/* The get_proc extra GEMMHOST_CUDA_COMPILE_TYPES: the same for A, B and C
 * of types a, b, c (a combination the kernel lists, or one dtype of its
 * mask). */
gh_status gh_cuda_compile_types(gh_plugin *ctx, int kernel, gh_dtype a, gh_dtype b, gh_dtype c, const int64_t *params,
                                size_t n_params, int cc_major, int cc_minor);

#endif
