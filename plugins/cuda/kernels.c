/* The kernel table, the variants and their launch geometry; see kernels.h.
 * Each kernel's parameters, fit rule and shared memory are its own file,
 * named as in kernels/cuda (tiled.c, blocked.c, warptile.c, mma.c, wgmma.c). */
#include "kernels.h"

#include <stdio.h>

#include "gemmhost/plugin_helpers.h"
#include "tile_grid.h"

/* naive: a warp spans 32 consecutive columns of one row of C. */
#define NAIVE_BLOCK_X 32
#define NAIVE_BLOCK_Y 8

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

/* FP8 products are exact in f32 (4 + 4 significant bits) and summed in
 * f32; i8 products summed exactly in int (the host keeps the sums within
 * int32). */
const gh_type_combo gh_cuda_8bit_combos[GH_CUDA_8BIT_COMBOS] = GH_PLUGIN_EXACT_8BIT_COMBOS;
#define COMBOS_8BIT .combos = gh_cuda_8bit_combos, .n_combos = GH_CUDA_8BIT_COMBOS

/* cuBLASLt's FP8 pairs (cuBLASLt's A is the caller's B: the pairs are
 * symmetric, e5m2 x e5m2 is not among them) with C in f32, f16 or bf16.
 * Without FAST_ACCUM the tensor cores' 13-bit running sum is added into
 * f32 every 128 K; with it, never (what the probe measured: docs/kernels.md). */
#define LT_FP8_COMBO(A, B, C, BITS, EVERY)                                          \
    {                                                                               \
        sizeof(gh_type_combo), A, B, C, GH_PREC_AS_STORED, GH_PREC_F32, BITS, EVERY \
    }
#define LT_FP8_COMBOS_EVERY(A, B, BITS, EVERY)                                        \
    LT_FP8_COMBO(A, B, GH_F32, BITS, EVERY), LT_FP8_COMBO(A, B, GH_F16, BITS, EVERY), \
        LT_FP8_COMBO(A, B, GH_BF16, BITS, EVERY)
#define LT_FP8_COMBOS(A, B, BITS) LT_FP8_COMBOS_EVERY(A, B, BITS, 0)
static const gh_type_combo lt_fp8_combos[] = {
    LT_FP8_COMBOS_EVERY(GH_E4M3, GH_E4M3, GH_PLUGIN_HOPPER_FP8_SUM_BITS, GH_CUDA_LT_FP8_PROMOTE_EVERY),
    LT_FP8_COMBOS_EVERY(GH_E4M3, GH_E5M2, GH_PLUGIN_HOPPER_FP8_SUM_BITS, GH_CUDA_LT_FP8_PROMOTE_EVERY),
    LT_FP8_COMBOS_EVERY(GH_E5M2, GH_E4M3, GH_PLUGIN_HOPPER_FP8_SUM_BITS, GH_CUDA_LT_FP8_PROMOTE_EVERY),
};
static const gh_type_combo lt_fp8_fast_combos[] = {
    LT_FP8_COMBOS(GH_E4M3, GH_E4M3, GH_PLUGIN_HOPPER_FP8_SUM_BITS),
    LT_FP8_COMBOS(GH_E4M3, GH_E5M2, GH_PLUGIN_HOPPER_FP8_SUM_BITS),
    LT_FP8_COMBOS(GH_E5M2, GH_E4M3, GH_PLUGIN_HOPPER_FP8_SUM_BITS),
};
static const gh_type_combo i8_exact_combos[] = {
    {sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
};
#define KERNEL_COMBOS(C) .combos = C, .n_combos = GH_PLUGIN_COUNT(C)

/* wgmma's FP8: every pair, C f32/f16/bf16. Declared as its worst case, the
 * narrow sum never promoted (promote 0); promote > 0 does better than that
 * declaration, never worse. And s8 x s8 -> i32, exact. */
static const gh_type_combo wgmma_8bit_combos[] = GH_PLUGIN_HOPPER_8BIT_COMBOS;

const gh_kernel_info gh_cuda_kernel_infos[GH_CUDA_KERNEL_COUNT] = {
    [GH_CUDA_NAIVE] = {GH_PLUGIN_KERNEL("naive",
                                        "one thread per element of C, a warp along 32 consecutive columns (NVRTC)",
                                        ALL_DTYPES),
                       COMBOS_8BIT},
    [GH_CUDA_TILED] = {GH_PLUGIN_KERNEL("tiled",
                                        "tile x tile thread blocks, tiles of A and B staged in shared memory (NVRTC)",
                                        ALL_DTYPES),
                       GH_PLUGIN_KERNEL_PARAMS(gh_cuda_tiled_params), COMBOS_8BIT},
    [GH_CUDA_BLOCKED] = {GH_PLUGIN_KERNEL("blocked",
                                          "2D register blocking: each thread a work x work block of C in registers, "
                                          "tiles of A and B double-buffered in shared memory (NVRTC)",
                                          ALL_DTYPES),
                         GH_PLUGIN_KERNEL_PARAMS(gh_cuda_blocked_params), COMBOS_8BIT},
    [GH_CUDA_WARPTILE] = {GH_PLUGIN_KERNEL("warptile",
                                           "block, warp and thread tiles; A and B tiles in stages-deep shared-memory "
                                           "buffers filled by cp.async (16-byte pieces where the layout allows), "
                                           "bank-conflict-free reads, blocks ordered in groups for L2 (NVRTC)",
                                           FLOAT_DTYPES),
                          GH_PLUGIN_KERNEL_PARAMS(gh_cuda_warptile_params)},
    [GH_CUDA_MMA] = {GH_PLUGIN_KERNEL(
                         "mma",
                         "warp-level tensor cores (mma.sync m16n8k16 for f16/bf16, m16n8k8 on f32 rounded to TF32, "
                         "f32 sums; m16n8k32 for i8 x i8 -> i32, exact s32 sums); ldmatrix fragments, cp.async "
                         "stages; compute capability 8.0 or newer (NVRTC)",
                         GH_DTYPE_BIT(GH_F32) | HALF_DTYPES),
                     GH_PLUGIN_KERNEL_PARAMS(gh_cuda_mma_params), GH_PLUGIN_KERNEL_PRECISIONS(tf32_precision),
                     KERNEL_COMBOS(i8_exact_combos)},
    [GH_CUDA_WGMMA] = {GH_PLUGIN_KERNEL(
                           "wgmma",
                           "Hopper warpgroup tensor cores: TMA loads into 128-byte-swizzled shared memory, an mbarrier "
                           "pipeline, a producer and two consumer warpgroups, wgmma.mma_async (f16/bf16; f32 as TF32, "
                           "trans nt only; e4m3/e5m2 pairs to f32/f16/bf16 C, k32, trans nt only, the narrow FP8 sum "
                           "promoted to f32 every `promote` steps of 128 K or never), f32 sums; i8 x i8 -> i32, k32, "
                           "trans nt only, exact s32 sums; sm_90a, operands in 16-byte rows (NVRTC)",
                           GH_DTYPE_BIT(GH_F32) | HALF_DTYPES),
                       GH_PLUGIN_KERNEL_PARAMS(gh_cuda_wgmma_params),
                       GH_PLUGIN_KERNEL_PRECISIONS(tf32_truncated_precision), KERNEL_COMBOS(wgmma_8bit_combos)},
    [GH_CUDA_CUBLAS] = {GH_PLUGIN_KERNEL("cublas",
                                         "cuBLAS as users get it (PyTorch's path): cuBLASLt with a 32 MiB workspace, "
                                         "the fastest of its heuristic's top 8 algorithms per case; f32 without TF32, "
                                         "f16/bf16 with f32 compute, split-K sums as the library allows by default: "
                                         "the baseline",
                                         GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | HALF_DTYPES)},
    [GH_CUDA_CUBLAS_TF32] = {GH_PLUGIN_KERNEL("cublas-tf32",
                                              "cuBLAS f32 GEMM on TF32 tensor cores (cuBLASLt, "
                                              "CUBLAS_COMPUTE_32F_FAST_TF32), chosen as cublas is: inputs rounded to "
                                              "TF32, f32 sums; compute capability 8.0 or newer",
                                              GH_DTYPE_BIT(GH_F32)),
                             GH_PLUGIN_KERNEL_PRECISIONS(tf32_precision)},
    [GH_CUDA_CUBLAS_STRICT] = {GH_PLUGIN_KERNEL("cublas-strict",
                                                "cuBLAS as cublas, but forbidding reduced-precision reductions: "
                                                "split-K sums only in the f32 compute type or none "
                                                "(CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE | NONE), never in f16/bf16 "
                                                "or in place in C",
                                                GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | HALF_DTYPES)},
    /* The mask bits (ABI 1.5 wants a non-empty mask) would be an 8-bit C,
     * which gemm() refuses: the combinations are what these run. */
    [GH_CUDA_CUBLASLT_FP8] = {GH_PLUGIN_KERNEL("cublaslt-fp8",
                                               "cuBLASLt FP8 GEMM as cublas chooses it: A x B in e4m3 x e4m3, e4m3 x "
                                               "e5m2 or e5m2 x e4m3, C f32/f16/bf16, f32 compute, per-tensor scales "
                                               "of A and B through its scale pointers, FAST_ACCUM off (partial sums "
                                               "promoted to f32); trans nt only (cuBLASLt's TN), 16-byte leading "
                                               "dimensions and starts; compute capability 8.9 or newer; an FP8 C "
                                               "(the e4m3 mask bit) is refused",
                                               GH_DTYPE_BIT(GH_E4M3)),
                              KERNEL_COMBOS(lt_fp8_combos)},
    [GH_CUDA_CUBLASLT_FP8_FAST] = {GH_PLUGIN_KERNEL("cublaslt-fp8-fast",
                                                    "cublaslt-fp8 with CUBLASLT_MATMUL_DESC_FAST_ACCUM on: the "
                                                    "tensor cores' narrow FP8 sum is never promoted (declared as "
                                                    "13 mantissa bits over the whole K)",
                                                    GH_DTYPE_BIT(GH_E4M3)),
                                   KERNEL_COMBOS(lt_fp8_fast_combos)},
    [GH_CUDA_CUBLASLT_I8] = {GH_PLUGIN_KERNEL("cublaslt-i8",
                                              "cuBLASLt int8 GEMM as cublas chooses it: i8 x i8 -> i32, "
                                              "CUBLAS_COMPUTE_32I (exact), int32 alpha and beta; trans nt only "
                                              "(cuBLASLt's TN), leading dimensions multiples of 4 and 4-byte "
                                              "starts; an i8 C (the i8 mask bit) is refused",
                                              GH_DTYPE_BIT(GH_I8)),
                             KERNEL_COMBOS(i8_exact_combos)},
};

gh_cuda_types gh_cuda_types_of(const gh_gemm_args *args)
{
    const gh_plugin_gemm_types t = gh_plugin_gemm_types_of(args);
    return (gh_cuda_types){t.a, t.b, t.c};
}

gh_cuda_types gh_cuda_types_uniform(gh_dtype dtype)
{
    return (gh_cuda_types){dtype, dtype, dtype};
}

int gh_cuda_types_are_uniform(gh_cuda_types t)
{
    return t.a == t.b && t.b == t.c;
}

void gh_cuda_types_name(char *out, size_t size, gh_cuda_types t)
{
    if (gh_cuda_types_are_uniform(t)) snprintf(out, size, "%s", gh_plugin_dtype_name(t.a));
    else
        snprintf(out, size, "%s x %s -> %s", gh_plugin_dtype_name(t.a), gh_plugin_dtype_name(t.b),
                 gh_plugin_dtype_name(t.c));
}

int gh_cuda_type_slot(gh_cuda_types t)
{
    if (gh_cuda_types_are_uniform(t)) return (unsigned)t.a < GH_DTYPE_COUNT ? (int)t.a : -1;
    for (int i = 0; i < GH_CUDA_8BIT_COMBOS; ++i)
        if (gh_cuda_8bit_combos[i].a == t.a && gh_cuda_8bit_combos[i].b == t.b && gh_cuda_8bit_combos[i].c == t.c)
            return GH_DTYPE_COUNT + i;
    return -1;
}

gh_cuda_types gh_cuda_slot_types(int slot)
{
    if (slot < GH_DTYPE_COUNT) return gh_cuda_types_uniform((gh_dtype)slot);
    const gh_type_combo *c = &gh_cuda_8bit_combos[slot - GH_DTYPE_COUNT];
    return (gh_cuda_types){c->a, c->b, c->c};
}

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

gh_dtype gh_cuda_sizing_dtype(int kernel, gh_cuda_types types)
{
    return gh_cuda_kernel_has_param_list(kernel) ? types.a : types.c;
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

int gh_cuda_variant_fits(int kernel, gh_dtype dtype, const gh_cuda_variant *v, char *why, size_t why_size)
{
    if (kernel == GH_CUDA_WARPTILE) return gh_cuda_warptile_fits(dtype, v, why, why_size);
    if (kernel == GH_CUDA_MMA) return gh_cuda_mma_fits(dtype, v, why, why_size);
    if (kernel == GH_CUDA_WGMMA) return gh_cuda_wgmma_fits(dtype, v, why, why_size);
    return 1;
}

long long gh_cuda_dynamic_shared_bytes(int kernel, gh_dtype dtype, const gh_cuda_variant *v, int trans_a, int trans_b)
{
    if (kernel == GH_CUDA_WARPTILE) return gh_cuda_warptile_shared_bytes(dtype, v, trans_a, trans_b);
    if (kernel == GH_CUDA_MMA) return gh_cuda_mma_shared_bytes(dtype, v, trans_a, trans_b);
    if (kernel == GH_CUDA_WGMMA) return gh_cuda_wgmma_shared_bytes(v);
    return 0;
}

void gh_cuda_variant_name(char *out, size_t size, int kernel, gh_cuda_types types, const gh_cuda_variant *v)
{
    char dtype[48]; /* "e4m3 x e5m2 -> bf16" and the longest names */
    gh_cuda_types_name(dtype, sizeof dtype, types);
    if (kernel == GH_CUDA_WARPTILE) {
        const int64_t *w = v->wt;
        snprintf(out, size,
                 "gemm_warptile (%s, bm %lld bn %lld bk %lld wm %lld wn %lld tm %lld tn %lld stages %lld "
                 "minblocks %lld)",
                 dtype, (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3], (long long)w[4],
                 (long long)w[5], (long long)w[6], (long long)w[7], (long long)w[8]);
    } else if (kernel == GH_CUDA_MMA) {
        const int64_t *w = v->wt;
        snprintf(out, size, "gemm_mma (%s, bm %lld bn %lld bk %lld wm %lld wn %lld stages %lld)", dtype,
                 (long long)w[0], (long long)w[1], (long long)w[2], (long long)w[3], (long long)w[4], (long long)w[5]);
    } else if (kernel == GH_CUDA_WGMMA) {
        snprintf(out, size, "gemm_wgmma (%s, bm %lld bn %lld stages %lld promote %lld cluster %lld persistent %lld)",
                 dtype, (long long)v->wt[0], (long long)v->wt[1], (long long)v->wt[2], (long long)v->wt[3],
                 (long long)v->wt[4], (long long)v->wt[5]);
    } else if (kernel == GH_CUDA_BLOCKED)
        snprintf(out, size, "gemm_blocked (%s, tile %lld, work %lld)", dtype, (long long)v->tile, (long long)v->work);
    else if (kernel == GH_CUDA_TILED) snprintf(out, size, "gemm_tiled (%s, tile %lld)", dtype, (long long)v->tile);
    else snprintf(out, size, "gemm_naive (%s)", dtype);
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
                                             int trans_a, int trans_b, int sm_count)
{
    gh_cuda_launch_shape s = {NAIVE_BLOCK_X, NAIVE_BLOCK_Y, 0, 0, 0, 0, 0, 1};
    if (gh_cuda_kernel_has_param_list(kernel)) {
        /* One dimension: blocks are numbered in groups (warptile.cu,
         * mma.cu, wgmma.cu), bm x bn of C each: their first two parameters. */
        const int64_t bm = v->wt[0], bn = v->wt[1];
        s.threads = param_kernel_threads(kernel, v->wt);
        s.shared = gh_cuda_dynamic_shared_bytes(kernel, dtype, v, trans_a, trans_b);
        s.dynamic = 1;
        s.block_x = (unsigned)s.threads;
        s.block_y = 1;
        /* wgmma's cluster 2: a pair of blocks for each 2 bm x bn (wgmma.cu). */
        const int64_t cluster = kernel == GH_CUDA_WGMMA ? v->wt[GH_WGMMA_CLUSTER] : 1;
        s.cluster = (unsigned)cluster;
        const long long blocks = ((m + cluster * bm - 1) / (cluster * bm)) * cluster * ((n + bn - 1) / bn);
        /* wgmma's persistent 1: at most a block per SM, each walking its tiles. */
        s.grid_x =
            gh_cuda_tile_grid(blocks, s.cluster, kernel == GH_CUDA_WGMMA && v->wt[GH_WGMMA_PERSISTENT], sm_count);
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

int gh_cuda_warps_divide_block(int64_t bm, int64_t bn, int64_t wm, int64_t wn, char *why, size_t why_size)
{
    if (wm > bm || wn > bn || bm % wm || bn % wn) {
        snprintf(why, why_size, "the warp tile wm %lld x wn %lld must divide the block tile bm %lld x bn %lld",
                 (long long)wm, (long long)wn, (long long)bm, (long long)bn);
        return 0;
    }
    return 1;
}

int gh_cuda_block_threads_fit(int64_t bm, int64_t bn, int64_t wm, int64_t wn, char *why, size_t why_size)
{
    const int64_t threads = (bm / wm) * (bn / wn) * 32;
    if (threads > 1024) {
        snprintf(why, why_size, "(bm / wm) * (bn / wn) = %lld warps is %lld threads, over CUDA's 1024 per block",
                 (long long)(threads / 32), (long long)threads);
        return 0;
    }
    return 1;
}
