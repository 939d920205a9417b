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
 * Both tiles are kept in shared memory with M or N contiguous, s[k][x]
 * (x is M for A, N for B), rows of BX + PAD. An operand stored that way
 * (op(A) with trans_a, op(B) without trans_b) is copied as it lies, in
 * 16-byte pieces; the other is transposed on the way (see tile_copy). The
 * multiply reads, for each k, a thread's TX elements along x in runs of V
 * (16 bytes), run r of thread t at x = r * TW * V + t * V: the threads of a
 * warp read consecutive 16-byte pieces, free of bank conflicts, and for
 * each k a thread reads (TM + TN) / V pieces and does TM * TN multiply-adds
 * with them.
 *
 * A step's order: the fragments of k + 1 are read while k's are multiplied;
 * the barrier that makes step s + 1 visible comes before the last k's
 * multiply-adds, which hide it and the first reads of step s + 1; the next
 * copies start after the first k's, so that no warp meets the barrier, the
 * copies and its first reads as three stalls in a row. The copies go in two
 * parts, one operand's after k = 1 and the other's after k = 4 (f64: 0 and
 * 1), the one with fewer pieces per thread first (in nn that is B: A is
 * transposed on the way, 8 single elements): the fastest places measured
 * (docs/kernels.md).
 *
 * Blocks are numbered in groups of 8 rows of blocks, column by column
 * within a group, so that blocks running at once share rows of A and
 * columns of B in L2 (gemm_common.cuh's block_origin).
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
 * per SM for __launch_bounds__, which caps the registers; 0: by dtype, see
 * MIN_BLOCKS). The plugin
 * checks that they fit together and computes the same shared memory size
 * (plugins/cuda/kernels.c) before compiling.
 */
#include "gemm_common.cuh"

#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN) || !defined(TM) || !defined(TN) || \
    !defined(STAGES) || !defined(MINB)
#error "BM, BN, BK, WM, WN, TM, TN, STAGES and MINB must be defined"
#endif

/* MINB 0, the default: two blocks per SM in f32, whose default fits 128
 * registers (left free, ptxas takes 145 and one block per SM, slower); one
 * in f64, whose default needs 128 for its sums alone, and in f16 and bf16,
 * which spill at 128. */
#if MINB > 0
#define MIN_BLOCKS MINB
#else
#define MIN_BLOCKS (sizeof(elem_t) == 4 && sizeof(acc_t) == 4 ? 2 : 1)
#endif

#define WARPS_M (BM / WM)
#define WARPS_N (BN / WN)
#define THREADS (WARPS_M * WARPS_N * 32)
#define TWM (WM / TM) /* threads of a warp along M */
#define TWN (WN / TN) /* and along N */

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

/* After which k's of a step the next step's copies start (see the top). */
enum { COPY_K0 = sizeof(acc_t) == 8 ? 0 : 1, COPY_K1 = sizeof(acc_t) == 8 ? 1 : 4 };
static_assert(COPY_K0 < COPY_K1 && COPY_K1 < BK - 1, "both parts of the copies before a step's last k");

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

/* One operand's tile in a stage of shared memory: BK rows along K of X
 * elements along M or N (contiguous), each row padded by 16 bytes. */
template <int X> struct stage_shape {
    static const int ROW = X + PAD;
    static const int ELEMS = BK * ROW;
};

static __device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* cp.async of BYTES (4, 8 or 16) from src, of which the first `valid`
 * bytes are read and the rest zero-filled; or all of them. */
template <int BYTES>
static __device__ __forceinline__ void copy_async_zfill(acc_t *dst, const elem_t *src, int valid)
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

template <int BYTES> static __device__ __forceinline__ void copy_async(acc_t *dst, const elem_t *src)
{
#if defined(GH_WARPTILE_HOST)
    gh_host_copy_async(dst, src, BYTES, BYTES);
#elif ASYNC_ARCH
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(dst)), "l"(src));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(shared_address(dst)), "l"(src), "n"(BYTES));
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

/* How the pieces of a tile (R rows of L elements as stored, a piece P
 * consecutive elements of a row) are dealt out: piece c = tid + e * THREADS
 * is piece c % G of a group of G along a row, groups going down the rows
 * first, then along them. G = L / P (whole rows: consecutive threads take
 * consecutive pieces of a row, so a warp's reads are coalesced), or fewer
 * to shape what a warp writes to shared memory. THREADS, G and R are powers
 * of two, so piece e of a thread is its first piece plus row_of(e) rows and
 * col_of(e) elements, both known when compiling: a thread keeps one offset
 * per tile, not an address per piece. */
template <int R, int L, int P, int G> struct tile_pieces {
    static const int TOTAL = R * L / P;
    static const int EACH = (TOTAL + THREADS - 1) / THREADS;
    static_assert((G & (G - 1)) == 0 && (THREADS & (THREADS - 1)) == 0 && (R & (R - 1)) == 0 && G <= L / P,
                  "pieces per group, threads and rows must be powers of two");
    static __device__ __forceinline__ int first_row(unsigned tid) { return (int)tid / G % R; }
    static __device__ __forceinline__ int first_col(unsigned tid) { return ((int)tid % G + (int)tid / G / R * G) * P; }
    static __device__ __forceinline__ int row_of(int e) { return e * THREADS / G % R; }
    static __device__ __forceinline__ int col_of(int e) { return (e * THREADS % G + e * THREADS / G / R * G) * P; }
    /* Piece e of this thread lies in the tile (some threads have fewer). */
    static __device__ __forceinline__ bool mine(int e, unsigned tid)
    {
        return TOTAL % THREADS == 0 || (int)tid + e * THREADS < TOTAL;
    }
};

/* Copies (ASYNC) or loads into registers (otherwise) this thread's pieces
 * of one operand's tile, R rows of L elements as stored, into a stage
 * (stage_shape: rows along K). K_ROWS: the stored rows run along K (op(A)
 * with trans_a, op(B) without trans_b), so a row of the tile is a row of
 * the stage; otherwise the tile is transposed on the way: cp.async then
 * moves single elements, 8 consecutive along K from each of 4 rows per
 * warp, which land in 8 stage rows whose 16-byte padding puts them 4 banks
 * apart: no bank conflicts; the staged path stores its pieces element by
 * element. Keeping both operands contiguous along M and N in shared memory
 * lets the multiply read 16 bytes per TX / V elements of one k: with k
 * contiguous it held TX x V of them at once, 32 more registers at 8 x 8,
 * which took the default past 128 (nn: 168 registers, one block per SM).
 *
 * Along the dimension that is not K the tile's reach into the matrix is the
 * same at every step, so a step wholly inside K copies with no arithmetic of
 * edges, and one whose tile is also wholly inside the matrix copies whole
 * pieces with no zero fill. */
template <int R, int L, bool VEC, bool K_ROWS> struct tile_copy {
    static const bool SINGLE = ASYNC && !K_ROWS; /* transposed by cp.async: single elements */
    static const int P = VEC && !SINGLE ? GV : 1;
    typedef tile_pieces<R, L, P, SINGLE ? 8 : L / P> pieces;
    typedef stage_shape<K_ROWS ? L : R> shape;
    const elem_t *from; /* this thread's first piece at step 0 */
    int to;             /* and its place in a stage */
    int fixed_left;     /* rows (K_ROWS: elements) of the tile inside the matrix along the dimension that is not K */
    bool whole;         /* all of them */
    /* Registers for the staged path (unused with cp.async). */
    acc_t staged[ASYNC ? 1 : pieces::EACH * P];

    /* A piece's place in a stage from its place in the tile. */
    static __device__ __forceinline__ int stage_offset(int r, int l)
    {
        return K_ROWS ? r * shape::ROW + l : l * shape::ROW + r;
    }

    /* src: the tile's element (0, 0) at step 0. */
    __device__ __forceinline__ void setup(const elem_t *src, long long ld, int fixed_left_, unsigned tid)
    {
        from = src + (long long)pieces::first_row(tid) * ld + pieces::first_col(tid);
        to = stage_offset(pieces::first_row(tid), pieces::first_col(tid));
        fixed_left = fixed_left_;
        whole = fixed_left >= (K_ROWS ? L : R);
        /* Once per kernel; keeps compilers from seeing a read of unset registers in finish(). */
#pragma unroll
        for (int i = 0; i < (ASYNC ? 0 : pieces::EACH * P); ++i) staged[i] = (acc_t)0;
    }

    /* The tile `offset` elements on from step 0's (possibly outside the
     * matrix when nothing of the tile is inside), k_left elements of K from
     * its start on; `base` is a valid address to hand a copy that reads
     * nothing. */
    __device__ __forceinline__ void start(acc_t *stage, long long offset, const elem_t *base, long long ld,
                                          int k_left, unsigned tid)
    {
        if (k_left >= (K_ROWS ? R : L)) {
            if (whole)
                start_pieces<true, true>(stage, offset, base, ld, k_left, tid);
            else
                start_pieces<true, false>(stage, offset, base, ld, k_left, tid);
        } else {
            start_pieces<false, false>(stage, offset, base, ld, k_left, tid);
        }
    }

    template <bool K_INSIDE, bool WHOLE>
    __device__ __forceinline__ void start_pieces(acc_t *stage, long long offset, const elem_t *base, long long ld,
                                                 int k_left, unsigned tid)
    {
        const elem_t *src = from + offset;
        acc_t *dst = stage + to;
        const int r0 = pieces::first_row(tid), l0 = pieces::first_col(tid);
#pragma unroll
        for (int e = 0; e < pieces::EACH; ++e) {
            if (!pieces::mine(e, tid)) break;
            const int dr = pieces::row_of(e), dl = pieces::col_of(e);
            /* Elements of the piece inside the matrix: along the fixed
             * dimension, then along K. */
            int inside = P;
            if (!WHOLE) {
                if (K_ROWS)
                    inside = min(max(fixed_left - l0 - dl, 0), P);
                else
                    inside = r0 + dr < fixed_left ? P : 0;
            }
            if (!K_INSIDE) {
                if (K_ROWS)
                    inside = r0 + dr < k_left ? inside : 0;
                else
                    inside = min(inside, max(k_left - l0 - dl, 0));
            }
            const elem_t *piece = src + (long long)dr * ld + dl;
            if (ASYNC) {
                acc_t *to_piece = dst + stage_offset(dr, dl);
                if (WHOLE && K_INSIDE)
                    copy_async<P * (int)sizeof(elem_t)>(to_piece, piece);
                else
                    copy_async_zfill<P * (int)sizeof(elem_t)>(to_piece, inside ? piece : base,
                                                              inside * (int)sizeof(elem_t));
            } else if (VEC && inside == P) {
                /* One 16-byte load, widened element by element. */
                struct alignas(16) raw_t {
                    elem_t v[GV];
                } raw = *reinterpret_cast<const raw_t *>(piece);
#pragma unroll
                for (int p = 0; p < P; ++p) staged[e * P + p] = to_acc(raw.v[p]);
            } else {
#pragma unroll
                for (int p = 0; p < P; ++p) staged[e * P + p] = p < inside ? to_acc(piece[p]) : (acc_t)0;
            }
        }
    }

    /* The staged path: what start() loaded, into shared memory. */
    __device__ __forceinline__ void finish(acc_t *stage, unsigned tid) const
    {
        acc_t *dst = stage + to;
#pragma unroll
        for (int e = 0; e < (ASYNC ? 0 : pieces::EACH); ++e) {
            if (!pieces::mine(e, tid)) break;
#pragma unroll
            for (int p = 0; p < P; ++p) dst[stage_offset(pieces::row_of(e), pieces::col_of(e) + p)] = staged[e * P + p];
        }
    }
};

/* Where a thread's i-th element along x (of TX) lies in the warp's part, for
 * TW threads along x, t this thread's place among them (see the top). */
template <int TW> static __device__ __forceinline__ int frag_x(int i, int t)
{
    return (i / V) * (TW * V) + t * V + i % V;
}

/* One operand's TX elements for step k of a stage s (rows of BX + PAD), x0
 * the warp's first x in the block: TX / V reads of 16 bytes. */
template <int TX, int TW, int BX>
static __device__ __forceinline__ void load_frag(acc_t (&f)[TX], const acc_t *s, int x0, int t, int k)
{
#pragma unroll
    for (int r = 0; r < TX / V; ++r) {
        const piece_t p = *reinterpret_cast<const piece_t *>(&s[k * (BX + PAD) + x0 + frag_x<TW>(r * V, t)]);
#pragma unroll
        for (int v = 0; v < V; ++v) f[r * V + v] = p.v[v];
    }
}

/* The whole product for one transpose pair and copy path. */
template <bool TA, bool TB, bool VEC>
static __device__ __forceinline__ void warptile(int M, int N, int K, acc_t alpha, const elem_t *__restrict__ A,
                                                long long lda, const elem_t *__restrict__ B, long long ldb,
                                                acc_t beta, elem_t *__restrict__ C, long long ldc, acc_t *smem)
{
    typedef stage_shape<BM> a_shape;
    typedef stage_shape<BN> b_shape;

    int row0, col0;
    block_origin(M, N, BM, BN, &row0, &col0);
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
    typedef tile_copy<TA ? BK : BM, TA ? BM : BK, VEC, TA> a_copy_t;
    typedef tile_copy<TB ? BN : BK, TB ? BK : BN, VEC, !TB> b_copy_t;
    a_copy_t a_copy;
    b_copy_t b_copy;
    a_copy.setup(a_src, lda, m_left, tid);
    b_copy.setup(b_src, ldb, n_left, tid);
    /* Starts step `step`'s tile of A, of B, or both, into their stage. */
#define START_A(step)                                                                                           \
    a_copy.start(as + (step) % STAGES * a_shape::ELEMS, (step) * a_step, A, lda, K - (step) * BK, tid)
#define START_B(step)                                                                                           \
    b_copy.start(bs + (step) % STAGES * b_shape::ELEMS, (step) * b_step, B, ldb, K - (step) * BK, tid)
#define START_STEP(step)                                                                                        \
    do {                                                                                                        \
        START_A(step);                                                                                          \
        START_B(step);                                                                                          \
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

    /* Step 0 in shared memory for every thread, and its first fragments. */
    async_wait<STAGES - 2>();
    __syncthreads();
    acc_t af[2][TM], bf[2][TN];
    load_frag<TM, TWM, BM>(af[0], as, wy0, ty, 0);
    load_frag<TN, TWN, BN>(bf[0], bs, wx0, tx, 0);

    for (int s = 0; s < steps; ++s) {
        const int next = s + STAGES - 1;
        const acc_t *a_st = as + (s % STAGES) * a_shape::ELEMS;
        const acc_t *b_st = bs + (s % STAGES) * b_shape::ELEMS;
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            /* Fragments of k + 1 (of step s + 1's k = 0 at the last k)
             * while k's are multiplied. */
            if (k == BK - 1) {
                /* The staged path: the registers loaded at k == 0, into the
                 * stage that step s - 1 used; the barrier below publishes
                 * them. */
                if (!ASYNC && next < steps) FINISH_STEP(next);
                /* Step s + 1 in shared memory for every thread, and every
                 * thread done reading step s, whose stage step s + STAGES
                 * overwrites. */
                async_wait<STAGES - 2>();
                __syncthreads();
                if (s + 1 < steps) {
                    const int st1 = (s + 1) % STAGES;
                    load_frag<TM, TWM, BM>(af[(k + 1) % 2], as + st1 * a_shape::ELEMS, wy0, ty, 0);
                    load_frag<TN, TWN, BN>(bf[(k + 1) % 2], bs + st1 * b_shape::ELEMS, wx0, tx, 0);
                }
            } else {
                load_frag<TM, TWM, BM>(af[(k + 1) % 2], a_st, wy0, ty, k + 1);
                load_frag<TN, TWN, BN>(bf[(k + 1) % 2], b_st, wx0, tx, k + 1);
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += af[k % 2][i] * bf[k % 2][j];
            /* Into the stage of step s - 1, which every thread finished
             * reading before the last barrier: the operand with fewer
             * pieces per thread after k = COPY_K0, the other after COPY_K1. */
            if ((k == COPY_K0 || k == COPY_K1) && next < steps) {
                if ((k == COPY_K0) == (a_copy_t::pieces::EACH <= b_copy_t::pieces::EACH))
                    START_A(next);
                else
                    START_B(next);
            }
            if (k == COPY_K1) async_commit();
        }
    }
#undef START_A
#undef START_B
#undef START_STEP
#undef FINISH_STEP

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = wy0 + frag_x<TWM>(i, ty);
        if (r < m_left) {
            elem_t *c_row = C + (long long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < TN; ++j) {
                const int c = wx0 + frag_x<TWN>(j, tx);
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
    extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)                                          \
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
