/*
 * ABI minor 1 on a CUDA device: streams, 2D copies with pitches and offsets
 * (from pinned and from pageable memory), gemm_async on two streams at once,
 * copy and compute overlapping, the times written at stream_synchronize, and
 * what the CUDA plugin refuses of its own. With two or more devices, every
 * device from its own thread at once. (The generic refusals of the minor-1
 * calls are gemmhost-conformance's.)
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_test.h"
#include "host_reference.h"
#include "data.h"
#include "gemm_args.h"
#include "timing.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part) != NULL;
}

static int time_ok(double ms)
{
    return isfinite(ms) && ms > 0.0;
}

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t r = gh_random_u64(seed, 0, i / 8);
        for (size_t b = 0; b < 8 && i + b < n; ++b) p[i + b] = (unsigned char)(r >> (8 * b));
    }
}

/* ---- 2D copies: round trips with pitches and offsets ---- */

typedef struct copy_case {
    const char *name;
    uint64_t width, rows;
    uint64_t src_pitch;     /* host rows going up */
    uint64_t offset, pitch; /* in the device buffer */
    uint64_t back_pitch;    /* host rows coming back */
    int pinned_src;         /* source from host_alloc, destination pageable; or the other way */
} copy_case;

#define COPY_BUFFER (1u << 20)
#define HOST_FILL   0x5A
#define DEVICE_FILL 0xA5

/* Regions of the device buffer that do not overlap. */
static const copy_case copy_cases[] = {
    {"pitched, from pinned memory", 1000, 129, 1048, 40, 1536, 1100, 1},
    {"odd sizes and offset, from pageable memory", 333, 77, 4000, 200001, 337, 512, 0},
    {"contiguous on both sides", 4096, 64, 4096, 600000, 4096, 4096, 1},
    {"one row", 5000, 1, 3, 900000, 7, 11, 0},
};
#define N_COPY_CASES (sizeof copy_cases / sizeof copy_cases[0])

/* Whether the device byte is one a case's upload writes; if so, *from is
 * its index in the case's source. (One row may have any pitch, even one
 * under its width.) */
static int in_region(const copy_case *c, uint64_t byte, uint64_t *from)
{
    if (byte < c->offset) return 0;
    uint64_t rel = byte - c->offset;
    uint64_t row = c->rows == 1 ? 0 : rel / c->pitch, col = rel - row * c->pitch;
    if (row >= c->rows || col >= c->width) return 0;
    *from = row * c->src_pitch + col;
    return 1;
}

static void test_copies(const gh_plugin_api *api, gh_plugin *ctx, int device, gh_stream *s)
{
    gh_buffer *buf = NULL;
    unsigned char *whole = malloc(COPY_BUFFER);
    unsigned char *src[N_COPY_CASES] = {0}, *dst[N_COPY_CASES] = {0};
    int src_pinned[N_COPY_CASES] = {0}, dst_pinned[N_COPY_CASES] = {0};
    size_t src_size[N_COPY_CASES], dst_size[N_COPY_CASES];
    double up_ms[N_COPY_CASES], down_ms[N_COPY_CASES], empty_ms = -1.0;
    int failures = 0;

    if (!whole || api->buffer_alloc(ctx, device, COPY_BUFFER, &buf) != GH_OK) {
        check_verdict(0, "2D copies: buffer: %s", api->last_error(ctx));
        goto done;
    }
    memset(whole, DEVICE_FILL, COPY_BUFFER);
    if (api->upload(ctx, buf, 0, whole, COPY_BUFFER) != GH_OK) {
        check_verdict(0, "2D copies: blocking upload of the fill: %s", api->last_error(ctx));
        goto done;
    }
    for (size_t i = 0; i < N_COPY_CASES; ++i) {
        const copy_case *c = &copy_cases[i];
        src_size[i] = (size_t)((c->rows - 1) * c->src_pitch + c->width);
        dst_size[i] = (size_t)((c->rows - 1) * c->back_pitch + c->width);
        void *p = NULL;
        if (c->pinned_src && api->host_alloc(ctx, src_size[i], &p) == GH_OK) {
            src[i] = p;
            src_pinned[i] = 1;
        } else if (!c->pinned_src && api->host_alloc(ctx, dst_size[i], &p) == GH_OK) {
            dst[i] = p;
            dst_pinned[i] = 1;
        } else {
            check_verdict(0, "2D copies: host_alloc: %s", api->last_error(ctx));
            goto done;
        }
        if ((!src[i] && !(src[i] = malloc(src_size[i]))) || (!dst[i] && !(dst[i] = malloc(dst_size[i])))) {
            check_verdict(0, "2D copies: out of host memory");
            goto done;
        }
        fill_random(src[i], src_size[i], 1000 + i);
        memset(dst[i], HOST_FILL, dst_size[i]);
        up_ms[i] = down_ms[i] = -1.0;
    }

    /* Everything on one stream, in order: each download after its upload. */
    for (size_t i = 0; i < N_COPY_CASES; ++i) {
        const copy_case *c = &copy_cases[i];
        gh_status st =
            api->upload_2d_async(ctx, s, buf, c->offset, c->pitch, src[i], c->src_pitch, c->width, c->rows, &up_ms[i]);
        if (st == GH_OK)
            st = api->download_2d_async(ctx, s, buf, c->offset, c->pitch, dst[i], c->back_pitch, c->width, c->rows,
                                        &down_ms[i]);
        if (st != GH_OK) {
            check_verdict(0, "2D copies, %s: queueing: status %d: %s", c->name, (int)st, api->last_error(ctx));
            failures++;
        }
    }
    gh_status st = api->upload_2d_async(ctx, s, buf, 0, 64, whole, 64, 64, 0, &empty_ms);
    CHECK(st == GH_OK, "an empty 2D copy (0 rows) is accepted (status %d: %s)", (int)st, api->last_error(ctx));
    st = api->stream_synchronize(ctx, s);
    CHECK(st == GH_OK, "stream_synchronize after the 2D copies (status %d: %s)", (int)st, api->last_error(ctx));
    CHECK(empty_ms == 0.0, "an empty 2D copy's time is 0 (got %g)", empty_ms);

    for (size_t i = 0; i < N_COPY_CASES; ++i) {
        const copy_case *c = &copy_cases[i];
        uint64_t bad_rows = 0, touched_gaps = 0;
        for (uint64_t r = 0; r < c->rows; ++r) {
            if (memcmp(dst[i] + r * c->back_pitch, src[i] + r * c->src_pitch, c->width) != 0) bad_rows++;
            if (r + 1 < c->rows)
                for (uint64_t b = c->width; b < c->back_pitch; ++b)
                    touched_gaps += dst[i][r * c->back_pitch + b] != HOST_FILL;
        }
        int ok = bad_rows == 0 && touched_gaps == 0 && time_ok(up_ms[i]) && time_ok(down_ms[i]);
        failures += !ok;
        CHECK(ok,
              "2D round trip, %s (%llu rows of %llu bytes, host pitch %llu, device offset %llu pitch %llu, back pitch "
              "%llu): %llu rows differ, %llu gap bytes written, upload %.4f ms, download %.4f ms",
              c->name, (unsigned long long)c->rows, (unsigned long long)c->width, (unsigned long long)c->src_pitch,
              (unsigned long long)c->offset, (unsigned long long)c->pitch, (unsigned long long)c->back_pitch,
              (unsigned long long)bad_rows, (unsigned long long)touched_gaps, up_ms[i], down_ms[i]);
    }

    /* The device side: each case's rows where they belong, every other byte
     * still the fill. */
    memset(whole, 0, COPY_BUFFER);
    if (api->download(ctx, buf, 0, whole, COPY_BUFFER) != GH_OK) {
        check_verdict(0, "2D copies: blocking download of the buffer: %s", api->last_error(ctx));
        goto done;
    }
    uint64_t wrong = 0;
    for (uint64_t byte = 0; byte < COPY_BUFFER; ++byte) {
        int expected = DEVICE_FILL;
        uint64_t from = 0;
        for (size_t i = 0; i < N_COPY_CASES; ++i)
            if (in_region(&copy_cases[i], byte, &from)) expected = src[i][from];
        wrong += whole[byte] != expected;
    }
    failures += wrong != 0;
    CHECK(wrong == 0, "2D uploads land at their offsets and pitches and touch nothing else (%llu bytes wrong)",
          (unsigned long long)wrong);
    printf(
        "device %d: streams: 2D copies: %zu round trips with pitches and offsets, %s (upload %.4f ms, download "
        "%.4f ms for %llu rows of %llu bytes)\n",
        device, N_COPY_CASES, failures ? "FAILED" : "verified", up_ms[0], down_ms[0],
        (unsigned long long)copy_cases[0].rows, (unsigned long long)copy_cases[0].width);

done:
    for (size_t i = 0; i < N_COPY_CASES; ++i) {
        if (src_pinned[i]) api->host_free(ctx, src[i]);
        else free(src[i]);
        if (dst_pinned[i]) api->host_free(ctx, dst[i]);
        else free(dst[i]);
    }
    api->buffer_free(ctx, buf);
    free(whole);
}

/* ---- GEMMs queued on streams ---- */

/* One GEMM with everything it needs: tight host matrices (pinned), device
 * matrices with padded rows at an offset, filled by 2D copies. */
typedef struct stream_gemm {
    const char *kernel;
    int64_t params[2];
    size_t n_params;
    gh_dtype dtype;
    int ta, tb;
    int64_t m, n, k;
    double alpha, beta;
    uint32_t batch; /* > 0: queued as gemm_batch_async of that many launches (ABI 1.6) */
    /* filled in by the test */
    logical_problem lp;
    void *host[4];     /* A, B, C0 stored tight; C out */
    gh_buffer *buf[3]; /* A, B, C */
    int64_t rows[3], cols[3], ld[3];
    uint64_t offset[3];
    double up_ms[3], down_ms;
    gh_gemm_timing timing;
} stream_gemm;

enum { PAD = 3, OFFSET = 5 };

/* The initializer of a stream_gemm's first fields, one GEMM a line in the
 * tests' tables: kernel, its parameters (p0, p1: n_params of them used),
 * dtype, transposes, shape and scalars. */
#define STREAM_GEMM(kernel_, p0, p1, n_params_, dtype_, ta_, tb_, m_, n_, k_, alpha_, beta_)                          \
    {                                                                                                                 \
        .kernel = kernel_, .params = {p0, p1}, .n_params = n_params_, .dtype = dtype_, .ta = ta_, .tb = tb_, .m = m_, \
        .n = n_, .k = k_, .alpha = alpha_, .beta = beta_                                                              \
    }

static void free_stream_gemm(const gh_plugin_api *api, gh_plugin *ctx, stream_gemm *g)
{
    for (int i = 0; i < 4; ++i) api->host_free(ctx, g->host[i]);
    for (int i = 0; i < 3; ++i) api->buffer_free(ctx, g->buf[i]);
    logical_problem_free(&g->lp);
}

/* Makes the inputs, the reference and the buffers. 0 on success. */
static int prepare_stream_gemm(const gh_plugin_api *api, gh_plugin *ctx, int device, stream_gemm *g, uint64_t seed)
{
    memset(g->host, 0, sizeof g->host);
    memset(g->buf, 0, sizeof g->buf);
    if (logical_problem_init(&g->lp, g->dtype, g->m, g->n, g->k, seed) || host_products(&g->lp)) return -1;
    size_t es = gh_test_elem_size(g->dtype);
    g->rows[0] = g->ta ? g->k : g->m;
    g->cols[0] = g->ta ? g->m : g->k;
    g->rows[1] = g->tb ? g->n : g->k;
    g->cols[1] = g->tb ? g->k : g->n;
    g->rows[2] = g->m;
    g->cols[2] = g->n;
    const double *logical[3] = {g->lp.op_a, g->lp.op_b, g->lp.c0};
    const int transposed[3] = {g->ta, g->tb, 0};
    for (int i = 0; i < 3; ++i) {
        g->ld[i] = g->cols[i] + PAD;
        g->offset[i] = OFFSET;
        size_t tight = (size_t)(g->rows[i] * g->cols[i]) * es;
        uint64_t dev_bytes = (OFFSET + (uint64_t)(g->rows[i] * g->ld[i])) * es;
        if (api->host_alloc(ctx, tight, &g->host[i]) != GH_OK ||
            api->buffer_alloc(ctx, device, dev_bytes, &g->buf[i]) != GH_OK)
            return -1;
        for (int64_t r = 0; r < g->rows[i]; ++r)
            for (int64_t c = 0; c < g->cols[i]; ++c)
                gh_test_put(g->dtype, g->host[i], (size_t)(r * g->cols[i] + c),
                            transposed[i] ? logical[i][c * g->rows[i] + r] : logical[i][r * g->cols[i] + c]);
    }
    if (api->host_alloc(ctx, (size_t)(g->m * g->n) * es, &g->host[3]) != GH_OK) return -1;
    memset(g->host[3], 0, (size_t)(g->m * g->n) * es);
    return 0;
}

/* Queues uploads of A, B, C0, the GEMM, and the download of C on s. */
static gh_status queue_stream_gemm(const gh_plugin_api *api, gh_plugin *ctx, gh_stream *s, stream_gemm *g)
{
    size_t es = gh_test_elem_size(g->dtype);
    gh_status st = GH_OK;
    for (int i = 0; i < 3 && st == GH_OK; ++i) {
        g->up_ms[i] = -1.0;
        st = api->upload_2d_async(ctx, s, g->buf[i], g->offset[i] * es, (uint64_t)g->ld[i] * es, g->host[i],
                                  (uint64_t)g->cols[i] * es, (uint64_t)g->cols[i] * es, (uint64_t)g->rows[i],
                                  &g->up_ms[i]);
    }
    gh_test_problem problem = {g->dtype, g->ta, g->tb, g->m, g->n, g->k, g->alpha, g->beta};
    gh_test_operand on[3];
    for (int i = 0; i < 3; ++i) on[i] = (gh_test_operand){g->buf[i], g->ld[i], g->offset[i]};
    gh_gemm_args args = gh_test_gemm_args(&problem, on[0], on[1], on[2], g->n_params ? g->params : NULL, g->n_params);
    g->timing = (gh_gemm_timing){.size = sizeof g->timing, .kernel_ms = -1.0, .clock = GH_CLOCK_HOST};
    const int kernel = gh_test_find_kernel(api, ctx, g->kernel);
    if (st == GH_OK)
        st = g->batch ? api->gemm_batch_async(ctx, s, kernel, &args, g->batch, &g->timing)
                      : api->gemm_async(ctx, s, kernel, &args, &g->timing);
    g->down_ms = -1.0;
    if (st == GH_OK)
        st = api->download_2d_async(ctx, s, g->buf[2], g->offset[2] * es, (uint64_t)g->ld[2] * es, g->host[3],
                                    (uint64_t)g->n * es, (uint64_t)g->n * es, (uint64_t)g->m, &g->down_ms);
    return st;
}

/* Checks C and the times; returns 1 when all is well. */
static int verify_stream_gemm(const stream_gemm *g, const char *where)
{
    int64_t bad = 0, bad_i = -1, bad_j = -1;
    double got_bad = 0.0, want_bad = 0.0, worst = 0.0;
    for (int64_t i = 0; i < g->m; ++i)
        for (int64_t j = 0; j < g->n; ++j) {
            double got = gh_test_get(g->dtype, g->host[3], (size_t)(i * g->n + j));
            double c0 = g->lp.c0[i * g->n + j];
            long double want = (long double)g->alpha * g->lp.s[i * g->n + j] + (long double)g->beta * c0;
            double err = (double)fabsl((long double)got - want);
            double bound = gh_test_error_bound(g->dtype, g->k, g->alpha, g->beta, g->lp.mag[i * g->n + j], c0);
            int ok = isfinite(got) && (g->dtype == GH_I32 ? got == (double)want : err <= bound);
            if (bound > 0.0 && err / bound > worst) worst = err / bound;
            if (!ok && bad++ == 0) {
                bad_i = i;
                bad_j = j;
                got_bad = got;
                want_bad = (double)want;
            }
        }
    int times = time_ok(g->up_ms[0]) && time_ok(g->up_ms[1]) && time_ok(g->up_ms[2]) && time_ok(g->down_ms) &&
                time_ok(g->timing.kernel_ms) && g->timing.clock == GH_CLOCK_DEVICE;
    char params[48] = "";
    if (g->n_params == 2)
        snprintf(params, sizeof params, " tile=%lld work=%lld", (long long)g->params[0], (long long)g->params[1]);
    else if (g->n_params == 1) snprintf(params, sizeof params, " tile=%lld", (long long)g->params[0]);
    if (bad)
        check_verdict(0,
                      "%s: gemm_async %s%s %s %s%s %lldx%lldx%lld: %lld wrong elements, first C(%lld, %lld) = %.17g, "
                      "want %.17g",
                      where, g->kernel, params, dtype_names[g->dtype], g->ta ? "t" : "n", g->tb ? "t" : "n",
                      (long long)g->m, (long long)g->n, (long long)g->k, (long long)bad, (long long)bad_i,
                      (long long)bad_j, got_bad, want_bad);
    else
        check_verdict(1, "%s: gemm_async %s%s %s %s%s %lldx%lldx%lld: %.3g of the bound", where, g->kernel, params,
                      dtype_names[g->dtype], g->ta ? "t" : "n", g->tb ? "t" : "n", (long long)g->m, (long long)g->n,
                      (long long)g->k, worst);
    CHECK(times,
          "%s: gemm_async %s: every time written at synchronize and > 0 (uploads %.4f, %.4f, %.4f ms, GEMM %.4f ms "
          "clock %d, download %.4f ms)",
          where, g->kernel, g->up_ms[0], g->up_ms[1], g->up_ms[2], g->timing.kernel_ms, (int)g->timing.clock,
          g->down_ms);
    return bad == 0 && times;
}

/* Three GEMMs on two streams at once: blocked then tiled on the first,
 * cuBLAS on the second, every operand through 2D copies. */
static void test_two_streams(const gh_plugin_api *api, gh_plugin *ctx, int device, gh_stream *s1, gh_stream *s2)
{
    stream_gemm g[3] = {
        STREAM_GEMM("blocked", 128, 8, 2, GH_F32, 0, 1, 300, 257, 129, 1.5, -0.75),
        STREAM_GEMM("cublas", 0, 0, 0, GH_F64, 1, 0, 190, 211, 310, 1.5, -0.75),
        STREAM_GEMM("tiled", 16, 0, 1, GH_I32, 1, 1, 77, 150, 93, 3.0, -2.0),
    };
    gh_stream *on[3] = {s1, s2, s1};
    int ready = 1;
    for (int i = 0; i < 3 && ready; ++i)
        if (prepare_stream_gemm(api, ctx, device, &g[i], 77 + (uint64_t)i)) {
            check_verdict(0, "two streams: preparing %s: %s", g[i].kernel, api->last_error(ctx));
            ready = 0;
        }
    if (ready) {
        gh_status st = GH_OK;
        for (int i = 0; i < 3 && st == GH_OK; ++i)
            if ((st = queue_stream_gemm(api, ctx, on[i], &g[i])) != GH_OK)
                check_verdict(0, "two streams: queueing %s: status %d: %s", g[i].kernel, (int)st, api->last_error(ctx));
        gh_status st1 = api->stream_synchronize(ctx, s1);
        CHECK(st1 == GH_OK, "two streams: stream_synchronize of the first (status %d: %s)", (int)st1,
              api->last_error(ctx));
        gh_status st2 = api->stream_synchronize(ctx, s2);
        CHECK(st2 == GH_OK, "two streams: stream_synchronize of the second (status %d: %s)", (int)st2,
              api->last_error(ctx));
        if (st == GH_OK && st1 == GH_OK && st2 == GH_OK) {
            int ok = 1;
            for (int i = 0; i < 3; ++i) ok &= verify_stream_gemm(&g[i], "two streams");
            printf(
                "device %d: streams: gemm_async on two streams: blocked f32 nt 300x257x129 %.4f ms and tiled i32 "
                "tt 77x150x93 %.4f ms on one, cublas f64 tn 190x211x310 %.4f ms on the other, %s\n",
                device, g[0].timing.kernel_ms, g[2].timing.kernel_ms, g[1].timing.kernel_ms,
                ok ? "verified" : "FAILED");
        }
    }
    for (int i = 0; i < 3; ++i) free_stream_gemm(api, ctx, &g[i]);
}

/* gemm_batch_async (ABI 1.6): n launches of one GEMM (beta 0: each writes
 * the same C) give the checked product and one time, a source kernel and
 * cuBLAS alike; n 0 is refused with nothing queued. */
static void test_batch(const gh_plugin_api *api, gh_plugin *ctx, int device, gh_stream *s)
{
    if (!GH_HAS_MEMBER(api, gh_plugin_api, gemm_batch_async) || !api->gemm_batch_async) {
        check_verdict(0, "gemm_batch_async: the CUDA plugin offers it (ABI 1.6)");
        return;
    }
    stream_gemm g[2] = {
        STREAM_GEMM("blocked", 128, 8, 2, GH_F32, 0, 1, 300, 257, 129, 1.5, 0.0),
        STREAM_GEMM("cublas", 0, 0, 0, GH_F32, 1, 0, 190, 211, 310, 1.5, 0.0),
    };
    g[0].batch = 5;
    g[1].batch = 300; /* one graph of 300 launches */
    for (int i = 0; i < 2; ++i) {
        if (prepare_stream_gemm(api, ctx, device, &g[i], 91 + (uint64_t)i)) {
            check_verdict(0, "gemm_batch_async: preparing %s: %s", g[i].kernel, api->last_error(ctx));
            break;
        }
        gh_status st = queue_stream_gemm(api, ctx, s, &g[i]);
        gh_status sy = api->stream_synchronize(ctx, s);
        if (CHECK(st == GH_OK && sy == GH_OK, "gemm_batch_async: %u launches of %s queued and waited for (%d, %d: %s)",
                  g[i].batch, g[i].kernel, (int)st, (int)sy, api->last_error(ctx))) {
            verify_stream_gemm(&g[i], "gemm_batch_async");
            printf("device %d: gemm_batch_async: %u launches of %s, %.4f ms each: %s\n", device, g[i].batch,
                   g[i].kernel, g[i].timing.kernel_ms, g[i].timing.note);
        }
    }
    gh_gemm_args none = {0};
    gh_status st = api->gemm_batch_async(ctx, s, gh_test_find_kernel(api, ctx, "blocked"), &none, 0, NULL);
    CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(ctx), "n is 0"),
          "gemm_batch_async with n 0 is refused (status %d: %s)", (int)st, api->last_error(ctx));
    for (int i = 0; i < 2; ++i) free_stream_gemm(api, ctx, &g[i]);
}

/* ---- copy and compute overlapping ---- */

#define OVERLAP_N        2048
#define OVERLAP_BYTES    (256u << 20)
#define OVERLAP_MAX_REPS 256

/* GEMMs on one stream beside one large upload on another: the wall time
 * must come out well under the two added up. */
static void test_overlap(const gh_plugin_api *api, gh_plugin *ctx, int device, gh_stream *s1, gh_stream *s2)
{
    const int64_t n = OVERLAP_N;
    size_t mat = (size_t)(n * n) * sizeof(float);
    gh_buffer *a = NULL, *b = NULL, *c = NULL, *big = NULL;
    void *host = NULL;
    float *init = NULL;
    gh_gemm_timing *timings = calloc(OVERLAP_MAX_REPS, sizeof *timings);
    int64_t params[2] = {128, 8};
    if (!timings || !(init = malloc(mat)) || api->buffer_alloc(ctx, device, mat, &a) != GH_OK ||
        api->buffer_alloc(ctx, device, mat, &b) != GH_OK || api->buffer_alloc(ctx, device, mat, &c) != GH_OK ||
        api->buffer_alloc(ctx, device, OVERLAP_BYTES, &big) != GH_OK ||
        api->host_alloc(ctx, OVERLAP_BYTES, &host) != GH_OK) {
        check_verdict(0, "overlap: buffers: %s", api->last_error(ctx));
        goto done;
    }
    /* The plugin writes only the members a timing's size covers. */
    for (int r = 0; r < OVERLAP_MAX_REPS; ++r) timings[r].size = sizeof timings[r];
    gh_test_seeded_f32(init, n * n, 5, 0);
    memset(host, 1, OVERLAP_BYTES);
    if (api->upload(ctx, a, 0, init, mat) != GH_OK || api->upload(ctx, b, 0, init, mat) != GH_OK) {
        check_verdict(0, "overlap: upload: %s", api->last_error(ctx));
        goto done;
    }
    gh_gemm_args args = gh_test_square_args(n, a, b, c, params, 2);
    int blocked = gh_test_find_kernel(api, ctx, "blocked");

    /* Each alone first (the first GEMM also compiles the kernel). */
    double gemm_alone = 0.0, upload_alone = 0.0;
    gh_status st = GH_OK;
    for (int r = 0; r < 2 && st == GH_OK; ++r)
        if ((st = api->gemm_async(ctx, s1, blocked, &args, &timings[0])) == GH_OK &&
            (st = api->stream_synchronize(ctx, s1)) == GH_OK)
            gemm_alone = timings[0].kernel_ms;
    if (st == GH_OK && (st = api->upload_2d_async(ctx, s2, big, 0, OVERLAP_BYTES, host, OVERLAP_BYTES, OVERLAP_BYTES, 1,
                                                  &upload_alone)) == GH_OK)
        st = api->stream_synchronize(ctx, s2);
    if (st != GH_OK || !time_ok(gemm_alone) || !time_ok(upload_alone)) {
        check_verdict(0, "overlap: timing each alone: status %d (%s), GEMM %.4f ms, upload %.4f ms", (int)st,
                      api->last_error(ctx), gemm_alone, upload_alone);
        goto done;
    }
    int reps = (int)(upload_alone / gemm_alone + 0.5);
    reps = reps < 1 ? 1 : reps > OVERLAP_MAX_REPS ? OVERLAP_MAX_REPS : reps;

    /* Both at once. */
    double upload_ms = -1.0;
    double t0 = now_ms();
    for (int r = 0; r < reps && st == GH_OK; ++r) st = api->gemm_async(ctx, s1, blocked, &args, &timings[r]);
    double queued = now_ms() - t0;
    if (st == GH_OK)
        st = api->upload_2d_async(ctx, s2, big, 0, OVERLAP_BYTES, host, OVERLAP_BYTES, OVERLAP_BYTES, 1, &upload_ms);
    gh_status st1 = api->stream_synchronize(ctx, s1);
    gh_status st2 = api->stream_synchronize(ctx, s2);
    double wall = now_ms() - t0;
    if (st != GH_OK || st1 != GH_OK || st2 != GH_OK) {
        check_verdict(0, "overlap: status %d, %d, %d: %s", (int)st, (int)st1, (int)st2, api->last_error(ctx));
        goto done;
    }
    double gemms = 0.0;
    int all_timed = time_ok(upload_ms);
    for (int r = 0; r < reps; ++r) {
        gemms += timings[r].kernel_ms;
        all_timed &= time_ok(timings[r].kernel_ms);
    }
    double shorter = gemms < upload_ms ? gemms : upload_ms;
    double hidden = shorter > 0.0 ? (gemms + upload_ms - wall) / shorter : 0.0;
    CHECK(all_timed, "overlap: every GEMM and the upload timed (> 0)");
    CHECK(queued < gemms,
          "overlap: queueing %d GEMMs took %.3f ms, less than they run (%.3f ms): gemm_async does "
          "not wait",
          reps, queued, gemms);
    CHECK(hidden > 0.5,
          "overlap: %d GEMMs on one stream (%.3f ms) beside a %u MiB upload on another (%.3f ms) took %.3f ms: "
          "%.0f%% of the shorter hidden (over 50%% wanted)",
          reps, gemms, OVERLAP_BYTES >> 20, upload_ms, wall, 100.0 * hidden);
    printf(
        "device %d: streams: overlap: %d x blocked f32 %d^3 on one stream (%.2f ms) beside a %u MiB upload from "
        "host_alloc memory on another (%.2f ms, %.1f GB/s): %.2f ms wall, %.0f%% of the shorter hidden\n",
        device, reps, OVERLAP_N, gemms, OVERLAP_BYTES >> 20, upload_ms, (double)OVERLAP_BYTES / (upload_ms * 1e6), wall,
        100.0 * hidden);
done:
    api->host_free(ctx, host);
    api->buffer_free(ctx, a);
    api->buffer_free(ctx, b);
    api->buffer_free(ctx, c);
    api->buffer_free(ctx, big);
    free(init);
    free(timings);
}

/* ---- CUDA's own refusals and stream behaviour ---- */

/* The device's limits at the call (nothing queued, no time written), a
 * stream kept to its context, destroy waiting for queued work, host_free of
 * memory host_alloc did not give. */
static void test_stream_errors(const gh_plugin_api *api, gh_plugin *ctx, int device, gh_stream *s)
{
    gh_buffer *buf = NULL;
    if (api->buffer_alloc(ctx, device, 64 * 64 * 4, &buf) != GH_OK) {
        check_verdict(0, "stream errors: buffer: %s", api->last_error(ctx));
        return;
    }
    int64_t params[2] = {128, 2};
    gh_gemm_args args = gh_test_tight_args(GH_F32, 64, 64, 64, buf, buf, buf, params, 2);
    gh_gemm_timing timing = {.size = sizeof timing, .kernel_ms = -1.0};
    gh_status st = api->gemm_async(ctx, s, gh_test_find_kernel(api, ctx, "blocked"), &args, &timing);
    CHECK(st == GH_UNSUPPORTED && contains(api->last_error(ctx), "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK"),
          "gemm_async of blocked tile=128 work=2 is unsupported, naming the limit (status %d: %s)", (int)st,
          api->last_error(ctx));
    args.params = NULL;
    args.n_params = 0;
    args.dtype = GH_I32;
    st = api->gemm_async(ctx, s, gh_test_find_kernel(api, ctx, "cublas"), &args, &timing);
    CHECK(st == GH_UNSUPPORTED && contains(api->last_error(ctx), "int32"),
          "gemm_async of cuBLAS in i32 is unsupported (status %d: %s)", (int)st, api->last_error(ctx));
    st = api->stream_synchronize(ctx, s);
    CHECK(st == GH_OK && timing.kernel_ms == -1.0,
          "after refused gemm_async calls the stream synchronizes and no time is written (status %d, %g ms)", (int)st,
          timing.kernel_ms);

    /* A stream is its context's own. */
    gh_plugin *other = NULL;
    if (api->open(NULL, 0, &other) == GH_OK) {
        st = api->stream_synchronize(other, s);
        CHECK(st == GH_INVALID_ARGUMENT && contains(api->last_error(other), "another context"),
              "a stream used through another context is refused (status %d: %s)", (int)st, api->last_error(other));
        api->close(other);
    }

    /* Destroying a stream with work queued waits for it first. */
    gh_stream *t = NULL;
    unsigned char *host = malloc(1 << 20);
    gh_buffer *big = NULL;
    if (host && api->stream_create(ctx, device, &t) == GH_OK &&
        api->buffer_alloc(ctx, device, 1 << 20, &big) == GH_OK) {
        double ms = -1.0;
        memset(host, 7, 1 << 20);
        st = api->upload_2d_async(ctx, t, big, 0, 1 << 20, host, 1 << 20, 1 << 20, 1, &ms);
        api->stream_destroy(ctx, t);
        t = NULL;
        unsigned char back[64] = {0};
        int ok =
            st == GH_OK && api->download(ctx, big, (1 << 20) - 64, back, 64) == GH_OK && back[0] == 7 && back[63] == 7;
        CHECK(ok, "stream_destroy with an upload queued waits for it (status %d)", (int)st);
    } else {
        check_verdict(0, "stream errors: stream or buffer: %s", api->last_error(ctx));
    }
    if (t) api->stream_destroy(ctx, t);
    api->buffer_free(ctx, big);
    free(host);

    /* host_free of memory host_alloc did not give: reported, not freed. */
    int not_ours = 0;
    api->host_free(ctx, &not_ours);
    CHECK(contains(api->last_error(ctx), "host_alloc"), "host_free of a pointer host_alloc did not give is refused: %s",
          api->last_error(ctx));
    api->buffer_free(ctx, buf);
}

void run_stream_tests(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    gh_stream *s1 = NULL, *s2 = NULL;
    gh_status st = api->stream_create(ctx, device, &s1);
    if (st == GH_OK) st = api->stream_create(ctx, device, &s2);
    CHECK(st == GH_OK && s1 && s2 && s1 != s2, "two streams on device %d (status %d: %s)", device, (int)st,
          st ? api->last_error(ctx) : "");
    if (st == GH_OK) {
        test_copies(api, ctx, device, s1);
        test_two_streams(api, ctx, device, s1, s2);
        test_batch(api, ctx, device, s1);
        const char *no_perf = getenv("GEMMHOST_CUDA_TEST_NO_PERF");
        if (no_perf && atoi(no_perf))
            check_skip(
                "copy and compute overlapping on two streams: a timing run, and GEMMHOST_CUDA_TEST_NO_PERF is "
                "set");
        else test_overlap(api, ctx, device, s1, s2);
        test_stream_errors(api, ctx, device, s1);
    }
    if (s1) api->stream_destroy(ctx, s1);
    if (s2) api->stream_destroy(ctx, s2);
}

/* ---- every device from its own thread ---- */

typedef struct device_job {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int device;
    void *shared_host; /* one host_alloc block every device copies from */
    size_t shared_bytes;
    unsigned char *back; /* where it comes back */
    double up_ms, down_ms;
    stream_gemm g[2];
    int queued; /* everything queued and synchronized */
    char error[512];
} device_job;

/* Queues and waits; the checks are made on the main thread after the join
 * (the test's counters are not for threads). */
static void *device_thread(void *arg)
{
    device_job *j = arg;
    const gh_plugin_api *api = j->api;
    gh_stream *s = NULL;
    gh_buffer *buf = NULL;
    j->queued = 0;
    j->up_ms = j->down_ms = -1.0;
    if (api->stream_create(j->ctx, j->device, &s) != GH_OK ||
        api->buffer_alloc(j->ctx, j->device, j->shared_bytes, &buf) != GH_OK) {
        snprintf(j->error, sizeof j->error, "stream or buffer: %s", api->last_error(j->ctx));
        goto done;
    }
    for (int i = 0; i < 2; ++i)
        if (prepare_stream_gemm(api, j->ctx, j->device, &j->g[i], 500 + (uint64_t)(10 * j->device + i))) {
            snprintf(j->error, sizeof j->error, "preparing %s: %s", j->g[i].kernel, api->last_error(j->ctx));
            goto done;
        }
    gh_status st = api->upload_2d_async(j->ctx, s, buf, 0, j->shared_bytes, j->shared_host, j->shared_bytes,
                                        j->shared_bytes, 1, &j->up_ms);
    if (st == GH_OK)
        st = api->download_2d_async(j->ctx, s, buf, 0, j->shared_bytes, j->back, j->shared_bytes, j->shared_bytes, 1,
                                    &j->down_ms);
    for (int i = 0; i < 2 && st == GH_OK; ++i) st = queue_stream_gemm(api, j->ctx, s, &j->g[i]);
    if (st == GH_OK) st = api->stream_synchronize(j->ctx, s);
    if (st != GH_OK) snprintf(j->error, sizeof j->error, "status %d: %s", (int)st, api->last_error(j->ctx));
    else j->queued = 1;
done:
    api->buffer_free(j->ctx, buf);
    if (s) api->stream_destroy(j->ctx, s);
    return NULL;
}

void run_multi_device_stream_tests(const gh_plugin_api *api, gh_plugin *ctx, int n_devices)
{
    enum { MAX_THREADS = 16 };
    int n = n_devices < MAX_THREADS ? n_devices : MAX_THREADS;
    static device_job jobs[MAX_THREADS];
    pthread_t threads[MAX_THREADS];
    void *shared = NULL;
    size_t bytes = 3u << 20;
    if (api->host_alloc(ctx, bytes, &shared) != GH_OK) {
        check_verdict(0, "multi-device streams: host_alloc: %s", api->last_error(ctx));
        return;
    }
    fill_random(shared, bytes, 4242);
    int started = 0;
    for (int d = 0; d < n; ++d) {
        device_job *j = &jobs[d];
        memset(j, 0, sizeof *j);
        j->api = api;
        j->ctx = ctx;
        j->device = d;
        j->shared_host = shared;
        j->shared_bytes = bytes;
        j->g[0] = (stream_gemm)STREAM_GEMM("cublas", 0, 0, 0, GH_F32, 0, 0, 384, 320, 256, 1.0, 0.5);
        j->g[1] = (stream_gemm)STREAM_GEMM("blocked", 64, 4, 2, GH_F64, 1, 0, 200, 170, 150, -1.0, 2.0);
        if (!(j->back = malloc(bytes)) || pthread_create(&threads[d], NULL, device_thread, j) != 0) {
            free(j->back);
            break;
        }
        started++;
    }
    int all = started == n;
    for (int d = 0; d < started; ++d) {
        device_job *j = &jobs[d];
        pthread_join(threads[d], NULL);
        char where[64];
        snprintf(where, sizeof where, "device %d in its own thread", d);
        int ok = j->queued;
        CHECK(ok, "%s: everything queued and synchronized%s%s", where, j->error[0] ? ": " : "", j->error);
        if (ok) {
            int copied = memcmp(j->back, shared, bytes) == 0 && time_ok(j->up_ms) && time_ok(j->down_ms);
            CHECK(copied, "%s: one portable host_alloc block round-trips (upload %.4f ms, download %.4f ms)", where,
                  j->up_ms, j->down_ms);
            ok &= copied;
            for (int i = 0; i < 2; ++i) ok &= verify_stream_gemm(&j->g[i], where);
        }
        for (int i = 0; i < 2; ++i) free_stream_gemm(api, ctx, &j->g[i]);
        free(j->back);
        all &= ok;
    }
    printf("streams: %d devices at once, one thread each: %s\n", n, all ? "verified" : "FAILED");
    api->host_free(ctx, shared);
}
