/* Shared by every GEMM kernel of the OpenCL plugin; the plugin compiles it in
 * front of each kernel file, with
 *   -DSTORE_T=float|double|int|half|ushort   the element type in memory
 *   -DACC_T=float|double|int                 the arithmetic's: products, sums,
 *                                            alpha, beta, local-memory tiles
 *   -DGH_FP64=1                              when ACC_T is double
 *   -DGH_STORE_F16=1 or -DGH_STORE_BF16=1    16-bit storage, converted below
 *   -DGH_A_E4M3=1, GH_A_E5M2, GH_A_I8         (ABI 1.5) A in 8 bits, and likewise
 *   -DGH_B_E4M3=1, GH_B_E5M2, GH_B_I8         GH_B_* for B; STORE_T is then C's
 * and a kernel's own parameters (e.g. -DTILE=16).
 *
 * Kernels read and write global memory only through LOAD(p, i) (element i
 * of p, as ACC_T) and STORE(p, i, v) (v rounded once to STORE_T), so each
 * kernel has one source for every dtype. naive, tiled and blocked read A and
 * B through LOAD_A_ELEM and LOAD_B_ELEM, of types A_T and B_T: STORE_T and LOAD unless
 * A or B is in 8 bits.
 *
 * Matrices are row-major. op(A) is M x K, op(B) is K x N, C is M x N:
 *   C = alpha * op(A) * op(B) + beta * C
 * A not transposed is M rows of K (row i at A[i * lda]); transposed, it is K
 * rows of M and op(A)[i][p] = A[p * lda + i]. Likewise B. Offsets are in
 * elements from the start of each buffer.
 */
#ifdef GH_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if !defined(STORE_T) || !defined(ACC_T)
#error "build with -DSTORE_T=<element type in memory> -DACC_T=<arithmetic type>"
#endif

#if defined(GH_STORE_F16)
/* f16 without cl_khr_fp16: OpenCL C lets `half` be used only as a pointer
 * type, read and written by vload_half and vstore_half*, which are core
 * built-ins (OpenCL C 1.2 section 6.1.1.1 and 6.12.7; 3.0 "The half Data
 * Type"): they convert exactly (loads) and with the rounding mode named
 * (stores), subnormals included, on every device. cl_khr_fp16 adds half
 * arithmetic, which these kernels do not use (they multiply and sum in f32),
 * so f16 runs on every device. */
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half_rte((v), (i), (p))
#elif defined(GH_STORE_BF16)
/* bf16 is the top half of an f32: widening appends 16 zero bits. */
float gh_bf16_to_f32(const ushort b)
{
    return as_float((uint)b << 16);
}

/* f32 -> bf16, round to nearest even, as gemmhost/half.h does on the host:
 * add just under half of the dropped 16 bits (0x7FFF), plus one when the
 * kept part is odd, so that a tie goes to even; the carry runs into the
 * exponent as it should (up to infinity). A NaN skips that (a carry could
 * make it an infinity) and stays a NaN: its top bits, the quiet bit set. */
ushort gh_f32_to_bf16(const float f)
{
    uint u = as_uint(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (ushort)(u >> 16 | 0x0040u);
    u += 0x7FFFu + (u >> 16 & 1u);
    return (ushort)(u >> 16);
}
#define LOAD(p, i) gh_bf16_to_f32((p)[(i)])
#define STORE(p, i, v) ((p)[(i)] = gh_f32_to_bf16((v)))
#else
#define LOAD(p, i) ((ACC_T)(p)[(i)])
#define STORE(p, i, v) ((p)[(i)] = (v))
#endif

/* (ABI 1.5) OCP FP8, decoded exactly by bit operations (no OpenCL device
 * has an FP8 type): the exponent rebased to f32's bias, the mantissa moved
 * to the top of f32's; subnormals are mantissa * 2^(1 - bias - mbits).
 * e4m3: bias 7, 3 mantissa bits, no infinity, S.1111.111 NaN. e5m2: bias
 * 15, 2 mantissa bits, IEEE-like infinities and NaNs. As gemmhost/fp8.h. */
#if defined(GH_A_E4M3) || defined(GH_B_E4M3)
float gh_e4m3_to_f32(const uchar v)
{
    const uint e = (v >> 3) & 0xFu, m = v & 0x7u, sign = (uint)(v & 0x80u) << 24;
    if (e == 0) return as_float(sign | as_uint((float)m * 0x1.0p-9f));
    if (e == 0xFu && m == 0x7u) return as_float(sign | 0x7FC00000u);
    return as_float(sign | (e + 120u) << 23 | m << 20);
}
#endif
#if defined(GH_A_E5M2) || defined(GH_B_E5M2)
float gh_e5m2_to_f32(const uchar v)
{
    const uint e = (v >> 2) & 0x1Fu, m = v & 0x3u, sign = (uint)(v & 0x80u) << 24;
    if (e == 0) return as_float(sign | as_uint((float)m * 0x1.0p-16f));
    if (e == 0x1Fu) return as_float(sign | (m ? 0x7FC00000u : 0x7F800000u));
    return as_float(sign | (e + 112u) << 23 | m << 21);
}
#endif

#if defined(GH_A_E4M3)
#define A_T uchar
#define LOAD_A_ELEM(p, i) gh_e4m3_to_f32((p)[(i)])
#elif defined(GH_A_E5M2)
#define A_T uchar
#define LOAD_A_ELEM(p, i) gh_e5m2_to_f32((p)[(i)])
#elif defined(GH_A_I8)
#define A_T char
#define LOAD_A_ELEM(p, i) ((ACC_T)(p)[(i)])
#else
#define A_T STORE_T
#define LOAD_A_ELEM(p, i) LOAD(p, i)
#endif
#if defined(GH_B_E4M3)
#define B_T uchar
#define LOAD_B_ELEM(p, i) gh_e4m3_to_f32((p)[(i)])
#elif defined(GH_B_E5M2)
#define B_T uchar
#define LOAD_B_ELEM(p, i) gh_e5m2_to_f32((p)[(i)])
#elif defined(GH_B_I8)
#define B_T char
#define LOAD_B_ELEM(p, i) ((ACC_T)(p)[(i)])
#else
#define B_T STORE_T
#define LOAD_B_ELEM(p, i) LOAD(p, i)
#endif

/* cp.async through inline PTX, which only NVIDIA's OpenCL compiler takes
 * (mma, and warptile's NVIDIA programs; expanded nowhere else). */
/* The 32-bit .shared address PTX wants: OpenCL C 1.2 has no generic
 * address space, so a __local pointer's value already is one. */
#define SHARED_ADDRESS(p) ((uint)(ulong)(p))
/* cp.async of 16 (cg: L2 only), 8 or 4 bytes, of which the first `valid`
 * are read from src and the rest are zeros. */
#define COPY16(dst, src, valid)                                                              \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(SHARED_ADDRESS(dst)), \
                 "l"(src), "r"(valid)                                                        \
                 : "memory")
#define COPY8(dst, src, valid)                                                              \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(SHARED_ADDRESS(dst)), \
                 "l"(src), "r"(valid)                                                       \
                 : "memory")
#define COPY4(dst, src, valid)                                                              \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(SHARED_ADDRESS(dst)), \
                 "l"(src), "r"(valid)                                                       \
                 : "memory")
#define ASYNC_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
/* Wait for all but the newest n groups; n spelled in the text (no "n"
 * operand). */
#define ASYNC_TEXT(n)  #n
#define ASYNC_WAIT(n)  asm volatile("cp.async.wait_group " ASYNC_TEXT(n) ";" ::: "memory")

/* The arguments of every kernel, in the order the plugin sets them (gemm.c):
 * alpha and beta in the arithmetic's type (f32 for f16 and bf16). */
#define GEMM_ARGS                                                                                \
    const int M, const int N, const int K, const ACC_T alpha, const ACC_T beta,                  \
    __global const A_T *restrict A, const ulong a_offset, const int lda, const int trans_a,      \
    __global const B_T *restrict B, const ulong b_offset, const int ldb, const int trans_b,      \
    __global STORE_T *restrict C, const ulong c_offset, const int ldc

/* c = alpha * acc + beta * c, computed in ACC_T and rounded once to STORE_T.
 * With beta == 0, C is not read: the host fills C with NaN to catch elements
 * a kernel never writes, and 0 * NaN is NaN. */
void store_c(__global STORE_T *c, const ACC_T acc, const ACC_T alpha, const ACC_T beta)
{
    if (beta != (ACC_T)0)
        STORE(c, 0, alpha * acc + beta * LOAD(c, 0));
    else
        STORE(c, 0, alpha * acc);
}

/* Where an operand's tile starts at step 0, and how far a step of `depth`
 * along K moves it, in elements of the stored (row-major) matrix. `first` is
 * the tile's first row of op(A) or column of op(B); k_rows says the stored
 * rows run along K (op(A) transposed, op(B) not), so that `first` is a
 * stored column and a step moves depth rows; otherwise `first` is a stored
 * row and a step moves depth elements along it. */
long tile_origin(const int k_rows, const int first, const long ld)
{
    return k_rows ? first : (long)first * ld;
}

long tile_step(const int k_rows, const int depth, const long ld)
{
    return k_rows ? (long)depth * ld : depth;
}

/* The first row and column of C in this work-group's BM x BN block. The
 * blocks are numbered in groups of 8 block rows, down each column of the
 * group, so that work-groups running together share rows of A and columns
 * of B in L2. */
int2 block_origin(const int M, const int N, const int BM_, const int BN_)
{
    const int tiles_m = (M + BM_ - 1) / BM_, tiles_n = (N + BN_ - 1) / BN_;
    const int pid = (int)get_group_id(0), in_group = 8 * tiles_n;
    const int first_m = (pid / in_group) * 8, group_m = min(tiles_m - first_m, 8);
    return (int2)((first_m + (pid % in_group) % group_m) * BM_, ((pid % in_group) / group_m) * BN_);
}
