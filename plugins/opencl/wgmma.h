/* The wgmma kernel (kernels/opencl/wgmma.cl): its parameters and launch shape. */
#ifndef GH_OPENCL_WGMMA_H
#define GH_OPENCL_WGMMA_H

#include <stdint.h>
#include <gemmhost/plugin.h>

struct ocl_variant;

/* In the order gemm() takes them. */
enum { OCL_WGMMA_BM, OCL_WGMMA_BN, OCL_WGMMA_BK, OCL_WGMMA_STAGES, OCL_WGMMA_PARAMS };
extern const gh_param_info ocl_wgmma_params[OCL_WGMMA_PARAMS];

/* A warpgroup of 128 work-items per 64 rows, and the local memory of its stages. */
void ocl_wgmma_shape(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

#endif
