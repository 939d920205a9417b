/*
 * Shared by the CUDA GEMM kernels. The plugin compiles each kernel at run time
 * with NVRTC for the device's own architecture, passing its parameters as
 * defines: -DDTYPE=float|double|int|gh_f16|gh_bf16 (and -DTILE=... for
 * tiled.cu). naive, tiled and blocked also take the 8-bit inputs: A_TYPE and
 * B_TYPE (gh_e4m3, gh_e5m2 or gh_i8; both DTYPE when not given) with DTYPE
 * then C's type (float, gh_f16, gh_bf16 for FP8; int for gh_i8).
 *
 * Matrices are row-major, as in gemmhost/plugin.h: op(A) is M x K, op(B) is
 * K x N, C is M x N, and element (i, j) of a stored matrix X is x[i * ld + j].
 * The host passes A, B and C already advanced by their offsets.
 *
 * Two types: elem_t, what A, B and C hold in memory (DTYPE), and acc_t, what
 * the kernels load it into, stage in shared memory, multiply and sum, and
 * what alpha and beta are. They are the same type for float, double and int.
 * f16 and bf16 (plugin.h's default arithmetic for them) are stored in 16 bits
 * and widened to f32 as they are loaded; the result is rounded once, to
 * nearest even, as it is stored.
 *
 * The 16-bit types are plain structs of their bits, converted here, rather
 * than cuda_fp16.h's __half and cuda_bf16.h's __nv_bfloat16: NVRTC (CUDA
 * 13.0) does not ship those headers built in, so they would have to be found
 * in a toolkit at run time, which a machine with only the driver and NVRTC
 * does not have. A struct also keeps the bits from being used as numbers by
 * mistake: only to_acc() reads them.
 */
#ifndef DTYPE
#error "DTYPE must be defined: float, double, int, gh_f16 or gh_bf16"
#endif
#ifndef A_TYPE
#define A_TYPE DTYPE
#endif
#ifndef B_TYPE
#define B_TYPE DTYPE
#endif

struct gh_f16 {
    unsigned short bits; /* IEEE binary16 */
};
struct gh_bf16 {
    unsigned short bits; /* bfloat16: the top half of an f32 */
};
/* OCP FP8 (gemmhost/fp8.h), structs of their bits for the same reasons:
 * NVRTC has no cuda_fp8.h built in, and only to_acc() reads them. */
struct gh_e4m3 {
    unsigned char bits; /* 1 sign, 4 exponent (bias 7), 3 mantissa; S.1111.111 is NaN, no infinity */
};
struct gh_e5m2 {
    unsigned char bits; /* 1 sign, 5 exponent (bias 15), 2 mantissa; IEEE-like */
};
typedef signed char gh_i8; /* two's complement; summed exactly in int */

template <typename T> struct gh_acc_of {
    typedef T type;
};
template <> struct gh_acc_of<gh_f16> {
    typedef float type;
};
template <> struct gh_acc_of<gh_bf16> {
    typedef float type;
};

/* elem_t is C's type (and A's and B's unless A_TYPE, B_TYPE say otherwise);
 * acc_t follows C: f32 for f32, f16 and bf16 C, int for i32. */
typedef DTYPE elem_t;
typedef A_TYPE a_t;
typedef B_TYPE b_t;
typedef gh_acc_of<elem_t>::type acc_t;

/* Widening: exact. cvt.f32.f16 exists on every architecture NVRTC targets;
 * a bf16 is an f32 with 16 zero bits appended. */
static __device__ __forceinline__ float to_acc(float x) { return x; }
static __device__ __forceinline__ double to_acc(double x) { return x; }
static __device__ __forceinline__ int to_acc(int x) { return x; }
static __device__ __forceinline__ float to_acc(gh_f16 x)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x.bits));
    return f;
}
static __device__ __forceinline__ float to_acc(gh_bf16 x) { return __uint_as_float((unsigned)x.bits << 16); }
/* FP8 through f16, exactly: e5m2 is the top byte of an f16. e4m3's exponent
 * and mantissa, placed in an f16's (bias 15), are its value times 2^-8
 * (subnormals included: f16 has them, and cvt.f32.f16 widens them exactly),
 * so one multiply by 256 (exact in f32) restores it. Its NaN S.1111.111
 * would become 480: caught first. The int tail is 0 in both. */
static __device__ __forceinline__ float to_acc(gh_e5m2 x)
{
    float f;
    const unsigned short h = (unsigned short)(x.bits << 8);
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
static __device__ __forceinline__ float to_acc(gh_e4m3 x)
{
    if ((x.bits & 0x7Fu) == 0x7Fu)
        return __uint_as_float(0x7FC00000u);
    float f;
    const unsigned short h = (unsigned short)(((x.bits & 0x80u) << 8) | ((x.bits & 0x7Fu) << 7));
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f * 256.0f;
}
static __device__ __forceinline__ int to_acc(gh_i8 x) { return (int)x; }

/* Narrowing into the storage type: once, to nearest even; a NaN stays a
 * NaN. */
static __device__ __forceinline__ void store_rounded(float *c, float x) { *c = x; }
static __device__ __forceinline__ void store_rounded(double *c, double x) { *c = x; }
static __device__ __forceinline__ void store_rounded(int *c, int x) { *c = x; }
static __device__ __forceinline__ void store_rounded(gh_f16 *c, float x)
{
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    c->bits = h;
}
/* The same on every architecture (cvt.rn.bf16.f32 needs sm_80): adding
 * 0x7FFF plus the lowest kept bit carries into the kept half exactly when
 * the dropped half is over the midpoint, or on it with the kept half odd;
 * a carry out of the mantissa steps the exponent, up to infinity. The
 * formula of gh_f32_to_bf16 in gemmhost/half.h (tests/half: midpoints,
 * double-rounding traps, NaN, overflow, subnormals). */
static __device__ __forceinline__ void store_rounded(gh_bf16 *c, float x)
{
    unsigned u = __float_as_uint(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        c->bits = (unsigned short)((u >> 16) | 0x0040u); /* NaN: quiet, its sign and top payload kept */
    else
        c->bits = (unsigned short)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* C = alpha * acc + beta * C, computed in acc_t and rounded once into C.
 * With beta == 0, C is not read at all: the host poisons it with NaN to
 * catch unwritten elements, and 0 * NaN is NaN. */
static __device__ __forceinline__ void gemm_store(elem_t *c, acc_t alpha, acc_t acc, acc_t beta)
{
    if (beta == (acc_t)0)
        store_rounded(c, alpha * acc);
    else
        store_rounded(c, alpha * acc + beta * to_acc(*c));
}

/* The first row and column of C in the bm x bn block numbered pid. Blocks
 * are numbered in groups of 8 block rows, down each column of the group, so
 * that blocks running together share rows of A and columns of B in L2. */
static __device__ __forceinline__ void block_origin_at(int pid, int M, int N, int bm, int bn, int *row0, int *col0)
{
    const int tiles_m = (M + bm - 1) / bm, tiles_n = (N + bn - 1) / bn;
    const int in_group = 8 * tiles_n;
    const int first_m = (pid / in_group) * 8, group_m = min(tiles_m - first_m, 8);
    *row0 = (first_m + (pid % in_group) % group_m) * bm;
    *col0 = ((pid % in_group) / group_m) * bn;
}
/* That of this block (blockIdx.x). */
static __device__ __forceinline__ void block_origin(int M, int N, int bm, int bn, int *row0, int *col0)
{
    block_origin_at((int)blockIdx.x, M, N, bm, bn, row0, col0);
}
