#version 450
#extension GL_EXT_control_flow_attributes : require
#ifndef EMULATE
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#ifdef INPUT_I8
#extension GL_NV_integer_cooperative_matrix : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#endif
#endif
#ifndef INPUT_I8
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#endif
#extension GL_KHR_shader_subgroup_basic : require
// coopmat: C = alpha * op(A) * op(B) + beta * C on the matrix units, through
// cooperative matrices of one subgroup (f16 x f16 or bf16 x bf16, summed in
// f32; or with -DINPUT_I8 -DDTYPE=int, i8 x i8 summed exactly in i32).
//
// A workgroup of SG_M x SG_N subgroups computes a BM x BN block of C; each
// subgroup a WM x WN part of it, as TM x TN accumulators of MM x NN (the
// device's shape MM x NN x KK). Per step of BK along k, op(A)'s BM x BK and
// op(B)'s BK x BN tiles are copied into shared memory as they are stored
// (k-contiguous, or m- or n-contiguous where transposed: no transposition
// while copying), the 16-bit values as bits (no rounding), zero outside the
// matrices: so any m, n, k, ld and offset works, and the zeros add nothing.
// The subgroups then load MM x KK and KK x NN pieces, column-major where the
// tile is stored transposed, and multiply-add them.
//
// The copy moves 16 bytes (8 elements, a uvec4) at a time: from global
// memory through a second binding of A and B (vector aliases of the same
// buffers) where the plugin says the layout allows it (p.unused's bits,
// plugins/vulkan/gemm.c: ld and offset multiples of 8 elements, the window
// 16-byte aligned) and the tile lies wholly inside the matrix; element by
// element, zero-filled, at the edges. Shared memory is an array of uvec4,
// which the cooperative matrices load from directly (strides in uvec4).
//
// With STAGES = 2 (specialization constant 2) the tiles are double-buffered:
// the next step's global loads go to registers before this step's
// multiply-adds and to the other buffer after them, one barrier per step.
// STAGES = 1: the same register prefetch, one buffer, two barriers a step.
//
// At the end each accumulator goes through a small scratch per subgroup (in
// the staging memory, free by then), where its invocations read it element
// by element for the epilogue: alpha * acc + beta * C in f32 and one
// rounding to the stored type (gemm_common.glsl's store_c), only inside C.
//
// Written against GL_NV_cooperative_matrix, which Debian 12's glslc
// compiles; plugins/vulkan/coopmat_khr.py rewrites the SPIR-V to
// SPV_KHR_cooperative_matrix (and the bf16 modules' float16_t to bfloat16,
// SPV_KHR_bfloat16), so one source serves both extensions. For that rewrite:
// - A and B have types of their own (their sizes are distinct specialization
//   constants, ids 10-15, never set by the plugin): a KHR type carries its use
//   (A, B or accumulator), read from the multiply-add each type meets;
// - float16_t appears only as the cooperative matrices' component type,
//   never computed with: bfloat16 allows no arithmetic.
//
// i8 (-DINPUT_I8, with DTYPE=int; KK = 32, the s8 shapes): the same code on
// bytes. A 16-byte piece is 16 elements (EPP: the vector copies want ld and
// offset multiples of 16 elements); shared memory is an array of
// uvec2, 8 elements a unit as for the 16-bit types, so that a piece of B 8
// columns wide (16x8x32) starts on a unit; rows are padded by 16 bytes as
// above. The accumulators are int32 cooperative matrices, the sums exact
// (wrapping past 2^31, as the classic kernels' i8), and the epilogue
// alpha * acc + beta * C in int (gemm_common.glsl's i8 path). coopmat_khr.py
// marks the KHR multiply-adds' A, B, C and result as signed.
//
// -DEMULATE builds it with the cooperative matrices emulated in plain code
// (the plugin's option emulate = cooperative_matrix): everything else is the
// same code, so the tiling, copies, edges and epilogue run and are checked
// on any device, lavapipe included.

#include "gemm_common.glsl"

// BK (the k step) is a define, so that glslc unrolls every loop over
// cooperative matrices and the accumulators are indexed by constants only:
// as a specialization constant the driver ran it several times slower (docs/kernels.md).

#if !defined(BM) || !defined(BN) || !defined(SG_M) || !defined(SG_N) || !defined(MM) || !defined(NN) || !defined(KK) \
    || !defined(BK)
#error "build with -DBM= -DBN= -DSG_M= -DSG_N= (the workgroup), -DMM= -DNN= -DKK= (the matrix shape) and -DBK= (the k step), all u"
#endif

// SG_M * SG_N subgroups of the device's subgroup size, set by the plugin.
layout(local_size_x_id = 0) in;
// BK, the k step (a define): a multiple of KK and at most BM and BN.
// Buffers of the staged tiles: 1 or 2.
layout(constant_id = 2) const uint STAGES = 2u;

const uint SUBGROUPS = SG_M * SG_N;
const uint WM = BM / SG_M, WN = BN / SG_N;   // a subgroup's part of the block
const uint TM = WM / MM, TN = WN / NN;       // its accumulators

// The vector aliases of A and B: 16-byte pieces (8 16-bit elements, 16 i8).
layout(std430, set = 0, binding = 3) readonly buffer MatrixAV { uvec4 av[]; };
layout(std430, set = 0, binding = 4) readonly buffer MatrixBV { uvec4 bv[]; };

// An element's bits (ELEM_BITS), elements per 32-bit word and per 16-byte
// piece (EPP); the unit of shared memory (8 elements either way) and the
// sums (f32 or i32) a unit holds; an element of A or B as its stored bits.
#ifdef INPUT_I8
const uint ELEM_BITS = 8u;
#define SHARED_UNIT  uvec2
#define STORED_BITS(x) (uint(int(x)) & 0xFFu)
#else
const uint ELEM_BITS = 16u;
#define SHARED_UNIT  uvec4
#define STORED_BITS(x) uint(x)
#endif
const uint PER_WORD = 32u / ELEM_BITS;
const uint EPP = 4u * PER_WORD;
const uint SUMS_PER_UNIT = 8u * ELEM_BITS / 32u;

// Staged rows padded by 16 bytes (PAD elements): the cooperative loads want
// rows 16-byte aligned, and an odd number of 16-byte units per row spreads
// the rows of one load over the banks. A tile is R rows of C elements as
// stored: A R = BM, C = BK (not transposed) or R = BK, C = BM; B R = BK,
// C = BN (not transposed) or R = BN, C = BK. Either way at most
// BM * (BK + PAD) elements for A (BK <= BM), BN * (BK + PAD) for B.
const uint PAD = EPP;
const uint A_UNITS = BM * (BK + PAD) / 8u;   // units of one buffer's A tile
const uint B_UNITS = BN * (BK + PAD) / 8u;
const uint STAGE_UNITS = A_UNITS + B_UNITS;
// The epilogue's scratch: an MM x NN f32 (i32) accumulator per subgroup.
const uint SCRATCH_UNITS = SUBGROUPS * MM * NN / SUMS_PER_UNIT;
const uint STAGED_UNITS = STAGES * STAGE_UNITS;
shared SHARED_UNIT S[STAGED_UNITS > SCRATCH_UNITS ? STAGED_UNITS : SCRATCH_UNITS];
// Where stage st's tiles start, in elements of S.
#define A_BASE(st)          ((st) * STAGE_UNITS * 8u)
#define B_BASE(st)          ((st) * STAGE_UNITS * 8u + A_UNITS * 8u)
// A 16-byte piece into S at piece u; the sum at scratch element e.
#ifdef INPUT_I8
#define PUT_A(u, v)         { S[2u * (u)] = (v).xy; S[2u * (u) + 1u] = (v).zw; }
#define SCRATCH_AT(e)       int(S[(e) >> 1][(e) & 1u])
#else
#define PUT_A(u, v)         S[u] = (v)
#define SCRATCH_AT(e)       uintBitsToFloat(S[(e) >> 2][(e) & 3u])
#endif
#define PUT_B(u, v)         PUT_A(u, v)

// Per invocation per tile, the 16-byte pieces held in registers between the
// global load and the shared store: sized at compile time (register arrays
// sized by specialization constants were kept in local memory by NVIDIA's
// driver) for 32 invocations a subgroup; a launch needing more (smaller
// subgroups) copies in several passes, only the first one prefetched.
const uint NT = SUBGROUPS * 32u;
const uint LA_MAX = (BM * BK / EPP + NT - 1u) / NT;
const uint LB_MAX = (BN * BK / EPP + NT - 1u) / NT;
uvec4 ra[LA_MAX], rb[LB_MAX];

#ifndef EMULATE
layout(constant_id = 10) const uint A_ROWS = MM;
layout(constant_id = 11) const uint A_COLS = KK;
layout(constant_id = 12) const uint B_ROWS = KK;
layout(constant_id = 13) const uint B_COLS = NN;
layout(constant_id = 14) const uint C_ROWS = MM;
layout(constant_id = 15) const uint C_COLS = NN;
#ifdef INPUT_I8
#define MAT_A icoopmatNV<8, gl_ScopeSubgroup, A_ROWS, A_COLS>
#define MAT_B icoopmatNV<8, gl_ScopeSubgroup, B_ROWS, B_COLS>
#define MAT_C icoopmatNV<32, gl_ScopeSubgroup, C_ROWS, C_COLS>
#else
#define MAT_A fcoopmatNV<16, gl_ScopeSubgroup, A_ROWS, A_COLS>
#define MAT_B fcoopmatNV<16, gl_ScopeSubgroup, B_ROWS, B_COLS>
#define MAT_C fcoopmatNV<32, gl_ScopeSubgroup, C_ROWS, C_COLS>
#endif
// A piece at element `at` of S (a multiple of 8), rows (or columns where
// col_major) `ld` elements apart; acc = a * b + acc; acc into S at sum
// element `at`, row-major, NN apart.
#define ZERO_C(acc)                    acc = MAT_C(DTYPE(0))
#define LOAD_A(m, at, ld, col_major)   coopMatLoadNV(m, S, (at) / 8u, (ld) / 8u, col_major)
#define LOAD_B(m, at, ld, col_major)   LOAD_A(m, at, ld, col_major)
#define STORE_C(acc, at)               coopMatStoreNV(acc, S, (at) / SUMS_PER_UNIT, NN / SUMS_PER_UNIT, false)
#define MUL_ADD(a, b, acc)             acc = coopMatMulAddNV(a, b, acc)
#else
// The emulation: a piece of A or B is where it lies in shared memory
// (element, ld, column-major); an accumulator is spread over the subgroup
// as a real one would be, element e (row e / NN, column e % NN) at
// invocation e % gl_SubgroupSize, for subgroups of 4 invocations or more.
const uint EMU_PER = (MM * NN + 3u) / 4u;
struct EmuC {
    DTYPE v[EMU_PER];
};
#define MAT_A uvec4
#define MAT_B uvec4
#define MAT_C EmuC
// Element (row, col) of a piece (w: 0 in A's tile, 1 in B's), in DTYPE;
// its product with another added to a sum (a fused f32 multiply-add, or exact).
DTYPE emu_at(uvec4 m, uint row, uint col)
{
    uint i = m.z != 0u ? m.x + col * m.y + row : m.x + row * m.y + col;
    uint word = S[i >> 3][(i & 7u) / PER_WORD];
#ifdef INPUT_I8
    return bitfieldExtract(int(word), int((i % PER_WORD) * ELEM_BITS), int(ELEM_BITS));
#else
    return from_bits((word >> ((i % PER_WORD) * ELEM_BITS)) & 0xFFFFu);
#endif
}
#ifdef INPUT_I8
#define EMU_FMA(x, y, sum)             ((x) * (y) + (sum))
#define EMU_SCRATCH_PUT(e, x)          S[(e) >> 1][(e) & 1u] = uint(x)
#else
#define EMU_FMA(x, y, sum)             fma(x, y, sum)
#define EMU_SCRATCH_PUT(e, x)          S[(e) >> 2][(e) & 3u] = floatBitsToUint(x)
#endif
// In place, as macros (their variables named so as not to capture the
// arguments'), not functions taking and returning an EmuC; rolled, or
// lavapipe's compiler needs tens of GiB for the largest blocks.
#define MUL_ADD(a, b, acc)                                                                       \
    [[dont_unroll]] for (uint emu_j = 0u; emu_j < EMU_PER; ++emu_j) {                            \
        uint emu_e = gl_SubgroupInvocationID + emu_j * gl_SubgroupSize;                          \
        if (emu_e < MM * NN)                                                                     \
            [[dont_unroll]] for (uint emu_k = 0u; emu_k < KK; ++emu_k)                           \
                acc.v[emu_j] = EMU_FMA(emu_at(a, emu_e / NN, emu_k), emu_at(b, emu_k, emu_e % NN),  \
                                       acc.v[emu_j]);                                            \
    }
#define STORE_C(acc, at)                                                                         \
    for (uint emu_j = 0u; emu_j < EMU_PER; ++emu_j) {                                            \
        uint emu_e = gl_SubgroupInvocationID + emu_j * gl_SubgroupSize;                          \
        if (emu_e < MM * NN)                                                                     \
            EMU_SCRATCH_PUT((at) + emu_e, acc.v[emu_j]);                                         \
    }
#define ZERO_C(acc)                    for (uint emu_z = 0u; emu_z < EMU_PER; ++emu_z) acc.v[emu_z] = DTYPE(0)
#define LOAD_A(m, at, ld, col_major)   m = uvec4(at, ld, (col_major) ? 1u : 0u, 0u)
#define LOAD_B(m, at, ld, col_major)   m = uvec4(at, ld, (col_major) ? 1u : 0u, 1u)
#endif

// One tile's copy, in the stored orientation: `rows` x `cols` elements
// (cols a power of two, EPP or more) from stored row r0 and column c0, rows
// `ld` apart from element `off`, at most r_lim x c_lim in the matrix. Its
// 16-byte pieces are numbered along the stored rows, so neighbouring
// invocations read neighbouring addresses; piece e of pass `pass` is
// invocation (e % lanes)'s number l = (e / lanes) % lpt in registers.
struct Tile {
    uint r0, c0, cols, r_lim, c_lim, ld, off;
    uint shift;     // log2 of the pieces per row
    uint pieces;    // rows * cols / EPP
    uint lpt;       // pieces per invocation per pass, <= LA_MAX or LB_MAX
    bool vec;       // read 16 bytes at a time: aligned and wholly inside
};

// The A tile of step k0 (B's below): where it is stored and how it is read.
Tile tile_a(uint row0, uint k0, uint lanes)
{
    Tile t;
    bool kc = p.trans_a == 0u;   // stored k-contiguous
    t.r0 = kc ? row0 : k0;
    t.c0 = kc ? k0 : row0;
    t.cols = kc ? BK : BM;
    t.r_lim = kc ? p.m : p.k;
    t.c_lim = kc ? p.k : p.m;
    t.ld = p.lda;
    t.off = p.a_off;
    t.shift = uint(findLSB(t.cols / EPP));
    t.pieces = BM * BK / EPP;
    t.lpt = min(LA_MAX, (t.pieces + lanes - 1u) / lanes);
    t.vec = (p.unused & 1u) != 0u && row0 + BM <= p.m && k0 + BK <= p.k;
    return t;
}

Tile tile_b(uint col0, uint k0, uint lanes)
{
    Tile t;
    bool kc = p.trans_b != 0u;
    t.r0 = kc ? col0 : k0;
    t.c0 = kc ? k0 : col0;
    t.cols = kc ? BK : BN;
    t.r_lim = kc ? p.n : p.k;
    t.c_lim = kc ? p.k : p.n;
    t.ld = p.ldb;
    t.off = p.b_off;
    t.shift = uint(findLSB(t.cols / EPP));
    t.pieces = BN * BK / EPP;
    t.lpt = min(LB_MAX, (t.pieces + lanes - 1u) / lanes);
    t.vec = (p.unused & 2u) != 0u && col0 + BN <= p.n && k0 + BK <= p.k;
    return t;
}

// Pass `pass` of a tile's loads into REG and its stores into S from unit
// BASE on. Live pieces: l < lpt, and e < pieces unless every pass is full
// (all folded once the specialization constants are known).
//   LOAD/STORE: the functions' names; REG: ra/rb; MAX: LA_MAX/LB_MAX;
//   AT: the elements (a, b); VAT: their vector aliases (av, bv).
#define DEFINE_TILE_IO(LOAD, STORE, REG, MAX, AT, VAT, PUT)                                     \
    void LOAD(Tile t, uint pass, uint lanes)                                                    \
    {                                                                                           \
        uint tid = gl_LocalInvocationIndex, per_pass = t.lpt * lanes;                           \
        bool full = t.pieces % per_pass == 0u;                                                  \
        if (t.vec) {                                                                            \
            [[unroll]] for (uint l = 0u; l < MAX; ++l) {                                        \
                uint e = pass * per_pass + l * lanes + tid;                                     \
                if (l < t.lpt && (full || e < t.pieces)) {                                      \
                    uint r = e >> t.shift, c = (e & ((1u << t.shift) - 1u)) * EPP;              \
                    REG[l] = VAT[(t.off + (t.r0 + r) * t.ld + t.c0 + c) / EPP];                 \
                }                                                                               \
            }                                                                                   \
        } else {                                                                                \
            [[unroll]] for (uint l = 0u; l < MAX; ++l) {                                        \
                uint e = pass * per_pass + l * lanes + tid;                                     \
                if (l < t.lpt && (full || e < t.pieces)) {                                      \
                    uint r = e >> t.shift, c = (e & ((1u << t.shift) - 1u)) * EPP;              \
                    uint row = t.r0 + r, at = t.off + row * t.ld + t.c0 + c;                    \
                    uvec4 v = uvec4(0u);                                                        \
                    [[unroll]] for (uint q = 0u; q < EPP; ++q)                                  \
                        if (row < t.r_lim && t.c0 + c + q < t.c_lim)                            \
                            v[q / PER_WORD] |= STORED_BITS(AT[at + q]) << ((q % PER_WORD) * ELEM_BITS); \
                    REG[l] = v;                                                                 \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    }                                                                                           \
    void STORE(Tile t, uint pass, uint lanes, uint base)                                        \
    {                                                                                           \
        uint tid = gl_LocalInvocationIndex, per_pass = t.lpt * lanes;                           \
        bool full = t.pieces % per_pass == 0u;                                                  \
        uint units = (t.cols + PAD) / EPP; /* pieces per row */                                 \
        [[unroll]] for (uint l = 0u; l < MAX; ++l) {                                            \
            uint e = pass * per_pass + l * lanes + tid;                                         \
            if (l < t.lpt && (full || e < t.pieces))                                            \
                PUT(base + (e >> t.shift) * units + (e & ((1u << t.shift) - 1u)), REG[l]);      \
        }                                                                                       \
    }

DEFINE_TILE_IO(load_a, store_a, ra, LA_MAX, a, av, PUT_A)
DEFINE_TILE_IO(load_b, store_b, rb, LB_MAX, b, bv, PUT_B)

// Passes of a tile: 1 where every invocation holds its share in registers.
uint passes(Tile t, uint lanes)
{
    uint per_pass = t.lpt * lanes;
    return (t.pieces + per_pass - 1u) / per_pass;
}

// The pieces of k offset kk of stage `st`'s tiles into ma and mb, the
// tiles' layouts constant (A_T: A stored transposed, m-contiguous, read
// column-major; B_T: B stored transposed, k-contiguous, column-major).
#define LOAD_PIECES(st, kk, A_T, B_T)                                                           \
    [[unroll]] for (uint i = 0u; i < TM; ++i) {                                                 \
        uint row = wm0 + i * MM;                                                                \
        LOAD_A(ma[i], A_BASE(st) + ((A_T) ? (kk) * (BM + PAD) + row : row * (BK + PAD) + (kk)), \
               (A_T) ? BM + PAD : BK + PAD, A_T);                                               \
    }                                                                                           \
    [[unroll]] for (uint j = 0u; j < TN; ++j) {                                                 \
        uint col = wn0 + j * NN;                                                                \
        LOAD_B(mb[j], B_BASE(st) + ((B_T) ? col * (BK + PAD) + (kk) : (kk) * (BN + PAD) + col), \
               (B_T) ? BK + PAD : BN + PAD, B_T);                                               \
    }
#define MULTIPLY_PIECES()                                                                       \
    [[unroll]] for (uint i = 0u; i < TM; ++i)                                                   \
        [[unroll]] for (uint j = 0u; j < TN; ++j)                                               \
            MUL_ADD(ma[i], mb[j], acc[i * TN + j]);
// The multiply-adds of one staged step from stage `st`.
#define COMPUTE(st, A_T, B_T)                                                                   \
    [[unroll]] for (uint kk = 0u; kk < BK; kk += KK) {                                          \
        LOAD_PIECES(st, kk, A_T, B_T)                                                           \
        MULTIPLY_PIECES()                                                                       \
    }
// One macro per layout: the layouts are constants of the cooperative
// loads, one branch per step, outside the unrolled loops.
#ifdef EMULATE
#define BY_LAYOUT(M, st) M(st, p.trans_a != 0u, p.trans_b != 0u)
#else
#define BY_LAYOUT(M, st)                                                                        \
    if (p.trans_a == 0u) {                                                                      \
        if (p.trans_b == 0u) {                                                                  \
            M(st, false, false)                                                                 \
        } else {                                                                                \
            M(st, false, true)                                                                  \
        }                                                                                       \
    } else {                                                                                    \
        if (p.trans_b == 0u) {                                                                  \
            M(st, true, false)                                                                  \
        } else {                                                                                \
            M(st, true, true)                                                                   \
        }                                                                                       \
    }
#endif
const uint ACC_N = TM * TN;   // at most 32 (kernels.c's blocks and shapes)

// One accumulator's epilogue (q: its index, a constant) through this
// subgroup's scratch.
#define EPILOGUE(q, ei, ej)                                                                     \
    {                                                                                           \
        STORE_C(acc[q], scratch);                                                               \
        subgroupMemoryBarrierShared();                                                          \
        subgroupBarrier();                                                                      \
        for (uint e = gl_SubgroupInvocationID; e < MM * NN; e += gl_SubgroupSize) {             \
            uint row = row0 + wm0 + ei * MM + e / NN, col = col0 + wn0 + ej * NN + e % NN;      \
            if (row < p.m && col < p.n)                                                         \
                store_c(row, col, SCRATCH_AT(scratch + e));                                     \
        }                                                                                       \
        subgroupBarrier(); /* read before the next accumulator overwrites it */                 \
    }
// Spelled out per accumulator (a loop left an indexed array in the SPIR-V):
// the ones past ACC_N fold away, their index clamped to stay in range.
#define EPILOGUE_IF(q) if ((q) < ACC_N) EPILOGUE((q) < ACC_N ? (q) : 0u, (q) / TN, (q) % TN)

void main()
{
    uvec2 origin = block_origin(BM, BN);
    uint row0 = origin.x, col0 = origin.y;

    uint lanes = gl_WorkGroupSize.x;
    uint sg = gl_SubgroupID;
    uint wm0 = (sg / SG_N) * WM, wn0 = (sg % SG_N) * WN;

    MAT_C acc[ACC_N];
    MAT_A ma[TM];
    MAT_B mb[TN];
    [[unroll]] for (uint i = 0u; i < ACC_N; ++i)
        ZERO_C(acc[i]);

    // Step 0's tiles into stage 0.
    uint steps = (p.k + BK - 1u) / BK;
    Tile ta = tile_a(row0, 0u, lanes), tb = tile_b(col0, 0u, lanes);
#define STAGE_FIRST(st)                                                                         \
    for (uint pass = 0u; pass < passes(ta, lanes); ++pass) {                                    \
        load_a(ta, pass, lanes);                                                                \
        store_a(ta, pass, lanes, A_BASE(st) / EPP);                                              \
    }                                                                                           \
    for (uint pass = 0u; pass < passes(tb, lanes); ++pass) {                                    \
        load_b(tb, pass, lanes);                                                                \
        store_b(tb, pass, lanes, B_BASE(st) / EPP);                                              \
    }
    STAGE_FIRST(0u)
    barrier();

    for (uint s = 0u; s < steps; ++s) {
        uint cur = STAGES == 2u ? (s & 1u) : 0u;   // stages
        uint nxt = STAGES == 2u ? 1u - cur : 0u;
        bool more = s + 1u < steps;
        if (more) {   // the next step's first pass into registers
            ta = tile_a(row0, (s + 1u) * BK, lanes);
            tb = tile_b(col0, (s + 1u) * BK, lanes);
            load_a(ta, 0u, lanes);
            load_b(tb, 0u, lanes);
        }
        BY_LAYOUT(COMPUTE, cur)
        if (more) {
            if (STAGES == 1u)
                barrier();   // every subgroup is done with the one buffer
            store_a(ta, 0u, lanes, A_BASE(nxt) / EPP);
            store_b(tb, 0u, lanes, B_BASE(nxt) / EPP);
            for (uint pass = 1u; pass < passes(ta, lanes); ++pass) {
                load_a(ta, pass, lanes);
                store_a(ta, pass, lanes, A_BASE(nxt) / EPP);
            }
            for (uint pass = 1u; pass < passes(tb, lanes); ++pass) {
                load_b(tb, pass, lanes);
                store_b(tb, pass, lanes, B_BASE(nxt) / EPP);
            }
        }
        // The stores are seen before the next step reads them; and (after
        // the last step) every subgroup is done before the scratch reuses S.
        barrier();
    }

    // The epilogue, one accumulator at a time through this subgroup's scratch.
    uint scratch = sg * MM * NN;   // f32 (i32) elements
    EPILOGUE_IF(0u) EPILOGUE_IF(1u) EPILOGUE_IF(2u) EPILOGUE_IF(3u)
    EPILOGUE_IF(4u) EPILOGUE_IF(5u) EPILOGUE_IF(6u) EPILOGUE_IF(7u)
    EPILOGUE_IF(8u) EPILOGUE_IF(9u) EPILOGUE_IF(10u) EPILOGUE_IF(11u)
    EPILOGUE_IF(12u) EPILOGUE_IF(13u) EPILOGUE_IF(14u) EPILOGUE_IF(15u)
    EPILOGUE_IF(16u) EPILOGUE_IF(17u) EPILOGUE_IF(18u) EPILOGUE_IF(19u)
    EPILOGUE_IF(20u) EPILOGUE_IF(21u) EPILOGUE_IF(22u) EPILOGUE_IF(23u)
    EPILOGUE_IF(24u) EPILOGUE_IF(25u) EPILOGUE_IF(26u) EPILOGUE_IF(27u)
    EPILOGUE_IF(28u) EPILOGUE_IF(29u) EPILOGUE_IF(30u) EPILOGUE_IF(31u)
}
