/* The kernels and their parameters, as the host sees them; the launch shape
 * of each combination of parameter values, and the device limits it meets. */
#include <stdio.h>

#include "kernels.h"

#include "gemmhost/plugin_helpers.h"
#include "state.h"

/* f64 only where the device has shaderFloat64, f16 and bf16 where it has
 * storageBuffer16BitAccess (gemm.c refuses them elsewhere). */
#define ALL_DTYPES \
    (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const int64_t sides[] = {4, 8, 16, 32};
static const int64_t blocked_tiles[] = {32, 64, 128};
static const int64_t blocked_works[] = {2, 4, 8};
static const int64_t warptile_tiles[] = {64, 128};
static const int64_t warptile_depths[] = {8, 16, 32};
static const int64_t warptile_works[] = {4, 8};
static const int64_t warptile_unrolls[] = {0, 1};
static const int64_t warptile_aspects[] = {1, 2};
static const int64_t coop_rows[] = {64, 128};
static const int64_t coop_cols[] = {64, 128, 256};
static const int64_t coop_subgroups[] = {4, 8};
/* one module per k step: plugins/vulkan/CMakeLists.txt builds the same */
static const int64_t coop_depths[] = {32};
static const int64_t coop_stages[] = {1, 2};
/* 0, then vkp_coop_shapes as M N K digits */
static const int64_t coop_shape_codes[] = {0, 161616, 16816, 1688};
const vkp_coop_shape vkp_coop_shapes[VKP_COOP_SHAPES] = {{16, 16, 16}, {16, 8, 16}, {16, 8, 8}};
/* warptile computes in f32 or f64 only: f16 and bf16 widened to f32. */
#define WARPTILE_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))

static const gh_param_info naive_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "wg",
    .description = "workgroup side: wg x wg invocations, one per element of C",
    .default_value = 16,
    .allowed = sides,
    .n_allowed = COUNT(sides),
}};

static const gh_param_info tiled_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "tile",
    .description = "side of the block of C one workgroup computes (tile x tile invocations) "
                   "and of the A and B tiles it stages in shared memory",
    .default_value = 16,
    .allowed = sides,
    .n_allowed = COUNT(sides),
}};

/* Defaults: 256 invocations of 8 x 8 accumulators, the usual shape of a
 * register-blocked SGEMM on NVIDIA GPUs. */
static const gh_param_info blocked_params[] = {
    {
        .size = sizeof(gh_param_info),
        .name = "tile",
        .description = "side of the block of C one workgroup computes, (tile/work)^2 invocations",
        .default_value = 128,
        .allowed = blocked_tiles,
        .n_allowed = COUNT(blocked_tiles),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "work",
        .description = "side of the block of C each invocation keeps in registers (work x work)",
        .default_value = 8,
        .allowed = blocked_works,
        .n_allowed = COUNT(blocked_works),
    },
};

/* Defaults: blocked's shape (256 invocations of 8 x 8, a 128 x 128 block)
 * with a k step of 16, 32 KiB of shared memory in f32 (double-buffered). */
static const gh_param_info warptile_params[] = {
    {
        .size = sizeof(gh_param_info),
        .name = "tile",
        .description = "side of the block of C one workgroup computes, (tile/work)^2 invocations",
        .default_value = 128,
        .allowed = warptile_tiles,
        .n_allowed = COUNT(warptile_tiles),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "depth",
        .description = "k step: tile x depth tiles of A and B staged per step, two of each in shared memory",
        .default_value = 16,
        .allowed = warptile_depths,
        .n_allowed = COUNT(warptile_depths),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "work",
        .description = "side of the block of C each invocation keeps in registers (work x work); "
                       "a subgroup of 32 computes 4 work x 8 work",
        .default_value = 8,
        .allowed = warptile_works,
        .n_allowed = COUNT(warptile_works),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "unroll",
        .description = "the k loop within a step: 0 rolled in the SPIR-V, marked for the driver to unroll; "
                       "1 unrolled by glslc (a module twice the size; aspect 1 only)",
        .default_value = 0,
        .allowed = warptile_unrolls,
        .n_allowed = COUNT(warptile_unrolls),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "aspect",
        .description = "rows per column of the block of C and of each invocation's work: 2 makes them "
                       "2 tile x tile and 2 work x work (the same invocations, twice the registers)",
        .default_value = 1,
        .allowed = warptile_aspects,
        .n_allowed = COUNT(warptile_aspects),
    },
};

/* Defaults: a 128 x 128 block of 4 subgroups (a 64 x 64 part each, 4 x 4
 * accumulators of 16 x 16), k step 32, double-buffered: 40 KiB of shared
 * memory, within the 48 KiB NVIDIA's Vulkan driver gives a workgroup. 4
 * subgroups rather than 8: twice the multiply-adds per staged byte a subgroup
 * reads, and faster (docs/kernels.md). */
static const gh_param_info coopmat_params[] = {
    {
        .size = sizeof(gh_param_info),
        .name = "bm",
        .description = "rows of C a workgroup computes",
        .default_value = 128,
        .allowed = coop_rows,
        .n_allowed = COUNT(coop_rows),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "bn",
        .description = "columns of C a workgroup computes (256: with 8 subgroups only)",
        .default_value = 128,
        .allowed = coop_cols,
        .n_allowed = COUNT(coop_cols),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "subgroups",
        .description = "subgroups per workgroup, laid out 2 x 2 (4) or 2 x 4 (8) over the block; "
                       "each computes its part with cooperative matrices",
        .default_value = 4,
        .allowed = coop_subgroups,
        .n_allowed = COUNT(coop_subgroups),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "bk",
        .description = "k step: the depth of the tiles of A and B staged in shared memory; built into the "
                       "modules (so that glslc unrolls the k loop), 32 only: more values would multiply "
                       "the plugin's build time",
        .default_value = 32,
        .allowed = coop_depths,
        .n_allowed = COUNT(coop_depths),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "shape",
        .description = "cooperative matrix shape M x N x K, as its digits (161616 = 16x16x16, 16816 = 16x8x16, "
                       "1688 = 16x8x8); 0: the first of those the device offers for the dtype (--list shows "
                       "what it offers)",
        .default_value = 0,
        .allowed = coop_shape_codes,
        .n_allowed = COUNT(coop_shape_codes),
    },
    {
        .size = sizeof(gh_param_info),
        .name = "stages",
        .description = "buffers of the staged tiles: 2 (the next step's tiles copied while this one's are "
                       "multiplied, one barrier a step) or 1 (two barriers a step, half the shared memory)",
        .default_value = 2,
        .allowed = coop_stages,
        .n_allowed = COUNT(coop_stages),
    },
};

const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT] = {
    [VKP_KERNEL_NAIVE] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "naive",
            .description = "compute shader, one invocation per element of C reading A and B from global memory",
            .dtypes = ALL_DTYPES,
            .params = naive_params,
            .n_params = COUNT(naive_params),
        },
    [VKP_KERNEL_TILED] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "tiled",
            .description = "compute shader, tile x tile workgroups sharing tiles of A and B in shared memory",
            .dtypes = ALL_DTYPES,
            .params = tiled_params,
            .n_params = COUNT(tiled_params),
        },
    [VKP_KERNEL_BLOCKED] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "blocked",
            .description = "compute shader, register blocking: each invocation computes a work x work block "
                           "of C from tiles of A and B staged in shared memory, tile x tile per workgroup",
            .dtypes = ALL_DTYPES,
            .params = blocked_params,
            .n_params = COUNT(blocked_params),
        },
    [VKP_KERNEL_WARPTILE] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "warptile",
            .description = "compute shader, workgroup / subgroup / invocation tiling: double-buffered shared "
                           "tiles, 4-vector global loads where the layout allows, work x work per invocation",
            .dtypes = WARPTILE_DTYPES,
            .params = warptile_params,
            .n_params = COUNT(warptile_params),
        },
    [VKP_KERNEL_COOPMAT] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "coopmat",
            .description = "compute shader on the matrix units: cooperative matrices of a subgroup "
                           "(VK_KHR_cooperative_matrix, f16 also VK_NV_cooperative_matrix; bf16 with "
                           "VK_KHR_shader_bfloat16), f32 sums, tiles of A and B staged in shared memory",
            .dtypes = GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16),
            .params = coopmat_params,
            .n_params = COUNT(coopmat_params),
        },
};

int vkp_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return VKP_KERNEL_COUNT;
}

const gh_kernel_info *vkp_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (gh_plugin_check_index("kernel_info", "kernel", kernel, VKP_KERNEL_COUNT) != GH_OK) return NULL;
    return &vkp_kernels[kernel];
}

gh_status vkp_variant_of(int kernel, const gh_gemm_args *args, vkp_variant *v)
{
    const gh_kernel_info *k = &vkp_kernels[kernel];
    /* The pipeline cache's slot: the parameters' positions among their
     * allowed values, as digits of a mixed-radix number. */
    int slot = 0, stride = 1;
    size_t used = 0;
    v->label[0] = '\0';
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_param_info *param = &k->params[p];
        slot += gh_plugin_param_index(param, args->params[p]) * stride;
        stride *= (int)param->n_allowed;
        int n = snprintf(v->label + used, sizeof v->label - used, "%s%s = %lld", p ? ", " : "", param->name,
                         (long long)args->params[p]);
        if (n > 0 && (size_t)n < sizeof v->label - used) used += (size_t)n;
    }
    if (slot >= VKP_VARIANT_MAX) /* a kernel table out of step with VKP_VARIANT_MAX */
        return gh_plugin_set_error(GH_ERROR, "gemm: kernel %s: %s needs pipeline slot %d of %d", k->name, v->label,
                                   slot, VKP_VARIANT_MAX);
    v->slot = slot;
    v->side = (uint32_t)args->params[0];
    v->block_m = v->block_n = v->side;
    v->subgroups = 0;
    v->shape = -1;
    v->work = kernel == VKP_KERNEL_BLOCKED ? (uint32_t)args->params[1] : 1;
    v->aspect = 1;
    v->depth = 0;
    v->stages = 0;
    v->unrolled = 0;
    v->layout = 0;
    /* blocked_w<work>: the work's position among its allowed values */
    v->module = kernel == VKP_KERNEL_BLOCKED ? gh_plugin_param_index(&k->params[1], args->params[1]) : 0;
    if (kernel == VKP_KERNEL_WARPTILE) { /* a module per combination */
        v->depth = (uint32_t)args->params[1];
        v->work = (uint32_t)args->params[2];
        v->unrolled = args->params[3] != 0;
        v->aspect = (uint32_t)args->params[4];
        v->block_m = v->side * v->aspect;
        v->module = slot;
    }
    v->invocations = (v->side / v->work) * (v->side / v->work);
    if (kernel == VKP_KERNEL_COOPMAT) {
        v->block_n = (uint32_t)args->params[1];
        v->subgroups = (uint32_t)args->params[2];
        v->depth = (uint32_t)args->params[3];
        int code = gh_plugin_param_index(&k->params[4], args->params[4]);
        v->shape = code - 1; /* 0 (the device's first) is -1 */
        v->stages = (uint32_t)args->params[5];
        v->invocations = 0;
        v->module = -1;
    }
    return GH_OK;
}

size_t vkp_arith_size(gh_dtype dtype)
{
    return dtype == GH_F64 ? 8 : 4;
}

/* Shared memory the tiled shader declares: two tiles with rows padded by one
 * element (kernels/vulkan/tiled.comp). */
static uint64_t tiled_shared_bytes(uint32_t tile, gh_dtype dtype)
{
    return 2ull * tile * (tile + 1) * vkp_arith_size(dtype);
}

/* Shared memory the blocked shader declares: two tiles of depth rows of
 * tile + 4 elements (kernels/vulkan/blocked.comp). */
static uint64_t blocked_shared_bytes(uint32_t tile, uint32_t depth, gh_dtype dtype)
{
    return 2ull * depth * (tile + 4) * vkp_arith_size(dtype);
}

/* Shared memory the warptile shader declares: two buffers of a block_m x
 * depth tile of A and a depth x block_n one of B, unpadded
 * (kernels/vulkan/warptile.comp). */
static uint64_t warptile_shared_bytes(const vkp_variant *v, gh_dtype dtype)
{
    return 2ull * v->depth * (v->block_m + v->block_n) * vkp_arith_size(dtype);
}

/* Shared memory the coopmat shader declares: per stage, the A and B tiles in
 * 16 bits, room for either orientation (bm and bn rows of bk + 8 elements),
 * or where larger the epilogue's f32 scratch of one accumulator per subgroup
 * (kernels/vulkan/coopmat.comp). */
static uint64_t coopmat_shared_bytes(const vkp_variant *v, const vkp_coop_shape *s)
{
    uint64_t staged = 2ull * v->stages * (v->block_m + v->block_n) * (v->depth + 8);
    uint64_t scratch = 4ull * v->subgroups * s->m * s->n;
    return staged > scratch ? staged : scratch;
}

/* The (bm, bn, subgroups) coopmat is built for (plugins/vulkan/CMakeLists.txt),
 * in module order; bn = 256 with 8 subgroups only. */
static const uint32_t coop_blocks[][3] = {
    {64, 64, 4},   {64, 64, 8},   {64, 128, 4}, {64, 128, 8},  {128, 64, 4},
    {128, 64, 8},  {128, 128, 4}, {128, 128, 8}, {64, 256, 8}, {128, 256, 8},
};

/* Where the device can run coopmat in that dtype (coopmat.c said so), the
 * shape, invocations and module of v. */
static gh_status coopmat_limits(const vkp_device *d, gh_dtype dtype, vkp_variant *v)
{
    const vkp_coop *c = &d->coop;
    const char *tname = gh_plugin_dtype_name(dtype);
    if (c->why[dtype][0])
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: kernel coopmat: %s: %s", tname, c->why[dtype]);
    if (v->shape < 0)
        for (int s = VKP_COOP_SHAPES - 1; s >= 0; s--)
            if (c->shapes[dtype] & (1u << s)) v->shape = s;
    const vkp_coop_shape *s = &vkp_coop_shapes[v->shape < 0 ? 0 : v->shape];
    if (v->shape < 0 || !(c->shapes[dtype] & (1u << v->shape)))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel coopmat: %s: %s: device %s offers no %ux%ux%u %s x %s + f32 "
                                   "cooperative matrix (it offers: %s)",
                                   tname, v->label, d->name, s->m, s->n, s->k, tname, tname,
                                   c->offered[0] ? c->offered : "none");
    int block = -1;
    for (int b = 0; b < (int)COUNT(coop_blocks); b++)
        if (coop_blocks[b][0] == v->block_m && coop_blocks[b][1] == v->block_n && coop_blocks[b][2] == v->subgroups)
            block = b;
    if (block < 0)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel coopmat: %s: %s: a block %u wide needs 8 subgroups (with %u, each "
                                   "would hold %u x %u f32 sums, more registers than an invocation has)",
                                   tname, v->label, v->block_n, v->subgroups, v->block_m / 2, v->block_n / 2);
    v->invocations = v->subgroups * c->subgroup_size;
    /* The module cache's index: one per (bm, bn, subgroups, shape, bk). */
    int depth = -1;
    for (int k = 0; k < (int)COUNT(coop_depths); k++)
        if (coop_depths[k] == v->depth) depth = k;
    if (depth < 0)
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: kernel coopmat: %s: %s: no module for bk = %u", tname,
                                   v->label, v->depth);
    v->module = (block * VKP_COOP_SHAPES + v->shape) * (int)COUNT(coop_depths) + depth;
    return GH_OK;
}

/* Loads of one staged tile per invocation that kernels/vulkan/warptile.comp
 * can track: tile = 64, depth = 32, work = 8 reaches it at aspect 1 and
 * passes it at aspect 2 (64). */
enum { WARPTILE_MAX_LOADS = 32 };

/* Where warptile has no module for v, or its shader cannot run v. */
static gh_status warptile_limits(const vkp_variant *v)
{
    const char *kname = vkp_kernels[VKP_KERNEL_WARPTILE].name;
    if (v->unrolled && v->aspect > 1)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s: unroll = 1 is built at aspect 1 only (glslc needed "
                                   "11 GiB to unroll an aspect 2 module; plugins/vulkan/CMakeLists.txt)",
                                   kname, v->label);
    /* A bit per load of a step (whether it lies in the matrix) in a uint;
     * A's tile is the larger. */
    uint32_t loads = (v->block_m * v->depth + v->invocations - 1) / v->invocations;
    if (loads > WARPTILE_MAX_LOADS)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s needs %u loads of A per invocation per step, over "
                                   "the %d the shader tracks (a bit each in a uint)",
                                   kname, v->label, loads, WARPTILE_MAX_LOADS);
    return GH_OK;
}

/* The k step of blocked: 16, or 8 where 16 would not fit. */
enum { BLOCKED_DEPTH = 16, BLOCKED_DEPTH_MIN = 8 };

gh_status vkp_check_limits(const vkp_device *d, int kernel, gh_dtype dtype, vkp_variant *v)
{
    const VkPhysicalDeviceLimits *lim = &d->props.limits;
    const char *kname = vkp_kernels[kernel].name;
    if (kernel == VKP_KERNEL_COOPMAT || kernel == VKP_KERNEL_WARPTILE) {
        gh_status st = kernel == VKP_KERNEL_COOPMAT ? coopmat_limits(d, dtype, v) : warptile_limits(v);
        if (st != GH_OK) return st;
    }
    if (v->invocations > lim->maxComputeWorkGroupInvocations)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s needs %u invocations per workgroup, over the device's "
                                   "maxComputeWorkGroupInvocations = %u (%s)",
                                   kname, v->label, v->invocations, lim->maxComputeWorkGroupInvocations, d->name);
    if (kernel == VKP_KERNEL_WARPTILE || kernel == VKP_KERNEL_COOPMAT) {
        if (v->invocations > lim->maxComputeWorkGroupSize[0])
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s needs a workgroup of %u invocations, over the "
                                       "device's maxComputeWorkGroupSize[0] = %u (%s)",
                                       kname, v->label, v->invocations, lim->maxComputeWorkGroupSize[0], d->name);
        uint64_t bytes = kernel == VKP_KERNEL_COOPMAT ? coopmat_shared_bytes(v, &vkp_coop_shapes[v->shape])
                                                      : warptile_shared_bytes(v, dtype);
        if (bytes > lim->maxComputeSharedMemorySize)
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s (%s) needs %llu bytes of shared memory, over the "
                                       "device's maxComputeSharedMemorySize = %u (%s)",
                                       kname, v->label, gh_plugin_dtype_name(dtype), (unsigned long long)bytes,
                                       lim->maxComputeSharedMemorySize, d->name);
        return GH_OK;
    }
    if (kernel == VKP_KERNEL_BLOCKED) {
        /* A one-dimensional workgroup of (tile / work)^2 invocations. */
        if (v->invocations > lim->maxComputeWorkGroupSize[0])
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s needs a workgroup of %u invocations, over the "
                                       "device's maxComputeWorkGroupSize[0] = %u (%s)",
                                       kname, v->label, v->invocations, lim->maxComputeWorkGroupSize[0], d->name);
        v->depth = BLOCKED_DEPTH;
        if (blocked_shared_bytes(v->side, v->depth, dtype) > lim->maxComputeSharedMemorySize)
            v->depth = BLOCKED_DEPTH_MIN;
        uint64_t bytes = blocked_shared_bytes(v->side, v->depth, dtype);
        if (bytes > lim->maxComputeSharedMemorySize)
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s (%s) needs %llu bytes of shared memory (at depth %u), "
                                       "over the device's maxComputeSharedMemorySize = %u (%s)",
                                       kname, v->label, gh_plugin_dtype_name(dtype), (unsigned long long)bytes,
                                       v->depth, lim->maxComputeSharedMemorySize, d->name);
        return GH_OK;
    }
    for (int axis = 0; axis < 2; axis++)
        if (v->side > lim->maxComputeWorkGroupSize[axis])
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s is over the device's maxComputeWorkGroupSize[%d] = %u (%s)",
                                       kname, v->label, axis, lim->maxComputeWorkGroupSize[axis], d->name);
    uint64_t bytes = tiled_shared_bytes(v->side, dtype);
    if (kernel == VKP_KERNEL_TILED && bytes > lim->maxComputeSharedMemorySize)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s (%s) needs %llu bytes of shared memory, over the device's "
                                   "maxComputeSharedMemorySize = %u (%s)",
                                   kname, v->label, gh_plugin_dtype_name(dtype), (unsigned long long)bytes,
                                   lim->maxComputeSharedMemorySize, d->name);
    return GH_OK;
}
