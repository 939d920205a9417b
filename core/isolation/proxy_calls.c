/* The data calls of the proxy table: buffers, copies, GEMMs, streams and
 * host memory, each one request to the context's worker. Host pointers go
 * as (segment, offset) of shared memory; a pointer outside every segment is
 * copied through a scratch segment (correct, one copy slower). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "msg_buffers.h"
#include "msg_gemm.h"
#include "proxy_internal.h"
#include "shm.h"
#include "util.h"

/* Pessimistic rates for the default limits: 1 GFLOP/s, 1 GB/s, times 100. */
#define GEMM_S(m, n, k) (100.0 * 2.0 * (double)(m) * (double)(n) * (double)(k) / 1e9)
#define COPY_S(bytes)   (100.0 * (double)(bytes) / 1e9)

static proxy_ctx *ctx_of(gh_plugin *ctx)
{
    return (proxy_ctx *)ctx;
}

/* What stream_synchronize writes back for one async call. */
struct proxy_pending {
    proxy_pending *next;
    int is_gemm;
    double *ms;             /* the caller's elapsed_ms, or NULL */
    gh_gemm_timing *timing; /* the caller's timing (gemm_async) */
    void *scratch;          /* a copy of host memory outside shared segments */
    unsigned char *host;    /* download through scratch: rows to copy back */
    uint64_t pitch, width, rows;
};

void proxy_drop_pending(proxy_handle *s)
{
    while (s->head) {
        proxy_pending *p = s->head;
        s->head = p->next;
        gh_shm_free(p->scratch);
        free(p);
    }
    s->tail = NULL;
    s->queued_s = 0;
}

static proxy_pending *add_pending(proxy_handle *s)
{
    proxy_pending *p = gh_xcalloc(1, sizeof *p);
    if (s->tail) s->tail->next = p;
    else s->head = p;
    s->tail = p;
    return p;
}

/* The remote handle of a buffer or stream, 0 for NULL; -1 when it belongs
 * to a worker that is gone. */
static int remote_of(const proxy_ctx *c, const void *handle, uint64_t *out)
{
    const proxy_handle *h = handle;
    *out = h ? h->remote : 0;
    if (h && (h->generation != c->generation || !c->w)) {
        proxy_set_error("the buffer or stream belongs to a worker that is gone (it crashed or overran)");
        return -1;
    }
    return 0;
}

/* Makes a host pointer a place for the request: NULL, a zero-byte range, or a
 * shared segment's place, shared with the worker first (read-only for what
 * the plugin reads). Memory outside every segment goes through `copy` (a
 * segment of its own, filled from the host for uploads). Returns 0 or -1. */
static int place_host(proxy_ctx *c, const void *ptr, uint64_t extent, int writable, void **copy, gh_msg_place *out)
{
    *copy = NULL;
    gh_shm_place place;
    if (!ptr || extent == 0) {
        *out = (gh_msg_place){.kind = ptr ? GH_PLACE_EMPTY : GH_PLACE_NULL};
        return 0;
    }
    if (gh_shm_find(ptr, extent, &place) != 0) {
        /* Outside shared memory: under isolation core/run allocates every
         * case matrix in shared segments and host_alloc gives segments, so
         * only the split's staging buffer of a minor-0 plugin (malloc'ed)
         * lands here; correct, one copy slower. */
        void *seg = gh_shm_alloc((size_t)extent);
        if (!seg) {
            proxy_set_error("out of host memory for a %llu-byte copy for the worker", (unsigned long long)extent);
            return -1;
        }
        memcpy(seg, ptr, (size_t)extent); /* downloads too: the bytes between rows come back unchanged */
        gh_shm_find(seg, extent, &place);
        *copy = seg;
    }
    if (gh_worker_share(c->w, &place, writable) != 0) {
        /* the worker is gone; the call below finds out and says how */
    }
    *out = (gh_msg_place){GH_PLACE_SEGMENT, place.id, place.offset, extent};
    return 0;
}

/* Rows of a download that went through a copy, back into the caller's memory. */
static void copy_back(unsigned char *host, const unsigned char *copy, uint64_t pitch, uint64_t width, uint64_t rows)
{
    for (uint64_t r = 0; r < rows; r++) memcpy(host + r * pitch, copy + r * pitch, (size_t)width);
}

static uint64_t extent_2d(uint64_t pitch, uint64_t width, uint64_t rows)
{
    return rows == 0 || width == 0 ? 0 : (rows - 1) * pitch + width;
}

/* A call that makes a buffer or a stream: the request `req` (of desc d),
 * and the worker's handle wrapped for the host in *out. */
static gh_status make(gh_plugin *ctx, uint32_t op, const gh_msg_desc *d, const void *req, const char *call, void **out)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_status s = proxy_begin(c, op);
    if (s == GH_OK) {
        gh_msg_put(&c->q, d, req);
        s = proxy_roundtrip(c, proxy_limit(c, 0), call);
    }
    gh_msg_handle made;
    if (s == GH_OK && out && gh_msg_handle_get(&c->r, &made) == 0) {
        proxy_handle *h = gh_xcalloc(1, sizeof *h);
        h->remote = made.handle;
        h->generation = c->generation;
        *out = h;
    }
    pthread_mutex_unlock(&c->lock);
    return s;
}

gh_status proxy_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    gh_msg_buffer_alloc req = {device, bytes};
    return make(ctx, GH_OP_BUFFER_ALLOC, &gh_msg_buffer_alloc_desc, &req, "buffer_alloc", (void **)out);
}

/* Frees a buffer's or a stream's handle, telling the worker first when it
 * is still the one that made it; a stream's wait is its queued work's. */
static void free_remote(gh_plugin *ctx, proxy_handle *h, uint32_t op, int is_stream, const char *call)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    if (h && h->generation == c->generation && c->w && proxy_begin(c, op) == GH_OK) {
        gh_msg_handle_put(&c->q, &(gh_msg_handle){h->remote});
        proxy_roundtrip(c, proxy_limit(c, is_stream ? h->queued_s : 0), call);
    }
    pthread_mutex_unlock(&c->lock);
    if (h && is_stream) proxy_drop_pending(h);
    free(h);
}

void proxy_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    free_remote(ctx, (proxy_handle *)buf, GH_OP_BUFFER_FREE, 0, "buffer_free");
}

static gh_status copy_call(proxy_ctx *c, int upload, gh_buffer *buf, uint64_t offset, void *host, uint64_t bytes)
{
    gh_msg_copy req = {.offset = offset, .bytes = bytes};
    void *copy = NULL;
    gh_status s = proxy_begin(c, upload ? GH_OP_UPLOAD : GH_OP_DOWNLOAD);
    if (s != GH_OK) return s;
    if (remote_of(c, buf, &req.buffer) != 0) return GH_ERROR;
    if (place_host(c, host, bytes, !upload, &copy, &req.host) != 0) return GH_ERROR;
    gh_msg_copy_put(&c->q, &req);
    char call[96];
    snprintf(call, sizeof call, "%s of %llu bytes", upload ? "upload" : "download", (unsigned long long)bytes);
    s = proxy_roundtrip(c, proxy_limit(c, COPY_S(bytes)), call);
    if (s == GH_OK && copy && !upload) memcpy(host, copy, (size_t)bytes);
    gh_shm_free(copy);
    return s;
}

gh_status proxy_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_status s = copy_call(c, 1, dst, offset, (void *)src, bytes);
    pthread_mutex_unlock(&c->lock);
    return s;
}

gh_status proxy_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_status s = copy_call(c, 0, src, offset, dst, bytes);
    pthread_mutex_unlock(&c->lock);
    return s;
}

/* The arguments of a GEMM as the worker takes them: its buffer handles for
 * a, b and c; -1 when one of them is gone. Arguments too short (or NULL)
 * for any plugin to read go as zeros, which the plugin refuses as it would
 * in process. */
static int wire_args(proxy_ctx *c, const gh_gemm_args *g, gh_gemm_args *out)
{
    memset(out, 0, sizeof *out);
    out->size = g ? g->size : 0;
    if (!g || !GH_HAS_MEMBER(g, gh_gemm_args, n_params)) return 0;
    memcpy(out, g, g->size < sizeof *out ? g->size : sizeof *out);
    uint64_t a, b, cc;
    if (remote_of(c, g->a, &a) || remote_of(c, g->b, &b) || remote_of(c, g->c, &cc)) return -1;
    out->a = (gh_buffer *)(uintptr_t)a;
    out->b = (gh_buffer *)(uintptr_t)b;
    out->c = (gh_buffer *)(uintptr_t)cc;
    return 0;
}

static void describe_gemm(char *buf, size_t size, const char *call, int device, int kernel, const gh_gemm_args *g)
{
    const gh_dtype d = g && GH_HAS_MEMBER(g, gh_gemm_args, n_params) ? g->dtype : GH_F32;
    if (!g || !GH_HAS_MEMBER(g, gh_gemm_args, n_params)) snprintf(buf, size, "%s", call);
    else if (device >= 0)
        snprintf(buf, size, "%s (device %d, kernel %d, %lldx%lldx%lld %s)", call, device, kernel, (long long)g->m,
                 (long long)g->n, (long long)g->k, gh_dtype_name(d));
    else
        snprintf(buf, size, "%s (kernel %d, %lldx%lldx%lld %s)", call, kernel, (long long)g->m, (long long)g->n,
                 (long long)g->k, gh_dtype_name(d));
}

static double gemm_estimate(const gh_gemm_args *g)
{
    return g && GH_HAS_MEMBER(g, gh_gemm_args, n_params) && g->m > 0 && g->n > 0 && g->k > 0 ? GEMM_S(g->m, g->n, g->k)
                                                                                             : 0;
}

/* What the worker's plugin measured, into the host's timing: the members its size covers. */
static void write_timing(gh_gemm_timing *t, double kernel_ms, uint32_t clock, const char *note, uint32_t split_pieces,
                         uint32_t split_precision)
{
    if (GH_HAS_MEMBER(t, gh_gemm_timing, kernel_ms)) t->kernel_ms = kernel_ms;
    if (GH_HAS_MEMBER(t, gh_gemm_timing, clock)) t->clock = (gh_clock)clock;
    if (GH_HAS_MEMBER(t, gh_gemm_timing, note)) snprintf(t->note, sizeof t->note, "%s", note ? note : "");
    if (GH_HAS_MEMBER(t, gh_gemm_timing, split_pieces)) t->split_pieces = split_pieces;
    if (GH_HAS_MEMBER(t, gh_gemm_timing, split_precision)) t->split_precision = (gh_precision)split_precision;
}

gh_status proxy_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_msg_gemm req = {.device = device, .kernel = kernel, .timing_size = timing ? timing->size : 0};
    gh_status s = proxy_begin(c, GH_OP_GEMM);
    if (s == GH_OK) s = wire_args(c, args, &req.args) == 0 ? GH_OK : GH_ERROR;
    if (s == GH_OK) {
        gh_msg_gemm_put(&c->q, &req);
        char call[160];
        describe_gemm(call, sizeof call, "gemm", device, kernel, args);
        s = proxy_roundtrip(c, proxy_limit(c, gemm_estimate(args)), call);
    }
    gh_msg_gemm_done done;
    if (s == GH_OK && timing && gh_msg_gemm_done_get(&c->r, &done) == 0) {
        write_timing(timing, done.kernel_ms, done.clock, done.note, done.split_pieces, done.split_precision);
        gh_msg_gemm_done_clear(&done);
    }
    pthread_mutex_unlock(&c->lock);
    return s;
}

gh_status proxy_synchronize(gh_plugin *ctx, int device)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_status s = proxy_begin(c, GH_OP_SYNCHRONIZE);
    if (s == GH_OK) {
        gh_msg_index_put(&c->q, &(gh_msg_index){device});
        s = proxy_roundtrip(c, proxy_limit(c, 0), "synchronize");
    }
    pthread_mutex_unlock(&c->lock);
    return s;
}

/* ---- streams ---- */

gh_status proxy_stream_create(gh_plugin *ctx, int device, gh_stream **out)
{
    gh_msg_index req = {device};
    return make(ctx, GH_OP_STREAM_CREATE, &gh_msg_index_desc, &req, "stream_create", (void **)out);
}

void proxy_stream_destroy(gh_plugin *ctx, gh_stream *stream)
{
    free_remote(ctx, (proxy_handle *)stream, GH_OP_STREAM_DESTROY, 1, "stream_destroy");
}

static gh_status copy_2d_async(proxy_ctx *c, int upload, gh_stream *stream, gh_buffer *buf, uint64_t offset,
                               uint64_t pitch, void *host, uint64_t host_pitch, uint64_t width, uint64_t rows,
                               double *elapsed_ms)
{
    gh_msg_copy_2d req = {.offset = offset,
                          .pitch = pitch,
                          .host_pitch = host_pitch,
                          .width = width,
                          .rows = rows,
                          .want_ms = elapsed_ms != NULL};
    void *copy = NULL;
    gh_status s = proxy_begin(c, upload ? GH_OP_UPLOAD_2D_ASYNC : GH_OP_DOWNLOAD_2D_ASYNC);
    if (s != GH_OK) return s;
    if (remote_of(c, stream, &req.stream) != 0 || remote_of(c, buf, &req.buffer) != 0) return GH_ERROR;
    uint64_t extent = extent_2d(host_pitch, width, rows);
    if (place_host(c, host, extent, !upload, &copy, &req.host) != 0) return GH_ERROR;
    gh_msg_copy_2d_put(&c->q, &req);
    s = proxy_roundtrip(c, proxy_limit(c, 0), upload ? "upload_2d_async" : "download_2d_async");
    proxy_handle *h = (proxy_handle *)stream;
    if (s != GH_OK || !h) {
        gh_shm_free(copy);
        return s;
    }
    proxy_pending *p = add_pending(h);
    p->ms = elapsed_ms;
    p->scratch = copy;
    if (copy && !upload) {
        p->host = host;
        p->pitch = host_pitch;
        p->width = width;
        p->rows = rows;
    }
    h->queued_s += COPY_S(width * rows);
    return GH_OK;
}

gh_status proxy_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                                const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows, double *elapsed_ms)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_status s = copy_2d_async(c, 1, stream, dst, offset, pitch, (void *)src, src_pitch, width, rows, elapsed_ms);
    pthread_mutex_unlock(&c->lock);
    return s;
}

gh_status proxy_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                  void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms)
{
    proxy_ctx *c = ctx_of(ctx);
    pthread_mutex_lock(&c->lock);
    gh_status s = copy_2d_async(c, 0, stream, src, offset, pitch, dst, dst_pitch, width, rows, elapsed_ms);
    pthread_mutex_unlock(&c->lock);
    return s;
}

/* One queued GEMM call (of `launches` launches) on h, whose timing
 * stream_synchronize writes back; its time counts in the wait's limit. */
static void remember_gemm(proxy_handle *h, gh_gemm_timing *timing, const gh_gemm_args *args, uint32_t launches)
{
    if (!h) return;
    proxy_pending *p = add_pending(h);
    p->is_gemm = 1;
    p->timing = timing;
    h->queued_s += launches * gemm_estimate(args);
}

gh_status proxy_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                           gh_gemm_timing *timing)
{
    proxy_ctx *c = ctx_of(ctx);
    gh_msg_gemm_async req = {.kernel = kernel, .timing_size = timing ? timing->size : 0};
    pthread_mutex_lock(&c->lock);
    gh_status s = proxy_begin(c, GH_OP_GEMM_ASYNC);
    if (s == GH_OK && remote_of(c, stream, &req.stream) != 0) s = GH_ERROR;
    if (s == GH_OK) s = wire_args(c, args, &req.args) == 0 ? GH_OK : GH_ERROR;
    if (s == GH_OK) {
        gh_msg_gemm_async_put(&c->q, &req);
        char call[160];
        describe_gemm(call, sizeof call, "gemm_async", -1, kernel, args);
        s = proxy_roundtrip(c, proxy_limit(c, 0), call);
    }
    if (s == GH_OK) remember_gemm((proxy_handle *)stream, timing, args, 1);
    pthread_mutex_unlock(&c->lock);
    return s;
}

/* n launches of one GEMM in one request (ABI 1.6), whatever the plugin's
 * minor: the worker calls the plugin's gemm_batch_async, or queues n
 * gemm_async launches and makes their one timing at stream_synchronize.
 * Either way one record here, as the worker keeps one. */
gh_status proxy_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                                 gh_gemm_timing *timing)
{
    proxy_ctx *c = ctx_of(ctx);
    gh_msg_gemm_batch_async req = {.kernel = kernel, .n = n, .timing_size = timing ? timing->size : 0};
    pthread_mutex_lock(&c->lock);
    gh_status s = proxy_begin(c, GH_OP_GEMM_BATCH_ASYNC);
    if (s == GH_OK && remote_of(c, stream, &req.stream) != 0) s = GH_ERROR;
    if (s == GH_OK) s = wire_args(c, args, &req.args) == 0 ? GH_OK : GH_ERROR;
    if (s == GH_OK) {
        gh_msg_gemm_batch_async_put(&c->q, &req);
        char call[160], what[40];
        snprintf(what, sizeof what, "gemm_batch_async of %u", n);
        describe_gemm(call, sizeof call, what, -1, kernel, args);
        s = proxy_roundtrip(c, proxy_limit(c, 0), call);
    }
    if (s == GH_OK) remember_gemm((proxy_handle *)stream, timing, args, n);
    pthread_mutex_unlock(&c->lock);
    return s;
}

/* Writes back what each queued call measured, in the order they were queued. */
static void settle_pending(proxy_ctx *c, proxy_handle *h)
{
    gh_msg_synced done;
    if (gh_msg_synced_get(&c->r, &done) != 0) return; /* malformed: write nothing */
    proxy_pending *p = h->head;
    for (size_t i = 0; i < done.n_calls && p; i++, p = p->next) {
        const gh_msg_queued *q = &done.calls[i];
        if ((int)q->is_gemm != p->is_gemm) break; /* out of step: write nothing more */
        if (p->ms) *p->ms = q->ms;
        if (p->timing) write_timing(p->timing, q->kernel_ms, q->clock, q->note, q->split_pieces, q->split_precision);
        if (p->host) copy_back(p->host, p->scratch, p->pitch, p->width, p->rows);
    }
    gh_msg_synced_clear(&done);
}

gh_status proxy_stream_synchronize(gh_plugin *ctx, gh_stream *stream)
{
    proxy_ctx *c = ctx_of(ctx);
    proxy_handle *h = (proxy_handle *)stream;
    gh_msg_handle req;
    pthread_mutex_lock(&c->lock);
    gh_status s = proxy_begin(c, GH_OP_STREAM_SYNCHRONIZE);
    if (s == GH_OK && remote_of(c, stream, &req.handle) != 0) s = GH_ERROR;
    if (s == GH_OK) {
        gh_msg_handle_put(&c->q, &req);
        s = proxy_roundtrip(c, proxy_limit(c, h ? h->queued_s : 0), "stream_synchronize");
        if (c->w && h) settle_pending(c, h); /* the worker answered: failed or not, it says what ran */
    }
    if (h) proxy_drop_pending(h);
    pthread_mutex_unlock(&c->lock);
    return s;
}

/* ---- host memory ----
 * Pinned memory of the worker's driver cannot be shared with the host: under
 * isolation host_alloc gives a shared segment (not pinned), which both can
 * see. Offered whenever the plugin answers minor 1, so the split's staging
 * buffers are shared too. */

gh_status proxy_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out)
{
    (void)ctx;
    if (!out || bytes == 0) {
        proxy_set_error("host_alloc: out is NULL or bytes is 0");
        return GH_INVALID_ARGUMENT;
    }
    *out = gh_shm_alloc((size_t)bytes);
    if (!*out) {
        proxy_set_error("host_alloc: no shared memory for %llu bytes", (unsigned long long)bytes);
        return GH_OUT_OF_MEMORY;
    }
    return GH_OK;
}

void proxy_host_free(gh_plugin *ctx, void *ptr)
{
    (void)ctx;
    gh_shm_free(ptr);
}
