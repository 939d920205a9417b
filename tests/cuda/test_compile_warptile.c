/*
 * NVRTC on warptile, no device needed, through the plugin's own compile
 * path (the GEMMHOST_CUDA_COMPILE extra: the sources, defines and options
 * gemm() uses). Its default in every dtype for sm_90 (H100, H200) is
 * test_compile_sample.c's; with --full (the full sweep), the default in f32
 * for sm_80 (A100: cp.async too) and sm_75 (no cp.async: every tile goes
 * through registers), and variants that between them take every allowed
 * value of every parameter for sm_80 in f32 (compile_all builds them for
 * sm_90 in f32 and bf16). Always: the combinations that cannot fit are
 * refused before compiling, with the reason.
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemmhost_cuda_extras.h"

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

/* bm bn bk wm wn tm tn stages minblocks. The first is the default. */
static const int64_t variants[][9] = {
    {128, 128, 16, 64, 32, 8, 8, 3, 0}, {128, 128, 8, 32, 64, 8, 8, 2, 2},  {64, 64, 32, 32, 32, 4, 8, 4, 1},
    {256, 64, 16, 64, 32, 8, 8, 3, 1},  {128, 64, 16, 128, 16, 8, 8, 3, 2}, {64, 256, 8, 16, 128, 8, 8, 2, 1},
    {128, 128, 16, 32, 16, 4, 4, 3, 1},
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

static const gh_dtype dtypes[] = {GH_F32, GH_F64, GH_F16, GH_BF16};
static const char *const dtype_names[] = {"f32", "f64", "f16", "bf16"};

static void describe(char *out, size_t size, const int64_t *p, const char *dtype, int major, int minor)
{
    snprintf(out, size,
             "warptile %s bm %lld bn %lld bk %lld wm %lld wn %lld tm %lld tn %lld stages %lld minblocks %lld "
             "for sm_%d%d",
             dtype, (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3], (long long)p[4],
             (long long)p[5], (long long)p[6], (long long)p[7], (long long)p[8], major, minor);
}

/* 0: compiled (or the check failed and said so), -1: NVRTC is missing (a
 * skip was recorded). */
static int compile_one(const gh_plugin_api *api, gh_plugin *ctx, gemmhost_cuda_compile_fn compile, int kernel,
                       const int64_t *p, size_t d, int major, int minor)
{
    char what[192];
    describe(what, sizeof what, p, dtype_names[d], major, minor);
    gh_status st = compile(ctx, kernel, dtypes[d], p, 9, major, minor);
    const char *e = api->last_error(ctx);
    if (st == GH_UNSUPPORTED && contains(e, "NVRTC not found")) {
        check_skip("NVRTC compiles of warptile: %s", e);
        return -1;
    }
    CHECK(st == GH_OK, "NVRTC compiles %s%s%.600s", what, st ? ": " : "", st ? e : "");
    return 0;
}

void run_compile_warptile_tests(const gh_plugin_api *api, gh_plugin *ctx, int full)
{
    gemmhost_cuda_compile_fn compile = (gemmhost_cuda_compile_fn)api->get_proc(GEMMHOST_CUDA_COMPILE);
    int kernel = gh_test_find_kernel(api, ctx, "warptile");
    if (!CHECK(compile != NULL && kernel >= 0, "get_proc(%s) and kernel warptile", GEMMHOST_CUDA_COMPILE)) return;

    /* --full: the default in f32 for sm_80 (cp.async too) and sm_75
     * (through registers), about 5 s each here; the samples for sm_80 in
     * f32 (compile_all, test_main.c, builds them for sm_90 in f32 and bf16). */
    if (full) {
        if (compile_one(api, ctx, compile, kernel, variants[0], 0, 8, 0) ||
            compile_one(api, ctx, compile, kernel, variants[0], 0, 7, 5))
            return;
        for (size_t v = 1; v < N_VARIANTS; ++v)
            if (compile_one(api, ctx, compile, kernel, variants[v], 0, 8, 0)) return;
    } else {
        check_skip(
            "NVRTC compiles of warptile's default for sm_80 and sm_75 and of %zu more variants for sm_90 (f32, "
            "bf16) and sm_80 (f32), several seconds each: only with --full (ctest -L full-sweep, "
            "tools/gpu-check.sh)",
            N_VARIANTS - 1);
    }

    /* What cannot fit is refused before compiling, naming why. */
    static const struct {
        int64_t p[9];
        const char *why;
    } refused[] = {
        {{64, 128, 16, 128, 32, 8, 8, 3, 1}, "must divide the block tile"},
        {{128, 128, 16, 64, 64, 8, 8, 3, 1}, "(wm / tm) * (wn / tn) must be 32"},
        {{128, 128, 16, 32, 32, 4, 4, 3, 1}, "(wm / tm) * (wn / tn) must be 32"},
        {{256, 256, 16, 16, 64, 4, 8, 3, 1}, "over CUDA's 1024 per block"},
    };
    for (size_t r = 0; r < sizeof refused / sizeof refused[0]; ++r) {
        char what[192];
        describe(what, sizeof what, refused[r].p, "f32", 9, 0);
        gh_status st = compile(ctx, kernel, GH_F32, refused[r].p, 9, 9, 0);
        const char *e = api->last_error(ctx);
        CHECK(st == GH_UNSUPPORTED && contains(e, refused[r].why), "compile refuses %s: \"%s\" (status %d: %s)", what,
              refused[r].why, (int)st, e);
    }
    const int64_t bad_stages[9] = {128, 128, 16, 64, 32, 8, 8, 5, 1};
    gh_status st = compile(ctx, kernel, GH_F32, bad_stages, 9, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "stages: 5 is not one of 2, 3, 4"),
          "compile refuses stages 5, naming the allowed values (status %d: %s)", (int)st, api->last_error(ctx));
    st = compile(ctx, kernel, GH_I32, variants[0], 9, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "has no dtype"),
          "compile refuses warptile in i32, which it does not declare (status %d: %s)", (int)st, api->last_error(ctx));
}
