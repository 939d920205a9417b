/*
 * mma: tensor cores from OpenCL C through inline PTX (mma.sync), which only
 * NVIDIA's OpenCL compiler accepts; the plugin offers it on NVIDIA devices
 * of compute capability 8.0 and newer and refuses it elsewhere, saying why.
 *
 * A work-group of (BM / WM) * (BN / WN) warps of 32 work-items computes a BM
 * x BN block of C; each warp a WM x WN part of it as (WM / 16) x (WN / 8)
 * tensor-core tiles of 16 x 8, summed in f32 registers. f16 and bf16
 * multiply as stored (m16n8k16); f32 is rounded to TF32 to nearest
 * (cvt.rna) as its fragments load (m16n8k8), which the plugin declares.
 *
 * Along K, in steps of BK, the next step's tiles of op(A) and op(B) are
 * loaded into registers while the current step multiplies (16 bytes at a
 * time along whichever dimension is contiguous in global memory, element
 * by element where a piece crosses an edge; zeros past the edges), then
 * stored into the other of two local-memory buffers, one barrier per step. In local memory both tiles are K-contiguous, whatever
 * the transposes (a[m][k], b[n][k]), so a fragment's pair of 16-bit
 * elements is one 32-bit read; rows are padded (8 elements of 16 bits, 4 of
 * f32) so that the 32 lanes (g, t) = (lane / 4, lane % 4) reading row g,
 * word t hit 32 different banks.
 *
 * Defines (besides common.cl's): BM, BN (64, 128), BK (16, 32), WM, WN (32,
 * 64). Any M, N, K, transposes, alpha/beta, ld and offsets.
 */
#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN)
#error "BM, BN, BK, WM and WN must be defined"
#endif

#define WARPS_N (BN / WN)
#define THREADS ((BM / WM) * WARPS_N * 32)
#define FM      (WM / 16) /* tensor-core tiles of a warp along M */
#define FN      (WN / 8)  /* and along N */
#define GROUP_M 8

#if defined(GH_STORE_F16) || defined(GH_STORE_BF16)
#define BITS16 1
#define PAD    8
#define MMA_K  16
#else
#define BITS16 0
#define PAD    4
#define MMA_K  8
#endif
#define LDT     (BK + PAD) /* a local tile's row: BK elements of K, padded */
#define A_ELEMS (BM * BK)
#define B_ELEMS (BN * BK)
/* Global memory is read in pieces of 16 bytes along the contiguous
 * dimension (vloadn needs only the element's alignment). */
#define V       (BITS16 ? 8 : 4)
#define A_EACH  ((A_ELEMS / V + THREADS - 1) / THREADS) /* pieces a work-item moves */
#define B_EACH  ((B_ELEMS / V + THREADS - 1) / THREADS)

/* An element's bits as stored: 16 of them for f16 and bf16, f32's 32;
 * WORDS: 32-bit words of that many. */
#if BITS16
typedef ushort raw_t;
#define WORDS(elems) ((elems) / 2)
#else
typedef uint raw_t;
#define WORDS(elems) (elems)
#endif

/* D += A * B on one 16 x 8 tile: D an array of 4 floats (a macro, not a
 * function, so that the accumulators stay in registers). */
#if defined(GH_STORE_F16)
#define MMA_SHAPE "m16n8k16.row.col.f32.f16.f16.f32"
#elif defined(GH_STORE_BF16)
#define MMA_SHAPE "m16n8k16.row.col.f32.bf16.bf16.f32"
#else
#define MMA_SHAPE "m16n8k8.row.col.f32.tf32.tf32.f32"
#endif
#define MMA_TILE(D, A0, A1, A2, A3, B0, B1)                                                             \
    asm volatile("mma.sync.aligned." MMA_SHAPE " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
                 : "+f"((D)[0]), "+f"((D)[1]), "+f"((D)[2]), "+f"((D)[3])                               \
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1))

#if BITS16
#define VLOAD        vload8
#define VSTORE       vstore8
#define AS_RAW(x)    as_ushort8(x)
#define AS_PIECE(x)  as_uint4(x)
#else
#define VLOAD        vload4
#define VSTORE       vstore4
#define AS_RAW(x)    (x)
#define AS_PIECE(x)  (x)
#endif

/* A piece of V elements (16 bytes), packed in four 32-bit registers, from
 * element `at` on, of which the first `left` lie inside the matrix (the
 * rest, and all when left <= 0, are zeros): one 16-byte load where the
 * piece is whole and aligned, else element by element. */
uint4 load_piece(__global const STORE_T *p, const long at, const int left)
{
    __global const raw_t *from = (__global const raw_t *)p + at;
    if (left >= V && ((ulong)from & 15) == 0) return *(__global const uint4 *)from;
    if (left >= V) return AS_PIECE(VLOAD(0, from));
    raw_t e[V];
#pragma unroll
    for (int v = 0; v < V; ++v) e[v] = v < left ? from[v] : (raw_t)0;
    return AS_PIECE(VLOAD(0, e));
}

/* A piece into a K-contiguous local tile at (r, p): along k in one 16-byte
 * store (rows and p keep it aligned), or along r (M or N contiguous in
 * global memory) element by element. */
void store_piece(__local raw_t *tile, const uint4 piece, const int r, const int p, const int along_r)
{
    if (along_r) {
        raw_t e[V];
        VSTORE(AS_RAW(piece), 0, e);
#pragma unroll
        for (int v = 0; v < V; ++v) tile[(r + v) * LDT + p] = e[v];
    } else {
        *(__local uint4 *)(tile + r * LDT + p) = piece;
    }
}

#if !BITS16
uint to_tf32(const uint bits)
{
    uint r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(as_float(bits)));
    return r;
}
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void gemm_mma(GEMM_ARGS)
{
    /* Two buffers of each tile, in 16-byte units (so that a piece is one
     * aligned store; a tile's rows are whole 16 bytes). */
    __local uint4 a_words[2][WORDS(BM * LDT) / 4];
    __local uint4 b_words[2][WORDS(BN * LDT) / 4];

    /* This work-group's block: groups of GROUP_M block rows, numbered down
     * each column of the group, so work-groups running together share A
     * and B in L2. */
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const int pid = (int)get_group_id(0), in_group = GROUP_M * tiles_n;
    const int first_m = (pid / in_group) * GROUP_M, group_m = min(tiles_m - first_m, GROUP_M);
    const int row0 = (first_m + (pid % in_group) % group_m) * BM, col0 = ((pid % in_group) / group_m) * BN;
    const int tid = (int)get_local_id(0), warp = tid / 32, lane = tid % 32;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
    const int g = lane / 4, t = lane % 4;
    A += a_offset;
    B += b_offset;
    C += c_offset;

    uint4 ra[A_EACH], rb[B_EACH];
    float acc[FM][FN][4];
    #pragma unroll
    for (int i = 0; i < FM; ++i)
        #pragma unroll
        for (int j = 0; j < FN; ++j)
            #pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

    /* Piece c of a tile starts at element c * V, counted along the
     * dimension contiguous in global memory: (r, p) = (row along M or N, k). */
#define A_PLACE(c, r, p)                   \
    if (trans_a) {                         \
        p = (c) * V / BM;                  \
        r = (c) * V % BM;                  \
    } else {                               \
        r = (c) * V / BK;                  \
        p = (c) * V % BK;                  \
    }
#define B_PLACE(c, r, p)                   \
    if (trans_b) {                         \
        r = (c) * V / BK;                  \
        p = (c) * V % BK;                  \
    } else {                               \
        p = (c) * V / BN;                  \
        r = (c) * V % BN;                  \
    }
    /* The step at k0 into registers. */
#define LOAD_STEP(k0)                                                                                          \
    _Pragma("unroll")                                                                                          \
    for (int e = 0; e < A_EACH; ++e) {                                                                         \
        const int c = tid + e * THREADS;                                                                       \
        int r = 0, p = 0;                                                                                      \
        A_PLACE(c, r, p)                                                                                       \
        const int gi = row0 + r, gk = (k0) + p;                                                                \
        const int left = c >= A_ELEMS / V ? 0                                                                  \
                         : trans_a        ? (gk < K ? M - gi : 0)                                              \
                                          : (gi < M ? K - gk : 0);                                             \
        ra[e] = load_piece(A, trans_a ? (long)gk * lda + gi : (long)gi * lda + gk, left);                       \
    }                                                                                                          \
    _Pragma("unroll")                                                                                          \
    for (int e = 0; e < B_EACH; ++e) {                                                                         \
        const int c = tid + e * THREADS;                                                                       \
        int r = 0, p = 0;                                                                                      \
        B_PLACE(c, r, p)                                                                                       \
        const int gj = col0 + r, gk = (k0) + p;                                                                \
        const int left = c >= B_ELEMS / V ? 0                                                                  \
                         : trans_b        ? (gj < N ? K - gk : 0)                                              \
                                          : (gk < K ? N - gj : 0);                                             \
        rb[e] = load_piece(B, trans_b ? (long)gj * ldb + gk : (long)gk * ldb + gj, left);                       \
    }
    /* The registers into buffer `buf`, K-contiguous. */
#define STORE_STEP(buf)                                                                                        \
    _Pragma("unroll")                                                                                          \
    for (int e = 0; e < A_EACH; ++e) {                                                                         \
        const int c = tid + e * THREADS;                                                                       \
        int r = 0, p = 0;                                                                                      \
        A_PLACE(c, r, p)                                                                                       \
        if (c < A_ELEMS / V) store_piece((__local raw_t *)a_words[buf], ra[e], r, p, trans_a);                  \
    }                                                                                                          \
    _Pragma("unroll")                                                                                          \
    for (int e = 0; e < B_EACH; ++e) {                                                                         \
        const int c = tid + e * THREADS;                                                                       \
        int r = 0, p = 0;                                                                                      \
        B_PLACE(c, r, p)                                                                                       \
        if (c < B_ELEMS / V) store_piece((__local raw_t *)b_words[buf], rb[e], r, p, !trans_b);                 \
    }

    LOAD_STEP(0)
    STORE_STEP(0)
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k0 = 0, buf = 0; k0 < K; k0 += BK, buf ^= 1) {
        const int more = k0 + BK < K;
        if (more) {
            LOAD_STEP(k0 + BK)
        }
        __local const raw_t *as = (__local const raw_t *)a_words[buf];
        __local const raw_t *bs = (__local const raw_t *)b_words[buf];
        #pragma unroll
        for (int kk = 0; kk < BK; kk += MMA_K) {
            uint af[FM][4], bf[FN][2];
#if BITS16
            /* A pair (2t, 2t + 1) of k is one word. */
#define PAIR(s, i) (*(__local const uint *)&(s)[(i)])
            #pragma unroll
            for (int i = 0; i < FM; ++i) {
                const int at = (wm0 + i * 16 + g) * LDT + kk + 2 * t;
                af[i][0] = PAIR(as, at);
                af[i][1] = PAIR(as, at + 8 * LDT);
                af[i][2] = PAIR(as, at + 8);
                af[i][3] = PAIR(as, at + 8 * LDT + 8);
            }
            #pragma unroll
            for (int j = 0; j < FN; ++j) {
                const int at = (wn0 + j * 8 + g) * LDT + kk + 2 * t;
                bf[j][0] = PAIR(bs, at);
                bf[j][1] = PAIR(bs, at + 8);
            }
#undef PAIR
#else
            #pragma unroll
            for (int i = 0; i < FM; ++i) {
                const int at = (wm0 + i * 16 + g) * LDT + kk + t;
                af[i][0] = to_tf32(as[at]);
                af[i][1] = to_tf32(as[at + 8 * LDT]);
                af[i][2] = to_tf32(as[at + 4]);
                af[i][3] = to_tf32(as[at + 8 * LDT + 4]);
            }
            #pragma unroll
            for (int j = 0; j < FN; ++j) {
                const int at = (wn0 + j * 8 + g) * LDT + kk + t;
                bf[j][0] = to_tf32(bs[at]);
                bf[j][1] = to_tf32(bs[at + 4]);
            }
#endif
            #pragma unroll
            for (int i = 0; i < FM; ++i)
                #pragma unroll
                for (int j = 0; j < FN; ++j)
                    MMA_TILE(acc[i][j], af[i][0], af[i][1], af[i][2], af[i][3], bf[j][0], bf[j][1]);
        }
        if (more) {
            STORE_STEP(buf ^ 1)
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* Accumulator e of tile (i, j): row g (+ 8 for e >= 2), column 2t + e % 2. */
    #pragma unroll
    for (int i = 0; i < FM; ++i)
        #pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int r = row0 + wm0 + i * 16 + g + (e / 2) * 8;
            if (r >= M) continue;
            #pragma unroll
            for (int j = 0; j < FN; ++j) {
                const int c = col0 + wn0 + j * 8 + 2 * t + e % 2;
                if (c < N) store_c(C + (long)r * ldc + c, acc[i][j][e], alpha, beta);
            }
        }
}
