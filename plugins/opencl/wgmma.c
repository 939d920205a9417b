/* wgmma's parameters and launch shape; see kernels.h. */
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

/* The block tile (bm / 64 warpgroups, one 64-row instruction tile each, bn
 * its N), the depth of the tiles along K and their stages. Local memory is
 * stages x (bm + bn) x bk x 2 bytes: the default, 128 x 128 32 deep in
 * three stages, fills NVIDIA's 48 KB. No bm 256: NVIDIA's OpenCL gives the
 * kernel at most 256 work-items (CL_KERNEL_WORK_GROUP_SIZE), not the 512
 * four warpgroups are. */
static const int64_t rows_allowed[] = {64, 128};
static const int64_t block_allowed[] = {64, 128, 256};
static const int64_t depth_allowed[] = {16, 32};
static const int64_t stages_allowed[] = {2, 3, 4};

const gh_param_info ocl_wgmma_params[OCL_WGMMA_PARAMS] = {
    [OCL_WGMMA_BM] = GH_PLUGIN_PARAM("bm", "rows of C a work-group computes: one warpgroup of 128 work-items per 64",
                                     128, rows_allowed),
    [OCL_WGMMA_BN] = GH_PLUGIN_PARAM("bn", "columns of C a work-group computes: the N of each wgmma instruction", 128,
                                     block_allowed),
    [OCL_WGMMA_BK] = GH_PLUGIN_PARAM("bk",
                                     "step along K: the depth of the tiles of A and B in local memory (one or two "
                                     "k16 instructions)",
                                     32, depth_allowed),
    [OCL_WGMMA_STAGES] =
        GH_PLUGIN_PARAM("stages", "local-memory buffers of A and B tiles in flight (cp.async)", 3, stages_allowed),
};

void ocl_wgmma_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    (void)dtype;
    (void)local_mem_bytes;
    const int64_t *p = v->values;
    v->local[0] = (size_t)(p[OCL_WGMMA_BM] * 2); /* 128 work-items per 64 rows */
    v->local[1] = 1;
    v->block_m = p[OCL_WGMMA_BM];
    v->block_n = p[OCL_WGMMA_BN];
    v->linear = 1;
    /* WGMMA_LOCAL_BYTES of wgmma.cl: tiles of 2-byte elements. */
    v->local_bytes = (uint64_t)(p[OCL_WGMMA_STAGES] * (p[OCL_WGMMA_BM] + p[OCL_WGMMA_BN]) * p[OCL_WGMMA_BK] * 2);
}
