/*
 * The host side of a GEMM check: seeded inputs, and the reference product in
 * long double with the magnitudes that scale the error bound
 * (shared/design/verification.md).
 */
#ifndef HOST_REFERENCE_H
#define HOST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "gemmhost/plugin.h"

/* Logical matrices of a problem as doubles (exact for f32, f64 and the small
 * i32 inputs): op(A) is m x k, op(B) is k x n, C0 is m x n, all row-major and
 * dense. The test places them into device buffers with any layout. */
typedef struct logical_problem {
    gh_dtype dtype;
    int64_t m, n, k;
    double *op_a, *op_b, *c0;
    /* From host_products: s = op(A) op(B) and mag = |op(A)| |op(B)|, m x n. */
    long double *s;
    double *mag;
} logical_problem;

/* Allocates and fills op_a, op_b, c0 from seed: floats uniform in [-1, 1)
 * (rounded to f32 for f32), i32 in [-8, 8]; never all zeros. 0 on success. */
int logical_problem_init(logical_problem *p, gh_dtype dtype, int64_t m, int64_t n, int64_t k, uint64_t seed);
void logical_problem_free(logical_problem *p);

/* Computes s and mag with several threads. 0 on success. */
int host_products(logical_problem *p);

/* The bound on |C_ij - exact| for the dtype's arithmetic: gamma_{K+2} times
 * (|alpha| mag + |beta| |C0|), with two more roundings than the dot product
 * for alpha*acc and + beta*C, plus the long double reference's own error. */
double gemm_error_bound(gh_dtype dtype, int64_t k, double alpha, double beta, double mag, double c0);

/* Elements in device-layout host memory: their size, and one read or written
 * as a double (exact for every dtype's test values). */
extern const char *const dtype_names[GH_DTYPE_COUNT]; /* "f32", "f64", "i32" */
size_t elem_size(gh_dtype d);
void put(gh_dtype d, void *base, size_t i, double v);
double get(gh_dtype d, const void *base, size_t i);

/* splitmix64: the seeded generator behind the inputs. */
uint64_t test_rand_next(uint64_t *state);

#endif
