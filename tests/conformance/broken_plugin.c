/* A small plugin that breaks one rule of plugin.h, chosen at build time with
 * BROKEN (0: none), so that the conformance suite is seen to catch each one.
 * Its one device is host memory, its one kernel a plain loop with an
 * `unroll` parameter (1, 2 or 4, ignored), every dtype; minor-1 calls run at
 * once (allowed: the results are there at stream_synchronize). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "gemmhost/fp8.h"
#include "gemmhost/half.h"
#include "gemmhost/plugin_helpers.h"

#define BROKEN_NONE              0
#define BROKEN_READS_C           1  /* reads C when beta is 0 */
#define BROKEN_WRITES_PAST_C     2  /* writes the element after each row of C */
#define BROKEN_WRITES_A          3  /* writes into A's buffer */
#define BROKEN_WRONG_STATUS      4  /* a too small ld is GH_ERROR */
#define BROKEN_SHARED_ERROR      5  /* one error text for every thread */
#define BROKEN_SHORT_PARAMS      6  /* n_params short of the kernel's: defaults filled in */
#define BROKEN_PARTIAL_STREAMS   7  /* two of the six stream members */
#define BROKEN_NO_DEVICE         8  /* no device (correct: the suite exits 77) */
#define BROKEN_CRASH             9  /* crashes on a NULL option value */
#define BROKEN_OLD_MINOR_IGNORED 10 /* answers minor 1 to a host offering 1.0 */
#define BROKEN_TF32_UNDECLARED   11 /* multiplies f32 in TF32 and declares nothing */
#define BROKEN_TF32_DECLARED     12 /* multiplies f32 in TF32 and declares it (correct) */
#define BROKEN_BAD_PRECISION     13 /* declares a precision for a dtype it does not have */
#define BROKEN_MINOR4            14 /* a plugin of ABI 1.4: no combinations (correct: the suite passes it) */
#define BROKEN_COMBO_DUPLICATE   15 /* lists one (A, B, C) twice */
#define BROKEN_COMBO_NO_SCALE    16 /* its 8-bit combinations ignore scale_c */
#define BROKEN_BATCH_ZERO        17 /* gemm_batch_async (ABI 1.6) takes n = 0 */
#define BROKEN_BATCH_NO_TIMING   18 /* gemm_batch_async writes no timing */

#ifndef BROKEN
#define BROKEN BROKEN_NONE
#endif

/* ---- errors ---- */

#if BROKEN == BROKEN_SHARED_ERROR
static char shared_text[512];
/* Copies the thread's text where every thread reads it. */
static void share(void)
{
    const char *text = gh_plugin_last_error(NULL);
    size_t n = strlen(text) < sizeof shared_text ? strlen(text) : sizeof shared_text - 1;
    memcpy(shared_text, text, n);
    shared_text[n] = '\0';
}
static gh_status fail(gh_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gh_plugin_vset_error(status, fmt, ap);
    va_end(ap);
    share();
    return status;
}
static const char *broken_last_error(gh_plugin *ctx)
{
    (void)ctx;
    return shared_text;
}
#else
#define fail              gh_plugin_set_error
#define broken_last_error gh_plugin_last_error
#endif

/* A helper's refusal, its text also where this plugin's last_error reads. */
static gh_status checked(gh_status s)
{
#if BROKEN == BROKEN_SHARED_ERROR
    if (s != GH_OK) share();
#endif
    return s;
}

/* ---- static data ---- */

static const gh_option_info options[] = {{sizeof(gh_option_info), "verbose", "ignored", "0"}};
static const int64_t unrolls[] = {1, 2, 4};
static const gh_param_info params[] = {
    {sizeof(gh_param_info), "unroll", "ignored", 1, unrolls, 3, 0, 0},
};
#if BROKEN == BROKEN_TF32_DECLARED
static const gh_kernel_precision precisions[] = {{sizeof(gh_kernel_precision), GH_F32, GH_PREC_TF32, GH_PREC_F32}};
#define PRECISIONS precisions, 1
#elif BROKEN == BROKEN_BAD_PRECISION
static const gh_kernel_precision precisions[] = {{sizeof(gh_kernel_precision), GH_F16, GH_PREC_AS_STORED, GH_PREC_F32}};
#define PRECISIONS precisions, 1
#else
#define PRECISIONS NULL, 0
#endif
#if BROKEN == BROKEN_MINOR4
static const gh_kernel_info kernel = {
    offsetof(gh_kernel_info, combos), "loop", "a plain triple loop", 7u, params, 1, PRECISIONS, NULL, 0};
#else
/* ABI 1.5: 8-bit combinations, summed in f64 (declared f32: within its bound) */
static const gh_type_combo combos[] = {
    {sizeof(gh_type_combo), GH_E4M3, GH_E5M2, GH_F32, GH_PREC_AS_STORED, GH_PREC_F32, 0, 0},
    {sizeof(gh_type_combo), GH_E4M3, GH_E4M3, GH_F16, GH_PREC_AS_STORED, GH_PREC_F32, 0, 0},
    {sizeof(gh_type_combo), GH_I8, GH_I8, GH_I32, GH_PREC_AS_STORED, GH_PREC_AS_STORED, 0, 0},
    {sizeof(gh_type_combo), GH_E4M3, BROKEN == BROKEN_COMBO_DUPLICATE ? GH_E5M2 : GH_E4M3,
     BROKEN == BROKEN_COMBO_DUPLICATE ? GH_F32 : GH_BF16, GH_PREC_AS_STORED, GH_PREC_F32, 0, 0},
};
static const gh_kernel_info kernel = {
    sizeof(gh_kernel_info), "loop", "a plain triple loop", 7u, params, 1, PRECISIONS, combos, 4};
#endif

struct gh_plugin {
    gh_device_info info;
};
struct gh_buffer {
    uint64_t bytes;
    unsigned char *data;
};
struct gh_stream {
    int device;
};

static const char *const no_device_reason = "the broken plugin was built without a device";
static int device_count(gh_plugin *ctx)
{
    (void)ctx;
    if (BROKEN == BROKEN_NO_DEVICE) {
        fail(GH_NO_DEVICE, "%s", no_device_reason);
        return 0;
    }
    return 1;
}

static gh_status check_device(const char *call, int device)
{
    return checked(gh_plugin_check_device(call, device, device_count(NULL), no_device_reason));
}

static gh_status broken_open(const gh_option_value *values, size_t n, gh_plugin **out)
{
    if (BROKEN == BROKEN_CRASH && n && values && !values[0].value) raise(SIGSEGV);
    const char *settings[1];
    gh_status s = checked(gh_plugin_read_options("broken", options, 1, values, n, settings));
    if (s != GH_OK) return s;
    if (!out) return fail(GH_INVALID_ARGUMENT, "open: out is NULL");
    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return fail(GH_OUT_OF_MEMORY, "open: out of memory");
    ctx->info =
        (gh_device_info){sizeof(gh_device_info), "broken device", "nobody", "0", "C", "", 1u << 30, 0, 1, 0, 1, 1, ""};
    *out = ctx;
    return GH_OK;
}

static void broken_close(gh_plugin *ctx)
{
    free(ctx);
}
static const gh_device_info *device_info(gh_plugin *ctx, int d)
{
    return d == 0 && device_count(ctx) ? &ctx->info : NULL;
}
static int kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return 1;
}
static const gh_kernel_info *kernel_info(gh_plugin *ctx, int k)
{
    (void)ctx;
    return k == 0 ? &kernel : NULL;
}

/* ---- buffers ---- */

static gh_plugin_extent extent(const gh_buffer *b)
{
    return (gh_plugin_extent){b->bytes, 0};
}

static gh_status buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    (void)ctx;
    gh_status s = check_device("buffer_alloc", device);
    if (s != GH_OK) return s;
    if (!out || !bytes) return fail(GH_INVALID_ARGUMENT, "buffer_alloc: out NULL or 0 bytes");
    gh_buffer *b = calloc(1, sizeof *b);
    if (b && bytes <= SIZE_MAX) b->data = malloc((size_t)bytes);
    if (!b || !b->data) {
        free(b);
        return fail(GH_OUT_OF_MEMORY, "buffer_alloc: no %llu bytes", (unsigned long long)bytes);
    }
    b->bytes = bytes;
    *out = b;
    return GH_OK;
}

static void buffer_free(gh_plugin *ctx, gh_buffer *b)
{
    (void)ctx;
    if (b) free(b->data);
    free(b);
}

static gh_status upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    (void)ctx;
    gh_status s = checked(gh_plugin_check_copy("upload", dst, extent, offset, src, bytes));
    if (s == GH_OK && bytes) memcpy(dst->data + offset, src, bytes);
    return s;
}

static gh_status download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    (void)ctx;
    gh_status s = checked(gh_plugin_check_copy("download", src, extent, offset, dst, bytes));
    if (s == GH_OK && bytes) memcpy(dst, src->data + offset, bytes);
    return s;
}

/* ---- gemm ---- */

static double get(gh_dtype d, const gh_buffer *b, uint64_t i)
{
    const int tf32 = BROKEN == BROKEN_TF32_UNDECLARED || BROKEN == BROKEN_TF32_DECLARED;
    switch (d) {
    case GH_F32: return tf32 ? gh_round_to_tf32(((const float *)b->data)[i]) : ((const float *)b->data)[i];
    case GH_F64: return ((const double *)b->data)[i];
    case GH_F16: return gh_f16_to_f64(((const uint16_t *)b->data)[i]);
    case GH_BF16: return gh_bf16_to_f64(((const uint16_t *)b->data)[i]);
    case GH_E4M3: return gh_e4m3_to_f64(b->data[i]);
    case GH_E5M2: return gh_e5m2_to_f64(b->data[i]);
    case GH_I8: return (int8_t)b->data[i];
    default: return ((const int32_t *)b->data)[i];
    }
}

static void put(gh_dtype d, gh_buffer *b, uint64_t i, double v)
{
    switch (d) {
    case GH_F32: ((float *)b->data)[i] = (float)v; break;
    case GH_F64: ((double *)b->data)[i] = v; break;
    case GH_F16: ((uint16_t *)b->data)[i] = gh_f64_to_f16(v); break;
    case GH_BF16: ((uint16_t *)b->data)[i] = gh_f64_to_bf16(v); break;
    default: ((int32_t *)b->data)[i] = (int32_t)v; break;
    }
}

static gh_status check_gemm(gh_plugin *ctx, const char *call, int device, int k, const gh_gemm_args *g)
{
    gh_status s = check_device(call, device);
    if (s == GH_OK) s = checked(gh_plugin_check_index(call, "kernel", k, 1));
    if (s != GH_OK) return s;
    if (BROKEN == BROKEN_WRONG_STATUS && g && g->ldc < g->n) return fail(GH_ERROR, "%s: ldc too small", call);
    gh_gemm_args copy;
    if (BROKEN == BROKEN_SHORT_PARAMS && g && GH_HAS_MEMBER(g, gh_gemm_args, n_params) && g->n_params == 0) {
        static const int64_t defaults[] = {1};
        copy = *g;
        copy.params = defaults;
        copy.n_params = 1;
        g = &copy;
    }
    const gh_plugin_gemm_target t = {device, &ctx->info, &kernel, 0, extent};
    return checked(gh_plugin_check_gemm(call, g, &t));
}

static gh_status gemm(gh_plugin *ctx, int device, int k, const gh_gemm_args *g, gh_gemm_timing *timing)
{
    gh_status s = check_gemm(ctx, "gemm", device, k, g);
    if (s != GH_OK) return s;
    const gh_plugin_gemm_types ty = gh_plugin_gemm_types_of(g);
    const double scale_ab = ty.scale_a * ty.scale_b, scale_c = BROKEN == BROKEN_COMBO_NO_SCALE ? 1.0 : ty.scale_c;
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++) {
            double acc = 0;
            for (int64_t p = 0; p < g->k; p++)
                acc += get(ty.a, g->a, g->a_offset + (uint64_t)(g->trans_a ? p * g->lda + i : i * g->lda + p)) *
                       get(ty.b, g->b, g->b_offset + (uint64_t)(g->trans_b ? j * g->ldb + p : p * g->ldb + j));
            const uint64_t at = g->c_offset + (uint64_t)(i * g->ldc + j);
            double out = g->alpha * scale_ab * acc;
            if (g->beta != 0 || BROKEN == BROKEN_READS_C) out += g->beta * get(ty.c, g->c, at);
            put(ty.c, g->c, at, scale_c * out);
            if (BROKEN == BROKEN_WRITES_PAST_C && j == g->n - 1 && g->ldc > g->n) put(ty.c, g->c, at + 1, 42);
        }
    if (BROKEN == BROKEN_WRITES_A) put(ty.a, g->a, 0, 42);
    if (GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms)) timing->kernel_ms = 0;
    if (GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) timing->clock = GH_CLOCK_HOST;
    return GH_OK;
}

static gh_status synchronize(gh_plugin *ctx, int device)
{
    (void)ctx;
    return check_device("synchronize", device);
}

/* ---- minor 1, run at once ---- */

#if BROKEN == BROKEN_PARTIAL_STREAMS
#define MAYBE_UNUSED __attribute__((unused))
#else
#define MAYBE_UNUSED
#endif

static gh_status stream_create(gh_plugin *ctx, int device, gh_stream **out)
{
    (void)ctx;
    gh_status s = check_device("stream_create", device);
    if (s != GH_OK) return s;
    if (!out) return fail(GH_INVALID_ARGUMENT, "stream_create: out is NULL");
    *out = calloc(1, sizeof **out);
    return *out ? GH_OK : fail(GH_OUT_OF_MEMORY, "stream_create: out of memory");
}

static void stream_destroy(gh_plugin *ctx, gh_stream *s)
{
    (void)ctx;
    free(s);
}

static gh_status copy_2d(const char *call, gh_stream *s, gh_buffer *buf, uint64_t offset, uint64_t pitch,
                         unsigned char *host, uint64_t host_pitch, uint64_t width, uint64_t rows, int up,
                         double *elapsed_ms)
{
    if (!s) return fail(GH_INVALID_ARGUMENT, "%s: the stream is NULL", call);
    gh_status st = checked(gh_plugin_check_copy_2d(call, buf, extent, offset, pitch, host, host_pitch, width, rows));
    if (st != GH_OK) return st;
    for (uint64_t r = 0; r < rows && width; r++) {
        unsigned char *dev = buf->data + offset + r * pitch, *h = host + r * host_pitch;
        memcpy(up ? dev : h, up ? h : dev, width);
    }
    if (elapsed_ms) *elapsed_ms = 0;
    return GH_OK;
}

MAYBE_UNUSED static gh_status upload_2d_async(gh_plugin *ctx, gh_stream *s, gh_buffer *dst, uint64_t offset,
                                              uint64_t pitch, const void *src, uint64_t src_pitch, uint64_t width,
                                              uint64_t rows, double *ms)
{
    (void)ctx;
    return copy_2d("upload_2d_async", s, dst, offset, pitch, (unsigned char *)src, src_pitch, width, rows, 1, ms);
}

MAYBE_UNUSED static gh_status download_2d_async(gh_plugin *ctx, gh_stream *s, gh_buffer *src, uint64_t offset,
                                                uint64_t pitch, void *dst, uint64_t dst_pitch, uint64_t width,
                                                uint64_t rows, double *ms)
{
    (void)ctx;
    return copy_2d("download_2d_async", s, src, offset, pitch, dst, dst_pitch, width, rows, 0, ms);
}

MAYBE_UNUSED static gh_status gemm_async(gh_plugin *ctx, gh_stream *s, int k, const gh_gemm_args *g,
                                         gh_gemm_timing *timing)
{
    if (!s) return fail(GH_INVALID_ARGUMENT, "gemm_async: the stream is NULL");
    return gemm(ctx, s->device, k, g, timing);
}

/* ABI minor 6: the n launches at once, one timing. */
MAYBE_UNUSED static gh_status gemm_batch_async(gh_plugin *ctx, gh_stream *s, int k, const gh_gemm_args *g, uint32_t n,
                                               gh_gemm_timing *timing)
{
    if (!s) return fail(GH_INVALID_ARGUMENT, "gemm_batch_async: the stream is NULL");
    if (n == 0 && BROKEN != BROKEN_BATCH_ZERO) return fail(GH_INVALID_ARGUMENT, "gemm_batch_async: n is 0");
    gh_gemm_timing one = {.size = sizeof one};
    for (uint32_t i = 0; i < n; i++) {
        gh_status st = gemm(ctx, s->device, k, g, &one);
        if (st != GH_OK) return st;
    }
    /* the loops are not timed: a nominal time, > 0 as minor 6 asks */
    if (BROKEN != BROKEN_BATCH_NO_TIMING && timing && GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) {
        timing->kernel_ms = 1e-3;
        timing->clock = GH_CLOCK_HOST;
    }
    return GH_OK;
}

MAYBE_UNUSED static gh_status stream_synchronize(gh_plugin *ctx, gh_stream *s)
{
    (void)ctx;
    return s ? GH_OK : fail(GH_INVALID_ARGUMENT, "stream_synchronize: the stream is NULL");
}

static gh_status host_alloc(gh_plugin *ctx, uint64_t bytes, void **out)
{
    (void)ctx;
    if (!out || !bytes) return fail(GH_INVALID_ARGUMENT, "host_alloc: out NULL or 0 bytes");
    *out = bytes <= SIZE_MAX ? malloc((size_t)bytes) : NULL;
    return *out ? GH_OK : fail(GH_OUT_OF_MEMORY, "host_alloc: no %llu bytes", (unsigned long long)bytes);
}

static void host_free(gh_plugin *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static const gh_plugin_api api = {
    .size = sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = BROKEN == BROKEN_MINOR4 ? 4 : GEMMHOST_ABI_MINOR,
    .name = "broken",
    .description = "breaks one rule of plugin.h (tests/conformance)",
    .version = "0",
    .options = options,
    .n_options = 1,
    .open = broken_open,
    .close = broken_close,
    .last_error = broken_last_error,
    .device_count = device_count,
    .device_info = device_info,
    .kernel_count = kernel_count,
    .kernel_info = kernel_info,
    .buffer_alloc = buffer_alloc,
    .buffer_free = buffer_free,
    .upload = upload,
    .download = download,
    .gemm = gemm,
    .synchronize = synchronize,
    .get_proc = NULL,
    .stream_create = stream_create,
    .stream_destroy = stream_destroy,
#if BROKEN != BROKEN_PARTIAL_STREAMS
    .upload_2d_async = upload_2d_async,
    .download_2d_async = download_2d_async,
    .gemm_async = gemm_async,
    .stream_synchronize = stream_synchronize,
#endif
    .host_alloc = host_alloc,
    .host_free = host_free,
#if BROKEN != BROKEN_PARTIAL_STREAMS /* minor4 sets it too: a host reads it only at minor 6 */
    .gemm_batch_async = gemm_batch_async,
#endif
};

#if BROKEN == BROKEN_OLD_MINOR_IGNORED
GH_PLUGIN_DEFINE_ERROR_TEXT;
GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *req)
{
    gh_status s = gh_plugin_negotiate(req, &api);
    if (s == GH_OK) req->abi_minor = GEMMHOST_ABI_MINOR; /* whatever the host offered */
    return s;
}
#else
GH_PLUGIN_ENTRY(api)
#endif
