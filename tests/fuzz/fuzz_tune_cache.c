/* libFuzzer target: the tuner's cache file (core/tune/tune_cache.c) as a
 * run loads it, looked up, and saved again (a bad one renamed aside). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input_file.h"
#include "tune_cache.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) sink = fopen("/dev/null", "w");
    if (!sink) abort();
    const char *path = fuzz_input_file(data, size, ".json");
    gh_tune_cache *c = gh_tune_cache_load(path, sink);
    if (!c) return 0;
    gh_kernel_info info = {.size = sizeof info, .name = "tiled", .description = "", .dtypes = 1};
    gh_tune_key key = {"cpu", "AMD EPYC", "n/a", "tiled", GH_F32, {0}}; /* corpus/tune_cache/cpu-tiled.json's */
    int stale = 0;
    (void)gh_tune_cache_find(c, &key, &info, &stale);
    gh_tune_cache_free(c);
    return 0;
}
