/* ABI minor 1 streams of the C plugin; see streams.h. */
#include "streams.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "gemm.h"

enum { MAX_QUEUED_PARAMS = 8 };

typedef enum op_kind { OP_UPLOAD_2D, OP_DOWNLOAD_2D, OP_GEMM, OP_GEMM_BATCH } op_kind;

typedef struct copy_2d {
    gh_buffer *buf;
    uint64_t offset, pitch; /* in the buffer, bytes */
    unsigned char *host;    /* source of an upload, destination of a download */
    uint64_t host_pitch, width, rows;
} copy_2d;

typedef struct queued_op {
    op_kind kind;
    copy_2d copy;
    double *elapsed_ms;
    int kernel;
    gh_gemm_args args; /* params point into `params` below */
    int64_t params[MAX_QUEUED_PARAMS];
    gh_gemm_timing *timing;
    uint32_t launches; /* OP_GEMM_BATCH: how many */
} queued_op;

struct gh_stream {
    gh_plugin *ctx;
    int device;
    queued_op *ops;
    size_t n_ops, cap;
};

gh_status cpu_stream_create(gh_plugin *ctx, int device, gh_stream **out)
{
    gh_status status = gh_plugin_check_device("stream_create", device, DEVICE_COUNT, NULL);
    if (status != GH_OK) return status;
    if (!out) return fail(GH_INVALID_ARGUMENT, "stream_create: out is NULL");
    gh_stream *s = calloc(1, sizeof *s);
    if (!s) return fail(GH_OUT_OF_MEMORY, "out of host memory for a stream");
    s->ctx = ctx;
    s->device = device;
    *out = s;
    return GH_OK;
}

/* Work still queued is dropped: the host synchronizes first when it wants it. */
void cpu_stream_destroy(gh_plugin *ctx, gh_stream *stream)
{
    (void)ctx;
    if (stream) free(stream->ops);
    free(stream);
}

static gh_status enqueue(gh_stream *stream, const queued_op *op)
{
    if (stream->n_ops == stream->cap) {
        size_t cap = stream->cap ? 2 * stream->cap : 16;
        queued_op *ops = realloc(stream->ops, cap * sizeof *ops);
        if (!ops) return fail(GH_OUT_OF_MEMORY, "out of host memory queueing work on a stream");
        stream->ops = ops;
        stream->cap = cap;
    }
    stream->ops[stream->n_ops++] = *op;
    return GH_OK;
}

static gh_status queue_copy(gh_stream *stream, op_kind kind, const copy_2d *c, double *elapsed_ms)
{
    const char *call = kind == OP_UPLOAD_2D ? "upload_2d_async" : "download_2d_async";
    if (!stream) return fail(GH_INVALID_ARGUMENT, "%s: the stream is NULL", call);
    gh_status s = gh_plugin_check_copy_2d(call, c->buf, cpu_extent, c->offset, c->pitch, c->host, c->host_pitch,
                                          c->width, c->rows);
    if (s != GH_OK) return s;
    queued_op op = {.kind = kind, .copy = *c, .elapsed_ms = elapsed_ms};
    return enqueue(stream, &op);
}

gh_status cpu_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                              const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows, double *elapsed_ms)
{
    (void)ctx;
    copy_2d c = {dst, offset, pitch, (unsigned char *)src, src_pitch, width, rows};
    return queue_copy(stream, OP_UPLOAD_2D, &c, elapsed_ms);
}

gh_status cpu_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms)
{
    (void)ctx;
    copy_2d c = {src, offset, pitch, dst, dst_pitch, width, rows};
    return queue_copy(stream, OP_DOWNLOAD_2D, &c, elapsed_ms);
}

/* Arguments are checked now, so a bad call fails where it was made. */
static gh_status queue_gemm(gh_plugin *ctx, const char *call, gh_stream *stream, int kernel, const gh_gemm_args *args,
                            uint32_t launches, gh_gemm_timing *timing)
{
    if (!stream) return fail(GH_INVALID_ARGUMENT, "%s: the stream is NULL", call);
    gh_status s = cpu_check_gemm(ctx, call, stream->device, kernel, args);
    if (s != GH_OK) return s;
    if (args->n_params > MAX_QUEUED_PARAMS)
        return fail(GH_INVALID_ARGUMENT, "%s: %zu parameters, at most %d", call, args->n_params, MAX_QUEUED_PARAMS);
    queued_op op = {.kind = launches ? OP_GEMM_BATCH : OP_GEMM,
                    .kernel = kernel,
                    .args = *args,
                    .timing = timing,
                    .launches = launches};
    for (size_t p = 0; p < args->n_params; p++) op.params[p] = args->params[p];
    op.args.params = NULL; /* pointed at op's own copy once it sits in the queue */
    return enqueue(stream, &op);
}

gh_status cpu_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                         gh_gemm_timing *timing)
{
    return queue_gemm(ctx, "gemm_async", stream, kernel, args, 0, timing);
}

/* ABI minor 6: one queued op for the n launches; their mean at the sync. */
gh_status cpu_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                               gh_gemm_timing *timing)
{
    if (n == 0) return fail(GH_INVALID_ARGUMENT, "gemm_batch_async: n is 0 (a batch has at least one launch)");
    return queue_gemm(ctx, "gemm_batch_async", stream, kernel, args, n, timing);
}

static void run_copy_2d(const copy_2d *c, int upload)
{
    for (uint64_t r = 0; r < c->rows; r++) {
        unsigned char *dev = c->buf->data + c->offset + r * c->pitch;
        unsigned char *host = c->host + r * c->host_pitch;
        if (upload) memcpy(dev, host, c->width);
        else memcpy(host, dev, c->width);
    }
}

/* The launches of a batch, one after another; the timing their mean. */
static gh_status run_batch(gh_stream *stream, const queued_op *op)
{
    double total_ms = 0;
    for (uint32_t i = 0; i < op->launches; i++) {
        gh_gemm_timing one = {.size = sizeof one};
        gh_status s = cpu_gemm(stream->ctx, stream->device, op->kernel, &op->args, &one);
        if (s != GH_OK) return s;
        total_ms += one.kernel_ms;
    }
    gh_gemm_timing *t = op->timing;
    if (t && GH_HAS_MEMBER(t, gh_gemm_timing, kernel_ms)) t->kernel_ms = total_ms / op->launches;
    if (t && GH_HAS_MEMBER(t, gh_gemm_timing, clock)) t->clock = GH_CLOCK_DEVICE;
    if (t && GH_HAS_MEMBER(t, gh_gemm_timing, note))
        snprintf(t->note, sizeof t->note, "%u launches in one call", op->launches);
    return GH_OK;
}

static gh_status run_op(gh_stream *stream, queued_op *op)
{
    if (op->kind == OP_GEMM || op->kind == OP_GEMM_BATCH) {
        op->args.params = op->params;
        if (op->kind == OP_GEMM_BATCH) return run_batch(stream, op);
        return cpu_gemm(stream->ctx, stream->device, op->kernel, &op->args, op->timing);
    }
    double start = cpu_now_ms();
    run_copy_2d(&op->copy, op->kind == OP_UPLOAD_2D);
    if (op->elapsed_ms) *op->elapsed_ms = cpu_now_ms() - start;
    return GH_OK;
}

/* Runs the queue in order; the first failure drops the rest. */
gh_status cpu_stream_synchronize(gh_plugin *ctx, gh_stream *stream)
{
    (void)ctx;
    if (!stream) return fail(GH_INVALID_ARGUMENT, "stream_synchronize: the stream is NULL");
    gh_status status = GH_OK;
    for (size_t i = 0; i < stream->n_ops && status == GH_OK; i++) status = run_op(stream, &stream->ops[i]);
    stream->n_ops = 0;
    return status;
}
