/* wgmma's parameters, fit rule and launch shape; see kernels.h. */
#include <stdio.h>
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

/* The block tile (bm / 64 warpgroups, one 64-row instruction tile each, bn
 * its N), the depth of the tiles along K and their stages. Local memory is
 * stages x (bm + bn) x bk bytes per byte of an element: the default, 128 x
 * 128 32 deep in three stages, fills NVIDIA's 48 KB in f16 and bf16 and
 * half of it in 8 bits. No bm 256: NVIDIA's OpenCL gives the kernel at most
 * 256 work-items (CL_KERNEL_WORK_GROUP_SIZE), not the 512 four warpgroups
 * are. */
static const int64_t rows_allowed[] = {64, 128};
static const int64_t block_allowed[] = {64, 128, 256};
static const int64_t depth_allowed[] = {16, 32, 64};
static const int64_t stages_allowed[] = {2, 3, 4};

const gh_param_info ocl_wgmma_params[OCL_WGMMA_PARAMS] = {
    [OCL_WGMMA_BM] = GH_PLUGIN_PARAM("bm", "rows of C a work-group computes: one warpgroup of 128 work-items per 64",
                                     128, rows_allowed),
    [OCL_WGMMA_BN] = GH_PLUGIN_PARAM("bn", "columns of C a work-group computes: the N of each wgmma instruction", 128,
                                     block_allowed),
    [OCL_WGMMA_BK] = GH_PLUGIN_PARAM("bk",
                                     "step along K: the depth of the tiles of A and B in local memory, rows of 32 "
                                     "or 64 bytes (f16 and bf16: 16 or 32, one or two k16 instructions; 8-bit "
                                     "inputs: 32 or 64, one or two k32)",
                                     32, depth_allowed),
    [OCL_WGMMA_STAGES] =
        GH_PLUGIN_PARAM("stages", "local-memory buffers of A and B tiles in flight (cp.async)", 3, stages_allowed),
};

void ocl_wgmma_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    (void)local_mem_bytes;
    const int64_t *p = v->values;
    v->local[0] = (size_t)(p[OCL_WGMMA_BM] * 2); /* 128 work-items per 64 rows */
    v->local[1] = 1;
    v->block_m = p[OCL_WGMMA_BM];
    v->block_n = p[OCL_WGMMA_BN];
    v->linear = 1;
    /* WGMMA_LOCAL_BYTES of wgmma.cl: tiles of A and B as stored (dtype A's). */
    v->local_bytes = (uint64_t)(p[OCL_WGMMA_STAGES] * (p[OCL_WGMMA_BM] + p[OCL_WGMMA_BN]) * p[OCL_WGMMA_BK]) *
                     gh_plugin_dtype_size(dtype);
}

int ocl_wgmma_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size)
{
    /* The tile rows wgmma.cl lays out are 32 or 64 bytes; 8-bit instructions are k32. */
    const int eight_bit = gh_plugin_dtype_size(dtype) == 1;
    const int64_t bk = p[OCL_WGMMA_BK];
    if (eight_bit && bk == 16) {
        snprintf(why, why_size, "8-bit inputs take K in steps of 32 (wgmma k32): bk 16 is not a multiple of 32");
        return 0;
    }
    if (!eight_bit && bk == 64) {
        snprintf(why, why_size, "bk 64 is for 8-bit inputs: %s takes bk 16 or 32 (local-memory rows of 32 or 64 bytes)",
                 gh_plugin_dtype_name(dtype));
        return 0;
    }
    return 1;
}
