/* The kernel table, the variants and their launch geometry; see kernels.h. */
#include "kernels.h"

#include <stdio.h>

#include "gemmhost/plugin_helpers.h"

/* naive: a warp spans 32 consecutive columns of one row of C. */
#define NAIVE_BLOCK_X 32
#define NAIVE_BLOCK_Y 8

const int64_t gh_cuda_tiles[GH_CUDA_TILE_COUNT] = {4, 8, 16, 32};
const int64_t gh_cuda_blocked_tiles[GH_CUDA_BLOCKED_TILE_COUNT] = {32, 64, 128};
const int64_t gh_cuda_blocked_works[GH_CUDA_BLOCKED_WORK_COUNT] = {2, 4, 8};

static const gh_param_info tiled_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "tile",
    .description = "edge of the square thread block and of the tiles of A and B staged in shared memory",
    .default_value = 16,
    .allowed = gh_cuda_tiles,
    .n_allowed = GH_CUDA_TILE_COUNT,
    .min_value = 4,
    .max_value = 32,
}};

/* The defaults are the fastest on the H100 at large sizes: 256 threads, each
 * with an 8 x 8 block of C. (tile / work)^2 must stay within the device's
 * threads per block: tile 128 with work 2 (4096 threads) is unsupported. */
static const gh_param_info blocked_params[] = {
    {
        .size = sizeof(gh_param_info),
        .name = "tile",
        .description = "edge of the block of C a thread block computes (and of the tiles of A and B in shared memory)",
        .default_value = 128,
        .allowed = gh_cuda_blocked_tiles,
        .n_allowed = GH_CUDA_BLOCKED_TILE_COUNT,
        .min_value = 32,
        .max_value = 128,
    },
    {
        .size = sizeof(gh_param_info),
        .name = "work",
        .description = "edge of the block of C each thread keeps in registers; (tile / work)^2 threads per block",
        .default_value = 8,
        .allowed = gh_cuda_blocked_works,
        .n_allowed = GH_CUDA_BLOCKED_WORK_COUNT,
        .min_value = 2,
        .max_value = 8,
    },
};

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
#define WT_PARAM(NAME, DESCRIPTION, DEFAULT, VALUES)                                                       \
    {                                                                                                      \
        .size = sizeof(gh_param_info), .name = NAME, .description = DESCRIPTION, .default_value = DEFAULT, \
        .allowed = VALUES, .n_allowed = sizeof VALUES / sizeof VALUES[0], .min_value = VALUES[0],          \
        .max_value = VALUES[sizeof VALUES / sizeof VALUES[0] - 1],                                         \
    }
static const gh_param_info warptile_params[GH_WT_PARAMS] = {
    [GH_WT_BM] = WT_PARAM("bm", "rows of C a thread block computes", 128, wt_block_edges),
    [GH_WT_BN] = WT_PARAM("bn", "columns of C a thread block computes", 128, wt_block_edges),
    [GH_WT_BK] = WT_PARAM("bk", "step along K: the depth of the tiles of A and B in shared memory", 16, wt_depths),
    [GH_WT_WM] =
        WT_PARAM("wm", "rows of the block's C one warp computes; (bm / wm) * (bn / wn) warps", 64, wt_warp_edges),
    [GH_WT_WN] = WT_PARAM("wn", "columns of the block's C one warp computes", 32, wt_warp_edges),
    [GH_WT_TM] = WT_PARAM("tm", "rows of C each thread keeps in registers; (wm / tm) * (wn / tn) must be 32", 8,
                          wt_thread_edges),
    [GH_WT_TN] = WT_PARAM("tn", "columns of C each thread keeps in registers", 8, wt_thread_edges),
    [GH_WT_STAGES] =
        WT_PARAM("stages", "shared-memory buffers of A and B tiles in flight (cp.async on sm_80+)", 3, wt_stages),
    [GH_WT_MINBLOCKS] = WT_PARAM("minblocks",
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

/* mma: block tile, warp tile (whole 16 x 16 pieces of tensor-core tiles),
 * the step along K and the stages. The default: 128 x 128 x 32 blocks of 4
 * warps, each 64 x 64 (32 tensor-core tiles of 16 x 8 in flight), 4
 * stages. */
static const int64_t mma_block_edges[] = {64, 128, 256};
static const int64_t mma_depths[] = {16, 32, 64};
static const int64_t mma_warp_edges[] = {32, 64, 128};
static const int64_t mma_stages[] = {2, 3, 4, 5};
static const gh_param_info mma_params[GH_MMA_PARAMS] = {
    [GH_MMA_BM] = WT_PARAM("bm", "rows of C a thread block computes", 128, mma_block_edges),
    [GH_MMA_BN] = WT_PARAM("bn", "columns of C a thread block computes", 128, mma_block_edges),
    [GH_MMA_BK] = WT_PARAM("bk", "step along K: the depth of the tiles of A and B in shared memory", 32, mma_depths),
    [GH_MMA_WM] = WT_PARAM("wm", "rows of the block's C one warp computes; (bm / wm) * (bn / wn) warps", 64,
                           mma_warp_edges),
    [GH_MMA_WN] = WT_PARAM("wn", "columns of the block's C one warp computes", 64, mma_warp_edges),
    [GH_MMA_STAGES] = WT_PARAM("stages", "shared-memory buffers of A and B tiles in flight (cp.async)", 4, mma_stages),
};

const int64_t gh_cuda_mma_samples[GH_CUDA_MMA_SAMPLES][GH_MMA_PARAMS] = {
    {128, 128, 32, 64, 64, 4}, /* the default */
    {128, 256, 32, 64, 64, 3}, /* 8 warps */
    {64, 64, 16, 32, 32, 2},   /* small blocks, shallow steps */
    {256, 128, 64, 128, 32, 3},
    {64, 128, 32, 64, 128, 5},
};

/* wgmma: the block tile (two consumer warpgroups share bm; each takes all
 * bn columns) and the stages of its TMA pipeline. The default: 128 x 256,
 * each consumer 64 x 256 (128 accumulators a thread), 4 stages (192 KB). */
static const int64_t wgmma_block_rows[] = {128, 256};
static const int64_t wgmma_block_cols[] = {64, 128, 256};
static const int64_t wgmma_stages[] = {2, 3, 4, 5, 6};
static const gh_param_info wgmma_params[GH_WGMMA_PARAMS] = {
    [GH_WGMMA_BM] = WT_PARAM("bm", "rows of C a thread block computes, half by each of its two consumer warpgroups", 128,
                             wgmma_block_rows),
    [GH_WGMMA_BN] = WT_PARAM("bn", "columns of C a thread block computes: the N of each wgmma instruction", 256,
                             wgmma_block_cols),
    [GH_WGMMA_STAGES] = WT_PARAM("stages", "shared-memory buffers of A and B tiles in flight (TMA, mbarriers)", 4,
                                 wgmma_stages),
};

const int64_t gh_cuda_wgmma_samples[GH_CUDA_WGMMA_SAMPLES][GH_WGMMA_PARAMS] = {
    {128, 256, 4}, /* the default */
    {128, 128, 6},
    {256, 128, 4},
    {128, 64, 2},
};

/* f16 and bf16: stored in 16 bits, widened to f32 for the multiplies and
 * sums, rounded once into C (plugin.h's default arithmetic: no declaration).
 * The conversions are plain instructions on every architecture NVRTC
 * targets, so every CUDA device runs them. */
#define HALF_DTYPES  (GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))
#define FLOAT_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | HALF_DTYPES)
#define ALL_DTYPES   (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | HALF_DTYPES)

/* cublas-tf32 multiplies f32 inputs rounded to TF32 on the tensor cores and
 * sums in f32: the host holds it to that bound, not f32's. */
static const gh_kernel_precision tf32_precision[] = {
    {sizeof(gh_kernel_precision), GH_F32, GH_PREC_TF32, GH_PREC_F32},
};
/* wgmma reads f32 tiles from shared memory as TMA put them there, and its
 * TF32 drops their 13 low bits: measured on an H100, K = 1 products are
 * off by up to 1.18 times the round-to-nearest TF32 bound (tests/cuda). */
static const gh_kernel_precision tf32_truncated_precision[] = {
    {sizeof(gh_kernel_precision), GH_F32, GH_PREC_TF32_TRUNCATED, GH_PREC_F32},
};

const gh_kernel_info gh_cuda_kernel_infos[GH_CUDA_KERNEL_COUNT] = {
    [GH_CUDA_NAIVE] = {sizeof(gh_kernel_info), "naive",
                       "one thread per element of C, a warp along 32 consecutive columns (NVRTC)", ALL_DTYPES, NULL, 0,
                       NULL, 0},
    [GH_CUDA_TILED] = {sizeof(gh_kernel_info), "tiled",
                       "tile x tile thread blocks, tiles of A and B staged in shared memory (NVRTC)", ALL_DTYPES,
                       tiled_params, 1, NULL, 0},
    [GH_CUDA_BLOCKED] = {sizeof(gh_kernel_info), "blocked",
                         "2D register blocking: each thread a work x work block of C in registers, tiles of A and B "
                         "double-buffered in shared memory (NVRTC)",
                         ALL_DTYPES, blocked_params, 2, NULL, 0},
    [GH_CUDA_WARPTILE] = {sizeof(gh_kernel_info), "warptile",
                          "block, warp and thread tiles; A and B tiles in stages-deep shared-memory buffers filled "
                          "by cp.async (16-byte pieces where the layout allows), bank-conflict-free reads, blocks "
                          "ordered in groups for L2 (NVRTC)",
                          FLOAT_DTYPES, warptile_params, GH_WT_PARAMS, NULL, 0},
    [GH_CUDA_MMA] = {sizeof(gh_kernel_info), "mma",
                     "warp-level tensor cores (mma.sync m16n8k16 for f16/bf16, m16n8k8 on f32 rounded to TF32), "
                     "f32 sums; ldmatrix fragments, cp.async stages; compute capability 8.0 or newer (NVRTC)",
                     GH_DTYPE_BIT(GH_F32) | HALF_DTYPES, mma_params, GH_MMA_PARAMS, tf32_precision, 1},
    [GH_CUDA_WGMMA] = {sizeof(gh_kernel_info), "wgmma",
                       "Hopper warpgroup tensor cores: TMA loads into 128-byte-swizzled shared memory, an mbarrier "
                       "pipeline, a producer and two consumer warpgroups, wgmma.mma_async (f16/bf16; f32 as TF32, "
                       "trans nt only), f32 sums; sm_90a, operands in 16-byte rows (NVRTC)",
                       GH_DTYPE_BIT(GH_F32) | HALF_DTYPES, wgmma_params, GH_WGMMA_PARAMS, tf32_truncated_precision, 1},
    [GH_CUDA_CUBLAS] = {sizeof(gh_kernel_info), "cublas",
                        "cuBLAS: SGEMM/DGEMM in the default math mode (no TF32), f16/bf16 through cublasGemmEx with "
                        "f32 compute: the baseline",
                        GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | HALF_DTYPES, NULL, 0, NULL, 0},
    [GH_CUDA_CUBLAS_TF32] =
        {sizeof(gh_kernel_info), "cublas-tf32",
         "cuBLAS f32 GEMM on TF32 tensor cores (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32): inputs "
         "rounded to TF32, f32 sums; compute capability 8.0 or newer",
         GH_DTYPE_BIT(GH_F32), NULL, 0, tf32_precision, 1},
};

int gh_cuda_variant_count(int kernel)
{
    switch (kernel) {
    case GH_CUDA_NAIVE: return 1;
    case GH_CUDA_TILED: return GH_CUDA_TILE_COUNT;
    case GH_CUDA_BLOCKED: return GH_CUDA_BLOCKED_TILE_COUNT * GH_CUDA_BLOCKED_WORK_COUNT;
    case GH_CUDA_WARPTILE: return GH_CUDA_WARPTILE_SAMPLES;
    case GH_CUDA_MMA: return GH_CUDA_MMA_SAMPLES;
    case GH_CUDA_WGMMA: return GH_CUDA_WGMMA_SAMPLES;
    default: return 0;
    }
}

gh_cuda_variant gh_cuda_variant_at(int kernel, int index)
{
    gh_cuda_variant v = {0, 0, index, {0}};
    if (kernel == GH_CUDA_WARPTILE) {
        v.index = -1;
        for (int p = 0; p < GH_WT_PARAMS; ++p) v.wt[p] = gh_cuda_warptile_samples[index][p];
    } else if (kernel == GH_CUDA_MMA) {
        v.index = -1;
        for (int p = 0; p < GH_MMA_PARAMS; ++p) v.wt[p] = gh_cuda_mma_samples[index][p];
    } else if (kernel == GH_CUDA_WGMMA) {
        v.index = -1;
        for (int p = 0; p < GH_WGMMA_PARAMS; ++p) v.wt[p] = gh_cuda_wgmma_samples[index][p];
    } else if (kernel == GH_CUDA_TILED) {
        v.tile = gh_cuda_tiles[index];
    } else if (kernel == GH_CUDA_BLOCKED) {
        v.tile = gh_cuda_blocked_tiles[index / GH_CUDA_BLOCKED_WORK_COUNT];
        v.work = gh_cuda_blocked_works[index % GH_CUDA_BLOCKED_WORK_COUNT];
    }
    return v;
}

int gh_cuda_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return GH_CUDA_KERNEL_COUNT;
}

const gh_kernel_info *gh_cuda_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (kernel < 0 || kernel >= GH_CUDA_KERNEL_COUNT) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "kernel_info: kernel %d does not exist", kernel);
        return NULL;
    }
    return &gh_cuda_kernel_infos[kernel];
}

int gh_cuda_kernel_has_param_list(int kernel)
{
    return kernel == GH_CUDA_WARPTILE || kernel == GH_CUDA_MMA || kernel == GH_CUDA_WGMMA;
}

int gh_cuda_kernel_param_count(int kernel)
{
    return kernel >= 0 && kernel < GH_CUDA_KERNEL_COUNT ? (int)gh_cuda_kernel_infos[kernel].n_params : 0;
}

gh_cuda_variant gh_cuda_variant_of(int kernel, const int64_t *params)
{
    const gh_param_info *p = gh_cuda_kernel_infos[kernel].params;
    if (gh_cuda_kernel_has_param_list(kernel)) {
        gh_cuda_variant v = {0, 0, -1, {0}};
        for (int i = 0; i < gh_cuda_kernel_param_count(kernel); ++i) v.wt[i] = params[i];
        return v;
    }
    if (kernel == GH_CUDA_TILED) return gh_cuda_variant_at(kernel, gh_plugin_param_index(&p[0], params[0]));
    if (kernel == GH_CUDA_BLOCKED)
        return gh_cuda_variant_at(kernel, gh_plugin_param_index(&p[0], params[0]) * GH_CUDA_BLOCKED_WORK_COUNT +
                                              gh_plugin_param_index(&p[1], params[1]));
    return gh_cuda_variant_at(kernel, 0);
}

size_t gh_cuda_acc_size(gh_dtype dtype)
{
    return dtype == GH_F16 || dtype == GH_BF16 ? 4 : gh_plugin_dtype_size(dtype);
}

/* blocked.cu: DEPTH is 16, or 8 for 8-byte types so that its two buffers of
 * two DEPTH x (TILE + 16 bytes) tiles stay within 48 KB of static shared
 * memory at tile 128. */
int gh_cuda_blocked_depth(gh_dtype dtype)
{
    return gh_cuda_acc_size(dtype) == 8 ? 8 : 16;
}

long long gh_cuda_blocked_shared_bytes(gh_dtype dtype, int64_t tile)
{
    long long es = (long long)gh_cuda_acc_size(dtype);
    return 2LL * 2LL * gh_cuda_blocked_depth(dtype) * (tile + 16 / es) * es;
}

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
    if (wm > bm || wn > bn || bm % wm || bn % wn) {
        snprintf(why, why_size, "the warp tile wm %lld x wn %lld must divide the block tile bm %lld x bn %lld",
                 (long long)wm, (long long)wn, (long long)bm, (long long)bn);
        return 0;
    }
    if (wm % tm || wn % tn || (wm / tm) * (wn / tn) != 32) {
        snprintf(why, why_size,
                 "a warp is 32 threads: (wm / tm) * (wn / tn) must be 32, and wm %lld / tm %lld * wn %lld / tn %lld "
                 "is %lld",
                 (long long)wm, (long long)tm, (long long)wn, (long long)tn, (long long)((wm / tm) * (wn / tn)));
        return 0;
    }
    const int64_t threads = (bm / wm) * (bn / wn) * 32;
    if (threads > 1024) {
        snprintf(why, why_size, "(bm / wm) * (bn / wn) = %lld warps is %lld threads, over CUDA's 1024 per block",
                 (long long)(threads / 32), (long long)threads);
        return 0;
    }
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

int gh_cuda_mma_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    (void)dtype;
    const int64_t *w = v->wt;
    const int64_t bm = w[GH_MMA_BM], bn = w[GH_MMA_BN], wm = w[GH_MMA_WM], wn = w[GH_MMA_WN];
    if (wm > bm || wn > bn || bm % wm || bn % wn) {
        snprintf(why, why_size, "the warp tile wm %lld x wn %lld must divide the block tile bm %lld x bn %lld",
                 (long long)wm, (long long)wn, (long long)bm, (long long)bn);
        return 0;
    }
    const int64_t threads = (bm / wm) * (bn / wn) * 32;
    if (threads > 1024) {
        snprintf(why, why_size, "(bm / wm) * (bn / wn) = %lld warps is %lld threads, over CUDA's 1024 per block",
                 (long long)(threads / 32), (long long)threads);
        return 0;
    }
    return 1;
}

long long gh_cuda_mma_shared_bytes(gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b)
{
    const int64_t *w = v->wt;
    const long long es = (long long)gh_plugin_dtype_size(dtype), bm = w[GH_MMA_BM], bn = w[GH_MMA_BN],
                    bk = w[GH_MMA_BK];
    /* mma.cu's PAD_KC and PAD_XC: rows padded by 4 f32 or 8 16-bit
     * elements along K, by 8 elements along M or N. */
    const long long pad_kc = es == 4 ? 4 : 8, pad_xc = 8;
    long long a = trans_a ? bk * (bm + pad_xc) : bm * (bk + pad_kc);
    long long b = trans_b ? bn * (bk + pad_kc) : bk * (bn + pad_xc);
    return w[GH_MMA_STAGES] * (a + b) * es;
}

int gh_cuda_wgmma_fits(gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    (void)dtype;
    const int64_t bm = v->wt[GH_WGMMA_BM], bn = v->wt[GH_WGMMA_BN];
    if ((bm / 128) * bn / 2 > 128) {
        snprintf(why, why_size,
                 "bm %lld x bn %lld gives each consumer thread %lld accumulators; registers hold at most 128",
                 (long long)bm, (long long)bn, (long long)((bm / 128) * bn / 2));
        return 0;
    }
    return 1;
}

long long gh_cuda_wgmma_shared_bytes(const gh_cuda_variant *v)
{
    /* Each stage: bm + bn rows of 128 bytes; then a full and an empty
     * mbarrier per stage; 1024 bytes of room for the alignment. */
    return v->wt[GH_WGMMA_STAGES] * ((v->wt[GH_WGMMA_BM] + v->wt[GH_WGMMA_BN]) * 128 + 16) + 1024;
}

int gh_cuda_variant_fits(int kernel, gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    if (kernel == GH_CUDA_WARPTILE) return gh_cuda_warptile_fits(dtype, v, why, why_size);
    if (kernel == GH_CUDA_MMA) return gh_cuda_mma_fits(dtype, v, why, why_size);
    if (kernel == GH_CUDA_WGMMA) return gh_cuda_wgmma_fits(dtype, v, why, why_size);
    return 1;
}

long long gh_cuda_dynamic_shared_bytes(int kernel, gh_dtype dtype, const gh_cuda_variant *v, int trans_a,
                                       int trans_b)
{
    if (kernel == GH_CUDA_WARPTILE) return gh_cuda_warptile_shared_bytes(dtype, v, trans_a, trans_b);
    if (kernel == GH_CUDA_MMA) return gh_cuda_mma_shared_bytes(dtype, v, trans_a, trans_b);
    if (kernel == GH_CUDA_WGMMA) return gh_cuda_wgmma_shared_bytes(v);
    return 0;
}

void gh_cuda_variant_name(char *out, size_t size, int kernel, gh_dtype dtype, const gh_cuda_variant *v)
{
    if (kernel == GH_CUDA_WARPTILE) {
        const int64_t *w = v->wt;
        snprintf(out, size,
                 "gemm_warptile (%s, bm %lld bn %lld bk %lld wm %lld wn %lld tm %lld tn %lld stages %lld "
                 "minblocks %lld)",
                 gh_plugin_dtype_name(dtype), (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3],
                 (long long)w[4], (long long)w[5], (long long)w[6], (long long)w[7], (long long)w[8]);
    } else if (kernel == GH_CUDA_MMA) {
        const int64_t *w = v->wt;
        snprintf(out, size, "gemm_mma (%s, bm %lld bn %lld bk %lld wm %lld wn %lld stages %lld)",
                 gh_plugin_dtype_name(dtype), (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3],
                 (long long)w[4], (long long)w[5]);
    } else if (kernel == GH_CUDA_WGMMA) {
        snprintf(out, size, "gemm_wgmma (%s, bm %lld bn %lld stages %lld)", gh_plugin_dtype_name(dtype),
                 (long long)v->wt[0], (long long)v->wt[1], (long long)v->wt[2]);
    } else if (kernel == GH_CUDA_BLOCKED)
        snprintf(out, size, "gemm_blocked (%s, tile %lld, work %lld)", gh_plugin_dtype_name(dtype), (long long)v->tile,
                 (long long)v->work);
    else if (kernel == GH_CUDA_TILED)
        snprintf(out, size, "gemm_tiled (%s, tile %lld)", gh_plugin_dtype_name(dtype), (long long)v->tile);
    else snprintf(out, size, "gemm_naive (%s)", gh_plugin_dtype_name(dtype));
}

_Static_assert(GH_WT_BM == 0 && GH_WT_BN == 1 && GH_MMA_BM == 0 && GH_MMA_BN == 1 && GH_WGMMA_BM == 0 &&
                   GH_WGMMA_BN == 1,
               "warptile, mma and wgmma take bm and bn first");

/* Threads per block of warptile, mma and wgmma. */
static long long param_kernel_threads(int kernel, const int64_t *w)
{
    if (kernel == GH_CUDA_WGMMA) return 384; /* a producer and two consumer warpgroups */
    if (kernel == GH_CUDA_MMA) return (w[GH_MMA_BM] / w[GH_MMA_WM]) * (w[GH_MMA_BN] / w[GH_MMA_WN]) * 32;
    return (w[GH_WT_BM] / w[GH_WT_WM]) * (w[GH_WT_BN] / w[GH_WT_WN]) * 32;
}

gh_cuda_launch_shape gh_cuda_launch_shape_of(int kernel, gh_dtype dtype, const gh_cuda_variant *v, int64_t m, int64_t n,
                                             int trans_a, int trans_b)
{
    gh_cuda_launch_shape s = {NAIVE_BLOCK_X, NAIVE_BLOCK_Y, 0, 0, 0, 0, 0};
    if (gh_cuda_kernel_has_param_list(kernel)) {
        /* One dimension: blocks are numbered in groups (warptile.cu,
         * mma.cu, wgmma.cu), bm x bn of C each: their first two parameters. */
        const int64_t bm = v->wt[0], bn = v->wt[1];
        s.threads = param_kernel_threads(kernel, v->wt);
        s.shared = gh_cuda_dynamic_shared_bytes(kernel, dtype, v, trans_a, trans_b);
        s.dynamic = 1;
        s.block_x = (unsigned)s.threads;
        s.block_y = 1;
        s.grid_x = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
        s.grid_y = 1;
        return s;
    }
    long long cover_x = NAIVE_BLOCK_X, cover_y = NAIVE_BLOCK_Y; /* the edges of C a block computes */
    if (kernel == GH_CUDA_TILED) {
        s.threads = v->tile * v->tile;
        /* as[] and bs[] in tiled.cu */
        s.shared = 2LL * v->tile * (v->tile + 1) * (long long)gh_cuda_acc_size(dtype);
        s.block_x = s.block_y = (unsigned)v->tile;
        cover_x = cover_y = v->tile;
    } else if (kernel == GH_CUDA_BLOCKED) {
        long long side = v->tile / v->work;
        s.threads = side * side;
        s.shared = gh_cuda_blocked_shared_bytes(dtype, v->tile);
        s.block_x = (unsigned)s.threads; /* one dimension: threadIdx.x is the thread's number */
        s.block_y = 1;
        cover_x = cover_y = v->tile;
    }
    s.grid_x = (n + cover_x - 1) / cover_x;
    s.grid_y = (m + cover_y - 1) / cover_y;
    return s;
}
