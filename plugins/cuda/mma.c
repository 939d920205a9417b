/* mma's parameters, sample variants, fit rule and shared memory
 * (kernels/cuda/mma.cu); see kernels.h. */
#include <stdio.h>

#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

/* mma: block tile, warp tile (whole 16 x 16 pieces of tensor-core tiles),
 * the step along K and the stages. The default: 128 x 128 x 32 blocks of 4
 * warps, each 64 x 64 (32 tensor-core tiles of 16 x 8 in flight), 4
 * stages. */
static const int64_t mma_block_edges[] = {64, 128, 256};
static const int64_t mma_depths[] = {16, 32, 64};
static const int64_t mma_warp_edges[] = {32, 64, 128};
static const int64_t mma_stages[] = {2, 3, 4, 5};
const gh_param_info gh_cuda_mma_params[GH_MMA_PARAMS] = {
    GH_CUDA_TILE_PARAMS(GH_MMA, 128, 128, 32, 64, 64, mma_block_edges, mma_depths, mma_warp_edges),
    [GH_MMA_STAGES] =
        GH_PLUGIN_PARAM("stages", "shared-memory buffers of A and B tiles in flight (cp.async)", 4, mma_stages),
};

const int64_t gh_cuda_mma_samples[GH_CUDA_MMA_SAMPLES][GH_MMA_PARAMS] = {
    {128, 128, 32, 64, 64, 4}, /* the default */
    {128, 256, 32, 64, 64, 3}, /* 8 warps */
    {64, 64, 16, 32, 32, 2},   /* small blocks, shallow steps */
    {256, 128, 64, 128, 32, 3}, {64, 128, 32, 64, 128, 5},
};

int gh_cuda_mma_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    const int64_t *w = v->wt;
    /* i8's tensor-core step is 32 along K (m16n8k32) */
    if (dtype == GH_I8 && w[GH_MMA_BK] % 32 != 0) {
        snprintf(why, why_size, "i8 takes K in steps of 32 (m16n8k32): bk %lld is not a multiple of 32",
                 (long long)w[GH_MMA_BK]);
        return 0;
    }
    const int64_t bm = w[GH_MMA_BM], bn = w[GH_MMA_BN], wm = w[GH_MMA_WM], wn = w[GH_MMA_WN];
    return gh_cuda_warps_divide_block(bm, bn, wm, wn, why, why_size) &&
           gh_cuda_block_threads_fit(bm, bn, wm, wn, why, why_size);
}

long long gh_cuda_mma_shared_bytes(gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b)
{
    const int64_t *w = v->wt;
    const long long es = (long long)gh_plugin_dtype_size(dtype), bm = w[GH_MMA_BM], bn = w[GH_MMA_BN],
                    bk = w[GH_MMA_BK];
    /* mma.cu's PAD_KC and PAD_XC: rows padded by 4 f32, 8 16-bit or 16
     * 8-bit elements along K, by 8 elements (16 for 8-bit) along M or N. */
    const long long pad_kc = es == 4 ? 4 : es == 2 ? 8 : 16, pad_xc = es == 1 ? 16 : 8;
    long long a = trans_a ? bk * (bm + pad_xc) : bm * (bk + pad_kc);
    long long b = trans_b ? bn * (bk + pad_kc) : bk * (bn + pad_xc);
    return w[GH_MMA_STAGES] * (a + b) * es;
}
