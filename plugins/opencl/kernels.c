/* The kernel table (each kernel's parameters, fit rules and launch shape
 * are in its own file), the variant a call resolves to, and its -D options. */
#include <stdio.h>
#include <gemmhost/plugin_helpers.h>
#include "kernels.h"
#include "state.h"

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

/* (ABI 1.5) 8-bit A and B in naive, tiled and blocked: FP8 decoded in
 * software as it is loaded (common.cl: no OpenCL device has an FP8 type),
 * the products (exact in f32) summed in f32, C in f32, f16 or bf16; i8 read
 * as char, summed exactly in i32. */
static const gh_type_combo eight_bit_combos[] = GH_PLUGIN_EXACT_8BIT_COMBOS;

/* wgmma's FP8 pairs sum in the tensor cores' narrow running sum, never
 * promoted to f32 registers; its i8 x i8 -> i32 is exact (as CUDA's wgmma
 * with promote 0). */
static const gh_type_combo wgmma_8bit_combos[] = GH_PLUGIN_HOPPER_8BIT_COMBOS;

/* mma's i8 x i8 -> i32 (mma.sync m16n8k32.s8, s32 sums): exact, as CUDA's. */
static const gh_type_combo mma_i8_combos[] = {
    {sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
};

const ocl_kernel_def ocl_kernels[OCL_KERNEL_COUNT] = {
    [OCL_KERNEL_NAIVE] =
        {
            .info = {GH_PLUGIN_KERNEL("naive", "one work-item per element of C, the inner product over K in a loop",
                                      ALL_DTYPES),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_naive_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
            .file = "naive.cl",
            .function = "gemm_naive",
            .defines = {"WG"},
            .shape = ocl_naive_shape,
        },
    [OCL_KERNEL_TILED] =
        {
            .info = {GH_PLUGIN_KERNEL("tiled",
                                      "tile x tile work-groups stage tiles of A and B in local memory, "
                                      "one element of C per work-item",
                                      ALL_DTYPES),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_tiled_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
            .file = "tiled.cl",
            .function = "gemm_tiled",
            .defines = {"TILE"},
            .shape = ocl_tiled_shape,
        },
    [OCL_KERNEL_BLOCKED] =
        {
            .info = {GH_PLUGIN_KERNEL("blocked",
                                      "2D register blocking: a work-group computes a tile x tile block of C "
                                      "from tiles of A and B in local memory, each work-item a work x work "
                                      "micro-tile in registers",
                                      ALL_DTYPES),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_blocked_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
            .file = "blocked.cl",
            .function = "gemm_blocked",
            .defines = {"TILE", "WORK"},
            .shape = ocl_blocked_shape,
        },
    [OCL_KERNEL_WARPTILE] =
        {
            .info = {GH_PLUGIN_KERNEL("warptile",
                                      "block / warp / work-item tiles: a bm x bn block of C per work-group, wm x wn "
                                      "per warp of 32 work-items, tm x tn per work-item in registers; 16-byte global "
                                      "loads where the layout allows, register-staged double buffering in local "
                                      "memory, conflict-free vector reads, work-groups ordered in groups for L2",
                                      GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16) |
                                          GH_DTYPE_BIT(GH_BF16)),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_warptile_params)},
            .file = "warptile.cl",
            .function = "gemm_warptile",
            .defines = {"BM", "BN", "BK", "WM", "WN", "TM", "TN"},
            .shape = ocl_warptile_shape,
            .fits = ocl_warptile_fits,
        },
    [OCL_KERNEL_MMA] =
        {
            .info = {GH_PLUGIN_KERNEL("mma",
                                      "tensor cores through inline PTX mma.sync (NVIDIA's OpenCL only, compute "
                                      "capability 8.0+): f16/bf16 m16n8k16, f32 as TF32 m16n8k8, f32 sums; i8 x i8 "
                                      "-> i32 m16n8k32, exact s32 sums (bk 32); cp.async stages in local memory, "
                                      "ldmatrix fragments",
                                      GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16)),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_mma_params), GH_PLUGIN_KERNEL_PRECISIONS(mma_precisions),
                     GH_PLUGIN_KERNEL_COMBOS(mma_i8_combos)},
            .file = "mma.cl",
            .function = "gemm_mma",
            .defines = {"BM", "BN", "BK", "WM", "WN", "STAGES"},
            .shape = ocl_mma_shape,
            .fits = ocl_mma_fits,
        },
    [OCL_KERNEL_WGMMA] =
        {
            .info = {GH_PLUGIN_KERNEL("wgmma",
                                      "Hopper's warpgroup tensor cores (wgmma.mma_async: m64nBNk16 f16/bf16 with f32 "
                                      "sums; m64nBNk32 FP8 pairs with the tensor cores' 13-bit running sum, and i8 x "
                                      "i8 with exact s32 sums, tiles transposed into K-major as they are copied) "
                                      "through inline PTX as comments, retargeted to sm_90a and loaded as a binary "
                                      "(NVIDIA's OpenCL, compute capability 9.0 only); cp.async stages into swizzled "
                                      "local memory",
                                      GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16)),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_wgmma_params), GH_PLUGIN_KERNEL_COMBOS(wgmma_8bit_combos)},
            .file = "wgmma.cl",
            .function = "gemm_wgmma",
            .defines = {"BM", "BN", "BK", "STAGES"},
            .sm90a = 1,
            .shape = ocl_wgmma_shape,
            .fits = ocl_wgmma_fits,
        },
    [OCL_KERNEL_CLBLAST] =
        {
            .info = {GH_PLUGIN_KERNEL("clblast",
                                      "CLBlast's SGEMM, DGEMM and HGEMM (libclblast, loaded at run time; the "
                                      "clblast option names another library), timed from before the call to the end "
                                      "of all its kernels: the baseline. HGEMM sums in f16 and needs cl_khr_fp16; "
                                      "CLBlast has no bf16 or integer GEMM",
                                      GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16)),
                     GH_PLUGIN_KERNEL_PRECISIONS(clblast_precisions)},
        },
    [OCL_KERNEL_CLBLAST_TUNED] =
        {
            .info = {GH_PLUGIN_KERNEL("clblast-tuned",
                                      "the same CLBlast GEMM with its Xgemm parameters set through "
                                      "CLBlastOverrideParameters (override=1, the indirect GEMM at every size), which "
                                      "gemmhost --tune searches; override=0 (the default, and no tuned entry): "
                                      "CLBlast's own for the device. The result's note says which ran",
                                      GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16)),
                     GH_PLUGIN_KERNEL_PARAMS(ocl_clblast_tuned_params),
                     GH_PLUGIN_KERNEL_PRECISIONS(clblast_precisions)},
        },
};

uint64_t ocl_tile_elem_bytes(gh_dtype dtype)
{
    return dtype == GH_F16 || dtype == GH_BF16 ? 4 : gh_plugin_dtype_size(dtype);
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
    if (def->shape) def->shape(out, dtype, local_mem_bytes);
}

int ocl_variant_fits(int kernel, const ocl_variant *v, gh_dtype dtype, char *why, size_t why_size)
{
    const ocl_kernel_def *def = &ocl_kernels[kernel];
    return !def->fits || def->fits(v->values, dtype, why, why_size);
}

/* What a kernel of inline PTX asks of an NVIDIA device. */
typedef struct inline_ptx_need {
    const char *instructions;             /* what the PTX holds */
    unsigned cc_major, cc_minor, exactly; /* the compute capability: that one only, or it and newer */
    const char *because;                  /* why that one */
    const char *elsewhere;                /* the route on other platforms, if any */
} inline_ptx_need;

static const inline_ptx_need inline_ptx_needs[OCL_KERNEL_COUNT] = {
    [OCL_KERNEL_MMA] = {"mma.sync", 8, 0, 0, "bf16, TF32 and m16n8k32 s8 mma.sync",
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
                 need->cc_minor, need->exactly ? " exactly" : " or newer", need->because, dev->name, dev->nv_cc_major,
                 dev->nv_cc_minor);
        return 0;
    }
    return 1;
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
    if (v->register_cap && used < size) snprintf(text + used, size - used, " -DGH_NV_REGISTER_CAP=%u", v->register_cap);
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
