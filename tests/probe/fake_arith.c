/* A fake plugin whose arithmetic is planted, one way per FAKE_ARITH mode,
 * so that tests/probe can check the probe names each exactly. Its device is
 * host memory and its kernel a plain loop: inputs converted, each product
 * rounded to the sum's type and added in order over K, like a simple GPU
 * kernel; f16 and bf16 summed in f32; i32 wraps. */
#include <math.h>
#include <signal.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "gemmhost/plugin_helpers.h"

#define FA_IEEE         0 /* what it declares (nothing: the dtypes' defaults) */
#define FA_TF32_TRUNC   1 /* f32 inputs cut to 10 bits toward zero; declares TF32 rounded to nearest */
#define FA_NARROW_SUM   2 /* the f32 running sum keeps 16 bits (to nearest) */
#define FA_FLUSH        3 /* subnormal inputs and results become zero */
#define FA_DROP_NAN     4 /* a step that would make the sum NaN is skipped (as fmax would) */
#define FA_ORDER_VARIES 5 /* every other call sums over K backwards */
#define FA_CRASH_ACC    6 /* crashes (SIGSEGV) on a K = 3 case of more than 4 rows */
/* e4m3 x e4m3 -> f32 (ABI 1.5) summed in 13 bits, promoted into f32 every 4 steps over K, as declared */
#define FA_FP8          7
/* f32 and bf16 inputs pass through f16 (its 10 bits and its range), as declared for bf16 only */
#define FA_F16_PATH     8
/* hangs on the f32 overflow case (K = 2, M = 2, N = 1): a timeout is a finding too */
#define FA_HANG         9
/* FA_FP8's combinations, but FP8 subnormal inputs become zero (OCP keeps them) */
#define FA_FP8_FLUSH    10
/* FA_FP8's combinations, but an i8 -> i32 sum past i32 saturates instead of wrapping */
#define FA_I8_SATURATE  11
/* FA_FP8's combinations, but scale_a scale_b multiplies each product before the sum */
#define FA_SCALE_BEFORE 12
/* FA_FP8's arithmetic, but only nt with rows of whole 16 elements (as wgmma's FP8, cuBLASLt's 8-bit GEMMs) */
#define FA_KMAJOR       13
/* the modes that run combinations: e4m3 x e4m3 -> f32 (13-bit sum promoted every 4), e4m3 x e5m2 -> f32
 * (f32 sum), i8 x i8 -> i32 (exact), scales applied to the rounded sum */
#define FA_COMBOS                                                                          \
    (FAKE_ARITH == FA_FP8 || FAKE_ARITH == FA_FP8_FLUSH || FAKE_ARITH == FA_I8_SATURATE || \
     FAKE_ARITH == FA_SCALE_BEFORE || FAKE_ARITH == FA_KMAJOR)
/* B's element (p, j): stored as K x N, or N x K when transposed (nt) */
#define B_INDEX(g, p, j) ((g)->b_offset + (uint64_t)((g)->trans_b ? (j) * (g)->ldb + (p) : (p) * (g)->ldb + (j)))

struct gh_plugin {
    int gemm_calls;
};
struct gh_buffer {
    uint64_t bytes;
    unsigned char *data;
};

static gh_status fa_open(const gh_option_value *o, size_t n, gh_plugin **out)
{
    if (n > 0 || (o && n)) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: the fake has no options");
    *out = calloc(1, sizeof **out);
    return *out ? GH_OK : GH_OUT_OF_MEMORY;
}
static void fa_close(gh_plugin *ctx)
{
    free(ctx);
}
static int fa_device_count(gh_plugin *ctx)
{
    (void)ctx;
    return 1;
}
static const gh_device_info fa_info = {
    sizeof(gh_device_info), "Fake Arithmetic", "fake", "0", "none", "", 1 << 20, 0, 1, 0, 1, 1, ""};
static const gh_device_info *fa_device_info(gh_plugin *ctx, int d)
{
    (void)ctx;
    return d == 0 ? &fa_info : NULL;
}
static const gh_kernel_precision tf32_declared[] = {
    {sizeof(gh_kernel_precision), GH_F32, GH_PREC_TF32, GH_PREC_F32},
};
static const gh_kernel_precision f16_path_declared[] = {
    {sizeof(gh_kernel_precision), GH_BF16, GH_PREC_F16, GH_PREC_F32},
};
/* FA_IEEE lists a mixed combination it refuses to run; FA_COMBOS run theirs. */
static const gh_type_combo ieee_combo[] = {
    {sizeof(gh_type_combo), GH_E5M2, GH_E4M3, GH_F32, GH_PREC_AS_STORED, GH_PREC_F32, 0, 0},
};
static const gh_type_combo fp8_combo[] = {
    {sizeof(gh_type_combo), GH_E4M3, GH_E4M3, GH_F32, GH_PREC_AS_STORED, GH_PREC_F32, 13, 4},
    {sizeof(gh_type_combo), GH_E4M3, GH_E5M2, GH_F32, GH_PREC_AS_STORED, GH_PREC_F32, 0, 0},
    {sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
};
static const gh_kernel_info fa_kernel = {
    GH_PLUGIN_KERNEL("arith", "a loop with planted arithmetic",
                     GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32) | GH_DTYPE_BIT(GH_F16) |
                         GH_DTYPE_BIT(GH_BF16)),
    .precisions = FAKE_ARITH == FA_TF32_TRUNC ? tf32_declared
                  : FAKE_ARITH == FA_F16_PATH ? f16_path_declared
                                              : NULL,
    .n_precisions = FAKE_ARITH == FA_TF32_TRUNC || FAKE_ARITH == FA_F16_PATH ? 1 : 0,
    .combos = FAKE_ARITH == FA_IEEE ? ieee_combo
              : FA_COMBOS           ? fp8_combo
                                    : NULL,
    .n_combos = FAKE_ARITH == FA_IEEE ? 1
                : FA_COMBOS           ? 3
                                      : 0,
};
static int fa_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return 1;
}
static const gh_kernel_info *fa_kernel_info(gh_plugin *ctx, int k)
{
    (void)ctx;
    return k == 0 ? &fa_kernel : NULL;
}
static gh_status fa_alloc(gh_plugin *ctx, int d, uint64_t bytes, gh_buffer **out)
{
    (void)ctx;
    if (d != 0 || !out || !bytes) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: bad arguments");
    gh_buffer *b = calloc(1, sizeof *b);
    if (b) b->data = calloc(1, bytes);
    if (!b || !b->data) {
        free(b);
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "buffer_alloc: out of memory");
    }
    b->bytes = bytes;
    *out = b;
    return GH_OK;
}
static void fa_free(gh_plugin *ctx, gh_buffer *b)
{
    (void)ctx;
    if (b) free(b->data);
    free(b);
}
static gh_status fa_upload(gh_plugin *ctx, gh_buffer *b, uint64_t off, const void *src, uint64_t n)
{
    (void)ctx;
    if (!b || off > b->bytes || n > b->bytes - off) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "upload: range");
    if (n) memcpy(b->data + off, src, n);
    return GH_OK;
}
static gh_status fa_download(gh_plugin *ctx, gh_buffer *b, uint64_t off, void *dst, uint64_t n)
{
    (void)ctx;
    if (!b || off > b->bytes || n > b->bytes - off) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "download: range");
    if (n) memcpy(dst, b->data + off, n);
    return GH_OK;
}

/* x rounded to `bits` explicit mantissa bits: to nearest even, or toward zero. */
static double round_bits(double x, int bits, int toward_zero)
{
    if (x == 0 || !isfinite(x)) return x;
    int e;
    const double f = ldexp(frexp(x, &e), bits + 1);
    return ldexp(toward_zero ? trunc(f) : nearbyint(f), e - bits - 1);
}

static double min_normal(gh_dtype d)
{
    return d == GH_F16 ? ldexp(1, -14) : d == GH_F64 ? ldexp(1, -1022) : ldexp(1, -126);
}

static double load(const gh_gemm_args *g, const gh_buffer *b, uint64_t idx)
{
    double v;
    switch (g->dtype) {
    case GH_F32: v = ((const float *)b->data)[idx]; break;
    case GH_F64: v = ((const double *)b->data)[idx]; break;
    case GH_F16: v = gh_f16_to_f64(((const uint16_t *)b->data)[idx]); break;
    case GH_BF16: v = gh_bf16_to_f64(((const uint16_t *)b->data)[idx]); break;
    default: return ((const int32_t *)b->data)[idx];
    }
    if (FAKE_ARITH == FA_TF32_TRUNC && g->dtype == GH_F32) v = round_bits(v, 10, 1);
    if (FAKE_ARITH == FA_F16_PATH && (g->dtype == GH_F32 || g->dtype == GH_BF16)) v = gh_f16_to_f64(gh_f64_to_f16(v));
    if (FAKE_ARITH == FA_FLUSH && fabs(v) < min_normal(g->dtype)) v = 0;
    return v;
}

/* One step of the running sum: the product rounded to the sum's type, then
 * the sum. */
static double step(const gh_gemm_args *g, double acc, double a, double b)
{
    double next;
    if (g->dtype == GH_F64) next = acc + a * b;
    else next = (float)(acc + (float)(a * b));
    if (FAKE_ARITH == FA_NARROW_SUM && g->dtype == GH_F32) next = round_bits(next, 16, 0);
    if (FAKE_ARITH == FA_DROP_NAN && isnan(next)) next = acc;
    return next;
}

static void store(const gh_gemm_args *g, uint64_t idx, double v)
{
    if (FAKE_ARITH == FA_FLUSH && fabs(v) < min_normal(g->dtype)) v = 0;
    switch (g->dtype) {
    case GH_F32: ((float *)g->c->data)[idx] = (float)v; break;
    case GH_F64: ((double *)g->c->data)[idx] = v; break;
    case GH_F16: ((uint16_t *)g->c->data)[idx] = gh_f64_to_f16(v); break;
    case GH_BF16: ((uint16_t *)g->c->data)[idx] = gh_f64_to_bf16(v); break;
    default: ((int32_t *)g->c->data)[idx] = (int32_t)(uint32_t)(int64_t)v; break;
    }
}

static double fp8_load(gh_dtype t, uint8_t v)
{
    const double x = t == GH_E4M3 ? gh_e4m3_to_f64(v) : gh_e5m2_to_f64(v);
    if (FAKE_ARITH == FA_FP8_FLUSH && fabs(x) < (t == GH_E4M3 ? ldexp(1, -6) : ldexp(1, -14))) return 0;
    return x;
}

/* FA_COMBOS' FP8 combinations: e4m3 x e4m3 a 13-bit sum added into an f32
 * one every 4 steps over K, e4m3 x e5m2 an f32 sum; C in f32, the scales
 * applied to the sum in f32 (FA_SCALE_BEFORE: to each product). */
static void fp8_gemm(const gh_gemm_args *g)
{
    const uint8_t *a = g->a->data, *b = g->b->data;
    float *c = (float *)g->c->data;
    const int narrow_sum = g->b_dtype == GH_E4M3, before = FAKE_ARITH == FA_SCALE_BEFORE;
    const float ab = (float)(g->scale_a * g->scale_b);
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            double full = 0, narrow = 0;
            for (int64_t p = 0; p < g->k; p++) {
                const double x = fp8_load(g->dtype, a[g->a_offset + (uint64_t)(i * g->lda + p)]);
                const double y = fp8_load(g->b_dtype, b[B_INDEX(g, p, j)]) * (before ? ab : 1);
                if (!narrow_sum) {
                    full = (float)(full + x * y);
                    continue;
                }
                narrow = round_bits(narrow + x * y, 13, 0);
                if ((p + 1) % 4 == 0) {
                    full = (float)(full + narrow);
                    narrow = 0;
                }
            }
            const float sum = (float)(full + narrow);
            c[g->c_offset + (uint64_t)(i * g->ldc + j)] =
                (float)g->scale_c * ((float)g->alpha * (before ? 1 : ab) * sum);
        }
}

/* i8 x i8 -> i32: exact products and sums, wrapped (FA_I8_SATURATE: clamped). */
static void i8_gemm(const gh_gemm_args *g)
{
    const int8_t *a = (const int8_t *)g->a->data, *b = (const int8_t *)g->b->data;
    int32_t *c = (int32_t *)g->c->data;
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            int64_t sum = 0;
            for (int64_t p = 0; p < g->k; p++)
                sum += (int64_t)a[g->a_offset + (uint64_t)(i * g->lda + p)] * b[B_INDEX(g, p, j)];
            sum *= (int64_t)g->alpha;
            if (FAKE_ARITH == FA_I8_SATURATE) sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
            c[g->c_offset + (uint64_t)(i * g->ldc + j)] = (int32_t)(uint32_t)(uint64_t)sum;
        }
}

static gh_status fa_gemm(gh_plugin *ctx, int d, int k, const gh_gemm_args *g, gh_gemm_timing *t)
{
    const int explicit_types = g && GH_HAS_MEMBER(g, gh_gemm_args, explicit_types) && g->explicit_types;
    if (d != 0 || k != 0 || !g || g->trans_a || g->trans_b != (FAKE_ARITH == FA_KMAJOR) || g->beta != 0 ||
        (explicit_types && !FA_COMBOS))
        return gh_plugin_set_error(GH_UNSUPPORTED, FAKE_ARITH == FA_KMAJOR
                                                       ? "gemm: the fake runs C = alpha A B^T (nt) on device 0 only"
                                                       : "gemm: the fake runs C = alpha A B on device 0 only");
    if (FAKE_ARITH == FA_KMAJOR && (g->lda % 16 || g->ldb % 16))
        return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: the fake needs rows in whole 16 elements: lda %lld, ldb %lld",
                                   (long long)g->lda, (long long)g->ldb);
    ctx->gemm_calls++;
    if (explicit_types) {
        const gh_type_combo *combo = gh_plugin_find_combo(&fa_kernel, g->dtype, g->b_dtype, g->c_dtype);
        if (!combo)
            return gh_plugin_set_error(GH_UNSUPPORTED, "gemm: the fake has no combination %d x %d -> %d", g->dtype,
                                       g->b_dtype, g->c_dtype);
        if (g->dtype == GH_I8) i8_gemm(g);
        else fp8_gemm(g);
        t->kernel_ms = 1.0;
        t->clock = GH_CLOCK_HOST;
        return GH_OK;
    }
    if (FAKE_ARITH == FA_CRASH_ACC && g->k == 3 && g->m > 4) raise(SIGSEGV);
    if (FAKE_ARITH == FA_HANG && g->dtype == GH_F32 && g->k == 2 && g->m == 2 && g->n == 1)
        for (;;) pause(); /* until the watchdog stops the worker */
    const int backwards = FAKE_ARITH == FA_ORDER_VARIES && ctx->gemm_calls % 2 == 0;
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            double acc = 0;
            uint64_t isum = 0; /* i32: two's complement, as the hardware wraps */
            for (int64_t q = 0; q < g->k; q++) {
                const int64_t p = backwards ? g->k - 1 - q : q;
                const double a = load(g, g->a, g->a_offset + (uint64_t)(i * g->lda + p));
                const double b = load(g, g->b, B_INDEX(g, p, j));
                if (g->dtype == GH_I32) isum += (uint64_t)((int64_t)a * (int64_t)b);
                else acc = step(g, acc, a, b);
            }
            const uint64_t idx = g->c_offset + (uint64_t)(i * g->ldc + j);
            if (g->dtype == GH_I32)
                ((int32_t *)g->c->data)[idx] = (int32_t)(uint32_t)(isum * (uint64_t)(int64_t)g->alpha);
            else store(g, idx, g->alpha * acc);
        }
    t->kernel_ms = 1.0;
    t->clock = GH_CLOCK_HOST;
    return GH_OK;
}
static gh_status fa_sync(gh_plugin *ctx, int d)
{
    (void)ctx;
    return d == 0 ? GH_OK : gh_plugin_set_error(GH_INVALID_ARGUMENT, "synchronize: no device %d", d);
}

static const gh_plugin_api fa_api = {
    .size = sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = GEMMHOST_ABI_MINOR,
    .name = FAKE_NAME,
    .description = "a fake plugin with planted arithmetic, for the probe tests",
    .version = "0",
    .open = fa_open,
    .close = fa_close,
    .last_error = gh_plugin_last_error,
    .device_count = fa_device_count,
    .device_info = fa_device_info,
    .kernel_count = fa_kernel_count,
    .kernel_info = fa_kernel_info,
    .buffer_alloc = fa_alloc,
    .buffer_free = fa_free,
    .upload = fa_upload,
    .download = fa_download,
    .gemm = fa_gemm,
    .synchronize = fa_sync,
    .get_proc = gh_plugin_no_extras,
};
GH_PLUGIN_ENTRY(fa_api)
