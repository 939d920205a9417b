/*
 * wgmma's `cluster` parameter, no device needed: it is declared with values
 * 1 and 2 and default 1 (each block alone, the kernel as it was), 3 is
 * refused naming the values, and NVRTC compiles cluster 2 (pairs of blocks
 * sharing B's tiles through TMA multicast, kernels/cuda/wgmma.cu) through
 * the plugin's own compile path for sm_90a at the default shape in e4m3 x
 * e4m3 -> f32, i8 x i8 -> i32 and f16 (whose module holds the N-major B
 * functions too); quick (the sanitizer build): e4m3 only. Running it needs
 * an H100: test_8bit.c and test_half.c on the device.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemmhost_cuda_extras.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* The kernel's parameter named name, or NULL. */
static const gh_param_info *find_param(const gh_kernel_info *info, const char *name)
{
    for (size_t i = 0; i < info->n_params; ++i)
        if (strcmp(info->params[i].name, name) == 0) return &info->params[i];
    return NULL;
}

void run_compile_cluster_tests(const gh_plugin_api *api, gh_plugin *ctx, int quick)
{
    gemmhost_cuda_compile_types_fn compile = (gemmhost_cuda_compile_types_fn)api->get_proc(GEMMHOST_CUDA_COMPILE_TYPES);
    const int wgmma = gh_test_find_kernel(api, ctx, "wgmma");
    const gh_kernel_info *info = wgmma >= 0 ? api->kernel_info(ctx, wgmma) : NULL;
    if (!CHECK(compile && info, "get_proc(%s) and kernel wgmma", GEMMHOST_CUDA_COMPILE_TYPES)) return;
    const gh_param_info *cluster = find_param(info, "cluster");
    /* Fifth, as tune caches and samples written before persistent came have it. */
    if (!CHECK(cluster && info->n_params >= 5 && cluster == &info->params[4] && cluster->default_value == 1 &&
                   cluster->n_allowed == 2 && cluster->allowed[0] == 1 && cluster->allowed[1] == 2,
               "wgmma's fifth parameter is cluster, 1 or 2, default 1"))
        return;

    /* The default shape, each block alone or in pairs. */
    int64_t params[16];
    for (size_t i = 0; i < info->n_params && i < 16; ++i) params[i] = info->params[i].default_value;
    int64_t *cluster_value = &params[4];

    *cluster_value = 3;
    gh_status st = compile(ctx, wgmma, GH_E4M3, GH_E4M3, GH_F32, params, info->n_params, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "cluster: 3 is not one of 1, 2"),
          "compile refuses wgmma cluster 3, naming the values (status %d: %s)", (int)st, api->last_error(ctx));

    *cluster_value = 2;
    static const struct {
        gh_dtype a, b, c;
        const char *name;
    } types[] = {
        {GH_E4M3, GH_E4M3, GH_F32, "e4m3 x e4m3 -> f32"},
        {GH_I8, GH_I8, GH_I32, "i8 x i8 -> i32"},
        {GH_F16, GH_F16, GH_F16, "f16"},
    };
    for (size_t t = 0; t < (quick ? 1u : sizeof types / sizeof types[0]); ++t) {
        st = compile(ctx, wgmma, types[t].a, types[t].b, types[t].c, params, info->n_params, 9, 0);
        const char *e = api->last_error(ctx);
        if (st == GH_UNSUPPORTED && contains(e, "NVRTC not found")) {
            check_skip("NVRTC compiles of wgmma cluster 2: %s", e);
            return;
        }
        CHECK(st == GH_OK, "NVRTC compiles wgmma %s %lldx%lld stages %lld cluster 2 for sm_90a%s%.600s", types[t].name,
              (long long)params[0], (long long)params[1], (long long)params[2], st ? ": " : "", st ? e : "");
    }
    if (quick)
        check_skip(
            "NVRTC compiles of wgmma cluster 2 in i8 and f16: GEMMHOST_CUDA_TEST_QUICK is set (the sanitizer "
            "build; the normal build compiles them)");
}
