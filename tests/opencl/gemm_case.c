#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gemmhost/plugin_helpers.h>
#include "gemm_case.h"
#include "gemm_args.h"
#include "seeded.h"
#include "host_verify.h"

/* Elements after each matrix, to catch writes (and reads) past its end. */
#define GUARD 9

/* A matrix inside its buffer: rows x cols stored with stride ld after
 * `offset` elements, then GUARD elements. */
typedef struct layout {
    int64_t rows, cols, ld;
    uint64_t offset, count;
} layout;

static layout make_layout(int64_t rows, int64_t cols, const gemm_case *c)
{
    layout l = {rows, cols, cols + c->pad, c->offset, 0};
    l.count = l.offset + (uint64_t)(rows * l.ld) + GUARD;
    return l;
}

/* What the buffers hold outside the matrices: NaN for floats (a kernel that
 * reads it poisons its result; one that writes it is caught by the bit
 * pattern check; for f16 and bf16 not the quiet NaN a kernel would write),
 * a large value for i32. */
static void fill_poison(void *raw, gh_dtype d, uint64_t count)
{
    static const uint32_t f32_poison = 0x7fc0beefu;
    static const uint64_t f64_poison = 0x7ff8deadbeef0000ull;
    static const int32_t i32_poison = 0x5eadbeef;
    static const uint16_t f16_poison = 0x7e5a, bf16_poison = 0x7fda;
    for (uint64_t i = 0; i < count; i++) {
        if (d == GH_F32) memcpy((char *)raw + 4 * i, &f32_poison, 4);
        else if (d == GH_F64) memcpy((char *)raw + 8 * i, &f64_poison, 8);
        else if (d == GH_F16) memcpy((char *)raw + 2 * i, &f16_poison, 2);
        else if (d == GH_BF16) memcpy((char *)raw + 2 * i, &bf16_poison, 2);
        else memcpy((char *)raw + 4 * i, &i32_poison, 4);
    }
}

/* Inputs from tests/support's seeded values (floats in [-1, 1), i32 in
 * -8..8 but 0, so no i32 sum overflows), stream `stream` of the seed. */
static void fill_matrix(void *raw, gh_dtype d, const layout *l, uint64_t seed, uint64_t stream)
{
    fill_poison(raw, d, l->count);
    for (int64_t r = 0; r < l->rows; r++)
        for (int64_t col = 0; col < l->cols; col++)
            gh_test_put(d, raw, l->offset + (uint64_t)(r * l->ld + col),
                        gh_test_seeded_value(d, seed, stream, (uint64_t)(r * l->cols + col)));
}

void gemm_case_describe(const gh_plugin_api *api, gh_plugin *ctx, const gemm_case *c, char *text, size_t size)
{
    const gh_kernel_info *k = api->kernel_info(ctx, c->kernel);
    char params[192] = "";
    for (size_t i = 0, used = 0; i < c->n_params && i < GEMM_CASE_MAX_PARAMS && used < sizeof params; i++)
        used += (size_t)snprintf(params + used, sizeof params - used, " %s=%lld",
                                 k && i < k->n_params ? k->params[i].name : "param", (long long)c->params[i]);
    snprintf(text, size, "%s%s %s %c%c %lldx%lldx%lld alpha=%g beta=%g pad=%lld offset=%llu", k ? k->name : "?", params,
             gh_plugin_dtype_name(c->dtype), c->trans_a ? 't' : 'n', c->trans_b ? 't' : 'n', (long long)c->m,
             (long long)c->n, (long long)c->k, c->alpha, c->beta, (long long)c->pad, (unsigned long long)c->offset);
}

/* gamma_n = n u / (1 - n u), the worst-case relative error of n roundings. */
static double gamma_n(double n, gh_dtype d)
{
    double u = d == GH_F32 ? 0x1.0p-24 : 0x1.0p-53;
    return n * u / (1.0 - n * u);
}

typedef struct run_buffers {
    gh_buffer *a, *b, *c;
} run_buffers;

static void free_buffers(const gh_plugin_api *api, gh_plugin *ctx, run_buffers *bufs)
{
    if (bufs->a) api->buffer_free(ctx, bufs->a);
    if (bufs->b) api->buffer_free(ctx, bufs->b);
    if (bufs->c) api->buffer_free(ctx, bufs->c);
}

/* Compares C after the run with the reference; 0 when all is well. */
static int check_result(const gemm_case *c, const layout *la, const layout *lb, const layout *lc, const void *a,
                        const void *b, const void *c0, const void *c1, char *why, size_t why_size)
{
    const gh_dtype d = c->dtype;
    const size_t eb = gh_plugin_dtype_size(d);
    /* Around C: every element outside the matrix keeps its bits. */
    for (uint64_t x = 0; x < lc->count; x++) {
        int inside = x >= lc->offset && (int64_t)(x - lc->offset) / lc->ld < lc->rows &&
                     (int64_t)(x - lc->offset) % lc->ld < lc->cols;
        if (!inside && memcmp((const char *)c0 + x * eb, (const char *)c1 + x * eb, eb) != 0) {
            snprintf(why, why_size, "element %llu of C's buffer, outside C, was overwritten", (unsigned long long)x);
            return -1;
        }
    }
    if (d == GH_F16 || d == GH_BF16) {
        /* Rounded to 16 bits at the end: the host's bound, which has that
         * rounding in it (the one below has not). */
        const host_view va = {a, la->rows, la->cols, la->ld, la->offset},
                        vb = {b, lb->rows, lb->cols, lb->ld, lb->offset};
        const host_view vc0 = {c0, lc->rows, lc->cols, lc->ld, lc->offset},
                        vc1 = {c1, lc->rows, lc->cols, lc->ld, lc->offset};
        return host_verify(d, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, c->beta, &va, &vb, &vc0, &vc1, why,
                           why_size);
    }
    /* op(A) by rows and op(B) by columns, each contiguous along K, so that
     * the reference's inner loop reads memory in order. */
    double *opa = malloc((size_t)(c->m * c->k) * sizeof *opa), *opb = malloc((size_t)(c->n * c->k) * sizeof *opb);
    if (!opa || !opb) {
        free(opa);
        free(opb);
        snprintf(why, why_size, "out of host memory for the reference");
        return -1;
    }
    for (int64_t p = 0; p < c->k; p++) {
        for (int64_t i = 0; i < c->m; i++)
            opa[i * c->k + p] =
                gh_test_get(d, a, la->offset + (uint64_t)(c->trans_a ? p * la->ld + i : i * la->ld + p));
        for (int64_t j = 0; j < c->n; j++)
            opb[j * c->k + p] =
                gh_test_get(d, b, lb->offset + (uint64_t)(c->trans_b ? j * lb->ld + p : p * lb->ld + j));
    }
    /* The reference for f64 in long double (at least f64's precision plus
     * some), so that its own error does not eat into the f64 kernel's bound;
     * for f32 in double, its own error (gamma_K of f64) added to the bound;
     * for i32 exact in double (|sums| stay far below 2^53). */
    const double bound_scale = gamma_n((double)c->k + 2, d) /* K products + alpha + beta */
                               + (d == GH_F32 ? gamma_n((double)c->k, GH_F64) : 0.0);
    int rc = 0;
    for (int64_t i = 0; i < c->m && rc == 0; i++)
        for (int64_t j = 0; j < c->n; j++) {
            const double *x = &opa[i * c->k], *y = &opb[j * c->k];
            long double sum = 0, abs_sum = 0;
            if (d == GH_F64) {
                for (int64_t p = 0; p < c->k; p++) {
                    long double prod = (long double)x[p] * y[p];
                    sum += prod;
                    abs_sum += fabsl(prod);
                }
            } else {
                double sum_d = 0, abs_d = 0;
                for (int64_t p = 0; p < c->k; p++) {
                    sum_d += x[p] * y[p];
                    abs_d += fabs(x[p] * y[p]);
                }
                sum = sum_d;
                abs_sum = abs_d;
            }
            uint64_t ic = lc->offset + (uint64_t)(i * lc->ld + j);
            long double expected = (long double)c->alpha * sum;
            long double abs_bound = fabsl((long double)c->alpha) * abs_sum;
            if (c->beta != 0) {
                expected += (long double)c->beta * gh_test_get(d, c0, ic);
                abs_bound += fabsl((long double)c->beta * gh_test_get(d, c0, ic));
            }
            double got = gh_test_get(d, c1, ic);
            int ok;
            double bound = 0;
            if (d == GH_I32) {
                ok = (long double)got == expected;
            } else {
                bound = (double)(bound_scale * abs_bound);
                ok = fabsl((long double)got - expected) <= bound; /* false for NaN */
            }
            if (!ok) {
                snprintf(why, why_size, "C[%lld][%lld] = %.9g, expected %.9g (error %.3g, bound %.3g)", (long long)i,
                         (long long)j, got, (double)expected, (double)fabsl((long double)got - expected), bound);
                rc = -1;
                break;
            }
        }
    free(opa);
    free(opb);
    return rc;
}

case_result gemm_case_run(const gh_plugin_api *api, gh_plugin *ctx, int device, const gemm_case *c, char *why,
                          size_t why_size)
{
    const gh_dtype d = c->dtype;
    const size_t eb = gh_plugin_dtype_size(d);
    const layout la = c->trans_a ? make_layout(c->k, c->m, c) : make_layout(c->m, c->k, c);
    const layout lb = c->trans_b ? make_layout(c->n, c->k, c) : make_layout(c->k, c->n, c);
    const layout lc = make_layout(c->m, c->n, c);
    void *a = malloc(la.count * eb), *b = malloc(lb.count * eb);
    void *c0 = malloc(lc.count * eb), *c1 = malloc(lc.count * eb);
    run_buffers bufs = {NULL, NULL, NULL};
    case_result result = CASE_FAIL;
    if (!a || !b || !c0 || !c1) {
        snprintf(why, why_size, "out of host memory");
        goto done;
    }
    fill_matrix(a, d, &la, c->seed, 0);
    fill_matrix(b, d, &lb, c->seed, 1);
    if (c->beta != 0) fill_matrix(c0, d, &lc, c->seed, 2);
    else fill_poison(c0, d, lc.count); /* must not be read */

    gh_status st = api->buffer_alloc(ctx, device, la.count * eb, &bufs.a);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, lb.count * eb, &bufs.b);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, lc.count * eb, &bufs.c);
    if (st == GH_OK) st = api->upload(ctx, bufs.a, 0, a, la.count * eb);
    if (st == GH_OK) st = api->upload(ctx, bufs.b, 0, b, lb.count * eb);
    if (st == GH_OK) st = api->upload(ctx, bufs.c, 0, c0, lc.count * eb);
    if (st != GH_OK) {
        snprintf(why, why_size, "setup failed (status %d): %s", (int)st, api->last_error(ctx));
        goto done;
    }

    gh_test_problem problem = {d, c->trans_a, c->trans_b, c->m, c->n, c->k, c->alpha, c->beta};
    gh_gemm_args args = gh_test_gemm_args(&problem, (gh_test_operand){bufs.a, la.ld, la.offset},
                                          (gh_test_operand){bufs.b, lb.ld, lb.offset},
                                          (gh_test_operand){bufs.c, lc.ld, lc.offset}, c->params, c->n_params);
    gh_gemm_timing timing = {.size = sizeof timing, .kernel_ms = -1, .clock = GH_CLOCK_HOST};
    st = api->gemm(ctx, device, c->kernel, &args, &timing);
    if (st == GH_UNSUPPORTED) {
        snprintf(why, why_size, "%s", api->last_error(ctx));
        result = CASE_SKIP;
        goto done;
    }
    if (st != GH_OK) {
        snprintf(why, why_size, "gemm failed (status %d): %s", (int)st, api->last_error(ctx));
        goto done;
    }
    if (timing.clock != GH_CLOCK_DEVICE || !(timing.kernel_ms >= 0)) {
        snprintf(why, why_size, "timing not filled: clock %d, %g ms", (int)timing.clock, timing.kernel_ms);
        goto done;
    }
    st = api->download(ctx, bufs.c, 0, c1, lc.count * eb);
    if (st != GH_OK) {
        snprintf(why, why_size, "download failed (status %d): %s", (int)st, api->last_error(ctx));
        goto done;
    }
    if (check_result(c, &la, &lb, &lc, a, b, c0, c1, why, why_size) != 0) goto done;
    if (c->repeat) {
        /* Same inputs again: a missing barrier shows up as a different C. */
        void *c2 = malloc(lc.count * eb);
        if (!c2) {
            snprintf(why, why_size, "out of host memory");
            goto done;
        }
        st = api->upload(ctx, bufs.c, 0, c0, lc.count * eb);
        if (st == GH_OK) st = api->gemm(ctx, device, c->kernel, &args, &timing);
        if (st == GH_OK) st = api->download(ctx, bufs.c, 0, c2, lc.count * eb);
        int same = st == GH_OK && memcmp(c1, c2, lc.count * eb) == 0;
        free(c2);
        if (st != GH_OK) {
            snprintf(why, why_size, "second run failed (status %d): %s", (int)st, api->last_error(ctx));
            goto done;
        }
        if (!same) {
            snprintf(why, why_size, "a second run on the same inputs gave a different C (nondeterminism)");
            goto done;
        }
    }
    result = CASE_PASS;
done:
    free_buffers(api, ctx, &bufs);
    free(a);
    free(b);
    free(c0);
    free(c1);
    return result;
}

gh_status gemm_case_status(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel, const int64_t *params,
                           size_t n_params)
{
    enum { EDGE = 5 };
    float host[EDGE * EDGE];
    for (int i = 0; i < EDGE * EDGE; i++) host[i] = (float)(i % 7) - 3;
    run_buffers bufs = {NULL, NULL, NULL};
    gh_status st = api->buffer_alloc(ctx, device, sizeof host, &bufs.a);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, sizeof host, &bufs.b);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, sizeof host, &bufs.c);
    if (st == GH_OK) st = api->upload(ctx, bufs.a, 0, host, sizeof host);
    if (st == GH_OK) st = api->upload(ctx, bufs.b, 0, host, sizeof host);
    if (st == GH_OK) {
        gh_gemm_args args = gh_test_tight_args(GH_F32, EDGE, EDGE, EDGE, bufs.a, bufs.b, bufs.c, params, n_params);
        gh_gemm_timing timing = {.size = sizeof timing};
        st = api->gemm(ctx, device, kernel, &args, &timing);
    }
    /* Freed in any case; last_error keeps the gemm's text (free sets none). */
    free_buffers(api, ctx, &bufs);
    return st;
}
