/* The arguments of one GEMM call, built in one place so that the suites'
 * cases, probes and refusals do not each spell out gh_gemm_args. */
#ifndef GH_TEST_SUPPORT_GEMM_ARGS_H
#define GH_TEST_SUPPORT_GEMM_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"

/* The problem of a GEMM: dtype, transposes, shape and scalars. */
typedef struct gh_test_problem {
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta;
} gh_test_problem;

/* Where one operand lies on the device: its buffer, leading dimension and
 * offset in elements. */
typedef struct gh_test_operand {
    gh_buffer *buf;
    int64_t ld;
    uint64_t offset;
} gh_test_operand;

/* C = alpha op(A) op(B) + beta C as the problem says, on these operands,
 * with the kernel's parameters. */
gh_gemm_args gh_test_gemm_args(const gh_test_problem *p, gh_test_operand a, gh_test_operand b, gh_test_operand c,
                               const int64_t *params, size_t n_params);

/* (ABI 1.5) A's, B's and C's element types and the per-tensor scales of
 * C = scale_c (alpha scale_a scale_b op(A) op(B) + beta C). */
typedef struct gh_test_types {
    gh_dtype a, b, c;
    double scale_a, scale_b, scale_c;
} gh_test_types;

/* gh_test_gemm_args with explicit_types 1: the problem's dtype is replaced
 * by the types' a, b and c, and the scales are set. */
gh_gemm_args gh_test_typed_gemm_args(const gh_test_problem *p, const gh_test_types *types, gh_test_operand a,
                                     gh_test_operand b, gh_test_operand c, const int64_t *params, size_t n_params);

/* C = A B (alpha 1, beta 0, no transposes) of dtype, m x n x k, tight
 * (lda = k, ldb = ldc = n), no offsets: the probes and refusals' shape. */
gh_gemm_args gh_test_tight_args(gh_dtype dtype, int64_t m, int64_t n, int64_t k, gh_buffer *a, gh_buffer *b,
                                gh_buffer *c, const int64_t *params, size_t n_params);

#endif
