/*
 * Shared by the CUDA GEMM kernels. The plugin compiles each kernel at run time
 * with NVRTC for the device's own architecture, passing its parameters as
 * defines: -DDTYPE=float|double|int (and -DTILE=... for tiled.cu).
 *
 * Matrices are row-major, as in gemmhost/plugin.h: op(A) is M x K, op(B) is
 * K x N, C is M x N, and element (i, j) of a stored matrix X is x[i * ld + j].
 * The host passes A, B and C already advanced by their offsets.
 */
#ifndef DTYPE
#error "DTYPE must be defined: float, double or int"
#endif

typedef DTYPE elem_t;

/* C = alpha * acc + beta * C. With beta == 0, C is not read at all: the host
 * poisons it with NaN to catch unwritten elements, and 0 * NaN is NaN. */
static __device__ __forceinline__ void gemm_store(elem_t *c, elem_t alpha, elem_t acc, elem_t beta)
{
    if (beta == (elem_t)0)
        *c = alpha * acc;
    else
        *c = alpha * acc + beta * *c;
}
