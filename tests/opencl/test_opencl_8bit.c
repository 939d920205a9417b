/* The OpenCL plugin's 8-bit GEMMs (ABI 1.5) through its ABI, on the first
 * device (PoCL here): naive, tiled and blocked list and run every
 * combination (e4m3/e5m2 pairs into f32, f16, bf16, FP8 decoded in the
 * kernel; i8 x i8 -> i32; naive all 13, tiled and blocked 5 that cover
 * every type) at their default parameters on odd shapes, every
 * transpose, alpha/beta, scales, ld padding and offsets, each result checked
 * in full against the f64 reference (tests/support/gemm8_suite.h); the other
 * kernels list none.
 *   test_opencl_8bit PATH/gemmhost-opencl.so     exit 77 when no device */
#include <stdio.h>
#include <string.h>

#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

#define ALL_COMBOS      ((1u << GH_TEST_8BIT_COMBOS) - 1u)
/* Each program is compiled on first use (PoCL: about 2 s of CPU each), so
 * tiled and blocked take 5 of the 13: every A, B and C type and i8
 * (gh_test_8bit_combos' entries 0, 5, 7, 9 and 12: e4m3*e4m3->f32,
 * e4m3*e5m2->bf16, e5m2*e4m3->f16, e5m2*e5m2->f32, i8*i8->i32); naive all. */
#define COVERING_COMBOS (1u << 0 | 1u << 5 | 1u << 7 | 1u << 9 | 1u << 12)
#define MAX_PARAMS      8
#define SHAPES          gh_test_8bit_full_shapes
#define N_SHAPES        GH_TEST_8BIT_FULL_SHAPES

int main(int argc, char **argv)
{
    gh_test_plugin h;
    int rc = gh_test_plugin_start(&h, argc, argv, "gemmhost-opencl.so");
    if (rc != 0) return rc;
    check_quiet = 1;
    const gh_plugin_api *api = h.api;
    static const char *const eight_bit[] = {"naive", "tiled", "blocked"};
    gh_test_8bit_kernel_table(api, h.ctx, eight_bit, 3);
    if (api->device_count(h.ctx) < 1) {
        printf("skip: no OpenCL device: %s\n", api->last_error(h.ctx));
        gh_test_plugin_unload(&h);
        return 77;
    }
    for (int e = 0; e < 3; e++) {
        const int kernel = gh_test_find_kernel(api, h.ctx, eight_bit[e]);
        if (!CHECK(kernel >= 0, "kernel %s found", eight_bit[e])) continue;
        int64_t params[MAX_PARAMS];
        const size_t n_params = gh_test_8bit_defaults(api->kernel_info(h.ctx, kernel), params, MAX_PARAMS);
        gh_test_8bit_cases(api, h.ctx, 0, kernel, params, n_params, eight_bit[e], gh_test_8bit_full_shapes,
                           GH_TEST_8BIT_FULL_SHAPES, e == 0 ? ALL_COMBOS : COVERING_COMBOS, 2 * e);
        gh_test_8bit_refusals(api, h.ctx, 0, kernel, params, n_params, eight_bit[e]);
    }
    gh_test_8bit_blocked_other_works(api, h.ctx, SHAPES, N_SHAPES);
    gh_test_plugin_unload(&h);
    return check_summary("opencl_plugin_8bit");
}
