/*
 * The host side of a GEMM check: seeded inputs (tests/support/seeded.h) and
 * the f64 reference with the magnitudes that scale the error bound
 * (tests/support/reference.h, shared/design/verification.md).
 */
#ifndef HOST_REFERENCE_H
#define HOST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"
#include "reference.h"
#include "seeded.h"

/* Logical matrices of a problem as doubles (exact for f32, f64 and the small
 * i32 inputs): op(A) is m x k, op(B) is k x n, C0 is m x n, all row-major and
 * dense. The test places them into device buffers with any layout. */
typedef struct logical_problem {
    gh_dtype dtype;
    int64_t m, n, k;
    double *op_a, *op_b, *c0;
    /* From host_products: s = op(A) op(B) and mag = |op(A)| |op(B)|, m x n. */
    double *s;
    double *mag;
} logical_problem;

/* Allocates and fills op_a, op_b, c0 from seed (streams 0, 1 and 2 of
 * gh_test_seeded_values). 0 on success. */
int logical_problem_init(logical_problem *p, gh_dtype dtype, int64_t m, int64_t n, int64_t k, uint64_t seed);
void logical_problem_free(logical_problem *p);

/* Computes s and mag (gh_test_reference_products). 0 on success. */
int host_products(logical_problem *p);

/* The names of the dtypes this test runs, NULL past them. */
extern const char *const dtype_names[GH_DTYPE_COUNT]; /* "f32", "f64", "i32" */

#endif
