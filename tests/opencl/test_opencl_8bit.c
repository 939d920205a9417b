/* The OpenCL plugin's 8-bit GEMMs (ABI 1.5) through its ABI, on the first
 * device (PoCL here): naive, tiled and blocked list and run every
 * combination (e4m3/e5m2 pairs into f32, f16, bf16, FP8 decoded in the
 * kernel; i8 x i8 -> i32; naive all 13, tiled and blocked 5 that cover
 * every type) at their default parameters on odd shapes, every
 * transpose, alpha/beta, scales, ld padding and offsets, each result checked
 * in full against the f64 reference (tests/support/gemm8_suite.h); mma lists
 * i8 x i8 -> i32 alone (mma_i8 below), wgmma all 13 with FP8's narrow
 * tensor-core sum (wgmma_8bit below); the other kernels list none.
 *   test_opencl_8bit PATH/gemmhost-opencl.so     exit 77 when no device
 * GEMMHOST_TEST_OPENCL_PLATFORM=<text> opens only the platforms whose name
 * holds it (tools/gpu-check.sh: NVIDIA). */

#include <stdlib.h>
#include <string.h>
#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

/* mma in i8 (mma.sync m16n8k32.s8 through inline PTX): the refusals every
 * plugin gives; bk 16 refused on every device, naming i8's steps of 32; at
 * its defaults, on an NVIDIA device of compute capability 8.0+ every case
 * of the full shapes exact, elsewhere refused naming inline PTX (or the
 * compute capability it lacks). */
static void mma_i8(const gh_plugin_api *api, gh_plugin *ctx)
{
    const int kernel = gh_test_find_kernel(api, ctx, "mma");
    if (!CHECK(kernel >= 0, "kernel mma found")) return;
    int64_t params[8];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(ctx, kernel), params, 8);
    gh_test_8bit_refusals(api, ctx, 0, kernel, params, n_params, "mma");

    static const gh_dtype i8[3] = {GH_I8, GH_I8, GH_I32};
    char why[400];
    int64_t bk16[8];
    memcpy(bk16, params, sizeof bk16);
    bk16[2] = 16; /* bm, bn, bk, wm, wn, stages */
    gh_test_case8 c = gh_test_8bit_case(i8, &gh_test_8bit_full_shapes[5], 1, 1);
    gh_test_case8_result r = gh_test_run_case8(api, ctx, 0, kernel, bk16, n_params, &c, why, sizeof why);
    CHECK(r == GH_TEST_CASE8_REFUSED && strstr(why, "steps of 32") && strstr(why, "bk 16"),
          "mma i8 with bk 16 refused, naming i8's steps of 32 (result %d: %s)", (int)r, why);

    c = gh_test_8bit_case(i8, &gh_test_8bit_full_shapes[0], 0, 1);
    r = gh_test_run_case8(api, ctx, 0, kernel, params, n_params, &c, why, sizeof why);
    if (r == GH_TEST_CASE8_REFUSED) {
        CHECK(strstr(why, "inline PTX") || strstr(why, "compute capability 8.0"),
              "mma i8 off NVIDIA (or below compute capability 8.0) refused, naming why: %s", why);
        return;
    }
    gh_test_8bit_cases(api, ctx, 0, kernel, params, n_params, "mma", gh_test_8bit_full_shapes, GH_TEST_8BIT_FULL_SHAPES,
                       1u << 12, 0);
}

/* wgmma in 8 bits (wgmma.mma_async k32 through inline PTX made sm_90a): the
 * refusals every plugin gives; bk 16 refused on every device, naming the
 * steps of 32; at its defaults, on a Hopper every i8 case of the full shapes
 * exact (FP8's narrow sum is held to its declared bound end to end:
 * tests/opencl/test_wgmma.sh), elsewhere refused naming sm_90a (or the
 * compute capability 9.0 it needs). */
static void wgmma_8bit(const gh_plugin_api *api, gh_plugin *ctx)
{
    const int kernel = gh_test_find_kernel(api, ctx, "wgmma");
    if (!CHECK(kernel >= 0, "kernel wgmma found")) return;
    int64_t params[8];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(ctx, kernel), params, 8);
    gh_test_8bit_refusals(api, ctx, 0, kernel, params, n_params, "wgmma");

    static const gh_dtype fp8[3] = {GH_E4M3, GH_E5M2, GH_BF16}, i8[3] = {GH_I8, GH_I8, GH_I32};
    char why[400];
    int64_t bk16[8];
    memcpy(bk16, params, sizeof bk16);
    bk16[2] = 16; /* bm, bn, bk, stages */
    gh_test_case8 c = gh_test_8bit_case(fp8, &gh_test_8bit_full_shapes[5], 1, 1);
    gh_test_case8_result r = gh_test_run_case8(api, ctx, 0, kernel, bk16, n_params, &c, why, sizeof why);
    CHECK(r == GH_TEST_CASE8_REFUSED && strstr(why, "steps of 32") && strstr(why, "bk 16"),
          "wgmma e4m3*e5m2 with bk 16 refused, naming the steps of 32 (result %d: %s)", (int)r, why);

    c = gh_test_8bit_case(i8, &gh_test_8bit_full_shapes[0], 0, 1);
    r = gh_test_run_case8(api, ctx, 0, kernel, params, n_params, &c, why, sizeof why);
    if (r == GH_TEST_CASE8_REFUSED) {
        CHECK(strstr(why, "sm_90a") || strstr(why, "compute capability 9.0"),
              "wgmma i8 off a Hopper refused, naming why: %s", why);
        return;
    }
    gh_test_8bit_cases(api, ctx, 0, kernel, params, n_params, "wgmma", gh_test_8bit_full_shapes,
                       GH_TEST_8BIT_FULL_SHAPES, 1u << 12, 0);
    int64_t deep[8];
    memcpy(deep, params, sizeof deep);
    deep[2] = 64;
    gh_test_8bit_cases(api, ctx, 0, kernel, deep, n_params, "wgmma bk=64", gh_test_8bit_full_shapes,
                       GH_TEST_8BIT_FULL_SHAPES, 1u << 12, 3);
}

int main(int argc, char **argv)
{
    gh_test_plugin h;
    /* As test_opencl_plugin: on the GPU machine PoCL is device 0 beside NVIDIA's. */
    const char *platform = getenv("GEMMHOST_TEST_OPENCL_PLATFORM");
    const gh_option_value filter = {"platform", platform};
    const int rc =
        gh_test_8bit_gpu_start(&h, argc, argv, "gemmhost-opencl.so", "OpenCL", &filter, platform && *platform ? 1 : 0);
    if (rc != 0) return rc;
    gh_test_8bit_gpu_suite(h.api, h.ctx, gh_test_8bit_full_shapes, GH_TEST_8BIT_FULL_SHAPES);
    mma_i8(h.api, h.ctx);
    wgmma_8bit(h.api, h.ctx);
    gh_test_plugin_unload(&h);
    return check_summary("opencl_plugin_8bit");
}
