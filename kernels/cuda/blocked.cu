/*
 * blocked: 2D register blocking. A thread block of (TILE / WORK)^2 threads
 * computes a TILE x TILE block of C; each thread keeps a WORK x WORK
 * micro-tile of it in registers.
 *
 * For every step of DEPTH along K, the block loads a TILE x DEPTH tile of
 * op(A) and a DEPTH x TILE tile of op(B) into shared memory, both stored with
 * k as the row (op(A) transposed), so that for each k a thread reads WORK
 * consecutive elements of each and does WORK^2 FMAs with them: WORK times
 * fewer shared-memory reads per FMA than the tiled kernel.
 *
 * Global loads are scalar (an arbitrary leading dimension or offset gives no
 * alignment to build vectors on) and coalesced for every transpose: a warp
 * walks the stored matrix's contiguous dimension. The next step's tiles are
 * loaded into registers while the current ones are multiplied, and shared
 * memory is double-buffered, so each step has one barrier and the loads'
 * latency hides behind the arithmetic.
 *
 * Which columns a thread owns: its WORK columns come in WORK / VEC runs of
 * VEC consecutive elements (16 bytes, or WORK elements if fewer); run c of
 * thread tx starts at column c * (TILE / WORK) * VEC + tx * VEC. Reading a
 * run is one 16-byte shared-memory access, and the threads of a warp read
 * consecutive runs, so no two of them hit one bank. Rows likewise with ty.
 *
 * Correct for any M, N, K: elements outside op(A) or op(B) are loaded as
 * zeros (which add nothing) and stores outside C are skipped.
 *
 * Registers and shared memory hold acc_t (gemm_common.cuh): f16, bf16 and
 * FP8 are widened to f32 (i8 to int) as they come from global memory, so
 * everything after the loads is the f32 (int) kernel's.
 *
 * Defines: DTYPE (gemm_common.cuh), TILE (32, 64, 128), WORK (2, 4, 8),
 * DEPTH (16; 8 for 8-byte acc_t, so the double-buffered tiles stay in 48 KB).
 * The plugin computes the same shared-memory size to refuse a variant that
 * does not fit before compiling it.
 */
#include "gemm_common.cuh"

#ifndef TILE
#error "TILE must be defined: 32, 64 or 128"
#endif
#ifndef WORK
#error "WORK must be defined: 2, 4 or 8"
#endif
#ifndef DEPTH
#error "DEPTH must be defined: the step along K, e.g. 16 (8 for double)"
#endif

#define SIDE (TILE / WORK)      /* threads along each side of the block */
#define THREADS (SIDE * SIDE)

static_assert(TILE % WORK == 0, "WORK must divide TILE");
static_assert(THREADS <= 1024, "(TILE / WORK)^2 threads: over CUDA's 1024 threads per block");
static_assert((TILE & (TILE - 1)) == 0 && (DEPTH & (DEPTH - 1)) == 0, "TILE and DEPTH must be powers of two");

/* Elements per shared-memory read of a run: 16 bytes, or all of WORK. */
#define VEC_16 ((int)(16 / sizeof(acc_t)))
#define VEC (VEC_16 < WORK ? VEC_16 : WORK)
#define RUNS (WORK / VEC)
/* Row length of a shared tile: TILE plus 16 bytes, so each row starts
 * 16-byte aligned and the transposed stores of a warp spread over banks. */
#define ROW (TILE + VEC_16)
/* Blocks per SM for __launch_bounds__. With 256 threads and 4-byte sums,
 * two: registers capped at 128 a thread, what NVIDIA's OpenCL compiler
 * chooses for the same kernel unasked (127); uncapped, NVRTC takes 201 and
 * one block per SM, much slower (docs/kernels.md). */
#define MIN_BLOCKS (THREADS == 256 && sizeof(acc_t) == 4 ? 2 : 1)
/* Elements of one tile each thread loads. */
#define LOADS ((TILE * DEPTH + THREADS - 1) / THREADS)

struct alignas(VEC * sizeof(acc_t)) run_t {
    acc_t v[VEC];
};

/* Loads this thread's share of one tile into registers. The tile's elements
 * are (x, k) with x along M (op(A)) or N (op(B)) and k along K; src points at
 * element (0, 0) of the tile in the stored matrix. XC: the stored matrix is
 * contiguous along x (op(A) with trans_a, op(B) without trans_b), else along
 * k. Consecutive threads take consecutive elements of the contiguous
 * dimension, so a warp's loads are coalesced either way. Elements at or past
 * x_left or k_left are outside the matrix and load as zero. */
template <bool XC, typename T>
static __device__ __forceinline__ void load_tile(acc_t (&r)[LOADS], const T *__restrict__ src, long long ld,
                                                 int x_left, int k_left, unsigned tid)
{
    /* When the threads cover whole lines of the contiguous dimension, a
     * thread keeps its place along it and steps a fixed number of lines per
     * load: one pointer walked by one stride, rather than LOADS offsets that
     * the compiler may keep in registers across the step. */
    constexpr int LINE = XC ? TILE : DEPTH;
    if constexpr (THREADS % LINE == 0 && LOADS * THREADS == TILE * DEPTH) {
        constexpr int LINES = THREADS / LINE;   /* lines per load */
        const int along = (int)(tid % LINE), across = (int)(tid / LINE);
        const int along_left = XC ? x_left : k_left, across_left = XC ? k_left : x_left;
        const T *p = src + (long long)across * ld + along;
        const long long stride = (long long)LINES * ld;
#pragma unroll
        for (int l = 0; l < LOADS; ++l, p += stride)
            r[l] = along < along_left && across + l * LINES < across_left ? to_acc(*p) : (acc_t)0;
    } else {
#pragma unroll
        for (int l = 0; l < LOADS; ++l) {
            const unsigned idx = tid + (unsigned)(l * THREADS);
            const int x = (int)(XC ? idx % TILE : idx / DEPTH);
            const int k = (int)(XC ? idx / TILE : idx % DEPTH);
            acc_t v = (acc_t)0;
            if ((LOADS * THREADS == TILE * DEPTH || idx < (unsigned)(TILE * DEPTH)) && x < x_left && k < k_left)
                v = to_acc(XC ? src[(long long)k * ld + x] : src[(long long)x * ld + k]);
            r[l] = v;
        }
    }
}

/* Stores what load_tile loaded into a shared tile s[k][x]. */
template <bool XC>
static __device__ __forceinline__ void store_tile(acc_t (*s)[ROW], const acc_t (&r)[LOADS], unsigned tid)
{
#pragma unroll
    for (int l = 0; l < LOADS; ++l) {
        const unsigned idx = tid + (unsigned)(l * THREADS);
        if (LOADS * THREADS == TILE * DEPTH || idx < (unsigned)(TILE * DEPTH)) {
            const int x = (int)(XC ? idx % TILE : idx / DEPTH);
            const int k = (int)(XC ? idx / TILE : idx % DEPTH);
            s[k][x] = r[l];
        }
    }
}

/* The whole product for one transpose combination (TA, TB known at compile
 * time, so the loads' index arithmetic is fixed). as and bs are the two
 * buffers of each shared tile. */
template <bool TA, bool TB>
static __device__ __forceinline__ void blocked(int M, int N, int K, acc_t alpha, const a_t *__restrict__ A,
                                               long long lda, const b_t *__restrict__ B, long long ldb,
                                               acc_t beta, elem_t *__restrict__ C, long long ldc,
                                               acc_t (*as)[DEPTH][ROW], acc_t (*bs)[DEPTH][ROW])
{
    const unsigned tid = threadIdx.x;
    const int tx = (int)(tid % SIDE), ty = (int)(tid / SIDE);
    const int row0 = (int)blockIdx.y * TILE, col0 = (int)blockIdx.x * TILE;
    const int m_left = M - row0, n_left = N - col0;

    /* op(A)(i, p) is A[i * lda + p], or A[p * lda + i] when transposed;
     * op(B)(p, j) is B[p * ldb + j], or B[j * ldb + p]. */
    const a_t *a_src = TA ? A + row0 : A + (long long)row0 * lda;
    const long long a_step = TA ? (long long)DEPTH * lda : (long long)DEPTH;
    const b_t *b_src = TB ? B + (long long)col0 * ldb : B + col0;
    const long long b_step = TB ? (long long)DEPTH : (long long)DEPTH * ldb;

    acc_t acc[WORK][WORK];
#pragma unroll
    for (int i = 0; i < WORK; ++i)
#pragma unroll
        for (int j = 0; j < WORK; ++j)
            acc[i][j] = (acc_t)0;

    acc_t ra[LOADS], rb[LOADS];
    int k_left = K;
    load_tile<TA>(ra, a_src, lda, m_left, k_left, tid);
    load_tile<!TB>(rb, b_src, ldb, n_left, k_left, tid);
    store_tile<TA>(as[0], ra, tid);
    store_tile<!TB>(bs[0], rb, tid);
    __syncthreads();

    const int steps = (K + DEPTH - 1) / DEPTH;
    for (int s = 0; s < steps; ++s) {
        const int cur = s & 1;
        const bool more = s + 1 < steps;
        /* The next step's tiles, into registers, while this one computes. */
        if (more) {
            a_src += a_step;
            b_src += b_step;
            k_left -= DEPTH;
            load_tile<TA>(ra, a_src, lda, m_left, k_left, tid);
            load_tile<!TB>(rb, b_src, ldb, n_left, k_left, tid);
        }

#pragma unroll
        for (int p = 0; p < DEPTH; ++p) {
            acc_t af[WORK], bf[WORK];
#pragma unroll
            for (int c = 0; c < RUNS; ++c) {
                const run_t ar = *reinterpret_cast<const run_t *>(&as[cur][p][c * SIDE * VEC + ty * VEC]);
                const run_t br = *reinterpret_cast<const run_t *>(&bs[cur][p][c * SIDE * VEC + tx * VEC]);
#pragma unroll
                for (int v = 0; v < VEC; ++v) {
                    af[c * VEC + v] = ar.v[v];
                    bf[c * VEC + v] = br.v[v];
                }
            }
#pragma unroll
            for (int i = 0; i < WORK; ++i)
#pragma unroll
                for (int j = 0; j < WORK; ++j)
                    acc[i][j] += af[i] * bf[j];
        }

        /* The other buffer was last read in the previous step, before the
         * barrier that ended it; the barrier below publishes these stores
         * before the next step reads them. */
        if (more) {
            store_tile<TA>(as[cur ^ 1], ra, tid);
            store_tile<!TB>(bs[cur ^ 1], rb, tid);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < WORK; ++i) {
        const int r = (i / VEC) * SIDE * VEC + ty * VEC + i % VEC;
        if (r < m_left) {
            elem_t *c_row = C + (long long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < WORK; ++j) {
                const int c = (j / VEC) * SIDE * VEC + tx * VEC + j % VEC;
                if (c < n_left)
                    gemm_store(&c_row[c], alpha, acc[i][j], beta);
            }
        }
    }
}

/* One kernel per transpose pair, each with its own register allocation (one
 * kernel holding all four needs far more registers than any of them). The
 * plugin launches gemm_blocked_<nn|nt|tn|tt>; the trans_a, trans_b
 * parameters are those of the other kernels, kept so that all kernels take
 * the same arguments, and must match the name. */
#define GEMM_BLOCKED(NAME, TA, TB)                                                                          \
    extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)                                     \
    NAME(int M, int N, int K, int trans_a, int trans_b, acc_t alpha, const a_t *__restrict__ A,           \
         long long lda, const b_t *__restrict__ B, long long ldb, acc_t beta, elem_t *__restrict__ C,     \
         long long ldc)                                                                                     \
    {                                                                                                      \
        /* [buffer][k][x]: op(A) stored transposed, op(B) as is. */                                       \
        alignas(16) __shared__ acc_t as[2][DEPTH][ROW];                                                   \
        alignas(16) __shared__ acc_t bs[2][DEPTH][ROW];                                                   \
        (void)trans_a;                                                                                     \
        (void)trans_b;                                                                                     \
        blocked<TA, TB>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, as, bs);                            \
    }

GEMM_BLOCKED(gemm_blocked_nn, false, false)
GEMM_BLOCKED(gemm_blocked_nt, false, true)
GEMM_BLOCKED(gemm_blocked_tn, true, false)
GEMM_BLOCKED(gemm_blocked_tt, true, true)
