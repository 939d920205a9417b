#include "gemm8_case.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data.h"
#include "reference.h"
#include "seeded.h"

const gh_dtype gh_test_8bit_combos[GH_TEST_8BIT_COMBOS][3] = {
    {GH_E4M3, GH_E4M3, GH_F32},  {GH_E4M3, GH_E4M3, GH_F16},  {GH_E4M3, GH_E4M3, GH_BF16}, {GH_E4M3, GH_E5M2, GH_F32},
    {GH_E4M3, GH_E5M2, GH_F16},  {GH_E4M3, GH_E5M2, GH_BF16}, {GH_E5M2, GH_E4M3, GH_F32},  {GH_E5M2, GH_E4M3, GH_F16},
    {GH_E5M2, GH_E4M3, GH_BF16}, {GH_E5M2, GH_E5M2, GH_F32},  {GH_E5M2, GH_E5M2, GH_F16},  {GH_E5M2, GH_E5M2, GH_BF16},
    {GH_I8, GH_I8, GH_I32},
};

#define GUARD_BYTE   0xA5u
#define TAIL_GUARD   16 /* elements after each matrix */
#define C_I32_POISON 0x5A5A5A5A

void gh_test_case8_name(const gh_test_case8 *c, char *out, size_t out_len)
{
    snprintf(out, out_len, "%s*%s->%s %c%c %lldx%lldx%lld a=%g b=%g s=(%g,%g,%g) pad %lld off %llu",
             gh_dtype_name(c->types.a), gh_dtype_name(c->types.b), gh_dtype_name(c->types.c), c->trans_a ? 't' : 'n',
             c->trans_b ? 't' : 'n', (long long)c->m, (long long)c->n, (long long)c->k, c->alpha, c->beta,
             c->types.scale_a, c->types.scale_b, c->types.scale_c, (long long)c->pad, (unsigned long long)c->offset);
}

static gh_test_case8_result say(gh_test_case8_result r, char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return r;
}

/* One stored matrix in a host image of its whole buffer. */
typedef struct stored {
    gh_dtype dtype;
    int64_t rows, cols, ld;
    uint64_t offset;
    size_t elems; /* the buffer, in elements */
    unsigned char *image;
    gh_buffer *buf;
} stored;

static int stored_init(stored *s, gh_dtype dtype, int64_t rows, int64_t cols, const gh_test_case8 *c)
{
    s->dtype = dtype;
    s->rows = rows;
    s->cols = cols;
    s->ld = cols + c->pad;
    s->offset = c->offset;
    s->elems = (size_t)(c->offset + (uint64_t)((rows - 1) * s->ld + cols) + TAIL_GUARD);
    s->buf = NULL;
    s->image = malloc(s->elems * gh_test_elem_size(dtype));
    if (!s->image) return -1;
    memset(s->image, GUARD_BYTE, s->elems * gh_test_elem_size(dtype));
    return 0;
}

static size_t at(const stored *s, int64_t r, int64_t col)
{
    return (size_t)(s->offset + (uint64_t)(r * s->ld + col));
}

/* Seeded values into the matrix window; logical (op) copies in f64. */
static void stored_fill(stored *s, uint64_t seed, uint64_t stream)
{
    for (int64_t r = 0; r < s->rows; r++)
        for (int64_t col = 0; col < s->cols; col++)
            gh_test_put(s->dtype, s->image, at(s, r, col),
                        gh_test_seeded_value(s->dtype, seed, stream, (uint64_t)(r * s->cols + col)));
}

/* op(X) as a dense rows x cols f64 matrix, from the stored image. */
static void op_of(const stored *s, int trans, int64_t rows, int64_t cols, double *out)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            out[i * cols + j] = gh_test_get(s->dtype, s->image, trans ? at(s, j, i) : at(s, i, j));
}

static gh_test_case8_result upload(const gh_plugin_api *api, gh_plugin *ctx, int device, stored *s, char name,
                                   char *why, size_t why_len)
{
    uint64_t bytes = s->elems * gh_test_elem_size(s->dtype);
    gh_status st = api->buffer_alloc(ctx, device, bytes, &s->buf);
    if (st != GH_OK)
        return say(GH_TEST_CASE8_ERROR, why, why_len, "buffer_alloc(%c, %llu bytes): status %d: %s", name,
                   (unsigned long long)bytes, (int)st, api->last_error(ctx));
    st = api->upload(ctx, s->buf, 0, s->image, bytes);
    if (st != GH_OK)
        return say(GH_TEST_CASE8_ERROR, why, why_len, "upload(%c): status %d: %s", name, (int)st, api->last_error(ctx));
    return GH_TEST_CASE8_PASS;
}

/* C's element after the kernel against the reference, every element; the
 * bytes outside the window unchanged. */
static gh_test_case8_result compare(const gh_test_case8 *c, const stored *cs, const unsigned char *before,
                                    const unsigned char *after, const double *sum, const double *abs_sum, char *why,
                                    size_t why_len)
{
    const size_t elem = gh_test_elem_size(cs->dtype);
    const double alpha_ab = c->alpha * c->types.scale_a * c->types.scale_b;
    int64_t wrong = 0, first_i = -1, first_j = -1;
    double first_got = 0, first_ref = 0, first_bound = 0;
    for (int64_t i = 0; i < c->m; i++)
        for (int64_t j = 0; j < c->n; j++) {
            const size_t e = at(cs, i, j);
            const double c0 = c->beta != 0 ? gh_test_get(cs->dtype, before, e) : 0.0;
            const double ref = c->types.scale_c * (alpha_ab * sum[i * c->n + j] + c->beta * c0);
            const double bound = gh_test_error_bound_8bit(cs->dtype, c->k, alpha_ab, c->beta, c->types.scale_c,
                                                          abs_sum[i * c->n + j], c0, ref);
            const double got = gh_test_get(cs->dtype, after, e);
            if (!(fabs(got - ref) <= bound)) {
                if (wrong++ == 0) {
                    first_i = i;
                    first_j = j;
                    first_got = got;
                    first_ref = ref;
                    first_bound = bound;
                }
            }
        }
    if (wrong)
        return say(GH_TEST_CASE8_WRONG, why, why_len,
                   "%lld of %lld elements wrong; first C[%lld][%lld] = %.9g, reference %.9g, bound %.3g",
                   (long long)wrong, (long long)(c->m * c->n), (long long)first_i, (long long)first_j, first_got,
                   first_ref, first_bound);
    /* Every byte outside the matrix window: the guards and the ld padding. */
    for (size_t e = 0; e < cs->elems; e++) {
        const int64_t rel = (int64_t)e - (int64_t)cs->offset;
        const int inside = rel >= 0 && rel / cs->ld < cs->rows && rel % cs->ld < cs->cols;
        if (!inside && memcmp(before + e * elem, after + e * elem, elem) != 0)
            return say(GH_TEST_CASE8_WRONG, why, why_len,
                       "C's element %zu, outside the matrix (guard or ld padding), "
                       "was written",
                       e);
    }
    return GH_TEST_CASE8_PASS;
}

gh_test_case8_result gh_test_run_case8(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel,
                                       const int64_t *params, size_t n_params, const gh_test_case8 *c, char *why,
                                       size_t why_len)
{
    stored sa = {0}, sb = {0}, sc = {0};
    double *op_a = NULL, *op_b = NULL, *sum = NULL, *abs_sum = NULL;
    unsigned char *after = NULL;
    gh_test_case8_result r = GH_TEST_CASE8_ERROR;
    snprintf(why, why_len, "out of host memory");
    if (stored_init(&sa, c->types.a, c->trans_a ? c->k : c->m, c->trans_a ? c->m : c->k, c) ||
        stored_init(&sb, c->types.b, c->trans_b ? c->n : c->k, c->trans_b ? c->k : c->n, c) ||
        stored_init(&sc, c->types.c, c->m, c->n, c))
        goto done;
    const size_t c_bytes = sc.elems * gh_test_elem_size(sc.dtype);
    op_a = malloc((size_t)(c->m * c->k) * sizeof *op_a);
    op_b = malloc((size_t)(c->k * c->n) * sizeof *op_b);
    sum = malloc((size_t)(c->m * c->n) * sizeof *sum);
    abs_sum = malloc((size_t)(c->m * c->n) * sizeof *abs_sum);
    after = malloc(c_bytes);
    if (!op_a || !op_b || !sum || !abs_sum || !after) goto done;

    stored_fill(&sa, c->seed, 0);
    stored_fill(&sb, c->seed, 1);
    if (c->beta != 0) stored_fill(&sc, c->seed, 2);
    else /* a kernel must not read C when beta is 0 */
        for (int64_t i = 0; i < c->m; i++)
            for (int64_t j = 0; j < c->n; j++) {
                if (sc.dtype == GH_I32) ((int32_t *)sc.image)[at(&sc, i, j)] = C_I32_POISON;
                else gh_test_put(sc.dtype, sc.image, at(&sc, i, j), NAN);
            }
    op_of(&sa, c->trans_a, c->m, c->k, op_a);
    op_of(&sb, c->trans_b, c->k, c->n, op_b);
    if (gh_test_reference_products(c->m, c->n, c->k, op_a, op_b, sum, abs_sum) != 0) goto done;

    if ((r = upload(api, ctx, device, &sa, 'A', why, why_len)) != GH_TEST_CASE8_PASS ||
        (r = upload(api, ctx, device, &sb, 'B', why, why_len)) != GH_TEST_CASE8_PASS ||
        (r = upload(api, ctx, device, &sc, 'C', why, why_len)) != GH_TEST_CASE8_PASS)
        goto done;

    gh_test_problem p = {.trans_a = c->trans_a,
                         .trans_b = c->trans_b,
                         .m = c->m,
                         .n = c->n,
                         .k = c->k,
                         .alpha = c->alpha,
                         .beta = c->beta};
    gh_gemm_args args = gh_test_typed_gemm_args(&p, &c->types, (gh_test_operand){sa.buf, sa.ld, sa.offset},
                                                (gh_test_operand){sb.buf, sb.ld, sb.offset},
                                                (gh_test_operand){sc.buf, sc.ld, sc.offset}, params, n_params);
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(ctx, device, kernel, &args, &timing);
    if (st == GH_UNSUPPORTED) {
        r = say(GH_TEST_CASE8_REFUSED, why, why_len, "%s", api->last_error(ctx));
        goto done;
    }
    if (st != GH_OK) {
        r = say(GH_TEST_CASE8_ERROR, why, why_len, "gemm: status %d: %s", (int)st, api->last_error(ctx));
        goto done;
    }
    if ((st = api->download(ctx, sc.buf, 0, after, c_bytes)) != GH_OK) {
        r = say(GH_TEST_CASE8_ERROR, why, why_len, "download(C): status %d: %s", (int)st, api->last_error(ctx));
        goto done;
    }
    r = compare(c, &sc, sc.image, after, sum, abs_sum, why, why_len);

done:
    if (sa.buf) api->buffer_free(ctx, sa.buf);
    if (sb.buf) api->buffer_free(ctx, sb.buf);
    if (sc.buf) api->buffer_free(ctx, sc.buf);
    free(sa.image);
    free(sb.image);
    free(sc.image);
    free(op_a);
    free(op_b);
    free(sum);
    free(abs_sum);
    free(after);
    return r;
}
