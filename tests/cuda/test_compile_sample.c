/*
 * NVRTC on one representative variant of every kernel it builds, in every
 * dtype the kernel declares, no device needed: each kernel at its declared
 * default parameters (what gemm() runs when a config names none), mma at
 * its smallest shape (small_params below), for sm_90
 * (H100, H200; wgmma's sm_90a), through the plugin's own compile path (the
 * GEMMHOST_CUDA_COMPILE extra: the sources, defines and options gemm()
 * uses). The other variants and architectures are the full sweep's
 * (--full: ctest -L full-sweep, tools/gpu-check.sh).
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemmhost/plugin_helpers.h"
#include "gemmhost_cuda_extras.h"

static const char *const nvrtc_kernels[] = {"naive", "tiled", "blocked", "warptile", "mma", "wgmma"};

/* The variant each kernel compiles at, where not its default: mma at its
 * smallest shape always (some 3 s a compile against its default's 18 s or
 * more: half of this test's time; the same code at other sizes), its default
 * in every dtype in the full sweep and run on the GPU machine; and with
 * quick (the sanitizer build, where NVRTC runs some three times slower and
 * each kernel compiles in one dtype) blocked and wgmma at a small variant
 * too, whose defaults the normal build compiles: the plugin's code on the
 * way is the same. warptile's smaller variants take NVRTC longer than its
 * default. */
static const struct {
    const char *kernel;
    int quick_only;
    size_t n;
    int64_t params[6];
} small_params[] = {
    {"mma", 0, 6, {64, 64, 16, 32, 32, 2}},
    {"blocked", 1, 2, {32, 2}},
    {"wgmma", 1, 6, {128, 64, 2, 0, 1, 0}},
};

void run_compile_sample_tests(const gh_plugin_api *api, gh_plugin *ctx, int quick)
{
    gemmhost_cuda_compile_fn compile = (gemmhost_cuda_compile_fn)api->get_proc(GEMMHOST_CUDA_COMPILE);
    if (!CHECK(compile != NULL, "get_proc(%s)", GEMMHOST_CUDA_COMPILE)) return;
    if (quick)
        check_skip(
            "NVRTC compiles of each kernel's default in its dtypes after the first, and of blocked's and "
            "wgmma's defaults: GEMMHOST_CUDA_TEST_QUICK is set (the sanitizer build; the normal build "
            "compiles them)");
    else
        check_skip(
            "NVRTC compiles of mma's default (its smallest shape here): only with --full (ctest -L full-sweep, "
            "tools/gpu-check.sh)");
    for (size_t k = 0; k < sizeof nvrtc_kernels / sizeof nvrtc_kernels[0]; ++k) {
        const int kernel = gh_test_find_kernel(api, ctx, nvrtc_kernels[k]);
        const gh_kernel_info *info = kernel >= 0 ? api->kernel_info(ctx, kernel) : NULL;
        int64_t defaults[16];
        if (!CHECK(info && info->n_params <= sizeof defaults / sizeof defaults[0],
                   "kernel %s, with at most %zu parameters", nvrtc_kernels[k], sizeof defaults / sizeof defaults[0]))
            continue;
        char text[160] = "";
        size_t used = 0;
        const int64_t *small = NULL;
        for (size_t q = 0; q < sizeof small_params / sizeof small_params[0]; ++q)
            if ((quick || !small_params[q].quick_only) && strcmp(nvrtc_kernels[k], small_params[q].kernel) == 0 &&
                info->n_params == small_params[q].n)
                small = small_params[q].params;
        for (size_t i = 0; i < info->n_params; ++i) {
            defaults[i] = small ? small[i] : info->params[i].default_value;
            if (used < sizeof text)
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %lld", i ? ", " : " (",
                                         info->params[i].name, (long long)defaults[i]);
        }
        if (info->n_params && used < sizeof text) snprintf(text + used, sizeof text - used, ")");
        for (int d = 0; d < GH_DTYPE_COUNT; ++d) {
            if (!(info->dtypes & GH_DTYPE_BIT(d))) continue;
            gh_status st = compile(ctx, kernel, (gh_dtype)d, info->n_params ? defaults : NULL, info->n_params, 9, 0);
            const char *e = api->last_error(ctx);
            if (st == GH_UNSUPPORTED && e && strstr(e, "NVRTC not found")) {
                check_skip("NVRTC compiles of each kernel's default: %s", e);
                return;
            }
            CHECK(st == GH_OK, "NVRTC compiles %s %s at %s%s for sm_90%s%.600s", nvrtc_kernels[k],
                  gh_plugin_dtype_name((gh_dtype)d), small ? "a small variant" : "its default", text, st ? ": " : "",
                  st ? e : "");
            if (quick) break;
        }
    }
}
