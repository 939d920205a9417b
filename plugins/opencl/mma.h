/* The mma kernel (kernels/opencl/mma.cl): its parameters, which of them fit
 * together, its launch shape and its copy path. */
#ifndef GH_OPENCL_MMA_H
#define GH_OPENCL_MMA_H

#include <stddef.h>
#include <stdint.h>
#include <gemmhost/plugin.h>

struct ocl_variant;

/* In the order gemm() takes them. */
enum { OCL_MMA_BM, OCL_MMA_BN, OCL_MMA_BK, OCL_MMA_WM, OCL_MMA_WN, OCL_MMA_STAGES, OCL_MMA_PARAMS };
extern const gh_param_info ocl_mma_params[OCL_MMA_PARAMS];

/* Warps of 32 over the block, and the local memory of its stages; bk 16
 * where 32 does not fit the device's local_mem_bytes (0: unknown). */
void ocl_mma_shape(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

/* 1 when the warp tile fits the block tile; else 0 with why. */
int ocl_mma_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size);

/* mma (and wgmma) is built once per transpose pair and copy path (so that each program
 * holds one body, whose registers ptxas allocates alone): sets v->path from
 * the call and makes it part of v's program cache key. The 16-byte copy
 * path takes A and B whose offsets and rows are whole 16 bytes (buffers
 * start aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 128 bytes). */
void ocl_mma_path(struct ocl_variant *v, int trans_a, int trans_b, uint64_t a_offset, int64_t lda, uint64_t b_offset,
                  int64_t ldb, gh_dtype dtype);

#endif
