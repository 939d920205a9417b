/* The tiled kernel (kernels/opencl/tiled.cl): its parameter and launch shape. */
#ifndef GH_OPENCL_TILED_H
#define GH_OPENCL_TILED_H

#include <stdint.h>
#include <gemmhost/plugin.h>

struct ocl_variant;

enum { OCL_TILED_TILE, OCL_TILED_PARAMS };
extern const gh_param_info ocl_tiled_params[OCL_TILED_PARAMS];

/* tile x tile work-items, and two tiles of tile x (tile + 1) in local memory. */
void ocl_tiled_shape(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

#endif
