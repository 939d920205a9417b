/*
 * Extras of the CUDA plugin that are not in the ABI, fetched by name through
 * gh_plugin_api.get_proc (NULL from any other plugin).
 */
#ifndef GEMMHOST_CUDA_EXTRAS_H
#define GEMMHOST_CUDA_EXTRAS_H

#include "gemmhost/plugin.h"

/* gh_status compile_all(gh_plugin *ctx, int cc_major, int cc_minor):
 * compiles every kernel the plugin builds at run time (naive; tiled at every
 * tile; blocked at every tile and work whose (tile / work)^2 threads fit
 * CUDA's 1024 per block; warptile at sample parameter sets, its space being
 * thousands) for every dtype with NVRTC for compute capability
 * cc_major.cc_minor, from the context's kernel sources, and loads nothing.
 * No driver or device is needed, so a machine without a GPU tests the
 * run-time compile path. GH_OK, or the first failure with NVRTC's log in
 * last_error(ctx); GH_UNSUPPORTED when NVRTC itself is missing. */
#define GEMMHOST_CUDA_COMPILE_ALL "gemmhost_cuda_compile_all"
typedef gh_status (*gemmhost_cuda_compile_all_fn)(gh_plugin *ctx, int cc_major, int cc_minor);

/* gh_status compile(gh_plugin *ctx, int kernel, gh_dtype dtype,
 *                   const int64_t *params, size_t n_params,
 *                   int cc_major, int cc_minor):
 * compiles one variant of one kernel built at run time (naive, tiled,
 * blocked or warptile, by kernel_info index; params as gemm() takes them;
 * a warptile set that cannot fit is GH_UNSUPPORTED, saying why) in one dtype
 * with NVRTC for compute capability cc_major.cc_minor, the same way gemm()
 * does, and loads nothing: no driver or device needed. GH_OK, or the
 * failure with NVRTC's log; GH_INVALID_ARGUMENT for a kernel that is not
 * compiled (cublas), a dtype outside its mask or a parameter not allowed;
 * GH_UNSUPPORTED when NVRTC itself is missing. */
#define GEMMHOST_CUDA_COMPILE "gemmhost_cuda_compile"
typedef gh_status (*gemmhost_cuda_compile_fn)(gh_plugin *ctx, int kernel, gh_dtype dtype, const int64_t *params,
                                              size_t n_params, int cc_major, int cc_minor);

/* gh_status compile_types(gh_plugin *ctx, int kernel, gh_dtype a, gh_dtype b,
 *                         gh_dtype c, const int64_t *params, size_t n_params,
 *                         int cc_major, int cc_minor):
 * the compile extra for A, B and C of their own types: one of the kernel's
 * type combinations (e.g. e4m3 x e5m2 -> bf16, i8 x i8 -> i32), or a, b and
 * c all one dtype of its mask. Refuses as compile does; a combination the
 * kernel does not list is GH_INVALID_ARGUMENT. */
#define GEMMHOST_CUDA_COMPILE_TYPES "gemmhost_cuda_compile_types"
typedef gh_status (*gemmhost_cuda_compile_types_fn)(gh_plugin *ctx, int kernel, gh_dtype a, gh_dtype b, gh_dtype c,
                                                    const int64_t *params, size_t n_params, int cc_major, int cc_minor);

#endif
