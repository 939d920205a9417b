/* Programs built on first use, one per (kernel, dtype, build-time parameter)
 * and device, kept until close: building is slow (a second or more on PoCL),
 * launching a built kernel is not. */
#ifndef GH_OPENCL_PROGRAMS_H
#define GH_OPENCL_PROGRAMS_H

#include "plugin_state.h"

/* The cl_kernel of `kernel` for dtype and edge on dev (edge must be one of the
 * kernel's allowed values), building it if needed. A build failure is
 * GH_ERROR with the compiler's log in last_error(). */
gh_status ocl_program_get(const gh_plugin *ctx, ocl_device *dev, int kernel, gh_dtype dtype,
                          int64_t edge, cl_kernel *out);

void ocl_programs_release(ocl_device *dev);

#endif
