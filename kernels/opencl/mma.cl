/*
 * mma: tensor cores from OpenCL C through inline PTX, which only NVIDIA's
 * OpenCL compiler accepts; the plugin offers it on NVIDIA devices of compute
 * capability 8.0 and newer and refuses it elsewhere, saying why. It follows
 * kernels/cuda/mma.cu, instruction for instruction.
 *
 * A work-group of (BM / WM) * (BN / WN) warps of 32 work-items computes a BM
 * x BN block of C; each warp a WM x WN part of it as (WM / 16) x (WN / 8)
 * tensor-core tiles of 16 x 8, summed in f32 registers. f16 and bf16
 * multiply as stored (mma.sync m16n8k16); f32 is rounded to TF32 to nearest
 * (cvt.rna) as its fragments load (m16n8k8), which the plugin declares.
 * i8 x i8 -> i32 (-DGH_A_I8 -DGH_B_I8, C int) multiplies as stored with s32
 * sums (m16n8k32.s8), exact; alpha and beta are ints (common.cl's store_c).
 *
 * Along K, in steps of BK, tiles of op(A) and op(B) go through STAGES
 * buffers in local memory, copied by cp.async straight from global memory
 * (no registers): 16-byte pieces when A and B start 16-byte aligned and
 * their rows are whole 16 bytes (the VEC path; pieces wholly past an edge
 * are zero-filled by a source size of 0, pieces cut by it read only their
 * inside part), else single elements (4-byte cp.async for f32, plain loads
 * and stores for the 16-bit types and bytes, which cp.async cannot move
 * alone).
 * Each step's copies are one commit group; waiting for all but the newest
 * STAGES - 2 groups, then one barrier, makes step s readable.
 *
 * Each tile is kept as it lies in global memory (its contiguous dimension
 * contiguous: no transposing copies), rows padded so that fragment reads are
 * free of bank conflicts:
 *  - 16-bit: ldmatrix.x4, .trans where the tile is M- or N-contiguous; rows
 *    padded by 16 bytes, so the 8 rows of an 8 x 8 read start in 8
 *    different groups of 4 banks;
 *  - i8: K-contiguous tiles through the same ldmatrix (an 8 x 8 piece of
 *    16-bit elements is 8 rows of 16 bytes, and its lane layout is the s8
 *    fragment's: row lane / 4, bytes 4 (lane % 4) ..); M- or N-contiguous
 *    ones byte by byte, four bytes packed per register (ldmatrix cannot
 *    transpose bytes), so nt is i8's fast layout; rows padded by 16 bytes;
 *  - f32: one 4-byte read per element, lane (g, t) = (lane / 4, lane % 4)
 *    reading row g, column t of a K-contiguous tile (rows padded by 4) or
 *    row t, column g of an M/N-contiguous one (padded by 8).
 *
 * The plugin builds one program per transpose pair and copy path
 * (MMA_PATH), so each holds one body whose registers are allocated alone:
 * one kernel branching into all eight spills (ptxas, sm_90).
 *
 * Defines (besides common.cl's): BM, BN (64, 128, 256), BK (16, 32; 32 for
 * i8), WM, WN (32, 64), STAGES (2-4), MMA_PATH (1-8, below). The plugin
 * computes the same local memory size (MMA_LOCAL_BYTES below;
 * plugins/opencl/mma.c), takes BK 16 where 32 does not fit (not for i8) and
 * refuses a variant the device's local memory cannot hold (NVIDIA's: 48
 * KB). Any M, N, K, transposes, alpha/beta, ld and offsets.
 */
#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN) || !defined(STAGES) || \
    !defined(MMA_PATH)
#error "BM, BN, BK, WM, WN, STAGES and MMA_PATH must be defined"
#endif
/* MMA_PATH - 1: bit 0 trans_a, bit 1 trans_b, bit 2 the 16-byte copy path. */
#define MMA_TA  (((MMA_PATH - 1) & 1) != 0)
#define MMA_TB  (((MMA_PATH - 1) & 2) != 0)
#define MMA_VEC (((MMA_PATH - 1) & 4) != 0)

#define WARPS_M (BM / WM)
#define WARPS_N (BN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define FM      (WM / 16) /* tensor-core tiles of a warp along M */
#define FN      (WN / 8)  /* and along N */

#if defined(GH_A_I8) != defined(GH_B_I8) || defined(GH_A_E4M3) || defined(GH_A_E5M2) || defined(GH_B_E4M3) || \
    defined(GH_B_E5M2)
#error "mma takes 8-bit inputs as i8 x i8 only"
#endif
#if defined(GH_A_I8)
#define TF32 0
#define S8   1
typedef uchar raw_t; /* an element's bits as stored */
typedef int acc_t;   /* the sums: s32 */
#define ACC_OUT "+r" /* their asm constraint */
#elif defined(GH_STORE_F16) || defined(GH_STORE_BF16)
#define TF32 0
#define S8   0
typedef ushort raw_t;
typedef float acc_t;
#define ACC_OUT "+f"
#else
#define TF32 1
#define S8   0
typedef uint raw_t;
typedef float acc_t;
#define ACC_OUT "+f"
#endif
#define ES     ((int)sizeof(raw_t))
#define MMA_K  (TF32 ? 8 : S8 ? 32 : 16)
#define GV     (16 / ES)                 /* elements in a 16-byte piece */
#define PAD_KC (TF32 ? 4 : S8 ? 16 : 8)  /* row padding of a K-contiguous tile */
#define PAD_XC (S8 ? 16 : 8)             /* and of an M- or N-contiguous one */

/* A tile as stored: ROWS rows of LEN contiguous elements, each row ROW long.
 * op(A) is M-contiguous (s[k][m]) with trans_a, op(B) N-contiguous (s[k][n])
 * without trans_b. */
#define A_ROWS(ta) ((ta) ? BK : BM)
#define A_LEN(ta)  ((ta) ? BM : BK)
#define A_ROW(ta)  (A_LEN(ta) + ((ta) ? PAD_XC : PAD_KC))
#define B_ROWS(tb) ((tb) ? BN : BK)
#define B_LEN(tb)  ((tb) ? BK : BN)
#define B_ROW(tb)  (B_LEN(tb) + ((tb) ? PAD_KC : PAD_XC))
/* A stage holds either layout: the larger of the two, in whole 16 bytes. */
#define MAX2(a, b)   ((a) > (b) ? (a) : (b))
#define A_STAGE      MAX2(A_ROWS(0) * A_ROW(0), A_ROWS(1) * A_ROW(1))
#define B_STAGE      MAX2(B_ROWS(0) * B_ROW(0), B_ROWS(1) * B_ROW(1))
#define MMA_LOCAL_BYTES (STAGES * (A_STAGE + B_STAGE) * ES)

#if BK % 16 != 0 || STAGES < 2 || BM % WM != 0 || BN % WN != 0 || WM % 16 != 0 || WN % 16 != 0
#error "BK a multiple of 16, at least two stages, warp tiles of whole 16 x 16 dividing the block"
#endif
#if BK % MMA_K != 0
#error "BK a multiple of the tensor-core step (32 for i8: m16n8k32)"
#endif

/* cp.async: COPY16, COPY4, ASYNC_COMMIT and ASYNC_WAIT (common.cl). The
 * steady state waits for all but the newest STAGES - 2 groups. */
#define ASYNC_WAIT_X(n) ASYNC_WAIT(n)
#define ASYNC_WAIT_KEEP() ASYNC_WAIT_X(WAIT_KEEP)
#if STAGES == 2
#define WAIT_KEEP 0
#elif STAGES == 3
#define WAIT_KEEP 1
#elif STAGES == 4
#define WAIT_KEEP 2
#else
#error "STAGES must be 2, 3 or 4"
#endif

/* This work-item's pieces of one tile: consecutive work-items take
 * consecutive pieces of a row (coalesced). src is the tile's element (0, 0);
 * rows at or past r_left and elements at or past l_left are outside the
 * matrix; `base` is a valid address for a copy that reads nothing. */
inline __attribute__((always_inline)) void copy_tile(__local raw_t *dst, __global const raw_t *src,
                                                     __global const raw_t *base, const long ld, const int r_left,
                                                     const int l_left, const int rows, const int len,
                                                     const int row, const int vec, const int tid)
{
    const int p = vec ? GV : 1;
    const int per_row = len / p, total = rows * per_row;
    /* Four at a time: the element path's 32 or more copies a tile, all in
     * flight at once, would spill (16-byte paths have 4 or fewer). */
#pragma unroll 4
    for (int e = 0; e < (total + THREADS - 1) / THREADS; ++e) {
        const int c = tid + e * THREADS;
        if (total % THREADS != 0 && c >= total) break;
        const int r = c / per_row, l = (c % per_row) * p;
        const int in_row = r < r_left ? min(max(l_left - l, 0), p) : 0;
        __global const raw_t *from = in_row ? src + r * ld + l : base;
        __local raw_t *to = dst + r * row + l;
        if (vec) COPY16(to, from, in_row * ES);
        else if (TF32) COPY4(to, from, in_row * 4);
        else *to = in_row ? *from : (raw_t)0; /* 1 or 2 bytes: cp.async moves 4 at least */
    }
}

/* ldmatrix: four 8 x 8 pieces of 16-bit elements, one row address per lane
 * (lanes 8j..8j+7 give piece j's rows); .trans transposes each piece. */
#define LDSM_X4(r, p, trans)                                                                                    \
    do {                                                                                                        \
        if (trans)                                                                                              \
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"               \
                         : "=r"((r)[0]), "=r"((r)[1]), "=r"((r)[2]), "=r"((r)[3])                               \
                         : "r"(SHARED_ADDRESS(p))                                                               \
                         : "memory");                                                                           \
        else                                                                                                    \
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"                     \
                         : "=r"((r)[0]), "=r"((r)[1]), "=r"((r)[2]), "=r"((r)[3])                               \
                         : "r"(SHARED_ADDRESS(p))                                                               \
                         : "memory");                                                                           \
    } while (0)

inline __attribute__((always_inline)) uint to_tf32(const uint bits)
{
    uint r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(as_float(bits)));
    return r;
}

/* Four bytes of an 8-bit tile stored [k][x] (M- or N-contiguous), element
 * i in byte i: the fragment's k .. k + 3 of one m or n. */
inline __attribute__((always_inline)) uint pack4(__local const raw_t *s, const int row, const int k, const int x)
{
    return (uint)s[k * row + x] | (uint)s[(k + 1) * row + x] << 8 | (uint)s[(k + 2) * row + x] << 16 |
           (uint)s[(k + 3) * row + x] << 24;
}

/* D += A * B on one 16 x 8 tile: D an array of 4 acc_t (a macro, so that
 * the accumulators stay in registers). */
#if S8
#define MMA_SHAPE "m16n8k32.row.col.s32.s8.s8.s32"
#elif defined(GH_STORE_F16)
#define MMA_SHAPE "m16n8k16.row.col.f32.f16.f16.f32"
#elif defined(GH_STORE_BF16)
#define MMA_SHAPE "m16n8k16.row.col.f32.bf16.bf16.f32"
#else
#define MMA_SHAPE "m16n8k8.row.col.f32.tf32.tf32.f32"
#endif
#define MMA_TILE(D, A, B0, B1)                                                                                  \
    asm volatile("mma.sync.aligned." MMA_SHAPE " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"         \
                 : ACC_OUT((D)[0]), ACC_OUT((D)[1]), ACC_OUT((D)[2]), ACC_OUT((D)[3])                           \
                 : "r"((A)[0]), "r"((A)[1]), "r"((A)[2]), "r"((A)[3]), "r"(B0), "r"(B1))

/* The A fragment (16 x MMA_K) at rows m0.., columns k0.. of op(A), from a
 * tile that is K-contiguous (s[m][k]) or M-contiguous (s[k][m], xc). */
#define LOAD_A(a, s, m0, k0, xc, row)                                                                          \
    do {                                                                                                        \
        if (S8 && (xc)) {                                                                                       \
            /* register r: row g (+ 8 for odd r), k 4t .. 4t + 3 (+ 16 for r >= 2) */                           \
            const int g_ = lane / 4, t_ = lane % 4;                                                             \
            for (int r_ = 0; r_ < 4; ++r_)                                                                      \
                (a)[r_] = pack4((s), (row), (k0) + 4 * t_ + (r_ / 2) * 16, (m0) + g_ + (r_ % 2) * 8);           \
        } else if (TF32) {                                                                                      \
            __local const raw_t *f_ = (s);                                                                      \
            const int g_ = lane / 4, t_ = lane % 4;                                                             \
            (a)[0] = to_tf32((xc) ? f_[((k0) + t_) * (row) + (m0) + g_] : f_[((m0) + g_) * (row) + (k0) + t_]);  \
            (a)[1] = to_tf32((xc) ? f_[((k0) + t_) * (row) + (m0) + g_ + 8]                                     \
                                  : f_[((m0) + g_ + 8) * (row) + (k0) + t_]);                                   \
            (a)[2] = to_tf32((xc) ? f_[((k0) + t_ + 4) * (row) + (m0) + g_]                                     \
                                  : f_[((m0) + g_) * (row) + (k0) + t_ + 4]);                                   \
            (a)[3] = to_tf32((xc) ? f_[((k0) + t_ + 4) * (row) + (m0) + g_ + 8]                                 \
                                  : f_[((m0) + g_ + 8) * (row) + (k0) + t_ + 4]);                               \
        } else {                                                                                                \
            const int j_ = lane / 8, r_ = lane % 8;                                                             \
            if (xc) LDSM_X4(a, (s) + ((k0) + r_ + (j_ / 2) * 8) * (row) + (m0) + (j_ % 2) * 8, 1);              \
            else LDSM_X4(a, (s) + ((m0) + lane % 16) * (row) + (k0) + (lane / 16) * GV, 0);                     \
        }                                                                                                       \
    } while (0)

/* The B fragments of two 8-column tiles (n0.. and n0 + 8..), rows k0.. of
 * op(B): b[0], b[1] the first's, b[2], b[3] the second's. From a tile that is
 * N-contiguous (s[k][n], xc) or K-contiguous (s[n][k]). */
#define LOAD_B(b, s, n0, k0, xc, row)                                                                          \
    do {                                                                                                        \
        if (S8 && (xc)) {                                                                                       \
            /* b[2j + h]: column g of 8-column tile j, k 4t .. 4t + 3 (+ 16 for h) */                           \
            const int g_ = lane / 4, t_ = lane % 4;                                                             \
            for (int r_ = 0; r_ < 4; ++r_)                                                                      \
                (b)[r_] = pack4((s), (row), (k0) + 4 * t_ + (r_ % 2) * 16, (n0) + g_ + (r_ / 2) * 8);           \
        } else if (TF32) {                                                                                      \
            __local const raw_t *f_ = (s);                                                                      \
            const int g_ = lane / 4, t_ = lane % 4;                                                             \
            (b)[0] = to_tf32((xc) ? f_[((k0) + t_) * (row) + (n0) + g_] : f_[((n0) + g_) * (row) + (k0) + t_]);  \
            (b)[1] = to_tf32((xc) ? f_[((k0) + t_ + 4) * (row) + (n0) + g_]                                     \
                                  : f_[((n0) + g_) * (row) + (k0) + t_ + 4]);                                   \
            (b)[2] = to_tf32((xc) ? f_[((k0) + t_) * (row) + (n0) + g_ + 8]                                     \
                                  : f_[((n0) + g_ + 8) * (row) + (k0) + t_]);                                   \
            (b)[3] = to_tf32((xc) ? f_[((k0) + t_ + 4) * (row) + (n0) + g_ + 8]                                 \
                                  : f_[((n0) + g_ + 8) * (row) + (k0) + t_ + 4]);                               \
        } else {                                                                                                \
            const int j_ = lane / 8, r_ = lane % 8;                                                             \
            if (xc) LDSM_X4(b, (s) + ((k0) + r_ + (j_ % 2) * 8) * (row) + (n0) + (j_ / 2) * 8, 1);              \
            else LDSM_X4(b, (s) + ((n0) + r_ + (j_ / 2) * 8) * (row) + (k0) + (j_ % 2) * GV, 0);                \
        }                                                                                                       \
    } while (0)

/* The whole GEMM of one work-group, for one transpose pair and copy path
 * (constants where it is called, so every shape folds). */
inline __attribute__((always_inline)) void mma_gemm(const int M, const int N, const int K, const ACC_T alpha,
                                                    const ACC_T beta, __global const raw_t *A, const long lda,
                                                    __global const raw_t *B, const long ldb,
                                                    __global STORE_T *C, const long ldc, __local raw_t *smem,
                                                    const int ta, const int tb, const int vec)
{
    const int a_xc = ta, b_xc = !tb;
    const int a_rows = A_ROWS(ta), a_len = A_LEN(ta), a_row = A_ROW(ta);
    const int b_rows = B_ROWS(tb), b_len = B_LEN(tb), b_row = B_ROW(tb);

    const int2 origin = block_origin(M, N, BM, BN);
    const int row0 = origin.x, col0 = origin.y;
    const int m_left = M - row0, n_left = N - col0;

    const int tid = (int)get_local_id(0), warp = tid / 32, lane = tid % 32;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;

    __global const raw_t *a_src = A + tile_origin(ta, row0, lda);
    const long a_step = tile_step(ta, BK, lda);
    __global const raw_t *b_src = B + tile_origin(!tb, col0, ldb);
    const long b_step = tile_step(!tb, BK, ldb);
    __local raw_t *as = smem, *bs = smem + STAGES * A_STAGE;

    const int steps = (K + BK - 1) / BK;
#define COPY_STEP(step)                                                                                       \
    do {                                                                                                      \
        const int kl_ = K - (step) * BK, st_ = (step) % STAGES;                                               \
        copy_tile(as + st_ * A_STAGE, a_src + (step) * a_step, A, lda, ta ? kl_ : m_left, ta ? m_left : kl_,  \
                  a_rows, a_len, a_row, vec, tid);                                                            \
        copy_tile(bs + st_ * B_STAGE, b_src + (step) * b_step, B, ldb, tb ? n_left : kl_, tb ? kl_ : n_left,  \
                  b_rows, b_len, b_row, vec, tid);                                                            \
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
        ASYNC_COMMIT();
    }
    for (int s = 0; s < steps; ++s) {
        ASYNC_WAIT_KEEP();
        /* Step s is in local memory, and every warp is done with step
         * s - 1, whose stage the next copies overwrite. */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (s + STAGES - 1 < steps) COPY_STEP(s + STAGES - 1);
        ASYNC_COMMIT();

        __local const raw_t *a_st = as + (s % STAGES) * A_STAGE, *b_st = bs + (s % STAGES) * B_STAGE;
#pragma unroll
        for (int k0 = 0; k0 < BK; k0 += MMA_K) {
            uint af[FM][4], bf[FN / 2][4];
#pragma unroll
            for (int i = 0; i < FM; ++i) LOAD_A(af[i], a_st, wm0 + i * 16, k0, a_xc, a_row);
#pragma unroll
            for (int j = 0; j < FN / 2; ++j) LOAD_B(bf[j], b_st, wn0 + j * 16, k0, b_xc, b_row);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j)
                    MMA_TILE(acc[i][j], af[i], bf[j / 2][(j % 2) * 2], bf[j / 2][(j % 2) * 2 + 1]);
        }
    }
#undef COPY_STEP
    ASYNC_WAIT(0);

    /* Accumulator e of tile (i, j): row g (+ 8 for e >= 2), column 2t + e % 2. */
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int e2 = 0; e2 < 2; ++e2) {
            const int r = wm0 + i * 16 + g + e2 * 8;
            if (r >= m_left) continue;
            __global STORE_T *c_row = C + (long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < FN; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int c = wn0 + j * 8 + 2 * t + e;
                    if (c < n_left) store_c(c_row + c, acc[i][j][e2 * 2 + e], alpha, beta);
                }
        }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void gemm_mma(GEMM_ARGS)
{
    __local uint4 smem_words[(MMA_LOCAL_BYTES + 15) / 16];
    __global const raw_t *a = (__global const raw_t *)A + a_offset;
    __global const raw_t *b = (__global const raw_t *)B + b_offset;
    /* The plugin builds the path for the call's transposes and alignment;
     * should they differ, C is left unwritten (as NaNs, which verification
     * catches) rather than computed wrongly. */
    const int vec = ((ulong)a & 15) == 0 && ((ulong)b & 15) == 0 && ((long)lda * ES) % 16 == 0 &&
                    ((long)ldb * ES) % 16 == 0;
    /* MMA_VEC > vec, not MMA_VEC && !vec: a constant beside && or || is a
     * warning in clang, and so in NVIDIA's compiler. */
    if ((trans_a != 0) != MMA_TA || (trans_b != 0) != MMA_TB || MMA_VEC > vec) return;
    mma_gemm(M, N, K, alpha, beta, a, lda, b, ldb, C + c_offset, ldc, (__local raw_t *)smem_words, MMA_TA, MMA_TB,
             MMA_VEC);
}
