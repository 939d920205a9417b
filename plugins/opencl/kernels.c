#include "kernels.h"

static const int64_t naive_wg_allowed[] = {8, 16, 32};
static const int64_t tiled_tile_allowed[] = {4, 8, 16, 32};

static const gh_param_info naive_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "wg",
    .description = "work-group edge: wg x wg work-items, one per element of C",
    .default_value = 16,
    .allowed = naive_wg_allowed,
    .n_allowed = sizeof naive_wg_allowed / sizeof naive_wg_allowed[0],
}};

static const gh_param_info tiled_params[] = {{
    .size = sizeof(gh_param_info),
    .name = "tile",
    .description = "tile edge: tile x tile work-items per work-group, tiles of A and B "
                   "of tile x tile in local memory (built in with -DTILE)",
    .default_value = 16,
    .allowed = tiled_tile_allowed,
    .n_allowed = sizeof tiled_tile_allowed / sizeof tiled_tile_allowed[0],
}};

#define ALL_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32))

const ocl_kernel_def ocl_kernels[OCL_KERNEL_COUNT] = {
    [OCL_KERNEL_NAIVE] = {
        .info = {
            .size = sizeof(gh_kernel_info),
            .name = "naive",
            .description = "one work-item per element of C, the inner product over K in a loop",
            .dtypes = ALL_DTYPES,
            .params = naive_params,
            .n_params = 1,
        },
        .file = "naive.cl",
        .function = "gemm_naive",
        .build_define = NULL,
    },
    [OCL_KERNEL_TILED] = {
        .info = {
            .size = sizeof(gh_kernel_info),
            .name = "tiled",
            .description = "tile x tile work-groups stage tiles of A and B in local memory, "
                           "one element of C per work-item",
            .dtypes = ALL_DTYPES,
            .params = tiled_params,
            .n_params = 1,
        },
        .file = "tiled.cl",
        .function = "gemm_tiled",
        .build_define = "TILE",
    },
};

int ocl_kernel_variant(const ocl_kernel_def *def, int64_t value)
{
    const gh_param_info *p = &def->info.params[0];
    for (size_t i = 0; i < p->n_allowed; i++)
        if (p->allowed[i] == value) return (int)i;
    return -1;
}
