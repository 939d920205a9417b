/* The kernels and their parameters, as the host sees them. */
#include <stdio.h>
#include <string.h>

#include "vkp.h"

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

/* "4, 8, 16, 32" */
static void list_allowed(const gh_param_info *param, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < param->n_allowed; i++) {
        int n = snprintf(buf + used, size - used, "%s%lld", i ? ", " : "", (long long)param->allowed[i]);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}

gh_status vkp_variant_of(int kernel, const gh_gemm_args *args, vkp_variant *v)
{
    const gh_kernel_info *k = &vkp_kernels[kernel];
    if (args->n_params > k->n_params)
        return vkp_fail(GH_INVALID_ARGUMENT, "kernel %s takes %zu parameter%s (%s%s%s), got %zu", k->name,
                        k->n_params, k->n_params == 1 ? "" : "s", k->params[0].name, k->n_params > 1 ? ", " : "",
                        k->n_params > 1 ? k->params[1].name : "", args->n_params);
    if (args->n_params > 0 && !args->params)
        return vkp_fail(GH_INVALID_ARGUMENT, "kernel %s: params is NULL", k->name);

    int64_t values[2] = {0, 0};
    int slot = 0, stride = 1;
    size_t used = 0;
    v->label[0] = '\0';
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_param_info *param = &k->params[p];
        int64_t value = p < args->n_params ? args->params[p] : param->default_value;
        size_t i = 0;
        while (i < param->n_allowed && param->allowed[i] != value)
            i++;
        if (i == param->n_allowed) {
            char allowed[64];
            list_allowed(param, allowed, sizeof allowed);
            return vkp_fail(GH_INVALID_ARGUMENT, "kernel %s: %s = %lld is not one of %s", k->name, param->name,
                            (long long)value, allowed);
        }
        values[p] = value;
        slot += (int)i * stride;
        stride *= (int)param->n_allowed;
        int n = snprintf(v->label + used, sizeof v->label - used, "%s%s = %lld", p ? ", " : "", param->name,
                         (long long)value);
        if (n > 0 && (size_t)n < sizeof v->label - used)
            used += (size_t)n;
    }
    if (slot >= VKP_VARIANT_MAX) /* a kernel table out of step with VKP_VARIANT_MAX */
        return vkp_fail(GH_ERROR, "kernel %s: %s needs pipeline slot %d of %d", k->name, v->label, slot,
                        VKP_VARIANT_MAX);
    v->slot = slot;
    v->side = (uint32_t)values[0];
    v->work = kernel == VKP_KERNEL_BLOCKED ? (uint32_t)values[1] : 1;
    v->depth = 0;
    v->invocations = (v->side / v->work) * (v->side / v->work);
    v->module = 0;
    if (kernel == VKP_KERNEL_BLOCKED) /* blocked_w<work>: its index in blocked_works */
        while (v->module < (int)COUNT(blocked_works) - 1 && blocked_works[v->module] != values[1])
            v->module++;
    return GH_OK;
}

const char *vkp_dtype_name(gh_dtype dtype)
{
    switch (dtype) {
    case GH_F32: return "f32";
    case GH_F64: return "f64";
    case GH_I32: return "i32";
    }
    return "?";
}

uint32_t vkp_dtype_size(gh_dtype dtype)
{
    return dtype == GH_F64 ? 8 : 4;
}
