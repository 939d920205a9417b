/*
 * GEMM on a CUDA device: every kernel (naive, tiled at each tile, blocked at
 * each tile and work the device runs, cuBLAS) x
 * dtype (f32, f64, i32; f16 and bf16 are test_half.c's) x transpose x odd
 * shape x layout x (alpha, beta), each checked against the f64 host
 * reference with the K-scaled bound, with C's padding and guard zones
 * checked for stray writes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_test.h"
#include "variant.h"
#include "gemm_args.h"
#include "host_reference.h"

/* blocked at tile 128, work 2 needs 4096 threads: run_device_error_tests
 * checks it is refused. warptile (f32 and f64; not i32): the default, 8 x 8
 * threads per warp at depth 8 with 2 stages and the register cap of 2
 * blocks per SM, 128 threads at depth 32 with 4 stages, 2 x 16 threads per
 * warp. */
static const variant variants[] = {
    CLASSIC_VARIANTS,
    {"cublas-strict", {0, 0}},
    {"warptile", {128, 128, 16, 64, 32, 8, 8, 3, 1}},
    {"warptile", {128, 128, 8, 32, 64, 8, 8, 2, 2}},
    {"warptile", {64, 64, 32, 32, 32, 4, 8, 4, 1}},
    {"warptile", {64, 256, 8, 16, 128, 8, 8, 2, 1}},
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

/* Where each matrix sits in its buffer: extra elements per row, elements
 * before it, and guard elements after it. */
typedef struct layout {
    const char *name;
    int64_t pad_a, pad_b, pad_c;
    uint64_t off_a, off_b, off_c;
    int64_t tail;
} layout;

static const layout layouts[] = {
    {"tight", 0, 0, 0, 0, 0, 0, 0},
    {"ld+pad, offsets", 3, 5, 2, 7, 11, 13, 17},
    /* Rows and offsets in whole 16 bytes (f32, i32; f64 twice that): the
     * layout warptile copies in 16-byte pieces, run for warptile only. */
    {"ld+4k, aligned offsets", 4, 8, 4, 4, 8, 12, 5},
};
#define ALIGNED_LAYOUT 2

/* op(A) m x k, op(B) k x n: M, N, K. Odd sizes, one-row and one-column
 * products, K below every tile, tile +- 1 for every tile (blocked's 64 and
 * 128 too, with K around its steps of 8 and 16), several blocks each way;
 * the last three have rows in whole 16-byte pieces when tight (warptile's
 * 16-byte copies with partial pieces at the edges) and K past several
 * steps. */
static const int64_t shapes[][3] = {
    {1, 1, 1},      {1, 67, 1},     {71, 1, 45},    {37, 53, 29},       {3, 5, 3},      {5, 3, 5},     {7, 9, 7},
    {9, 7, 9},      {15, 17, 15},   {17, 15, 17},   {31, 33, 31},       {33, 31, 33},   {63, 65, 7},   {65, 63, 9},
    {127, 129, 17}, {129, 127, 47}, {257, 130, 33}, {1000, 1000, 1000}, {128, 128, 64}, {132, 68, 36}, {260, 264, 100},
};

static const char *const trans_names[] = {"nn", "nt", "tn", "tt"};

/* Bit patterns: NaN in the padding of A and B (read by mistake, it spoils
 * the result), a NaN with a payload around C (compared bit for bit after the
 * run), and NaN / a sentinel in C when beta = 0 (never written: it fails). */
enum pattern { PATTERN_INPUT_PAD, PATTERN_C_GUARD, PATTERN_C_POISON };

static void fill_pattern(gh_dtype d, void *base, size_t count, enum pattern p)
{
    for (size_t i = 0; i < count; ++i) {
        if (d == GH_F64) {
            uint64_t bits = p == PATTERN_C_GUARD ? 0x7FF8DEADBEEF0000ull : 0x7FF8000000000000ull;
            memcpy((char *)base + i * 8, &bits, 8);
        } else {
            uint32_t bits = d == GH_I32 ? (p == PATTERN_C_GUARD    ? 0x5A5A5A5Au
                                           : p == PATTERN_C_POISON ? 0x7F7F7F7Fu
                                                                   : 0x01000000u)
                                        : (p == PATTERN_C_GUARD ? 0x7FC0BEEFu : 0x7FC00000u);
            memcpy((char *)base + i * 4, &bits, 4);
        }
    }
}

/* A matrix placed in a buffer: host copy of the whole buffer, and the buffer. */
typedef struct placed {
    int64_t rows, cols, ld;
    uint64_t offset;
    size_t elems;
    void *host;
    gh_buffer *buf;
} placed;

static int place(placed *p, gh_dtype d, int64_t rows, int64_t cols, int64_t pad, uint64_t offset, int64_t tail)
{
    p->rows = rows;
    p->cols = cols;
    p->ld = cols + pad;
    p->offset = offset;
    p->elems = offset + (size_t)((rows - 1) * p->ld + cols + tail);
    p->host = malloc(p->elems * gh_test_elem_size(d));
    p->buf = NULL;
    return p->host ? 0 : -1;
}

/* Writes a logical row-major matrix into the stored one, transposed when the
 * matrix is stored transposed (rows/cols of p are the stored ones). */
static void put_logical(placed *p, gh_dtype d, const double *logical, int transposed)
{
    for (int64_t i = 0; i < p->rows; ++i)
        for (int64_t j = 0; j < p->cols; ++j)
            gh_test_put(d, p->host, p->offset + i * p->ld + j,
                        transposed ? logical[j * p->rows + i] : logical[i * p->cols + j]);
}

static int in_matrix(const placed *p, size_t idx)
{
    if (idx < p->offset) return 0;
    uint64_t rel = idx - p->offset;
    return rel < (uint64_t)((p->rows - 1) * p->ld + p->cols) && (int64_t)(rel % (uint64_t)p->ld) < p->cols;
}

static void free_placed(const gh_plugin_api *api, gh_plugin *ctx, placed *p)
{
    if (p->buf) api->buffer_free(ctx, p->buf);
    free(p->host);
    memset(p, 0, sizeof *p);
}

static int upload_placed(const gh_plugin_api *api, gh_plugin *ctx, int device, placed *p, gh_dtype d)
{
    size_t bytes = p->elems * gh_test_elem_size(d);
    if (!p->buf && api->buffer_alloc(ctx, device, bytes, &p->buf) != GH_OK) return -1;
    return api->upload(ctx, p->buf, 0, p->host, bytes) == GH_OK ? 0 : -1;
}

typedef struct check_result {
    int64_t bad, guard_hits;
    double worst_ratio, max_abs;
    int64_t bad_i, bad_j;
    double bad_got, bad_want;
} check_result;

static check_result check_c(const logical_problem *lp, const placed *c, const void *c_init, const void *c_out,
                            double alpha, double beta)
{
    check_result r = {0, 0, 0.0, 0.0, -1, -1, 0.0, 0.0};
    gh_dtype d = lp->dtype;
    size_t es = gh_test_elem_size(d);
    for (size_t idx = 0; idx < c->elems; ++idx)
        if (!in_matrix(c, idx) && memcmp((const char *)c_out + idx * es, (const char *)c_init + idx * es, es) != 0)
            r.guard_hits++;
    for (int64_t i = 0; i < lp->m; ++i)
        for (int64_t j = 0; j < lp->n; ++j) {
            double got = gh_test_get(d, c_out, c->offset + i * c->ld + j);
            double c0 = lp->c0[i * lp->n + j];
            long double want =
                (long double)alpha * lp->s[i * lp->n + j] + (beta != 0.0 ? (long double)beta * c0 : 0.0L);
            double err = (double)fabsl((long double)got - want);
            double bound = gh_test_error_bound(d, lp->k, alpha, beta, lp->mag[i * lp->n + j], c0);
            int ok = isfinite(got) && (d == GH_I32 ? got == (double)want : err <= bound);
            if (isfinite(err) && err > r.max_abs) r.max_abs = err;
            if (bound > 0.0 && err / bound > r.worst_ratio) r.worst_ratio = err / bound;
            if (!ok && r.bad++ == 0) {
                r.bad_i = i;
                r.bad_j = j;
                r.bad_got = got;
                r.bad_want = (double)want;
            }
        }
    return r;
}

/* Fills in the args of one GEMM. */
static gh_gemm_args make_args(gh_dtype d, int ta, int tb, const logical_problem *lp, double alpha, double beta,
                              const placed *a, const placed *b, const placed *c, const variant *v)
{
    gh_test_problem problem = {d, ta, tb, lp->m, lp->n, lp->k, alpha, beta};
    return gh_test_gemm_args(&problem, (gh_test_operand){a->buf, a->ld, a->offset},
                             (gh_test_operand){b->buf, b->ld, b->offset}, (gh_test_operand){c->buf, c->ld, c->offset},
                             n_params_of(v) ? v->params : NULL, n_params_of(v));
}

/* Runs every variant on one problem in one layout with one (alpha, beta). */
static void run_case(const gh_plugin_api *api, gh_plugin *ctx, int device, const logical_problem *lp, int ta, int tb,
                     const layout *lay, double alpha, double beta, int64_t *checks, int64_t *failures)
{
    gh_dtype d = lp->dtype;
    size_t es = gh_test_elem_size(d);
    placed a, b, c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    char what[160];
    snprintf(what, sizeof what, "%s %s %lldx%lldx%lld %s alpha %g beta %g", dtype_names[d], trans_names[ta * 2 + tb],
             (long long)lp->m, (long long)lp->n, (long long)lp->k, lay->name, alpha, beta);

    void *c_out = NULL;
    if (place(&a, d, ta ? lp->k : lp->m, ta ? lp->m : lp->k, lay->pad_a, lay->off_a, lay->tail) ||
        place(&b, d, tb ? lp->n : lp->k, tb ? lp->k : lp->n, lay->pad_b, lay->off_b, lay->tail) ||
        place(&c, d, lp->m, lp->n, lay->pad_c, lay->off_c, lay->tail) || !(c_out = malloc(c.elems * es))) {
        check_verdict(0, "%s: out of host memory", what);
        goto done;
    }
    fill_pattern(d, a.host, a.elems, PATTERN_INPUT_PAD);
    fill_pattern(d, b.host, b.elems, PATTERN_INPUT_PAD);
    put_logical(&a, d, lp->op_a, ta);
    put_logical(&b, d, lp->op_b, tb);
    fill_pattern(d, c.host, c.elems, PATTERN_C_GUARD);
    if (beta != 0.0) {
        put_logical(&c, d, lp->c0, 0);
    } else {
        for (int64_t i = 0; i < c.rows; ++i)
            fill_pattern(d, (char *)c.host + (c.offset + i * c.ld) * es, (size_t)c.cols, PATTERN_C_POISON);
    }
    if (upload_placed(api, ctx, device, &a, d) || upload_placed(api, ctx, device, &b, d)) {
        check_verdict(0, "%s: buffers: %s", what, api->last_error(ctx));
        goto done;
    }

    for (size_t v = 0; v < N_VARIANTS; ++v) {
        if (d == GH_I32 && strncmp(variants[v].kernel, "cublas", 6) == 0)
            continue; /* unsupported, checked once in run_device_error_tests */
        const int warptile = strcmp(variants[v].kernel, "warptile") == 0;
        if (warptile && d == GH_I32) continue; /* not among its dtypes */
        if (!warptile && lay == &layouts[ALIGNED_LAYOUT]) continue;
        char vname[96], name[288];
        variant_name(&variants[v], vname, sizeof vname);
        snprintf(name, sizeof name, "%s %s", vname, what);
        int kernel = gh_test_find_kernel(api, ctx, variants[v].kernel);
        ++*checks;
        if (upload_placed(api, ctx, device, &c, d)) {
            ++*failures;
            check_verdict(0, "%s: upload C: %s", name, api->last_error(ctx));
            continue;
        }
        gh_gemm_args args = make_args(d, ta, tb, lp, alpha, beta, &a, &b, &c, &variants[v]);
        gh_gemm_timing timing = {.size = sizeof timing, .kernel_ms = -1.0, .clock = GH_CLOCK_HOST};
        gh_status st = api->gemm(ctx, device, kernel, &args, &timing);
        if (st != GH_OK) {
            ++*failures;
            check_verdict(0, "%s: gemm status %d: %s", name, (int)st, api->last_error(ctx));
            continue;
        }
        if (api->download(ctx, c.buf, 0, c_out, c.elems * es) != GH_OK) {
            ++*failures;
            check_verdict(0, "%s: download C: %s", name, api->last_error(ctx));
            continue;
        }
        check_result r = check_c(lp, &c, c.host, c_out, alpha, beta);
        int timing_ok = timing.clock == GH_CLOCK_DEVICE && timing.kernel_ms >= 0.0 && isfinite(timing.kernel_ms);
        if (r.bad == 0 && r.guard_hits == 0 && timing_ok) {
            check_verdict(1, "%s: max error %.3g, %.3g of the bound, %.4f ms", name, r.max_abs, r.worst_ratio,
                          timing.kernel_ms);
            continue;
        }
        ++*failures;
        if (r.bad)
            check_verdict(0,
                          "%s: %lld wrong elements, first C(%lld, %lld) = %.17g, want %.17g (max error %.3g, %.3g of "
                          "the bound)",
                          name, (long long)r.bad, (long long)r.bad_i, (long long)r.bad_j, r.bad_got, r.bad_want,
                          r.max_abs, r.worst_ratio);
        if (r.guard_hits)
            check_verdict(0, "%s: %lld elements outside C (padding or guards) were overwritten", name,
                          (long long)r.guard_hits);
        if (!timing_ok)
            check_verdict(0, "%s: timing not from the device clock (clock %d, %.4f ms)", name, (int)timing.clock,
                          timing.kernel_ms);
    }
done:
    free(c_out);
    free_placed(api, ctx, &a);
    free_placed(api, ctx, &b);
    free_placed(api, ctx, &c);
}

/* cuBLAS in its default math must not use TF32: A * I in f32 is exact in
 * f32 arithmetic, but TF32 rounds A to 10 mantissa bits first. */
static void check_no_tf32(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const int64_t n = 512;
    logical_problem lp;
    if (logical_problem_init(&lp, GH_F32, n, n, n, 4242)) {
        check_verdict(0, "TF32 probe: out of host memory");
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) lp.op_b[i * n + j] = i == j;
    placed a = {0}, b = {0}, c = {0};
    float *out = NULL;
    if (place(&a, GH_F32, n, n, 0, 0, 0) || place(&b, GH_F32, n, n, 0, 0, 0) || place(&c, GH_F32, n, n, 0, 0, 0) ||
        !(out = malloc((size_t)(n * n) * sizeof *out))) {
        check_verdict(0, "TF32 probe: out of host memory");
        goto done;
    }
    put_logical(&a, GH_F32, lp.op_a, 0);
    put_logical(&b, GH_F32, lp.op_b, 0);
    fill_pattern(GH_F32, c.host, c.elems, PATTERN_C_POISON);
    if (upload_placed(api, ctx, device, &a, GH_F32) || upload_placed(api, ctx, device, &b, GH_F32)) {
        check_verdict(0, "TF32 probe: buffers: %s", api->last_error(ctx));
        goto done;
    }
    const variant probes[] = {{"cublas", {0, 0}},
                              {"naive", {0, 0}},
                              {"tiled", {16, 0}},
                              {"blocked", {128, 8}},
                              {"warptile", {128, 128, 16, 64, 32, 8, 8, 3, 1}}};
    for (size_t v = 0; v < sizeof probes / sizeof probes[0]; ++v) {
        gh_status st = upload_placed(api, ctx, device, &c, GH_F32) ? GH_ERROR : GH_OK;
        gh_gemm_args args = make_args(GH_F32, 0, 0, &lp, 1.0, 0.0, &a, &b, &c, &probes[v]);
        gh_gemm_timing timing = {.size = sizeof timing};
        if (st == GH_OK) st = api->gemm(ctx, device, gh_test_find_kernel(api, ctx, probes[v].kernel), &args, &timing);
        if (st == GH_OK) st = api->download(ctx, c.buf, 0, out, c.elems * 4);
        if (st != GH_OK) {
            check_verdict(0, "%s f32 A*I (TF32 probe): status %d: %s", probes[v].kernel, (int)st, api->last_error(ctx));
            continue;
        }
        int64_t differ = 0;
        for (int64_t i = 0; i < n * n; ++i) differ += out[i] != (float)lp.op_a[i];
        CHECK(differ == 0, "%s f32 512^3 A*I equals A bit for bit (no TF32): %lld elements differ", probes[v].kernel,
              (long long)differ);
    }
done:
    free(out);
    free_placed(api, ctx, &a);
    free_placed(api, ctx, &b);
    free_placed(api, ctx, &c);
    logical_problem_free(&lp);
}

/* Two runs of the same GEMM give the same bits (a missing barrier would not). */
static void check_repeatable(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    logical_problem lp;
    if (logical_problem_init(&lp, GH_F32, 37, 53, 29, 99)) {
        check_verdict(0, "repeatability: out of host memory");
        return;
    }
    const variant probes[] = {{"naive", {0, 0}},
                              {"tiled", {4, 0}},
                              {"tiled", {32, 0}},
                              {"blocked", {32, 2}},
                              {"blocked", {128, 8}},
                              {"warptile", {128, 128, 16, 64, 32, 8, 8, 3, 1}},
                              {"warptile", {64, 64, 32, 32, 32, 4, 8, 4, 1}},
                              {"cublas", {0, 0}}};
    placed a = {0}, b = {0}, c = {0};
    float *first = NULL, *second = NULL;
    if (place(&a, GH_F32, 37, 29, 0, 0, 0) || place(&b, GH_F32, 29, 53, 0, 0, 0) ||
        place(&c, GH_F32, 37, 53, 0, 0, 0) || !(first = malloc(c.elems * 4)) || !(second = malloc(c.elems * 4))) {
        check_verdict(0, "repeatability: out of host memory");
        goto done;
    }
    put_logical(&a, GH_F32, lp.op_a, 0);
    put_logical(&b, GH_F32, lp.op_b, 0);
    put_logical(&c, GH_F32, lp.c0, 0);
    if (upload_placed(api, ctx, device, &a, GH_F32) || upload_placed(api, ctx, device, &b, GH_F32)) {
        check_verdict(0, "repeatability: buffers: %s", api->last_error(ctx));
        goto done;
    }
    if (upload_placed(api, ctx, device, &c, GH_F32)) { /* allocates C's buffer before args name it */
        check_verdict(0, "repeatability: buffers: %s", api->last_error(ctx));
        goto done;
    }
    for (size_t v = 0; v < sizeof probes / sizeof probes[0]; ++v) {
        gh_gemm_args args = make_args(GH_F32, 0, 0, &lp, 1.5, -0.75, &a, &b, &c, &probes[v]);
        gh_gemm_timing timing = {.size = sizeof timing};
        int kernel = gh_test_find_kernel(api, ctx, probes[v].kernel);
        int ok = upload_placed(api, ctx, device, &c, GH_F32) == 0 &&
                 api->gemm(ctx, device, kernel, &args, &timing) == GH_OK &&
                 api->download(ctx, c.buf, 0, first, c.elems * 4) == GH_OK &&
                 upload_placed(api, ctx, device, &c, GH_F32) == 0 &&
                 api->gemm(ctx, device, kernel, &args, &timing) == GH_OK &&
                 api->download(ctx, c.buf, 0, second, c.elems * 4) == GH_OK;
        char vname[96];
        variant_name(&probes[v], vname, sizeof vname);
        CHECK(ok && memcmp(first, second, c.elems * 4) == 0, "%s: two runs agree bit for bit%s%s", vname,
              ok ? "" : ": ", ok ? "" : api->last_error(ctx));
    }
done:
    free(first);
    free(second);
    free_placed(api, ctx, &a);
    free_placed(api, ctx, &b);
    free_placed(api, ctx, &c);
    logical_problem_free(&lp);
}

void run_gemm_tests(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const char *max_dim_env = getenv("GEMMHOST_CUDA_TEST_MAX_DIM");
    int64_t max_dim = max_dim_env ? atoll(max_dim_env) : 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        int64_t checks = 0, failures = 0;
        if (max_dim > 0 && (shapes[s][0] > max_dim || shapes[s][1] > max_dim || shapes[s][2] > max_dim)) {
            check_skip("%lldx%lldx%lld: over GEMMHOST_CUDA_TEST_MAX_DIM=%lld", (long long)shapes[s][0],
                       (long long)shapes[s][1], (long long)shapes[s][2], (long long)max_dim);
            continue;
        }
        for (int d = 0; d < GH_DTYPE_COUNT && dtype_names[d]; ++d) { /* the dtypes this test knows */
            for (int t = 0; t < 4; ++t) {
                int ta = t >> 1, tb = t & 1;
                logical_problem lp;
                uint64_t seed = (uint64_t)(s * 16 + (size_t)d * 4 + (size_t)t + 1);
                if (logical_problem_init(&lp, (gh_dtype)d, shapes[s][0], shapes[s][1], shapes[s][2], seed) ||
                    host_products(&lp)) {
                    check_verdict(0, "%lldx%lldx%lld: out of host memory for the reference", (long long)shapes[s][0],
                                  (long long)shapes[s][1], (long long)shapes[s][2]);
                    logical_problem_free(&lp);
                    continue;
                }
                double alpha = d == GH_I32 ? 3.0 : 1.5, beta = d == GH_I32 ? -2.0 : -0.75;
                for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; ++l) {
                    run_case(api, ctx, device, &lp, ta, tb, &layouts[l], alpha, beta, &checks, &failures);
                    run_case(api, ctx, device, &lp, ta, tb, &layouts[l], alpha, 0.0, &checks, &failures);
                }
                logical_problem_free(&lp);
            }
        }
        printf("device %d: %lldx%lldx%lld: %lld GEMMs checked, %lld failed\n", device, (long long)shapes[s][0],
               (long long)shapes[s][1], (long long)shapes[s][2], (long long)checks, (long long)failures);
    }
    check_no_tf32(api, ctx, device);
    check_repeatable(api, ctx, device);
}
