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

const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT] = {
    [VKP_KERNEL_NAIVE] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "naive",
            .description = "compute shader, one invocation per element of C reading A and B from global memory",
            .dtypes = ALL_DTYPES,
            .params = vkp_naive_params,
            .n_params = VKP_NAIVE_PARAMS,
        },
    [VKP_KERNEL_TILED] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "tiled",
            .description = "compute shader, tile x tile workgroups sharing tiles of A and B in shared memory",
            .dtypes = ALL_DTYPES,
            .params = vkp_tiled_params,
            .n_params = VKP_TILED_PARAMS,
        },
    [VKP_KERNEL_BLOCKED] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "blocked",
            .description = "compute shader, register blocking: each invocation computes a work x work block "
                           "of C from tiles of A and B staged in shared memory, tile x tile per workgroup",
            .dtypes = ALL_DTYPES,
            .params = vkp_blocked_params,
            .n_params = VKP_BLOCKED_PARAMS,
        },
    [VKP_KERNEL_WARPTILE] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "warptile",
            .description = "compute shader, workgroup / subgroup / invocation tiling: double-buffered shared "
                           "tiles, 4-vector global loads where the layout allows, work x work per invocation",
            .dtypes = WARPTILE_DTYPES,
            .params = vkp_warptile_params,
            .n_params = VKP_WARPTILE_PARAMS,
        },
    [VKP_KERNEL_COOPMAT] =
        {
            .size = sizeof(gh_kernel_info),
            .name = "coopmat",
            .description = "compute shader on the matrix units: cooperative matrices of a subgroup "
                           "(VK_KHR_cooperative_matrix, f16 also VK_NV_cooperative_matrix; bf16 with "
                           "VK_KHR_shader_bfloat16), f32 sums, tiles of A and B staged in shared memory",
            .dtypes = GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16),
            .params = vkp_coopmat_params,
            .n_params = VKP_COOPMAT_PARAMS,
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
        if (v->invocations > lim->maxComputeWorkGroupSize[0])
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "gemm: kernel %s: %s needs a workgroup of %u invocations, over the "
                                       "device's maxComputeWorkGroupSize[0] = %u (%s)",
                                       kname, v->label, v->invocations, lim->maxComputeWorkGroupSize[0], d->name);
        uint64_t bytes = kernel == VKP_KERNEL_COOPMAT ? vkp_coopmat_shared_bytes(v, &vkp_coop_shapes[v->shape])
                                                      : vkp_warptile_shared_bytes(v, dtype);
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
        v->depth = vkp_blocked_depth(v->side, dtype, lim->maxComputeSharedMemorySize);
        uint64_t bytes = vkp_blocked_shared_bytes(v->side, v->depth, dtype);
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
    uint64_t bytes = vkp_tiled_shared_bytes(v->side, dtype);
    if (kernel == VKP_KERNEL_TILED && bytes > lim->maxComputeSharedMemorySize)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "gemm: kernel %s: %s (%s) needs %llu bytes of shared memory, over the device's "
                                   "maxComputeSharedMemorySize = %u (%s)",
                                   kname, v->label, gh_plugin_dtype_name(dtype), (unsigned long long)bytes,
                                   lim->maxComputeSharedMemorySize, d->name);
    return GH_OK;
}
