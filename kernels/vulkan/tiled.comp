#version 450
// tiled: a workgroup of TILE x TILE invocations computes one TILE x TILE block
// of C. For each step of TILE along k it stages a TILE x TILE block of op(A)
// and of op(B) in shared memory, so each element read from global memory is
// used TILE times. Edges are zero-padded on load and guarded on store, so any
// m, n, k works, including k < TILE.

#include "gemm_common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1) in;   // both set to TILE
layout(constant_id = 2) const uint TILE = 16u;

// Rows padded by one element so that the transposed loads below, which write
// a column of the tile, hit different banks.
const uint STRIDE = TILE + 1u;
shared DTYPE As[TILE * STRIDE];   // As[r * STRIDE + kk] = op(A)(row0 + r, k0 + kk)
shared DTYPE Bs[TILE * STRIDE];   // Bs[kk * STRIDE + cc] = op(B)(k0 + kk, col0 + cc)

void main()
{
    uint tx = gl_LocalInvocationID.x;
    uint ty = gl_LocalInvocationID.y;
    uint row0 = gl_WorkGroupID.y * TILE;
    uint col0 = gl_WorkGroupID.x * TILE;

    DTYPE sum = DTYPE(0);
    for (uint k0 = 0u; k0 < p.k; k0 += TILE) {
        // Loads: neighbouring invocations (tx) always read neighbouring
        // addresses of the stored matrix, whichever way it is transposed.
        DTYPE va = DTYPE(0);
        if (p.trans_a == 0u) {          // A is m rows of k: tx walks k
            uint r = row0 + ty, kk = k0 + tx;
            if (r < p.m && kk < p.k)
                va = A_AT(p.a_off + r * p.lda + kk);
            As[ty * STRIDE + tx] = va;
        } else {                        // A is k rows of m: tx walks m
            uint r = row0 + tx, kk = k0 + ty;
            if (r < p.m && kk < p.k)
                va = A_AT(p.a_off + kk * p.lda + r);
            As[tx * STRIDE + ty] = va;
        }
        DTYPE vb = DTYPE(0);
        if (p.trans_b == 0u) {          // B is k rows of n: tx walks n
            uint kk = k0 + ty, cc = col0 + tx;
            if (kk < p.k && cc < p.n)
                vb = B_AT(p.b_off + kk * p.ldb + cc);
            Bs[ty * STRIDE + tx] = vb;
        } else {                        // B is n rows of k: tx walks k
            uint kk = k0 + tx, cc = col0 + ty;
            if (kk < p.k && cc < p.n)
                vb = B_AT(p.b_off + cc * p.ldb + kk);
            Bs[tx * STRIDE + ty] = vb;
        }
        barrier();

        for (uint kk = 0u; kk < TILE; ++kk)
            sum += As[ty * STRIDE + kk] * Bs[kk * STRIDE + tx];
        barrier();   // before the next step overwrites the tiles
    }

    uint row = row0 + ty, col = col0 + tx;
    if (row < p.m && col < p.n)
        store_c(row, col, sum);
}
