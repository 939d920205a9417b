/* A fake plugin that misbehaves in one way, chosen at build time with
 * FAKE_MODE, so the loader and the run loop are tested against each way a
 * real plugin can go wrong. Its device is host memory and its kernel a plain
 * loop, correct unless the mode says otherwise. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "gemmhost/fp8.h"
#include "gemmhost/plugin.h"

#define FAKE_GOOD            0  /* correct; answers the host's minor */
#define FAKE_WRONG_MAJOR     1  /* answers another major */
#define FAKE_NO_ENTRY        2  /* exports a misspelled entry */
#define FAKE_FAILING_OPEN    3  /* open fails with a driver error */
#define FAKE_NO_DEVICE       4  /* opens, but has no device */
#define FAKE_MINOR_TOO_NEW   5  /* answers a minor above the one offered */
#define FAKE_SHORT_TABLE     6  /* function table shorter than minor 0 */
#define FAKE_OLD_MINOR       7  /* correct, built for minor 0: a table of minor-0 size */
#define FAKE_NOOP            8  /* never writes C */
#define FAKE_RACY            9  /* every other run differs in the last bit */
#define FAKE_GUARD_WRITER    10 /* also writes one element past the end of row 0 */
#define FAKE_FAIL_THIRD      11 /* the third gemm call fails */
#define FAKE_F32_ONLY        12 /* correct, but its kernel has f32 only */
#define FAKE_CRASH_THIRD     13 /* the third gemm call crashes (SIGSEGV) */
#define FAKE_ABORT_THIRD     14 /* the third gemm call aborts (SIGABRT) */
#define FAKE_HANG_THIRD      15 /* the third gemm call never returns */
#define FAKE_EXIT_THIRD      16 /* the third gemm call quits the process with exit(0) */
#define FAKE_INPUT_WRITER    17 /* every upload also flips a bit of its host source */
#define FAKE_TIME_ZERO       18 /* reports a kernel time of 0 ms */
#define FAKE_TIME_NEGATIVE   19 /* reports a kernel time of -1 ms */
#define FAKE_TIME_NAN        20 /* reports a kernel time of NaN */
#define FAKE_MANY_DEVICES    21 /* claims 2^20 devices, all but the first with a NULL name */
#define FAKE_CRASH_COUNT     22 /* device_count crashes (SIGSEGV): a driver that dies at discovery */
/* its kernel has a parameter `variant` (0-4) for the tuner: 0 and 1 correct (1 reports half
 * the time: the fastest), 2 wrong by 1 everywhere, 3 aborts, 4 refused as unsupported */
#define FAKE_TUNABLE         23
/* two devices on fake PCI addresses (0000:1b:00.0, 0000:3d:00.0) and copy_peer (ABI minor 3) */
#define FAKE_PEER            24
/* as FAKE_PEER, but copy_peer refuses every copy between the two devices as unsupported */
#define FAKE_PEER_REFUSED    25
/* the third gemm call waits until the file $GEMMHOST_FAKE_GATE exists: a run held mid-way for
 * as long as a test needs, with no timing */
#define FAKE_GATE_THIRD      26
#define FAKE_F16_ONLY        27 /* correct, but its kernel has f16 only (a tensor-core kernel's dtypes) */
/* ABI 1.5: correct, with type combinations (e4m3/e5m2 x e4m3/e5m2 -> f32, e4m3 -> f16 and bf16,
 * i8 -> i32) declared f32 (i8: exact), summed in f64 */
#define FAKE_FP8             28
/* as FAKE_FP8, but e4m3 x e4m3 -> f32 sums its products in a running sum of 14 explicit mantissa
 * bits, truncating after each addition (as Hopper's FP8 tensor cores are reported to), while it
 * declares f32 accumulation: a lie verification must catch */
#define FAKE_FP8_NARROW_LIES 29
/* the same arithmetic, declared: accumulate_bits = 14 (never promoted) */
#define FAKE_FP8_NARROW      30
/* FAKE_TUNABLE's parameter with FAKE_FP8's type combinations: the tuner on 8-bit cases */
#define FAKE_TUNABLE_FP8     31
/* ABI 1.5 with streams (no gemm_batch_async): each gemm's kernel_ms is its call's number (1, 2 ...),
 * and it reports a split of K in 2 pieces summed in f16 (ABI 1.6's member, by size), so a test
 * sees which call's timing came back where; gemm_async runs at once */
#define FAKE_STREAMS         32
/* as FAKE_STREAMS, answering ABI 1.6 with a gemm_batch_async whose note counts its calls */
#define FAKE_STREAMS_BATCH   33
#define FAKE_STREAMS_MODE    (FAKE_MODE == FAKE_STREAMS || FAKE_MODE == FAKE_STREAMS_BATCH)
#define FAKE_FP8_MODE                                                                              \
    (FAKE_MODE == FAKE_FP8 || FAKE_MODE == FAKE_FP8_NARROW_LIES || FAKE_MODE == FAKE_FP8_NARROW || \
     FAKE_MODE == FAKE_TUNABLE_FP8)
#define FAKE_TUNABLE_MODE (FAKE_MODE == FAKE_TUNABLE || FAKE_MODE == FAKE_TUNABLE_FP8)
#define FAKE_TWO_DEVICES  (FAKE_MODE == FAKE_PEER || FAKE_MODE == FAKE_PEER_REFUSED)

static _Thread_local char error_text[256] = "";
static const char *fake_last_error(gh_plugin *ctx)
{
    (void)ctx;
    return error_text;
}

struct gh_plugin {
    int gemm_calls;
    int async_calls, batch_calls; /* FAKE_STREAMS_MODE */
};
struct gh_buffer {
    int device;
    uint64_t bytes;
    unsigned char *data;
};

static gh_status fake_open(const gh_option_value *o, size_t n, gh_plugin **out)
{
    (void)o;
    (void)n;
    if (FAKE_MODE == FAKE_FAILING_OPEN) {
        snprintf(error_text, sizeof error_text, "simulated driver failure in open");
        return GH_ERROR;
    }
    *out = calloc(1, sizeof **out);
    return *out ? GH_OK : GH_OUT_OF_MEMORY;
}
static void fake_close(gh_plugin *ctx)
{
    free(ctx);
}
static int fake_device_count(gh_plugin *ctx)
{
    (void)ctx;
    if (FAKE_MODE == FAKE_CRASH_COUNT) raise(SIGSEGV);
    if (FAKE_MODE == FAKE_NO_DEVICE) {
        snprintf(error_text, sizeof error_text, "no FakeGPU driver installed (libfakegpu.so.1 not found)");
        return 0;
    }
    return FAKE_MODE == FAKE_MANY_DEVICES ? 1 << 20 : FAKE_TWO_DEVICES ? 2 : 1;
}
static const gh_device_info fake_info = {
    sizeof(gh_device_info), "Fake Device", "fake", "0", "none", "", 1, 0, 1, 0, 1, 1, ""};
static const gh_device_info fake_pci_info[2] = {
    {sizeof(gh_device_info), "Fake Device", "fake", "0", "none", "", 1, 0, 1, 0, 1, 1, "0000:1b:00.0"},
    {sizeof(gh_device_info), "Fake Device", "fake", "0", "none", "", 1, 0, 1, 0, 1, 1, "0000:3d:00.0"},
};
static const gh_device_info fake_nameless_info = {
    sizeof(gh_device_info), NULL, "fake", "0", "none", "", 1, 0, 1, 0, 1, 1, ""};
static const gh_device_info *fake_device_info(gh_plugin *ctx, int d)
{
    (void)ctx;
    if (FAKE_MODE == FAKE_MANY_DEVICES && d > 0 && d < 1 << 20) return &fake_nameless_info;
    if (FAKE_TWO_DEVICES) return d == 0 || d == 1 ? &fake_pci_info[d] : NULL;
    return d == 0 ? &fake_info : NULL;
}
static const int64_t variant_values[] = {0, 1, 2, 3, 4};
static const gh_param_info variant_param = {
    sizeof(gh_param_info), "variant", "what the tuner meets (FAKE_TUNABLE)", 0, variant_values, 5, 0, 0};
#define FP8_COMBO(a, b, c, bits)                                                \
    {                                                                           \
        sizeof(gh_type_combo), a, b, c, GH_PREC_AS_STORED, GH_PREC_F32, bits, 0 \
    }
static const gh_type_combo fake_combos[] = {
    FP8_COMBO(GH_E4M3, GH_E4M3, GH_F32, FAKE_MODE == FAKE_FP8_NARROW ? 14 : 0),
    FP8_COMBO(GH_E4M3, GH_E5M2, GH_F32, 0),
    FP8_COMBO(GH_E5M2, GH_E4M3, GH_F32, 0),
    FP8_COMBO(GH_E5M2, GH_E5M2, GH_F32, 0),
    FP8_COMBO(GH_E4M3, GH_E4M3, GH_F16, 0),
    FP8_COMBO(GH_E4M3, GH_E4M3, GH_BF16, 0),
    {sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
};
static const gh_kernel_info fake_kernel = {sizeof(gh_kernel_info),
                                           "loop",
                                           "a plain triple loop",
                                           FAKE_MODE == FAKE_F32_ONLY   ? GH_DTYPE_BIT(GH_F32)
                                           : FAKE_MODE == FAKE_F16_ONLY ? GH_DTYPE_BIT(GH_F16)
                                                                        : 7u,
                                           FAKE_TUNABLE_MODE ? &variant_param : NULL,
                                           FAKE_TUNABLE_MODE ? 1 : 0,
                                           NULL,
                                           0,
                                           FAKE_FP8_MODE ? fake_combos : NULL,
                                           FAKE_FP8_MODE ? sizeof fake_combos / sizeof fake_combos[0] : 0};
static int fake_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return 1;
}
static const gh_kernel_info *fake_kernel_info(gh_plugin *ctx, int k)
{
    (void)ctx;
    return k == 0 ? &fake_kernel : NULL;
}

static gh_status fake_alloc(gh_plugin *ctx, int d, uint64_t bytes, gh_buffer **out)
{
    (void)ctx;
    gh_buffer *b = calloc(1, sizeof *b);
    if (b) b->data = calloc(1, bytes ? bytes : 1);
    if (!b || !b->data) {
        free(b);
        return GH_OUT_OF_MEMORY;
    }
    b->bytes = bytes;
    b->device = d;
    *out = b;
    return GH_OK;
}
static void fake_free(gh_plugin *ctx, gh_buffer *b)
{
    (void)ctx;
    if (b) free(b->data);
    free(b);
}
static gh_status fake_upload(gh_plugin *ctx, gh_buffer *b, uint64_t off, const void *src, uint64_t n)
{
    (void)ctx;
    memcpy(b->data + off, src, n);
    if (FAKE_MODE == FAKE_INPUT_WRITER && n > 0) ((unsigned char *)src)[n - 1] ^= 1; /* casts away const */
    return GH_OK;
}
static gh_status fake_download(gh_plugin *ctx, gh_buffer *b, uint64_t off, void *dst, uint64_t n)
{
    (void)ctx;
    memcpy(dst, b->data + off, n);
    return GH_OK;
}

/* IEEE binary16 as double. */
static double half_value(uint16_t h)
{
    int exponent = (h >> 10) & 31, mantissa = h & 1023;
    double v = exponent == 0    ? ldexp(mantissa, -24)
               : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                : ldexp(mantissa + 1024, exponent - 25);
    return h & 0x8000 ? -v : v;
}
/* The nearest binary16 (ties to even), by search: slow, but the fake multiplies tiny matrices. */
static uint16_t half_of(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0, lo = 0, hi = 0x7c00; /* [0, infinity] */
    double a = fabs(v);
    if (isnan(v)) return 0x7e00;
    while (hi - lo > 1) {
        uint16_t mid = (uint16_t)((lo + hi) / 2);
        if (half_value(mid) <= a) lo = mid;
        else hi = mid;
    }
    double below = a - half_value(lo), above = half_value(hi) - a;
    return sign | (below < above || (below == above && !(lo & 1)) ? lo : hi);
}

/* bfloat16 as double, and the nearest one (ties to even) to a double. */
static double bf16_value(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
static uint16_t bf16_of(double v)
{
    float f = (float)v; /* rounds twice; the fake's tiny sums are exact in f32 anyway */
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (isnan(f)) return 0x7fc0;
    bits += 0x7fff + ((bits >> 16) & 1);
    return (uint16_t)(bits >> 16);
}

/* A GEMM's three types: ABI 1.5's explicit ones, else dtype throughout. */
static gh_dtype type_of(const gh_gemm_args *g, char matrix)
{
    if (!GH_HAS_MEMBER(g, gh_gemm_args, scale_c) || g->explicit_types != 1 || matrix == 'A') return g->dtype;
    return matrix == 'B' ? g->b_dtype : g->c_dtype;
}

/* op(A)(i,p) and op(B)(p,j) (and C) of any dtype, as double. */
static double element(gh_dtype t, const gh_buffer *buf, uint64_t off, int64_t ld, int trans, int64_t r, int64_t c)
{
    uint64_t idx = off + (uint64_t)(trans ? c * ld + r : r * ld + c);
    switch (t) {
    case GH_F32: return ((const float *)buf->data)[idx];
    case GH_F64: return ((const double *)buf->data)[idx];
    case GH_F16: return half_value(((const uint16_t *)buf->data)[idx]);
    case GH_BF16: return bf16_value(((const uint16_t *)buf->data)[idx]);
    case GH_E4M3: return gh_e4m3_to_f64(buf->data[idx]);
    case GH_E5M2: return gh_e5m2_to_f64(buf->data[idx]);
    case GH_I8: return ((const int8_t *)buf->data)[idx];
    default: return ((const int32_t *)buf->data)[idx];
    }
}
static void store(const gh_gemm_args *g, uint64_t idx, double v, int perturb)
{
    switch (type_of(g, 'C')) {
    case GH_BF16: ((uint16_t *)g->c->data)[idx] = bf16_of(v); break;
    /* perturb: one unit in the last place up (the racy plugin's repeats differ) */
    case GH_F32: ((float *)g->c->data)[idx] = perturb ? nextafterf((float)v, INFINITY) : (float)v; break;
    case GH_F64: ((double *)g->c->data)[idx] = perturb ? nextafter(v, INFINITY) : v; break;
    case GH_F16: ((uint16_t *)g->c->data)[idx] = (uint16_t)(half_of(v) ^ perturb); break;
    default: ((int32_t *)g->c->data)[idx] = (int32_t)v + perturb; break;
    }
}

/* x with `bits` explicit mantissa bits kept, the rest cut (toward zero). */
static double keep_bits(double x, int bits)
{
    if (x == 0 || !isfinite(x)) return x;
    int e;
    double m = frexp(x, &e); /* |m| in [0.5, 1) */
    return ldexp(trunc(ldexp(m, bits + 1)), e - bits - 1);
}
/* The narrow modes' e4m3 x e4m3 -> f32 GEMM. */
static int narrow(const gh_gemm_args *g)
{
    return (FAKE_MODE == FAKE_FP8_NARROW_LIES || FAKE_MODE == FAKE_FP8_NARROW) && type_of(g, 'A') == GH_E4M3 &&
           type_of(g, 'B') == GH_E4M3 && type_of(g, 'C') == GH_F32;
}
/* What plugin.h says a gemm refuses, of the types (ABI 1.5): 0 when it runs. */
static gh_status refused(const gh_gemm_args *g)
{
    if (GH_HAS_MEMBER(g, gh_gemm_args, scale_c) && g->explicit_types != 0 && g->explicit_types != 1) {
        snprintf(error_text, sizeof error_text, "gemm: explicit_types must be 0 or 1 (got %d)", (int)g->explicit_types);
        return GH_INVALID_ARGUMENT;
    }
    const gh_dtype a = type_of(g, 'A'), b = type_of(g, 'B'), c = type_of(g, 'C');
    const int explicit_types = a != b || b != c || (GH_HAS_MEMBER(g, gh_gemm_args, scale_c) && g->explicit_types);
    if (explicit_types && !(g->scale_a > 0 && g->scale_b > 0 && g->scale_c > 0 && isfinite(g->scale_a) &&
                            isfinite(g->scale_b) && isfinite(g->scale_c))) {
        snprintf(error_text, sizeof error_text, "gemm: scales must be finite and > 0 (got %g, %g, %g)", g->scale_a,
                 g->scale_b, g->scale_c);
        return GH_INVALID_ARGUMENT;
    }
    int listed = a == b && b == c && (fake_kernel.dtypes & GH_DTYPE_BIT(a)) &&
                 (!explicit_types || (g->scale_a == 1 && g->scale_b == 1 && g->scale_c == 1));
    for (size_t i = 0; i < fake_kernel.n_combos; i++)
        listed |= fake_kernel.combos[i].a == a && fake_kernel.combos[i].b == b && fake_kernel.combos[i].c == c;
    if (!listed) {
        snprintf(error_text, sizeof error_text, "gemm: kernel loop has no A %d x B %d -> C %d", (int)a, (int)b, (int)c);
        return GH_UNSUPPORTED;
    }
    return GH_OK;
}

static gh_status fake_gemm(gh_plugin *ctx, int d, int k, const gh_gemm_args *g, gh_gemm_timing *t)
{
    (void)d;
    (void)k;
    ctx->gemm_calls++;
    if (FAKE_MODE == FAKE_FAIL_THIRD && ctx->gemm_calls == 3) {
        snprintf(error_text, sizeof error_text, "simulated device lost on the third gemm");
        return GH_ERROR;
    }
    if (FAKE_MODE == FAKE_CRASH_THIRD && ctx->gemm_calls == 3) raise(SIGSEGV); /* what a driver's bad pointer does */
    if (FAKE_MODE == FAKE_ABORT_THIRD && ctx->gemm_calls == 3) abort();        /* a driver's failed assert */
    if (FAKE_MODE == FAKE_EXIT_THIRD && ctx->gemm_calls == 3) exit(0);         /* a driver that quits */
    if (FAKE_MODE == FAKE_HANG_THIRD && ctx->gemm_calls == 3)
        for (;;) pause(); /* a kernel that never finishes */
    if (FAKE_MODE == FAKE_GATE_THIRD && ctx->gemm_calls == 3) {
        const char *gate = getenv("GEMMHOST_FAKE_GATE");
        struct timespec tick = {0, 10000000};
        if (gate && access(gate, F_OK) != 0) {
            /* GATE.waiting tells the test that everything before this call has been written */
            char waiting[4096];
            snprintf(waiting, sizeof waiting, "%s.waiting", gate);
            FILE *f = fopen(waiting, "w");
            if (f) fclose(f);
        }
        while (gate && access(gate, F_OK) != 0) nanosleep(&tick, NULL);
    }
    if (refused(g)) return refused(g);
    const int64_t variant = FAKE_TUNABLE_MODE && g->n_params == 1 ? g->params[0] : 0;
    if (variant == 3) abort(); /* a driver's failed assert, for these parameters only */
    if (variant == 4) {
        snprintf(error_text, sizeof error_text, "variant 4 needs more local memory than the fake device has");
        return GH_UNSUPPORTED;
    }
    int perturb = FAKE_MODE == FAKE_RACY && ctx->gemm_calls % 2 == 0;
    if (FAKE_MODE != FAKE_NOOP)
        for (int64_t i = 0; i < g->m; i++)
            for (int64_t j = 0; j < g->n; j++) {
                double acc = 0;
                for (int64_t p = 0; p < g->k; p++) {
                    acc += element(type_of(g, 'A'), g->a, g->a_offset, g->lda, g->trans_a, i, p) *
                           element(type_of(g, 'B'), g->b, g->b_offset, g->ldb, g->trans_b, p, j);
                    if (narrow(g)) acc = keep_bits(acc, 14);
                }
                uint64_t idx = g->c_offset + (uint64_t)(i * g->ldc + j);
                double c0 = g->beta != 0 ? element(type_of(g, 'C'), g->c, g->c_offset, g->ldc, 0, i, j) : 0;
                const int scaled = GH_HAS_MEMBER(g, gh_gemm_args, scale_c) && g->explicit_types == 1;
                const double sa = scaled ? g->scale_a : 1, sb = scaled ? g->scale_b : 1, sc = scaled ? g->scale_c : 1;
                store(g, idx, sc * (g->alpha * sa * sb * acc + (g->beta != 0 ? g->beta * c0 : 0)) + (variant == 2),
                      perturb);
            }
    if (FAKE_MODE == FAKE_GUARD_WRITER) store(g, g->c_offset + (uint64_t)g->n, 42, 0);
    t->kernel_ms = FAKE_MODE == FAKE_TIME_ZERO       ? 0.0
                   : FAKE_MODE == FAKE_TIME_NEGATIVE ? -1.0
                   : FAKE_MODE == FAKE_TIME_NAN      ? NAN
                   : variant == 1                    ? 0.5
                                                     : 1.0;
    t->clock = GH_CLOCK_DEVICE;
    if (FAKE_STREAMS_MODE) t->kernel_ms = ctx->gemm_calls;
    if (FAKE_STREAMS_MODE && GH_HAS_MEMBER(t, gh_gemm_timing, split_precision)) {
        t->split_pieces = 2;
        t->split_precision = GH_PREC_F16;
    }
    return GH_OK;
}
static gh_status fake_sync(gh_plugin *ctx, int d)
{
    (void)ctx;
    (void)d;
    return GH_OK;
}
/* Both ranges within their buffers, without wrapping around. */
static int fits(const gh_buffer *b, uint64_t off, uint64_t n)
{
    return off <= b->bytes && n <= b->bytes - off;
}
static gh_status fake_copy_peer(gh_plugin *ctx, gh_buffer *src, uint64_t src_off, gh_buffer *dst, uint64_t dst_off,
                                uint64_t n)
{
    (void)ctx;
    if (!src || !dst) {
        snprintf(error_text, sizeof error_text, "copy_peer: %s buffer is NULL", src ? "the destination" : "the source");
        return GH_INVALID_ARGUMENT;
    }
    if (!fits(src, src_off, n) || !fits(dst, dst_off, n)) {
        snprintf(error_text, sizeof error_text, "copy_peer: %llu bytes at %llu pass the end of the %s buffer",
                 (unsigned long long)n, (unsigned long long)(fits(src, src_off, n) ? dst_off : src_off),
                 fits(src, src_off, n) ? "destination" : "source");
        return GH_INVALID_ARGUMENT;
    }
    if (src == dst && src_off < dst_off + n && dst_off < src_off + n && n > 0) {
        snprintf(error_text, sizeof error_text, "copy_peer: the two ranges overlap in one buffer");
        return GH_INVALID_ARGUMENT;
    }
    if (FAKE_MODE == FAKE_PEER_REFUSED && src->device != dst->device) {
        snprintf(error_text, sizeof error_text, "copy_peer: fake device %d cannot access fake device %d (no peer link)",
                 dst->device, src->device);
        return GH_UNSUPPORTED;
    }
    memmove(dst->data + dst_off, src->data + src_off, n);
    return GH_OK;
}

/* FAKE_STREAMS_MODE: streams whose work runs at once (the result is the same). */
struct gh_stream {
    int device;
};
static gh_status fake_stream_create(gh_plugin *ctx, int d, gh_stream **out)
{
    (void)ctx;
    if (!out || d != 0) {
        snprintf(error_text, sizeof error_text, "stream_create: out is NULL or device %d is not 0", d);
        return GH_INVALID_ARGUMENT;
    }
    *out = calloc(1, sizeof **out);
    return *out ? GH_OK : GH_OUT_OF_MEMORY;
}
static void fake_stream_destroy(gh_plugin *ctx, gh_stream *s)
{
    (void)ctx;
    free(s);
}
static gh_status fake_copy_2d(int upload, gh_stream *s, gh_buffer *b, uint64_t off, uint64_t pitch, unsigned char *host,
                              uint64_t host_pitch, uint64_t width, uint64_t rows, double *ms)
{
    if (!s || !b || (!host && rows && width)) {
        snprintf(error_text, sizeof error_text, "2D copy: a NULL stream, buffer or host pointer");
        return GH_INVALID_ARGUMENT;
    }
    for (uint64_t r = 0; r < rows && width; r++) {
        if (!fits(b, off + r * pitch, width)) {
            snprintf(error_text, sizeof error_text, "2D copy: row %llu passes the buffer's end", (unsigned long long)r);
            return GH_INVALID_ARGUMENT;
        }
        if (upload) memcpy(b->data + off + r * pitch, host + r * host_pitch, width);
        else memcpy(host + r * host_pitch, b->data + off + r * pitch, width);
    }
    if (ms) *ms = 0.5;
    return GH_OK;
}
static gh_status fake_upload_2d(gh_plugin *ctx, gh_stream *s, gh_buffer *b, uint64_t off, uint64_t pitch,
                                const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows, double *ms)
{
    (void)ctx;
    return fake_copy_2d(1, s, b, off, pitch, (unsigned char *)src, src_pitch, width, rows, ms);
}
static gh_status fake_download_2d(gh_plugin *ctx, gh_stream *s, gh_buffer *b, uint64_t off, uint64_t pitch, void *dst,
                                  uint64_t dst_pitch, uint64_t width, uint64_t rows, double *ms)
{
    (void)ctx;
    return fake_copy_2d(0, s, b, off, pitch, dst, dst_pitch, width, rows, ms);
}
static gh_status fake_gemm_async(gh_plugin *ctx, gh_stream *s, int k, const gh_gemm_args *g, gh_gemm_timing *t)
{
    if (!s) {
        snprintf(error_text, sizeof error_text, "gemm_async: the stream is NULL");
        return GH_INVALID_ARGUMENT;
    }
    ctx->async_calls++;
    return fake_gemm(ctx, s->device, k, g, t);
}
/* n launches, one timing (their mean); the note says which call this was. */
static gh_status fake_gemm_batch_async(gh_plugin *ctx, gh_stream *s, int k, const gh_gemm_args *g, uint32_t n,
                                       gh_gemm_timing *t)
{
    if (!s || n == 0) {
        snprintf(error_text, sizeof error_text, "gemm_batch_async: the stream is NULL or n is 0");
        return GH_INVALID_ARGUMENT;
    }
    ctx->batch_calls++;
    gh_gemm_timing one = {.size = sizeof one};
    double total = 0;
    for (uint32_t i = 0; i < n; i++) {
        gh_status st = fake_gemm(ctx, s->device, k, g, &one);
        if (st != GH_OK) return st;
        total += one.kernel_ms;
    }
    if (!t) return GH_OK;
    if (GH_HAS_MEMBER(t, gh_gemm_timing, clock)) {
        t->kernel_ms = total / n;
        t->clock = GH_CLOCK_DEVICE;
    }
    if (GH_HAS_MEMBER(t, gh_gemm_timing, note))
        snprintf(t->note, sizeof t->note, "fake gemm_batch_async call %d: %u launches, %d gemm_async calls before",
                 ctx->batch_calls, n, ctx->async_calls);
    if (GH_HAS_MEMBER(t, gh_gemm_timing, split_precision)) {
        t->split_pieces = one.split_pieces;
        t->split_precision = one.split_precision;
    }
    return GH_OK;
}
static gh_status fake_stream_sync(gh_plugin *ctx, gh_stream *s)
{
    (void)ctx;
    if (!s) {
        snprintf(error_text, sizeof error_text, "stream_synchronize: the stream is NULL");
        return GH_INVALID_ARGUMENT;
    }
    return GH_OK;
}

static void *fake_get_proc(const char *name)
{
    (void)name;
    return NULL;
}

static const gh_plugin_api fake_api = {
    .size = FAKE_MODE == FAKE_SHORT_TABLE ? offsetof(gh_plugin_api, gemm)
            : FAKE_MODE == FAKE_OLD_MINOR ? GH_PLUGIN_API_MINOR0_SIZE
            : FAKE_MODE == FAKE_STREAMS   ? offsetof(gh_plugin_api, gemm_batch_async) /* built against ABI 1.5 */
                                          : sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = FAKE_MODE == FAKE_OLD_MINOR ? 0
                 : FAKE_MODE == FAKE_STREAMS ? 5
                                             : GEMMHOST_ABI_MINOR,
    .name = FAKE_NAME,
    .description = "a fake plugin for the loader tests",
    .version = "0",
    .open = fake_open,
    .close = fake_close,
    .last_error = fake_last_error,
    .device_count = fake_device_count,
    .device_info = fake_device_info,
    .kernel_count = fake_kernel_count,
    .kernel_info = fake_kernel_info,
    .buffer_alloc = fake_alloc,
    .buffer_free = fake_free,
    .upload = fake_upload,
    .download = fake_download,
    .gemm = fake_gemm,
    .synchronize = fake_sync,
    .get_proc = fake_get_proc,
    .copy_peer = FAKE_TWO_DEVICES ? fake_copy_peer : NULL,
    .stream_create = FAKE_STREAMS_MODE ? fake_stream_create : NULL,
    .stream_destroy = FAKE_STREAMS_MODE ? fake_stream_destroy : NULL,
    .upload_2d_async = FAKE_STREAMS_MODE ? fake_upload_2d : NULL,
    .download_2d_async = FAKE_STREAMS_MODE ? fake_download_2d : NULL,
    .gemm_async = FAKE_STREAMS_MODE ? fake_gemm_async : NULL,
    .stream_synchronize = FAKE_STREAMS_MODE ? fake_stream_sync : NULL,
    /* not read in the ABI 1.5 mode, whose table ends before it */
    .gemm_batch_async = FAKE_MODE == FAKE_STREAMS_BATCH ? fake_gemm_batch_async : NULL,
};

#if FAKE_MODE == FAKE_NO_ENTRY
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry_misspelled(gh_entry_request *req)
#else
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *req)
#endif
{
    if (FAKE_MODE == FAKE_WRONG_MAJOR) {
        req->plugin_abi_major = GEMMHOST_ABI_MAJOR + 1;
        return GH_VERSION_MISMATCH;
    }
    req->plugin_abi_major = GEMMHOST_ABI_MAJOR;
    if (FAKE_MODE == FAKE_MINOR_TOO_NEW) req->abi_minor = req->abi_minor + 1;
    if (FAKE_MODE == FAKE_OLD_MINOR) req->abi_minor = 0;
    if (FAKE_MODE == FAKE_STREAMS && req->abi_minor > 5) req->abi_minor = 5;
    req->api = &fake_api;
    return GH_OK;
}
