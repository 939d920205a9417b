/* One GEMM: check the arguments, bind the matrices, dispatch, time. */
#ifndef GH_VULKAN_GEMM_H
#define GH_VULKAN_GEMM_H

#include "gemmhost/plugin.h"

/* The api's gemm. */
gh_status vkp_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing);

#endif
