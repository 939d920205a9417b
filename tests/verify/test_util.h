/* Tiny helpers shared by the verify tests: checks through tests/check.h, and a correct GEMM
 * computed independently of core/verify (a plain triple loop in the case's
 * own precision) to produce results that must pass. */
#ifndef GEMMHOST_TEST_UTIL_H
#define GEMMHOST_TEST_UTIL_H

#include <stdio.h>
#include <string.h>
#include "verify.h"
#include "../check.h"

/* The summary line; 0 when nothing failed. */
static inline int tests_finish(const char *name)
{
    return check_summary(name);
}

/* One case with its matrices: A, B, C0 seeded, C the output under test. */
typedef struct test_case {
    gh_matrix a, b, c0, c;
    gh_case_inputs in;
} test_case;

/* Fills A, B and C0 with the values of (seed, streams 0, 1 and 2), i32
 * within `range` (gh_matrix_fill_random), and returns the inputs of
 * C = alpha op(A) op(B) + beta C0 of dtype d, m x n x k, over them. */
static inline gh_case_inputs test_seeded_inputs(gh_dtype d, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                                double alpha, double beta, gh_matrix *a, gh_matrix *b, gh_matrix *c0,
                                                uint64_t seed, int32_t range)
{
    gh_matrix_fill_random(a, seed, 0, range);
    gh_matrix_fill_random(b, seed, 1, range);
    gh_matrix_fill_random(c0, seed, 2, range);
    return (gh_case_inputs){.dtype = d,
                            .trans_a = ta,
                            .trans_b = tb,
                            .m = m,
                            .n = n,
                            .k = k,
                            .alpha = alpha,
                            .beta = beta,
                            .a = a,
                            .b = b,
                            .c0 = c0};
}

/* Allocates and fills a case. ld_pad extra elements per row, `guard` around
 * each matrix. i32 inputs use the range that cannot overflow. */
static inline int test_case_make(test_case *tc, gh_dtype d, int ta, int tb, int64_t m, int64_t n, int64_t k,
                                 double alpha, double beta, int64_t ld_pad, int64_t guard, uint64_t seed)
{
    memset(tc, 0, sizeof *tc);
    int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
    if (gh_matrix_alloc(&tc->a, d, ar, ac, ac + ld_pad, guard) ||
        gh_matrix_alloc(&tc->b, d, br, bc, bc + ld_pad, guard) ||
        gh_matrix_alloc(&tc->c0, d, m, n, n + ld_pad, guard) || gh_matrix_alloc(&tc->c, d, m, n, n + ld_pad, guard))
        return -1;
    tc->in = test_seeded_inputs(d, ta, tb, m, n, k, alpha, beta, &tc->a, &tc->b, &tc->c0, seed,
                                gh_i32_input_range(k, alpha, beta));
    return 0;
}

static inline void test_case_free(test_case *tc)
{
    gh_matrix_free(&tc->a);
    gh_matrix_free(&tc->b);
    gh_matrix_free(&tc->c0);
    gh_matrix_free(&tc->c);
}

/* Element (r, c) of op(X) by plain indexing into the storage. */
#define OP_INDEX(x, trans, r, c) ((trans) ? (size_t)((c) * (x)->ld + (r)) : (size_t)((r) * (x)->ld + (c)))

/* Element `at` = (i, j) of C in the storage type T (f32, f64, i32): the
 * products summed in T in K's order (reversed with reverse_k), then alpha
 * times that plus beta C0, in T. */
#define COMPUTE_ELEMENT_IN(T)                                                                       \
    do {                                                                                            \
        const T *a = gh_matrix_data(&tc->a), *b = gh_matrix_data(&tc->b);                           \
        T *c = gh_matrix_data(&tc->c);                                                              \
        T acc = 0;                                                                                  \
        for (int64_t q = 0; q < in->k; q++) {                                                       \
            int64_t p = reverse_k ? in->k - 1 - q : q;                                              \
            acc += a[OP_INDEX(&tc->a, in->trans_a, i, p)] * b[OP_INDEX(&tc->b, in->trans_b, p, j)]; \
        }                                                                                           \
        c[at] = (T)in->alpha * acc + (in->beta != 0.0 ? (T)in->beta * c[at] : (T)0);                \
    } while (0)

/* C = alpha op(A) op(B) + beta C0 in the case's own precision, as a simple
 * kernel would: C starts as C0 (or poison when beta = 0), then every element
 * is written once. reverse_k sums K backwards, a different rounding order. */
static inline void test_case_compute(test_case *tc, int reverse_k)
{
    const gh_case_inputs *in = &tc->in;
    if (in->beta != 0.0) gh_matrix_copy(&tc->c, &tc->c0);
    else gh_matrix_poison(&tc->c);
    for (int64_t i = 0; i < in->m; i++) {
        for (int64_t j = 0; j < in->n; j++) {
            size_t at = (size_t)(i * tc->c.ld + j);
            if (in->dtype == GH_F32) {
                COMPUTE_ELEMENT_IN(float);
            } else if (in->dtype == GH_F64) {
                COMPUTE_ELEMENT_IN(double);
            } else if (in->dtype == GH_F16 || in->dtype == GH_BF16) {
                /* Stored in 16 bits, summed in f32, rounded once when stored. */
                float acc = 0.0f;
                for (int64_t q = 0; q < in->k; q++) {
                    int64_t p = reverse_k ? in->k - 1 - q : q;
                    float x = (float)(in->trans_a ? gh_matrix_get(&tc->a, p, i) : gh_matrix_get(&tc->a, i, p));
                    float y = (float)(in->trans_b ? gh_matrix_get(&tc->b, j, p) : gh_matrix_get(&tc->b, p, j));
                    acc += x * y;
                }
                float out = (float)in->alpha * acc +
                            (in->beta != 0.0 ? (float)in->beta * (float)gh_matrix_get(&tc->c, i, j) : 0.0f);
                gh_matrix_set(&tc->c, i, j, out);
            } else {
                COMPUTE_ELEMENT_IN(int32_t);
            }
        }
    }
}

static inline gh_verify_options test_options(gh_verify_method method)
{
    gh_verify_options o = {method, 1e6, 3, 256, 2, 42};
    return o;
}

/* Builds the reference, checks tc->c, frees the reference. */
static inline void test_case_verify(test_case *tc, const gh_verify_options *opt, gh_verify_result *res)
{
    gh_reference *ref = gh_reference_build(&tc->in, opt);
    gh_verify(ref, &tc->c, res);
    gh_reference_free(ref);
}

#endif
