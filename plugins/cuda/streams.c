/* Streams, asynchronous 2D copies and GEMMs (ABI minor 1); see streams.h. */
#include "streams.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "cublaslt.h"
#include "devices.h"
#include "errors.h"
#include "gemm.h"

/* Checks the stream and makes its device's context current on this thread. */
static gh_status enter_stream(gh_plugin *ctx, gh_stream *s, const char *what, gh_cuda_device **dev)
{
    if (!ctx) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: no context (NULL)", what);
    if (!s) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the stream is NULL", what);
    if (s->ctx != ctx)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the stream belongs to another context", what);
    return gh_cuda_device_enter(ctx, what, s->device, dev);
}

/* ---- pending times ---- */

/* The next free slot of s->pending, grown when full; with timed, its events
 * exist. The slot is taken only when the caller bumps n_pending, after its
 * work is queued. */
static gh_status next_slot(gh_plugin *ctx, const gh_cuda_device *dev, gh_stream *s, int timed, gh_cuda_pending **out)
{
    *out = NULL;
    if (s->n_pending == s->cap_pending) {
        size_t cap = s->cap_pending ? 2 * s->cap_pending : 16;
        gh_cuda_pending *grown = realloc(s->pending, cap * sizeof *grown);
        if (!grown)
            return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for %zu pending timings on a stream", cap);
        memset(grown + s->cap_pending, 0, (cap - s->cap_pending) * sizeof *grown);
        s->pending = grown;
        s->cap_pending = cap;
    }
    gh_cuda_pending *p = &s->pending[s->n_pending];
    gh_status st = GH_OK;
    if (timed && !p->start)
        st = gh_cu_check(ctx->cu->cuEventCreate(&p->start, CU_EVENT_DEFAULT), "cuEventCreate on device %d", dev->index);
    if (timed && !st && !p->stop)
        st = gh_cu_check(ctx->cu->cuEventCreate(&p->stop, CU_EVENT_DEFAULT), "cuEventCreate on device %d", dev->index);
    if (st) return st;
    p->timed = timed;
    p->ms = NULL;
    p->timing = NULL;
    p->launches = 1;
    p->report = (gh_cuda_report){.split_pieces = 0};
    *out = p;
    return GH_OK;
}

/* Remembers one more queued operation, named for error messages. */
static void note_queued(gh_stream *s, const char *fmt, ...) GH_PLUGIN_PRINTF(2, 3);
static void note_queued(gh_stream *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->last_op, sizeof s->last_op, fmt, ap);
    va_end(ap);
    s->queued++;
}

/* ---- streams ---- */

gh_status gh_cuda_stream_create(gh_plugin *ctx, int device, gh_stream **out)
{
    /* Malformed before beyond the device (plugin.h). */
    if (!out) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "stream_create: out is NULL");
    *out = NULL;
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "stream_create", device, &dev);
    if (st) return st;
    gh_stream *s = calloc(1, sizeof *s);
    if (!s) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "stream_create: out of host memory for a stream");
    /* Non-blocking: no implicit ordering with the legacy NULL stream, so
     * streams of one device overlap. */
    if ((st = gh_cu_check(ctx->cu->cuStreamCreate(&s->stream, CU_STREAM_NON_BLOCKING),
                          "stream_create: cuStreamCreate(CU_STREAM_NON_BLOCKING) on device %d", dev->index))) {
        free(s);
        return st;
    }
    s->ctx = ctx;
    s->device = device;
    GH_CUDA_LIST_ADD(&ctx->streams_lock, ctx->streams, s);
    *out = s;
    return GH_OK;
}

/* Frees s, already off the list. Cleanup can only report, not stop. */
static void release_stream(gh_plugin *ctx, gh_stream *s)
{
    const gh_cu_api *cu = ctx->cu;
    gh_cuda_device *dev = NULL;
    if (gh_cuda_device_enter(ctx, "stream_destroy", s->device, &dev) == GH_OK) {
        gh_cu_check(cu->cuStreamSynchronize(s->stream), "cuStreamSynchronize before destroying a stream on device %d",
                    dev->index);
        gh_cuda_blas_release(ctx, dev, &s->blas);
        gh_cuda_gate_free(cu, &s->gate);
        for (size_t i = 0; i < s->cap_pending; ++i) {
            if (s->pending[i].start)
                gh_cu_check(cu->cuEventDestroy(s->pending[i].start), "cuEventDestroy on device %d", dev->index);
            if (s->pending[i].stop)
                gh_cu_check(cu->cuEventDestroy(s->pending[i].stop), "cuEventDestroy on device %d", dev->index);
        }
        gh_cu_check(cu->cuStreamDestroy(s->stream), "cuStreamDestroy on device %d", dev->index);
    }
    free(s->pending);
    free(s);
}

void gh_cuda_stream_destroy(gh_plugin *ctx, gh_stream *stream)
{
    if (!ctx || !stream) return;
    if (stream->ctx != ctx) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "stream_destroy: the stream belongs to another context");
        return;
    }
    GH_CUDA_LIST_REMOVE(&ctx->streams_lock, ctx->streams, stream);
    release_stream(ctx, stream);
}

void gh_cuda_streams_free_all(gh_plugin *ctx)
{
    while (ctx->streams) {
        gh_stream *s = ctx->streams;
        GH_CUDA_LIST_REMOVE(&ctx->streams_lock, ctx->streams, s);
        release_stream(ctx, s);
    }
}

gh_status gh_cuda_stream_synchronize(gh_plugin *ctx, gh_stream *s)
{
    gh_cuda_device *dev = NULL;
    gh_status st = enter_stream(ctx, s, "stream_synchronize", &dev);
    if (st) return st;
    const gh_cu_api *cu = ctx->cu;
    CUresult r = cu->cuStreamSynchronize(s->stream);
    if (r != CUDA_SUCCESS) {
        /* CUDA does not say which operation failed: name how many there
         * were and the last, and drop their times. */
        if (s->queued)
            st =
                gh_cu_check(r,
                            "stream_synchronize on device %d: work queued on the stream failed (%llu operation%s since "
                            "the last synchronize, the last %s); cuStreamSynchronize",
                            dev->index, s->queued, s->queued == 1 ? "" : "s", s->last_op);
        else
            st = gh_cu_check(r,
                             "stream_synchronize on device %d: nothing was queued since the last synchronize, yet "
                             "the device reports an earlier failure; cuStreamSynchronize",
                             dev->index);
        s->n_pending = 0;
        s->queued = 0;
        s->last_op[0] = '\0';
        return st;
    }
    /* Every time is written; the first event query that fails, if any, is
     * reported. */
    for (size_t i = 0; i < s->n_pending; ++i) {
        gh_cuda_pending *p = &s->pending[i];
        double ms = 0.0;
        if (p->timed) {
            float elapsed = 0.0f;
            gh_status e = gh_cu_check(cu->cuEventElapsedTime(&elapsed, p->start, p->stop),
                                      "stream_synchronize on device %d: cuEventElapsedTime", dev->index);
            if (e == GH_OK) ms = elapsed;
            else if (st == GH_OK) st = e;
        }
        if (p->ms) *p->ms = ms;
        gh_cuda_report_write(p->timing, ms / p->launches, &p->report);
    }
    s->n_pending = 0;
    s->queued = 0;
    s->last_op[0] = '\0';
    return st;
}

/* ---- copies ---- */

/* One 2D copy between host memory and a buffer, either way. */
typedef struct copy_2d {
    int upload;
    gh_buffer *buf;
    uint64_t offset, pitch; /* in the buffer, bytes */
    void *host;
    uint64_t host_pitch, width, rows;
} copy_2d;

static gh_status enqueue_copy(gh_plugin *ctx, const gh_cuda_device *dev, gh_stream *s, const copy_2d *c,
                              const char *what)
{
    const gh_cu_api *cu = ctx->cu;
    CUdeviceptr d = c->buf->ptr + c->offset;
    /* Contiguous on both sides (or one row): one plain copy. */
    if (c->rows == 1 || (c->pitch == c->width && c->host_pitch == c->width)) {
        size_t bytes = (size_t)(c->rows * c->width);
        CUresult r = c->upload ? cu->cuMemcpyHtoDAsync(d, c->host, bytes, s->stream)
                               : cu->cuMemcpyDtoHAsync(c->host, d, bytes, s->stream);
        return gh_cu_check(r, "%s: %s(%zu bytes) on device %d", what,
                           c->upload ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync", bytes, dev->index);
    }
    /* cuMemcpy2D takes pitches up to CU_DEVICE_ATTRIBUTE_MAX_PITCH; past
     * that, one copy per row. */
    if (c->pitch <= (uint64_t)dev->max_pitch && c->host_pitch <= (uint64_t)dev->max_pitch) {
        CUDA_MEMCPY2D m;
        memset(&m, 0, sizeof m);
        if (c->upload) {
            m.srcMemoryType = CU_MEMORYTYPE_HOST;
            m.srcHost = c->host;
            m.srcPitch = (size_t)c->host_pitch;
            m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
            m.dstDevice = d;
            m.dstPitch = (size_t)c->pitch;
        } else {
            m.srcMemoryType = CU_MEMORYTYPE_DEVICE;
            m.srcDevice = d;
            m.srcPitch = (size_t)c->pitch;
            m.dstMemoryType = CU_MEMORYTYPE_HOST;
            m.dstHost = c->host;
            m.dstPitch = (size_t)c->host_pitch;
        }
        m.WidthInBytes = (size_t)c->width;
        m.Height = (size_t)c->rows;
        return gh_cu_check(
            cu->cuMemcpy2DAsync(&m, s->stream),
            "%s: cuMemcpy2DAsync(%llu rows of %llu bytes, device pitch %llu, host pitch %llu) on device %d", what,
            (unsigned long long)c->rows, (unsigned long long)c->width, (unsigned long long)c->pitch,
            (unsigned long long)c->host_pitch, dev->index);
    }
    for (uint64_t row = 0; row < c->rows; ++row) {
        CUdeviceptr dr = d + row * c->pitch;
        unsigned char *hr = (unsigned char *)c->host + row * c->host_pitch;
        CUresult r = c->upload ? cu->cuMemcpyHtoDAsync(dr, hr, (size_t)c->width, s->stream)
                               : cu->cuMemcpyDtoHAsync(hr, dr, (size_t)c->width, s->stream);
        gh_status st =
            gh_cu_check(r, "%s: row %llu of %llu (pitch over CU_DEVICE_ATTRIBUTE_MAX_PITCH %d) on device %d", what,
                        (unsigned long long)row, (unsigned long long)c->rows, dev->max_pitch, dev->index);
        if (st) return st;
    }
    return GH_OK;
}

static gh_status queue_copy(gh_plugin *ctx, gh_stream *s, const copy_2d *c, double *elapsed_ms)
{
    const char *what = c->upload ? "upload_2d_async" : "download_2d_async";
    gh_cuda_device *dev = NULL;
    gh_status st = enter_stream(ctx, s, what, &dev);
    if (st) return st;
    if ((st = gh_plugin_check_copy_2d(what, c->buf, gh_cuda_extent, c->offset, c->pitch, c->host, c->host_pitch,
                                      c->width, c->rows)))
        return st;
    if (c->buf->device != s->device)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the buffer is on device %d, the stream on device %d", what,
                                   c->buf->device, s->device);
    if (c->width == 0 || c->rows == 0) {
        /* Nothing to copy; its time is 0, written at synchronize like any. */
        gh_cuda_pending *p = NULL;
        if (elapsed_ms && (st = next_slot(ctx, dev, s, 0, &p))) return st;
        if (p) {
            p->ms = elapsed_ms;
            s->n_pending++;
        }
        return GH_OK;
    }
    /* The host side's last byte, checked for overflow. */
    uint64_t host_end = 0;
    if (__builtin_mul_overflow(c->rows - 1, c->host_pitch, &host_end) ||
        __builtin_add_overflow(host_end, c->width, &host_end) || host_end > UINTPTR_MAX - (uintptr_t)c->host)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: %llu rows with host pitch %llu overflow the address space",
                                   what, (unsigned long long)c->rows, (unsigned long long)c->host_pitch);

    gh_cuda_pending *p = NULL;
    if (elapsed_ms && (st = next_slot(ctx, dev, s, 1, &p))) return st;
    if ((st = gh_cuda_record(ctx, dev, p ? p->start : NULL, s->stream)) || (st = enqueue_copy(ctx, dev, s, c, what)) ||
        (st = gh_cuda_record(ctx, dev, p ? p->stop : NULL, s->stream)))
        return st;
    if (p) {
        p->ms = elapsed_ms;
        s->n_pending++;
    }
    note_queued(s, "%s of %llu rows of %llu bytes", what, (unsigned long long)c->rows, (unsigned long long)c->width);
    return GH_OK;
}

gh_status gh_cuda_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                                  const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows,
                                  double *elapsed_ms)
{
    copy_2d c = {1, dst, offset, pitch, (void *)(uintptr_t)src, src_pitch, width, rows};
    return queue_copy(ctx, stream, &c, elapsed_ms);
}

gh_status gh_cuda_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                    void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms)
{
    copy_2d c = {0, src, offset, pitch, dst, dst_pitch, width, rows};
    return queue_copy(ctx, stream, &c, elapsed_ms);
}

/* ---- GEMM ---- */

/* The n launches of a batch captured into a CUDA graph and replayed once
 * between t's events, the stream held by the gate while the host launches
 * it: the kernels then follow each other as in any graph replay, with no
 * launch gap of the stream's own between them. The kernel is compiled (or
 * cuBLASLt's algorithm chosen) before the capture, which allows no waiting. */
static gh_status queue_graph(gh_plugin *ctx, gh_cuda_device *dev, gh_stream *s, int kernel, const gh_gemm_args *args,
                             const gh_cuda_variant *v, unsigned n, const gh_cuda_timed *t, gh_cuda_report *report)
{
    const gh_cu_api *cu = ctx->cu;
    const gh_cuda_timed prepare = {.gate = &s->gate, .prepare_only = 1}, inside = {.launches = n, .captured = 1};
    gh_status st = gh_cuda_gemm_enqueue(ctx, dev, kernel, args, v, s->stream, &s->blas, &prepare, report);
    if (st) return st;
    CUgraph graph = NULL;
    CUgraphExec exec = NULL;
    if ((st = gh_cu_check(cu->cuStreamBeginCapture(s->stream, CU_STREAM_CAPTURE_MODE_RELAXED),
                          "gemm_batch_async: cuStreamBeginCapture on device %d", dev->index)))
        return st;
    st = gh_cuda_gemm_enqueue(ctx, dev, kernel, args, v, s->stream, &s->blas, &inside, report);
    /* the capture ends on every path, or the stream stays in it */
    gh_status ended = gh_cu_check(cu->cuStreamEndCapture(s->stream, &graph),
                                  "gemm_batch_async: cuStreamEndCapture on device %d", dev->index);
    if (st == GH_OK) st = ended;
    if (st == GH_OK)
        st = gh_cu_check(cu->cuGraphInstantiateWithFlags(&exec, graph, 0),
                         "gemm_batch_async: cuGraphInstantiateWithFlags (%u launches) on device %d", n, dev->index);
    if (st == GH_OK && (st = gh_cuda_timed_begin(cu, dev->index, t, s->stream)) == GH_OK &&
        (st = gh_cu_check(cu->cuGraphLaunch(exec, s->stream), "gemm_batch_async: cuGraphLaunch on device %d",
                          dev->index)) == GH_OK)
        st = gh_cuda_timed_end(cu, dev->index, t, s->stream);
    /* freed once the queued replay is done (CUDA's rule for both) */
    if (exec) gh_cu_check(cu->cuGraphExecDestroy(exec), "cuGraphExecDestroy on device %d", dev->index);
    if (graph) gh_cu_check(cu->cuGraphDestroy(graph), "cuGraphDestroy on device %d", dev->index);
    if (st == GH_OK && report) {
        const size_t used = strlen(report->note);
        snprintf(report->note + used, sizeof report->note - used, "%s%u launches replayed from one CUDA graph",
                 used ? "; " : "", n);
    }
    return st;
}

/* Queues `launches` runs of a GEMM on s, timed into timing when it is not
 * NULL; gated: the stream held until all are queued (see gemm_batch_async). */
static gh_status queue_gemm(gh_plugin *ctx, gh_stream *s, const char *call, int kernel, const gh_gemm_args *args,
                            unsigned launches, int gated, gh_gemm_timing *timing)
{
    gh_cuda_device *dev = NULL;
    gh_cuda_variant v;
    gh_status st = enter_stream(ctx, s, call, &dev);
    if (st || (st = gh_cuda_gemm_check(ctx, call, s->device, kernel, args, &v))) return st;
    gh_cuda_pending *p = NULL;
    if (timing && (st = next_slot(ctx, dev, s, 1, &p))) return st;
    gh_cuda_report unreported;
    const gh_cuda_timed timed = {p ? p->start : NULL, p ? p->stop : NULL, p && gated ? &s->gate : NULL, launches, 0, 0};
    gh_cuda_report *report = p ? &p->report : &unreported;
    st = launches > 1 ? queue_graph(ctx, dev, s, kernel, args, &v, launches, &timed, report)
                      : gh_cuda_gemm_enqueue(ctx, dev, kernel, args, &v, s->stream, &s->blas, &timed, report);
    gh_cuda_gate_open(&s->gate); /* on every path: the stream must not wait for a host that has moved on */
    if (st) return st;
    if (p) {
        p->timing = timing;
        p->launches = launches;
        s->n_pending++;
    }
    note_queued(s, "%s %s %s%s %lldx%lldx%lld%s", call, gh_cuda_kernel_infos[kernel].name,
                gh_plugin_dtype_name(args->dtype),
                args->trans_a ? (args->trans_b ? " tt" : " tn") : (args->trans_b ? " nt" : " nn"), (long long)args->m,
                (long long)args->n, (long long)args->k, launches > 1 ? " (a batch)" : "");
    return GH_OK;
}

gh_status gh_cuda_gemm_async(gh_plugin *ctx, gh_stream *s, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing)
{
    return queue_gemm(ctx, s, "gemm_async", kernel, args, 1, 0, timing);
}

/* n > 1: the launches replayed from one CUDA graph (queue_graph), as a
 * PyTorch user captures small GEMMs; no host work of cuBLASLt or
 * cuLaunchKernel falls between the events. */
gh_status gh_cuda_gemm_batch_async(gh_plugin *ctx, gh_stream *s, int kernel, const gh_gemm_args *args, uint32_t n,
                                   gh_gemm_timing *timing)
{
    if (n == 0) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "gemm_batch_async: n is 0 (at least one launch)");
    return queue_gemm(ctx, s, "gemm_batch_async", kernel, args, n, 1, timing);
}
