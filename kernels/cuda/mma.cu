/*
 * mma: warp-level tensor cores (mma.sync through inline PTX), sm_80 and newer.
 *
 * A thread block computes a BM x BN block of C, each of its warps a WM x WN
 * part of it as (WM / 16) x (WN / 8) tensor-core tiles of 16 x 8, summed in
 * f32 registers. f16 and bf16 multiply as stored (m16n8k16, f32
 * accumulate); f32 is rounded to TF32 (cvt.rna, to nearest) as its
 * fragments are loaded (m16n8k8), which the plugin declares. i8 x i8 ->
 * i32 (A_TYPE = B_TYPE = gh_i8, DTYPE int) multiplies as stored with s32
 * sums (m16n8k32.s8), exact.
 *
 * Along K, in steps of BK, tiles of op(A) and op(B) go through STAGES
 * buffers in dynamic shared memory, copied by cp.async (16-byte pieces when
 * A and B are 16-byte aligned with 16-byte rows: the VEC path; else single
 * elements: 4-byte cp.async for f32, plain loads and stores for the 16-bit
 * types, which cp.async cannot move alone). Pieces past the matrix's edges
 * are zero-filled, so any M, N, K is correct.
 *
 * Each tile is kept as it lies in global memory (its contiguous dimension
 * contiguous; every transpose pair copies without transposing), rows padded
 * so that the fragment reads are free of bank conflicts:
 *  - 16-bit: ldmatrix, .trans where the tile is M- or N-contiguous (it
 *    transposes each 8 x 8 piece as it loads); every row is padded by 16
 *    bytes, so the 8 rows an 8 x 8 read touches start in 8 different groups
 *    of 4 banks;
 *  - i8: K-contiguous tiles through the same ldmatrix (an 8 x 8 piece of
 *    16-bit elements is 8 rows of 16 bytes, and its lane layout is the s8
 *    fragment's: row lane / 4, bytes 4 (lane % 4) ..); M- or N-contiguous
 *    ones byte by byte, four bytes packed per register (ldmatrix cannot
 *    transpose bytes); rows padded by 16 bytes;
 *  - f32: one 4-byte read per element, lane (g, t) = (lane / 4, lane % 4)
 *    reading row g, column t of a K-contiguous tile (rows padded by 4: g * 4
 *    + t is 32 different banks), or row t, column g of an M/N-contiguous one
 *    (padded by 8: t * 8 + g).
 *
 * Defines: DTYPE (float, gh_f16, gh_bf16; or int with A_TYPE = B_TYPE =
 * gh_i8; gemm_common.cuh), BM, BN, BK, WM,
 * WN, STAGES. The plugin checks that they fit together and computes the same
 * shared memory size (plugins/cuda/kernels.c) before compiling.
 */
#include "gemm_common.cuh"

#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN) || !defined(STAGES)
#error "BM, BN, BK, WM, WN and STAGES must be defined"
#endif

#define WARPS_M (BM / WM)
#define WARPS_N (BN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define FM      (WM / 16) /* tensor-core tiles of a warp along M */
#define FN      (WN / 8)  /* and along N */

/* in_t: what A and B hold (C, elem_t, is int for i8). */
typedef a_t in_t;
#define TF32    (sizeof(in_t) == 4)
#define S8      (sizeof(in_t) == 1)
#define MMA_K   (TF32 ? 8 : S8 ? 32 : 16)
#define GV      ((int)(16 / sizeof(in_t))) /* elements in a 16-byte piece */
#define PAD_KC  (TF32 ? 4 : S8 ? 16 : 8)   /* row padding of a K-contiguous tile */
#define PAD_XC  (S8 ? 16 : 8)              /* and of an M- or N-contiguous one */

static_assert(sizeof(in_t) == 4 || sizeof(in_t) == 2 || sizeof(in_t) == 1,
              "mma takes f32 (as TF32), f16, bf16 and i8");
static_assert(sizeof(a_t) == sizeof(b_t), "A and B of one type");
static_assert(BK % MMA_K == 0, "BK a multiple of the tensor-core step (32 for i8)");
static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile must divide the block tile");
static_assert(WM % 16 == 0 && WN % 16 == 0, "a warp tile is whole 16 x 16 pieces");
static_assert(THREADS <= 1024, "over CUDA's 1024 threads per block");
static_assert(BK % 16 == 0 && STAGES >= 2, "BK a multiple of 16, at least two stages");

/* A tile as stored: R rows of L contiguous elements, each row padded. */
template <int R, int L, int PADDING> struct tile_shape {
    static const int ROWS = R;
    static const int LEN = L;
    static const int ROW = L + PADDING;
    static const int ELEMS = R * ROW;
};

static __device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* cp.async of BYTES (4 or 16) from src, the first `valid` read, the rest zeros. */
template <int BYTES> static __device__ __forceinline__ void copy_async(void *dst, const void *src, int valid)
{
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(src),
                     "r"(valid));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared_address(dst)), "l"(src),
                     "n"(BYTES), "r"(valid));
}
static __device__ __forceinline__ void async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> static __device__ __forceinline__ void async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

/* This thread's pieces of one tile: consecutive threads take consecutive
 * pieces of a row (coalesced). src is the tile's element (0, 0); rows at or
 * past r_left and elements at or past l_left are outside the matrix; `base`
 * is a valid address for a copy that reads nothing. */
template <typename S, bool VEC>
static __device__ __forceinline__ void copy_tile(in_t *dst, const in_t *__restrict__ src, const in_t *base,
                                                 long long ld, int r_left, int l_left, unsigned tid)
{
    const int P = VEC ? GV : 1;
    const int per_row = S::LEN / P, total = S::ROWS * per_row;
#pragma unroll
    for (int e = 0; e < (total + THREADS - 1) / THREADS; ++e) {
        const int c = (int)tid + e * THREADS;
        if (total % THREADS != 0 && c >= total) break;
        const int r = c / per_row, l = (c % per_row) * P;
        const int in_row = r < r_left ? min(max(l_left - l, 0), P) : 0;
        const in_t *from = in_row ? src + (long long)r * ld + l : base;
        in_t *to = dst + r * S::ROW + l;
        if (VEC) copy_async<16>(to, from, in_row * (int)sizeof(in_t));
        else if (TF32) copy_async<4>(to, from, in_row * 4);
        else if (in_row) *to = *from; /* 1 or 2 bytes: cp.async moves 4 at least */
        else if (S8) *reinterpret_cast<unsigned char *>(to) = 0;
        else *reinterpret_cast<unsigned short *>(to) = 0;
    }
}

/* ldmatrix: four 8 x 8 pieces of 16-bit elements, one row address per lane
 * (lanes 8j..8j+7 give piece j's rows); .trans transposes each piece. */
template <bool TRANS> static __device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], const void *p)
{
    if (TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(shared_address(p)));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(shared_address(p)));
}

static __device__ __forceinline__ unsigned to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
}

/* d += a * b on one 16 x 8 tile. */
template <typename T> struct mma_op;
template <> struct mma_op<gh_i8> {
    static __device__ __forceinline__ void run(int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
    {
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};\n"
                     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
};

/* Four bytes of an 8-bit tile along its rows (element i in byte i): the
 * fragment's k .. k + 3 of one m or n, from a tile stored [k][x]. */
static __device__ __forceinline__ unsigned pack4(const in_t *s, int row_stride, int k, int x)
{
    const unsigned char *p = reinterpret_cast<const unsigned char *>(s);
    return (unsigned)p[k * row_stride + x] | (unsigned)p[(k + 1) * row_stride + x] << 8 |
           (unsigned)p[(k + 2) * row_stride + x] << 16 | (unsigned)p[(k + 3) * row_stride + x] << 24;
}
template <> struct mma_op<gh_f16> {
    static __device__ __forceinline__ void run(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
    {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
};
template <> struct mma_op<gh_bf16> {
    static __device__ __forceinline__ void run(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
    {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
};
template <> struct mma_op<float> {
    static __device__ __forceinline__ void run(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
    {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    }
};

/* The A fragment (16 x MMA_K) at rows m0.., columns k0.. of op(A), from a
 * tile that is K-contiguous (s[m][k]) or M-contiguous (s[k][m], XC). */
template <bool XC, int ROW>
static __device__ __forceinline__ void load_a(unsigned (&a)[4], const in_t *s, int m0, int k0, int lane)
{
    if (S8 && XC) {
        /* register r: row g (+ 8 for odd r), k 4t .. 4t + 3 (+ 16 for r >= 2) */
        const int g = lane / 4, t = lane % 4;
#pragma unroll
        for (int r = 0; r < 4; ++r) a[r] = pack4(s, ROW, k0 + 4 * t + (r / 2) * 16, m0 + g + (r % 2) * 8);
    } else if (TF32) {
        const int g = lane / 4, t = lane % 4;
        const float *f = reinterpret_cast<const float *>(s);
#define AT(m, k) (XC ? f[(k0 + (k)) * ROW + m0 + (m)] : f[(m0 + (m)) * ROW + k0 + (k)])
        a[0] = to_tf32(AT(g, t));
        a[1] = to_tf32(AT(g + 8, t));
        a[2] = to_tf32(AT(g, t + 4));
        a[3] = to_tf32(AT(g + 8, t + 4));
#undef AT
    } else {
        const int j = lane / 8, r = lane % 8;
        if (XC) ldsm_x4<true>(a, s + (k0 + r + (j / 2) * 8) * ROW + m0 + (j % 2) * 8);
        else ldsm_x4<false>(a, s + (m0 + lane % 16) * ROW + k0 + (lane / 16) * GV);
    }
}

/* The B fragments of two 8-column tiles (n0.. and n0 + 8..), rows k0.. of
 * op(B): b[0], b[1] the first's, b[2], b[3] the second's. From a tile that
 * is N-contiguous (s[k][n], XC) or K-contiguous (s[n][k]). */
template <bool XC, int ROW>
static __device__ __forceinline__ void load_b(unsigned (&b)[4], const in_t *s, int n0, int k0, int lane)
{
    if (S8 && XC) {
        /* b[2j + h]: column g of 8-column tile j, k 4t .. 4t + 3 (+ 16 for h) */
        const int g = lane / 4, t = lane % 4;
#pragma unroll
        for (int r = 0; r < 4; ++r) b[r] = pack4(s, ROW, k0 + 4 * t + (r % 2) * 16, n0 + g + (r / 2) * 8);
    } else if (TF32) {
        const int g = lane / 4, t = lane % 4;
        const float *f = reinterpret_cast<const float *>(s);
#define BT(k, n) (XC ? f[(k0 + (k)) * ROW + n0 + (n)] : f[(n0 + (n)) * ROW + k0 + (k)])
        b[0] = to_tf32(BT(t, g));
        b[1] = to_tf32(BT(t + 4, g));
        b[2] = to_tf32(BT(t, g + 8));
        b[3] = to_tf32(BT(t + 4, g + 8));
#undef BT
    } else {
        const int j = lane / 8, r = lane % 8;
        if (XC) ldsm_x4<true>(b, s + (k0 + r + (j % 2) * 8) * ROW + n0 + (j / 2) * 8);
        else ldsm_x4<false>(b, s + (n0 + r + (j / 2) * 8) * ROW + k0 + (j % 2) * GV);
    }
}

template <bool TA, bool TB, bool VEC>
static __device__ __forceinline__ void mma_gemm(int M, int N, int K, acc_t alpha, const in_t *__restrict__ A,
                                                long long lda, const in_t *__restrict__ B, long long ldb,
                                                acc_t beta, elem_t *__restrict__ C, long long ldc, in_t *smem)
{
    /* x contiguous: op(A) with trans_a (s[k][m]), op(B) without trans_b (s[k][n]). */
    const bool A_XC = TA, B_XC = !TB;
    typedef tile_shape<TA ? BK : BM, TA ? BM : BK, TA ? PAD_XC : PAD_KC> a_shape;
    typedef tile_shape<TB ? BN : BK, TB ? BK : BN, TB ? PAD_KC : PAD_XC> b_shape;

    int row0, col0;
    block_origin(M, N, BM, BN, &row0, &col0);
    const int m_left = M - row0, n_left = N - col0;

    const unsigned tid = threadIdx.x;
    const int warp = (int)(tid / 32), lane = (int)(tid % 32);
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;

    const in_t *a_src = TA ? A + row0 : A + (long long)row0 * lda;
    const long long a_step = TA ? (long long)BK * lda : (long long)BK;
    const in_t *b_src = TB ? B + (long long)col0 * ldb : B + col0;
    const long long b_step = TB ? (long long)BK : (long long)BK * ldb;
    in_t *as = smem, *bs = smem + STAGES * a_shape::ELEMS;

    const int steps = (K + BK - 1) / BK;
#define COPY_STEP(step)                                                                                       \
    do {                                                                                                      \
        const int kl_ = K - (step) * BK, st_ = (step) % STAGES;                                               \
        copy_tile<a_shape, VEC>(as + st_ * a_shape::ELEMS, a_src + (step) * a_step, A, lda, TA ? kl_ : m_left, \
                                TA ? m_left : kl_, tid);                                                      \
        copy_tile<b_shape, VEC>(bs + st_ * b_shape::ELEMS, b_src + (step) * b_step, B, ldb, TB ? n_left : kl_, \
                                TB ? kl_ : n_left, tid);                                                      \
    } while (0)

    acc_t acc[FM][FN][4];
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = (acc_t)0;

    /* A group per step, empty or not, so "all but the newest STAGES - 2
     * groups" is always "up to the step about to be multiplied". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < steps) COPY_STEP(s);
        async_commit();
    }
    for (int s = 0; s < steps; ++s) {
        async_wait<STAGES - 2>();
        /* Step s is in shared memory, and every warp is done with step
         * s - 1, whose stage the next copies overwrite. */
        __syncthreads();
        if (s + STAGES - 1 < steps) COPY_STEP(s + STAGES - 1);
        async_commit();

        const in_t *a_st = as + (s % STAGES) * a_shape::ELEMS, *b_st = bs + (s % STAGES) * b_shape::ELEMS;
#pragma unroll
        for (int k0 = 0; k0 < BK; k0 += MMA_K) {
            unsigned af[FM][4], bf[FN / 2][4];
#pragma unroll
            for (int i = 0; i < FM; ++i) load_a<A_XC, a_shape::ROW>(af[i], a_st, wm0 + i * 16, k0, lane);
#pragma unroll
            for (int j = 0; j < FN / 2; ++j) load_b<B_XC, b_shape::ROW>(bf[j], b_st, wn0 + j * 16, k0, lane);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j)
                    mma_op<in_t>::run(acc[i][j], af[i], bf[j / 2][(j % 2) * 2], bf[j / 2][(j % 2) * 2 + 1]);
        }
    }
#undef COPY_STEP
    async_wait<0>();

    /* Accumulator e of tile (i, j): row g (+ 8 for e >= 2), column 2t + e % 2. */
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int e2 = 0; e2 < 2; ++e2) {
            const int r = wm0 + i * 16 + g + e2 * 8;
            if (r >= m_left) continue;
            elem_t *c_row = C + (long long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < FN; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int c = wn0 + j * 8 + 2 * t + e;
                    if (c < n_left) gemm_store(&c_row[c], alpha, acc[i][j][e2 * 2 + e], beta);
                }
        }
}

/* One kernel per transpose pair and copy path, as warptile.cu's. */
#define GEMM_MMA(NAME, TA, TB, VEC)                                                                            \
    extern "C" __global__ void __launch_bounds__(THREADS)                                                      \
    NAME(int M, int N, int K, int trans_a, int trans_b, acc_t alpha, const in_t *__restrict__ A, long long lda,   \
         const in_t *__restrict__ B, long long ldb, acc_t beta, elem_t *__restrict__ C, long long ldc)           \
    {                                                                                                          \
        extern __shared__ __align__(16) unsigned char mma_smem[];                                              \
        (void)trans_a;                                                                                         \
        (void)trans_b;                                                                                         \
        mma_gemm<TA, TB, VEC>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, reinterpret_cast<in_t *>(mma_smem)); \
    }

GEMM_MMA(gemm_mma_nn, false, false, false)
GEMM_MMA(gemm_mma_nt, false, true, false)
GEMM_MMA(gemm_mma_tn, true, false, false)
GEMM_MMA(gemm_mma_tt, true, true, false)
GEMM_MMA(gemm_mma_nn_vec, false, false, true)
GEMM_MMA(gemm_mma_nt_vec, false, true, true)
GEMM_MMA(gemm_mma_tn_vec, true, false, true)
GEMM_MMA(gemm_mma_tt_vec, true, true, true)
