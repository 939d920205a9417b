#version 450
#extension GL_EXT_control_flow_attributes : require
#ifndef EMULATE
#extension GL_KHR_memory_scope_semantics : require
#extension GL_NV_cooperative_matrix : require
#endif
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_KHR_shader_subgroup_basic : require
// coopmat: C = alpha * op(A) * op(B) + beta * C on the matrix units, through
// cooperative matrices of one subgroup (f16 x f16 or bf16 x bf16, summed in
// f32).
//
// A workgroup of SG_M x SG_N subgroups computes a BM x BN block of C; each
// subgroup a WM x WN part of it, as TM x TN accumulators of MM x NN (the
// device's shape MM x NN x KK). Per step of BK along k, op(A)'s BM x BK and
// op(B)'s BK x BN tiles are copied into shared memory in one layout whatever
// the transposes (As row-major m x k, Bs row-major k x n), the 16-bit values
// as they are stored (a copy of the bits, no rounding), zero outside the
// matrices: so any m, n, k, ld and offset works, and the zeros add nothing.
// The subgroups then load MM x KK and KK x NN pieces and multiply-add them.
//
// At the end each accumulator goes through a small shared scratch per
// subgroup, where its invocations read it element by element for the
// epilogue: alpha * acc + beta * C in f32 and one rounding to the stored type
// (gemm_common.glsl's store_c), only inside C.
//
// Written against GL_NV_cooperative_matrix, which Debian 12's glslc
// compiles; plugins/vulkan/coopmat_khr.py rewrites the SPIR-V to
// SPV_KHR_cooperative_matrix (and the bf16 modules' float16_t to bfloat16,
// SPV_KHR_bfloat16), so one source serves both extensions. For that rewrite:
// - A and B have types of their own (their sizes are distinct specialization
//   constants, ids 10-15, never set by the plugin): a KHR type carries its use
//   (A, B or accumulator), read from the multiply-add each type meets;
// - float16_t is only copied (bitcast from the stored bits, shared memory,
//   cooperative matrix loads), never computed with: bfloat16 allows no
//   arithmetic, and bits copied are exact either way.
//
// -DEMULATE builds it with the cooperative matrices emulated in plain code
// (the plugin's option emulate = cooperative_matrix): everything else is the
// same code, so the tiling, copies, edges and epilogue run and are checked
// on any device, lavapipe included.

#include "gemm_common.glsl"

#if !defined(BM) || !defined(BN) || !defined(SG_M) || !defined(SG_N) || !defined(MM) || !defined(NN) || !defined(KK)
#error "build with -DBM= -DBN= -DSG_M= -DSG_N= (the workgroup) and -DMM= -DNN= -DKK= (the matrix shape), all u"
#endif

// SG_M * SG_N subgroups of the device's subgroup size, set by the plugin.
layout(local_size_x_id = 0) in;
// The k step: 16 or 32, a multiple of KK.
layout(constant_id = 1) const uint BK = 32u;

const uint SUBGROUPS = SG_M * SG_N;
const uint WM = BM / SG_M, WN = BN / SG_N;   // a subgroup's part of the block
const uint TM = WM / MM, TN = WN / NN;       // its accumulators

// Rows padded by 8 elements (16 bytes): the cooperative loads want rows
// 16-byte aligned, and an odd number of 16-byte units per row spreads the
// rows of one load over the banks.
const uint PAD = 8u;
const uint A_LD = BK + PAD;
const uint B_LD = BN + PAD;
shared float16_t As[BM * A_LD];   // As[x * A_LD + kk] = op(A)(row0 + x, k0 + kk)
shared float16_t Bs[BK * B_LD];   // Bs[kk * B_LD + x] = op(B)(k0 + kk, col0 + x)
shared float Cs[SUBGROUPS * MM * NN];

#ifndef EMULATE
layout(constant_id = 10) const uint A_ROWS = MM;
layout(constant_id = 11) const uint A_COLS = KK;
layout(constant_id = 12) const uint B_ROWS = KK;
layout(constant_id = 13) const uint B_COLS = NN;
layout(constant_id = 14) const uint C_ROWS = MM;
layout(constant_id = 15) const uint C_COLS = NN;
#define MAT_A fcoopmatNV<16, gl_ScopeSubgroup, A_ROWS, A_COLS>
#define MAT_B fcoopmatNV<16, gl_ScopeSubgroup, B_ROWS, B_COLS>
#define MAT_C fcoopmatNV<32, gl_ScopeSubgroup, C_ROWS, C_COLS>
// An MM x KK piece of As at element `at` (row-major), a KK x NN piece of Bs;
// acc = a * b + acc; acc into Cs at `at`, row-major.
#define ZERO_C(acc)           acc = MAT_C(0.0)
#define LOAD_A(m, at)         coopMatLoadNV(m, As, at, A_LD, false)
#define LOAD_B(m, at)         coopMatLoadNV(m, Bs, at, B_LD, false)
#define MUL_ADD(a, b, acc)    acc = coopMatMulAddNV(a, b, acc)
#define STORE_C(acc, at)      coopMatStoreNV(acc, Cs, at, NN, false)
#else
// The emulation: a piece of A or B is where it lies in shared memory; an
// accumulator is spread over the subgroup as a real one would be, element e
// (row e / NN, column e % NN) at invocation e % gl_SubgroupSize, for
// subgroups of 4 invocations or more.
const uint EMU_PER = (MM * NN + 3u) / 4u;
struct EmuC {
    float v[EMU_PER];
};
#define MAT_A uint
#define MAT_B uint
#define MAT_C EmuC
float emu_value(float16_t x)   // the stored bits, as gemm_common.glsl reads them
{
    return from_bits(uint(float16BitsToUint16(x)));
}
// In place, as macros (their variables named so as not to capture the
// arguments'), not functions taking and returning an EmuC; rolled, or
// lavapipe's compiler needs tens of GiB for the largest blocks.
#define MUL_ADD(a, b, acc)                                                                       \
    [[dont_unroll]] for (uint emu_j = 0u; emu_j < EMU_PER; ++emu_j) {                            \
        uint emu_e = gl_SubgroupInvocationID + emu_j * gl_SubgroupSize;                          \
        if (emu_e < MM * NN)                                                                     \
            [[dont_unroll]] for (uint emu_k = 0u; emu_k < KK; ++emu_k)                           \
                acc.v[emu_j] = fma(emu_value(As[(a) + (emu_e / NN) * A_LD + emu_k]),             \
                                   emu_value(Bs[(b) + emu_k * B_LD + emu_e % NN]), acc.v[emu_j]); \
    }
#define STORE_C(acc, at)                                                                         \
    for (uint emu_j = 0u; emu_j < EMU_PER; ++emu_j) {                                            \
        uint emu_e = gl_SubgroupInvocationID + emu_j * gl_SubgroupSize;                          \
        if (emu_e < MM * NN)                                                                     \
            Cs[(at) + emu_e] = acc.v[emu_j];                                                     \
    }
#define ZERO_C(acc)           for (uint emu_z = 0u; emu_z < EMU_PER; ++emu_z) acc.v[emu_z] = 0.0
#define LOAD_A(m, at)         m = (at)
#define LOAD_B(m, at)         m = (at)
#endif

// Copies op(A)'s tile: consecutive invocations read consecutive addresses of
// the stored matrix, along k when A is not transposed, along m when it is.
void stage_a(uint row0, uint k0)
{
    const uint threads = gl_WorkGroupSize.x;
    for (uint e = gl_LocalInvocationIndex; e < BM * BK; e += threads) {
        uint x = p.trans_a == 0u ? e / BK : e % BM;
        uint kk = p.trans_a == 0u ? e % BK : e / BM;
        uint row = row0 + x, k = k0 + kk;
        float16_t v = float16_t(0.0);
        if (row < p.m && k < p.k)
            v = uint16BitsToFloat16(a[p.a_off + (p.trans_a == 0u ? row * p.lda + k : k * p.lda + row)]);
        As[x * A_LD + kk] = v;
    }
}

// Copies op(B)'s tile: along n when B is not transposed, along k when it is.
void stage_b(uint col0, uint k0)
{
    const uint threads = gl_WorkGroupSize.x;
    for (uint e = gl_LocalInvocationIndex; e < BK * BN; e += threads) {
        uint x = p.trans_b == 0u ? e % BN : e / BK;
        uint kk = p.trans_b == 0u ? e / BN : e % BK;
        uint col = col0 + x, k = k0 + kk;
        float16_t v = float16_t(0.0);
        if (col < p.n && k < p.k)
            v = uint16BitsToFloat16(b[p.b_off + (p.trans_b == 0u ? k * p.ldb + col : col * p.ldb + k)]);
        Bs[kk * B_LD + x] = v;
    }
}

void main()
{
    uint row0 = gl_WorkGroupID.y * BM, col0 = gl_WorkGroupID.x * BN;
    uint sg = gl_SubgroupID;
    uint wm0 = (sg / SG_N) * WM, wn0 = (sg % SG_N) * WN;

    MAT_C acc[TM * TN];
    [[unroll]] for (uint i = 0u; i < TM * TN; ++i)
        ZERO_C(acc[i]);

    for (uint k0 = 0u; k0 < p.k; k0 += BK) {
        stage_a(row0, k0);
        stage_b(col0, k0);
        barrier();
        [[unroll]] for (uint kk = 0u; kk < BK; kk += KK) {
            MAT_A ma[TM];
            MAT_B mb[TN];
            [[unroll]] for (uint i = 0u; i < TM; ++i)
                LOAD_A(ma[i], (wm0 + i * MM) * A_LD + kk);
            [[unroll]] for (uint j = 0u; j < TN; ++j)
                LOAD_B(mb[j], kk * B_LD + wn0 + j * NN);
            [[unroll]] for (uint i = 0u; i < TM; ++i)
                [[unroll]] for (uint j = 0u; j < TN; ++j)
                    MUL_ADD(ma[i], mb[j], acc[i * TN + j]);
        }
        barrier();   // every subgroup is done with the tiles before the next copy
    }

    // The epilogue, one accumulator at a time through this subgroup's scratch.
    uint scratch = sg * MM * NN;
    [[unroll]] for (uint i = 0u; i < TM; ++i) {
        [[unroll]] for (uint j = 0u; j < TN; ++j) {
            STORE_C(acc[i * TN + j], scratch);
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            for (uint e = gl_SubgroupInvocationID; e < MM * NN; e += gl_SubgroupSize) {
                uint row = row0 + wm0 + i * MM + e / NN, col = col0 + wn0 + j * NN + e % NN;
                if (row < p.m && col < p.n)
                    store_c(row, col, Cs[scratch + e]);
            }
            subgroupBarrier();   // read before the next accumulator overwrites it
        }
    }
}
