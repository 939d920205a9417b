/* tiled: each TILE x TILE work-group computes a TILE x TILE block of C. It
 * walks K one tile at a time: every work-item loads one element of a tile of
 * op(A) and one of op(B) into local memory, the group waits (barrier), each
 * work-item adds a TILE-long inner product from local memory to its element
 * of C, and the group waits again before the tiles are overwritten.
 *
 * Unlike the classic walkthrough, any M, N, K works: loads past an edge of
 * op(A) or op(B) put 0 in the tile (adding nothing), and only work-items
 * inside C store. The tiles hold ACC_T: a 16-bit element is converted once,
 * when it is loaded from global memory. Build with -DTILE=<edge>.
 */
#ifndef TILE
#error "build with -DTILE=<tile edge>"
#endif

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_tiled(GEMM_ARGS)
{
    const int tx = (int)get_local_id(0); /* column within the block of C */
    const int ty = (int)get_local_id(1); /* row within the block of C */
    const int col0 = (int)get_group_id(0) * TILE;
    const int row0 = (int)get_group_id(1) * TILE;

    /* a_tile[r][q] = op(A)[row0 + r][p0 + q], b_tile[q][c] = op(B)[p0 + q][col0 + c].
     * One column of padding: a transposed load writes down a column, and
     * without it every write of the column would hit the same bank. */
    __local ACC_T a_tile[TILE][TILE + 1];
    __local ACC_T b_tile[TILE][TILE + 1];

    /* Which element of each tile this work-item loads. Consecutive tx must
     * read consecutive addresses (coalesced): along K for A as stored, along
     * M for A transposed; along N for B as stored, along K for B transposed. */
    const int a_r = trans_a ? tx : ty, a_q = trans_a ? ty : tx;
    const int b_q = trans_b ? tx : ty, b_c = trans_b ? ty : tx;
    const int a_row = row0 + a_r; /* row of op(A) loaded */
    const int b_col = col0 + b_c; /* column of op(B) loaded */

    /* Strides of op(A) and op(B) in memory: along rows (i or p) and along K. */
    const long a_stride_i = trans_a ? 1 : lda, a_stride_p = trans_a ? lda : 1;
    const long b_stride_p = trans_b ? 1 : ldb, b_stride_j = trans_b ? ldb : 1;
    /* Addresses of this work-item's loads for the first tile along K; only
     * dereferenced when inside the matrix. */
    __global const A_T *a = A + a_offset + a_row * a_stride_i + a_q * a_stride_p;
    __global const B_T *b = B + b_offset + b_q * b_stride_p + b_col * b_stride_j;
    const long a_tile_step = TILE * a_stride_p;
    const long b_tile_step = TILE * b_stride_p;

    ACC_T acc = 0;
    for (int p0 = 0; p0 < K; p0 += TILE) {
        a_tile[a_r][a_q] = (a_row < M && p0 + a_q < K) ? LOAD_A_ELEM(a, 0) : (ACC_T)0;
        b_tile[b_q][b_c] = (p0 + b_q < K && b_col < N) ? LOAD_B_ELEM(b, 0) : (ACC_T)0;
        a += a_tile_step;
        b += b_tile_step;
        barrier(CLK_LOCAL_MEM_FENCE); /* the tiles are whole */

        for (int q = 0; q < TILE; q++)
            acc += a_tile[ty][q] * b_tile[q][tx];
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone is done with these tiles */
    }

    const int i = row0 + ty, j = col0 + tx;
    if (i < M && j < N)
        store_c(C + c_offset + (long)i * ldc + j, acc, alpha, beta);
}
