#version 450
#extension GL_EXT_control_flow_attributes : require
// warptile: a three-level hierarchy. A workgroup computes a TILE_M x TILE_N
// block of C; its subgroups (warps of 32 on NVIDIA) each own a WM x WN part
// of it, their 32 invocations laid out LM x LN; each invocation keeps a
// WORK_M x WORK_N micro-tile in registers, as blocks of 4 x 4 spread over the
// warp's part so that, per k, a warp reads 4 distinct 4-vectors of A and 8
// of B from shared memory (one transaction each, the rest broadcast).
// TILE_M and WORK_M are TILE_N and WORK_N times the parameter aspect (1 or 2,
// plugins/vulkan/kernels.c): the same invocations, twice the rows.
//
// Per step of DEPTH along k, op(A)'s TILE_M x DEPTH and op(B)'s DEPTH x TILE_N
// tiles are staged k-major in shared memory, double-buffered: the next
// step's global loads go to registers before this step's products and to
// the other buffer after them, so one barrier per step suffices.
//
// Global loads are 4-vectors (2 for f64) through a second binding of A and B
// (vector aliases of the same buffers) when the plugin says the layout
// allows it (LAYOUT's bits, plugins/vulkan/gemm.c: ld, offset and the
// contiguous dimension multiples of the vector, the window aligned);
// element by element otherwise. Edges read a clamped element, replaced by
// zero, and stores are guarded: any m, n, k.
//
// Every sum runs over k in order 0, 1, ..., k-1, as in the other kernels.
// f16 and bf16 are widened on load, staged and summed in f32, rounded once
// at the store (gemm_common.glsl).

#include "gemm_common.glsl"

// Every size is fixed when glslc compiles, one module per combination
// (plugins/vulkan/CMakeLists.txt): register arrays sized by specialization
// constants were kept in local memory by NVIDIA's driver (15x slower).
#if !defined(TILE_M) || !defined(TILE_N) || !defined(DEPTH) || !defined(WORK_M) || !defined(WORK_N)
#error "build with -DTILE_M -DTILE_N=<64u|128u> -DDEPTH=<8u|16u|32u> -DWORK_M -DWORK_N=<4u|8u>"
#endif
#ifndef VEC4
#define VEC4 vec4   // the 4-vector of DTYPE in shared memory: vec4 or dvec4
#endif

#define NTHREADS ((TILE_M / WORK_M) * (TILE_N / WORK_N))
layout(local_size_x = NTHREADS) in;

const uint LM = 4u, LN = 8u;              // a warp's invocations, LM x LN
const uint WM = LM * WORK_M, WN = LN * WORK_N; // a warp's part of the block
const uint WARPS_N = TILE_N / WN;

// The vector of a global load: VW elements, read through the aliases below.
// f64 builds with -DVLOAD=dvec2 -DVW=2u (16 bytes, as a vec4).
#ifndef VLOAD
#if defined(STORAGE_F16) || defined(STORAGE_BF16)
#define VW 4u
#define VLOAD uvec2                        // four 16-bit elements, low half first
#else
#define VW 4u
#define VLOAD vec4
#endif
#endif
layout(std430, set = 0, binding = 3) readonly buffer MatrixAV { VLOAD av[]; };
layout(std430, set = 0, binding = 4) readonly buffer MatrixBV { VLOAD bv[]; };

#define CEIL_DIV(a, b) (((a) + (b) - 1u) / (b))
// Loads per invocation per tile of A and of B: at most 32, a bit each in a
// uint (plugins/vulkan/kernels.c refuses more: WARPTILE_MAX_LOADS).
const uint LSA = CEIL_DIV(TILE_M * DEPTH, NTHREADS), LSB = CEIL_DIV(TILE_N * DEPTH, NTHREADS); // scalar
const uint LVA = CEIL_DIV(TILE_M * DEPTH / VW, NTHREADS), LVB = CEIL_DIV(TILE_N * DEPTH / VW, NTHREADS); // vector

// Staged tiles, k-major: element (kk, x) is op(A)(row0 + x, k0 + kk) or
// op(B)(k0 + kk, col0 + x). No padding (128 x 16 x 2 x 2 tiles of f32 fill
// 32 KiB exactly, all lavapipe has): instead the 4-vectors of row kk are
// permuted by XOR with swz(kk), so that the transposing stores (A not
// transposed, B transposed: lanes of a warp along kk, DEPTH / 4 per x) hit
// distinct banks; the reads, 4-vectors along x at one kk, stay distinct.
shared VEC4 As[2u * TILE_M * DEPTH / 4u];
shared VEC4 Bs[2u * TILE_N * DEPTH / 4u];

// The bound of the k loop inside a step: DEPTH, as a specialization constant
// the plugin leaves at its default, so that the loop reaches the driver
// rolled, marked for unrolling, which it does once the value is known.
// Unrolled by glslc, the modules are twice the size: built so as well
// (-DUNROLLED, the parameter unroll = 1), to measure which is faster.
#ifdef UNROLLED
const uint K_STEPS = DEPTH;
#else
layout(constant_id = 3) const uint K_STEPS = DEPTH;
#endif

// The operands' layout, fixed when the pipeline is made (a pipeline per
// layout, plugins/vulkan/compile.c): bit 0 trans_a, bit 1 trans_b, bit 2 A
// read as vectors, bit 3 B. Read from the push constants instead, every
// index and branch that depends on it stayed in the k loop (docs/kernels.md).
layout(constant_id = 4) const uint LAYOUT = 0u;
const bool TRANS_A = (LAYOUT & 1u) != 0u;
const bool TRANS_B = (LAYOUT & 2u) != 0u;

const uint KL = DEPTH / 4u;               // lanes along kk in a vector load
uint swz(uint kk)
{
    return ((kk >> 2u) & (KL - 1u)) * (8u / KL);
}

// Index of the 4-vector holding element (kk, x) of buffer `buf` of a tile
// whose rows are tile4 4-vectors long. Written as
// one row index times the row length, and the fragment reads below taken
// for A then for B: NVIDIA's driver then gives the default fewer registers
// (141 instead of 151) and it runs faster (docs/kernels.md).
uint vec_at(uint buf, uint kk, uint x, uint tile4)
{
    return (buf * DEPTH + kk) * tile4 + ((x >> 2u) ^ swz(kk));
}

// Unpacks a VLOAD into VW elements of the arithmetic type.
#if defined(STORAGE_F16) || defined(STORAGE_BF16)
#define UNPACK(v, q) from_bits(((q) < 2u ? (v).x : (v).y) >> (((q) & 1u) * 16u) & 0xFFFFu)
#else
#define UNPACK(v, q) (v)[q]
#endif

// Staged loads: raw vectors (rva, rvb) or raw elements (ra, rb: RAW_T,
// gemm_common.glsl), and a bit per load that says whether it lies inside
// the matrix. Nothing consumes a loaded value before the store after the
// step's products, not even the zeroing of an edge or the widening of
// f16/bf16: an instruction that did would wait there for the load, before
// the products (docs/kernels.md).
VLOAD rva[LVA], rvb[LVB];
RAW_T ra[LSA], rb[LSB];
uint a_in, b_in;

// The loads of one tile into registers, and their stores to shared memory.
// K_MAJOR: the stored matrix runs along k (A not transposed, B transposed):
// row x of the tile is x of the stored matrix, DEPTH elements along it.
// Otherwise the stored matrix runs along x: row kk is k0 + kk, SIDE long.
// Element e of the tile (or vector e) is numbered along the stored rows, so
// neighbouring invocations read neighbouring addresses.
//   NAME: load_a/load_b; REG, RV: ra/rb, rva/rvb; IN: a_in/b_in; S: As/Bs;
//   AT, VAT: raw scalar (A_RAW, B_RAW) and vector reads;
//   X, LD, OFF: the tile's side in C (m or n), ld and offset; BIT: its vector bit in LAYOUT >> 2;
//   SIDE: the tile's side along x (TILE_M, TILE_N); LV, LS: its loads per invocation.
#define DEFINE_TILE_IO(LOAD, STORE, REG, RV, IN, S, AT, VAT, X, LD, OFF, TRANS_K_MAJOR, BIT, SIDE, LV, LS)            \
    void LOAD(uint x0, uint k0)                                                                                       \
    {                                                                                                                 \
        bool kmajor = TRANS_K_MAJOR;                                                                                  \
        IN = 0u;                                                                                                      \
        if (((LAYOUT >> 2u) & BIT) != 0u) {                                                                           \
            [[unroll]] for (uint l = 0u; l < LV; ++l) {                                                               \
                uint e = gl_LocalInvocationIndex + l * NTHREADS;                                                      \
                uint xx = kmajor ? e / (DEPTH / VW) : (e % (SIDE / VW)) * VW;                                         \
                uint kk = kmajor ? (e % (DEPTH / VW)) * VW : e / (SIDE / VW);                                         \
                uint x = x0 + xx, k = k0 + kk;                                                                        \
                IN |= x < X && k < p.k && e < (SIDE * DEPTH / VW) ? 1u << l : 0u;                                     \
                x = kmajor ? min(x, X - 1u) : min(x, X - VW);                                                         \
                k = kmajor ? min(k, p.k - VW) : min(k, p.k - 1u);                                                     \
                RV[l] = VAT[(OFF + (kmajor ? x * LD + k : k * LD + x)) / VW];                                         \
            }                                                                                                         \
        } else {                                                                                                      \
            [[unroll]] for (uint l = 0u; l < LS; ++l) {                                                               \
                uint e = gl_LocalInvocationIndex + l * NTHREADS;                                                      \
                uint xx = kmajor ? e / DEPTH : e % SIDE;                                                              \
                uint kk = kmajor ? e % DEPTH : e / SIDE;                                                              \
                uint x = x0 + xx, k = k0 + kk;                                                                        \
                IN |= x < X && k < p.k && e < SIDE * DEPTH ? 1u << l : 0u;                                            \
                x = min(x, X - 1u);                                                                                   \
                k = min(k, p.k - 1u);                                                                                 \
                REG[l] = AT(OFF + (kmajor ? x * LD + k : k * LD + x));                                                \
            }                                                                                                         \
        }                                                                                                             \
    }                                                                                                                 \
    /* No branch around the inner loop, which glslc would leave rolled. */                                            \
    void STORE(uint buf)                                                                                              \
    {                                                                                                                 \
        bool kmajor = TRANS_K_MAJOR;                                                                                  \
        if (((LAYOUT >> 2u) & BIT) != 0u) {                                                                           \
            [[unroll]] for (uint l = 0u; l < LV; ++l) {                                                               \
                uint e = gl_LocalInvocationIndex + l * NTHREADS;                                                      \
                uint xx = kmajor ? e / (DEPTH / VW) : (e % (SIDE / VW)) * VW;                                         \
                uint kk = kmajor ? (e % (DEPTH / VW)) * VW : e / (SIDE / VW);                                         \
                bool ok = e < (SIDE * DEPTH / VW), inside = ((IN >> l) & 1u) != 0u;                                   \
                DTYPE r[VW];                                                                                          \
                [[unroll]] for (uint q = 0u; q < VW; ++q)                                                             \
                    r[q] = inside ? UNPACK(RV[l], q) : DTYPE(0);                                                      \
                /* kk is a multiple of VW (2 or 4): kk + q has kk's swizzle. */                                       \
                uint at = vec_at(buf, kk, xx, SIDE / 4u);                                                             \
                if (ok && !kmajor && VW == 4u)                                                                        \
                    S[at] = VEC4(r[0], r[1 % VW], r[2 % VW], r[3 % VW]);                                              \
                [[unroll]] for (uint q = 0u; q < VW; ++q) {                                                           \
                    if (ok && kmajor)                                                                                 \
                        S[at + q * (SIDE / 4u)][xx & 3u] = r[q];                                                      \
                    else if (ok && VW != 4u)                                                                          \
                        S[vec_at(buf, kk, xx + q, SIDE / 4u)][(xx + q) & 3u] = r[q];                                  \
                }                                                                                                     \
            }                                                                                                         \
        } else {                                                                                                      \
            [[unroll]] for (uint l = 0u; l < LS; ++l) {                                                               \
                uint e = gl_LocalInvocationIndex + l * NTHREADS;                                                      \
                uint xx = kmajor ? e / DEPTH : e % SIDE;                                                              \
                uint kk = kmajor ? e % DEPTH : e / SIDE;                                                              \
                if (e < SIDE * DEPTH)                                                                                 \
                    S[vec_at(buf, kk, xx, SIDE / 4u)][xx & 3u] = ((IN >> l) & 1u) != 0u ? FROM_RAW(REG[l]) : DTYPE(0); \
            }                                                                                                         \
        }                                                                                                             \
    }

DEFINE_TILE_IO(load_a, store_a, ra, rva, a_in, As, A_RAW, av, p.m, p.lda, p.a_off, !TRANS_A, 1u, TILE_M, LVA, LSA)
DEFINE_TILE_IO(load_b, store_b, rb, rvb, b_in, Bs, B_RAW, bv, p.n, p.ldb, p.b_off, TRANS_B, 2u, TILE_N, LVB, LSB)

void main()
{
    uvec2 origin = block_origin(TILE_M, TILE_N);
    uint row0 = origin.x, col0 = origin.y;

    uint tid = gl_LocalInvocationIndex;
    uint warp = tid / 32u, lane = tid % 32u;
    // First row and column (of the block) of this invocation's first 4 x 4.
    uint wr = (warp / WARPS_N) * WM + (lane / LN) * 4u;
    uint wc = (warp % WARPS_N) * WN + (lane % LN) * 4u;

    DTYPE acc[WORK_M * WORK_N];
    [[unroll]] for (uint i = 0u; i < WORK_M * WORK_N; ++i)
        acc[i] = DTYPE(0);

    // Step s loads tile s, multiplies tile s - 1 (staged in the other buffer
    // one step ago) and stages tile s; each function has one call site,
    // which keeps the module small.
    uint steps = CEIL_DIV(p.k, DEPTH);
    for (uint s = 0u; s <= steps; ++s) {
        bool next = s < steps;
        if (next) {
            load_a(row0, s * DEPTH);
            load_b(col0, s * DEPTH);
        }
        if (s > 0u) {
            uint buf = (s - 1u) & 1u;
            [[unroll]] for (uint kk = 0u; kk < K_STEPS; ++kk) {
                DTYPE af[WORK_M], bf[WORK_N];
                [[unroll]] for (uint g = 0u; g < WORK_M / 4u; ++g) {
                    VEC4 va = As[vec_at(buf, kk, wr + g * LM * 4u, TILE_M / 4u)];
                    [[unroll]] for (uint q = 0u; q < 4u; ++q)
                        af[g * 4u + q] = va[q];
                }
                [[unroll]] for (uint g = 0u; g < WORK_N / 4u; ++g) {
                    VEC4 vb = Bs[vec_at(buf, kk, wc + g * LN * 4u, TILE_N / 4u)];
                    [[unroll]] for (uint q = 0u; q < 4u; ++q)
                        bf[g * 4u + q] = vb[q];
                }
                [[unroll]] for (uint i = 0u; i < WORK_M; ++i)
                    [[unroll]] for (uint j = 0u; j < WORK_N; ++j)
                        acc[i * WORK_N + j] = fma(af[i], bf[j], acc[i * WORK_N + j]);
            }
        }
        if (next) {   // the buffer step s - 1 finished reading before the last barrier
            store_a(s & 1u);
            store_b(s & 1u);
        }
        barrier();
    }

    // Rolled in the module (glslc leaves a loop holding a branch around a
    // loop rolled), marked for unrolling, which NVIDIA's driver does, as in
    // blocked: unrolled here, the f16 modules were 3x larger (to_bits
    // inlined WORK_M * WORK_N times).
    [[unroll]] for (uint i = 0u; i < WORK_M; ++i) {
        uint row = row0 + wr + (i / 4u) * LM * 4u + i % 4u;
        if (row < p.m) {
            [[unroll]] for (uint j = 0u; j < WORK_N; ++j) {
                uint col = col0 + wc + (j / 4u) * LN * 4u + j % 4u;
                if (col < p.n)
                    store_c(row, col, acc[i * WORK_N + j]);
            }
        }
    }
}
