/* naive: one work-item per element of C, the inner product over K in a loop.
 *
 * Work-item (j, i) = (get_global_id(0), get_global_id(1)) computes C[i][j].
 * Dimension 0 walks columns, so neighbouring work-items read neighbouring
 * elements of B (when B is not transposed) and write neighbouring elements of
 * C, while all of them read the same element of A. The grid is rounded up to
 * whole work-groups; work-items past the edge of C have nothing to do.
 *
 * Build with -DWG=<edge>: the work-group is WG x WG, and declaring it lets
 * the compiler budget registers for that many work-items (without it, the
 * NVIDIA driver reported CL_KERNEL_WORK_GROUP_SIZE 256 on an H100, too few
 * for 32 x 32).
 */
#ifndef WG
#error "build with -DWG=<work-group edge>"
#endif

__kernel __attribute__((reqd_work_group_size(WG, WG, 1)))
void gemm_naive(GEMM_ARGS)
{
    const int j = (int)get_global_id(0);
    const int i = (int)get_global_id(1);
    if (i >= M || j >= N) return;

    /* Row i of op(A) and column j of op(B): where each starts, and the
     * distance between consecutive elements along K. */
    __global const A_T *a = A + a_offset + (trans_a ? (long)i : (long)i * lda);
    __global const B_T *b = B + b_offset + (trans_b ? (long)j * ldb : (long)j);
    const long a_step = trans_a ? lda : 1;
    const long b_step = trans_b ? 1 : ldb;

    ACC_T acc = 0;
    for (int p = 0; p < K; p++, a += a_step, b += b_step)
        acc += LOAD_A_ELEM(a, 0) * LOAD_B_ELEM(b, 0);

    store_c(C + c_offset + (long)i * ldc + j, acc, alpha, beta);
}
