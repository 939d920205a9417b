/* Programs built on first use, one per (kernel, dtype, variant) and device,
 * kept until close: building is slow (a second or more on PoCL), launching a
 * built kernel is not. */
#ifndef GH_OPENCL_COMPILE_H
#define GH_OPENCL_COMPILE_H

#include <gemmhost/plugin_helpers.h>
#include "state.h"

/* The cl_kernel of `kernel` for dtype and variant v on dev, building it if
 * needed; *slot_out (may be NULL) is its cache slot, whose compiler_info says
 * what the compiler reported about it. A build failure is GH_ERROR with the
 * compiler's log in last_error(), its positions given as file:line.
 *
 * GEMMHOST_OPENCL_BUILD_LOG=1 in the environment prints every build's
 * options and log to stderr (on NVIDIA, with ptxas's register and spill
 * counts). */
gh_status ocl_program_get(const gh_plugin *ctx, ocl_device *dev, int kernel, const gh_plugin_gemm_types *types,
                          const ocl_variant *v, cl_kernel *out, const ocl_program_slot **slot_out);

void ocl_programs_release(ocl_device *dev);

#endif
