/* The naive kernel (kernels/opencl/naive.cl): its parameter and launch shape. */
#ifndef GH_OPENCL_NAIVE_H
#define GH_OPENCL_NAIVE_H

#include <stdint.h>
#include <gemmhost/plugin.h>

struct ocl_variant;

enum { OCL_NAIVE_WG, OCL_NAIVE_PARAMS };
extern const gh_param_info ocl_naive_params[OCL_NAIVE_PARAMS];

/* wg x wg work-items, one per element of C. */
void ocl_naive_shape(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

#endif
