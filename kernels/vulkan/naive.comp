#version 450
// naive: one invocation per element of C, a plain dot product over k.
// Invocation x runs along the columns of C, so neighbouring invocations read
// neighbouring elements of B (or, transposed, neighbouring rows) and write
// neighbouring elements of C.

#include "gemm_common.glsl"

// wg x wg invocations per workgroup, set at pipeline creation.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

void main()
{
    uint col = gl_GlobalInvocationID.x;
    uint row = gl_GlobalInvocationID.y;
    if (row >= p.m || col >= p.n)
        return;

    // Walk op(A) along row `row` and op(B) down column `col` with strides
    // that fold the transposes in.
    uint ai = p.a_off + (p.trans_a != 0u ? row : row * p.lda);
    uint a_step = p.trans_a != 0u ? p.lda : 1u;
    uint bi = p.b_off + (p.trans_b != 0u ? col * p.ldb : col);
    uint b_step = p.trans_b != 0u ? 1u : p.ldb;

    DTYPE sum = DTYPE(0);
    for (uint kk = 0u; kk < p.k; ++kk) {
        sum += A_AT(ai) * B_AT(bi);
        ai += a_step;
        bi += b_step;
    }
    store_c(row, col, sum);
}
