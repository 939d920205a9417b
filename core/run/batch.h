/* Small kernels timed honestly: below batch_below a kernel's own time is
 * mostly its launch, so batch = auto (or batch = N) queues N launches of the
 * same GEMM back to back on one stream of the plugin (ABI minor 1's
 * gemm_async) and waits once; the result's time is their total over N, and
 * the result says `batch = N`. Each launch still carries the plugin's own
 * event pair, but with the queue full the device never waits on the host
 * between them, so the launch latency a lone call includes is gone.
 *
 * Not batched, and the result says batch 1: a plugin without streams (its
 * blocking gemm() is the only way to run), cache = cold (a batch's later
 * launches would find the cache warm), beta != 0 (each launch would read the
 * C the one before wrote, and the output would not be the checked product). */
#ifndef GEMMHOST_BATCH_H
#define GEMMHOST_BATCH_H

#include <stddef.h>
#include "config.h"
#include "gemmhost/plugin.h"

typedef struct gh_batch {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int device;
    gh_stream *stream;
    gh_gemm_timing *timings;
    int n; /* launches per timed repetition; 1: unbatched */
} gh_batch;

/* Why this run cannot batch ("" when it can): the plugin, the cache, beta. */
const char *gh_batch_refusal(const gh_run_config *run, const gh_plugin_api *api, uint32_t abi_minor);

/* The launches per repetition batch = auto picks after a lone launch of
 * `first_ms`: enough for ten times batch_below, at most 1000; 1 when the
 * kernel is not below batch_below. */
int gh_batch_auto_count(const gh_run_config *run, double first_ms);

/* Starts batching n launches (n >= 2): creates the stream. */
gh_status gh_batch_start(gh_batch *b, const gh_plugin_api *api, gh_plugin *ctx, int device, int n, char *why,
                         size_t why_size);
/* Runs b->n launches, waits, and writes their total time over n into
 * *kernel_ms (as the plugin reported them: a bad one is passed on as is). */
gh_status gh_batch_gemm(gh_batch *b, int kernel, const gh_gemm_args *args, double *kernel_ms, gh_clock *clock,
                        char *why, size_t why_size);
void gh_batch_end(gh_batch *b);

#endif
