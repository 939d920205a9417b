/* The warptile kernel's parameters (kernels/opencl/warptile.cl): their
 * allowed values, which combinations fit together, and the local memory a
 * combination declares. Plain C, no OpenCL. */
#ifndef GH_OPENCL_WARPTILE_H
#define GH_OPENCL_WARPTILE_H

#include <stddef.h>
#include <gemmhost/plugin.h>

/* In the order gemm() takes them, each built in as -D<upper-case name>. */
enum { OCL_WT_BM, OCL_WT_BN, OCL_WT_BK, OCL_WT_WM, OCL_WT_WN, OCL_WT_TM, OCL_WT_TN, OCL_WT_PARAMS };

/* Work-items of a "warp": an arrangement of work-items, NVIDIA's warp size. */
#define OCL_WT_WARP 32

extern const gh_param_info ocl_warptile_params[OCL_WT_PARAMS];

/* Work-items per work-group: (bm / wm) * (bn / wn) warps of 32. */
int64_t ocl_warptile_threads(const int64_t *p);

/* Bytes of local memory: two buffers of a bk x (bm + pad) tile of op(A) and
 * a bk x (bn + pad) tile of op(B), in the arithmetic's type (f32 for f16 and
 * bf16), pad being 16 bytes of it. */
uint64_t ocl_warptile_local_bytes(const int64_t *p, gh_dtype dtype);

/* 1 when the parameters fit together for dtype; else 0 with why (the
 * device's own limits are checked apart, by gemm.c). */
int ocl_warptile_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size);

/* The register cap (.maxnreg) for an f32 cp.async program (async: its
 * -DGH_NV_ASYNC, 0 for none) of p on a device of registers_per_block
 * (CL_DEVICE_REGISTERS_PER_BLOCK_NV): the most that lets two work-groups
 * share a multiprocessor, where that is between 128 and 254 (the default's
 * 256 work-items: 128). 0 for no cap, and for the kernel's own step order:
 * other dtypes, bk 8, fewer work-items (two groups fit uncapped) or more
 * (the cap would spill). */
/* (bm / wm) * (bn / wn) warps in one dimension, and their local memory. */
struct ocl_variant;
void ocl_warptile_shape(struct ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes);

unsigned ocl_warptile_register_cap(const int64_t *p, gh_dtype dtype, int async, uint64_t registers_per_block);

#endif
