/* mma's parameters, fit rule, launch shape and copy path; see kernels.h. */
#include <stdio.h>
#include <string.h>
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

/* Block and warp tiles, the step along K and the stages. The default,
 * 128 x 128 blocks of four 64 x 64 warps 32 deep in two stages, fits
 * NVIDIA's 48 KB of local memory in f16 and bf16 (40 KB); f32 is built 16
 * deep where 32 does not fit (local_bytes says what each takes). */
static const int64_t block_allowed[] = {64, 128, 256};
static const int64_t depth_allowed[] = {16, 32};
static const int64_t warp_allowed[] = {32, 64};
static const int64_t stages_allowed[] = {2, 3, 4};

const gh_param_info ocl_mma_params[OCL_MMA_PARAMS] = {
    [OCL_MMA_BM] = GH_PLUGIN_PARAM("bm", "rows of C a work-group computes", 128, block_allowed),
    [OCL_MMA_BN] = GH_PLUGIN_PARAM("bn", "columns of C a work-group computes", 128, block_allowed),
    [OCL_MMA_BK] =
        GH_PLUGIN_PARAM("bk", "step along K: the depth of the tiles of A and B in local memory", 32, depth_allowed),
    [OCL_MMA_WM] = GH_PLUGIN_PARAM("wm", "rows of the block's C one warp of 32 work-items computes", 64, warp_allowed),
    [OCL_MMA_WN] = GH_PLUGIN_PARAM("wn", "columns of the block's C one warp computes", 64, warp_allowed),
    [OCL_MMA_STAGES] =
        GH_PLUGIN_PARAM("stages", "local-memory buffers of A and B tiles in flight (cp.async)", 2, stages_allowed),
};

/* mma.cl's local memory (MMA_LOCAL_BYTES there): stages of an A and a B
 * tile, each sized for the larger of its two layouts, K-contiguous (rows
 * of bk padded by 16 i8, 8 16-bit or 4 f32 elements) or M/N-contiguous (bk
 * rows of bm or bn, padded by 16 i8 or 8 elements). dtype is A's (the tiles
 * hold A and B as stored). */
static uint64_t local_bytes(const int64_t *p, gh_dtype dtype)
{
    const uint64_t es = gh_plugin_dtype_size(dtype), bk = (uint64_t)p[OCL_MMA_BK];
    const uint64_t pad_kc = es == 1 ? 16 : es == 2 ? 8 : 4, pad_xc = es == 1 ? 16 : 8;
    const uint64_t bm = (uint64_t)p[OCL_MMA_BM], bn = (uint64_t)p[OCL_MMA_BN];
    const uint64_t a_kc = bm * (bk + pad_kc), a_xc = bk * (bm + pad_xc), b_kc = bn * (bk + pad_kc),
                   b_xc = bk * (bn + pad_xc);
    const uint64_t a = a_kc > a_xc ? a_kc : a_xc, b = b_kc > b_xc ? b_kc : b_xc;
    return (uint64_t)p[OCL_MMA_STAGES] * (a + b) * es;
}

void ocl_mma_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    const int64_t *p = v->values;
    v->local[0] = (size_t)((p[OCL_MMA_BM] / p[OCL_MMA_WM]) * (p[OCL_MMA_BN] / p[OCL_MMA_WN]) * 32);
    v->local[1] = 1;
    v->block_m = p[OCL_MMA_BM];
    v->block_n = p[OCL_MMA_BN];
    v->linear = 1;
    v->local_bytes = local_bytes(v->values, dtype);
    /* 16 deep where 32 does not fit: f32's tiles are twice the bytes
     * (its default, 128 x 128 in two stages, would take 72 KB). Not i8,
     * whose step is 32 (ocl_mma_fits): the device's limit refuses it. */
    if (local_mem_bytes && v->local_bytes > local_mem_bytes && v->values[OCL_MMA_BK] > 16 && dtype != GH_I8) {
        v->values[OCL_MMA_BK] = 16;
        v->local_bytes = local_bytes(v->values, dtype);
        size_t used = strlen(v->text);
        snprintf(v->text + used, sizeof v->text - used, " (bk 16: local memory)");
    }
}

int ocl_mma_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size)
{
    /* i8's tensor-core step is 32 along K (m16n8k32), as CUDA's mma. */
    if (dtype == GH_I8 && p[OCL_MMA_BK] % 32 != 0) {
        snprintf(why, why_size, "i8 takes K in steps of 32 (m16n8k32): bk %lld is not a multiple of 32",
                 (long long)p[OCL_MMA_BK]);
        return 0;
    }
    if (p[OCL_MMA_WM] > p[OCL_MMA_BM] || p[OCL_MMA_WN] > p[OCL_MMA_BN]) {
        snprintf(why, why_size, "the warp tile wm %lld x wn %lld must fit the block tile bm %lld x bn %lld",
                 (long long)p[OCL_MMA_WM], (long long)p[OCL_MMA_WN], (long long)p[OCL_MMA_BM],
                 (long long)p[OCL_MMA_BN]);
        return 0;
    }
    return 1;
}

void ocl_mma_path(ocl_variant *v, int trans_a, int trans_b, uint64_t a_offset, int64_t lda, uint64_t b_offset,
                  int64_t ldb, gh_dtype dtype)
{
    const uint64_t es = gh_plugin_dtype_size(dtype);
    const int vec = (a_offset * es) % 16 == 0 && (b_offset * es) % 16 == 0 && ((uint64_t)lda * es) % 16 == 0 &&
                    ((uint64_t)ldb * es) % 16 == 0;
    const int bits = (trans_a ? 1 : 0) | (trans_b ? 2 : 0) | (vec ? 4 : 0);
    v->path = 1 + bits;
    v->slot = v->slot * 8 + bits;
}
