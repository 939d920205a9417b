/* Shared by the CUDA plugin test's files: result counting and the plugin. */
#ifndef CUDA_TEST_H
#define CUDA_TEST_H

#include <stdint.h>

#include "gemmhost/plugin.h"

#if defined(__GNUC__)
#define TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TEST_PRINTF(f, a)
#endif

/* Each check is one result: passes print only with GEMMHOST_TEST_VERBOSE=1;
 * failures and skips always print, with their reason. */
void test_pass(const char *fmt, ...) TEST_PRINTF(1, 2);
void test_fail(const char *fmt, ...) TEST_PRINTF(1, 2);
void test_skip(const char *fmt, ...) TEST_PRINTF(1, 2);
void test_note(const char *fmt, ...) TEST_PRINTF(1, 2); /* information, not a result */
#define CHECK(cond, ...)            \
    do {                            \
        if (cond)                   \
            test_pass(__VA_ARGS__); \
        else                        \
            test_fail(__VA_ARGS__); \
    } while (0)

/* With a CUDA device: every kernel x dtype x transpose x shape, verified. */
void run_gemm_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* Error paths on a real device: bad arguments, limits, unsupported dtypes. */
void run_device_error_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* Streams on one device: 2D copies with pitches and offsets, gemm_async on
 * two streams, copy and compute overlapping, timings, error paths. */
void run_stream_tests(const gh_plugin_api *api, gh_plugin *ctx, int device);
/* Every device from its own thread at once, each with its own stream. */
void run_multi_device_stream_tests(const gh_plugin_api *api, gh_plugin *ctx, int n_devices);
/* Speed at 1024, 2048 and 4096 (f32): printed, not judged, except as notes. */
void run_perf(const gh_plugin_api *api, gh_plugin *ctx, int device);

/* Finds a kernel's index by name, -1 if absent. */
int find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name);

#endif
