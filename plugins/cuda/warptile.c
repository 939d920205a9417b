/* warptile's parameters, sample variants, fit rule and shared memory
 * (kernels/cuda/warptile.cu); see kernels.h. */
#include <stdio.h>

#include "gemmhost/plugin_helpers.h"
#include "kernels.h"

/* warptile: block tile, warp tile, thread tile, stages and the register
 * budget. Not every combination fits: gh_cuda_warptile_fits says which, and
 * gemm() refuses the others before compiling. The default is the classic
 * SIMT SGEMM shape: 128 x 128 x 16 blocks of 8 warps, each warp 64 x 32,
 * each thread 8 x 8, three stages (55 KB of shared memory in f32). */
static const int64_t wt_block_edges[] = {64, 128, 256};
static const int64_t wt_depths[] = {8, 16, 32};
static const int64_t wt_warp_edges[] = {16, 32, 64, 128};
static const int64_t wt_thread_edges[] = {4, 8, 16};
static const int64_t wt_stages[] = {2, 3, 4};
static const int64_t wt_min_blocks[] = {0, 1, 2};
const gh_param_info gh_cuda_warptile_params[GH_WT_PARAMS] = {
    GH_CUDA_TILE_PARAMS(GH_WT, 128, 128, 16, 64, 32, wt_block_edges, wt_depths, wt_warp_edges),
    [GH_WT_TM] = GH_PLUGIN_PARAM("tm", "rows of C each thread keeps in registers; (wm / tm) * (wn / tn) must be 32", 8,
                                 wt_thread_edges),
    [GH_WT_TN] = GH_PLUGIN_PARAM("tn", "columns of C each thread keeps in registers", 8, wt_thread_edges),
    [GH_WT_STAGES] = GH_PLUGIN_PARAM("stages", "shared-memory buffers of A and B tiles in flight (cp.async on sm_80+)",
                                     3, wt_stages),
    [GH_WT_MINBLOCKS] =
        GH_PLUGIN_PARAM("minblocks",
                        "blocks per SM the register allocation must allow (__launch_bounds__): 2 caps "
                        "registers for more warps per SM, at the risk of spills; 0: 2 in f32, 1 in f64, "
                        "f16 and bf16",
                        0, wt_min_blocks),
};

const int64_t gh_cuda_warptile_samples[GH_CUDA_WARPTILE_SAMPLES][GH_WT_PARAMS] = {
    {128, 128, 16, 64, 32, 8, 8, 3, 0}, /* the default */
    {128, 128, 8, 32, 64, 8, 8, 2, 2},  /* 8 x 8 threads per warp */
    {64, 64, 32, 32, 32, 4, 8, 4, 1},   /* 128 threads */
    {256, 64, 16, 64, 32, 8, 8, 3, 1},  /* 256-row blocks */
    {128, 64, 16, 128, 16, 8, 8, 3, 2}, /* 16 x 2 threads per warp */
    {64, 256, 8, 16, 128, 8, 8, 2, 1},  /* 2 x 16 threads per warp */
    {128, 128, 16, 32, 16, 4, 4, 3, 1}, /* 1024 threads */
};

/* 16 bytes of the type tiles are held in (acc_t) and of the stored type. */
static int64_t acc_per_16(gh_dtype dtype)
{
    return 16 / (int64_t)gh_cuda_acc_size(dtype);
}
static int64_t elems_per_16(gh_dtype dtype)
{
    return 16 / (int64_t)gh_plugin_dtype_size(dtype);
}

int gh_cuda_warptile_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    const int64_t *w = v->wt;
    const int64_t bm = w[GH_WT_BM], bn = w[GH_WT_BN], bk = w[GH_WT_BK], wm = w[GH_WT_WM], wn = w[GH_WT_WN];
    const int64_t tm = w[GH_WT_TM], tn = w[GH_WT_TN];
    if (!gh_cuda_warps_divide_block(bm, bn, wm, wn, why, why_size)) return 0;
    if (wm % tm || wn % tn || (wm / tm) * (wn / tn) != 32) {
        snprintf(why, why_size,
                 "a warp is 32 threads: (wm / tm) * (wn / tn) must be 32, and wm %lld / tm %lld * wn %lld / tn %lld "
                 "is %lld",
                 (long long)wm, (long long)tm, (long long)wn, (long long)tn, (long long)((wm / tm) * (wn / tn)));
        return 0;
    }
    if (!gh_cuda_block_threads_fit(bm, bn, wm, wn, why, why_size)) return 0;
    /* tm, tn and bk are whole 16-byte reads of acc_t (4 f32 or 2 f64) and
     * bk, bm, bn whole 16-byte pieces of the stored type (up to 8 f16). */
    const int64_t vr = acc_per_16(dtype), vg = elems_per_16(dtype);
    if (tm % vr || tn % vr || bk % vr || bk % vg || bm % vg || bn % vg) {
        snprintf(why, why_size, "tm, tn and bk must be multiples of %lld and bk of %lld (16 bytes) in %s",
                 (long long)vr, (long long)vg, gh_plugin_dtype_name(dtype));
        return 0;
    }
    return 1;
}

long long gh_cuda_warptile_shared_bytes(gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b)
{
    (void)trans_a; /* both tiles are kept with M or N contiguous whatever the transposes */
    (void)trans_b;
    const int64_t *w = v->wt;
    const long long pad = acc_per_16(dtype), bm = w[GH_WT_BM], bn = w[GH_WT_BN], bk = w[GH_WT_BK];
    /* bk rows of each tile's M or N, plus pad. */
    return w[GH_WT_STAGES] * bk * (bm + pad + bn + pad) * (long long)gh_cuda_acc_size(dtype);
}
