/* Host side of the Vulkan plugin test: poisoned outputs and the check
 * against the host library's f64 reference and bound (core/verify/verify.h,
 * docs/verification.md). */
#ifndef GEMMHOST_TEST_VULKAN_MATRICES_H
#define GEMMHOST_TEST_VULKAN_MATRICES_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"
#include "gemmhost/plugin_helpers.h"

/* Element access (gh_test_get, gh_test_put, gh_test_elem_size) and seeded
 * inputs (gh_test_fill_seeded: floats uniform in [-1, 1), f16 and bf16
 * rounded to the type, i32 in -8..8 but 0, so that no sum overflows) are
 * tests/support's seeded.h. */
#include "seeded.h"

/* The value that marks an unwritten element of C: NaN, or a sentinel for i32. */
void fill_poison(gh_dtype dtype, void *p, size_t n);

/* One GEMM problem as stored on the host, in the plugin's row-major layout. */
typedef struct problem {
    gh_dtype dtype;
    int ta, tb;
    int64_t m, n, k;
    double alpha, beta;
    int64_t lda, ldb, ldc;
    uint64_t a_off, b_off, c_off; /* elements */
} problem;

/* Compares got (the whole C buffer after the run) with the f64 reference
 * computed from a, b and c0 (C before the run), within the bound gemmhost
 * uses for the dtype's default arithmetic (gh_verify). Elements outside the
 * matrix (before the offset, between rows, after the end) must be unchanged
 * bit for bit. Returns 1 when everything passes; otherwise 0 with `why`
 * naming the first failing element. */
int check_result(const problem *p, const void *a, const void *b, const void *c0, const void *got, size_t c_elems,
                 char *why, size_t why_size);

#endif
