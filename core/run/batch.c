/* Batched launches for small kernels (batch.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "batch.h"
#include "loader.h"
#include "reported.h"
#include "util.h"

const char *gh_batch_refusal(const gh_run_config *run, const gh_plugin_api *api, uint32_t abi_minor)
{
    if (run->cache_cold) return "cache = cold (a batch's later launches would find the cache warm)";
    if (run->beta != 0) return "beta != 0 (each launch would read the C the one before wrote)";
    if (abi_minor < 1 || !GH_HAS_MEMBER(api, gh_plugin_api, stream_synchronize) || !api->stream_create ||
        !api->stream_destroy || !api->gemm_async || !api->stream_synchronize)
        return "the plugin has no streams (ABI minor 1) to queue launches on";
    return "";
}

int gh_batch_auto_count(const gh_run_config *run, double first_ms)
{
    const double below_ms = run->batch_below * 1e3;
    if (!(first_ms > 0) || first_ms >= below_ms) return 1;
    double n = ceil(10 * below_ms / first_ms);
    return n > 1000 ? 1000 : n < 2 ? 2 : (int)n;
}

gh_status gh_batch_start(gh_batch *b, const gh_plugin_api *api, uint32_t abi_minor, gh_plugin *ctx, int device, int n,
                         char *why, size_t why_size)
{
    const int in_one = gh_plugin_has_batch(api, abi_minor);
    *b = (gh_batch){.api = api, .ctx = ctx, .device = device, .n = n, .in_one = in_one};
    gh_status s = api->stream_create(ctx, device, &b->stream);
    if (s != GH_OK) {
        snprintf(why, why_size, "batch: creating a stream: %s", api->last_error(ctx));
        b->stream = NULL;
        b->n = 1;
        return s;
    }
    b->timings = gh_xcalloc((size_t)n, sizeof *b->timings);
    return GH_OK;
}

gh_status gh_batch_gemm(gh_batch *b, int kernel, const gh_gemm_args *args, gh_gemm_timing *out, char *why,
                        size_t why_size)
{
    const gh_plugin_api *api = b->api;
    const int calls = b->in_one ? 1 : b->n;
    gh_status s = GH_OK;
    for (int i = 0; i < calls && s == GH_OK; i++) {
        b->timings[i] = (gh_gemm_timing){.size = sizeof b->timings[i], .kernel_ms = NAN, .clock = GH_CLOCK_DEVICE};
        s = b->in_one ? api->gemm_batch_async(b->ctx, b->stream, kernel, args, (uint32_t)b->n, &b->timings[i])
                      : api->gemm_async(b->ctx, b->stream, kernel, args, &b->timings[i]);
        if (s != GH_OK && b->in_one)
            snprintf(why, why_size, "batch of %d launches (gemm_batch_async): %s", b->n, api->last_error(b->ctx));
        else if (s != GH_OK)
            snprintf(why, why_size, "batch: launch %d of %d: %s", i + 1, b->n, api->last_error(b->ctx));
    }
    /* what was queued is waited for, even after a refused launch */
    gh_status w = api->stream_synchronize(b->ctx, b->stream);
    if (s != GH_OK) return s;
    if (w != GH_OK) {
        snprintf(why, why_size, "batch of %d launches: %s", b->n, api->last_error(b->ctx));
        return w;
    }
    /* the first launch's note and split stand for all: they ran alike */
    *out = b->timings[0];
    double total = 0;
    for (int i = 0; i < calls; i++) {
        if (!gh_reported_time_ok(b->timings[i].kernel_ms)) {
            out->kernel_ms = b->timings[i].kernel_ms;
            return GH_OK;
        }
        total += b->timings[i].kernel_ms;
        if (b->timings[i].clock == GH_CLOCK_HOST) out->clock = GH_CLOCK_HOST;
    }
    out->kernel_ms = total / calls; /* gemm_batch_async's one time is already over n */
    return GH_OK;
}

void gh_batch_end(gh_batch *b)
{
    if (b->stream) b->api->stream_destroy(b->ctx, b->stream);
    free(b->timings);
    *b = (gh_batch){.n = 1};
}
