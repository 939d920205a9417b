#include <stdio.h>
#include <string.h>
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"
#include "state.h"

static const int64_t naive_wg_allowed[] = {8, 16, 32};
static const int64_t tiled_tile_allowed[] = {4, 8, 16, 32};
static const int64_t blocked_tile_allowed[] = {32, 64, 128};
static const int64_t blocked_work_allowed[] = {2, 4, 8};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const gh_param_info naive_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "wg",
    .description = "work-group edge: wg x wg work-items, one per element of C (built in with -DWG)",
    .default_value = 16,
    .allowed = naive_wg_allowed,
    .n_allowed = COUNT(naive_wg_allowed),
}};

static const gh_param_info tiled_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "tile",
    .description = "tile edge: tile x tile work-items per work-group, tiles of A and B "
                   "of tile x tile in local memory (built in with -DTILE)",
    .default_value = 16,
    .allowed = tiled_tile_allowed,
    .n_allowed = COUNT(tiled_tile_allowed),
}};

static const gh_param_info blocked_params[] = {
    {
        .size = sizeof(gh_param_info),
        .name = "tile",
        .description = "edge of the block of C a work-group computes from tiles of tile x 16 of A and B "
                       "in local memory (x 8 where local memory is short; built in with -DTILE)",
        .default_value = 128,
        .allowed = blocked_tile_allowed,
        .n_allowed = COUNT(blocked_tile_allowed),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "work",
        .description = "edge of the micro-tile of C each work-item keeps in registers: "
                       "(tile/work)^2 work-items per work-group (built in with -DWORK)",
        .default_value = 8,
        .allowed = blocked_work_allowed,
        .n_allowed = COUNT(blocked_work_allowed),
    },
};

/* mma: block and warp tiles, the step along K and the stages. The default,
 * 128 x 128 blocks of four 64 x 64 warps 32 deep in two stages, fits
 * NVIDIA's 48 KB of local memory in f16 and bf16 (40 KB); f32 is built 16
 * deep where 32 does not fit (mma_local_bytes says what each takes). */
static const int64_t mma_block_allowed[] = {64, 128, 256};
static const int64_t mma_depth_allowed[] = {16, 32};
static const int64_t mma_warp_allowed[] = {32, 64};
static const int64_t mma_stages_allowed[] = {2, 3, 4};
#define MMA_PARAM(NAME, DESCRIPTION, DEFAULT, VALUES)                                                    \
    {                                                                                                    \
        .size = sizeof(gh_param_info), .name = NAME, .description = DESCRIPTION, .default_value = DEFAULT, \
        .allowed = VALUES, .n_allowed = COUNT(VALUES),                                                   \
    }
static const gh_param_info mma_params[OCL_MMA_PARAMS] = {
    [OCL_MMA_BM] = MMA_PARAM("bm", "rows of C a work-group computes", 128, mma_block_allowed),
    [OCL_MMA_BN] = MMA_PARAM("bn", "columns of C a work-group computes", 128, mma_block_allowed),
    [OCL_MMA_BK] = MMA_PARAM("bk", "step along K: the depth of the tiles of A and B in local memory", 32,
                             mma_depth_allowed),
    [OCL_MMA_WM] = MMA_PARAM("wm", "rows of the block's C one warp of 32 work-items computes", 64, mma_warp_allowed),
    [OCL_MMA_WN] = MMA_PARAM("wn", "columns of the block's C one warp computes", 64, mma_warp_allowed),
    [OCL_MMA_STAGES] = MMA_PARAM("stages", "local-memory buffers of A and B tiles in flight (cp.async)", 2,
                                 mma_stages_allowed),
};

/* wgmma: the block tile (bm / 64 warpgroups, one 64-row instruction tile
 * each, bn its N), the depth of the tiles along K and their stages. Local
 * memory is stages x (bm + bn) x bk x 2 bytes: the default, 128 x 128 32
 * deep in three stages, fills NVIDIA's 48 KB. No bm 256: NVIDIA's OpenCL
 * gives the kernel at most 256 work-items (CL_KERNEL_WORK_GROUP_SIZE), not
 * the 512 four warpgroups are. */
static const int64_t wgmma_rows_allowed[] = {64, 128};
static const int64_t wgmma_block_allowed[] = {64, 128, 256};
static const int64_t wgmma_depth_allowed[] = {16, 32};
static const int64_t wgmma_stages_allowed[] = {2, 3, 4};
static const gh_param_info wgmma_params[OCL_WGMMA_PARAMS] = {
    [OCL_WGMMA_BM] = MMA_PARAM("bm", "rows of C a work-group computes: one warpgroup of 128 work-items per 64",
                               128, wgmma_rows_allowed),
    [OCL_WGMMA_BN] = MMA_PARAM("bn", "columns of C a work-group computes: the N of each wgmma instruction", 128,
                               wgmma_block_allowed),
    [OCL_WGMMA_BK] = MMA_PARAM("bk", "step along K: the depth of the tiles of A and B in local memory (one or two "
                               "k16 instructions)", 32, wgmma_depth_allowed),
    [OCL_WGMMA_STAGES] = MMA_PARAM("stages", "local-memory buffers of A and B tiles in flight (cp.async)", 3,
                                   wgmma_stages_allowed),
};

/* mma's f32 is rounded to TF32 (to nearest) on the tensor cores. */
static const gh_kernel_precision mma_precisions[] = {
    {.size = sizeof(gh_kernel_precision), .dtype = GH_F32, .inputs = GH_PREC_TF32, .accumulate = GH_PREC_F32},
};

/* CLBlast's HGEMM multiplies and sums in half precision: held to f16's bound. */
static const gh_kernel_precision clblast_precisions[] = {
    {.size = sizeof(gh_kernel_precision), .dtype = GH_F16, .inputs = GH_PREC_AS_STORED, .accumulate = GH_PREC_F16},
};

/* f16 and bf16 are stored in 16 bits and multiplied and summed in f32 (the
 * default arithmetic of plugin.h, so no precisions are declared): every
 * device, see common.cl for why f16 needs no cl_khr_fp16. */
#define ALL_DTYPES \
    (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))

const ocl_kernel_def ocl_kernels[OCL_KERNEL_COUNT] = {
    [OCL_KERNEL_NAIVE] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "naive",
                    .description = "one work-item per element of C, the inner product over K in a loop",
                    .dtypes = ALL_DTYPES,
                    .params = naive_params,
                    .n_params = COUNT(naive_params),
                },
            .file = "naive.cl",
            .function = "gemm_naive",
            .defines = {"WG"},
        },
    [OCL_KERNEL_TILED] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "tiled",
                    .description = "tile x tile work-groups stage tiles of A and B in local memory, "
                                   "one element of C per work-item",
                    .dtypes = ALL_DTYPES,
                    .params = tiled_params,
                    .n_params = COUNT(tiled_params),
                },
            .file = "tiled.cl",
            .function = "gemm_tiled",
            .defines = {"TILE"},
        },
    [OCL_KERNEL_BLOCKED] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "blocked",
                    .description = "2D register blocking: a work-group computes a tile x tile block of C "
                                   "from tiles of A and B in local memory, each work-item a work x work "
                                   "micro-tile in registers",
                    .dtypes = ALL_DTYPES,
                    .params = blocked_params,
                    .n_params = COUNT(blocked_params),
                },
            .file = "blocked.cl",
            .function = "gemm_blocked",
            .defines = {"TILE", "WORK"},
        },
    [OCL_KERNEL_WARPTILE] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "warptile",
                    .description = "block / warp / work-item tiles: a bm x bn block of C per work-group, wm x wn "
                                   "per warp of 32 work-items, tm x tn per work-item in registers; 16-byte global "
                                   "loads where the layout allows, register-staged double buffering in local "
                                   "memory, conflict-free vector reads, work-groups ordered in groups for L2",
                    .dtypes = GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16) |
                              GH_DTYPE_BIT(GH_BF16),
                    .params = ocl_warptile_params,
                    .n_params = OCL_WT_PARAMS,
                },
            .file = "warptile.cl",
            .function = "gemm_warptile",
            .defines = {"BM", "BN", "BK", "WM", "WN", "TM", "TN"},
        },
    [OCL_KERNEL_MMA] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "mma",
                    .description = "tensor cores through inline PTX mma.sync (NVIDIA's OpenCL only, compute "
                                   "capability 8.0+): f16/bf16 m16n8k16, f32 as TF32 m16n8k8, f32 sums; cp.async "
                                   "stages in local memory, ldmatrix fragments",
                    .dtypes = GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16),
                    .params = mma_params,
                    .n_params = OCL_MMA_PARAMS,
                    .precisions = mma_precisions,
                    .n_precisions = COUNT(mma_precisions),
                },
            .file = "mma.cl",
            .function = "gemm_mma",
            .defines = {"BM", "BN", "BK", "WM", "WN", "STAGES"},
        },
    [OCL_KERNEL_WGMMA] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "wgmma",
                    .description = "Hopper's warpgroup tensor cores (wgmma.mma_async, m64nBNk16, f16/bf16, f32 "
                                   "sums) through inline PTX as comments, retargeted to sm_90a and loaded as a "
                                   "binary (NVIDIA's OpenCL, compute capability 9.0 only); cp.async stages into "
                                   "swizzled local memory",
                    .dtypes = GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16),
                    .params = wgmma_params,
                    .n_params = OCL_WGMMA_PARAMS,
                },
            .file = "wgmma.cl",
            .function = "gemm_wgmma",
            .defines = {"BM", "BN", "BK", "STAGES"},
            .sm90a = 1,
        },
    [OCL_KERNEL_CLBLAST] =
        {
            .info =
                {
                    .size = sizeof(gh_kernel_info),
                    .name = "clblast",
                    .description = "CLBlast's SGEMM, DGEMM and HGEMM (libclblast, loaded at run time; the "
                                   "clblast option names another library), timed from before the call to the end "
                                   "of all its kernels: the baseline. HGEMM sums in f16 and needs cl_khr_fp16; "
                                   "CLBlast has no bf16 or integer GEMM",
                    .dtypes = GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16),
                    .precisions = clblast_precisions,
                    .n_precisions = COUNT(clblast_precisions),
                },
        },
};

/* Bytes of an element of the kernels' local-memory tiles: their arithmetic
 * type (ACC_T), f32 for the 16-bit dtypes, which are converted as they are
 * loaded from global memory. */
static uint64_t tile_elem_bytes(gh_dtype dtype)
{
    return dtype == GH_F16 || dtype == GH_BF16 ? 4 : gh_plugin_dtype_size(dtype);
}

/* mma.cl's local memory (MMA_LOCAL_BYTES there): stages of an A and a B
 * tile, each sized for the larger of its two layouts, K-contiguous (rows
 * of bk padded by 8 16-bit or 4 f32 elements) or M/N-contiguous (bk rows of
 * bm or bn, padded by 8). */
static uint64_t mma_local_bytes(const int64_t *p, gh_dtype dtype)
{
    const uint64_t es = gh_plugin_dtype_size(dtype), pad_kc = es == 2 ? 8 : 4, bk = (uint64_t)p[OCL_MMA_BK];
    const uint64_t bm = (uint64_t)p[OCL_MMA_BM], bn = (uint64_t)p[OCL_MMA_BN];
    const uint64_t a_kc = bm * (bk + pad_kc), a_xc = bk * (bm + 8), b_kc = bn * (bk + pad_kc), b_xc = bk * (bn + 8);
    const uint64_t a = a_kc > a_xc ? a_kc : a_xc, b = b_kc > b_xc ? b_kc : b_xc;
    return (uint64_t)p[OCL_MMA_STAGES] * (a + b) * es;
}

/* blocked.cl's local memory: two tiles of DEPTH rows of TILE elements, each
 * row padded by 16 bytes (PAD there). */
static uint64_t blocked_local_bytes(int64_t tile, int depth, gh_dtype dtype)
{
    const uint64_t elem = tile_elem_bytes(dtype), pad = 16 / elem;
    return 2 * (uint64_t)depth * ((uint64_t)tile + pad) * elem;
}

void ocl_variant_resolve(int kernel, const int64_t *params, gh_dtype dtype, uint64_t local_mem_bytes, ocl_variant *out)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    *out = (ocl_variant){0};
    size_t used = 0;
    int slot = 0;
    for (size_t i = 0; i < def->info.n_params; i++) {
        const gh_param_info *p = &def->info.params[i];
        out->values[i] = params[i];
        slot = slot * (int)p->n_allowed + gh_plugin_param_index(p, params[i]);
        if (used < sizeof out->text)
            used += (size_t)snprintf(out->text + used, sizeof out->text - used, "%s%s=%lld", i ? " " : "", p->name,
                                     (long long)params[i]);
    }
    out->slot = slot;

    switch (kernel) {
    case OCL_KERNEL_NAIVE:
        out->local[0] = out->local[1] = (size_t)out->values[0];
        out->block_m = out->block_n = out->values[0];
        break;
    case OCL_KERNEL_TILED: {
        const uint64_t tile = (uint64_t)out->values[0];
        out->local[0] = out->local[1] = (size_t)tile;
        out->block_m = out->block_n = (int64_t)tile;
        /* Two tiles of tile x (tile + 1): one column of padding (see tiled.cl). */
        out->local_bytes = 2 * tile * (tile + 1) * tile_elem_bytes(dtype);
        break;
    }
    case OCL_KERNEL_BLOCKED: {
        const int64_t tile = out->values[0], work = out->values[1];
        out->local[0] = out->local[1] = (size_t)(tile / work);
        out->block_m = out->block_n = tile;
        /* 16 along K, unless the device's local memory only holds 8. */
        out->depth = 16;
        if (local_mem_bytes && blocked_local_bytes(tile, 16, dtype) > local_mem_bytes) out->depth = 8;
        out->local_bytes = blocked_local_bytes(tile, out->depth, dtype);
        break;
    }
    case OCL_KERNEL_MMA: {
        const int64_t *p = out->values;
        out->local[0] = (size_t)((p[OCL_MMA_BM] / p[OCL_MMA_WM]) * (p[OCL_MMA_BN] / p[OCL_MMA_WN]) * 32);
        out->local[1] = 1;
        out->block_m = p[OCL_MMA_BM];
        out->block_n = p[OCL_MMA_BN];
        out->linear = 1;
        out->local_bytes = mma_local_bytes(out->values, dtype);
        /* 16 deep where 32 does not fit: f32's tiles are twice the bytes
         * (its default, 128 x 128 in two stages, would take 72 KB). */
        if (local_mem_bytes && out->local_bytes > local_mem_bytes && out->values[OCL_MMA_BK] > 16) {
            out->values[OCL_MMA_BK] = 16;
            out->local_bytes = mma_local_bytes(out->values, dtype);
            size_t used = strlen(out->text);
            snprintf(out->text + used, sizeof out->text - used, " (bk 16: local memory)");
        }
        break;
    }
    case OCL_KERNEL_WGMMA: {
        const int64_t *p = out->values;
        out->local[0] = (size_t)(p[OCL_WGMMA_BM] * 2); /* 128 work-items per 64 rows */
        out->local[1] = 1;
        out->block_m = p[OCL_WGMMA_BM];
        out->block_n = p[OCL_WGMMA_BN];
        out->linear = 1;
        /* WGMMA_LOCAL_BYTES of wgmma.cl: tiles of 2-byte elements. */
        out->local_bytes = (uint64_t)(p[OCL_WGMMA_STAGES] * (p[OCL_WGMMA_BM] + p[OCL_WGMMA_BN]) * p[OCL_WGMMA_BK] * 2);
        break;
    }
    case OCL_KERNEL_WARPTILE:
        out->local[0] = (size_t)ocl_warptile_threads(out->values);
        out->local[1] = 1;
        out->block_m = out->values[OCL_WT_BM];
        out->block_n = out->values[OCL_WT_BN];
        out->linear = 1;
        out->local_bytes = ocl_warptile_local_bytes(out->values, dtype);
        break;
    }
}

int ocl_variant_fits(int kernel, const ocl_variant *v, gh_dtype dtype, char *why, size_t why_size)
{
    if (kernel == OCL_KERNEL_MMA) {
        const int64_t *p = v->values;
        if (p[OCL_MMA_WM] > p[OCL_MMA_BM] || p[OCL_MMA_WN] > p[OCL_MMA_BN]) {
            snprintf(why, why_size, "the warp tile wm %lld x wn %lld must fit the block tile bm %lld x bn %lld",
                     (long long)p[OCL_MMA_WM], (long long)p[OCL_MMA_WN], (long long)p[OCL_MMA_BM],
                     (long long)p[OCL_MMA_BN]);
            return 0;
        }
        return 1;
    }
    return kernel != OCL_KERNEL_WARPTILE || ocl_warptile_fits(v->values, dtype, why, why_size);
}

/* What a kernel of inline PTX asks of an NVIDIA device. */
typedef struct inline_ptx_need {
    const char *instructions;                    /* what the PTX holds */
    unsigned cc_major, cc_minor, exactly;        /* the compute capability: that one only, or it and newer */
    const char *because;                         /* why that one */
    const char *elsewhere;                       /* the route on other platforms, if any */
} inline_ptx_need;

static const inline_ptx_need inline_ptx_needs[OCL_KERNEL_COUNT] = {
    [OCL_KERNEL_MMA] = {"mma.sync", 8, 0, 0, "bf16 and TF32 mma.sync",
                        ". Elsewhere a vendor matrix extension would be the route: "
                        "cl_intel_subgroup_matrix_multiply_accumulate (Intel), or a future cl_khr one"},
    [OCL_KERNEL_WGMMA] = {"Hopper's sm_90a instructions", 9, 0, 1,
                          "sm_90a: its instructions are that architecture's alone", ""},
};

int ocl_inline_ptx_device_fits(int kernel, const ocl_device *dev, char *why, size_t why_size)
{
    const inline_ptx_need *need = &inline_ptx_needs[kernel];
    const char *name = ocl_kernels[kernel].info.name;
    if (!need->instructions) return 1;
    if (!dev->nv_cc_major) {
        snprintf(why, why_size,
                 "%s is inline PTX (%s), which only NVIDIA's OpenCL compiles; '%s' (%s) is not an NVIDIA device "
                 "with cl_nv_device_attribute_query%s",
                 name, need->instructions, dev->name, dev->platform_name, need->elsewhere);
        return 0;
    }
    const unsigned have = dev->nv_cc_major * 10 + dev->nv_cc_minor, want = need->cc_major * 10 + need->cc_minor;
    if (need->exactly ? have != want : have < want) {
        snprintf(why, why_size, "%s needs compute capability %u.%u%s (%s); '%s' is %u.%u", name, need->cc_major,
                 need->cc_minor, need->exactly ? " exactly" : " or newer", need->because, dev->name,
                 dev->nv_cc_major, dev->nv_cc_minor);
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

void ocl_warptile_path(ocl_variant *v, const ocl_device *dev, int trans_a, int trans_b, gh_dtype dtype)
{
    const int bits = (trans_a ? 1 : 0) | (trans_b ? 2 : 0);
    v->path = dev->nv_cc_major >= 8 && (dtype == GH_F32 || dtype == GH_F64) ? 1 + bits : 0;
    v->register_cap = ocl_warptile_register_cap(v->values, dtype, v->path, dev->nv_registers_per_block);
    v->slot = v->slot * 5 + v->path;
}

void ocl_variant_defines(int kernel, const ocl_variant *v, char *text, size_t size)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < def->info.n_params && used < size; i++)
        if (def->defines[i])
            used += (size_t)snprintf(text + used, size - used, " -D%s=%lld", def->defines[i], (long long)v->values[i]);
    if (v->depth && used < size) used += (size_t)snprintf(text + used, size - used, " -DDEPTH=%d", v->depth);
    if (v->path && used < size) {
        if (kernel == OCL_KERNEL_MMA || kernel == OCL_KERNEL_WGMMA)
            snprintf(text + used, size - used, " -DMMA_PATH=%d", v->path);
        else used += (size_t)snprintf(text + used, size - used, " -DGH_NV_ASYNC=%d", v->path);
    }
    if (v->register_cap && used < size)
        snprintf(text + used, size - used, " -DGH_NV_REGISTER_CAP=%u", v->register_cap);
}

int ocl_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return OCL_KERNEL_COUNT;
}

const gh_kernel_info *ocl_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (gh_plugin_check_index("kernel_info", "kernel", kernel, OCL_KERNEL_COUNT) != GH_OK) return NULL;
    return &ocl_kernels[kernel].info;
}
