/* A result checked with the host's own verification (core/verify/verify.c): the
 * bound gemmhost itself holds every result to, so that the 16-bit dtypes are
 * judged here exactly as in a run (output rounding and all). */
#ifndef GH_TEST_OPENCL_HOST_VERIFY_H
#define GH_TEST_OPENCL_HOST_VERIFY_H

#include <stddef.h>
#include <gemmhost/plugin.h>

/* One matrix as the test stores it: rows x cols with stride ld, starting
 * `offset` elements into `raw`. */
typedef struct host_view {
    const void *raw;
    int64_t rows, cols, ld;
    uint64_t offset;
} host_view;

/* Verifies C (c1) of C = alpha op(A) op(B) + beta C0 against a full f64
 * reference with gh_verify (the default arithmetic of the dtype: what a
 * kernel that declares no precisions is held to). 0 when it passes, -1 with
 * the reason in `why`. */
int host_verify(gh_dtype dtype, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha, double beta,
                const host_view *a, const host_view *b, const host_view *c0, const host_view *c1, char *why,
                size_t why_size);

#endif
