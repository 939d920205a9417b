/* warptile's parameters; see warptile.h. */
#include <stdio.h>
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"

static const int64_t block_edges[] = {64, 128, 256};
static const int64_t depths[] = {8, 16, 32};
static const int64_t warp_edges[] = {16, 32, 64, 128};
static const int64_t thread_edges[] = {4, 8};

/* The default is the classic SIMT SGEMM shape for NVIDIA: 128 x 128 x 16
 * blocks of 8 warps (256 work-items), each warp 64 x 32, each work-item
 * 8 x 8; 33 KiB of local memory in f32 (f64 needs bk 8 within 48 KiB). */
const gh_param_info ocl_warptile_params[OCL_WT_PARAMS] = {
    [OCL_WT_BM] = GH_PLUGIN_PARAM("bm", "rows of C a work-group computes (built in with -DBM)", 128, block_edges),
    [OCL_WT_BN] = GH_PLUGIN_PARAM("bn", "columns of C a work-group computes (-DBN)", 128, block_edges),
    [OCL_WT_BK] =
        GH_PLUGIN_PARAM("bk", "step along K: the depth of the tiles of A and B in local memory (-DBK)", 16, depths),
    [OCL_WT_WM] =
        GH_PLUGIN_PARAM("wm",
                        "rows of the block's C one warp of 32 work-items computes; (bm / wm) * (bn / wn) warps "
                        "(-DWM)",
                        64, warp_edges),
    [OCL_WT_WN] = GH_PLUGIN_PARAM("wn", "columns of the block's C one warp computes (-DWN)", 32, warp_edges),
    [OCL_WT_TM] = GH_PLUGIN_PARAM(
        "tm", "rows of C each work-item keeps in registers; (wm / tm) * (wn / tn) must be 32 (-DTM)", 8, thread_edges),
    [OCL_WT_TN] = GH_PLUGIN_PARAM("tn", "columns of C each work-item keeps in registers (-DTN)", 8, thread_edges),
};

/* Bytes of the arithmetic's type, which local memory and registers hold. */
static uint64_t acc_bytes(gh_dtype dtype)
{
    return dtype == GH_F16 || dtype == GH_BF16 ? 4 : gh_plugin_dtype_size(dtype);
}

int64_t ocl_warptile_threads(const int64_t *p)
{
    return (p[OCL_WT_BM] / p[OCL_WT_WM]) * (p[OCL_WT_BN] / p[OCL_WT_WN]) * OCL_WT_WARP;
}

uint64_t ocl_warptile_local_bytes(const int64_t *p, gh_dtype dtype)
{
    const uint64_t elem = acc_bytes(dtype), pad = 16 / elem;
    return 2 * (uint64_t)p[OCL_WT_BK] * ((uint64_t)p[OCL_WT_BM] + pad + (uint64_t)p[OCL_WT_BN] + pad) * elem;
}

int ocl_warptile_fits(const int64_t *p, gh_dtype dtype, char *why, size_t why_size)
{
    const long long bm = p[OCL_WT_BM], bn = p[OCL_WT_BN], bk = p[OCL_WT_BK], wm = p[OCL_WT_WM], wn = p[OCL_WT_WN];
    const long long tm = p[OCL_WT_TM], tn = p[OCL_WT_TN];
    if (wm > bm || wn > bn || bm % wm || bn % wn) {
        snprintf(why, why_size, "the warp tile wm %lld x wn %lld must divide the block tile bm %lld x bn %lld", wm, wn,
                 bm, bn);
        return 0;
    }
    if (wm % tm || wn % tn || (wm / tm) * (wn / tn) != OCL_WT_WARP) {
        snprintf(why, why_size,
                 "a warp is %d work-items: (wm / tm) * (wn / tn) must be %d, and wm %lld / tm %lld * wn %lld / tn "
                 "%lld is %lld",
                 OCL_WT_WARP, OCL_WT_WARP, wm, tm, wn, tn, (wm / tm) * (wn / tn));
        return 0;
    }
    /* tm and tn whole 16-byte vectors of the arithmetic's type (4 f32, 2
     * f64) and bk, bm, bn whole 16-byte pieces of the stored type (8 f16). */
    const long long v = 16 / (long long)acc_bytes(dtype), gv = 16 / (long long)gh_plugin_dtype_size(dtype);
    if (tm % v || tn % v || bk % gv || bm % gv || bn % gv) {
        snprintf(why, why_size, "tm and tn must be multiples of %lld, bk, bm and bn of %lld (16 bytes) in %s", v, gv,
                 gh_plugin_dtype_name(dtype));
        return 0;
    }
    return 1;
}

void ocl_warptile_shape(ocl_variant *v, gh_dtype dtype, uint64_t local_mem_bytes)
{
    (void)local_mem_bytes;
    v->local[0] = (size_t)ocl_warptile_threads(v->values);
    v->local[1] = 1;
    v->block_m = v->values[OCL_WT_BM];
    v->block_n = v->values[OCL_WT_BN];
    v->linear = 1;
    v->local_bytes = ocl_warptile_local_bytes(v->values, dtype);
}

unsigned ocl_warptile_register_cap(const int64_t *p, gh_dtype dtype, int async, uint64_t registers_per_block)
{
    /* No work-items: a warp tile larger than the block, refused later. bk 8:
     * the late barrier ran slower there (docs/kernels.md). */
    const int64_t threads = ocl_warptile_threads(p);
    if (!async || dtype != GH_F32 || threads <= 0 || p[OCL_WT_BK] < 16) return 0;
    const uint64_t cap = registers_per_block / (2 * (uint64_t)threads);
    return cap >= 128 && cap < 255 ? (unsigned)cap : 0;
}
