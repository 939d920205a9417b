/* One GEMM: check the request, refuse what the device cannot run, launch,
 * wait, and read the kernel's time from its profiling event (clblast: from
 * markers around the library's call, clblast.h). */
#ifndef GH_OPENCL_GEMM_H
#define GH_OPENCL_GEMM_H

#include "state.h"

gh_status ocl_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing);

#endif
