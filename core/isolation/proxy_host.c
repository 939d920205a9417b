/* host_register through a worker (ABI minor 4): the host memory the worker
 * reaches is its own mapping of a shared segment, so the worker registers
 * that view with its plugin (pinned, imported) and keeps it registered
 * until the segment is freed (it unregisters before it unmaps, see
 * worker.c); host_unregister here has nothing to do. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg_host.h"
#include "proxy_internal.h"
#include "shm.h"

/* What the workers said, kept for the life of the process: *how is static
 * to the caller (plugin.h), and the answers are few (one per kind). */
static pthread_mutex_t hows_lock = PTHREAD_MUTEX_INITIALIZER;
static char *hows[16];

static const char *kept(const char *text)
{
    const char *out = "registered";
    pthread_mutex_lock(&hows_lock);
    for (size_t i = 0; i < sizeof hows / sizeof hows[0]; i++) {
        if (!hows[i]) hows[i] = strdup(text);
        if (hows[i] && strcmp(hows[i], text) == 0) {
            out = hows[i];
            break;
        }
    }
    pthread_mutex_unlock(&hows_lock);
    return out;
}

gh_status proxy_host_register(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags, const char **how)
{
    proxy_ctx *c = (proxy_ctx *)ctx;
    if (!ptr || bytes == 0 || !how || (flags & ~GH_HOST_REGISTER_READ_ONLY)) {
        proxy_set_error("host_register: ptr or how is NULL, bytes is 0 or flags has an unknown bit");
        return GH_INVALID_ARGUMENT;
    }
    gh_shm_place place;
    if (gh_shm_find(ptr, bytes, &place) != 0) {
        proxy_set_error(
            "host_register: under isolation only shared memory reaches the worker, and this range is "
            "not inside one shared segment");
        return GH_UNSUPPORTED;
    }
    const int writable = !(flags & GH_HOST_REGISTER_READ_ONLY);
    pthread_mutex_lock(&c->lock);
    gh_status s = proxy_begin(c, GH_OP_HOST_REGISTER);
    if (s == GH_OK) {
        gh_worker_share(c->w, &place, writable); /* a worker that is gone: the call below says how */
        gh_msg_host_register req = {{GH_PLACE_SEGMENT, place.id, place.offset, bytes}, flags};
        gh_msg_host_register_put(&c->q, &req);
        /* pinning takes about a second per 10 GB: a generous limit */
        s = proxy_roundtrip(c, proxy_limit(c, 100.0 * (double)place.size / 1e9), "host_register");
    }
    gh_msg_host_registered done = {0};
    if (s == GH_OK && gh_msg_host_registered_get(&c->r, &done) == 0) {
        *how = kept(done.how ? done.how : "registered");
        gh_msg_host_registered_clear(&done);
    } else if (s == GH_OK) {
        *how = "registered";
    }
    pthread_mutex_unlock(&c->lock);
    return s;
}

gh_status proxy_host_unregister(gh_plugin *ctx, void *ptr)
{
    (void)ctx;
    if (!ptr) {
        proxy_set_error("host_unregister: ptr is NULL");
        return GH_INVALID_ARGUMENT;
    }
    return GH_OK;
}
