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
 * CUDA's 1024 per block) for every dtype with NVRTC for compute capability
 * cc_major.cc_minor, from the context's kernel sources, and loads nothing.
 * No driver or device is needed, so a machine without a GPU tests the
 * run-time compile path. GH_OK, or the first failure with NVRTC's log in
 * last_error(ctx); GH_UNSUPPORTED when NVRTC itself is missing. */
#define GEMMHOST_CUDA_COMPILE_ALL "gemmhost_cuda_compile_all"
typedef gh_status (*gemmhost_cuda_compile_all_fn)(gh_plugin *ctx, int cc_major, int cc_minor);

#endif
