/*
 * The 8-bit GEMMs of naive, tiled and blocked, no device needed: the
 * combinations each kernel lists (A and B in e4m3 or e5m2 with C in f32, f16
 * or bf16, summed in f32; i8 x i8 -> i32, exact), and NVRTC compiling them
 * through the plugin's own path (the GEMMHOST_CUDA_COMPILE_TYPES extra: the
 * sources, defines and options gemm() uses). Normal pass: each kernel at its
 * default in one combination per input type (e4m3 x e4m3 -> f32, e4m3 x
 * e5m2 -> f16, e5m2 x e5m2 -> bf16, i8 x i8 -> i32) for sm_90. --full: every
 * combination at the default for sm_90, sm_80 and sm_75 (every variant of
 * every combination for sm_90 is compile_all's, test_main.c). Quick (the
 * sanitizer build): e4m3 x e4m3 -> f32 only. Always: the refusals of a
 * combination a kernel does not list. mma in i8 x i8 -> i32 (m16n8k32) at
 * its default for sm_90 (sm_80 too with --full).
 */
#include <stdio.h>
#include <string.h>

#include "cuda_test.h"
#include "gemmhost_cuda_extras.h"

static const char *const kernels_8bit[] = {"naive", "tiled", "blocked"};

typedef struct type_set {
    gh_dtype a, b, c;
} type_set;

/* One per input type, each C type once. */
static const type_set representative[] = {
    {GH_E4M3, GH_E4M3, GH_F32},
    {GH_E4M3, GH_E5M2, GH_F16},
    {GH_E5M2, GH_E5M2, GH_BF16},
    {GH_I8, GH_I8, GH_I32},
};

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

static const char *name_of(gh_dtype d)
{
    static const char *const names[GH_DTYPE_COUNT] = {"f32", "f64", "i32", "f16", "bf16", "e4m3", "e5m2", "i8"};
    return (unsigned)d < GH_DTYPE_COUNT ? names[d] : "?";
}

/* The kernel's combination for (a, b, c), or NULL. */
static const gh_type_combo *find_combo(const gh_kernel_info *info, gh_dtype a, gh_dtype b, gh_dtype c)
{
    if (!GH_HAS_MEMBER(info, gh_kernel_info, n_combos)) return NULL;
    for (size_t i = 0; i < info->n_combos; ++i)
        if (info->combos[i].a == a && info->combos[i].b == b && info->combos[i].c == c) return &info->combos[i];
    return NULL;
}

/* The kernel lists every 8-bit combination with the arithmetic it does. */
static void check_combos(const gh_kernel_info *info)
{
    const gh_dtype fp8[] = {GH_E4M3, GH_E5M2}, outs[] = {GH_F32, GH_F16, GH_BF16};
    int found = 0, honest = 0;
    for (size_t a = 0; a < 2; ++a)
        for (size_t b = 0; b < 2; ++b)
            for (size_t c = 0; c < 3; ++c) {
                const gh_type_combo *k = find_combo(info, fp8[a], fp8[b], outs[c]);
                found += k != NULL;
                honest +=
                    k && k->inputs == GH_PREC_AS_STORED && k->accumulate == GH_PREC_F32 && k->accumulate_bits == 0;
            }
    const gh_type_combo *i8 = find_combo(info, GH_I8, GH_I8, GH_I32);
    CHECK(found == 12 && honest == 12,
          "%s lists e4m3/e5m2 x e4m3/e5m2 -> f32/f16/bf16 (%d of 12), each as stored, summed in f32 (%d)", info->name,
          found, honest);
    CHECK(i8 && i8->accumulate == GH_PREC_AS_STORED && i8->accumulate_bits == 0,
          "%s lists i8 x i8 -> i32 with exact sums", info->name);
    CHECK(!find_combo(info, GH_E4M3, GH_E4M3, GH_I32) && !find_combo(info, GH_I8, GH_I8, GH_F32),
          "%s lists neither e4m3 -> i32 nor i8 -> f32", info->name);
}

/* Compiles kernel k at its default in one type set; 1 when NVRTC is missing
 * (a skip is recorded). */
static int compile_one(const gh_plugin_api *api, gh_plugin *ctx, gemmhost_cuda_compile_types_fn compile, int kernel,
                       const gh_kernel_info *info, type_set t, int major, int minor)
{
    int64_t defaults[16];
    for (size_t i = 0; i < info->n_params && i < 16; ++i) defaults[i] = info->params[i].default_value;
    gh_status st = compile(ctx, kernel, t.a, t.b, t.c, info->n_params ? defaults : NULL, info->n_params, major, minor);
    const char *e = api->last_error(ctx);
    if (st == GH_UNSUPPORTED && contains(e, "NVRTC not found")) {
        check_skip("NVRTC compiles of the 8-bit kernels: %s", e);
        return 1;
    }
    CHECK(st == GH_OK, "NVRTC compiles %s %s x %s -> %s at its default for sm_%d%d%s%.600s", info->name, name_of(t.a),
          name_of(t.b), name_of(t.c), major, minor, st ? ": " : "", st ? e : "");
    return 0;
}

void run_compile_8bit_tests(const gh_plugin_api *api, gh_plugin *ctx, int full, int quick)
{
    gemmhost_cuda_compile_types_fn compile = (gemmhost_cuda_compile_types_fn)api->get_proc(GEMMHOST_CUDA_COMPILE_TYPES);
    if (!CHECK(compile != NULL, "get_proc(%s)", GEMMHOST_CUDA_COMPILE_TYPES)) return;
    for (size_t k = 0; k < sizeof kernels_8bit / sizeof kernels_8bit[0]; ++k) {
        const int kernel = gh_test_find_kernel(api, ctx, kernels_8bit[k]);
        const gh_kernel_info *info = kernel >= 0 ? api->kernel_info(ctx, kernel) : NULL;
        if (!CHECK(info != NULL, "kernel %s", kernels_8bit[k])) continue;
        check_combos(info);
        if (!full) {
            for (size_t i = 0; i < (quick ? 1 : sizeof representative / sizeof representative[0]); ++i)
                if (compile_one(api, ctx, compile, kernel, info, representative[i], 9, 0)) return;
            continue;
        }
        const int archs[][2] = {{9, 0}, {8, 0}, {7, 5}};
        for (size_t a = 0; a < 3; ++a)
            for (size_t c = 0; c < info->n_combos; ++c) {
                const gh_type_combo *tc = &info->combos[c];
                if (compile_one(api, ctx, compile, kernel, info, (type_set){tc->a, tc->b, tc->c}, archs[a][0],
                                archs[a][1]))
                    return;
            }
    }
    /* mma in i8 (m16n8k32, sm_80 and newer): its default for sm_90 (and
     * sm_80 with --full); depth 16 refused, as no multiple of 32. */
    const int mma = gh_test_find_kernel(api, ctx, "mma");
    const gh_kernel_info *mma_info = mma >= 0 ? api->kernel_info(ctx, mma) : NULL;
    const gh_type_combo *mma_i8 = mma_info ? find_combo(mma_info, GH_I8, GH_I8, GH_I32) : NULL;
    if (CHECK(mma_i8 && mma_i8->accumulate == GH_PREC_AS_STORED, "mma lists i8 x i8 -> i32 with exact sums")) {
        for (int a = 0; a < (full ? 2 : 1); ++a)
            if (compile_one(api, ctx, compile, mma, mma_info, (type_set){GH_I8, GH_I8, GH_I32}, a ? 8 : 9, 0)) return;
        const int64_t shallow[6] = {64, 64, 16, 32, 32, 2};
        gh_status ms = compile(ctx, mma, GH_I8, GH_I8, GH_I32, shallow, 6, 9, 0);
        CHECK(ms == GH_UNSUPPORTED && contains(api->last_error(ctx), "steps of 32"),
              "compile refuses mma i8 at bk 16, naming its steps of 32 (status %d: %s)", (int)ms, api->last_error(ctx));
    }

    /* wgmma in FP8 (sm_90a, k32): every pair listed with the declared
     * unpromoted 13-bit sum; its default, and promotion every step, compile;
     * what promotion cannot do is refused. And s8 into i32, exact. */
    const int wgmma = gh_test_find_kernel(api, ctx, "wgmma");
    const gh_kernel_info *wg = wgmma >= 0 ? api->kernel_info(ctx, wgmma) : NULL;
    int wg_listed = 0;
    for (int x = 0; wg && x < 4; ++x)
        for (int o = 0; o < 3; ++o) {
            const gh_dtype f8[2] = {GH_E4M3, GH_E5M2}, out[3] = {GH_F32, GH_F16, GH_BF16};
            const gh_type_combo *tc = find_combo(wg, f8[x / 2], f8[x % 2], out[o]);
            wg_listed += tc && tc->accumulate == GH_PREC_F32 && tc->accumulate_bits == 13 && tc->promote_every == 0;
        }
    const gh_type_combo *wg_i8 = wg ? find_combo(wg, GH_I8, GH_I8, GH_I32) : NULL;
    CHECK(wg_i8 && wg_i8->accumulate == GH_PREC_AS_STORED && wg_i8->accumulate_bits == 0,
          "wgmma lists i8 x i8 -> i32 with exact sums");
    if (CHECK(wg && wg->n_params == 6 && wg_listed == 12,
              "wgmma lists the 12 FP8 combinations, each a 13-bit sum never promoted (%d), and takes 6 parameters",
              wg_listed)) {
        const int64_t promoted[6] = {128, 128, 4, 1, 1, 0};
        if (compile_one(api, ctx, compile, wgmma, wg, (type_set){GH_E4M3, GH_E4M3, GH_F32}, 9, 0)) return;
        if (compile_one(api, ctx, compile, wgmma, wg, (type_set){GH_I8, GH_I8, GH_I32}, 9, 0)) return;
        gh_status is = compile(ctx, wgmma, GH_I8, GH_I8, GH_I32, promoted, 6, 9, 0);
        CHECK(is == GH_UNSUPPORTED && contains(api->last_error(ctx), "only FP8"),
              "compile refuses wgmma i8 with promote 1 (status %d: %s)", (int)is, api->last_error(ctx));
        gh_status ws = compile(ctx, wgmma, GH_E4M3, GH_E5M2, GH_BF16, promoted, 6, 9, 0);
        CHECK(ws == GH_OK, "NVRTC compiles wgmma e4m3 x e5m2 -> bf16 at 128 x 128, promote 1, for sm_90a%s%.600s",
              ws ? ": " : "", ws ? api->last_error(ctx) : "");
        for (size_t c = 0; full && c < wg->n_combos; ++c)
            if (compile_one(api, ctx, compile, wgmma, wg, (type_set){wg->combos[c].a, wg->combos[c].b, wg->combos[c].c},
                            9, 0))
                return;
        ws = compile(ctx, wgmma, GH_F16, GH_F16, GH_F16, promoted, 6, 9, 0);
        CHECK(ws == GH_UNSUPPORTED && contains(api->last_error(ctx), "only FP8"),
              "compile refuses wgmma f16 with promote 1 (status %d: %s)", (int)ws, api->last_error(ctx));
        const int64_t wide[6] = {128, 256, 4, 1, 1, 0};
        ws = compile(ctx, wgmma, GH_E4M3, GH_E4M3, GH_F32, wide, 6, 9, 0);
        CHECK(ws == GH_UNSUPPORTED && contains(api->last_error(ctx), "three sets of accumulators"),
              "compile refuses wgmma FP8 128 x 256 with promote 1, naming the three sets (status %d: %s)", (int)ws,
              api->last_error(ctx));
        /* 3 x 64 accumulators as at 128 x 128, but ptxas spills them. */
        const int64_t tall[6] = {256, 64, 4, 1, 1, 0};
        ws = compile(ctx, wgmma, GH_E4M3, GH_E4M3, GH_F32, tall, 6, 9, 0);
        CHECK(ws == GH_UNSUPPORTED && contains(api->last_error(ctx), "bm 256 spills"),
              "compile refuses wgmma FP8 256 x 64 with promote 1, saying it spills (status %d: %s)", (int)ws,
              api->last_error(ctx));
        const int64_t narrow[6] = {128, 64, 6, 2, 1, 0};
        ws = compile(ctx, wgmma, GH_E5M2, GH_E4M3, GH_F16, narrow, 6, 9, 0);
        CHECK(ws == GH_OK, "NVRTC compiles wgmma e5m2 x e4m3 -> f16 at 128 x 64, promote 2, for sm_90a%s%.600s",
              ws ? ": " : "", ws ? api->last_error(ctx) : "");
        ws = compile(ctx, wgmma, GH_E4M3, GH_E4M3, GH_F32, promoted, 6, 8, 0);
        CHECK(ws == GH_UNSUPPORTED && contains(api->last_error(ctx), "sm_90a"),
              "compile refuses wgmma FP8 for sm_80 (status %d: %s)", (int)ws, api->last_error(ctx));
    }
    if (!full)
        check_skip(
            "NVRTC compiles of the 8-bit kernels in every combination for sm_90, sm_80 and sm_75: only with "
            "--full (ctest -L full-sweep); above, one combination per input type for sm_90");

    /* What no kernel lists, and what is not compiled at all. */
    const int naive = gh_test_find_kernel(api, ctx, "naive");
    gh_status st = compile(ctx, naive, GH_E4M3, GH_E4M3, GH_I32, NULL, 0, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "has no e4m3 x e4m3 -> i32"),
          "compile refuses naive e4m3 x e4m3 -> i32, naming the combination (status %d: %s)", (int)st,
          api->last_error(ctx));
    st = compile(ctx, naive, GH_I8, GH_E4M3, GH_F32, NULL, 0, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "has no i8 x e4m3 -> f32"),
          "compile refuses naive i8 x e4m3 -> f32 (status %d: %s)", (int)st, api->last_error(ctx));
    st = compile(ctx, naive, GH_E4M3, GH_E4M3, GH_E4M3, NULL, 0, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "has no dtype e4m3"),
          "compile refuses naive all in e4m3, which it does not offer (status %d: %s)", (int)st, api->last_error(ctx));
    st = compile(ctx, naive, GH_E4M3, (gh_dtype)GH_DTYPE_COUNT, GH_F32, NULL, 0, 9, 0);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "unknown dtype"),
          "compile refuses an unknown B type (status %d: %s)", (int)st, api->last_error(ctx));
}
