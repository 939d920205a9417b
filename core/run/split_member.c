/* One split member's thread: it sets up its lanes and buffers, takes row
 * chunks from the shared queue and runs each as tasks (uploads, GEMM,
 * download), then drains and frees.
 *
 * A task uploads what its GEMM needs that the device does not hold yet (the
 * chunk's rows of op(A), a panel of op(B), C0 when beta != 0), runs the GEMM
 * and downloads its block of C. With streams, tasks alternate between two
 * lanes (a stream and its own buffer set each), so one lane's uploads run
 * while the other's GEMM does. Streams run in order, so a lane's buffers are
 * safe to reuse; the only data shared between lanes is the resident B, and a
 * GEMM that reads a panel of it queued on the other lane first waits for that
 * lane. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "crash.h"
#include "reported.h"
#include "split_internal.h"
#include "util.h"

/* ---- what the threads share --------------------------------------------- */
/* Counts one worker in; the last one starts the clock and wakes the rest. */
void gh_split_arrive(shared *sh, int wait)
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

/* Records this member's failure (first one only) with the plugin's words,
 * read right after the failing call since last_error is per thread. */
__attribute__((format(printf, 4, 5))) gh_status gh_split_fail(worker *w, gh_status status, int plugin_words,
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
    gh_split_fail(w, GH_ERROR, 0, "stopped by %s between tasks", gh_cancel_signal_name());
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
    double t1 = gh_now_ms();
    w->st->wait_ms += t1 - t0;
    gh_split_trace(w, -1, "wait", "the chunk queue", t0, t1 - t0, -1, 0);
    if (chunk >= 0) w->st->chunks++;
    w->chunk_now = chunk;
    return chunk;
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
            return gh_split_fail(w, GH_ERROR, 0, "internal: more than %d uploads in one task", MAX_TASK_UPLOADS);
        l->up_what[l->n_up] = what;
        l->chunk = w->chunk_now;
        double *ms = &l->up_ms[l->n_up++];
        *ms = 0;
        gh_status s = w->mb->api->upload_2d_async(w->mb->ctx, l->stream, buf, offset, dev_pitch, b.host, b.pitch,
                                                  b.width, b.rows, ms);
        return s == GH_OK ? GH_OK : gh_split_fail(w, s, 1, "queueing the upload of %s", what);
    }
    double t0 = gh_now_ms();
    gh_status s = blocking_copy(w, 1, buf, offset, dev_pitch, b);
    double t1 = gh_now_ms();
    w->st->upload_ms += t1 - t0;
    gh_split_trace(w, -1, "upload", what, t0, t1 - t0, w->chunk_now, 0);
    return s == GH_OK ? GH_OK : gh_split_fail(w, s, 1, "uploading %s", what);
}

static gh_status get_block(worker *w, lane *l, gh_buffer *buf, uint64_t offset, uint64_t dev_pitch, host_block b)
{
    w->st->bytes_down += b.rows * b.width;
    if (w->async) {
        l->down_ms = 0;
        l->n_down = 1;
        gh_status s = w->mb->api->download_2d_async(w->mb->ctx, l->stream, buf, offset, dev_pitch, b.host, b.pitch,
                                                    b.width, b.rows, &l->down_ms);
        return s == GH_OK ? GH_OK : gh_split_fail(w, s, 1, "queueing the download of C");
    }
    double t0 = gh_now_ms();
    gh_status s = blocking_copy(w, 0, buf, offset, dev_pitch, b);
    double t1 = gh_now_ms();
    w->st->download_ms += t1 - t0;
    gh_split_trace(w, -1, "download", "C", t0, t1 - t0, w->chunk_now, 0);
    return s == GH_OK ? GH_OK : gh_split_fail(w, s, 1, "downloading C");
}

/* A GEMM's reported time must be one (reported.h): a lie fails the member. */
static gh_status check_time(worker *w, double kernel_ms)
{
    if (gh_reported_time_ok(kernel_ms)) return GH_OK;
    return gh_split_fail(w, GH_ERROR, 0,
                         "plugin %s reported a kernel time of %g ms (a kernel time must be finite and > 0)",
                         w->mb->api->name, kernel_ms);
}

/* Waits for the lane's queued work and books the device's times for it. */
gh_status gh_split_lane_sync(worker *w, lane *l)
{
    if (!l->stream) return GH_OK;
    double t0 = gh_now_ms();
    gh_status s = w->mb->api->stream_synchronize(w->mb->ctx, l->stream);
    double t1 = gh_now_ms();
    w->st->wait_ms += t1 - t0;
    gh_split_trace(w, -1, "wait", l == &w->lanes[0] ? "stream 0" : "stream 1", t0, t1 - t0, -1, 0);
    if (s == GH_OK) gh_split_trace_lane(w, l, t1);
    l->syncs++;
    for (int i = 0; i < l->n_up; i++) w->st->upload_ms += l->up_ms[i];
    if (l->n_down) w->st->download_ms += l->down_ms;
    int gemm_timed = l->n_gemm;
    if (gemm_timed) w->st->compute_ms += l->timing.kernel_ms;
    l->n_up = l->n_down = l->n_gemm = 0;
    if (s != GH_OK) return gh_split_fail(w, s, 1, "queued work failed (stream_synchronize)");
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
        l->chunk = w->chunk_now;
        l->args = *g;
        s = mb->api->gemm_async(mb->ctx, l->stream, mb->kernel, &l->args, &l->timing);
    } else {
        gh_gemm_timing t = {.size = sizeof t};
        double t0 = gh_now_ms();
        s = mb->api->gemm(mb->ctx, mb->device, mb->kernel, g, &t);
        gh_split_trace(w, -1, "gemm", "", t0, gh_now_ms() - t0, w->chunk_now, 0);
        w->st->compute_ms += t.kernel_ms;
        if (s == GH_OK) return check_time(w, t.kernel_ms);
    }
    return s == GH_OK ? GH_OK
                      : gh_split_fail(w, s, 1, "%s a %lldx%lldx%lld GEMM", w->async ? "queueing" : "running",
                                      (long long)g->m, (long long)g->n, (long long)g->k);
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
        if (w->panel_lane[j] != self && other->syncs == w->panel_sync[j] && gh_split_lane_sync(w, other) != GH_OK)
            return GH_ERROR;
    }
    return GH_OK;
}

/* The blocking path has no overlap to gain: B goes up whole, first. */
gh_status gh_split_load_whole_b(worker *w)
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
    const uint64_t e = p->c->elem_size; /* C's offsets: its own type (an 8-bit case's A is 1 byte) */
    const int self = w->next_lane;
    lane *l = &w->lanes[self];
    w->next_lane = (w->next_lane + 1) % w->n_lanes;
    /* The lane's previous task must be done before its buffers are reused. */
    if (gh_split_lane_sync(w, l) != GH_OK) return GH_ERROR;
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
        /* ABI 1.5: an 8-bit case's types and scales, as a single GEMM's */
        .explicit_types = p->types.explicit_types,
        .b_dtype = p->types.explicit_types ? p->types.b : p->dtype,
        .c_dtype = p->types.explicit_types ? p->types.c : p->dtype,
        .scale_a = p->types.explicit_types ? p->types.scale_a : 1.0,
        .scale_b = p->types.explicit_types ? p->types.scale_b : 1.0,
        .scale_c = p->types.explicit_types ? p->types.scale_c : 1.0,
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
    if (lay->b_resident && !w->async && w->panels_loaded < lay->n_panels && gh_split_load_whole_b(w) != GH_OK)
        return GH_ERROR;
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

/* ---- a worker's life ------------------------------------------------------ */

static gh_status alloc_buffer(worker *w, uint64_t bytes, gh_buffer **out, const char *what)
{
    gh_status s = w->mb->api->buffer_alloc(w->mb->ctx, w->mb->device, bytes, out);
    if (s != GH_OK) {
        *out = NULL;
        char size[32];
        gh_split_format_bytes(bytes, size, sizeof size);
        return gh_split_fail(w, s, 1, "allocating %s of %s on the device", what, size);
    }
    return GH_OK;
}

/* Largest block the blocking path packs, capped, but never below one row. */
static uint64_t staging_size(const worker *w)
{
    const gh_split_layout *l = &w->st->layout;
    uint64_t e = w->p->a->elem_size; /* the widest element of the three (an 8-bit case's C is wider) */
    if (w->p->b->elem_size > e) e = w->p->b->elem_size;
    if (w->p->c->elem_size > e) e = w->p->c->elem_size;
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
            return gh_split_fail(w, GH_OUT_OF_MEMORY, 0, "out of host memory for a %llu-byte staging buffer",
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
            return gh_split_fail(w, s, 1, "creating a stream");
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
    if (w->async) return GH_OK;
    gh_status s = alloc_staging(w);
    if (s == GH_OK) gh_split_register_staging(w);
    return s;
}

/* Every queued copy and GEMM finishes before a buffer is freed. */
static void drain(worker *w)
{
    for (int i = 0; i < w->n_lanes; i++) gh_split_lane_sync(w, &w->lanes[i]);
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
    gh_split_unregister_staging(w);
    if (w->staging_pinned) api->host_free(ctx, w->staging);
    else free(w->staging);
    free(w->panel_loaded);
    free(w->panel_lane);
    free(w->panel_sync);
}

void *gh_split_worker_main(void *arg)
{
    worker *w = arg;
    gh_crash_doing("running split member %s/%d (plugin %s), kernel %s%s%s, on a %lldx%lldx%lld product", w->mb->backend,
                   w->mb->device, w->mb->api->name, w->mb->kernel_info->name, *w->mb->params_label ? " " : "",
                   w->mb->params_label, (long long)w->p->m, (long long)w->p->n, (long long)w->p->k);
    gh_status s = worker_setup(w);
    if (s == GH_OK) gh_split_place_member(w);
    gh_split_arrive(w->sh, 1); /* a member that could not set up still arrives: nobody waits forever */
    if (s == GH_OK && (!w->b_tree || gh_split_distribute_b(w) == GH_OK)) {
        int64_t chunk;
        while (!w->failed && (chunk = take_chunk(w)) >= 0)
            if (run_chunk(w, chunk) != GH_OK) break;
    }
    drain(w);
    w->end_ms = gh_now_ms();
    gh_split_finish_b(w);
    worker_teardown(w);
    return NULL;
}
