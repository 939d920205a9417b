/* The f64 products a GEMM reference needs, on the host, cut across threads
 * so that every number is summed in the same order whatever the thread
 * count: the whole product (for the full reference) and matrix-vector
 * products (for Freivalds' check). verify.c builds its checks on them. */
#ifndef GEMMHOST_HOST_GEMM_H
#define GEMMHOST_HOST_GEMM_H

#include <stdint.h>
#include "data.h"
#include "verify.h"

/* Element (r, c) of op(X), where op transposes when `trans`. */
static inline double gh_op_get(const gh_matrix *x, int trans, int64_t r, int64_t c)
{
    return trans ? gh_matrix_get(x, c, r) : gh_matrix_get(x, r, c);
}

/* Parts to cut n items into, each costing about `work` element visits: one
 * below the size where threads pay, never more than n. */
int gh_verify_parts(int requested, int64_t n, double work);

/* sum = op(A) op(B) and abs_sum = |op(A)| |op(B)|, M x N row-major, in f64.
 * Returns 0, or -1 out of memory. */
int gh_host_products(const gh_case_inputs *in, int threads, double *sum, double *abs_sum);

/* Row i of a stored matrix as doubles (cols of them). */
void gh_load_row(const gh_matrix *s, int64_t i, double *row);

/* For each of `count` vectors: y = op(S) x and y_abs = |op(S)| x_abs in f64
 * (op(S) = S, or S^T when `transposed`), vectors stored one after the other;
 * or, for integers, y = op(S) x modulo 2^64. Return 0, or -1 out of memory. */
int gh_host_matvec(const gh_matrix *s, int transposed, int count, const double *x, const double *x_abs, double *y,
                   double *y_abs, int threads);
int gh_host_matvec_mod64(const gh_matrix *s, int transposed, int count, const uint64_t *x, uint64_t *y, int threads);

#endif
