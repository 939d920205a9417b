/* The f64 reference of a GEMM test: the host's own threaded products
 * (gh_host_products, core/verify/host_gemm), over dense logical matrices. */
#ifndef GH_TEST_SUPPORT_REFERENCE_H
#define GH_TEST_SUPPORT_REFERENCE_H

#include <stdint.h>
#include "gemmhost/plugin.h"

/* sum = op(A) op(B) and abs_sum = |op(A)| |op(B)|, m x n row-major, in f64,
 * from op_a (m x k) and op_b (k x n) dense row-major. Each element is summed
 * in the same order whatever the thread count. 0, or -1 out of memory. */
int gh_test_reference_products(int64_t m, int64_t n, int64_t k, const double *op_a, const double *op_b, double *sum,
                               double *abs_sum);

/* The bound on |C_ij - reference| for a kernel in the dtype's own arithmetic:
 * gamma_{K+2}(u) (the dot product, alpha * acc, + beta * C) plus the f64
 * reference's own gamma_K(2^-53), times |alpha| abs_sum + |beta| |C0|. 0 for
 * i32, which is exact. */
double gh_test_error_bound(gh_dtype dtype, int64_t k, double alpha, double beta, double abs_sum, double c0);

/* (ABI 1.5) The bound for 8-bit inputs with C of type c_dtype, where `ref`
 * is the exact result scale_c (alpha_ab sum + beta C0) and alpha_ab is
 * alpha scale_a scale_b: 0 for i32 (exact); for FP8, whose products are
 * exact in f32, f32 accumulation's gamma_{K+4}(2^-24) (the sum, the
 * scaling, beta C, scale_c) times scale_c (|alpha_ab| abs_sum + |beta C0|),
 * plus C's own rounding of the result (half an ulp of f32, f16 or bf16, and
 * f16's smallest subnormal step). */
double gh_test_error_bound_8bit(gh_dtype c_dtype, int64_t k, double alpha_ab, double beta, double scale_c,
                                double abs_sum, double c0, double ref);

#endif
