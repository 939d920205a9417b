/* The kernel table as the host sees it; the variant of each combination of
 * parameter values, and the device limits it meets. Each kernel's parameters,
 * limits and shared memory are its own file, named as in kernels/vulkan
 * (naive.c, tiled.c, blocked.c, warptile.c, coopmat.c). */
#include <stdio.h>

#include "kernels.h"

#include "gemmhost/plugin_helpers.h"
#include "state.h"

/* f64 only where the device has shaderFloat64, f16 and bf16 where it has
 * storageBuffer16BitAccess (gemm.c refuses them elsewhere). */
#define ALL_DTYPES \
    (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))

/* warptile computes in f32 or f64 only: f16 and bf16 widened to f32. */
#define WARPTILE_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))

/* (ABI 1.5) 8-bit A and B in naive, tiled and blocked where the device
 * has storageBuffer8BitAccess: FP8 decoded in the shader (no FP8 type is
 * used), the products (exact in f32) summed in f32, C in f32, f16 or bf16;
 * i8 widened to int and summed exactly. */
static const gh_type_combo eight_bit_combos[] = GH_PLUGIN_EXACT_8BIT_COMBOS;
/* coopmat: i8 x i8 -> i32 alone, on s8 cooperative matrices with s32 sums
 * (exact); no FP8 (no device offers FP8 cooperative matrices to it). */
static const gh_type_combo coopmat_combos[] = {
    {sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
};

int vkp_type_slot(gh_dtype a, gh_dtype c)
{
    if (a == GH_I8) return VKP_TYPES_I8_I32;
    if (a != GH_E4M3 && a != GH_E5M2) return (int)a;
    return c == GH_F16 ? VKP_TYPES_FP8_F16 : c == GH_BF16 ? VKP_TYPES_FP8_BF16 : VKP_TYPES_FP8_F32;
}

const char *vkp_type_slot_name(int slot)
{
    static const char *const eight_bit[] = {"fp8_f32", "fp8_f16", "fp8_bf16", "i8_i32"};
    return slot >= GH_DTYPE_COUNT ? eight_bit[slot - GH_DTYPE_COUNT] : gh_plugin_dtype_name((gh_dtype)slot);
}

const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT] = {
    [VKP_KERNEL_NAIVE] = {GH_PLUGIN_KERNEL(
                              "naive",
                              "compute shader, one invocation per element of C reading A and B from global memory",
                              ALL_DTYPES),
                          GH_PLUGIN_KERNEL_PARAMS(vkp_naive_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
    [VKP_KERNEL_TILED] = {GH_PLUGIN_KERNEL(
                              "tiled",
                              "compute shader, tile x tile workgroups sharing tiles of A and B in shared memory",
                              ALL_DTYPES),
                          GH_PLUGIN_KERNEL_PARAMS(vkp_tiled_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
    [VKP_KERNEL_BLOCKED] = {GH_PLUGIN_KERNEL(
                                "blocked",
                                "compute shader, register blocking: each invocation computes a work x work block "
                                "of C from tiles of A and B staged in shared memory, tile x tile per workgroup",
                                ALL_DTYPES),
                            GH_PLUGIN_KERNEL_PARAMS(vkp_blocked_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
    [VKP_KERNEL_WARPTILE] = {GH_PLUGIN_KERNEL(
                                 "warptile",
                                 "compute shader, workgroup / subgroup / invocation tiling: double-buffered shared "
                                 "tiles, 4-vector global loads where the layout allows, work x work per invocation",
                                 WARPTILE_DTYPES),
                             GH_PLUGIN_KERNEL_PARAMS(vkp_warptile_params)},
    [VKP_KERNEL_COOPMAT] = {GH_PLUGIN_KERNEL(
                                "coopmat",
                                "compute shader on the matrix units: cooperative matrices of a subgroup "
                                "(VK_KHR_cooperative_matrix, f16 and i8 also VK_NV_cooperative_matrix; bf16 with "
                                "VK_KHR_shader_bfloat16), f32 sums (i8 x i8 -> i32: s8 matrices, exact s32 sums), "
                                "tiles of A and B staged in shared memory",
                                GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16)),
                            GH_PLUGIN_KERNEL_PARAMS(vkp_coopmat_params), GH_PLUGIN_KERNEL_COMBOS(coopmat_combos)},
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

/* The refusals of vkp_check_limits, in its words. */
static gh_status over_width(const vkp_device *d, const char *kname, const vkp_variant *v)
{
    return gh_plugin_set_error(GH_UNSUPPORTED,
                               "gemm: kernel %s: %s needs a workgroup of %u invocations, over the "
                               "device's maxComputeWorkGroupSize[0] = %u (%s)",
                               kname, v->label, v->invocations, d->props.limits.maxComputeWorkGroupSize[0], d->name);
}

/* depth: the blocked kernel's, named in the message; 0 for the others. */
static gh_status over_shared(const vkp_device *d, const char *kname, const vkp_variant *v, gh_dtype dtype,
                             uint64_t bytes, uint32_t depth)
{
    char at_depth[32] = "";
    if (depth) snprintf(at_depth, sizeof at_depth, " (at depth %u)", depth);
    return gh_plugin_set_error(GH_UNSUPPORTED,
                               "gemm: kernel %s: %s (%s) needs %llu bytes of shared memory%s, over the device's "
                               "maxComputeSharedMemorySize = %u (%s)",
                               kname, v->label, gh_plugin_dtype_name(dtype), (unsigned long long)bytes, at_depth,
                               d->props.limits.maxComputeSharedMemorySize, d->name);
}

gh_status vkp_check_limits(const vkp_device *d, int kernel, gh_dtype dtype, vkp_variant *v)
{
    const VkPhysicalDeviceLimits *lim = &d->props.limits;
    const char *kname = vkp_kernels[kernel].name;
    if (kernel == VKP_KERNEL_COOPMAT || kernel == VKP_KERNEL_WARPTILE) {
        gh_status st = kernel == VKP_KERNEL_COOPMAT ? vkp_coopmat_limits(d, dtype, v) : vkp_warptile_limits(v);
        if (st != GH_OK) return st;
    }
    if (v->invocations > lim->maxComputeWorkGroupInvocations)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s needs %u invocations per workgroup, over the device's "
                                   "maxComputeWorkGroupInvocations = %u (%s)",
                                   kname, v->label, v->invocations, lim->maxComputeWorkGroupInvocations, d->name);
    if (kernel == VKP_KERNEL_WARPTILE || kernel == VKP_KERNEL_COOPMAT) {
        if (v->invocations > lim->maxComputeWorkGroupSize[0]) return over_width(d, kname, v);
        uint64_t bytes = kernel == VKP_KERNEL_COOPMAT ? vkp_coopmat_shared_bytes(v, &vkp_coop_shapes[v->shape], dtype)
                                                      : vkp_warptile_shared_bytes(v, dtype);
        return bytes > lim->maxComputeSharedMemorySize ? over_shared(d, kname, v, dtype, bytes, 0) : GH_OK;
    }
    if (kernel == VKP_KERNEL_BLOCKED) {
        /* A one-dimensional workgroup of (tile / work)^2 invocations. */
        if (v->invocations > lim->maxComputeWorkGroupSize[0]) return over_width(d, kname, v);
        v->depth = vkp_blocked_depth(v->side, dtype, lim->maxComputeSharedMemorySize);
        uint64_t bytes = vkp_blocked_shared_bytes(v->side, v->depth, dtype);
        return bytes > lim->maxComputeSharedMemorySize ? over_shared(d, kname, v, dtype, bytes, v->depth) : GH_OK;
    }
    for (int axis = 0; axis < 2; axis++)
        if (v->side > lim->maxComputeWorkGroupSize[axis])
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s is over the device's maxComputeWorkGroupSize[%d] = %u (%s)",
                                       kname, v->label, axis, lim->maxComputeWorkGroupSize[axis], d->name);
    uint64_t bytes = vkp_tiled_shared_bytes(v->side, dtype);
    if (kernel == VKP_KERNEL_TILED && bytes > lim->maxComputeSharedMemorySize)
        return over_shared(d, kname, v, dtype, bytes, 0);
    return GH_OK;
}
