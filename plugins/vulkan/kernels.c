/* The kernels and their parameters, as the host sees them. */
#include "vkp.h"

const int64_t vkp_sides[VKP_SIDE_COUNT] = {4, 8, 16, 32};

#define ALL_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32))

static const gh_param_info naive_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "wg",
    .description = "workgroup side: wg x wg invocations, one per element of C",
    .default_value = 16,
    .allowed = vkp_sides,
    .n_allowed = VKP_SIDE_COUNT,
}};

static const gh_param_info tiled_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "tile",
    .description = "side of the block of C one workgroup computes (tile x tile invocations) "
                   "and of the A and B tiles it stages in shared memory",
    .default_value = 16,
    .allowed = vkp_sides,
    .n_allowed = VKP_SIDE_COUNT,
}};

const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT] = {
    [VKP_KERNEL_NAIVE] = {
        .size = sizeof(gh_kernel_info),
        .name = "naive",
        .description = "compute shader, one invocation per element of C reading A and B from global memory",
        .dtypes = ALL_DTYPES, /* f64 only where the device has shaderFloat64 */
        .params = naive_params,
        .n_params = 1,
    },
    [VKP_KERNEL_TILED] = {
        .size = sizeof(gh_kernel_info),
        .name = "tiled",
        .description = "compute shader, tile x tile workgroups sharing tiles of A and B in shared memory",
        .dtypes = ALL_DTYPES,
        .params = tiled_params,
        .n_params = 1,
    },
};

gh_status vkp_side_index(int kernel, const gh_gemm_args *args, int *index)
{
    const gh_kernel_info *k = &vkp_kernels[kernel];
    const gh_param_info *param = &k->params[0];
    if (args->n_params > 1)
        return vkp_fail(GH_INVALID_ARGUMENT, "kernel %s takes 1 parameter (%s), got %zu", k->name,
                        param->name, args->n_params);
    if (args->n_params == 1 && !args->params)
        return vkp_fail(GH_INVALID_ARGUMENT, "kernel %s: params is NULL", k->name);
    int64_t value = args->n_params == 1 ? args->params[0] : param->default_value;
    for (int i = 0; i < VKP_SIDE_COUNT; i++)
        if (vkp_sides[i] == value) {
            *index = i;
            return GH_OK;
        }
    return vkp_fail(GH_INVALID_ARGUMENT, "kernel %s: %s = %lld is not one of 4, 8, 16, 32", k->name,
                    param->name, (long long)value);
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
