/* The blocked kernel (kernels/opencl/blocked.cl): its parameters and launch
 * shape, with the K step local memory allows. */
#ifndef GH_OPENCL_BLOCKED_H
#define GH_OPENCL_BLOCKED_H

#include <stdint.h>
#include <gemmhost/plugin.h>

struct ocl_variant;

enum { OCL_BLOCKED_TILE, OCL_BLOCKED_WORK, OCL_BLOCKED_PARAMS };
extern const gh_param_info ocl_blocked_params[OCL_BLOCKED_PARAMS];

/* (tile / work)^2 work-items; the K step (depth) 16, or 8 where the
 * device's local memory (local_mem_bytes, 0: unknown) holds only that. */
void ocl_blocked_shape(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

#endif
