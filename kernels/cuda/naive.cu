/*
 * naive: one thread per element of C, no reuse beyond the caches.
 *
 * threadIdx.x runs along the columns of C, so the 32 threads of a warp share
 * one row: they read the same element of op(A) (a broadcast) and consecutive
 * elements of B and C (coalesced) when B is not transposed.
 */
#include "gemm_common.cuh"

extern "C" __global__ void gemm_naive(int M, int N, int K, int trans_a, int trans_b,
                                      acc_t alpha, const a_t *__restrict__ A, long long lda,
                                      const b_t *__restrict__ B, long long ldb,
                                      acc_t beta, elem_t *__restrict__ C, long long ldc)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N)
        return;

    /* Walk row `row` of op(A) and column `col` of op(B) with a pointer and a
     * stride each, so the transposes cost nothing inside the loop. */
    const a_t *a = trans_a ? A + row : A + (long long)row * lda;
    const long long a_step = trans_a ? lda : 1;
    const b_t *b = trans_b ? B + (long long)col * ldb : B + col;
    const long long b_step = trans_b ? 1 : ldb;

    acc_t acc = 0;
    for (int p = 0; p < K; ++p) {
        acc += to_acc(*a) * to_acc(*b);
        a += a_step;
        b += b_step;
    }
    gemm_store(&C[(long long)row * ldc + col], alpha, acc, beta);
}
