/* Shared by every GEMM kernel of the OpenCL plugin; the plugin compiles it in
 * front of each kernel file, with
 *   -DDTYPE=float|double|int   the element type, also the accumulator's
 *   -DGH_FP64=1                when DTYPE is double
 * and a kernel's own parameters (e.g. -DTILE=16).
 *
 * Matrices are row-major. op(A) is M x K, op(B) is K x N, C is M x N:
 *   C = alpha * op(A) * op(B) + beta * C
 * A not transposed is M rows of K (row i at A[i * lda]); transposed, it is K
 * rows of M and op(A)[i][p] = A[p * lda + i]. Likewise B. Offsets are in
 * elements from the start of each buffer.
 */
#ifdef GH_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef DTYPE
#error "build with -DDTYPE=<element type>"
#endif

/* The arguments of every kernel, in the order the plugin sets them (gemm.c). */
#define GEMM_ARGS                                                                         \
    const int M, const int N, const int K, const DTYPE alpha, const DTYPE beta,           \
    __global const DTYPE *restrict A, const ulong a_offset, const int lda, const int trans_a, \
    __global const DTYPE *restrict B, const ulong b_offset, const int ldb, const int trans_b, \
    __global DTYPE *restrict C, const ulong c_offset, const int ldc

/* c = alpha * acc + beta * c. With beta == 0, C is not read: the host fills
 * C with NaN to catch elements a kernel never writes, and 0 * NaN is NaN. */
void store_c(__global DTYPE *c, const DTYPE acc, const DTYPE alpha, const DTYPE beta)
{
    if (beta != (DTYPE)0)
        *c = alpha * acc + beta * *c;
    else
        *c = alpha * acc;
}
