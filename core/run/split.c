/* One GEMM over several devices: planning what each device holds, then one
 * host thread per device taking row chunks from a shared queue.
 *
 * A device runs a chunk as one or more tasks. A task uploads what its GEMM
 * needs that the device does not hold yet (the chunk's rows of op(A), a
 * panel of op(B), C0 when beta != 0), runs the GEMM and downloads its block
 * of C. With streams, tasks alternate between two lanes (a stream and its own
 * buffer set each), so one lane's uploads run while the other's GEMM does.
 * Streams run in order, so a lane's buffers are safe to reuse; the only data
 * shared between lanes is the resident B, and a GEMM that reads a panel of it
 * queued on the other lane first waits for that lane. */
#define _POSIX_C_SOURCE 200809L
#include "split.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "crash.h"
#include "numa.h"
#include "reported.h"
#include "util.h"

/* The blocking path packs sub-matrices here: large enough that a copy takes
 * few calls, small beside the matrices. */
#define STAGING_MAX_BYTES ((uint64_t)64 << 20)
#define MAX_LANES         2
/* One task queues at most: A, a B panel and C0. */
#define MAX_TASK_UPLOADS  3

/* ---- members ------------------------------------------------------------ */

int gh_split_member_has_streams(const gh_split_member *mb)
{
    const gh_plugin_api *api = mb->api;
    return mb->abi_minor >= 1 && GH_HAS_MEMBER(api, gh_plugin_api, stream_synchronize) && api->stream_create &&
           api->stream_destroy && api->upload_2d_async && api->download_2d_async && api->gemm_async &&
           api->stream_synchronize;
}

int gh_split_member_has_host_alloc(const gh_split_member *mb)
{
    const gh_plugin_api *api = mb->api;
    return mb->abi_minor >= 1 && GH_HAS_MEMBER(api, gh_plugin_api, host_free) && api->host_alloc && api->host_free;
}

int gh_split_member_has_copy_peer(const gh_split_member *mb)
{
    const gh_plugin_api *api = mb->api;
    return mb->abi_minor >= 3 && GH_HAS_MEMBER(api, gh_plugin_api, copy_peer) && api->copy_peer;
}

static void *member_host_alloc(void *user, size_t bytes)
{
    const gh_split_member *mb = user;
    void *p = NULL;
    return mb->api->host_alloc(mb->ctx, bytes, &p) == GH_OK ? p : NULL;
}

static void member_host_free(void *user, void *ptr)
{
    const gh_split_member *mb = user;
    mb->api->host_free(mb->ctx, ptr);
}

int gh_split_host_allocator(const gh_split_member *mb, gh_host_allocator *out)
{
    if (!gh_split_member_has_host_alloc(mb)) return -1;
    *out = (gh_host_allocator){member_host_alloc, member_host_free, (void *)mb};
    return 0;
}

uint64_t gh_split_member_limit(const gh_split_member *mb, uint64_t mem_limit)
{
    if (mem_limit > 0) return mem_limit;
    const gh_device_info *info = mb->api->device_info(mb->ctx, mb->device);
    if (!info || !GH_HAS_MEMBER(info, gh_device_info, global_mem_bytes) || info->global_mem_bytes == 0)
        return UINT64_MAX;
    /* Leave room for what the driver and the kernels keep for themselves. */
    return info->global_mem_bytes - info->global_mem_bytes / 10;
}

/* ---- planning ----------------------------------------------------------- */

/* Saturating arithmetic: a product of three dimensions in bytes can pass 2^64. */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}
static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

typedef struct layout_choice {
    int b_resident, full_width, depth;
} layout_choice;

/* Fills every size of a layout; returns 1 when it fits in limit. */
static int size_layout(const gh_split_shape *s, int64_t panel, uint64_t limit, layout_choice ch, gh_split_layout *l)
{
    const uint64_t e = gh_dtype_size(s->dtype);
    memset(l, 0, sizeof *l);
    l->chunk_rows = min64(panel, s->m);
    l->panel_cols = min64(panel, s->n);
    l->n_chunks = ceil_div(s->m, l->chunk_rows);
    l->n_panels = ceil_div(s->n, l->panel_cols);
    l->b_resident = ch.b_resident;
    /* With one panel, a tile is the full width. */
    l->full_width = ch.b_resident && (ch.full_width || l->n_panels == 1);
    l->depth = ch.depth;
    l->a_bytes = sat_mul(sat_mul((uint64_t)l->chunk_rows, (uint64_t)s->k), e);
    l->b_bytes = sat_mul(sat_mul((uint64_t)s->k, (uint64_t)(ch.b_resident ? s->n : l->panel_cols)), e);
    l->c_bytes = sat_mul(sat_mul((uint64_t)l->chunk_rows, (uint64_t)(l->full_width ? s->n : l->panel_cols)), e);
    uint64_t per_set = sat_add(l->a_bytes, l->c_bytes);
    if (!ch.b_resident) per_set = sat_add(per_set, l->b_bytes);
    l->device_bytes = sat_mul((uint64_t)ch.depth, per_set);
    if (ch.b_resident) l->device_bytes = sat_add(l->device_bytes, l->b_bytes);
    return l->device_bytes <= limit;
}

void gh_split_format_bytes(uint64_t bytes, char *buf, size_t size)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        u++;
    }
    if (bytes == UINT64_MAX) snprintf(buf, size, "more than 16 EiB");
    else if (u == 0) snprintf(buf, size, "%llu B", (unsigned long long)bytes);
    else snprintf(buf, size, "%.2f %s", v, units[u]);
}

/* The smallest layout: one chunk, one streamed B panel, one C tile. */
static int smallest_fits(const gh_split_shape *s, int64_t panel, uint64_t limit, gh_split_layout *l)
{
    return size_layout(s, panel, limit, (layout_choice){0, 0, 1}, l);
}

/* Explains why not even the smallest layout fits, and which panel would. */
static void explain_too_small(const gh_split_shape *s, int64_t panel, uint64_t limit, char *err, size_t size)
{
    gh_split_layout l;
    smallest_fits(s, panel, limit, &l);
    char need[32], have[32], a[32], b[32], c[32];
    gh_split_format_bytes(l.device_bytes, need, sizeof need);
    gh_split_format_bytes(limit, have, sizeof have);
    gh_split_format_bytes(l.a_bytes, a, sizeof a);
    gh_split_format_bytes(l.b_bytes, b, sizeof b);
    gh_split_format_bytes(l.c_bytes, c, sizeof c);
    /* The need grows with the panel: the largest panel that fits by bisection. */
    gh_split_layout probe;
    int64_t lo = 0, hi = panel;
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (smallest_fits(s, mid, limit, &probe)) lo = mid;
        else hi = mid;
    }
    int n = snprintf(err, size,
                     "mem_limit %s is too small for one panel: %lld rows of op(A) (%s), a %lld-column panel of "
                     "op(B) (%s) and a %lldx%lld tile of C (%s) need %s",
                     have, (long long)l.chunk_rows, a, (long long)l.panel_cols, b, (long long)l.chunk_rows,
                     (long long)l.panel_cols, c, need);
    if (n < 0 || (size_t)n >= size) return;
    if (lo >= 1) snprintf(err + n, size - (size_t)n, "; panel = %lld would fit", (long long)lo);
    else snprintf(err + n, size - (size_t)n, "; not even panel = 1 fits (K = %lld)", (long long)s->k);
}

int gh_split_plan_layout(const gh_split_shape *shape, int64_t panel, uint64_t limit, int max_depth,
                         gh_split_layout *out, char *err, size_t err_size)
{
    /* Resident B first: re-streaming B for every chunk costs far more than
     * losing the overlap. Then double buffering, then full-width C. */
    static const layout_choice prefs[] = {
        {1, 1, 2}, {1, 0, 2}, {1, 1, 1}, {1, 0, 1}, {0, 0, 2}, {0, 0, 1},
    };
    if (panel < 1 || shape->m < 1 || shape->n < 1 || shape->k < 1) {
        snprintf(err, err_size, "panel and every dimension must be >= 1");
        return -1;
    }
    for (size_t i = 0; i < sizeof prefs / sizeof prefs[0]; i++) {
        if (prefs[i].depth > max_depth) continue;
        if (size_layout(shape, panel, limit, prefs[i], out)) return 0;
    }
    explain_too_small(shape, panel, limit, err, err_size);
    return -1;
}

void gh_split_layout_describe(const gh_split_layout *l, char *buf, size_t size)
{
    char bytes[32], b_part[96];
    gh_split_format_bytes(l->device_bytes, bytes, sizeof bytes);
    if (l->b_resident)
        snprintf(b_part, sizeof b_part, "B resident%s", l->full_width ? ", full-width C" : ", C in tiles");
    else
        snprintf(b_part, sizeof b_part, "B streamed in %lld panels of %lld columns", (long long)l->n_panels,
                 (long long)l->panel_cols);
    snprintf(buf, size, "%s, %d buffer set%s, %lld chunk%s of %lld row%s, %s on the device", b_part, l->depth,
             l->depth == 1 ? "" : "s", (long long)l->n_chunks, l->n_chunks == 1 ? "" : "s", (long long)l->chunk_rows,
             l->chunk_rows == 1 ? "" : "s", bytes);
}

/* ---- what the threads share --------------------------------------------- */

typedef struct shared {
    pthread_mutex_t lock;
    pthread_cond_t all_arrived;
    size_t n_workers, arrived;
    double t_start; /* when the last worker finished setting up */
    int64_t next_chunk, n_chunks;
    int64_t *home_next, *home_end; /* NUMA: per member, the chunks it takes first; NULL: one queue */
    pthread_cond_t b_changed;      /* a member's B became ready or unavailable, or a receiver is done */
    size_t b_receivers, b_done;    /* members that copy B from another, and those done with it */
    atomic_int aborted; /* a member failed: nobody takes more work */
    gh_status status;   /* the first failure */
    char *error;
    size_t error_size;
} shared;

/* Counts one worker in; the last one starts the clock and wakes the rest. */
static void arrive(shared *sh, int wait)
{
    pthread_mutex_lock(&sh->lock);
    if (++sh->arrived == sh->n_workers) {
        sh->t_start = gh_now_ms();
        pthread_cond_broadcast(&sh->all_arrived);
    }
    while (wait && sh->arrived < sh->n_workers) pthread_cond_wait(&sh->all_arrived, &sh->lock);
    pthread_mutex_unlock(&sh->lock);
}

static void record_failure(shared *sh, gh_status status, const char *text)
{
    pthread_mutex_lock(&sh->lock);
    if (sh->status == GH_OK) {
        sh->status = status == GH_OK ? GH_ERROR : status;
        snprintf(sh->error, sh->error_size, "%s", text);
    }
    pthread_mutex_unlock(&sh->lock);
    atomic_store(&sh->aborted, 1);
}

/* ---- one device's thread ------------------------------------------------- */

/* A stream (or, on the blocking path, none) and the buffers its tasks use. */
typedef struct lane {
    gh_stream *stream;    /* NULL on the blocking path */
    gh_buffer *a, *b, *c; /* b: this lane's B panel, only when B is streamed */
    int64_t a_chunk;      /* the chunk whose op(A) rows are in a; -1: none */
    uint64_t syncs;       /* synchronizations so far */
    /* Written by the device at the next synchronize. */
    double up_ms[MAX_TASK_UPLOADS];
    int n_up;
    double down_ms;
    int n_down;
    gh_gemm_timing timing;
    int n_gemm;
    gh_gemm_args args; /* the queued GEMM's arguments, kept as long as its timing */
} lane;

typedef struct worker {
    const gh_split_member *mb;
    const gh_split_problem *p;
    shared *sh;
    gh_split_member_stats *st; /* st->layout is this device's plan */
    int async;
    lane lanes[MAX_LANES];
    int n_lanes, next_lane;
    gh_buffer *b_whole;          /* resident B, stored layout, no padding */
    unsigned char *panel_loaded; /* per B panel: queued into b_whole */
    int *panel_lane;             /* the lane that queued it */
    uint64_t *panel_sync;        /* that lane's sync count when it did */
    int64_t panels_loaded;
    unsigned char *staging; /* blocking path: packing buffer */
    uint64_t staging_bytes;
    int staging_pinned; /* from the plugin's host_alloc */
    int failed;
    int started;
    double end_ms;
    pthread_t thread;
    size_t index;             /* in the members */
    struct worker *all;       /* every member's worker, for the peer copies of B */
    const gh_numa_place *place; /* where its thread goes; node -1: nowhere in particular */
    int b_source;             /* peer copies: the member it copies B from; -1: it uploads B itself */
    int b_tree;               /* 1: B goes to it (or from it) in the peer tree */
    int b_state;              /* under sh->lock: 0 not yet, 1 B resident and complete, -1 never */
    int b_counted;            /* under sh->lock: counted in sh->b_done */
} worker;

/* Records this member's failure (first one only) with the plugin's words,
 * read right after the failing call since last_error is per thread. */
__attribute__((format(printf, 4, 5))) static gh_status fail(worker *w, gh_status status, int plugin_words,
                                                            const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!w->failed) {
        const char *why = plugin_words ? w->mb->api->last_error(w->mb->ctx) : NULL;
        snprintf(w->st->error, sizeof w->st->error, "%s%s%s", what, why ? ": " : "",
                 why ? (*why ? why : "(the plugin gave no reason)") : "");
        char text[768];
        snprintf(text, sizeof text, "member %s/%d (%s): %s", w->mb->backend, w->mb->device, w->mb->kernel_info->name,
                 w->st->error);
        record_failure(w->sh, status, text);
    }
    w->failed = 1;
    return status == GH_OK ? GH_ERROR : status;
}

/* SIGINT/SIGTERM (cancel.h): between tasks, the member stops and says why;
 * every member then stops, as after a failure. */
static int stopped_by_signal(worker *w)
{
    if (!gh_cancel_requested()) return 0;
    fail(w, GH_ERROR, 0, "stopped by %s between tasks", gh_cancel_signal_name());
    return 1;
}

/* With home ranges: its own next chunk, else the last one of the member
 * with the most left. Under sh->lock. */
static int64_t take_home_chunk(shared *sh, size_t self)
{
    if (sh->home_next[self] < sh->home_end[self]) return sh->home_next[self]++;
    size_t most = self;
    for (size_t i = 0; i < sh->n_workers; i++)
        if (sh->home_end[i] - sh->home_next[i] > sh->home_end[most] - sh->home_next[most]) most = i;
    return sh->home_next[most] < sh->home_end[most] ? --sh->home_end[most] : -1;
}

static int64_t take_chunk(worker *w)
{
    if (stopped_by_signal(w)) return -1;
    double t0 = gh_now_ms();
    int64_t chunk = -1;
    pthread_mutex_lock(&w->sh->lock);
    if (!atomic_load(&w->sh->aborted)) {
        if (w->sh->home_next) chunk = take_home_chunk(w->sh, w->index);
        else if (w->sh->next_chunk < w->sh->n_chunks) chunk = w->sh->next_chunk++;
    }
    pthread_mutex_unlock(&w->sh->lock);
    w->st->wait_ms += gh_now_ms() - t0;
    if (chunk >= 0) w->st->chunks++;
    return chunk;
}

/* Rows of bytes on the host: a sub-matrix of one of the case's matrices. */
typedef struct host_block {
    unsigned char *host;
    uint64_t pitch;       /* bytes from one row to the next */
    uint64_t rows, width; /* width in bytes */
} host_block;

static unsigned char *element_at(const gh_matrix *m, int64_t i, int64_t j)
{
    return (unsigned char *)gh_matrix_data(m) + ((uint64_t)i * (uint64_t)m->ld + (uint64_t)j) * m->elem_size;
}

static host_block block_of(const gh_matrix *m, int64_t row0, int64_t col0, int64_t rows, int64_t cols)
{
    return (host_block){element_at(m, row0, col0), (uint64_t)m->ld * m->elem_size, (uint64_t)rows,
                        (uint64_t)cols * m->elem_size};
}

/* Rows row0.. of op(A): rows of A, or columns of A when it is stored transposed. */
static host_block a_block(const gh_split_problem *p, int64_t row0, int64_t rows)
{
    return p->trans_a ? block_of(p->a, 0, row0, p->k, rows) : block_of(p->a, row0, 0, rows, p->k);
}

/* Columns col0.. of op(B): columns of B, or rows of B when it is stored transposed. */
static host_block b_block(const gh_split_problem *p, int64_t col0, int64_t cols)
{
    return p->trans_b ? block_of(p->b, col0, 0, cols, p->k) : block_of(p->b, 0, col0, p->k, cols);
}

/* Where columns col0.. of op(B) start in the resident B, in elements, and its ld. */
static uint64_t resident_b_offset(const gh_split_problem *p, int64_t col0)
{
    return p->trans_b ? (uint64_t)col0 * (uint64_t)p->k : (uint64_t)col0;
}

static int64_t resident_b_ld(const gh_split_problem *p)
{
    return p->trans_b ? p->k : p->n;
}

/* ---- copies -------------------------------------------------------------- */

/* Blocking copy of a block whose rows lie `dev_pitch` apart on the device.
 * Contiguous on both sides: one call. Compact on the device only: rows
 * packed through the staging buffer, as many per call as it holds. Else one
 * call per row. */
static gh_status blocking_copy(worker *w, int upload, gh_buffer *buf, uint64_t offset, uint64_t dev_pitch, host_block b)
{
    const gh_plugin_api *api = w->mb->api;
    gh_plugin *ctx = w->mb->ctx;
    gh_status s = GH_OK;
    if (b.rows == 1 || (b.pitch == b.width && dev_pitch == b.width)) {
        uint64_t bytes = b.rows * b.width;
        return upload ? api->upload(ctx, buf, offset, b.host, bytes) : api->download(ctx, buf, offset, b.host, bytes);
    }
    uint64_t per_call = dev_pitch == b.width ? w->staging_bytes / b.width : 0;
    if (per_call == 0) {
        for (uint64_t r = 0; r < b.rows && s == GH_OK; r++) {
            unsigned char *host = b.host + r * b.pitch;
            s = upload ? api->upload(ctx, buf, offset + r * dev_pitch, host, b.width)
                       : api->download(ctx, buf, offset + r * dev_pitch, host, b.width);
        }
        return s;
    }
    for (uint64_t r = 0; r < b.rows && s == GH_OK; r += per_call) {
        uint64_t n = b.rows - r < per_call ? b.rows - r : per_call;
        if (upload) {
            for (uint64_t i = 0; i < n; i++) memcpy(w->staging + i * b.width, b.host + (r + i) * b.pitch, b.width);
            s = api->upload(ctx, buf, offset + r * b.width, w->staging, n * b.width);
        } else {
            s = api->download(ctx, buf, offset + r * b.width, w->staging, n * b.width);
            for (uint64_t i = 0; s == GH_OK && i < n; i++)
                memcpy(b.host + (r + i) * b.pitch, w->staging + i * b.width, b.width);
        }
    }
    return s;
}

/* Host block to the device: queued on the lane's stream, or done now. */
static gh_status put_block(worker *w, lane *l, gh_buffer *buf, uint64_t offset, uint64_t dev_pitch, host_block b,
                           const char *what)
{
    w->st->bytes_up += b.rows * b.width;
    if (w->async) {
        if (l->n_up == MAX_TASK_UPLOADS)
            return fail(w, GH_ERROR, 0, "internal: more than %d uploads in one task", MAX_TASK_UPLOADS);
        double *ms = &l->up_ms[l->n_up++];
        *ms = 0;
        gh_status s = w->mb->api->upload_2d_async(w->mb->ctx, l->stream, buf, offset, dev_pitch, b.host, b.pitch,
                                                  b.width, b.rows, ms);
        return s == GH_OK ? GH_OK : fail(w, s, 1, "queueing the upload of %s", what);
    }
    double t0 = gh_now_ms();
    gh_status s = blocking_copy(w, 1, buf, offset, dev_pitch, b);
    w->st->upload_ms += gh_now_ms() - t0;
    return s == GH_OK ? GH_OK : fail(w, s, 1, "uploading %s", what);
}

static gh_status get_block(worker *w, lane *l, gh_buffer *buf, uint64_t offset, uint64_t dev_pitch, host_block b)
{
    w->st->bytes_down += b.rows * b.width;
    if (w->async) {
        l->down_ms = 0;
        l->n_down = 1;
        gh_status s = w->mb->api->download_2d_async(w->mb->ctx, l->stream, buf, offset, dev_pitch, b.host, b.pitch,
                                                    b.width, b.rows, &l->down_ms);
        return s == GH_OK ? GH_OK : fail(w, s, 1, "queueing the download of C");
    }
    double t0 = gh_now_ms();
    gh_status s = blocking_copy(w, 0, buf, offset, dev_pitch, b);
    w->st->download_ms += gh_now_ms() - t0;
    return s == GH_OK ? GH_OK : fail(w, s, 1, "downloading C");
}

/* A GEMM's reported time must be one (reported.h): a lie fails the member. */
static gh_status check_time(worker *w, double kernel_ms)
{
    if (gh_reported_time_ok(kernel_ms)) return GH_OK;
    return fail(w, GH_ERROR, 0, "plugin %s reported a kernel time of %g ms (a kernel time must be finite and > 0)",
                w->mb->api->name, kernel_ms);
}

/* Waits for the lane's queued work and books the device's times for it. */
static gh_status lane_sync(worker *w, lane *l)
{
    if (!l->stream) return GH_OK;
    double t0 = gh_now_ms();
    gh_status s = w->mb->api->stream_synchronize(w->mb->ctx, l->stream);
    w->st->wait_ms += gh_now_ms() - t0;
    l->syncs++;
    for (int i = 0; i < l->n_up; i++) w->st->upload_ms += l->up_ms[i];
    if (l->n_down) w->st->download_ms += l->down_ms;
    int gemm_timed = l->n_gemm;
    if (gemm_timed) w->st->compute_ms += l->timing.kernel_ms;
    l->n_up = l->n_down = l->n_gemm = 0;
    if (s != GH_OK) return fail(w, s, 1, "queued work failed (stream_synchronize)");
    return gemm_timed ? check_time(w, l->timing.kernel_ms) : GH_OK;
}

static gh_status run_gemm(worker *w, lane *l, const gh_gemm_args *g)
{
    const gh_split_member *mb = w->mb;
    w->st->gemms++;
    gh_status s;
    if (w->async) {
        l->timing = (gh_gemm_timing){.size = sizeof l->timing};
        l->n_gemm = 1;
        l->args = *g;
        s = mb->api->gemm_async(mb->ctx, l->stream, mb->kernel, &l->args, &l->timing);
    } else {
        gh_gemm_timing t = {.size = sizeof t};
        s = mb->api->gemm(mb->ctx, mb->device, mb->kernel, g, &t);
        w->st->compute_ms += t.kernel_ms;
        if (s == GH_OK) return check_time(w, t.kernel_ms);
    }
    return s == GH_OK ? GH_OK
                      : fail(w, s, 1, "%s a %lldx%lldx%lld GEMM", w->async ? "queueing" : "running", (long long)g->m,
                             (long long)g->n, (long long)g->k);
}

/* ---- tasks ---------------------------------------------------------------- */

/* One GEMM: rows row0.. of C, columns col0.., reading B panels [first, end). */
typedef struct task {
    int64_t chunk, row0, rows;
    int64_t col0, cols;
    int64_t panel_first, panel_end;
} task;

static void panel_range(const worker *w, int64_t j, int64_t *col0, int64_t *cols)
{
    *col0 = j * w->st->layout.panel_cols;
    *cols = min64(w->st->layout.panel_cols, w->p->n - *col0);
}

/* Queues the B panels this task reads that the resident B lacks. */
static gh_status load_panels(worker *w, int self, const task *t)
{
    const gh_split_problem *p = w->p;
    const uint64_t e = p->b->elem_size, pitch = (uint64_t)resident_b_ld(p) * e;
    for (int64_t j = t->panel_first; j < t->panel_end; j++) {
        if (w->panel_loaded[j]) continue;
        int64_t col0, cols;
        panel_range(w, j, &col0, &cols);
        if (put_block(w, &w->lanes[self], w->b_whole, resident_b_offset(p, col0) * e, pitch, b_block(p, col0, cols),
                      "a panel of B") != GH_OK)
            return GH_ERROR;
        w->panel_loaded[j] = 1;
        w->panel_lane[j] = self;
        w->panel_sync[j] = w->lanes[self].syncs;
        w->panels_loaded++;
    }
    return GH_OK;
}

/* A GEMM on one lane must not read a panel another lane has only queued. */
static gh_status await_panels(worker *w, int self, const task *t)
{
    for (int64_t j = t->panel_first; j < t->panel_end; j++) {
        lane *other = &w->lanes[w->panel_lane[j]];
        if (w->panel_lane[j] != self && other->syncs == w->panel_sync[j] && lane_sync(w, other) != GH_OK)
            return GH_ERROR;
    }
    return GH_OK;
}

/* The blocking path has no overlap to gain: B goes up whole, first. */
static gh_status load_whole_b(worker *w)
{
    const gh_matrix *b = w->p->b;
    host_block whole = block_of(b, 0, 0, b->rows, b->cols);
    if (put_block(w, &w->lanes[0], w->b_whole, 0, whole.width, whole, "B") != GH_OK) return GH_ERROR;
    for (int64_t j = 0; j < w->st->layout.n_panels; j++) {
        w->panel_loaded[j] = 1;
        w->panel_lane[j] = 0;
        w->panel_sync[j] = 0;
    }
    w->panels_loaded = w->st->layout.n_panels;
    return GH_OK;
}

/* Where the task's block of C sits in the lane's C buffer. */
static void c_place(const worker *w, const task *t, uint64_t *offset_elems, int64_t *ldc)
{
    if (w->st->layout.full_width) {
        *offset_elems = (uint64_t)t->col0;
        *ldc = w->p->n;
    } else {
        *offset_elems = 0;
        *ldc = t->cols;
    }
}

static gh_status run_task(worker *w, const task *t)
{
    const gh_split_problem *p = w->p;
    const gh_split_layout *lay = &w->st->layout;
    const uint64_t e = p->a->elem_size;
    const int self = w->next_lane;
    lane *l = &w->lanes[self];
    w->next_lane = (w->next_lane + 1) % w->n_lanes;
    /* The lane's previous task must be done before its buffers are reused. */
    if (lane_sync(w, l) != GH_OK) return GH_ERROR;
    if (l->a_chunk != t->chunk) {
        host_block a = a_block(p, t->row0, t->rows);
        if (put_block(w, l, l->a, 0, a.width, a, "rows of A") != GH_OK) return GH_ERROR;
        l->a_chunk = t->chunk;
    }
    if (!lay->b_resident) {
        host_block b = b_block(p, t->col0, t->cols);
        if (put_block(w, l, l->b, 0, b.width, b, "a panel of B") != GH_OK) return GH_ERROR;
    } else if (load_panels(w, self, t) != GH_OK) {
        return GH_ERROR;
    }
    uint64_t c_offset;
    int64_t ldc;
    c_place(w, t, &c_offset, &ldc);
    if (p->beta != 0 && put_block(w, l, l->c, c_offset * e, (uint64_t)ldc * e,
                                  block_of(p->c0, t->row0, t->col0, t->rows, t->cols), "C0") != GH_OK)
        return GH_ERROR;
    if (lay->b_resident && await_panels(w, self, t) != GH_OK) return GH_ERROR;
    gh_gemm_args g = {
        .size = sizeof g,
        .dtype = p->dtype,
        .trans_a = p->trans_a,
        .trans_b = p->trans_b,
        .m = t->rows,
        .n = t->cols,
        .k = p->k,
        .alpha = p->alpha,
        .beta = p->beta,
        .lda = p->trans_a ? t->rows : p->k,
        .a = l->a,
        .a_offset = 0,
        .ldb = lay->b_resident ? resident_b_ld(p)
               : p->trans_b    ? p->k
                               : t->cols,
        .b = lay->b_resident ? w->b_whole : l->b,
        .b_offset = lay->b_resident ? resident_b_offset(p, t->col0) : 0,
        .ldc = ldc,
        .c = l->c,
        .c_offset = c_offset,
        .params = w->mb->params,
        .n_params = w->mb->kernel_info->n_params,
    };
    if (run_gemm(w, l, &g) != GH_OK) return GH_ERROR;
    return get_block(w, l, l->c, c_offset * e, (uint64_t)ldc * e, block_of(p->c, t->row0, t->col0, t->rows, t->cols));
}

/* A chunk is one full-width GEMM once B is resident (and the C buffer is
 * wide enough); until then, and when B streams, one GEMM per B panel. */
static gh_status run_chunk(worker *w, int64_t chunk)
{
    const gh_split_layout *lay = &w->st->layout;
    task t = {.chunk = chunk, .row0 = chunk * lay->chunk_rows};
    t.rows = min64(lay->chunk_rows, w->p->m - t.row0);
    if (lay->b_resident && !w->async && w->panels_loaded < lay->n_panels && load_whole_b(w) != GH_OK) return GH_ERROR;
    if (lay->full_width && w->panels_loaded == lay->n_panels) {
        t.col0 = 0;
        t.cols = w->p->n;
        t.panel_first = 0;
        t.panel_end = lay->n_panels;
        return run_task(w, &t);
    }
    for (int64_t j = 0; j < lay->n_panels; j++) {
        if (atomic_load(&w->sh->aborted)) return GH_OK; /* another member failed and said so */
        if (stopped_by_signal(w)) return GH_ERROR;
        panel_range(w, j, &t.col0, &t.cols);
        t.panel_first = j;
        t.panel_end = j + 1;
        if (run_task(w, &t) != GH_OK) return GH_ERROR;
    }
    return GH_OK;
}

/* ---- NUMA placement --------------------------------------------------------- */

/* Rows row0..row1 of a matrix stored by rows: their bytes, from row0's first. */
static void move_rows(const gh_matrix *m, int64_t row0, int64_t row1, int node, int *moved, char *why, size_t size)
{
    size_t bytes = (size_t)(row1 - row0) * (size_t)m->ld * m->elem_size;
    if (*moved && gh_numa_move(element_at(m, row0, 0), bytes, node, why, size) != 0) *moved = 0;
}

/* Its thread on its device's node's CPUs, then the rows of A (when stored by
 * rows) and C of its home chunks moved to that node. Before the clock. */
static void place_member(worker *w)
{
    gh_split_member_stats *st = w->st;
    char why[256];
    st->numa_node = -1;
    if (!w->place) {
        snprintf(st->numa_note, sizeof st->numa_note, "not placed: numa = off");
        return;
    }
    if (w->place->node < 0) {
        snprintf(st->numa_note, sizeof st->numa_note, "not placed: %s", w->place->why);
        return;
    }
    if (gh_numa_pin_thread(&w->place->cpus, why, sizeof why) != 0) {
        snprintf(st->numa_note, sizeof st->numa_note, "not placed: node %d, but %s", w->place->node, why);
        return;
    }
    st->numa_node = w->place->node;
    int n = snprintf(st->numa_note, sizeof st->numa_note, "thread on node %d (%d CPU%s)", w->place->node,
                     w->place->n_cpus, w->place->n_cpus == 1 ? "" : "s");
    char *rest = st->numa_note + n;
    size_t rest_size = sizeof st->numa_note - (size_t)n;
    const int64_t c0 = w->sh->home_next[w->index], c1 = w->sh->home_end[w->index], rows = st->layout.chunk_rows;
    if (c1 <= c0) {
        snprintf(rest, rest_size, "; no home chunk");
        return;
    }
    const int64_t r0 = c0 * rows, r1 = min64(c1 * rows, w->p->m);
    int moved = 1;
    move_rows(w->p->c, r0, r1, w->place->node, &moved, why, sizeof why);
    if (!w->p->trans_a) move_rows(w->p->a, r0, r1, w->place->node, &moved, why, sizeof why);
    const char *what = w->p->trans_a ? "C" : "A and C";
    if (!moved) {
        snprintf(rest, rest_size, "; %s of its %lld home chunks not moved: %s", what, (long long)(c1 - c0), why);
        return;
    }
    int at = gh_numa_node_of(element_at(w->p->c, r0, 0), why, sizeof why);
    if (at < 0) snprintf(rest, rest_size, "; %s of its %lld home chunks moved, where to unknown: %s", what,
                         (long long)(c1 - c0), why);
    else snprintf(rest, rest_size, "; %s of its %lld home chunks on node %d%s", what, (long long)(c1 - c0), at,
                  at == w->place->node ? "" : " (the kernel did not move them: page-locked memory stays)");
}

/* ---- B once over the host link: peer copies --------------------------------- */

static void set_b_state(worker *w, int state)
{
    pthread_mutex_lock(&w->sh->lock);
    if (w->b_state == 0) w->b_state = state;
    pthread_cond_broadcast(&w->sh->b_changed);
    pthread_mutex_unlock(&w->sh->lock);
}

/* A receiver is done with its source's B (copied, refused or never had it). */
static void b_received(worker *w)
{
    pthread_mutex_lock(&w->sh->lock);
    if (!w->b_counted) {
        w->b_counted = 1;
        w->sh->b_done++;
        pthread_cond_broadcast(&w->sh->b_changed);
    }
    pthread_mutex_unlock(&w->sh->lock);
}

/* B resident and whole before the first chunk: from its source member by
 * copy_peer, or from the host (the tree's root, or when the copy is refused
 * or the source has no B). */
static gh_status distribute_b(worker *w)
{
    const gh_split_member *mb = w->mb;
    if (w->b_source >= 0) {
        worker *src = &w->all[w->b_source];
        double t0 = gh_now_ms();
        pthread_mutex_lock(&w->sh->lock);
        while (src->b_state == 0) pthread_cond_wait(&w->sh->b_changed, &w->sh->lock);
        int state = src->b_state;
        pthread_mutex_unlock(&w->sh->lock);
        w->st->wait_ms += gh_now_ms() - t0;
        if (state == 1) {
            t0 = gh_now_ms();
            gh_status s = mb->api->copy_peer(mb->ctx, src->b_whole, 0, w->b_whole, 0, w->st->layout.b_bytes);
            double ms = gh_now_ms() - t0;
            b_received(w);
            if (s == GH_OK) {
                char size[32];
                gh_split_format_bytes(w->st->layout.b_bytes, size, sizeof size);
                snprintf(w->st->b_path, sizeof w->st->b_path, "peer from %s/%d (%s in %.3f ms, %.1f GB/s)",
                         src->mb->backend, src->mb->device, size, ms,
                         ms > 0 ? (double)w->st->layout.b_bytes / ms / 1e6 : 0.0);
                w->st->b_peer = 1;
                for (int64_t j = 0; j < w->st->layout.n_panels; j++) w->panel_loaded[j] = 1;
                w->panels_loaded = w->st->layout.n_panels;
                set_b_state(w, 1);
                return GH_OK;
            }
            if (s != GH_UNSUPPORTED)
                return fail(w, s, 1, "copying B from member %s/%d (copy_peer)", src->mb->backend, src->mb->device);
            const char *words = mb->api->last_error(mb->ctx);
            snprintf(w->st->b_path, sizeof w->st->b_path, "host: copy_peer from %s/%d refused: %s", src->mb->backend,
                     src->mb->device, *words ? words : "(the plugin gave no reason)");
        } else {
            b_received(w);
            snprintf(w->st->b_path, sizeof w->st->b_path, "host: member %s/%d, its source, has no B to copy",
                     src->mb->backend, src->mb->device);
        }
    }
    if (load_whole_b(w) != GH_OK || (w->async && lane_sync(w, &w->lanes[0]) != GH_OK)) return GH_ERROR;
    set_b_state(w, 1);
    return GH_OK;
}

/* Before its buffers go: a member that never had B says so, and every
 * receiver has finished with the B it copies from. */
static void give_up_b(worker *w)
{
    if (!w->b_tree) return;
    set_b_state(w, -1);
    if (w->b_source >= 0) b_received(w);
}

static void finish_b(worker *w)
{
    if (!w->b_tree) return;
    give_up_b(w);
    pthread_mutex_lock(&w->sh->lock);
    while (w->sh->b_done < w->sh->b_receivers) pthread_cond_wait(&w->sh->b_changed, &w->sh->lock);
    pthread_mutex_unlock(&w->sh->lock);
}

/* ---- a worker's life ------------------------------------------------------ */

static gh_status alloc_buffer(worker *w, uint64_t bytes, gh_buffer **out, const char *what)
{
    gh_status s = w->mb->api->buffer_alloc(w->mb->ctx, w->mb->device, bytes, out);
    if (s != GH_OK) {
        *out = NULL;
        char size[32];
        gh_split_format_bytes(bytes, size, sizeof size);
        return fail(w, s, 1, "allocating %s of %s on the device", what, size);
    }
    return GH_OK;
}

/* Largest block the blocking path packs, capped, but never below one row. */
static uint64_t staging_size(const worker *w)
{
    const gh_split_layout *l = &w->st->layout;
    const uint64_t e = w->p->a->elem_size;
    uint64_t want = l->a_bytes > l->c_bytes ? l->a_bytes : l->c_bytes;
    if (l->b_bytes > want) want = l->b_bytes;
    if (want > STAGING_MAX_BYTES) want = STAGING_MAX_BYTES;
    int64_t widest = w->p->k > w->p->n ? w->p->k : w->p->n;
    if (l->chunk_rows > widest) widest = l->chunk_rows;
    return want > (uint64_t)widest * e ? want : (uint64_t)widest * e;
}

static gh_status alloc_staging(worker *w)
{
    w->staging_bytes = staging_size(w);
    void *p = NULL;
    if (gh_split_member_has_host_alloc(w->mb) && w->mb->api->host_alloc(w->mb->ctx, w->staging_bytes, &p) == GH_OK) {
        w->staging_pinned = 1;
    } else {
        p = malloc(w->staging_bytes);
        if (!p)
            return fail(w, GH_OUT_OF_MEMORY, 0, "out of host memory for a %llu-byte staging buffer",
                        (unsigned long long)w->staging_bytes);
    }
    w->staging = p;
    return GH_OK;
}

static gh_status worker_setup(worker *w)
{
    const gh_split_layout *lay = &w->st->layout;
    w->n_lanes = w->async ? lay->depth : 1;
    for (int i = 0; i < w->n_lanes; i++) {
        lane *l = &w->lanes[i];
        l->a_chunk = -1;
        gh_status s;
        if (w->async && (s = w->mb->api->stream_create(w->mb->ctx, w->mb->device, &l->stream)) != GH_OK) {
            l->stream = NULL;
            return fail(w, s, 1, "creating a stream");
        }
        if (alloc_buffer(w, lay->a_bytes, &l->a, "rows of A") || alloc_buffer(w, lay->c_bytes, &l->c, "C") ||
            (!lay->b_resident && alloc_buffer(w, lay->b_bytes, &l->b, "a panel of B")))
            return GH_ERROR;
    }
    if (lay->b_resident && alloc_buffer(w, lay->b_bytes, &w->b_whole, "B")) return GH_ERROR;
    size_t n_panels = (size_t)lay->n_panels;
    w->panel_loaded = gh_xcalloc(n_panels, sizeof *w->panel_loaded);
    w->panel_lane = gh_xcalloc(n_panels, sizeof *w->panel_lane);
    w->panel_sync = gh_xcalloc(n_panels, sizeof *w->panel_sync);
    return w->async ? GH_OK : alloc_staging(w);
}

/* Every queued copy and GEMM finishes before a buffer is freed. */
static void drain(worker *w)
{
    for (int i = 0; i < w->n_lanes; i++) lane_sync(w, &w->lanes[i]);
}

static void worker_teardown(worker *w)
{
    const gh_plugin_api *api = w->mb->api;
    gh_plugin *ctx = w->mb->ctx;
    for (int i = 0; i < MAX_LANES; i++) {
        lane *l = &w->lanes[i];
        if (l->stream) api->stream_destroy(ctx, l->stream);
        if (l->a) api->buffer_free(ctx, l->a);
        if (l->b) api->buffer_free(ctx, l->b);
        if (l->c) api->buffer_free(ctx, l->c);
    }
    if (w->b_whole) api->buffer_free(ctx, w->b_whole);
    if (w->staging_pinned) api->host_free(ctx, w->staging);
    else free(w->staging);
    free(w->panel_loaded);
    free(w->panel_lane);
    free(w->panel_sync);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    gh_crash_doing("running split member %s/%d (plugin %s), kernel %s%s%s, on a %lldx%lldx%lld product", w->mb->backend,
                   w->mb->device, w->mb->api->name, w->mb->kernel_info->name, *w->mb->params_label ? " " : "",
                   w->mb->params_label, (long long)w->p->m, (long long)w->p->n, (long long)w->p->k);
    gh_status s = worker_setup(w);
    if (s == GH_OK) place_member(w);
    arrive(w->sh, 1); /* a member that could not set up still arrives: nobody waits forever */
    if (s == GH_OK && (!w->b_tree || distribute_b(w) == GH_OK)) {
        int64_t chunk;
        while (!w->failed && (chunk = take_chunk(w)) >= 0)
            if (run_chunk(w, chunk) != GH_OK) break;
    }
    drain(w);
    w->end_ms = gh_now_ms();
    finish_b(w);
    worker_teardown(w);
    return NULL;
}

/* ---- the whole product ----------------------------------------------------- */

/* Everything that can be known wrong before a thread starts: kernel dtypes
 * and each device's layout. */
static gh_status check_members(const gh_split_member *members, size_t n, int64_t panel, uint64_t mem_limit,
                               const gh_split_problem *p, gh_split_outcome *out)
{
    const gh_split_shape shape = {p->dtype, p->m, p->n, p->k};
    for (size_t i = 0; i < n; i++) {
        const gh_split_member *mb = &members[i];
        gh_split_member_stats *st = &out->members[i];
        st->streams = gh_split_member_has_streams(mb);
        if (!(mb->kernel_info->dtypes & GH_DTYPE_BIT(p->dtype))) {
            snprintf(st->error, sizeof st->error, "kernel %s of plugin %s has no %s", mb->kernel_info->name,
                     mb->api->name, gh_dtype_name(p->dtype));
            snprintf(out->error, sizeof out->error, "member %s/%d: %s", mb->backend, mb->device, st->error);
            return out->status = GH_UNSUPPORTED;
        }
        char why[512];
        uint64_t limit = gh_split_member_limit(mb, mem_limit);
        if (gh_split_plan_layout(&shape, panel, limit, st->streams ? 2 : 1, &st->layout, why, sizeof why) != 0) {
            memset(&st->layout, 0, sizeof st->layout);
            snprintf(st->error, sizeof st->error, "%s", why);
            snprintf(out->error, sizeof out->error, "member %s/%d: %s", mb->backend, mb->device, why);
            return out->status = GH_OUT_OF_MEMORY;
        }
    }
    return GH_OK;
}

/* The highest power of two <= n (n >= 1). */
static size_t high_bit(size_t n)
{
    size_t h = 1;
    while (h <= n / 2) h *= 2;
    return h;
}

/* Which member gets B from which. Members of one plugin context that keep
 * B resident and offer copy_peer form a group; in it, the k-th (k >= 1)
 * copies from the (k - high_bit(k))-th, so B crosses the host link once and
 * the copies double each round. Everyone else uploads B, and says why. */
static void plan_b_copies(worker *w, size_t n, gh_split_b_copy mode, shared *sh)
{
    size_t *pos = gh_xcalloc(n, sizeof *pos), *root = gh_xcalloc(n, sizeof *root);
    for (size_t i = 0; i < n; i++) {
        const gh_split_member *mb = w[i].mb;
        gh_split_member_stats *st = w[i].st;
        w[i].b_source = -1;
        root[i] = i;
        if (!st->layout.b_resident) {
            snprintf(st->b_path, sizeof st->b_path, "host: B streams through in panels");
            continue;
        }
        if (mode == GH_SPLIT_B_HOST) {
            snprintf(st->b_path, sizeof st->b_path, "host (b_copy = host)");
            continue;
        }
        if (mb->isolated) {
            snprintf(st->b_path, sizeof st->b_path,
                     "host: each member runs in a worker process of its own (isolation): peer copies need "
                     "isolation = none");
            continue;
        }
        if (!gh_split_member_has_copy_peer(mb)) {
            snprintf(st->b_path, sizeof st->b_path, "host: plugin %s has no copy_peer (ABI minor 3)", mb->api->name);
            continue;
        }
        snprintf(st->b_path, sizeof st->b_path, "host");
        for (size_t j = 0; j < i; j++) {
            if (w[j].mb->api != mb->api || !w[j].st->layout.b_resident || !gh_split_member_has_copy_peer(w[j].mb))
                continue;
            if (w[j].mb->ctx != mb->ctx) {
                snprintf(st->b_path, sizeof st->b_path,
                         "host: its [backend] is not that of member %s/%d (peer copies are between devices of one "
                         "plugin context: list them in one [backend])",
                         w[j].mb->backend, w[j].mb->device);
                continue;
            }
            root[i] = root[j];
            for (size_t q = 0; q < i; q++) pos[i] += root[q] == root[i];
            snprintf(st->b_path, sizeof st->b_path, "host");
            break;
        }
        if (pos[i] == 0) continue;
        size_t want = pos[i] - high_bit(pos[i]);
        for (size_t q = 0; q < i; q++)
            if (root[q] == root[i] && pos[q] == want) w[i].b_source = (int)q;
        w[i].b_tree = w[w[i].b_source].b_tree = 1;
        sh->b_receivers++;
    }
    for (size_t i = 0; i < n; i++)
        if (w[i].b_tree && w[i].b_source < 0)
            snprintf(w[i].st->b_path, sizeof w[i].st->b_path, "host, then on to the others by copy_peer");
    free(pos);
    free(root);
}

/* NUMA: where each member's thread goes, and the chunks dealt out in home
 * ranges when any member has a node. */
static gh_numa_place *plan_numa(worker *w, size_t n, gh_split_numa mode, shared *sh)
{
    if (mode == GH_SPLIT_NUMA_OFF) return NULL;
    gh_numa_place *places = gh_xcalloc(n, sizeof *places);
    const char *root = gh_numa_sysfs_root();
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        gh_numa_place_device(root, w[i].mb->api->device_info(w[i].mb->ctx, w[i].mb->device), &places[i]);
        w[i].place = &places[i];
        any |= places[i].node >= 0;
    }
    if (any) {
        sh->home_next = gh_xcalloc(n, sizeof *sh->home_next);
        sh->home_end = gh_xcalloc(n, sizeof *sh->home_end);
        for (size_t i = 0; i < n; i++) {
            sh->home_next[i] = sh->n_chunks * (int64_t)i / (int64_t)n;
            sh->home_end[i] = sh->n_chunks * (int64_t)(i + 1) / (int64_t)n;
        }
    }
    return places;
}

gh_status gh_split_run(const gh_split_member *members, size_t n_members, const gh_split_options *opt,
                       const gh_split_problem *p, gh_split_outcome *out)
{
    const int64_t panel = opt->panel;
    const uint64_t mem_limit = opt->mem_limit;
    out->status = GH_OK;
    out->error[0] = '\0';
    out->wall_ms = 0;
    memset(out->members, 0, n_members * sizeof *out->members);
    for (size_t i = 0; i < n_members; i++) out->members[i].numa_node = -1;
    if (n_members == 0) {
        snprintf(out->error, sizeof out->error, "a split needs at least one member");
        return out->status = GH_INVALID_ARGUMENT;
    }
    if (check_members(members, n_members, panel, mem_limit, p, out) != GH_OK) return out->status;

    shared sh = {.n_workers = n_members,
                 .n_chunks = out->members[0].layout.n_chunks,
                 .status = GH_OK,
                 .error = out->error,
                 .error_size = sizeof out->error};
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.all_arrived, NULL);
    pthread_cond_init(&sh.b_changed, NULL);
    atomic_init(&sh.aborted, 0);
    worker *workers = gh_xcalloc(n_members, sizeof *workers);
    for (size_t i = 0; i < n_members; i++) {
        workers[i] = (worker){.mb = &members[i], .p = p, .sh = &sh, .st = &out->members[i], .index = i, .all = workers};
        workers[i].async = workers[i].st->streams;
    }
    gh_numa_place *places = plan_numa(workers, n_members, opt->numa, &sh);
    plan_b_copies(workers, n_members, opt->b_copy, &sh);
    for (size_t i = 0; i < n_members; i++) {
        worker *w = &workers[i];
        w->started = pthread_create(&w->thread, NULL, worker_main, w) == 0;
        if (!w->started) {
            fail(w, GH_ERROR, 0, "could not start its host thread");
            give_up_b(w);
            arrive(&sh, 0);
        }
    }
    double end = 0;
    for (size_t i = 0; i < n_members; i++) {
        if (!workers[i].started) continue;
        pthread_join(workers[i].thread, NULL);
        if (workers[i].end_ms > end) end = workers[i].end_ms;
    }
    out->wall_ms = end > sh.t_start ? end - sh.t_start : 0;
    out->status = sh.status;
    free(workers);
    free(places);
    free(sh.home_next);
    free(sh.home_end);
    pthread_cond_destroy(&sh.b_changed);
    pthread_cond_destroy(&sh.all_arrived);
    pthread_mutex_destroy(&sh.lock);
    return out->status;
}
