/*
 * wgmma's `persistent` parameter, no device needed: it is declared last
 * (tune caches and samples of the five parameters before it keep their
 * meaning) with values 0 and 1 and default 0 (a block per tile, the kernel
 * as it was), 2 is refused naming the values, and NVRTC compiles persistent
 * 1 (a block per SM at most, walking tile after tile, kernels/cuda/wgmma.cu)
 * through the plugin's own compile path for sm_90a at the default shape in
 * e4m3 x e4m3 -> f32; in the normal build also promoted every step at 128 x
 * 128 and in pairs of blocks (cluster 2) in i8. The kernel has no default
 * for PERSISTENT: a plugin that stopped passing it fails here. Running it
 * needs an H100: test_8bit.c and test_half.c on the device.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemmhost_cuda_extras.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

void run_compile_persistent_tests(const gh_plugin_api *api, gh_plugin *ctx, int quick)
{
    gemmhost_cuda_compile_types_fn compile = (gemmhost_cuda_compile_types_fn)api->get_proc(GEMMHOST_CUDA_COMPILE_TYPES);
    const int wgmma = gh_test_find_kernel(api, ctx, "wgmma");
    const gh_kernel_info *info = wgmma >= 0 ? api->kernel_info(ctx, wgmma) : NULL;
    if (!CHECK(compile && info && info->n_params == 6, "get_proc(%s) and kernel wgmma with 6 parameters",
               GEMMHOST_CUDA_COMPILE_TYPES))
        return;
    const gh_param_info *persistent = &info->params[5];
    if (!CHECK(strcmp(persistent->name, "persistent") == 0 && persistent->default_value == 0 &&
                   persistent->n_allowed == 2 && persistent->allowed[0] == 0 && persistent->allowed[1] == 1,
               "wgmma's last parameter is persistent, 0 or 1, default 0 (got %s)", persistent->name))
        return;

    static const struct {
        gh_dtype a, b, c;
        int64_t params[6];
        const char *name;
    } cases[] = {
        {GH_E4M3, GH_E4M3, GH_F32, {128, 256, 4, 0, 1, 1}, "e4m3 x e4m3 -> f32 128x256"},
        {GH_E4M3, GH_E5M2, GH_BF16, {128, 128, 4, 1, 1, 1}, "e4m3 x e5m2 -> bf16 128x128 promote 1"},
        {GH_I8, GH_I8, GH_I32, {128, 256, 4, 0, 2, 1}, "i8 x i8 -> i32 128x256 cluster 2"},
    };
    int64_t params[6];
    memcpy(params, cases[0].params, sizeof params);
    params[5] = 2;
    gh_status st = compile(ctx, wgmma, GH_E4M3, GH_E4M3, GH_F32, params, 6, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "persistent: 2 is not one of 0, 1"),
          "compile refuses wgmma persistent 2, naming the values (status %d: %s)", (int)st, api->last_error(ctx));

    for (size_t c = 0; c < (quick ? 1u : sizeof cases / sizeof cases[0]); ++c) {
        st = compile(ctx, wgmma, cases[c].a, cases[c].b, cases[c].c, cases[c].params, 6, 9, 0);
        const char *e = api->last_error(ctx);
        if (st == GH_UNSUPPORTED && contains(e, "NVRTC not found")) {
            check_skip("NVRTC compiles of wgmma persistent 1: %s", e);
            return;
        }
        CHECK(st == GH_OK, "NVRTC compiles wgmma %s stages %lld persistent 1 for sm_90a%s%.600s", cases[c].name,
              (long long)cases[c].params[2], st ? ": " : "", st ? e : "");
    }
    if (quick)
        check_skip(
            "NVRTC compiles of wgmma persistent 1 promoted and in pairs: GEMMHOST_CUDA_TEST_QUICK is set (the "
            "sanitizer build; the normal build compiles them)");
}
