// Declarations shared by every GEMM shader: the three matrices, the push
// constants that carry the problem, and the loads and stores that convert
// between what the buffers hold and the arithmetic. Compiled once per
// element type (plugins/vulkan/CMakeLists.txt): -DDTYPE=float, double or
// int, the arithmetic type; f16 and bf16 add -DSTORAGE_F16 or -DSTORAGE_BF16
// to DTYPE=float: stored in 16 bits, multiplied and summed in f32.
//
// (ABI 1.5) 8-bit A and B: -DINPUT_FP8 (e4m3 or e5m2, each operand's
// format a specialization constant: A_E5M2, B_E5M2) with DTYPE=float, or
// -DINPUT_I8 with DTYPE=int; C's type is then DTYPE's (with STORAGE_F16 or
// STORAGE_BF16 as above). They need storageBuffer8BitAccess.
//
// Row-major, as in gemmhost/plugin.h: op(A) is m x k, op(B) is k x n, C is
// m x n, and C = alpha * op(A) * op(B) + beta * C. Offsets are in elements,
// relative to the start of the bound buffer range (the plugin binds each
// matrix's window at an aligned byte offset and passes the rest here), so
// 32-bit indices cover any matrix that fits in one storage-buffer range.

#ifndef DTYPE
#define DTYPE float
#endif

#if defined(STORAGE_F16) || defined(STORAGE_BF16)
// f16 and bf16 need only the storageBuffer16BitAccess feature: the buffers
// hold uint16_t, which GL_EXT_shader_16bit_storage allows in buffer blocks
// and converted to and from 32-bit integers (OpUConvert), nothing more. The
// conversions to and from f32 are done here on the bits, not by the
// float16_t constructor: Vulkan leaves the rounding mode of a floating-point
// conversion undefined (fundamentals-fp-conversion) and lets it flush
// subnormals, and the contract is round to nearest even, once. So neither
// shaderFloat16 nor VK_KHR_shader_bfloat16 is used.
#extension GL_EXT_shader_16bit_storage : require
#define ELEM uint16_t
#else
#define ELEM DTYPE
#endif

#if defined(INPUT_FP8) || defined(INPUT_I8)
// Bytes, read and widened (OpUConvert, OpSConvert): 8-bit storage alone.
#extension GL_EXT_shader_8bit_storage : require
#if defined(INPUT_FP8)
#define IN_ELEM uint8_t
#else
#define IN_ELEM int8_t
#endif
layout(std430, set = 0, binding = 0) readonly buffer MatrixA { IN_ELEM a[]; };
layout(std430, set = 0, binding = 1) readonly buffer MatrixB { IN_ELEM b[]; };
#else
layout(std430, set = 0, binding = 0) readonly buffer MatrixA { ELEM a[]; };
layout(std430, set = 0, binding = 1) readonly buffer MatrixB { ELEM b[]; };
#endif
layout(std430, set = 0, binding = 2) buffer MatrixC { ELEM c[]; };

// 48 bytes of uints, then alpha and beta at offset 48 (8-aligned for double)
// in the arithmetic type: f32 for f16 and bf16. plugins/vulkan/gemm.c writes
// the same layout.
layout(push_constant) uniform Problem {
    uint m, n, k;
    uint lda, ldb, ldc;
    uint a_off, b_off, c_off;
    uint trans_a, trans_b;
    uint unused;        // coopmat: which of A (bit 0), B (bit 1) it may read as vectors
                        // (warptile takes them from its specialization constant LAYOUT)
    DTYPE alpha;
    DTYPE beta;
} p;

#if defined(STORAGE_F16)
// Exact: every f16 is an f32. Subnormals (exponent 0) are m * 2^-24, built
// by a multiplication whose result is a normal f32, so nothing flushes them.
// Each case is computed and one chosen, with no branch: a branch on a
// loaded value waits for the load, and the loads after it with it.
float from_bits(uint h)
{
    uint sign = (h & 0x8000u) << 16;
    uint e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
    uint normal = sign | ((e + 112u) << 23) | (m << 13);                     // rebias 15 -> 127
    uint special = sign | 0x7F800000u | (m << 13);                           // inf, or NaN with its payload
    uint sub = sign | floatBitsToUint(float(m) * 5.9604644775390625e-8);     // 2^-24
    return uintBitsToFloat(e == 0x1Fu ? special : e == 0u ? sub : normal);
}

// Round to nearest, ties to even, with subnormals; past the largest finite
// f16 (65504, up to the midpoint 65520) to infinity; NaN stays a quiet NaN.
uint to_bits(float f)
{
    uint u = floatBitsToUint(f);
    uint sign = (u >> 16) & 0x8000u;
    uint mag = u & 0x7FFFFFFFu;
    if (mag > 0x7F800000u)                              // NaN
        return sign | 0x7E00u | ((mag >> 13) & 0x3FFu);
    if (mag >= 0x47800000u)                             // 2^16 and up, inf
        return sign | 0x7C00u;
    uint e = mag >> 23;                                 // f32's biased exponent
    if (e < 102u)                                       // below 2^-25: to zero
        return sign;
    uint sig = (mag & 0x7FFFFFu) | 0x800000u;           // 24 bits, leading 1
    // Normal f16 (e >= 113, 2^-14): drop 13 bits; subnormal: one more per
    // step below, up to 24 (at 2^-25, where only the rounding can give 1).
    uint drop = e >= 113u ? 13u : 126u - e;
    uint kept = sig >> drop;
    uint rest = sig & ((1u << drop) - 1u);
    uint half_ = 1u << (drop - 1u);
    if (rest > half_ || (rest == half_ && (kept & 1u) != 0u))
        kept++;
    // Normal: the exponent field (e - 112) plus the kept bits, whose leading
    // 1 adds one to it (so e - 113); a carry out of the mantissa moves to the
    // next binade, or from 65504 to infinity. Subnormal: kept alone, and a
    // carry to 0x400 is the smallest normal.
    uint base = e >= 113u ? (e - 113u) << 10 : 0u;
    return sign | (base + kept);
}
#elif defined(STORAGE_BF16)
// bf16 is the top half of an f32.
float from_bits(uint h)
{
    return uintBitsToFloat(h << 16);
}

// Round the low 16 bits away to nearest even (add just under half, plus one
// when the kept part is odd; the carry runs into the exponent, up to
// infinity). A NaN must not go through that: it could carry into infinity.
uint to_bits(float f)
{
    uint u = floatBitsToUint(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return (u >> 16) | 0x0040u;
    return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}
#endif

// Element i of a buffer, in the arithmetic type; C's element i set from it.
// (Macros: 16-bit values cannot be function arguments with 16-bit storage alone.)
#if defined(STORAGE_F16) || defined(STORAGE_BF16)
#define A_AT(i)      from_bits(uint(a[i]))
#define B_AT(i)      from_bits(uint(b[i]))
#define C_AT(i)      from_bits(uint(c[i]))
#define C_PUT(i, v)  c[i] = uint16_t(to_bits(v))
#else
#define A_AT(i)      a[i]
#define B_AT(i)      b[i]
#define C_AT(i)      c[i]
#define C_PUT(i, v)  c[i] = (v)
#endif

// An element of A or B as loaded (RAW_T) and its value (FROM_RAW), apart:
// a kernel that keeps the raw element until it needs the value leaves the
// load in flight meanwhile (widening it at once would wait for it).
#if defined(STORAGE_F16) || defined(STORAGE_BF16)
#define RAW_T        uint
#define A_RAW(i)     uint(a[i])
#define B_RAW(i)     uint(b[i])
#define FROM_RAW(x)  from_bits(x)
#else
#define RAW_T        DTYPE
#define A_RAW(i)     a[i]
#define B_RAW(i)     b[i]
#define FROM_RAW(x)  (x)
#endif

// A's and B's raw elements widened apart (blocked): one conversion unless
// the operands are 8-bit, below.
#define FROM_RAW_A(x) FROM_RAW(x)
#define FROM_RAW_B(x) FROM_RAW(x)

#if defined(INPUT_FP8)
// OCP FP8, decoded exactly on the bits (no FP8 type is used): e4m3 has bias
// 7, 3 mantissa bits, no infinity and S.1111.111 for NaN; e5m2 bias 15, 2
// mantissa bits, IEEE-like infinities and NaNs. The exponent is rebased to
// f32's, the mantissa moved to the top of f32's; subnormals are m * 2^-9
// (e4m3) or m * 2^-16 (e5m2), a normal f32 product. Branch-free, as
// from_bits above; `e5m2` is a specialization constant, folded by the driver.
layout(constant_id = 10) const bool A_E5M2 = false;
layout(constant_id = 11) const bool B_E5M2 = false;
float fp8_value(uint v, bool e5m2)
{
    uint sign = (v & 0x80u) << 24;
    uint mbits = e5m2 ? 2u : 3u;
    uint e = (v & 0x7Fu) >> mbits, m = v & ((1u << mbits) - 1u);
    uint normal = sign | ((e + (e5m2 ? 112u : 120u)) << 23) | (m << (23u - mbits));
    uint sub = sign | floatBitsToUint(float(m) * (e5m2 ? 1.52587890625e-5 : 1.953125e-3));   // 2^-16, 2^-9
    bool special = e5m2 ? e == 0x1Fu : (e == 0xFu && m == 7u);
    uint nan_inf = sign | (e5m2 && m == 0u ? 0x7F800000u : 0x7FC00000u);
    return uintBitsToFloat(special ? nan_inf : e == 0u ? sub : normal);
}
#undef A_AT
#undef B_AT
#undef RAW_T
#undef A_RAW
#undef B_RAW
#undef FROM_RAW_A
#undef FROM_RAW_B
#define A_AT(i)        fp8_value(uint(a[i]), A_E5M2)
#define B_AT(i)        fp8_value(uint(b[i]), B_E5M2)
#define RAW_T          uint
#define A_RAW(i)       uint(a[i])
#define B_RAW(i)       uint(b[i])
#define FROM_RAW_A(x)  fp8_value(x, A_E5M2)
#define FROM_RAW_B(x)  fp8_value(x, B_E5M2)
#elif defined(INPUT_I8)
#undef A_AT
#undef B_AT
#undef A_RAW
#undef B_RAW
#define A_AT(i)        int(a[i])
#define B_AT(i)        int(b[i])
#define A_RAW(i)       int(a[i])
#define B_RAW(i)       int(b[i])
#endif

// beta == 0 must not read C: it may hold NaN poison (and 0 * NaN is NaN).
// For f16 and bf16 the sum is f32 and rounded once, here.
void store_c(uint row, uint col, DTYPE sum)
{
    uint idx = p.c_off + row * p.ldc + col;
    if (p.beta == DTYPE(0))
        C_PUT(idx, p.alpha * sum);
    else
        C_PUT(idx, p.alpha * sum + p.beta * C_AT(idx));
}

// The first row and column of C in this workgroup's bm x bn block.
// Workgroups are numbered in groups of 8 block rows, column by column within
// a group: the ones running together share rows of A and columns of B,
// which then stay in L2.
uvec2 block_origin(uint bm, uint bn)
{
    const uint GROUP = 8u;
    uint gx = gl_NumWorkGroups.x, gy = gl_NumWorkGroups.y;
    uint id = gl_WorkGroupID.y * gx + gl_WorkGroupID.x;
    uint first = (id / (GROUP * gx)) * GROUP;
    uint rows = min(gy - first, GROUP);
    uint in_group = id % (GROUP * gx);
    return uvec2((first + in_group % rows) * bm, (in_group / rows) * bn);
}
