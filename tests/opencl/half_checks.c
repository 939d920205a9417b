/* The 16-bit conversions of the kernels, checked exactly rather than within
 * a bound: with K = 1, C = alpha * A * B + beta * C0 has products of two
 * 16-bit values, exact in f32 (22 significant bits at most), so the only
 * roundings are f32's of the alpha/beta sum and the one to 16 bits at the
 * store, and the host can compute every element's bits. A is a column
 * holding bit patterns (zeros, subnormals, infinities, NaNs), B a row of
 * values whose products land on and beside the midpoints between 16-bit
 * neighbours (x 1.5 makes a tie of every odd significand), so a kernel that
 * loads a pattern wrongly, truncates, rounds a tie away from even, rounds
 * twice or loses a NaN differs in some element.
 *
 * naive takes all 65,536 patterns; the others, whose conversions are the
 * same lines of common.cl, every 16th with varied low bits (4,096): on a
 * CPU device (PoCL) blocked's 128 x 128 blocks make each run of a
 * 65,536-row column take 70 ms.
 *
 * Equal means the same bits, except that any NaN matches any NaN and +0
 * matches -0 (a compiler may fold 0 + x into x). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gemmhost/half.h>
#include <gemmhost/plugin_helpers.h>
#include "../check.h"
#include "gemm_args.h"
#include "half_checks.h"

#define ALL_ROWS  65536 /* one per bit pattern */
#define SOME_ROWS 4096
#define COLS      4

/* B's row, per dtype: 1, 1.5, 1 + one ulp, 0.75. */
static const uint16_t f16_row[COLS] = {0x3C00, 0x3E00, 0x3C01, 0x3A00};
static const uint16_t bf16_row[COLS] = {0x3F80, 0x3FC0, 0x3F81, 0x3F40};

/* A NaN no kernel writes: C's starting value when beta is 0. */
static const uint16_t f16_poison = 0x7E5A, bf16_poison = 0x7FDA;

static float widen(gh_dtype d, uint16_t h)
{
    return d == GH_F16 ? gh_f16_to_f32(h) : gh_bf16_to_f32(h);
}

static uint16_t narrow(gh_dtype d, float f)
{
    return d == GH_F16 ? gh_f32_to_f16(f) : gh_f32_to_bf16(f);
}

static int is_nan(gh_dtype d, uint16_t h)
{
    return d == GH_F16 ? (h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) : (h & 0x7F80u) == 0x7F80u && (h & 0x007Fu);
}

static int same(gh_dtype d, uint16_t got, uint16_t want)
{
    return got == want || (is_nan(d, got) && is_nan(d, want)) || ((got | want) & 0x7FFFu) == 0;
}

typedef struct exact_run {
    uint32_t rows; /* of A and C, at most ALL_ROWS */
    uint16_t a[ALL_ROWS], b[COLS], c0[ALL_ROWS * COLS], c1[ALL_ROWS * COLS];
} exact_run;

/* Uploads, runs and downloads one case; GH_OK or the failing status, with
 * the plugin's words in `why`. */
static gh_status run_gemm(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                          size_t n_params, gh_dtype d, double alpha, double beta, exact_run *r, char *why,
                          size_t why_size)
{
    const uint64_t a_bytes = r->rows * sizeof r->a[0], c_bytes = r->rows * COLS * sizeof r->c0[0];
    gh_buffer *a = NULL, *b = NULL, *c = NULL;
    gh_status st = api->buffer_alloc(ctx, device, a_bytes, &a);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, sizeof r->b, &b);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, c_bytes, &c);
    if (st == GH_OK) st = api->upload(ctx, a, 0, r->a, a_bytes);
    if (st == GH_OK) st = api->upload(ctx, b, 0, r->b, sizeof r->b);
    if (st == GH_OK) st = api->upload(ctx, c, 0, r->c0, c_bytes);
    if (st == GH_OK) {
        gh_gemm_args args = gh_test_tight_args(d, (int64_t)r->rows, COLS, 1, a, b, c, params, n_params);
        args.alpha = alpha;
        args.beta = beta;
        gh_gemm_timing timing = {.size = sizeof timing};
        st = api->gemm(ctx, device, kernel, &args, &timing);
    }
    if (st == GH_OK) st = api->download(ctx, c, 0, r->c1, c_bytes);
    if (st != GH_OK) snprintf(why, why_size, "%s", api->last_error(ctx));
    api->buffer_free(ctx, a);
    api->buffer_free(ctx, b);
    api->buffer_free(ctx, c);
    return st;
}

static void check_exact(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                        size_t n_params, gh_dtype d, double beta, exact_run *r)
{
    const gh_kernel_info *ki = api->kernel_info(ctx, kernel);
    char what[160];
    snprintf(what, sizeof what, "%s (default parameters) %s, %s x 4, K = 1, beta = %g: exact", ki->name,
             gh_plugin_dtype_name(d), r->rows == ALL_ROWS ? "every bit pattern" : "every 16th bit pattern", beta);
    const float alpha = -2.0f, beta_f = (float)beta;
    const uint32_t step = ALL_ROWS / r->rows;
    for (uint32_t i = 0; i < r->rows; i++) r->a[i] = (uint16_t)(i * step + i % step);
    memcpy(r->b, d == GH_F16 ? f16_row : bf16_row, sizeof r->b);
    /* C0: small multiples of 1/8, exact in both types, so that beta * C0 is
     * exact and alpha * A * B + beta * C0 rounds once in f32 whether or not
     * the compiler fuses it into an fma. */
    for (uint32_t x = 0; x < r->rows * COLS; x++)
        r->c0[x] =
            beta != 0 ? narrow(d, (float)((int)(x * 37u % 61u) - 30) / 8.0f) : (d == GH_F16 ? f16_poison : bf16_poison);

    char why[1024] = "";
    gh_status st = run_gemm(api, ctx, device, kernel, params, n_params, d, alpha, beta, r, why, sizeof why);
    if (st == GH_UNSUPPORTED) {
        check_skip("%s: %s", what, why);
        return;
    }
    if (st != GH_OK) {
        CHECK(0, "%s: gemm failed (status %d): %s", what, (int)st, why);
        return;
    }

    uint32_t wrong = 0, first = 0;
    uint16_t first_want = 0;
    for (uint32_t i = 0; i < r->rows; i++)
        for (uint32_t j = 0; j < COLS; j++) {
            /* What the kernel computes: acc = 0 + a * b in f32, then
             * alpha * acc (+ beta * c), rounded once to 16 bits. */
            float acc = 0.0f;
            acc += widen(d, r->a[i]) * widen(d, r->b[j]);
            float out = alpha * acc;
            if (beta != 0) out += beta_f * widen(d, r->c0[i * COLS + j]);
            const uint16_t want = narrow(d, out);
            if (!same(d, r->c1[i * COLS + j], want) && wrong++ == 0) {
                first = i * COLS + j;
                first_want = want;
            }
        }
    if (wrong)
        CHECK(0, "%s: %u of %u elements differ; first C[%u][%u] = 0x%04x, expected 0x%04x (A = 0x%04x, B = 0x%04x)",
              what, wrong, r->rows * COLS, first / COLS, first % COLS, r->c1[first], first_want, r->a[first / COLS],
              r->b[first % COLS]);
    else CHECK(1, "%s", what);
}

/* Whether the kernel multiplies and sums dtype d in f32, as these checks
 * compute it: no precision declared for d, or f32 sums of the stored values
 * (clblast's HGEMM declares f16 sums, and its rounding is not checked here). */
static int sums_in_f32(const gh_kernel_info *ki, gh_dtype d)
{
    for (size_t i = 0; i < ki->n_precisions; i++)
        if (ki->precisions[i].dtype == d)
            return ki->precisions[i].inputs == GH_PREC_AS_STORED && ki->precisions[i].accumulate == GH_PREC_F32;
    return 1;
}

void half_checks(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    exact_run *r = malloc(sizeof *r);
    if (!CHECK(r != NULL, "half checks: host memory")) return;
    for (int kernel = 0; kernel < api->kernel_count(ctx); kernel++) {
        const gh_kernel_info *ki = api->kernel_info(ctx, kernel);
        int64_t params[16];
        r->rows = ki && strcmp(ki->name, "naive") == 0 ? ALL_ROWS : SOME_ROWS;
        if (!CHECK(ki && ki->n_params <= 16, "half checks: kernel %d has at most 16 parameters", kernel)) continue;
        for (size_t p = 0; p < ki->n_params; p++) params[p] = ki->params[p].default_value;
        static const gh_dtype halves[] = {GH_F16, GH_BF16};
        for (int h = 0; h < 2; h++)
            if ((ki->dtypes & GH_DTYPE_BIT(halves[h])) && sums_in_f32(ki, halves[h])) {
                check_exact(api, ctx, device, kernel, params, ki->n_params, halves[h], 0.0, r);
                check_exact(api, ctx, device, kernel, params, ki->n_params, halves[h], -3.0, r);
            }
    }
    free(r);
}
