/* The kernels and their parameters, as the host sees them. */
#include <stdio.h>

#include "state.h"

#define ALL_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32))
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const int64_t sides[] = {4, 8, 16, 32};
static const int64_t blocked_tiles[] = {32, 64, 128};
static const int64_t blocked_works[] = {2, 4, 8};

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

const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT] = {
    [VKP_KERNEL_NAIVE] = {
        .size = sizeof(gh_kernel_info),
        .name = "naive",
        .description = "compute shader, one invocation per element of C reading A and B from global memory",
        .dtypes = ALL_DTYPES, /* f64 only where the device has shaderFloat64 */
        .params = naive_params,
        .n_params = COUNT(naive_params),
    },
    [VKP_KERNEL_TILED] = {
        .size = sizeof(gh_kernel_info),
        .name = "tiled",
        .description = "compute shader, tile x tile workgroups sharing tiles of A and B in shared memory",
        .dtypes = ALL_DTYPES,
        .params = tiled_params,
        .n_params = COUNT(tiled_params),
    },
    [VKP_KERNEL_BLOCKED] = {
        .size = sizeof(gh_kernel_info),
        .name = "blocked",
        .description = "compute shader, register blocking: each invocation computes a work x work block "
                       "of C from tiles of A and B staged in shared memory, tile x tile per workgroup",
        .dtypes = ALL_DTYPES,
        .params = blocked_params,
        .n_params = COUNT(blocked_params),
    },
};

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
        if (n > 0 && (size_t)n < sizeof v->label - used)
            used += (size_t)n;
    }
    if (slot >= VKP_VARIANT_MAX) /* a kernel table out of step with VKP_VARIANT_MAX */
        return gh_plugin_set_error(GH_ERROR, "gemm: kernel %s: %s needs pipeline slot %d of %d", k->name, v->label,
                                   slot, VKP_VARIANT_MAX);
    v->slot = slot;
    v->side = (uint32_t)args->params[0];
    v->work = kernel == VKP_KERNEL_BLOCKED ? (uint32_t)args->params[1] : 1;
    v->depth = 0;
    v->invocations = (v->side / v->work) * (v->side / v->work);
    /* blocked_w<work>: the work's position among its allowed values */
    v->module = kernel == VKP_KERNEL_BLOCKED ? gh_plugin_param_index(&k->params[1], args->params[1]) : 0;
    return GH_OK;
}
