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

#define SKIP_EXIT  77
#define MAX_PARAMS 8

/* Each transpose once, at the edge shapes of the full set. */
static const gh_test_shape8 shapes[] = {
    {0, 0, 1, 1, 1},
    {0, 1, 7, 13, 33},
    {1, 0, 65, 31, 129},
    {1, 1, 7, 13, 33},
};

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
    const int rc = gh_test_8bit_gpu_start(&h, argc, argv, "gemmhost-vulkan.so", "Vulkan");
    if (rc != 0) return rc;
    const gh_plugin_api *api = h.api;
    /* A device without 8-bit storage refuses them all, saying so: a skip. */
    const int naive = gh_test_find_kernel(api, h.ctx, "naive");
    int64_t params[MAX_PARAMS];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(h.ctx, naive), params, MAX_PARAMS);
    gh_test_case8 probe = gh_test_8bit_case(gh_test_8bit_combos[0], &shapes[0], 0, 1);
    char why[400];
    if (gh_test_run_case8(api, h.ctx, 0, naive, params, n_params, &probe, why, sizeof why) == GH_TEST_CASE8_REFUSED &&
        strstr(why, "storageBuffer8BitAccess")) {
        printf("skip: 8-bit GEMMs: %s\n", why);
        gh_test_plugin_unload(&h);
        return SKIP_EXIT;
    }
    gh_test_8bit_gpu_suite(api, h.ctx, shapes, sizeof shapes / sizeof shapes[0]);
    coopmat_i8(api, h.ctx);
    gh_test_plugin_unload(&h);
    return check_summary("vulkan_plugin_8bit");
}
