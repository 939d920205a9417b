/* The Vulkan plugin's 8-bit GEMMs (ABI 1.5) through its ABI, on the first
 * device (lavapipe here, which is slow: a small sample): naive, tiled and
 * blocked list every combination (e4m3/e5m2 pairs into f32, f16, bf16, FP8
 * decoded in the shader; i8 x i8 -> i32) and run them at their default
 * parameters on four shapes that cover every transpose and alpha/beta,
 * scale, padding and offset variant (naive all 13 combinations, tiled and
 * blocked 5 that cover every type), each result checked in full against the
 * f64 reference (tests/support/gemm8_suite.h); warptile and coopmat list
 * none, and coopmat's i8 refusal says why.
 *   test_vulkan_8bit PATH/gemmhost-vulkan.so     exit 77 when no device */
#include <stdio.h>
#include <string.h>

#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

#define SKIP_EXIT       77
#define ALL_COMBOS      ((1u << GH_TEST_8BIT_COMBOS) - 1u)
/* gh_test_8bit_combos' entries 0, 5, 7, 9 and 12: e4m3*e4m3->f32,
 * e4m3*e5m2->bf16, e5m2*e4m3->f16, e5m2*e5m2->f32, i8*i8->i32. */
#define COVERING_COMBOS (1u << 0 | 1u << 5 | 1u << 7 | 1u << 9 | 1u << 12)
#define MAX_PARAMS      8

/* Each transpose once, at the edge shapes of the full set. */
static const gh_test_shape8 shapes[] = {
    {0, 0, 1, 1, 1},
    {0, 1, 7, 13, 33},
    {1, 0, 65, 31, 129},
    {1, 1, 7, 13, 33},
};

#define SHAPES   shapes
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

/* coopmat is asked for i8 and refuses, saying why (not just "no version"). */
static void coopmat_i8(const gh_plugin_api *api, gh_plugin *ctx)
{
    const int kernel = gh_test_find_kernel(api, ctx, "coopmat");
    if (!CHECK(kernel >= 0, "kernel coopmat found")) return;
    int64_t params[MAX_PARAMS];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(ctx, kernel), params, MAX_PARAMS);
    gh_test_case8 c = gh_test_8bit_case(gh_test_8bit_combos[12], &shapes[1], 0, 1);
    char why[400];
    gh_test_case8_result r = gh_test_run_case8(api, ctx, 0, kernel, params, n_params, &c, why, sizeof why);
    CHECK(r == GH_TEST_CASE8_REFUSED && strstr(why, "no i8 version") && strstr(why, "cooperative matrices"),
          "coopmat refuses i8, saying why: %s", why);
}

int main(int argc, char **argv)
{
    gh_test_plugin h;
    int rc = gh_test_plugin_start(&h, argc, argv, "gemmhost-vulkan.so");
    if (rc != 0) return rc;
    check_quiet = 1;
    const gh_plugin_api *api = h.api;
    static const char *const eight_bit[] = {"naive", "tiled", "blocked"};
    gh_test_8bit_kernel_table(api, h.ctx, eight_bit, 3);
    if (api->device_count(h.ctx) < 1) {
        printf("skip: no Vulkan device: %s\n", api->last_error(h.ctx));
        gh_test_plugin_unload(&h);
        return SKIP_EXIT;
    }
    /* A device without 8-bit storage refuses them all, saying so: a skip. */
    const int naive = gh_test_find_kernel(api, h.ctx, "naive");
    int64_t params[MAX_PARAMS];
    size_t n_params = gh_test_8bit_defaults(api->kernel_info(h.ctx, naive), params, MAX_PARAMS);
    gh_test_case8 probe = gh_test_8bit_case(gh_test_8bit_combos[0], &shapes[0], 0, 1);
    char why[400];
    if (gh_test_run_case8(api, h.ctx, 0, naive, params, n_params, &probe, why, sizeof why) == GH_TEST_CASE8_REFUSED &&
        strstr(why, "storageBuffer8BitAccess")) {
        printf("skip: 8-bit GEMMs: %s\n", why);
        gh_test_plugin_unload(&h);
        return SKIP_EXIT;
    }
    for (int e = 0; e < 3; e++) {
        const int kernel = gh_test_find_kernel(api, h.ctx, eight_bit[e]);
        if (!CHECK(kernel >= 0, "kernel %s found", eight_bit[e])) continue;
        n_params = gh_test_8bit_defaults(api->kernel_info(h.ctx, kernel), params, MAX_PARAMS);
        gh_test_8bit_cases(api, h.ctx, 0, kernel, params, n_params, eight_bit[e], shapes,
                           sizeof shapes / sizeof shapes[0], e == 0 ? ALL_COMBOS : COVERING_COMBOS, 2 * e);
        gh_test_8bit_refusals(api, h.ctx, 0, kernel, params, n_params, eight_bit[e]);
    }
    gh_test_8bit_blocked_other_works(api, h.ctx, SHAPES, N_SHAPES);
    coopmat_i8(api, h.ctx);
    gh_test_plugin_unload(&h);
    return check_summary("vulkan_plugin_8bit");
}
