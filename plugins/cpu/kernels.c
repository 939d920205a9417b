/* The C plugin's kernel table; see kernels.h. The loops are in loops.c and
 * loops8.c. */
#include "kernels.h"

#include "gemmhost/plugin_helpers.h"

static const int64_t tile_values[] = {4, 8, 16, 32, 64};
static const gh_param_info tiled_params[] = {
    GH_PLUGIN_PARAM("tile", "edge of the square cache block, in elements", 32, tile_values),
};

/* f16 and bf16 in software: stored in 16 bits, multiplied and summed in f32. */
#define ALL_DTYPES \
    (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | GH_DTYPE_BIT(GH_F16) | GH_DTYPE_BIT(GH_BF16))

/* 8-bit inputs (loops8.c): FP8 decoded exactly, its products (exact in f32)
 * summed in f32; i8 products summed exactly in i32. */
static const gh_type_combo eight_bit_combos[] = GH_PLUGIN_EXACT_8BIT_COMBOS;

const gh_kernel_info cpu_kernels[KERNEL_COUNT] = {
    {GH_PLUGIN_KERNEL("naive", "one element of C at a time, the serial loop", ALL_DTYPES),
     GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
    {GH_PLUGIN_KERNEL("tiled", "cache-blocked loops with a tile x tile block", ALL_DTYPES),
     GH_PLUGIN_KERNEL_PARAMS(tiled_params), GH_PLUGIN_KERNEL_COMBOS(eight_bit_combos)},
    {GH_PLUGIN_KERNEL("blas", "the system's CBLAS (OpenBLAS), loaded at run time: the CPU baseline",
                      GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64))},
};
