/* What a split member can do and what it holds: its plugin's optional calls
 * (streams, pinned host memory, peer copies), its memory limit, and the
 * layout of A rows, B (resident or in panels) and C blocks that fits it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "reported.h"
#include "split_internal.h"
#include "util.h"

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
    const gh_case_types *t = &s->types; /* an 8-bit case: A and B of 1 byte, C of 2 or 4 */
    const uint64_t ea = gh_dtype_size(s->dtype), eb = t->explicit_types ? gh_dtype_size(t->b) : ea,
                   ec = t->explicit_types ? gh_dtype_size(t->c) : ea;
    memset(l, 0, sizeof *l);
    l->chunk_rows = min64(panel, s->m);
    l->panel_cols = min64(panel, s->n);
    l->n_chunks = ceil_div(s->m, l->chunk_rows);
    l->n_panels = ceil_div(s->n, l->panel_cols);
    l->b_resident = ch.b_resident;
    /* With one panel, a tile is the full width. */
    l->full_width = ch.b_resident && (ch.full_width || l->n_panels == 1);
    l->depth = ch.depth;
    l->a_bytes = sat_mul(sat_mul((uint64_t)l->chunk_rows, (uint64_t)s->k), ea);
    l->b_bytes = sat_mul(sat_mul((uint64_t)s->k, (uint64_t)(ch.b_resident ? s->n : l->panel_cols)), eb);
    l->c_bytes = sat_mul(sat_mul((uint64_t)l->chunk_rows, (uint64_t)(l->full_width ? s->n : l->panel_cols)), ec);
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
