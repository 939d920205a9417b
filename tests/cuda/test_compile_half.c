/*
 * NVRTC on the f16 and bf16 kernels, no device needed. With `full` (the
 * full sweep): naive, tiled at every tile and blocked at the three (tile,
 * work) pairs that between them take every path of its shared-memory reads,
 * each compiled through the plugin's own path (the GEMMHOST_CUDA_COMPILE
 * extra: the sources, defines and options gemm() uses) for sm_90 (H100,
 * H200), sm_80 (A100) and sm_75, the oldest architecture CUDA 13 compiles
 * for: the 16-bit conversions the kernels do need nothing newer; mma and
 * wgmma at their samples. Always: the extra's own refusals (no compile).
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemmhost_cuda_extras.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

typedef struct compile_case {
    const char *kernel;
    int64_t params[2];
    size_t n_params;
} compile_case;

/* mma's default and its smallest shape; wgmma's default and its smallest blocks. */
static const int64_t mma_samples[][6] = {{128, 128, 32, 64, 64, 4}, {64, 64, 16, 32, 32, 2}};
static const int64_t wgmma_samples[][6] = {{128, 256, 4, 0, 1, 0}, {128, 64, 2, 0, 1, 0}};

static const compile_case cases[] = {
    {"naive", {0, 0}, 0},  {"tiled", {4, 0}, 1},     {"tiled", {8, 0}, 1},    {"tiled", {16, 0}, 1},
    {"tiled", {32, 0}, 1}, {"blocked", {128, 8}, 2}, {"blocked", {64, 4}, 2}, {"blocked", {32, 2}, 2},
};

/* The sweep of the 16-bit kernels over architectures and variants; 0, or
 * -1 when NVRTC is missing (a skip was recorded). */
static int compile_half_sweep(const gh_plugin_api *api, gh_plugin *ctx, gemmhost_cuda_compile_fn compile)
{
    const int archs[][2] = {{9, 0}, {8, 0}, {7, 5}};
    const gh_dtype dtypes[] = {GH_F16, GH_BF16};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; ++a)
        for (size_t d = 0; d < 2; ++d)
            for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
                const compile_case *cc = &cases[c];
                const char *dtype = dtypes[d] == GH_F16 ? "f16" : "bf16";
                char what[96];
                if (cc->n_params == 2)
                    snprintf(what, sizeof what, "%s %s tile %lld work %lld", cc->kernel, dtype,
                             (long long)cc->params[0], (long long)cc->params[1]);
                else if (cc->n_params == 1)
                    snprintf(what, sizeof what, "%s %s tile %lld", cc->kernel, dtype, (long long)cc->params[0]);
                else snprintf(what, sizeof what, "%s %s", cc->kernel, dtype);
                gh_status st = compile(ctx, gh_test_find_kernel(api, ctx, cc->kernel), dtypes[d],
                                       cc->n_params ? cc->params : NULL, cc->n_params, archs[a][0], archs[a][1]);
                const char *e = api->last_error(ctx);
                if (st == GH_UNSUPPORTED && contains(e, "NVRTC not found")) {
                    check_skip("NVRTC compiles of the 16-bit kernels: %s", e);
                    return -1;
                }
                CHECK(st == GH_OK, "NVRTC compiles %s for sm_%d%d%s%.600s", what, archs[a][0], archs[a][1],
                      st ? ": " : "", st ? e : "");
            }

    /* mma (tensor cores) in each of its dtypes at its default for sm_90
     * and sm_80, and its smallest shape for sm_90 (some 3 s a compile, the
     * default about 18 s). */
    const gh_dtype mma_dtypes[] = {GH_F16, GH_BF16, GH_F32};
    const int mma = gh_test_find_kernel(api, ctx, "mma");
    for (size_t a = 0; a < 2; ++a)
        for (size_t d = 0; d < 3; ++d)
            for (size_t i = 0; i < (a == 0 ? 2u : 1u); ++i) {
                const int64_t *p = mma_samples[i];
                gh_status st = compile(ctx, mma, mma_dtypes[d], p, 6, archs[a][0], archs[a][1]);
                CHECK(st == GH_OK,
                      "NVRTC compiles mma %s %lldx%lldx%lld warp %lldx%lld stages %lld for sm_%d%d%s%.600s",
                      mma_dtypes[d] == GH_F32   ? "f32"
                      : mma_dtypes[d] == GH_F16 ? "f16"
                                                : "bf16",
                      (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3], (long long)p[4],
                      (long long)p[5], archs[a][0], archs[a][1], st ? ": " : "", st ? api->last_error(ctx) : "");
            }

    /* wgmma (sm_90a) in each dtype at its default, bf16 at its smallest blocks too. */
    const int wgmma = gh_test_find_kernel(api, ctx, "wgmma");
    for (size_t d = 0; d < 3; ++d)
        for (size_t i = 0; i < (mma_dtypes[d] == GH_BF16 ? 2u : 1u); ++i) {
            const int64_t *p = wgmma_samples[i];
            gh_status st = compile(ctx, wgmma, mma_dtypes[d], p, 6, 9, 0);
            CHECK(st == GH_OK, "NVRTC compiles wgmma %s %lldx%lld stages %lld for sm_90a%s%.600s",
                  mma_dtypes[d] == GH_F32   ? "f32"
                  : mma_dtypes[d] == GH_F16 ? "f16"
                                            : "bf16",
                  (long long)p[0], (long long)p[1], (long long)p[2], st ? ": " : "", st ? api->last_error(ctx) : "");
        }
    return 0;
}

void run_compile_half_tests(const gh_plugin_api *api, gh_plugin *ctx, int full)
{
    gemmhost_cuda_compile_fn compile = (gemmhost_cuda_compile_fn)api->get_proc(GEMMHOST_CUDA_COMPILE);
    if (!CHECK(compile != NULL, "get_proc(%s)", GEMMHOST_CUDA_COMPILE)) return;
    if (full) {
        if (compile_half_sweep(api, ctx, compile)) return;
    } else {
        check_skip(
            "NVRTC compiles of the f16 and bf16 kernels for sm_80 and sm_75, of tiled's and blocked's other "
            "variants, and of mma's and wgmma's samples: only with --full (ctest -L full-sweep, "
            "tools/gpu-check.sh); above, each kernel's default compiled in every dtype for sm_90");
    }

    /* sm_75 has no bf16 or TF32 mma.sync: refused. */
    const int mma = gh_test_find_kernel(api, ctx, "mma");
    gh_status mst = compile(ctx, mma, GH_BF16, mma_samples[0], 6, 7, 5);
    CHECK(mst == GH_UNSUPPORTED && contains(api->last_error(ctx), "compute capability 8.0"),
          "compile refuses mma for sm_75, naming compute capability 8.0 (status %d: %s)", (int)mst,
          api->last_error(ctx));
    int64_t too_many[6] = {256, 256, 32, 32, 32, 2};
    mst = compile(ctx, mma, GH_F16, too_many, 6, 9, 0);
    CHECK(mst == GH_UNSUPPORTED && contains(api->last_error(ctx), "over CUDA's 1024"),
          "compile refuses mma with 64 warps, naming the 1024-thread limit (status %d: %s)", (int)mst,
          api->last_error(ctx));

    /* wgmma: refused for sm_80, and where the accumulators would not fit. */
    const int wgmma = gh_test_find_kernel(api, ctx, "wgmma");
    mst = compile(ctx, wgmma, GH_F16, wgmma_samples[0], 6, 8, 0);
    CHECK(mst == GH_UNSUPPORTED && contains(api->last_error(ctx), "sm_90a"),
          "compile refuses wgmma for sm_80, naming sm_90a (status %d: %s)", (int)mst, api->last_error(ctx));
    int64_t too_wide[6] = {256, 256, 2, 0, 1, 0};
    mst = compile(ctx, wgmma, GH_BF16, too_wide, 6, 9, 0);
    CHECK(mst == GH_UNSUPPORTED && contains(api->last_error(ctx), "accumulators"),
          "compile refuses wgmma 256 x 256, naming the accumulators (status %d: %s)", (int)mst, api->last_error(ctx));

    /* The extra checks what it is given, as gemm() does. */
    int64_t seven = 7;
    gh_status st = compile(ctx, gh_test_find_kernel(api, ctx, "cublas"), GH_F16, NULL, 0, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "not one NVRTC builds"),
          "compile refuses cublas, which NVRTC does not build (status %d: %s)", (int)st, api->last_error(ctx));
    st = compile(ctx, gh_test_find_kernel(api, ctx, "tiled"), GH_BF16, &seven, 1, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "tile: 7 is not one of"),
          "compile refuses tile 7, naming the allowed tiles (status %d: %s)", (int)st, api->last_error(ctx));
    st = compile(ctx, gh_test_find_kernel(api, ctx, "naive"), (gh_dtype)GH_DTYPE_COUNT, NULL, 0, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT, "compile refuses an unknown dtype (status %d: %s)", (int)st, api->last_error(ctx));
}
