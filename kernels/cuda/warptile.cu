/*
 * warptile: a thread block computes a BM x BN block of C, each of its warps a
 * WM x WN part of that, each thread a TM x TN micro-tile of the warp's part
 * in registers. (BM / WM) * (BN / WN) warps; a warp's 32 threads are a
 * (WM / TM) x (WN / TN) grid.
 *
 * Along K, in steps of BK, tiles of op(A) (BM x BK) and op(B) (BK x BN) go
 * through STAGES buffers in (dynamic) shared memory: while the block
 * multiplies one step, the next STAGES - 1 are on their way. On sm_80 and
 * newer, f32 and f64 tiles travel with cp.async (global to shared with no
 * register in between; zero-filled where the tile leaves the matrix); f16
 * and bf16, which are widened to f32 on the way, and every dtype on older
 * architectures, go through registers: loaded at the start of a step,
 * stored to shared memory at its end.
 *
 * Each tile is kept in shared memory as it lies in global memory (its
 * contiguous dimension contiguous), so the copies move 16-byte pieces with
 * no transposing. The multiply reads both layouts 16 bytes at a time:
 *  - x contiguous (op(A) with trans_a, op(B) without trans_b; x is M or N):
 *    s[k][x], and a thread's TX elements along x come in runs of V (16
 *    bytes), run r of thread t at x = r * TW * V + t * V: the threads of a
 *    warp read consecutive 16-byte pieces;
 *  - k contiguous (the other two): s[x][k], read V consecutive k at a
 *    time, and a thread's elements along x are interleaved, x = i * TW + t:
 *    the threads of a warp read consecutive rows, whose length (BK plus 16
 *    bytes) is an odd number of 16-byte pieces, so 8 consecutive rows start
 *    in 8 different groups of banks.
 * Either way every 16-byte read of a warp is free of bank conflicts, and for
 * each V steps of k a thread reads (TM + TN) pieces and does V * TM * TN
 * multiply-adds with them.
 *
 * Blocks are numbered in groups of GROUP_M rows of blocks, column by column
 * within a group, so that blocks running at once share rows of A and
 * columns of B in L2.
 *
 * VEC (a template flag; the plugin picks the function): A and B each start
 * 16-byte aligned and have leading dimensions that are multiples of 16
 * bytes, so the copies move 16-byte pieces; otherwise single elements.
 * Correct for any M, N, K either way: pieces past the matrix's edge are
 * zero-filled (partly, for a piece that straddles it) and stores outside C
 * are skipped.
 *
 * Defines: DTYPE (gemm_common.cuh), BM, BN (64, 128, 256), BK (8, 16, 32),
 * WM, WN (warp tile), TM, TN (4, 8, 16), STAGES (2, 3, 4), MINB (1, 2: blocks
 * per SM for __launch_bounds__, which caps the registers). The plugin
 * checks that they fit together and computes the same shared memory size
 * (plugins/cuda/kernels.c) before compiling.
 */
#include "gemm_common.cuh"

#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN) || !defined(TM) || !defined(TN) || \
    !defined(STAGES) || !defined(MINB)
#error "BM, BN, BK, WM, WN, TM, TN, STAGES and MINB must be defined"
#endif

#define WARPS_M (BM / WM)
#define WARPS_N (BN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define TWM (WM / TM) /* threads of a warp along M */
#define TWN (WN / TN) /* and along N */
#define GROUP_M 8

/* Elements of acc_t in 16 bytes: a shared-memory read, and each row's padding. */
#define V ((int)(16 / sizeof(acc_t)))
#define PAD V
/* Elements of elem_t in 16 bytes: a global-memory piece on the VEC path. */
#define GV ((int)(16 / sizeof(elem_t)))

static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile must divide the block tile");
static_assert(WM % TM == 0 && WN % TN == 0 && TWM * TWN == 32, "(WM / TM) * (WN / TN) must be 32: one warp");
static_assert(THREADS <= 1024, "over CUDA's 1024 threads per block");
static_assert(TM % V == 0 && TN % V == 0 && BK % V == 0, "TM, TN and BK must be multiples of 16 bytes of acc_t");
static_assert(BK % GV == 0 && BM % GV == 0 && BN % GV == 0, "tiles must be whole 16-byte pieces of elem_t");
static_assert(STAGES >= 2, "at least two stages");

/* cp.async moves elem_t into shared memory as is: only where acc_t is
 * elem_t, and from sm_80 on. */
#if defined(GH_WARPTILE_HOST)
/* tests/cuda/warptile_host.cpp runs this file on the CPU, one thread per
 * CUDA thread, with cp.async done as a plain copy (GH_WARPTILE_HOST 1) or
 * every tile through registers (0). */
#define ASYNC_ARCH GH_WARPTILE_HOST
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ASYNC_ARCH 1
#else
#define ASYNC_ARCH 0
#endif
template <typename T> struct is_acc {
    static const bool value = false;
};
template <> struct is_acc<acc_t> {
    static const bool value = true;
};
#define ASYNC (ASYNC_ARCH && is_acc<elem_t>::value)

struct alignas(16) piece_t {
    acc_t v[V];
};

/* One operand's tile as it lies in global memory: R rows of L contiguous
 * elements, row r at src + r * ld; rows at or past r_left and elements at
 * or past l_left are outside the matrix. In shared memory: rows of L + PAD. */
template <int R, int L> struct tile_shape {
    static const int ROW = L + PAD;
    static const int ELEMS = R * ROW;
};

static __device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* cp.async of `bytes` (4, 8 or 16) from src, of which the first `valid`
 * bytes are read and the rest zero-filled. */
template <int BYTES>
static __device__ __forceinline__ void copy_async(acc_t *dst, const elem_t *src, int valid)
{
#if defined(GH_WARPTILE_HOST)
    gh_host_copy_async(dst, src, BYTES, valid);
#elif ASYNC_ARCH
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(src),
                     "r"(valid));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared_address(dst)), "l"(src),
                     "n"(BYTES), "r"(valid));
#endif
}

static __device__ __forceinline__ void async_commit()
{
#if ASYNC_ARCH && !defined(GH_WARPTILE_HOST)
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N> static __device__ __forceinline__ void async_wait()
{
#if ASYNC_ARCH && !defined(GH_WARPTILE_HOST)
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

/* The pieces of one tile a thread moves: consecutive threads take
 * consecutive pieces of a row, so a warp's reads are coalesced. A piece is
 * P elements (GV on the VEC path, else 1). */
template <int R, int L, int P> struct tile_pieces {
    static const int PER_ROW = L / P;
    static const int TOTAL = R * PER_ROW;
    static const int EACH = (TOTAL + THREADS - 1) / THREADS;
};

/* Copies (ASYNC) or loads into registers (otherwise) this thread's pieces
 * of a tile. src points at the tile's element (0, 0), possibly outside the
 * matrix when nothing of the tile is inside; `base` is a valid address to
 * hand a copy that reads nothing. */
template <int R, int L, bool VEC> struct tile_copy {
    static const int P = VEC ? GV : 1;
    typedef tile_pieces<R, L, P> pieces;
    /* Registers for the staged path (unused with cp.async). */
    acc_t staged[ASYNC ? 1 : pieces::EACH * P];

    __device__ __forceinline__ void start(acc_t *dst, const elem_t *__restrict__ src, const elem_t *base, long long ld,
                                          int r_left, int l_left, unsigned tid)
    {
#pragma unroll
        for (int e = 0; e < pieces::EACH; ++e) {
            const int c = (int)tid + e * THREADS;
            if (pieces::TOTAL % THREADS != 0 && c >= pieces::TOTAL) break;
            const int r = c / pieces::PER_ROW, l = (c % pieces::PER_ROW) * P;
            const int in_row = r < r_left ? min(max(l_left - l, 0), P) : 0; /* elements inside the matrix */
            const elem_t *from = in_row ? src + (long long)r * ld + l : base;
            if (ASYNC) {
                copy_async<P * (int)sizeof(elem_t)>(dst + r * tile_shape<R, L>::ROW + l, from,
                                                    in_row * (int)sizeof(elem_t));
            } else if (VEC && in_row == P) {
                /* One 16-byte load, widened element by element. */
                struct alignas(16) raw_t {
                    elem_t v[GV];
                } raw = *reinterpret_cast<const raw_t *>(from);
#pragma unroll
                for (int p = 0; p < P; ++p) staged[e * P + p] = to_acc(raw.v[p]);
            } else {
#pragma unroll
                for (int p = 0; p < P; ++p) staged[e * P + p] = p < in_row ? to_acc(from[p]) : (acc_t)0;
            }
        }
    }

    /* The staged path: what start() loaded, into shared memory. */
    __device__ __forceinline__ void finish(acc_t *dst, unsigned tid) const
    {
#pragma unroll
        for (int e = 0; e < (ASYNC ? 0 : pieces::EACH); ++e) {
            const int c = (int)tid + e * THREADS;
            if (pieces::TOTAL % THREADS != 0 && c >= pieces::TOTAL) break;
            const int r = c / pieces::PER_ROW, l = (c % pieces::PER_ROW) * P;
#pragma unroll
            for (int p = 0; p < P; ++p) dst[r * tile_shape<R, L>::ROW + l + p] = staged[e * P + p];
        }
    }
};

/* Where a thread's i-th element along x (of TX) lies in the warp's part, for
 * TW threads along x, t this thread's place among them (see the top). */
template <bool XC, int TW> static __device__ __forceinline__ int frag_x(int i, int t)
{
    return XC ? (i / V) * (TW * V) + t * V + i % V : i * TW + t;
}

/* Fragments of one operand for the V steps of k from k0, s the stage's tile
 * and x0 the warp's first x in the block. k contiguous (s[x][k], rows of
 * BK + PAD): f[i][kk] for all V kk at once, one 16-byte read per element i.
 * x contiguous (s[k][x], rows of BX + PAD): f[i][0] for one kk at a time,
 * TX / V reads, so that only what the next multiplies need is held. */
template <int TX, int TW>
static __device__ __forceinline__ void load_frag_kc(acc_t (&f)[TX][V], const acc_t *s, int x0, int t, int k0)
{
#pragma unroll
    for (int i = 0; i < TX; ++i) {
        const piece_t p = *reinterpret_cast<const piece_t *>(&s[(x0 + frag_x<false, TW>(i, t)) * (BK + PAD) + k0]);
#pragma unroll
        for (int kk = 0; kk < V; ++kk) f[i][kk] = p.v[kk];
    }
}

template <int TX, int TW, int BX>
static __device__ __forceinline__ void load_frag_xc(acc_t (&f)[TX][V], const acc_t *s, int x0, int t, int k)
{
#pragma unroll
    for (int r = 0; r < TX / V; ++r) {
        const piece_t p = *reinterpret_cast<const piece_t *>(&s[k * (BX + PAD) + x0 + frag_x<true, TW>(r * V, t)]);
#pragma unroll
        for (int v = 0; v < V; ++v) f[r * V + v][0] = p.v[v];
    }
}

/* The whole product for one transpose pair and copy path. */
template <bool TA, bool TB, bool VEC>
static __device__ __forceinline__ void warptile(int M, int N, int K, acc_t alpha, const elem_t *__restrict__ A,
                                                long long lda, const elem_t *__restrict__ B, long long ldb,
                                                acc_t beta, elem_t *__restrict__ C, long long ldc, acc_t *smem)
{
    /* x contiguous in global (and shared) memory: op(A) with trans_a, op(B)
     * without trans_b. The tiles as stored: rows x length. */
    const bool A_XC = TA, B_XC = !TB;
    typedef tile_shape<TA ? BK : BM, TA ? BM : BK> a_shape;
    typedef tile_shape<TB ? BN : BK, TB ? BK : BN> b_shape;

    /* This block's place in C: groups of GROUP_M rows of blocks, numbered
     * down each column of the group. */
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    const int pid = (int)blockIdx.x;
    const int in_group = GROUP_M * tiles_n;
    const int first_m = (pid / in_group) * GROUP_M;
    const int group_m = min(tiles_m - first_m, GROUP_M);
    const int tile_m = first_m + (pid % in_group) % group_m, tile_n = (pid % in_group) / group_m;
    const int row0 = tile_m * BM, col0 = tile_n * BN;
    const int m_left = M - row0, n_left = N - col0;

    const unsigned tid = threadIdx.x;
    const int warp = (int)(tid / 32), lane = (int)(tid % 32);
    const int wx0 = (warp % WARPS_N) * WN, wy0 = (warp / WARPS_N) * WM;
    const int tx = lane % TWN, ty = lane / TWN;

    /* op(A)(i, p) is A[i * lda + p], or A[p * lda + i] when transposed;
     * op(B)(p, j) is B[p * ldb + j], or B[j * ldb + p]. */
    const elem_t *a_src = TA ? A + row0 : A + (long long)row0 * lda;
    const long long a_step = TA ? (long long)BK * lda : (long long)BK;
    const elem_t *b_src = TB ? B + (long long)col0 * ldb : B + col0;
    const long long b_step = TB ? (long long)BK : (long long)BK * ldb;

    acc_t *as = smem, *bs = smem + STAGES * a_shape::ELEMS;
    tile_copy<TA ? BK : BM, TA ? BM : BK, VEC> a_copy;
    tile_copy<TB ? BN : BK, TB ? BK : BN, VEC> b_copy;
    /* Starts step `step`'s tiles into their stage. */
    int k_left = K;
#define START_STEP(step)                                                                                        \
    do {                                                                                                        \
        const int kl_ = k_left - (step) * BK;                                                                   \
        const int st_ = (step) % STAGES;                                                                        \
        a_copy.start(as + st_ * a_shape::ELEMS, a_src + (step) * a_step, A, lda, TA ? kl_ : m_left,              \
                     TA ? m_left : kl_, tid);                                                                    \
        b_copy.start(bs + st_ * b_shape::ELEMS, b_src + (step) * b_step, B, ldb, TB ? n_left : kl_,              \
                     TB ? kl_ : n_left, tid);                                                                    \
    } while (0)
#define FINISH_STEP(step)                                                                                       \
    do {                                                                                                        \
        const int st_ = (step) % STAGES;                                                                        \
        a_copy.finish(as + st_ * a_shape::ELEMS, tid);                                                         \
        b_copy.finish(bs + st_ * b_shape::ELEMS, tid);                                                         \
    } while (0)

    acc_t acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = (acc_t)0;

    const int steps = (K + BK - 1) / BK;
    /* The first STAGES - 1 steps on their way; a group per step, empty or
     * not, so that "all but the newest STAGES - 2 groups" is always "up to
     * the step about to be multiplied". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < steps) {
            START_STEP(s);
            FINISH_STEP(s);
        }
        async_commit();
    }

    for (int s = 0; s < steps; ++s) {
        async_wait<STAGES - 2>();
        /* Step s is in shared memory for every thread, and every thread is
         * done with step s - 1, whose stage the next copies overwrite. */
        __syncthreads();
        const int next = s + STAGES - 1;
        if (next < steps) START_STEP(next);
        async_commit();

        const acc_t *a_st = as + (s % STAGES) * a_shape::ELEMS;
        const acc_t *b_st = bs + (s % STAGES) * b_shape::ELEMS;
#pragma unroll
        for (int k0 = 0; k0 < BK; k0 += V) {
            acc_t af[TM][V], bf[TN][V];
            if (!A_XC) load_frag_kc<TM, TWM>(af, a_st, wy0, ty, k0);
            if (!B_XC) load_frag_kc<TN, TWN>(bf, b_st, wx0, tx, k0);
#pragma unroll
            for (int kk = 0; kk < V; ++kk) {
                /* x contiguous: this kk's elements, into column 0 (the
                 * others are not used then). */
                if (A_XC) load_frag_xc<TM, TWM, BM>(af, a_st, wy0, ty, k0 + kk);
                if (B_XC) load_frag_xc<TN, TWN, BN>(bf, b_st, wx0, tx, k0 + kk);
                const int ka = A_XC ? 0 : kk, kb = B_XC ? 0 : kk;
#pragma unroll
                for (int i = 0; i < TM; ++i)
#pragma unroll
                    for (int j = 0; j < TN; ++j) acc[i][j] += af[i][ka] * bf[j][kb];
            }
        }

        /* The staged path: the registers loaded above, into the stage that
         * step s - 1 used; the next barrier publishes them. */
        if (!ASYNC && next < steps) FINISH_STEP(next);
    }
#undef START_STEP
#undef FINISH_STEP

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = wy0 + frag_x<A_XC, TWM>(i, ty);
        if (r < m_left) {
            elem_t *c_row = C + (long long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int c = wx0 + frag_x<B_XC, TWN>(j, tx);
                if (c < n_left) gemm_store(&c_row[c], alpha, acc[i][j], beta);
            }
        }
    }
}

/* One kernel per transpose pair and copy path (gemm_warptile_<nn|nt|tn|tt>,
 * _vec for 16-byte pieces), each with its own register allocation. trans_a
 * and trans_b are the other kernels' arguments, kept so all take the same,
 * and must match the name. The shared memory is dynamic: the plugin gives
 * its size (STAGES tiles of each operand) at launch. */
#define GEMM_WARPTILE(NAME, TA, TB, VEC)                                                                     \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB)                                                \
    NAME(int M, int N, int K, int trans_a, int trans_b, acc_t alpha, const elem_t *__restrict__ A,        \
         long long lda, const elem_t *__restrict__ B, long long ldb, acc_t beta, elem_t *__restrict__ C,  \
         long long ldc)                                                                                     \
    {                                                                                                      \
        extern __shared__ __align__(16) unsigned char warptile_smem[];                                     \
        (void)trans_a;                                                                                     \
        (void)trans_b;                                                                                     \
        warptile<TA, TB, VEC>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,                                \
                              reinterpret_cast<acc_t *>(warptile_smem));                                   \
    }

GEMM_WARPTILE(gemm_warptile_nn, false, false, false)
GEMM_WARPTILE(gemm_warptile_nt, false, true, false)
GEMM_WARPTILE(gemm_warptile_tn, true, false, false)
GEMM_WARPTILE(gemm_warptile_tt, true, true, false)
GEMM_WARPTILE(gemm_warptile_nn_vec, false, false, true)
GEMM_WARPTILE(gemm_warptile_nt_vec, false, true, true)
GEMM_WARPTILE(gemm_warptile_tn_vec, true, false, true)
GEMM_WARPTILE(gemm_warptile_tt_vec, true, true, true)
