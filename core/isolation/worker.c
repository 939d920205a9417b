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
#include "msg_buffers.h"
#include "msg_gemm.h"
#include "msg_host.h"
#include "msg_plugin.h"
#include "wire.h"

/* ---- shared segments ---- */

/* A view's registration with the plugin (ABI minor 4), asked for once. */
typedef struct view_reg {
    int state;        /* 0: not asked, 1: registered, -1: refused */
    gh_status status; /* the refusal's */
    char *text;       /* how it was reached, or why not */
} view_reg;

typedef struct mapping {
    uint64_t id, size;
    void *ro, *rw; /* the read-only and the read-write view, each mapped when first needed */
    view_reg ro_reg, rw_reg;
} mapping;

typedef struct worker worker;
static void unregister_views(worker *wk, mapping *m);

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
    gh_msg_map msg;
    int bad = gh_msg_map_get(w, &msg) != 0;
    uint64_t id = msg.segment, size = msg.size;
    int writable = msg.writable != 0;
    if (fd < 0 || bad) {
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

static void unmap_segment(worker *wk, gh_wire *w)
{
    gh_msg_handle msg;
    mapping *m = gh_msg_handle_get(w, &msg) == 0 ? find_map(msg.handle) : NULL;
    if (!m) return;
    unregister_views(wk, m); /* the plugin lets go of the pages before they go */
    if (m->ro) munmap(m->ro, m->size);
    if (m->rw) munmap(m->rw, m->size);
    *m = maps[--n_maps];
}

/* A host pointer in a request: NULL, a place in a segment, or a non-NULL
 * pointer for a zero-byte copy. Returns 0, or -1 with why. */
static int host_pointer(const gh_msg_place *place, int writable, void **out, char *why, size_t size)
{
    static unsigned char nothing[1];
    uint64_t id = place->segment, offset = place->offset, extent = place->extent;
    *out = place->kind == GH_PLACE_NULL ? NULL : nothing;
    if (place->kind != GH_PLACE_SEGMENT) return 0;
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
    else if (previous_segv.sa_handler != SIG_DFL && previous_segv.sa_handler != SIG_IGN) previous_segv.sa_handler(sig);
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
    /* Launches the host was told failed (a batch refused after its first
     * launch): kept until the sync, whose writes they await, but not reported. */
    int hidden;
    double ms;
    gh_gemm_args args; /* decoded: its params are the record's */
    gh_gemm_timing timing;
    /* gemm_batch_async emulated with gemm_async: each launch's timing (n_launched queued) */
    gh_gemm_timing *launches;
    uint32_t n_batch, n_launched;
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

static void free_record(pending *p)
{
    gh_gemm_args_clear(&p->args);
    free(p->launches);
    free(p);
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
    free_record(p);
}

static void drop_queue(wstream *s)
{
    while (s->head) {
        pending *p = s->head;
        s->head = p->next;
        free_record(p);
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
    gh_msg_error e = {.why = (char *)(text && *text ? text : "(the plugin gave no reason)")};
    gh_wire_start(r, (uint32_t)s);
    gh_msg_error_put(r, &e);
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
        flags |= GH_LOADED_HAS_STREAMS;
    if (minor1 && a->host_alloc && a->host_free) flags |= GH_LOADED_HAS_HOST_ALLOC;
    if (p->abi_minor >= 4 && GH_HAS_MEMBER(a, gh_plugin_api, host_unregister) && a->host_register && a->host_unregister)
        flags |= GH_LOADED_HAS_HOST_REGISTER;
    return flags;
}

static void do_load(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_load req;
    gh_msg_load_get(q, &req);
    gh_crash_doing("worker: loading plugin %s", req.path ? req.path : "?");
    if (!req.path || gh_plugin_load(req.path, &wk->plugin) != 0) {
        gh_msg_load_refused no = {.error = wk->plugin.error ? wk->plugin.error : "worker: no plugin path given",
                                  .abi_major = wk->plugin.abi_major};
        gh_wire_start(r, 1);
        gh_msg_load_refused_put(r, &no);
        gh_msg_load_clear(&req);
        return;
    }
    gh_msg_load_clear(&req);
    const gh_plugin_api *a = wk->api = wk->plugin.api;
    snprintf(wk->name, sizeof wk->name, "%s", wk->plugin.name);
    gh_msg_loaded yes = {.abi_major = wk->plugin.abi_major,
                         .abi_minor = wk->plugin.abi_minor,
                         .name = (char *)a->name,
                         .description = (char *)a->description,
                         .version = (char *)a->version,
                         .options = (gh_option_info *)a->options,
                         .n_options = a->n_options,
                         .flags = optional_flags(&wk->plugin)};
    gh_wire_start(r, 0);
    gh_msg_loaded_put(r, &yes);
}

static void do_open(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_open req;
    if (gh_msg_open_get(q, &req) != 0 || !wk->api || wk->ctx) {
        reply_error(r, GH_ERROR, !wk->api ? "worker: no plugin loaded" : "worker: a context is already open");
    } else {
        gh_crash_doing("worker: opening plugin %s", wk->name);
        gh_status s = wk->api->open(req.options, req.n_options, &wk->ctx);
        if (s != GH_OK) {
            wk->ctx = NULL;
            reply_error(r, s, wk->api->last_error(NULL));
        } else {
            gh_wire_start(r, GH_OK);
        }
    }
    gh_msg_open_clear(&req);
}

static void crash_doing_gemm(const worker *wk, const char *call, int device, int kernel, const gh_gemm_args *g)
{
    gh_crash_doing("worker: plugin %s, %s on device %d, kernel %d, %lldx%lldx%lld", wk->name, call, device, kernel,
                   (long long)g->m, (long long)g->n, (long long)g->k);
}

/* The worker's timing for a caller's of `size` bytes (0: none). */
static gh_gemm_timing timing_for(uint64_t size)
{
    return (gh_gemm_timing){.size = size < sizeof(gh_gemm_timing) ? (size_t)size : sizeof(gh_gemm_timing)};
}

static void do_gemm(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_gemm req;
    if (gh_msg_gemm_get(q, &req) != 0) return; /* serve() says it was malformed */
    int device = (int)req.device, kernel = (int)req.kernel;
    gh_gemm_timing t = timing_for(req.timing_size);
    crash_doing_gemm(wk, "gemm", device, kernel, &req.args);
    gh_status s = wk->api->gemm(wk->ctx, device, kernel, &req.args, &t);
    reply_status(wk, r, s);
    if (s == GH_OK)
        gh_msg_gemm_done_put(r, &(gh_msg_gemm_done){.kernel_ms = t.kernel_ms,
                                                    .clock = (uint32_t)t.clock,
                                                    .note = t.note,
                                                    .split_pieces = t.split_pieces,
                                                    .split_precision = (uint32_t)t.split_precision});
    gh_msg_gemm_clear(&req);
}

static void do_copy(worker *wk, gh_wire *q, gh_wire *r, int upload)
{
    gh_msg_copy req;
    if (gh_msg_copy_get(q, &req) != 0) return;
    gh_buffer *buf = (gh_buffer *)(uintptr_t)req.buffer;
    void *host;
    char why[160];
    if (host_pointer(&req.host, !upload, &host, why, sizeof why) != 0) return reply_error(r, GH_ERROR, why);
    gh_crash_doing("worker: plugin %s, %s of %llu bytes", wk->name, upload ? "upload" : "download",
                   (unsigned long long)req.bytes);
    gh_status s = upload ? wk->api->upload(wk->ctx, buf, req.offset, host, req.bytes)
                         : wk->api->download(wk->ctx, buf, req.offset, host, req.bytes);
    reply_status(wk, r, s);
}

static void do_copy_2d(worker *wk, gh_wire *q, gh_wire *r, int upload)
{
    gh_msg_copy_2d req;
    if (gh_msg_copy_2d_get(q, &req) != 0) return;
    wstream *st = (wstream *)(uintptr_t)req.stream;
    gh_buffer *buf = (gh_buffer *)(uintptr_t)req.buffer;
    void *host;
    char why[160];
    if (host_pointer(&req.host, !upload, &host, why, sizeof why) != 0) return reply_error(r, GH_ERROR, why);
    pending *p = st ? queue(st) : NULL;
    gh_crash_doing("worker: plugin %s, %s of %llu rows of %llu bytes", wk->name,
                   upload ? "upload_2d_async" : "download_2d_async", (unsigned long long)req.rows,
                   (unsigned long long)req.width);
    gh_stream *stream = st ? st->stream : NULL;
    double *ms = p && req.want_ms ? &p->ms : NULL;
    gh_status s = upload ? wk->api->upload_2d_async(wk->ctx, stream, buf, req.offset, req.pitch, host, req.host_pitch,
                                                    req.width, req.rows, ms)
                         : wk->api->download_2d_async(wk->ctx, stream, buf, req.offset, req.pitch, host, req.host_pitch,
                                                      req.width, req.rows, ms);
    if (s != GH_OK && p) unqueue(st, p);
    reply_status(wk, r, s);
}

static void do_gemm_async(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_gemm_async req;
    if (gh_msg_gemm_async_get(q, &req) != 0) return;
    wstream *st = (wstream *)(uintptr_t)req.stream;
    int kernel = (int)req.kernel;
    pending scratch = {0}, *p = st ? queue(st) : &scratch; /* no stream: refused, nothing queued */
    p->args = req.args;                                    /* the record owns the params now */
    p->is_gemm = 1;
    p->timing = timing_for(req.timing_size);
    crash_doing_gemm(wk, "gemm_async", -1, kernel, &p->args);
    gh_status s = wk->api->gemm_async(wk->ctx, st ? st->stream : NULL, kernel, &p->args, &p->timing);
    if (p == &scratch) gh_gemm_args_clear(&p->args);
    else if (s != GH_OK) unqueue(st, p);
    reply_status(wk, r, s);
}

/* gemm_batch_async (ABI 1.6) for a plugin without one: n gemm_async
 * launches into p->launches, each timed in full whatever the host's size.
 * Returns the first refusal, with `why` naming the launch after the first
 * (the first's refusal is the plugin's own words, as gemm_async's). */
static gh_status launch_each(worker *wk, wstream *st, pending *p, int kernel, uint32_t n, char *why, size_t size)
{
    p->launches = calloc(n, sizeof *p->launches);
    if (!p->launches) {
        snprintf(why, size, "worker: gemm_batch_async: no host memory for %u launches' timings", n);
        return GH_OUT_OF_MEMORY;
    }
    p->n_batch = n;
    crash_doing_gemm(wk, "gemm_batch_async (by gemm_async)", -1, kernel, &p->args);
    for (uint32_t i = 0; i < n; i++) {
        p->launches[i] = timing_for(sizeof(gh_gemm_timing));
        gh_status s = wk->api->gemm_async(wk->ctx, st ? st->stream : NULL, kernel, &p->args, &p->launches[i]);
        if (s != GH_OK) {
            if (i > 0)
                snprintf(why, size, "gemm_batch_async: launch %u of %u (by gemm_async: the plugin has none): %s", i + 1,
                         n, wk->api->last_error(wk->ctx));
            return s;
        }
        p->n_launched = i + 1;
    }
    return GH_OK;
}

static void do_gemm_batch_async(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_gemm_batch_async req;
    if (gh_msg_gemm_batch_async_get(q, &req) != 0) return;
    wstream *st = (wstream *)(uintptr_t)req.stream;
    int kernel = (int)req.kernel;
    pending scratch = {0}, *p = st ? queue(st) : &scratch; /* no stream: refused, nothing queued */
    p->args = req.args;
    p->is_gemm = 1;
    p->timing = timing_for(req.timing_size);
    char why[GH_WIRE_MAX / 64] = "gemm_batch_async: n is 0 (a batch has at least one launch)";
    gh_status s = GH_INVALID_ARGUMENT;
    if (req.n > 0 && gh_plugin_has_batch(wk->api, wk->plugin.abi_minor)) {
        why[0] = '\0';
        crash_doing_gemm(wk, "gemm_batch_async", -1, kernel, &p->args);
        s = wk->api->gemm_batch_async(wk->ctx, st ? st->stream : NULL, kernel, &p->args, req.n, &p->timing);
    } else if (req.n > 0) {
        why[0] = '\0';
        s = launch_each(wk, st, p, kernel, req.n, why, sizeof why);
    }
    if (p == &scratch) {
        gh_gemm_args_clear(&p->args);
        free(p->launches);
    } else if (s != GH_OK && p->n_launched == 0) {
        unqueue(st, p);
    } else if (s != GH_OK) {
        p->hidden = 1;
    }
    if (s != GH_OK && why[0]) reply_error(r, s, why);
    else reply_status(wk, r, s);
}

static void append(char *dst, size_t size, const char *s)
{
    size_t n = strlen(dst);
    while (*s && n + 1 < size) dst[n++] = *s++;
    dst[n] = '\0';
}

/* An emulated batch's one timing, once its launches' are written: their
 * mean, the host's clock if any launch used it, the widest split of K. */
static void settle_launches(pending *p)
{
    double total = 0;
    int host = 0;
    gh_gemm_timing *t = &p->timing;
    t->split_pieces = 0;
    t->split_precision = GH_PREC_AS_STORED;
    for (uint32_t i = 0; i < p->n_launched; i++) {
        const gh_gemm_timing *l = &p->launches[i];
        total += l->kernel_ms;
        host |= l->clock == GH_CLOCK_HOST;
        if (l->split_pieces > t->split_pieces) {
            t->split_pieces = l->split_pieces;
            t->split_precision = l->split_precision;
        }
    }
    t->kernel_ms = total / p->n_batch;
    t->clock = host ? GH_CLOCK_HOST : GH_CLOCK_DEVICE;
    snprintf(t->note, sizeof t->note, "%u gemm_async launches (the plugin has no gemm_batch_async)", p->n_batch);
    if (p->launches[0].note[0]) { /* the plugin's words last, cut at the note's size */
        append(t->note, sizeof t->note, "; the first's note: ");
        append(t->note, sizeof t->note, p->launches[0].note);
    }
}

static void do_stream_sync(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_handle req;
    if (gh_msg_handle_get(q, &req) != 0) return;
    wstream *st = (wstream *)(uintptr_t)req.handle;
    gh_crash_doing("worker: plugin %s, stream_synchronize", wk->name);
    gh_status s = wk->api->stream_synchronize(wk->ctx, st ? st->stream : NULL);
    reply_status(wk, r, s);
    gh_msg_synced done = {0};
    for (pending *p = st ? st->head : NULL; p; p = p->next) done.n_calls += !p->hidden;
    done.calls = gh_xcalloc(done.n_calls + 1, sizeof *done.calls);
    size_t i = 0;
    for (pending *p = st ? st->head : NULL; p; p = p->next) {
        if (p->hidden) continue;
        if (p->launches) settle_launches(p);
        done.calls[i++] = (gh_msg_queued){.is_gemm = (uint32_t)p->is_gemm,
                                          .ms = p->ms,
                                          .kernel_ms = p->timing.kernel_ms,
                                          .clock = (uint32_t)p->timing.clock,
                                          .note = p->timing.note,
                                          .split_pieces = p->timing.split_pieces,
                                          .split_precision = (uint32_t)p->timing.split_precision};
    }
    gh_msg_synced_put(r, &done);
    free(done.calls);
    if (st) drop_queue(st);
}

static void do_stream_create(worker *wk, int device, gh_wire *r)
{
    gh_stream *stream = NULL;
    gh_crash_doing("worker: plugin %s, stream_create on device %d", wk->name, device);
    gh_status s = wk->api->stream_create(wk->ctx, device, &stream);
    reply_status(wk, r, s);
    if (s != GH_OK) return;
    wstream *st = gh_xcalloc(1, sizeof *st);
    st->stream = stream;
    gh_msg_handle_put(r, &(gh_msg_handle){(uint64_t)(uintptr_t)st});
}

static void do_stream_destroy(worker *wk, uint64_t handle, gh_wire *r)
{
    wstream *st = (wstream *)(uintptr_t)handle;
    gh_crash_doing("worker: plugin %s, stream_destroy", wk->name);
    if (st) {
        wk->api->stream_destroy(wk->ctx, st->stream);
        drop_queue(st);
        free(st);
    }
    gh_wire_start(r, GH_OK);
}

/* ---- host memory registration (ABI minor 4) ---- */

/* Registers the worker's view of a segment, once: later requests get the
 * first answer. The view stays registered until the segment is unmapped or
 * the context closes. */
static void do_host_register(worker *wk, gh_wire *q, gh_wire *r)
{
    gh_msg_host_register req;
    if (gh_msg_host_register_get(q, &req) != 0) return;
    const int read_only = (req.flags & GH_HOST_REGISTER_READ_ONLY) != 0;
    mapping *m = req.host.kind == GH_PLACE_SEGMENT ? find_map(req.host.segment) : NULL;
    void *view = m ? (read_only ? m->ro : m->rw) : NULL;
    if (!view) {
        char why[160];
        snprintf(why, sizeof why, "worker: shared segment %llu is not mapped %s", (unsigned long long)req.host.segment,
                 read_only ? "read-only" : "read-write");
        return reply_error(r, GH_ERROR, why);
    }
    view_reg *reg = read_only ? &m->ro_reg : &m->rw_reg;
    if (reg->state == 0) {
        const char *how = NULL;
        gh_crash_doing("worker: plugin %s, host_register of %llu bytes", wk->name, (unsigned long long)m->size);
        gh_status s = wk->api->host_register(wk->ctx, view, m->size, read_only ? GH_HOST_REGISTER_READ_ONLY : 0, &how);
        reg->state = s == GH_OK ? 1 : -1;
        reg->status = s;
        reg->text = gh_strdup(s == GH_OK ? (how ? how : "registered") : wk->api->last_error(wk->ctx));
    }
    if (reg->state < 0) return reply_error(r, reg->status, reg->text);
    gh_wire_start(r, GH_OK);
    gh_msg_host_registered_put(r, &(gh_msg_host_registered){reg->text});
}

static void unregister_view(worker *wk, void *view, view_reg *reg)
{
    if (reg->state == 1 && wk->ctx) {
        gh_crash_doing("worker: plugin %s, host_unregister", wk->name);
        if (wk->api->host_unregister(wk->ctx, view) != GH_OK)
            fprintf(stderr, "gemmhost worker: host_unregister: %s\n", wk->api->last_error(wk->ctx));
    }
    free(reg->text);
    *reg = (view_reg){0};
}

static void unregister_views(worker *wk, mapping *m)
{
    unregister_view(wk, m->ro, &m->ro_reg);
    unregister_view(wk, m->rw, &m->rw_reg);
}

/* The calls whose request is one index or one handle. */
static void call_small(worker *wk, uint32_t op, gh_wire *q, gh_wire *r)
{
    const gh_plugin_api *a = wk->api;
    gh_plugin *ctx = wk->ctx;
    gh_msg_index i = {0};
    gh_msg_handle h = {0};
    int by_handle = op == GH_OP_BUFFER_FREE || op == GH_OP_STREAM_DESTROY;
    if (by_handle ? gh_msg_handle_get(q, &h) != 0 : gh_msg_index_get(q, &i) != 0) return;
    int index = (int)i.index;
    switch (op) {
    case GH_OP_DEVICE_INFO:
        gh_crash_doing("worker: plugin %s, device_info(%d)", wk->name, index);
        gh_wire_start(r, GH_OK);
        gh_msg_device_info_put(r, &(gh_msg_device_info){(gh_device_info *)a->device_info(ctx, index)});
        break;
    case GH_OP_KERNEL_INFO:
        gh_crash_doing("worker: plugin %s, kernel_info(%d)", wk->name, index);
        gh_wire_start(r, GH_OK);
        gh_msg_kernel_info_put(r, &(gh_msg_kernel_info){(gh_kernel_info *)a->kernel_info(ctx, index)});
        break;
    case GH_OP_SYNCHRONIZE:
        gh_crash_doing("worker: plugin %s, synchronize(%d)", wk->name, index);
        reply_status(wk, r, a->synchronize(ctx, index));
        break;
    case GH_OP_STREAM_CREATE: do_stream_create(wk, index, r); break;
    case GH_OP_BUFFER_FREE:
        gh_crash_doing("worker: plugin %s, buffer_free", wk->name);
        a->buffer_free(ctx, (gh_buffer *)(uintptr_t)h.handle);
        gh_wire_start(r, GH_OK);
        break;
    case GH_OP_STREAM_DESTROY: do_stream_destroy(wk, h.handle, r); break;
    }
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
        gh_msg_device_count_put(r, &(gh_msg_device_count){n, n <= 0 ? (char *)a->last_error(ctx) : NULL});
        break;
    }
    case GH_OP_KERNEL_COUNT:
        gh_crash_doing("worker: plugin %s, kernel_count", wk->name);
        gh_wire_start(r, GH_OK);
        gh_msg_index_put(r, &(gh_msg_index){a->kernel_count(ctx)});
        break;
    case GH_OP_BUFFER_ALLOC: {
        gh_msg_buffer_alloc req;
        if (gh_msg_buffer_alloc_get(q, &req) != 0) break;
        gh_buffer *b = NULL;
        gh_crash_doing("worker: plugin %s, buffer_alloc of %llu bytes", wk->name, (unsigned long long)req.bytes);
        gh_status s = a->buffer_alloc(ctx, (int)req.device, req.bytes, &b);
        reply_status(wk, r, s);
        if (s == GH_OK) gh_msg_handle_put(r, &(gh_msg_handle){(uint64_t)(uintptr_t)b});
        break;
    }
    case GH_OP_DEVICE_INFO:
    case GH_OP_KERNEL_INFO:
    case GH_OP_SYNCHRONIZE:
    case GH_OP_STREAM_CREATE:
    case GH_OP_BUFFER_FREE:
    case GH_OP_STREAM_DESTROY: call_small(wk, op, q, r); break;
    case GH_OP_UPLOAD: do_copy(wk, q, r, 1); break;
    case GH_OP_DOWNLOAD: do_copy(wk, q, r, 0); break;
    case GH_OP_GEMM: do_gemm(wk, q, r); break;
    case GH_OP_UPLOAD_2D_ASYNC: do_copy_2d(wk, q, r, 1); break;
    case GH_OP_DOWNLOAD_2D_ASYNC: do_copy_2d(wk, q, r, 0); break;
    case GH_OP_GEMM_ASYNC: do_gemm_async(wk, q, r); break;
    case GH_OP_GEMM_BATCH_ASYNC:
        if (!(optional_flags(&wk->plugin) & GH_LOADED_HAS_STREAMS))
            reply_error(r, GH_UNSUPPORTED, "worker: the plugin has no streams to queue a batch on");
        else do_gemm_batch_async(wk, q, r);
        break;
    case GH_OP_STREAM_SYNCHRONIZE: do_stream_sync(wk, q, r); break;
    case GH_OP_HOST_REGISTER:
        if (!(optional_flags(&wk->plugin) & GH_LOADED_HAS_HOST_REGISTER))
            reply_error(r, GH_UNSUPPORTED, "worker: the plugin has no host_register");
        else do_host_register(wk, q, r);
        break;
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
            unmap_segment(wk, &q);
            continue;
        }
        if (op == GH_OP_LOAD) do_load(wk, &q, &r);
        else if (op == GH_OP_OPEN) do_open(wk, &q, &r);
        else if (op == GH_OP_CLOSE) {
            gh_crash_doing("worker: plugin %s, close", wk->name);
            for (size_t i = 0; i < n_maps; i++) unregister_views(wk, &maps[i]);
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
        unregister_views(&wk, &maps[i]);
        if (maps[i].ro) munmap(maps[i].ro, maps[i].size);
        if (maps[i].rw) munmap(maps[i].rw, maps[i].size);
    }
    free(maps);
    gh_plugin_unload(&wk.plugin);
    close(wk.sock);
    return 0;
}
