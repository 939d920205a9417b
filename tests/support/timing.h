/* The timing loop of the plugin suites' speed tables: one warm-up run (it
 * may compile the kernel), then `repeats` timed runs, the median kernel time. */
#ifndef GH_TEST_SUPPORT_TIMING_H
#define GH_TEST_SUPPORT_TIMING_H

#include "gemmhost/plugin.h"

#define GH_TEST_MAX_REPEATS 15

/* The median of `repeats` (1..GH_TEST_MAX_REPEATS) timings' kernel_ms after a
 * warm-up, or -1.0 when a run fails, with its status in *status (GH_OK
 * otherwise) and api->last_error(ctx) telling why. */
double gh_test_median_kernel_ms(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel,
                                const gh_gemm_args *args, int repeats, gh_status *status);

/* Arguments of C = A B on square n x n f32 matrices, tight, in buffers a, b
 * and c: the shape every speed table times. */
gh_gemm_args gh_test_square_args(int64_t n, gh_buffer *a, gh_buffer *b, gh_buffer *c, const int64_t *params,
                                 size_t n_params);

/* The median of n values (reorders them); 0 for n < 1. */
double gh_test_median(double *values, int n);

/* GFLOP/s of an m x n x k GEMM that took ms milliseconds; 0 when ms <= 0. */
double gh_test_gflops(int64_t m, int64_t n, int64_t k, double ms);

#endif
