/*
 * 8-bit GEMMs on a CUDA device (the device part "8bit"): naive, tiled and
 * blocked in every type combination they list (A and B in e4m3 or e5m2, C
 * f32/f16/bf16; i8 x i8 -> i32), every transpose, odd shapes, ld padding
 * and offsets, alpha/beta and per-tensor scales; mma in i8; wgmma in FP8
 * (sm_90a, nt, promoted or not) and in s8; cublaslt-fp8,
 * cublaslt-fp8-fast and cublaslt-i8 in their one layout (nt) at sizes
 * cuBLASLt takes; and what cuBLASLt cannot do refused with its rule named.
 *
 * Inputs are drawn from {0, +-0.5, +-1, +-1.5, +-2, +-3, +-4, +-6}, exact
 * in e4m3 and in e5m2 (i8: -6 .. 6), and the scales are powers of two, so
 * every product and every partial sum is exact in f32 and in f64: an f32 C
 * must equal the f64 reference bit for bit; an f16 or bf16 C is one
 * rounding of it (half an ulp); an i32 C equal. cublaslt-fp8-fast, which
 * declares a 13-bit sum, is held to that sum's bound instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_test.h"
#include "tile_grid.h"
#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "gemm_args.h"

static const double draws[] = {0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2, 3, -3, 4, -4, 6, -6};
#define N_DRAWS (sizeof draws / sizeof draws[0])

static size_t elem_size(gh_dtype d)
{
    return d == GH_I32 || d == GH_F32 ? 4 : d == GH_F16 || d == GH_BF16 ? 2 : 1;
}

static const char *dtype_name(gh_dtype d)
{
    static const char *const names[GH_DTYPE_COUNT] = {"f32", "f64", "i32", "f16", "bf16", "e4m3", "e5m2", "i8"};
    return (unsigned)d < GH_DTYPE_COUNT ? names[d] : "?";
}

/* Stores v (exact in d, or rounded once for f16/bf16) at element i. */
static void put(gh_dtype d, void *base, size_t i, double v)
{
    unsigned char *p = (unsigned char *)base + i * elem_size(d);
    if (d == GH_E4M3) *p = gh_f64_to_e4m3(v);
    else if (d == GH_E5M2) *p = gh_f64_to_e5m2(v);
    else if (d == GH_I8) *(int8_t *)p = (int8_t)v;
    else if (d == GH_I32) {
        int32_t x = (int32_t)v;
        memcpy(p, &x, 4);
    } else if (d == GH_F32) {
        float x = (float)v;
        memcpy(p, &x, 4);
    } else {
        uint16_t h = d == GH_F16 ? gh_f64_to_f16(v) : gh_f64_to_bf16(v);
        memcpy(p, &h, 2);
    }
}

static double get(gh_dtype d, const void *base, size_t i)
{
    const unsigned char *p = (const unsigned char *)base + i * elem_size(d);
    uint16_t h;
    if (d == GH_I32) {
        int32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    if (d == GH_F32) {
        float x;
        memcpy(&x, p, 4);
        return x;
    }
    memcpy(&h, p, 2);
    return d == GH_F16 ? gh_f16_to_f64(h) : gh_bf16_to_f64(h);
}

typedef struct case_8bit {
    const char *kernel;
    int64_t params[6];
    size_t n_params;
    gh_dtype a, b, c;
    int trans_a, trans_b;
    int64_t m, n, k, pad;
    uint64_t offset;
    double alpha, beta, scale_a, scale_b, scale_c;
    unsigned accumulate_bits; /* the kernel's declared narrow sum, 0: exact here */
} case_8bit;

/* The case's GEMM arguments (types, transposes, shape, scalars, scales,
 * kernel parameters) on these operands. */
static gh_gemm_args case_args(const case_8bit *t, gh_test_operand a, gh_test_operand b, gh_test_operand c)
{
    const gh_test_problem p = {t->a, t->trans_a, t->trans_b, t->m, t->n, t->k, t->alpha, t->beta};
    const gh_test_types types = {t->a, t->b, t->c, t->scale_a, t->scale_b, t->scale_c};
    return gh_test_typed_gemm_args(&p, &types, a, b, c, t->n_params ? t->params : NULL, t->n_params);
}

/* Runs one case and compares every element of C against the f64
 * reference; the elements between C's rows must keep their pattern. */
static void run_case(const gh_plugin_api *api, gh_plugin *ctx, int device, const case_8bit *t, unsigned seed)
{
    const int64_t a_rows = t->trans_a ? t->k : t->m, a_cols = t->trans_a ? t->m : t->k;
    const int64_t b_rows = t->trans_b ? t->n : t->k, b_cols = t->trans_b ? t->k : t->n;
    const int64_t lda = a_cols + t->pad, ldb = b_cols + t->pad, ldc = t->n + t->pad;
    const size_t na = (size_t)(t->offset + a_rows * lda), nb = (size_t)(t->offset + b_rows * ldb),
                 nc = (size_t)(t->offset + t->m * ldc);
    unsigned char *A = calloc(na, 1), *B = calloc(nb, 1), *C = calloc(nc, elem_size(t->c)),
                  *C0 = calloc(nc, elem_size(t->c));
    double *ref = calloc((size_t)(t->m * t->n), sizeof *ref), *mag = calloc((size_t)(t->m * t->n), sizeof *mag);
    srand(seed);
    const int integer = t->a == GH_I8;
    for (size_t i = 0; i < na; ++i) put(t->a, A, i, integer ? rand() % 13 - 6 : draws[rand() % N_DRAWS]);
    for (size_t i = 0; i < nb; ++i) put(t->b, B, i, integer ? rand() % 13 - 6 : draws[rand() % N_DRAWS]);
    for (size_t i = 0; i < nc; ++i) put(t->c, C0, i, rand() % 9 - 4);
    double (*dec_a)(uint8_t) = t->a == GH_E4M3 ? gh_e4m3_to_f64 : gh_e5m2_to_f64;
    double (*dec_b)(uint8_t) = t->b == GH_E4M3 ? gh_e4m3_to_f64 : gh_e5m2_to_f64;
    for (int64_t i = 0; i < t->m; ++i)
        for (int64_t j = 0; j < t->n; ++j) {
            double sum = 0, abs_sum = 0;
            for (int64_t p = 0; p < t->k; ++p) {
                const size_t ia = (size_t)(t->offset + (t->trans_a ? p * lda + i : i * lda + p));
                const size_t ib = (size_t)(t->offset + (t->trans_b ? j * ldb + p : p * ldb + j));
                const double x = integer ? ((int8_t *)A)[ia] : dec_a(A[ia]);
                const double y = integer ? ((int8_t *)B)[ib] : dec_b(B[ib]);
                sum += x * y;
                abs_sum += fabs(x * y);
            }
            const double c0 = get(t->c, C0, (size_t)(t->offset + i * ldc + j));
            ref[i * t->n + j] = t->scale_c * (t->alpha * t->scale_a * t->scale_b * sum + t->beta * c0);
            mag[i * t->n + j] = t->scale_c * fabs(t->alpha * t->scale_a * t->scale_b) * abs_sum;
        }

    /* every parameter: wgmma's variants differ past the first (persistent, last) */
    char params[128] = "";
    for (size_t p = 0; p < t->n_params; ++p) {
        const size_t used = strlen(params);
        snprintf(params + used, sizeof params - used, " %lld", (long long)t->params[p]);
    }
    char what[320];
    snprintf(what, sizeof what,
             "%s%s %s x %s -> %s %s %lldx%lldx%lld pad %lld offset %llu alpha %g beta %g scales %g %g %g", t->kernel,
             params, dtype_name(t->a), dtype_name(t->b), dtype_name(t->c),
             t->trans_a ? (t->trans_b ? "tt" : "tn") : (t->trans_b ? "nt" : "nn"), (long long)t->m, (long long)t->n,
             (long long)t->k, (long long)t->pad, (unsigned long long)t->offset, t->alpha, t->beta, t->scale_a,
             t->scale_b, t->scale_c);
    gh_buffer *bufs[3] = {NULL, NULL, NULL};
    const int kernel = gh_test_find_kernel(api, ctx, t->kernel);
    const size_t bytes[3] = {na, nb, nc * elem_size(t->c)};
    const void *host[3] = {A, B, C0};
    int ok = kernel >= 0;
    for (int i = 0; ok && i < 3; ++i)
        ok = api->buffer_alloc(ctx, device, bytes[i], &bufs[i]) == GH_OK &&
             api->upload(ctx, bufs[i], 0, host[i], bytes[i]) == GH_OK;
    if (!CHECK(ok, "%s: buffers (%s)", what, api->last_error(ctx))) goto done;
    const gh_test_operand a = {bufs[0], lda, t->offset}, b = {bufs[1], ldb, t->offset}, c = {bufs[2], ldc, t->offset};
    const gh_gemm_args g = case_args(t, a, b, c);
    gh_gemm_timing timing = {.size = sizeof timing, .clock = GH_CLOCK_DEVICE};
    gh_status st = api->gemm(ctx, device, kernel, &g, &timing);
    if (!CHECK(st == GH_OK, "%s runs (status %d: %s)", what, (int)st, api->last_error(ctx))) goto done;
    if (!CHECK(api->download(ctx, bufs[2], 0, C, bytes[2]) == GH_OK, "%s: download", what)) goto done;
    /* The bound: exact for f32 and i32 C, one rounding into f16/bf16, and
     * for a declared narrow sum K roundings of it. */
    const double u_c = t->c == GH_F16 ? 0x1p-11 : t->c == GH_BF16 ? 0x1p-8 : 0.0;
    const double u_sum = t->accumulate_bits ? ldexp(1.0, -(int)t->accumulate_bits - 1) : 0.0;
    double worst = 0;
    int bad = 0, stray = 0;
    for (int64_t i = 0; i < t->m; ++i)
        for (int64_t j = 0; j < t->n; ++j) {
            const double got = get(t->c, C, (size_t)(t->offset + i * ldc + j)), want = ref[i * t->n + j];
            const double bound = u_c * fabs(want) + (double)t->k * u_sum * mag[i * t->n + j] * (1 + u_c);
            const double err = fabs(got - want);
            if (!(err <= bound)) ++bad;
            if (err > worst || isnan(err)) worst = err;
        }
    for (int64_t i = 0; i < t->m; ++i)
        for (int64_t j = t->n; j < ldc; ++j) {
            const size_t at = (size_t)(t->offset + i * ldc + j) * elem_size(t->c);
            stray += memcmp(C + at, C0 + at, elem_size(t->c)) != 0;
        }
    CHECK(bad == 0 && stray == 0,
          "%s: every element within its bound (%d outside, largest error %g), padding kept (%d)", what, bad, worst,
          stray);
done:
    for (int i = 0; i < 3; ++i) api->buffer_free(ctx, bufs[i]);
    free(A);
    free(B);
    free(C);
    free(C0);
    free(ref);
    free(mag);
}

/* run_case, a persistent wgmma case (its sixth parameter 1) on a grid of
 * one block, or one pair with cluster 2 (GEMMHOST_CUDA_PERSISTENT_GRID):
 * the device's SMs would give each block one tile of these matrices. */
static void run_persistent_case(const gh_plugin_api *api, gh_plugin *ctx, int device, const case_8bit *t, unsigned seed)
{
    const int persistent = strcmp(t->kernel, "wgmma") == 0 && t->n_params == 6 && t->params[5];
    if (persistent) setenv(GH_CUDA_PERSISTENT_GRID_ENV, t->params[4] == 2 ? "2" : "1", 1);
    run_case(api, ctx, device, t, seed);
    if (persistent) unsetenv(GH_CUDA_PERSISTENT_GRID_ENV);
}

/* A request cuBLASLt cannot do: GH_UNSUPPORTED, naming its rule. */
static void expect_refusal(const gh_plugin_api *api, gh_plugin *ctx, int device, const case_8bit *t, const char *part)
{
    const int kernel = gh_test_find_kernel(api, ctx, t->kernel);
    gh_buffer *buf = NULL;
    if (api->buffer_alloc(ctx, device, 1 << 20, &buf) != GH_OK) {
        check_verdict(0, "buffer for %s's refusal: %s", t->kernel, api->last_error(ctx));
        return;
    }
    const int64_t lda = (t->trans_a ? t->m : t->k) + t->pad, ldb = (t->trans_b ? t->k : t->n) + t->pad;
    const gh_test_operand a = {buf, lda, 0}, b = {buf, ldb, 256 * 1024},
                          c = {buf, t->n + t->pad, 512 * 1024 / elem_size(t->c)};
    /* the refusal is about layout and types: plain scalars and scales */
    case_8bit plain = *t;
    plain.alpha = plain.scale_a = plain.scale_b = plain.scale_c = 1;
    plain.beta = 0;
    const gh_gemm_args g = case_args(&plain, a, b, c);
    gh_gemm_timing timing = {.size = sizeof timing, .clock = GH_CLOCK_DEVICE};
    gh_status st = api->gemm(ctx, device, kernel, &g, &timing);
    CHECK(st == GH_UNSUPPORTED && strstr(api->last_error(ctx), part),
          "%s %s x %s -> %s trans %d%d lda %lld: refused naming \"%s\" (status %d: %s)", t->kernel, dtype_name(t->a),
          dtype_name(t->b), dtype_name(t->c), t->trans_a, t->trans_b, (long long)lda, part, (int)st,
          api->last_error(ctx));
    api->buffer_free(ctx, buf);
}

void run_8bit_tests(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const gh_dtype fp8[] = {GH_E4M3, GH_E5M2}, outs[] = {GH_F32, GH_F16, GH_BF16};
    const int64_t shapes[][3] = {{1, 1, 1}, {37, 53, 29}, {65, 63, 70}, {129, 127, 47}};
    const struct {
        const char *kernel;
        int64_t params[2];
        size_t n;
    } kernels[] = {{"naive", {0, 0}, 0},     {"tiled", {16, 0}, 1},   {"tiled", {4, 0}, 1},
                   {"blocked", {128, 8}, 2}, {"blocked", {64, 4}, 2}, {"blocked", {32, 2}, 2}};
    unsigned seed = 1;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; ++k)
        for (int combo = 0; combo < 13; ++combo)
            for (int tr = 0; tr < 4; ++tr)
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
                    /* every transpose and combination on two shapes, the rest on one */
                    if (s >= 2 && (combo + tr) % 3 != 0) continue;
                    const int i8 = combo == 12;
                    case_8bit t = {kernels[k].kernel,
                                   {kernels[k].params[0], kernels[k].params[1]},
                                   kernels[k].n,
                                   i8 ? GH_I8 : fp8[combo / 6],
                                   i8 ? GH_I8 : fp8[(combo / 3) % 2],
                                   i8 ? GH_I32 : outs[combo % 3],
                                   tr >> 1,
                                   tr & 1,
                                   shapes[s][0],
                                   shapes[s][1],
                                   shapes[s][2],
                                   s % 2 ? 3 : 0,
                                   s % 2 ? 5 : 0,
                                   i8 ? 3 : 2,
                                   i8 ? -2 : -3,
                                   i8 ? 1 : 0.5,
                                   i8 ? 1 : 2,
                                   i8 ? 1 : 4,
                                   0};
                    run_case(api, ctx, device, &t, seed++);
                }

    /* mma in i8 (compute capability 8.0+): its default and its 8-warp
     * sample, every transpose, on both copy paths (tight rows of 16-byte
     * multiples take the 16-byte one), exact. */
    const int sm = device_sm(api, ctx, device);
    const int64_t mma_shapes[][4] = {{37, 53, 29, 3}, {129, 127, 47, 0}, {128, 256, 96, 0}, {1, 1, 1, 0}};
    const int64_t mma_params[][6] = {{128, 128, 32, 64, 64, 4}, {128, 256, 32, 64, 64, 3}};
    for (int p = 0; p < 2 && sm >= 80; ++p)
        for (int tr = 0; tr < 4; ++tr)
            for (size_t s = 0; s < sizeof mma_shapes / sizeof mma_shapes[0]; ++s) {
                case_8bit t = {"mma",
                               {0, 0},
                               6,
                               GH_I8,
                               GH_I8,
                               GH_I32,
                               tr >> 1,
                               tr & 1,
                               mma_shapes[s][0],
                               mma_shapes[s][1],
                               mma_shapes[s][2],
                               mma_shapes[s][3],
                               0,
                               3,
                               -2,
                               1,
                               1,
                               1,
                               0};
                memcpy(t.params, mma_params[p], sizeof mma_params[p]);
                run_case(api, ctx, device, &t, seed++);
            }

    /* wgmma in FP8 (sm_90a): every pair and C type, nt only (TMA: rows of
     * whole 16 bytes), at its default (the narrow sum never promoted), at
     * 128 x 128 promoted every 128 K-elements, and at its default in pairs
     * of blocks sharing B (cluster 2); held to the declared 13-bit sum. The
     * same three persistent (a block walking tile after tile) on a grid of
     * one block, or one pair (GEMMHOST_CUDA_PERSISTENT_GRID), and on a
     * fourth shape of 15 tiles of 4 steps (2 x 3 pairs' tiles in pairs; 20
     * at 128 x 128): the steps run on over tiles and round the stages many
     * times. */
    const int64_t wg_shapes[][3] = {{37, 53, 48}, {129, 127, 160}, {256, 256, 512}, {520, 600, 416}};
    const int64_t wg_params[][6] = {{128, 256, 4, 0, 1, 0}, {128, 128, 4, 1, 1, 0}, {128, 256, 4, 0, 2, 0},
                                    {128, 256, 4, 0, 1, 1}, {128, 128, 4, 1, 1, 1}, {128, 256, 4, 0, 2, 1}};
    for (int p = 0; p < 6 && sm == 90; ++p)
        for (int combo = 0; combo < 12; ++combo)
            for (size_t s = 0; s < (wg_params[p][5] ? 4u : 3u); ++s) {
                case_8bit t = {"wgmma",
                               {0},
                               6,
                               fp8[combo / 6],
                               fp8[(combo / 3) % 2],
                               outs[combo % 3],
                               0,
                               1,
                               wg_shapes[s][0],
                               wg_shapes[s][1],
                               wg_shapes[s][2],
                               0,
                               0,
                               2,
                               -3,
                               0.5,
                               2,
                               4,
                               13u};
                memcpy(t.params, wg_params[p], sizeof wg_params[p]);
                run_persistent_case(api, ctx, device, &t, seed++);
            }
    /* wgmma in s8 (sm_90a): i8 x i8 -> i32, exact, nt only, at its default,
     * at 128 x 128, and at its default in pairs sharing B (cluster 2); the
     * default and the pairs persistent too, as FP8's. */
    for (int p = 0; p < 5 && sm == 90; ++p) {
        const int64_t i8_params[5][6] = {{128, 256, 4, 0, 1, 0},
                                         {128, 128, 6, 0, 1, 0},
                                         {128, 256, 4, 0, 2, 0},
                                         {128, 256, 4, 0, 1, 1},
                                         {128, 256, 4, 0, 2, 1}};
        for (size_t s = 0; s < (i8_params[p][5] ? 4u : 3u); ++s) {
            case_8bit t = {
                "wgmma", {0}, 6, GH_I8, GH_I8, GH_I32, 0, 1, wg_shapes[s][0], wg_shapes[s][1], wg_shapes[s][2],
                0,       0,   3, -2,    1,     1,      1, 0};
            memcpy(t.params, i8_params[p], sizeof i8_params[p]);
            run_persistent_case(api, ctx, device, &t, seed++);
        }
    }
    if (sm == 90) {
        case_8bit w = {
            "wgmma", {128, 256, 4, 0, 1, 0}, 6, GH_E4M3, GH_E4M3, GH_F32, 0, 0, 64, 64, 64, 0, 0, 1, 0, 1, 1, 1, 0};
        expect_refusal(api, ctx, device, &w, "no transposed FP8 form");
        case_8bit wi = {"wgmma", {128, 256, 4, 0, 1, 0}, 6, GH_I8, GH_I8, GH_I32, 1, 1, 64, 64, 64, 0, 0, 1, 0, 1, 1, 1,
                        0};
        expect_refusal(api, ctx, device, &wi, "no transposed s8 form");
    }

    /* cuBLASLt: nt only, 16-byte rows and starts; FP8 needs compute
     * capability 8.9. */
    const gh_dtype lt_pairs[][2] = {{GH_E4M3, GH_E4M3}, {GH_E4M3, GH_E5M2}, {GH_E5M2, GH_E4M3}};
    const int64_t lt_shapes[][3] = {{64, 48, 80}, {256, 128, 512}, {16, 16, 16}};
    for (int fast = 0; fast < 2 && sm >= 89; ++fast)
        for (int p = 0; p < 3; ++p)
            for (int o = 0; o < 3; ++o)
                for (size_t s = 0; s < 3; ++s) {
                    case_8bit t = {fast ? "cublaslt-fp8-fast" : "cublaslt-fp8",
                                   {0, 0},
                                   0,
                                   lt_pairs[p][0],
                                   lt_pairs[p][1],
                                   outs[o],
                                   0,
                                   1,
                                   lt_shapes[s][0],
                                   lt_shapes[s][1],
                                   lt_shapes[s][2],
                                   s == 1 ? 16 : 0,
                                   0,
                                   2,
                                   -3,
                                   0.5,
                                   2,
                                   4,
                                   fast ? 13u : 0u};
                    run_case(api, ctx, device, &t, seed++);
                }
    for (size_t s = 0; s < 3; ++s) {
        case_8bit t = {
            "cublaslt-i8",  {0, 0}, 0, GH_I8, GH_I8, GH_I32, 0, 1, lt_shapes[s][0], lt_shapes[s][1], lt_shapes[s][2],
            s == 1 ? 4 : 0, 0,      3, -2,    1,     1,      1, 0};
        run_case(api, ctx, device, &t, seed++);
    }

    /* Refusals, before anything runs. */
    case_8bit r = {"cublaslt-fp8", {0, 0}, 0, GH_E4M3, GH_E4M3, GH_F32, 0, 0, 64, 64, 64, 0, 0, 1, 0, 1, 1, 1, 0};
    expect_refusal(api, ctx, device, &r, sm >= 89 ? "\"TN\"" : "compute capability 8.9");
    r.trans_b = 1;
    r.pad = 8; /* lda 72: not whole 16 bytes */
    if (sm >= 89) expect_refusal(api, ctx, device, &r, "16 bytes");
    r.pad = 0;
    r.b = GH_E5M2;
    r.a = GH_E5M2;
    expect_refusal(api, ctx, device, &r, "has no version");
    r.a = r.b = r.c = GH_E4M3;
    expect_refusal(api, ctx, device, &r, "only its listed type combinations");
    case_8bit q = {"cublaslt-i8", {0, 0}, 0, GH_I8, GH_I8, GH_I32, 0, 1, 16, 16, 17, 0, 0, 1, 0, 1, 1, 1, 0};
    expect_refusal(api, ctx, device, &q, "lda is 17"); /* PyTorch PR 106840's ld */
    q.k = 16;
    q.trans_a = 1;
    expect_refusal(api, ctx, device, &q, "\"TN\"");
}
