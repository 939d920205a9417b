/* What proxy.c (plugins, contexts, infos) and proxy_calls.c (buffers,
 * copies, GEMMs, streams, host memory) share. Not for the rest of core. */
#ifndef GEMMHOST_PROXY_INTERNAL_H
#define GEMMHOST_PROXY_INTERNAL_H

#include <pthread.h>
#include "proxy.h"
#include "msg_plugin.h"
#include "wire.h"

/* A proxied plugin: its table first, so the table's address is the plugin's. */
typedef struct proxy_plugin {
    gh_plugin_api api;
    char *path, *name, *description, *version;
    gh_option_info *options;
    size_t n_options;
    uint32_t abi_minor;
    uint32_t flags;   /* GH_LOADED_HAS_STREAMS, GH_LOADED_HAS_HOST_ALLOC (msg_plugin.h) */
    double timeout;   /* the plugin set's: loading, and each context's until its own is set */
    gh_worker *spare; /* the worker that loaded it, until the first open takes it */
} proxy_plugin;

typedef struct proxy_ctx {
    proxy_plugin *pp;
    pthread_mutex_t lock; /* one call at a time: the worker answers in order */
    gh_worker *w;         /* NULL after a death, until the next call restarts it */
    uint64_t generation;  /* of the current worker; handles carry the one that made them */
    char label[96];
    gh_option_value *opts; /* copies, for restarts */
    size_t n_opts;
    double timeout; /* the limit on each call: see gh_worker_settings */
    gh_fate fate;
    int fate_pending;
    /* infos, fetched once each, valid until close */
    int count_known, device_count;
    char *count_error;
    gh_device_info **devices;
    size_t n_device_slots;
    int kernels_known, kernel_count;
    gh_kernel_info **kernels;
    gh_wire q, r;
} proxy_ctx;

/* A buffer or stream handle: the worker's pointer and the worker it lives in. */
typedef struct proxy_pending proxy_pending;
typedef struct proxy_handle {
    uint64_t remote, generation;
    proxy_pending *head, *tail; /* streams: what stream_synchronize writes back */
    double queued_s;            /* streams: the estimated time of the queued work */
} proxy_handle;

/* The calling thread's last failure, for last_error(). */
void proxy_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The limit for a call estimated to take `estimate_s` at pessimistic rates. */
double proxy_limit(const proxy_ctx *c, double estimate_s);

/* Runs the request in c->q with the worker (started first when there is
 * none), reply in c->r. Returns the reply's status (GH_OK, or the plugin's,
 * with last_error set), or GH_ERROR when the worker died or overran (the
 * fate is kept). `call` names the call for the fate. Caller holds c->lock. */
gh_status proxy_roundtrip(proxy_ctx *c, double limit_s, const char *call);
/* Starts the request: c->q = op. Starts the worker too, so that shared
 * segments can be sent before the request; GH_ERROR when it cannot. */
gh_status proxy_begin(proxy_ctx *c, uint32_t op);

/* The calls of proxy_calls.c, set in the table by proxy.c. */
gh_status proxy_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
void proxy_buffer_free(gh_plugin *ctx, gh_buffer *buf);
gh_status proxy_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
gh_status proxy_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);
gh_status proxy_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *timing);
gh_status proxy_synchronize(gh_plugin *ctx, int device);
gh_status proxy_stream_create(gh_plugin *ctx, int device, gh_stream **out);
void proxy_stream_destroy(gh_plugin *ctx, gh_stream *stream);
gh_status proxy_upload_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *dst, uint64_t offset, uint64_t pitch,
                                const void *src, uint64_t src_pitch, uint64_t width, uint64_t rows, double *elapsed_ms);
gh_status proxy_download_2d_async(gh_plugin *ctx, gh_stream *stream, gh_buffer *src, uint64_t offset, uint64_t pitch,
                                  void *dst, uint64_t dst_pitch, uint64_t width, uint64_t rows, double *elapsed_ms);
gh_status proxy_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                           gh_gemm_timing *timing);
gh_status proxy_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args, uint32_t n,
                                 gh_gemm_timing *timing);
gh_status proxy_stream_synchronize(gh_plugin *ctx, gh_stream *stream);
gh_status proxy_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out);
void proxy_host_free(gh_plugin *ctx, void *ptr);
/* proxy_host.c: the worker registers its own mapping of a shared segment. */
gh_status proxy_host_register(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags, const char **how);
gh_status proxy_host_unregister(gh_plugin *ctx, void *ptr);
/* Drops what a stream had queued (its worker is gone, or it is destroyed). */
void proxy_drop_pending(proxy_handle *stream);

#endif
