#version 450
#extension GL_EXT_control_flow_attributes : require
// blocked: 2D register blocking. A workgroup of (TILE/WORK)^2 invocations
// computes one TILE x TILE block of C; each invocation keeps a WORK x WORK
// micro-tile of C in registers. Per step of DEPTH along k the workgroup
// stages a TILE x DEPTH tile of op(A) and a DEPTH x TILE tile of op(B) in
// shared memory, and every invocation then does WORK^2 multiply-adds per k
// from WORK elements of each: 2 * WORK shared reads (WORK / 2 as 4-vectors)
// per WORK^2 FMAs, against the tiled shader's 2 reads per FMA.
//
// Global loads: neighbouring invocations read neighbouring addresses of the
// stored matrix whichever way it is transposed; the loads of the next step
// are issued into registers before the current step's products, so their
// latency hides behind the arithmetic. Edges are zero-padded on load and
// guarded on store, so any m, n, k works, including k < DEPTH.
//
// Every sum runs over k in order 0, 1, ..., k-1, as in naive and tiled.

#include "gemm_common.glsl"

#ifndef VEC4
#define VEC4 vec4   // the 4-vector of DTYPE: vec4, dvec4 or ivec4 (CMakeLists.txt)
#endif

// WORK sizes the register arrays, so it is fixed when glslc compiles (one
// module per value, -DWORK=2u, 4u or 8u): with WORK a specialization
// constant, NVIDIA's driver kept those arrays in local memory (docs/kernels.md).
// The rest are set at pipeline creation
// (plugins/vulkan/pipelines.c); the defaults are the plugin's.
#ifndef WORK
#error "build with -DWORK=<2u, 4u or 8u>"
#endif
layout(local_size_x = 256, local_size_x_id = 0) in;    // (TILE / WORK)^2
layout(constant_id = 1) const uint TILE = 128u;        // 32, 64, 128
layout(constant_id = 3) const uint DEPTH = 16u;        // 8 or 16

const uint NT = TILE / WORK;                           // invocations along a side
const uint NTHREADS = NT * NT;
const uint TILE_ELEMS = TILE * DEPTH;                  // of each staged tile
const uint LOADS = (TILE_ELEMS + NTHREADS - 1u) / NTHREADS; // per invocation per tile
// WORK >= 4: an invocation's rows (and columns) come in runs of 4 adjacent
// ones, NT * 4 apart, read from shared memory as 4-vectors; neighbouring
// invocations read neighbouring vectors. WORK = 2: single elements NT apart.
const bool VEC = WORK >= 4u;

// Shared tiles, both k-major so that the inner loop reads along rows and
// columns of C: As[kk][r] = op(A)(row0 + r, k0 + kk) (op(A) transposed),
// Bs[kk][c] = op(B)(k0 + kk, col0 + c). Rows of TILE + 4 elements: a
// multiple of 4 keeps the 4-vectors aligned, and the 4 extra spread the
// stores of a column (A not transposed, B transposed) over the banks.
const uint STRIDE4 = TILE / 4u + 1u;                   // 4-vectors per row
const uint STRIDE = STRIDE4 * 4u;                      // elements per row
shared VEC4 As[DEPTH * STRIDE4];
shared VEC4 Bs[DEPTH * STRIDE4];

// Element e (0 <= e < TILE_ELEMS) of a staged tile as (row or column of C,
// kk), numbered so that consecutive e are consecutive in the stored matrix.
uvec2 a_elem(uint e)
{
    return p.trans_a == 0u ? uvec2(e / DEPTH, e % DEPTH)   // A: m rows of k
                           : uvec2(e % TILE, e / TILE);    // A: k rows of m
}

uvec2 b_elem(uint e)
{
    return p.trans_b == 0u ? uvec2(e % TILE, e / TILE)     // B: k rows of n
                           : uvec2(e / DEPTH, e % DEPTH);  // B: n rows of k
}

// Loads without branches: an element outside the matrix reads a clamped
// one, which is in the matrix (m, n, k >= 1), and is replaced by zero when
// stored to shared memory (`inside` says which); the same for e past the
// tile (only when the invocations do not divide it). The element stays raw
// until then: zeroing or widening it here would wait for the load before
// the step's products.
RAW_T load_a(uint e, uint row0, uint k0, out bool inside)
{
    uvec2 rk = a_elem(e);
    uint r = row0 + rk.x, kk = k0 + rk.y;
    inside = r < p.m && kk < p.k && e < TILE_ELEMS;
    r = min(r, p.m - 1u);
    kk = min(kk, p.k - 1u);
    return A_RAW(p.a_off + (p.trans_a == 0u ? r * p.lda + kk : kk * p.lda + r));
}

RAW_T load_b(uint e, uint col0, uint k0, out bool inside)
{
    uvec2 ck = b_elem(e);
    uint cc = col0 + ck.x, kk = k0 + ck.y;
    inside = cc < p.n && kk < p.k && e < TILE_ELEMS;
    cc = min(cc, p.n - 1u);
    kk = min(kk, p.k - 1u);
    return B_RAW(p.b_off + (p.trans_b == 0u ? kk * p.ldb + cc : cc * p.ldb + kk));
}

void put_a(uint e, DTYPE v)
{
    if (e < TILE_ELEMS) {
        uvec2 rk = a_elem(e);
        uint f = rk.y * STRIDE + rk.x;
        As[f >> 2u][f & 3u] = v;
    }
}

void put_b(uint e, DTYPE v)
{
    if (e < TILE_ELEMS) {
        uvec2 ck = b_elem(e);
        uint f = ck.y * STRIDE + ck.x;
        Bs[f >> 2u][f & 3u] = v;
    }
}

// Row (of the block) of an invocation's micro-row i, at thread index t
// along that side; the same for columns.
uint micro(uint i, uint t)
{
    return VEC ? (i >> 2u) * (NT * 4u) + t * 4u + (i & 3u) : i * NT + t;
}

void main()
{
    uint tid = gl_LocalInvocationIndex;
    uint tx = tid % NT, ty = tid / NT;
    uint row0 = gl_WorkGroupID.y * TILE;
    uint col0 = gl_WorkGroupID.x * TILE;

    DTYPE acc[WORK * WORK];
    [[unroll]] for (uint i = 0u; i < WORK * WORK; ++i)
        acc[i] = DTYPE(0);

    // The next step's tiles, on their way from global memory, raw, with a
    // bit per load: inside the matrix (at most 32 loads: work 8, tile 32).
    RAW_T ra[LOADS], rb[LOADS];
    uint a_in, b_in;
#define LOAD_STEP(k0)                                                   \
    a_in = 0u;                                                          \
    b_in = 0u;                                                          \
    [[unroll]] for (uint l = 0u; l < LOADS; ++l) {                      \
        bool in_a, in_b;                                                \
        ra[l] = load_a(tid + l * NTHREADS, row0, (k0), in_a);           \
        rb[l] = load_b(tid + l * NTHREADS, col0, (k0), in_b);           \
        a_in |= in_a ? 1u << l : 0u;                                    \
        b_in |= in_b ? 1u << l : 0u;                                    \
    }
    LOAD_STEP(0u)

    for (uint k0 = 0u; k0 < p.k; k0 += DEPTH) {
        [[unroll]] for (uint l = 0u; l < LOADS; ++l) {
            put_a(tid + l * NTHREADS, ((a_in >> l) & 1u) != 0u ? FROM_RAW_A(ra[l]) : DTYPE(0));
            put_b(tid + l * NTHREADS, ((b_in >> l) & 1u) != 0u ? FROM_RAW_B(rb[l]) : DTYPE(0));
        }
        barrier();

        uint next = k0 + DEPTH;
        if (next < p.k) {
            LOAD_STEP(next)
        }

        [[unroll]] for (uint kk = 0u; kk < DEPTH; ++kk) {
            DTYPE af[WORK], bf[WORK];
            if (VEC) {
                [[unroll]] for (uint g = 0u; g < WORK / 4u; ++g) {
                    VEC4 va = As[kk * STRIDE4 + g * NT + ty];
                    VEC4 vb = Bs[kk * STRIDE4 + g * NT + tx];
                    [[unroll]] for (uint q = 0u; q < 4u; ++q) {
                        af[g * 4u + q] = va[q];
                        bf[g * 4u + q] = vb[q];
                    }
                }
            } else {
                [[unroll]] for (uint i = 0u; i < WORK; ++i) {
                    uint fa = kk * STRIDE + i * NT + ty;
                    uint fb = kk * STRIDE + i * NT + tx;
                    af[i] = As[fa >> 2u][fa & 3u];
                    bf[i] = Bs[fb >> 2u][fb & 3u];
                }
            }
            [[unroll]] for (uint i = 0u; i < WORK; ++i)
                [[unroll]] for (uint j = 0u; j < WORK; ++j)
                    acc[i * WORK + j] += af[i] * bf[j];
        }
        barrier();   // before the next step overwrites the tiles
    }

    [[unroll]] for (uint i = 0u; i < WORK; ++i) {
        uint row = row0 + micro(i, ty);
        if (row < p.m) {
            [[unroll]] for (uint j = 0u; j < WORK; ++j) {
                uint col = col0 + micro(j, tx);
                if (col < p.n)
                    store_c(row, col, acc[i * WORK + j]);
            }
        }
    }
}
