/*
 * tiled: TILE x TILE thread blocks, each computing a TILE x TILE block of C.
 * For every step of TILE along K, the block stages a TILE x TILE tile of
 * op(A) and of op(B) in shared memory, one element per thread, so each
 * element loaded from global memory is used TILE times.
 *
 * Correct for any M, N, K: loads outside the matrices write zeros into the
 * tiles (which add nothing to the sums) and stores outside C are skipped.
 */
#include "gemm_common.cuh"

#ifndef TILE
#error "TILE must be defined: 4, 8, 16 or 32"
#endif

extern "C" __global__ void __launch_bounds__(TILE * TILE)
gemm_tiled(int M, int N, int K, int trans_a, int trans_b,
           acc_t alpha, const a_t *__restrict__ A, long long lda,
           const b_t *__restrict__ B, long long ldb,
           acc_t beta, elem_t *__restrict__ C, long long ldc)
{
    /* as[i][p] = op(A)(row0 + i, k0 + p), bs[p][j] = op(B)(k0 + p, col0 + j).
     * The extra column keeps the transposed stores below (a warp writing down
     * a column of the tile) from landing in one shared-memory bank. The
     * tiles hold acc_t: 16-bit elements are widened once, as they are
     * loaded, not at each of their TILE uses. */
    __shared__ acc_t as[TILE][TILE + 1];
    __shared__ acc_t bs[TILE][TILE + 1];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    const int row = row0 + ty, col = col0 + tx;

    acc_t acc = 0;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        /* Each thread loads one element of each tile. tx always walks the
         * stored matrix's contiguous dimension, so a warp's global loads are
         * consecutive whether or not the matrix is transposed. */
        if (!trans_a) {
            const int i = row0 + ty, p = k0 + tx;
            as[ty][tx] = (i < M && p < K) ? to_acc(A[(long long)i * lda + p]) : (acc_t)0;
        } else {
            const int i = row0 + tx, p = k0 + ty;
            as[tx][ty] = (i < M && p < K) ? to_acc(A[(long long)p * lda + i]) : (acc_t)0;
        }
        if (!trans_b) {
            const int p = k0 + ty, j = col0 + tx;
            bs[ty][tx] = (p < K && j < N) ? to_acc(B[(long long)p * ldb + j]) : (acc_t)0;
        } else {
            const int p = k0 + tx, j = col0 + ty;
            bs[tx][ty] = (p < K && j < N) ? to_acc(B[(long long)j * ldb + p]) : (acc_t)0;
        }
        __syncthreads(); /* the tiles are complete before anyone reads them */

#pragma unroll
        for (int p = 0; p < TILE; ++p)
            acc += as[ty][p] * bs[p][tx];
        __syncthreads(); /* everyone is done reading before the next loads */
    }

    if (row < M && col < N)
        gemm_store(&C[(long long)row * ldc + col], alpha, acc, beta);
}
