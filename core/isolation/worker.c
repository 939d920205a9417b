/* The worker process: one plugin, one context, the host's calls one at a
 * time. Everything the host needs back goes in the reply; the data itself
 * lives in shared segments the host sent once (GH_OP_MAP): inputs mapped
 * read-only, download targets read-write. See worker.h and docs/isolation.md. */
#define _GNU_SOURCE
#include "worker.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "crash.h"
#include "loader.h"
#include "util.h"
#include "wire.h"
#include "wire_info.h"

/* ---- shared segments ---- */

typedef struct mapping {
    uint64_t id, size;
    void *ro, *rw; /* the read-only and the read-write view, each mapped when first needed */
} mapping;

static mapping *maps;
static size_t n_maps, cap_maps;

static mapping *find_map(uint64_t id)
{
    for (size_t i = 0; i < n_maps; i++)
        if (maps[i].id == id) return &maps[i];
    return NULL;
}

static void map_segment(gh_wire *w, int fd)
{
    uint64_t id = gh_wire_get_u64(w), size = gh_wire_get_u64(w);
    int writable = gh_wire_get_u32(w) != 0;
    if (fd < 0 || w->bad) {
        if (fd >= 0) close(fd);
        return; /* the call that needs it fails, saying the segment is not mapped */
    }
    mapping *m = find_map(id);
    if (!m) {
        if (n_maps == cap_maps) {
            cap_maps = cap_maps ? 2 * cap_maps : 16;
            maps = gh_xrealloc(maps, cap_maps * sizeof *maps);
        }
        m = &maps[n_maps++];
        *m = (mapping){.id = id, .size = size};
    }
    void **view = writable ? &m->rw : &m->ro;
    if (!*view) {
        void *p = mmap(NULL, size, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
        *view = p == MAP_FAILED ? NULL : p;
    }
    close(fd);
}

static void unmap_segment(gh_wire *w)
{
    mapping *m = find_map(gh_wire_get_u64(w));
    if (!m) return;
    if (m->ro) munmap(m->ro, m->size);
    if (m->rw) munmap(m->rw, m->size);
    *m = maps[--n_maps];
}

/* A host pointer in a request: NULL, a place in a segment, or a non-NULL
 * pointer for a zero-byte copy. Returns 0, or -1 with why. */
static int host_pointer(gh_wire *w, int writable, void **out, char *why, size_t size)
{
    static unsigned char nothing[1];
    uint32_t kind = gh_wire_get_u32(w);
    uint64_t id = gh_wire_get_u64(w), offset = gh_wire_get_u64(w), extent = gh_wire_get_u64(w);
    *out = kind == 0 ? NULL : nothing;
    if (kind != 1) return 0;
    mapping *m = find_map(id);
    void *view = m ? (writable ? m->rw : m->ro) : NULL;
    if (!view || offset > m->size || extent > m->size - offset) {
        snprintf(why, size, "worker: shared segment %llu is not mapped %s (or the range passes its end)",
                 (unsigned long long)id, writable ? "read-write" : "read-only");
        return -1;
    }
    *out = (unsigned char *)view + offset;
    return 0;
}

/* A write into a read-only view is a plugin writing into the host's inputs:
 * say so before the crash handler prints the stack. */
static struct sigaction previous_segv;

static void say(const char *s)
{
    ssize_t ignored = write(STDERR_FILENO, s, strlen(s));
    (void)ignored;
}

static void on_segv(int sig, siginfo_t *info, void *uctx)
{
    const unsigned char *addr = info ? info->si_addr : NULL;
    for (size_t i = 0; addr && i < n_maps; i++) {
        const unsigned char *ro = maps[i].ro;
        if (ro && addr >= ro && addr < ro + maps[i].size) {
            say("\ngemmhost worker: " GH_WORKER_READ_ONLY_FAULT
                " (the plugin wrote into host memory it was given to read)\n");
            break;
        }
    }
    sigaction(SIGSEGV, &previous_segv, NULL);
    if (previous_segv.sa_flags & SA_SIGINFO) previous_segv.sa_sigaction(sig, info, uctx);
    else if (previous_segv.sa_handler != SIG_DFL && previous_segv.sa_handler != SIG_IGN)
        previous_segv.sa_handler(sig);
    else raise(sig);
}

static void explain_read_only_faults(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous_segv);
}

/* ---- streams: what an async call writes at stream_synchronize ---- */

typedef struct pending {
    struct pending *next;
    int is_gemm;
    double ms;
    gh_gemm_args args;
    int64_t *params;
    gh_gemm_timing timing;
} pending;

typedef struct wstream {
    gh_stream *stream;
    pending *head, *tail;
} wstream;

static pending *queue(wstream *s)
{
    pending *p = gh_xcalloc(1, sizeof *p);
    if (s->tail) s->tail->next = p;
    else s->head = p;
    s->tail = p;
    return p;
}

/* Drops the last record (its call was refused: nothing was queued). */
static void unqueue(wstream *s, pending *p)
{
    pending **at = &s->head, *prev = NULL;
    while (*at && *at != p) {
        prev = *at;
        at = &(*at)->next;
    }
    if (!*at) return;
    *at = p->next;
    if (s->tail == p) s->tail = prev;
    free(p->params);
    free(p);
}

static void drop_queue(wstream *s)
{
    while (s->head) {
        pending *p = s->head;
        s->head = p->next;
        free(p->params);
        free(p);
    }
    s->tail = NULL;
}

/* ---- the calls ---- */

typedef struct worker {
    int sock;
    gh_loaded_plugin plugin;
    const gh_plugin_api *api;
    gh_plugin *ctx;
    char name[64];
} worker;

static void reply_error(gh_wire *r, gh_status s, const char *text)
{
    gh_wire_start(r, (uint32_t)s);
    gh_wire_str(r, text && *text ? text : "(the plugin gave no reason)");
}

static void reply_status(worker *wk, gh_wire *r, gh_status s)
{
    if (s == GH_OK) gh_wire_start(r, GH_OK);
    else reply_error(r, s, wk->api->last_error(wk->ctx));
}

static uint32_t optional_flags(const gh_loaded_plugin *p)
{
    const gh_plugin_api *a = p->api;
    int minor1 = p->abi_minor >= 1 && GH_HAS_MEMBER(a, gh_plugin_api, host_free);
    uint32_t flags = 0;
    if (minor1 && a->stream_create && a->stream_destroy && a->upload_2d_async && a->download_2d_async &&
        a->gemm_async && a->stream_synchronize)
        flags |= 1u;
    if (minor1 && a->host_alloc && a->host_free) flags |= 2u;
    return flags;
}

static void do_load(worker *wk, gh_wire *q, gh_wire *r)
{
    char *path = gh_wire_get_str(q);
    gh_crash_doing("worker: loading plugin %s", path ? path : "?");
    if (!path || gh_plugin_load(path, &wk->plugin) != 0) {
        gh_wire_start(r, 1);
        gh_wire_str(r, wk->plugin.error ? wk->plugin.error : "worker: no plugin path given");
        gh_wire_u32(r, wk->plugin.abi_major);
        free(path);
        return;
    }
    free(path);
    const gh_plugin_api *a = wk->api = wk->plugin.api;
    snprintf(wk->name, sizeof wk->name, "%s", wk->plugin.name);
    gh_wire_start(r, 0);
    gh_wire_u32(r, wk->plugin.abi_major);
    gh_wire_u32(r, wk->plugin.abi_minor);
    gh_wire_str(r, a->name);
    gh_wire_str(r, a->description);
    gh_wire_str(r, a->version);
    gh_wire_options(r, a->options, a->n_options);
    gh_wire_u32(r, optional_flags(&wk->plugin));
}

static void do_open(worker *wk, gh_wire *q, gh_wire *r)
{
    size_t n = (size_t)gh_wire_get_u64(q);
    if (n > GH_WIRE_MAX / 8) n = 0, q->bad = 1;
    gh_option_value *opts = gh_xcalloc(n ? n : 1, sizeof *opts);
    for (size_t i = 0; i < n; i++) {
        opts[i].name = gh_wire_get_str(q);
        opts[i].value = gh_wire_get_str(q);
    }
    if (q->bad || !wk->api || wk->ctx) {
        reply_error(r, GH_ERROR, !wk->api ? "worker: no plugin loaded" : "worker: a context is already open");
    } else {
        gh_crash_doing("worker: opening plugin %s", wk->name);
        gh_status s = wk->api->open(opts, n, &wk->ctx);
        if (s != GH_OK) {
            wk->ctx = NULL;
            reply_error(r, s, wk->api->last_error(NULL));
        } else {
            gh_wire_start(r, GH_OK);
        }
    }
    for (size_t i = 0; i < n; i++) {
        free((char *)opts[i].name);
        free((char *)opts[i].value);
    }
    free(opts);
}

static void get_args(gh_wire *q, gh_gemm_args *g, int64_t **params)
{
    memset(g, 0, sizeof *g);
    uint64_t size = gh_wire_get_u64(q);
    g->size = size < sizeof *g ? (size_t)size : sizeof *g;
    g->dtype = (gh_dtype)gh_wire_get_u32(q);
    g->trans_a = (int32_t)gh_wire_get_u32(q);
    g->trans_b = (int32_t)gh_wire_get_u32(q);
    g->m = gh_wire_get_i64(q);
    g->n = gh_wire_get_i64(q);
    g->k = gh_wire_get_i64(q);
    g->alpha = gh_wire_get_f64(q);
    g->beta = gh_wire_get_f64(q);
    g->lda = gh_wire_get_i64(q);
    g->ldb = gh_wire_get_i64(q);
    g->ldc = gh_wire_get_i64(q);
    g->a = (gh_buffer *)(uintptr_t)gh_wire_get_u64(q);
    g->b = (gh_buffer *)(uintptr_t)gh_wire_get_u64(q);
    g->c = (gh_buffer *)(uintptr_t)gh_wire_get_u64(q);
    g->a_offset = gh_wire_get_u64(q);
    g->b_offset = gh_wire_get_u64(q);
    g->c_offset = gh_wire_get_u64(q);
    g->n_params = (size_t)gh_wire_get_u64(q);
    int has_params = gh_wire_get_u32(q) != 0;
    size_t n = g->n_params < GH_WIRE_MAX / 8 ? g->n_params : 0;
    *params = NULL;
    if (has_params) {
        *params = gh_xcalloc(n ? n : 1, sizeof **params);
        for (size_t i = 0; i < n; i++) (*params)[i] = gh_wire_get_i64(q);
    }
    g->params = *params;
}

static void crash_doing_gemm(const worker *wk, const char *call, int device, int kernel, const gh_gemm_args *g)
{
    gh_crash_doing("worker: plugin %s, %s on device %d, kernel %d, %lldx%lldx%lld", wk->name, call, device, kernel,
                   (long long)g->m, (long long)g->n, (long long)g->k);
}

static void do_gemm(worker *wk, gh_wire *q, gh_wire *r)
{
    int device = (int)gh_wire_get_i64(q), kernel = (int)gh_wire_get_i64(q);
    gh_gemm_args g;
    int64_t *params;
    get_args(q, &g, &params);
    uint64_t tsize = gh_wire_get_u64(q);
    gh_gemm_timing t = {.size = tsize < sizeof t ? (size_t)tsize : sizeof t};
    crash_doing_gemm(wk, "gemm", device, kernel, &g);
    gh_status s = wk->api->gemm(wk->ctx, device, kernel, &g, &t);
    reply_status(wk, r, s);
    if (s == GH_OK) {
        gh_wire_f64(r, t.kernel_ms);
        gh_wire_u32(r, (uint32_t)t.clock);
    }
    free(params);
}

static void do_copy(worker *wk, gh_wire *q, gh_wire *r, int upload)
{
    gh_buffer *buf = (gh_buffer *)(uintptr_t)gh_wire_get_u64(q);
    uint64_t offset = gh_wire_get_u64(q);
    void *host;
    char why[160];
    if (host_pointer(q, !upload, &host, why, sizeof why) != 0) return reply_error(r, GH_ERROR, why);
    uint64_t bytes = gh_wire_get_u64(q);
    gh_crash_doing("worker: plugin %s, %s of %llu bytes", wk->name, upload ? "upload" : "download",
                   (unsigned long long)bytes);
    gh_status s = upload ? wk->api->upload(wk->ctx, buf, offset, host, bytes)
                         : wk->api->download(wk->ctx, buf, offset, host, bytes);
    reply_status(wk, r, s);
}

static void do_copy_2d(worker *wk, gh_wire *q, gh_wire *r, int upload)
{
    wstream *st = (wstream *)(uintptr_t)gh_wire_get_u64(q);
    gh_buffer *buf = (gh_buffer *)(uintptr_t)gh_wire_get_u64(q);
    uint64_t offset = gh_wire_get_u64(q), pitch = gh_wire_get_u64(q);
    void *host;
    char why[160];
    if (host_pointer(q, !upload, &host, why, sizeof why) != 0) return reply_error(r, GH_ERROR, why);
    uint64_t host_pitch = gh_wire_get_u64(q), width = gh_wire_get_u64(q), rows = gh_wire_get_u64(q);
    int want_ms = gh_wire_get_u32(q) != 0;
    pending *p = st ? queue(st) : NULL;
    gh_crash_doing("worker: plugin %s, %s of %llu rows of %llu bytes", wk->name,
                   upload ? "upload_2d_async" : "download_2d_async", (unsigned long long)rows,
                   (unsigned long long)width);
    gh_stream *stream = st ? st->stream : NULL;
    double *ms = p && want_ms ? &p->ms : NULL;
    gh_status s = upload ? wk->api->upload_2d_async(wk->ctx, stream, buf, offset, pitch, host, host_pitch, width,
                                                    rows, ms)
                         : wk->api->download_2d_async(wk->ctx, stream, buf, offset, pitch, host, host_pitch, width,
                                                      rows, ms);
    if (s != GH_OK && p) unqueue(st, p);
    reply_status(wk, r, s);
}

static void do_gemm_async(worker *wk, gh_wire *q, gh_wire *r)
{
    wstream *st = (wstream *)(uintptr_t)gh_wire_get_u64(q);
    int kernel = (int)gh_wire_get_i64(q);
    pending scratch = {0}, *p = st ? queue(st) : &scratch; /* no stream: refused, nothing queued */
    get_args(q, &p->args, &p->params);
    uint64_t tsize = gh_wire_get_u64(q);
    p->is_gemm = 1;
    p->timing = (gh_gemm_timing){.size = tsize < sizeof p->timing ? (size_t)tsize : sizeof p->timing};
    crash_doing_gemm(wk, "gemm_async", -1, kernel, &p->args);
    gh_status s = wk->api->gemm_async(wk->ctx, st ? st->stream : NULL, kernel, &p->args, &p->timing);
    if (p == &scratch) free(p->params);
    else if (s != GH_OK) unqueue(st, p);
    reply_status(wk, r, s);
}

static void do_stream_sync(worker *wk, gh_wire *q, gh_wire *r)
{
    wstream *st = (wstream *)(uintptr_t)gh_wire_get_u64(q);
    gh_crash_doing("worker: plugin %s, stream_synchronize", wk->name);
    gh_status s = wk->api->stream_synchronize(wk->ctx, st ? st->stream : NULL);
    reply_status(wk, r, s);
    size_t n = 0;
    for (pending *p = st ? st->head : NULL; p; p = p->next) n++;
    gh_wire_u64(r, n);
    for (pending *p = st ? st->head : NULL; p; p = p->next) {
        gh_wire_u32(r, (uint32_t)p->is_gemm);
        gh_wire_f64(r, p->ms);
        gh_wire_f64(r, p->timing.kernel_ms);
        gh_wire_u32(r, (uint32_t)p->timing.clock);
    }
    if (st) drop_queue(st);
}

static void do_stream_create(worker *wk, gh_wire *q, gh_wire *r)
{
    int device = (int)gh_wire_get_i64(q);
    gh_stream *stream = NULL;
    gh_crash_doing("worker: plugin %s, stream_create on device %d", wk->name, device);
    gh_status s = wk->api->stream_create(wk->ctx, device, &stream);
    reply_status(wk, r, s);
    if (s != GH_OK) return;
    wstream *st = gh_xcalloc(1, sizeof *st);
    st->stream = stream;
    gh_wire_u64(r, (uint64_t)(uintptr_t)st);
}

static void do_stream_destroy(worker *wk, gh_wire *q, gh_wire *r)
{
    wstream *st = (wstream *)(uintptr_t)gh_wire_get_u64(q);
    gh_crash_doing("worker: plugin %s, stream_destroy", wk->name);
    if (st) {
        wk->api->stream_destroy(wk->ctx, st->stream);
        drop_queue(st);
        free(st);
    }
    gh_wire_start(r, GH_OK);
}

/* Every call that needs an open context; the rest are answered in serve(). */
static void call(worker *wk, uint32_t op, gh_wire *q, gh_wire *r)
{
    const gh_plugin_api *a = wk->api;
    gh_plugin *ctx = wk->ctx;
    switch (op) {
    case GH_OP_DEVICE_COUNT: {
        gh_crash_doing("worker: plugin %s, device_count", wk->name);
        int n = a->device_count(ctx);
        gh_wire_start(r, GH_OK);
        gh_wire_i64(r, n);
        gh_wire_str(r, n <= 0 ? a->last_error(ctx) : NULL);
        break;
    }
    case GH_OP_DEVICE_INFO: {
        int d = (int)gh_wire_get_i64(q);
        gh_crash_doing("worker: plugin %s, device_info(%d)", wk->name, d);
        gh_wire_start(r, GH_OK);
        gh_wire_device_info(r, a->device_info(ctx, d));
        break;
    }
    case GH_OP_KERNEL_COUNT:
        gh_crash_doing("worker: plugin %s, kernel_count", wk->name);
        gh_wire_start(r, GH_OK);
        gh_wire_i64(r, a->kernel_count(ctx));
        break;
    case GH_OP_KERNEL_INFO: {
        int k = (int)gh_wire_get_i64(q);
        gh_crash_doing("worker: plugin %s, kernel_info(%d)", wk->name, k);
        gh_wire_start(r, GH_OK);
        gh_wire_kernel_info(r, a->kernel_info(ctx, k));
        break;
    }
    case GH_OP_BUFFER_ALLOC: {
        int d = (int)gh_wire_get_i64(q);
        uint64_t bytes = gh_wire_get_u64(q);
        gh_buffer *b = NULL;
        gh_crash_doing("worker: plugin %s, buffer_alloc of %llu bytes", wk->name, (unsigned long long)bytes);
        gh_status s = a->buffer_alloc(ctx, d, bytes, &b);
        reply_status(wk, r, s);
        if (s == GH_OK) gh_wire_u64(r, (uint64_t)(uintptr_t)b);
        break;
    }
    case GH_OP_BUFFER_FREE:
        gh_crash_doing("worker: plugin %s, buffer_free", wk->name);
        a->buffer_free(ctx, (gh_buffer *)(uintptr_t)gh_wire_get_u64(q));
        gh_wire_start(r, GH_OK);
        break;
    case GH_OP_UPLOAD: do_copy(wk, q, r, 1); break;
    case GH_OP_DOWNLOAD: do_copy(wk, q, r, 0); break;
    case GH_OP_GEMM: do_gemm(wk, q, r); break;
    case GH_OP_SYNCHRONIZE: {
        int d = (int)gh_wire_get_i64(q);
        gh_crash_doing("worker: plugin %s, synchronize(%d)", wk->name, d);
        reply_status(wk, r, a->synchronize(ctx, d));
        break;
    }
    case GH_OP_STREAM_CREATE: do_stream_create(wk, q, r); break;
    case GH_OP_STREAM_DESTROY: do_stream_destroy(wk, q, r); break;
    case GH_OP_UPLOAD_2D_ASYNC: do_copy_2d(wk, q, r, 1); break;
    case GH_OP_DOWNLOAD_2D_ASYNC: do_copy_2d(wk, q, r, 0); break;
    case GH_OP_GEMM_ASYNC: do_gemm_async(wk, q, r); break;
    case GH_OP_STREAM_SYNCHRONIZE: do_stream_sync(wk, q, r); break;
    default: reply_error(r, GH_ERROR, "worker: unknown request"); break;
    }
}

/* The request loop. Returns when the host closes the socket (or dies) or
 * after the reply to GH_OP_CLOSE. */
static void serve(worker *wk)
{
    static gh_wire q, r; /* 64 KiB each: not on the stack */
    for (;;) {
        int fd = -1;
        int got = gh_wire_recv(wk->sock, &q, &fd);
        if (got <= 0) return;
        uint32_t op = gh_wire_get_u32(&q);
        if (op == GH_OP_MAP) {
            map_segment(&q, fd);
            continue;
        }
        if (fd >= 0) close(fd);
        if (op == GH_OP_UNMAP) {
            unmap_segment(&q);
            continue;
        }
        if (op == GH_OP_LOAD) do_load(wk, &q, &r);
        else if (op == GH_OP_OPEN) do_open(wk, &q, &r);
        else if (op == GH_OP_CLOSE) {
            gh_crash_doing("worker: plugin %s, close", wk->name);
            if (wk->ctx) wk->api->close(wk->ctx);
            wk->ctx = NULL;
            gh_wire_start(&r, GH_OK);
        } else if (!wk->ctx) reply_error(&r, GH_ERROR, "worker: no context is open");
        else call(wk, op, &q, &r);
        if (q.bad) reply_error(&r, GH_ERROR, "worker: a malformed request (a host bug)");
        if (r.bad) reply_error(&r, GH_ERROR, "worker: the answer does not fit in one message");
        if (gh_wire_send(wk->sock, &r, -1) != 0 || op == GH_OP_CLOSE) return;
    }
}

int gh_worker_main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "gemmhost: %s is for gemmhost's own use\n", GH_WORKER_ARG);
        return 2;
    }
    /* Die with the host, whatever it dies of; it may already be gone. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)atol(argv[3])) return 1;
    signal(SIGINT, SIG_IGN); /* the host decides when a worker stops */
    signal(SIGPIPE, SIG_IGN);
    gh_crash_install();
    explain_read_only_faults();
    worker wk = {.sock = atoi(argv[2])};
    snprintf(wk.name, sizeof wk.name, "?");
    serve(&wk);
    for (size_t i = 0; i < n_maps; i++) {
        if (maps[i].ro) munmap(maps[i].ro, maps[i].size);
        if (maps[i].rw) munmap(maps[i].rw, maps[i].size);
    }
    free(maps);
    gh_plugin_unload(&wk.plugin);
    close(wk.sock);
    return 0;
}
