/* The cold-cache flush (cache_flush.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_flush.h"

static void free_src(gh_cache_flush *f)
{
    if (f->host.free) f->host.free(f->host.user, f->src);
    else free(f->src);
    f->src = NULL;
}

gh_status gh_cache_flush_open(gh_cache_flush *f, const gh_plugin_api *api, gh_plugin *ctx, int device, uint64_t bytes,
                              const gh_host_allocator *host, char *why, size_t why_size)
{
    *f = (gh_cache_flush){.api = api, .ctx = ctx, .bytes = bytes};
    if (host) f->host = *host;
    f->src = f->host.alloc ? f->host.alloc(f->host.user, (size_t)bytes) : malloc(bytes);
    if (!f->src) {
        snprintf(why, why_size, "cache = cold: out of host memory for the %llu-byte flush buffer (flush_size)",
                 (unsigned long long)bytes);
        return GH_OUT_OF_MEMORY;
    }
    memset(f->src, 0x5a, bytes); /* touched once, so each flush copies real pages */
    gh_status s = api->buffer_alloc(ctx, device, bytes, &f->scratch);
    if (s != GH_OK) {
        snprintf(why, why_size, "cache = cold: allocating the %llu-byte flush buffer (flush_size): %s",
                 (unsigned long long)bytes, api->last_error(ctx));
        free_src(f);
        f->scratch = NULL;
    }
    return s;
}

gh_status gh_cache_flush_run(gh_cache_flush *f, char *why, size_t why_size)
{
    f->src[0] = (unsigned char)++f->count; /* not the same bytes twice in a row */
    gh_status s = f->api->upload(f->ctx, f->scratch, 0, f->src, f->bytes);
    if (s != GH_OK) snprintf(why, why_size, "cache = cold: writing the flush buffer: %s", f->api->last_error(f->ctx));
    return s;
}

void gh_cache_flush_close(gh_cache_flush *f)
{
    if (f->scratch) f->api->buffer_free(f->ctx, f->scratch);
    if (f->src) free_src(f);
    *f = (gh_cache_flush){0};
}
