// Declarations shared by every GEMM shader: the three matrices and the push
// constants that carry the problem. Compiled once per element type with
// -DDTYPE=float, double or int.
//
// Row-major, as in gemmhost/plugin.h: op(A) is m x k, op(B) is k x n, C is
// m x n, and C = alpha * op(A) * op(B) + beta * C. Offsets are in elements,
// relative to the start of the bound buffer range (the plugin binds each
// matrix's window at an aligned byte offset and passes the rest here), so
// 32-bit indices cover any matrix that fits in one storage-buffer range.

#ifndef DTYPE
#define DTYPE float
#endif

layout(std430, set = 0, binding = 0) readonly buffer MatrixA { DTYPE a[]; };
layout(std430, set = 0, binding = 1) readonly buffer MatrixB { DTYPE b[]; };
layout(std430, set = 0, binding = 2) buffer MatrixC { DTYPE c[]; };

// 48 bytes of uints, then alpha and beta at offset 48 (8-aligned for double).
// plugins/vulkan/gemm.c writes the same layout.
layout(push_constant) uniform Problem {
    uint m, n, k;
    uint lda, ldb, ldc;
    uint a_off, b_off, c_off;
    uint trans_a, trans_b;
    uint unused;
    DTYPE alpha;
    DTYPE beta;
} p;

// beta == 0 must not read C: it may hold NaN poison (and 0 * NaN is NaN).
void store_c(uint row, uint col, DTYPE sum)
{
    uint idx = p.c_off + row * p.ldc + col;
    if (p.beta == DTYPE(0))
        c[idx] = p.alpha * sum;
    else
        c[idx] = p.alpha * sum + p.beta * c[idx];
}
