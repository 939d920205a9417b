/* cache = cold: before each repetition the host writes a scratch buffer on
 * the device, larger than its last-level cache, through the plugin's own
 * upload, so that A, B and C start the kernel out of cache. The write is a
 * call of its own, between the upload of C and the GEMM, and so outside the
 * kernel's timed events for every API. No plugin reports its last-level
 * cache, so the size is the config's flush_size (256 MiB by default: at
 * least twice the L2 of every GPU gemmhost knows, 50 MiB on an H100/H200,
 * 96 MiB on a Blackwell B200), and the result records it. */
#ifndef GEMMHOST_CACHE_FLUSH_H
#define GEMMHOST_CACHE_FLUSH_H

#include <stdint.h>
#include "data.h"
#include "gemmhost/plugin.h"

typedef struct gh_cache_flush {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    gh_buffer *scratch;     /* on the device */
    unsigned char *src;     /* host memory written from, its bytes changed each flush */
    gh_host_allocator host; /* how src was allocated (the case's: shared memory under isolation); all NULL: malloc */
    uint64_t bytes;
    unsigned count; /* flushes done, which also varies what is written */
} gh_cache_flush;

/* Allocates `bytes` on the device, and in host memory from `host` (NULL:
 * malloc), so that under isolation the worker reads it in place. Returns
 * GH_OK, or the plugin's status with `why` filled (the plugin's words). */
gh_status gh_cache_flush_open(gh_cache_flush *f, const gh_plugin_api *api, gh_plugin *ctx, int device, uint64_t bytes,
                              const gh_host_allocator *host, char *why, size_t why_size);
/* Writes the whole scratch buffer (a blocking upload). */
gh_status gh_cache_flush_run(gh_cache_flush *f, char *why, size_t why_size);
void gh_cache_flush_close(gh_cache_flush *f);

#endif
