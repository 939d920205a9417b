/* Small kernels timed honestly: below batch_below a kernel's own time is
 * mostly its launch, so batch = auto (or batch = N) queues N launches of the
 * same GEMM back to back on one stream of the plugin (ABI minor 1's
 * gemm_async) and waits once; the result's time is their total over N, and
 * the result says `batch = N`. A plugin of ABI minor 6 with gemm_batch_async
 * takes the N launches in one call, timed between one pair of its events
 * with its per-call host work done once (CUDA replays them from one CUDA
 * graph, the stream held until it is launched, so no host gap is timed), and under isolation in one message
 * to the worker; else each of N gemm_async calls carries its own timing.
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
    int n;      /* launches per timed repetition; 1: unbatched */
    int in_one; /* the plugin's gemm_batch_async takes all n (ABI minor 6) */
} gh_batch;

/* Why this run cannot batch ("" when it can): the plugin, the cache, beta. */
const char *gh_batch_refusal(const gh_run_config *run, const gh_plugin_api *api, uint32_t abi_minor);

/* The launches per repetition batch = auto picks after a lone launch of
 * `first_ms`: enough for ten times batch_below, at most 1000; 1 when the
 * kernel is not below batch_below. */
int gh_batch_auto_count(const gh_run_config *run, double first_ms);

/* Starts batching n launches (n >= 2) on a plugin that negotiated
 * abi_minor: creates the stream. */
gh_status gh_batch_start(gh_batch *b, const gh_plugin_api *api, uint32_t abi_minor, gh_plugin *ctx, int device, int n,
                         char *why, size_t why_size);
/* Runs b->n launches, waits, and writes into *out their total time over n
 * (as the plugin reported them: a bad one is passed on as is), the clock,
 * and the plugin's note and split of K. */
gh_status gh_batch_gemm(gh_batch *b, int kernel, const gh_gemm_args *args, gh_gemm_timing *out, char *why,
                        size_t why_size);
void gh_batch_end(gh_batch *b);

#endif
