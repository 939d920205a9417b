/*
 * The C plugin: the template for a new backend.
 *
 * It shows everything a plugin does through include/gemmhost/plugin.h:
 * negotiate the ABI in the one exported entry, describe its device, options
 * and kernels as data, own its buffers, run a GEMM and time it, and explain
 * every failure in last_error(). Its one "device" is the host CPU, and its
 * "device memory" is plain malloc'd memory.
 *
 * The mechanics every plugin shares come from gemmhost/plugin_helpers.h:
 * the entry (GH_PLUGIN_ENTRY, at the bottom), the per-thread error text
 * (fail() below, and .last_error = gh_plugin_last_error), reading the
 * options, and every generic argument check; what is left here is what is
 * particular to this plugin. Check a copy of it with gemmhost-conformance.
 *
 * ABI minor 1 (optional streams, 2D copies, host memory) is at the end: a
 * stream keeps a list of queued work and runs it at stream_synchronize.
 * Running it later rather than at once costs nothing here, and a host that
 * forgets to synchronize before using a result gets the wrong answer, as it
 * would on a real device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gemmhost/plugin.h"
#include "gemmhost/plugin_helpers.h"
#include "cpu_gemm.h"
#include "cpu_pool.h"

/* ---- errors: one message per calling thread, as the ABI asks ----
 * fail(status, fmt, ...) sets the calling thread's last_error text and
 * returns status. */
#define fail gh_plugin_set_error

/* ---- what the plugin offers, as static data ---- */

enum { OPTION_THREADS, OPTION_COUNT };
static const gh_option_info cpu_options[OPTION_COUNT] = {
    [OPTION_THREADS] = {sizeof(gh_option_info), "threads", "worker threads per GEMM (0 = one per online CPU)", "0"},
};

static const int64_t tile_values[] = {4, 8, 16, 32, 64};
static const gh_param_info tiled_params[] = {
    {sizeof(gh_param_info), "tile", "edge of the square cache block, in elements", 32,
     tile_values, sizeof tile_values / sizeof tile_values[0], 0, 0},
};

enum { KERNEL_NAIVE, KERNEL_TILED, KERNEL_COUNT };
static const gh_kernel_info cpu_kernels[KERNEL_COUNT] = {
    {sizeof(gh_kernel_info), "naive", "one element of C at a time, the serial loop",
     GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32), NULL, 0},
    {sizeof(gh_kernel_info), "tiled", "cache-blocked loops with a tile x tile block",
     GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32), tiled_params, 1},
};

/* ---- the context: one CPU device ---- */

struct gh_plugin {
    int threads;
    cpu_pool *pool;     /* the GEMM's threads, started at the first GEMM */
    char device_name[256];
    char api[64];
    gh_device_info info;
};

struct gh_buffer {
    uint64_t bytes;
    unsigned char *data;
};

/* The CPU's model name, from /proc/cpuinfo where there is one. */
static void read_cpu_name(char *out, size_t size)
{
    snprintf(out, size, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *colon = strchr(line, ':');
        if (!colon) break;
        colon++;
        while (*colon == ' ' || *colon == '\t') colon++;
        snprintf(out, size, "%s", colon);
        out[strcspn(out, "\n")] = '\0';
        break;
    }
    fclose(f);
}

static gh_status parse_threads(const char *text, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || end == text || v < 0 || v > 1024)
        return fail(GH_INVALID_ARGUMENT, "option threads: \"%s\" is not a thread count (0..1024)", text);
    *out = (int)v;
    return GH_OK;
}

static gh_status cpu_open(const gh_option_value *options, size_t n_options, gh_plugin **out)
{
    if (!out) return fail(GH_INVALID_ARGUMENT, "open: out is NULL");
    const char *settings[OPTION_COUNT];
    gh_status s = gh_plugin_read_options("cpu", cpu_options, OPTION_COUNT, options, n_options, settings);
    int threads = 0;
    if (s == GH_OK && settings[OPTION_THREADS]) s = parse_threads(settings[OPTION_THREADS], &threads);
    if (s != GH_OK) return s;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads == 0) threads = online > 0 ? (int)online : 1;

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (ctx) ctx->pool = cpu_pool_create(threads);
    if (!ctx || !ctx->pool) {
        free(ctx);
        return fail(GH_OUT_OF_MEMORY, "out of host memory opening the cpu plugin");
    }
    ctx->threads = threads;
    read_cpu_name(ctx->device_name, sizeof ctx->device_name);
    snprintf(ctx->api, sizeof ctx->api, "C11 + pthreads (%d threads)", threads);
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    ctx->info = (gh_device_info){
        .size = sizeof(gh_device_info),
        .name = ctx->device_name,
        .vendor = "host",
        .driver_version = "n/a",
        .api = ctx->api,
        .platform = "",
        .global_mem_bytes = pages > 0 && page_size > 0 ? (uint64_t)pages * (uint64_t)page_size : 0,
        .local_mem_bytes = 0,
        .compute_units = (uint32_t)threads,
        .max_workgroup_size = 0,
        .is_software = 1,
        .has_fp64 = 1,
    };
    *out = ctx;
    return GH_OK;
}

static void cpu_close(gh_plugin *ctx)
{
    if (ctx) cpu_pool_destroy(ctx->pool);
    free(ctx);
}

enum { DEVICE_COUNT = 1 };

static int cpu_device_count(gh_plugin *ctx) { (void)ctx; return DEVICE_COUNT; }

static const gh_device_info *cpu_device_info(gh_plugin *ctx, int device)
{
    return device == 0 ? &ctx->info : NULL;
}

static int cpu_kernel_count(gh_plugin *ctx) { (void)ctx; return KERNEL_COUNT; }

static const gh_kernel_info *cpu_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    return kernel >= 0 && kernel < KERNEL_COUNT ? &cpu_kernels[kernel] : NULL;
}

/* ---- buffers: host memory standing in for device memory ---- */

static gh_status cpu_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    (void)ctx;
    gh_status s = gh_plugin_check_device("buffer_alloc", device, DEVICE_COUNT, NULL);
    if (s != GH_OK) return s;
    if (!out) return fail(GH_INVALID_ARGUMENT, "buffer_alloc: out is NULL");
    if (bytes == 0) return fail(GH_INVALID_ARGUMENT, "buffer_alloc: 0 bytes");
    gh_buffer *buf = calloc(1, sizeof *buf);
    if (buf && bytes <= SIZE_MAX) buf->data = malloc((size_t)bytes);
    if (!buf || !buf->data) {
        free(buf);
        return fail(GH_OUT_OF_MEMORY, "cannot allocate %llu bytes of host memory", (unsigned long long)bytes);
    }
    buf->bytes = bytes;
    *out = buf;
    return GH_OK;
}

static void cpu_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    (void)ctx;
    if (buf) free(buf->data);
    free(buf);
}

/* What the argument checks of plugin_helpers.h need to know of a buffer. */
static gh_plugin_extent cpu_extent(const gh_buffer *buf)
{
    return (gh_plugin_extent){buf->bytes, 0};
}

static gh_status cpu_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    (void)ctx;
    gh_status s = gh_plugin_check_copy("upload", dst, cpu_extent, offset, src, bytes);
    if (s == GH_OK && bytes) memcpy(dst->data + offset, src, bytes);
    return s;
}

static gh_status cpu_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    (void)ctx;
    gh_status s = gh_plugin_check_copy("download", src, cpu_extent, offset, dst, bytes);
    if (s == GH_OK && bytes) memcpy(dst, src->data + offset, bytes);
    return s;
}

/* ---- GEMM: rows of C split across the context's pool of threads ---- */

typedef struct gemm_parts {
    const cpu_gemm_job *jobs;   /* one per part */
    int kernel;
} gemm_parts;

static int run_part(void *arg, int part)
{
    const gemm_parts *g = arg;
    return g->kernel == KERNEL_NAIVE ? cpu_gemm_naive(&g->jobs[part]) : cpu_gemm_tiled(&g->jobs[part]);
}

static size_t dtype_size(gh_dtype d) { return gh_plugin_dtype_size(d); }

/* Every check of plugin.h's gemm (the loops have no index limit of their own). */
static gh_status check_args(gh_plugin *ctx, const char *call, int device, int kernel, const gh_gemm_args *g)
{
    gh_status s = gh_plugin_check_device(call, device, DEVICE_COUNT, NULL);
    if (s == GH_OK) s = gh_plugin_check_index(call, "kernel", kernel, KERNEL_COUNT);
    if (s != GH_OK) return s;
    const gh_plugin_gemm_target target = {device, &ctx->info, &cpu_kernels[kernel], 0, cpu_extent};
    return gh_plugin_check_gemm(call, g, &target);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static gh_status cpu_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *g, gh_gemm_timing *timing)
{
    gh_status s = check_args(ctx, "gemm", device, kernel, g);
    if (s != GH_OK) return s;
    int64_t tile = kernel == KERNEL_TILED ? g->params[0] : 1; /* one of tile_values, checked above */

    const size_t elem = dtype_size(g->dtype);
    int n_workers = ctx->threads;
    if (n_workers > g->m) n_workers = (int)g->m; /* no idle threads on thin C */
    cpu_gemm_job *jobs = calloc((size_t)n_workers, sizeof *jobs);
    if (!jobs) return fail(GH_OUT_OF_MEMORY, "out of host memory for %d workers", n_workers);
    for (int w = 0; w < n_workers; w++) {
        jobs[w] = (cpu_gemm_job){
            .args = g,
            .a = g->a->data + g->a_offset * elem,
            .b = g->b->data + g->b_offset * elem,
            .c = g->c->data + g->c_offset * elem,
            .row_begin = g->m * w / n_workers,
            .row_end = g->m * (w + 1) / n_workers,
            .tile = tile,
        };
    }
    /* The time covers handing the rows out, the multiply and its end, not
     * the threads' start (once per context, at its first GEMM). */
    gemm_parts parts = {jobs, kernel};
    double elapsed = 0;
    int rc = cpu_pool_run(ctx->pool, n_workers, run_part, &parts, &elapsed);
    free(jobs);
    if (rc > 0) return fail(GH_ERROR, "could not start %d threads: %s", ctx->threads - 1, strerror(rc));
    if (rc < 0) return fail(GH_ERROR, "a worker thread could not allocate its scratch memory");

    /* The CPU is the device: its clock is the device clock. */
    if (timing && GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms)) timing->kernel_ms = elapsed;
    if (timing && GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) timing->clock = GH_CLOCK_DEVICE;
    return GH_OK;
}

static gh_status cpu_synchronize(gh_plugin *ctx, int device)
{
    (void)ctx;
    /* Every call above is already complete when it returns. */
    return gh_plugin_check_device("synchronize", device, DEVICE_COUNT, NULL);
}

static void *cpu_get_proc(const char *name)
{
    (void)name;
    return NULL; /* no extras */
}

/* ---- ABI minor 1: streams of queued work, run in order at synchronize ---- */

enum { MAX_QUEUED_PARAMS = 8 };

typedef enum op_kind { OP_UPLOAD_2D, OP_DOWNLOAD_2D, OP_GEMM } op_kind;

typedef struct copy_2d {
    gh_buffer *buf;
    uint64_t offset, pitch;       /* in the buffer, bytes */
    unsigned char *host;          /* source of an upload, destination of a download */
    uint64_t host_pitch, width, rows;
} copy_2d;

typedef struct queued_op {
    op_kind kind;
    copy_2d copy;
    double *elapsed_ms;
    int kernel;
    gh_gemm_args args;            /* params point into `params` below */
    int64_t params[MAX_QUEUED_PARAMS];
    gh_gemm_timing *timing;
} queued_op;

struct gh_stream {
    gh_plugin *ctx;
    int device;
    queued_op *ops;
    size_t n_ops, cap;
};

static gh_status cpu_stream_create(gh_plugin *ctx, int device, gh_stream **out)
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
static void cpu_stream_destroy(gh_plugin *ctx, gh_stream *stream)
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

static gh_status cpu_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset,
                                     uint64_t pitch, const void *src, uint64_t src_pitch, uint64_t width,
                                     uint64_t rows, double *elapsed_ms)
{
    (void)ctx;
    copy_2d c = {dst, offset, pitch, (unsigned char *)src, src_pitch, width, rows};
    return queue_copy(stream, OP_UPLOAD_2D, &c, elapsed_ms);
}

static gh_status cpu_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset,
                                       uint64_t pitch, void *dst, uint64_t dst_pitch, uint64_t width,
                                       uint64_t rows, double *elapsed_ms)
{
    (void)ctx;
    copy_2d c = {src, offset, pitch, dst, dst_pitch, width, rows};
    return queue_copy(stream, OP_DOWNLOAD_2D, &c, elapsed_ms);
}

/* Arguments are checked now, so a bad call fails where it was made. */
static gh_status cpu_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                                gh_gemm_timing *timing)
{
    if (!stream) return fail(GH_INVALID_ARGUMENT, "gemm_async: the stream is NULL");
    gh_status s = check_args(ctx, "gemm_async", stream->device, kernel, args);
    if (s != GH_OK) return s;
    if (args->n_params > MAX_QUEUED_PARAMS)
        return fail(GH_INVALID_ARGUMENT, "gemm_async: %zu parameters, at most %d", args->n_params, MAX_QUEUED_PARAMS);
    queued_op op = {.kind = OP_GEMM, .kernel = kernel, .args = *args, .timing = timing};
    for (size_t p = 0; p < args->n_params; p++) op.params[p] = args->params[p];
    op.args.params = NULL; /* pointed at op's own copy once it sits in the queue */
    return enqueue(stream, &op);
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

static gh_status run_op(gh_stream *stream, queued_op *op)
{
    if (op->kind == OP_GEMM) {
        op->args.params = op->params;
        return cpu_gemm(stream->ctx, stream->device, op->kernel, &op->args, op->timing);
    }
    double start = now_ms();
    run_copy_2d(&op->copy, op->kind == OP_UPLOAD_2D);
    if (op->elapsed_ms) *op->elapsed_ms = now_ms() - start;
    return GH_OK;
}

/* Runs the queue in order; the first failure drops the rest. */
static gh_status cpu_stream_synchronize(gh_plugin *ctx, gh_stream *stream)
{
    (void)ctx;
    if (!stream) return fail(GH_INVALID_ARGUMENT, "stream_synchronize: the stream is NULL");
    gh_status status = GH_OK;
    for (size_t i = 0; i < stream->n_ops && status == GH_OK; i++) status = run_op(stream, &stream->ops[i]);
    stream->n_ops = 0;
    return status;
}

/* Plain memory: the CPU copies from anything equally fast. */
static gh_status cpu_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out)
{
    (void)ctx;
    if (!out) return fail(GH_INVALID_ARGUMENT, "host_alloc: out is NULL");
    if (bytes == 0) return fail(GH_INVALID_ARGUMENT, "host_alloc: 0 bytes");
    void *p = bytes <= SIZE_MAX ? malloc((size_t)bytes) : NULL;
    if (!p) return fail(GH_OUT_OF_MEMORY, "host_alloc: cannot allocate %llu bytes of host memory", (unsigned long long)bytes);
    *out = p;
    return GH_OK;
}

static void cpu_host_free(gh_plugin *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static const gh_plugin_api cpu_api = {
    .size = sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = GEMMHOST_ABI_MINOR,
    .name = "cpu",
    .description = "plain C on the host CPU, multithreaded: the reference backend and plugin template",
    .version = "1.0",
    .options = cpu_options,
    .n_options = sizeof cpu_options / sizeof cpu_options[0],
    .open = cpu_open,
    .close = cpu_close,
    .last_error = gh_plugin_last_error,
    .device_count = cpu_device_count,
    .device_info = cpu_device_info,
    .kernel_count = cpu_kernel_count,
    .kernel_info = cpu_kernel_info,
    .buffer_alloc = cpu_buffer_alloc,
    .buffer_free = cpu_buffer_free,
    .upload = cpu_upload,
    .download = cpu_download,
    .gemm = cpu_gemm,
    .synchronize = cpu_synchronize,
    .get_proc = cpu_get_proc,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_stream_destroy,
    .upload_2d_async = cpu_upload_2d_async,
    .download_2d_async = cpu_download_2d_async,
    .gemm_async = cpu_gemm_async,
    .stream_synchronize = cpu_stream_synchronize,
    .host_alloc = cpu_host_alloc,
    .host_free = cpu_host_free,
};

/* The one exported symbol: agree on versions, hand over the table. */
GH_PLUGIN_ENTRY(cpu_api)
