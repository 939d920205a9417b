/* The OpenCL plugin's 8-bit GEMMs (ABI 1.5) through its ABI, on the first
 * device (PoCL here): naive, tiled and blocked list and run every
 * combination (e4m3/e5m2 pairs into f32, f16, bf16, FP8 decoded in the
 * kernel; i8 x i8 -> i32; naive all 13, tiled and blocked 5 that cover
 * every type) at their default parameters on odd shapes, every
 * transpose, alpha/beta, scales, ld padding and offsets, each result checked
 * in full against the f64 reference (tests/support/gemm8_suite.h); mma lists
 * i8 x i8 -> i32 alone, wgmma all 13 with FP8's narrow tensor-core sum
 * (inline_ptx_8bit below); the other kernels list none.
 *   test_opencl_8bit PATH/gemmhost-opencl.so     exit 77 when no device
 * GEMMHOST_TEST_OPENCL_PLATFORM=<text> opens only the platforms whose name
 * holds it (tools/gpu-check.sh: NVIDIA). */

#include <stdlib.h>
#include <string.h>
#include <gemmhost/plugin_helpers.h>
#include "gemm8_suite.h"
#include "plugin_handle.h"

#define CHECK_MAIN
#include "../check.h"

/* A tensor-core kernel of inline PTX in 8 bits: the refusals every plugin
 * gives; bk 16 (parameter 2 in both: bm, bn, bk, ...) refused on every
 * device for `bk16_types`, naming the steps of 32; at its defaults and at
 * bk = each of `more_bk` (0 ends the list), where the device runs the
 * kernel, every i8 case of the full shapes exact; elsewhere its refusal
 * names one of `off_device` (0-ended). */
static void inline_ptx_8bit(const gh_plugin_api *api, gh_plugin *ctx, const char *name, const gh_dtype bk16_types[3],
                            const int64_t *more_bk, const char *const *off_device)
{
    const int kernel = gh_test_find_kernel(api, ctx, name);
    if (!CHECK(kernel >= 0, "kernel %s found", name)) return;
    int64_t params[8];
    const size_t n_params = gh_test_8bit_defaults(api->kernel_info(ctx, kernel), params, 8);
    gh_test_8bit_refusals(api, ctx, 0, kernel, params, n_params, name);

    static const gh_dtype i8[3] = {GH_I8, GH_I8, GH_I32};
    char why[400];
    int64_t other[8];
    memcpy(other, params, sizeof other);
    other[2] = 16;
    gh_test_case8 c = gh_test_8bit_case(bk16_types, &gh_test_8bit_full_shapes[5], 1, 1);
    gh_test_case8_result r = gh_test_run_case8(api, ctx, 0, kernel, other, n_params, &c, why, sizeof why);
    CHECK(r == GH_TEST_CASE8_REFUSED && strstr(why, "steps of 32") && strstr(why, "bk 16"),
          "%s %s with bk 16 refused, naming the steps of 32 (result %d: %s)", name, gh_plugin_dtype_name(bk16_types[0]),
          (int)r, why);

    c = gh_test_8bit_case(i8, &gh_test_8bit_full_shapes[0], 0, 1);
    r = gh_test_run_case8(api, ctx, 0, kernel, params, n_params, &c, why, sizeof why);
    if (r == GH_TEST_CASE8_REFUSED) {
        int named = 0;
        for (const char *const *w = off_device; *w; w++) named |= strstr(why, *w) != NULL;
        CHECK(named, "%s i8 refused where it cannot run, naming why: %s", name, why);
        return;
    }
    gh_test_8bit_cases(api, ctx, 0, kernel, params, n_params, name, gh_test_8bit_full_shapes, GH_TEST_8BIT_FULL_SHAPES,
                       1u << 12, 0);
    for (int i = 0; more_bk[i]; i++) {
        char label[48];
        other[2] = more_bk[i];
        snprintf(label, sizeof label, "%s bk=%lld", name, (long long)more_bk[i]);
        gh_test_8bit_cases(api, ctx, 0, kernel, other, n_params, label, gh_test_8bit_full_shapes,
                           GH_TEST_8BIT_FULL_SHAPES, 1u << 12, 3 + i);
    }
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
    /* mma: mma.sync m16n8k32.s8, compute capability 8.0 or newer. */
    static const gh_dtype i8[3] = {GH_I8, GH_I8, GH_I32}, fp8[3] = {GH_E4M3, GH_E5M2, GH_BF16};
    static const int64_t none[] = {0}, deep[] = {64, 0};
    static const char *const mma_needs[] = {"inline PTX", "compute capability 8.0", NULL};
    inline_ptx_8bit(h.api, h.ctx, "mma", i8, none, mma_needs);
    /* wgmma: wgmma.mma_async k32 made sm_90a, compute capability 9.0;
     * FP8's narrow sum is held to its declared bound end to end
     * (tests/opencl/test_wgmma.sh), i8 exactly here. */
    static const char *const wgmma_needs[] = {"sm_90a", "compute capability 9.0", NULL};
    inline_ptx_8bit(h.api, h.ctx, "wgmma", fp8, deep, wgmma_needs);
    gh_test_plugin_unload(&h);
    return check_summary("opencl_plugin_8bit");
}
