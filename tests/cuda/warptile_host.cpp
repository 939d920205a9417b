/*
 * kernels/cuda/warptile.cu run on the CPU, for a machine without a GPU:
 * each CUDA thread of a block is a POSIX thread, __syncthreads a barrier,
 * the dynamic shared memory one buffer (blocks run one after another), and
 * cp.async a plain copy with its zero fill (GH_WARPTILE_HOST=1), or every
 * tile loaded through registers (0, the path of f16, bf16 and pre-sm_80
 * GPUs). What it checks is the kernel's arithmetic of places: tiles,
 * fragments, layouts, edges, the stage ring, the block order, both copy
 * paths, every transpose, alpha and beta (C never read when beta is 0: it
 * starts as NaN), padding and offsets, against a host reference, with C's
 * padding and guards checked for stray writes and, where cp.async is a
 * copy, every copy checked to read only elements of A and B. Not what
 * needs the GPU (timing of cp.async against the barriers, bank conflicts,
 * speed): the device suite (gemmhost-cuda-test) runs the same cases there.
 *
 * Built once per parameter set (-DDTYPE, -DBM ... -DMINB as the plugin
 * passes them, and GH_WARPTILE_HOST); exits 0 when every case matches.
 */
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

/* ---- what NVRTC would provide ---- */
struct dim3 {
    unsigned x, y, z;
};
static thread_local dim3 threadIdx;
static dim3 blockIdx;
static pthread_barrier_t block_barrier;
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
static inline void __syncthreads()
{
    pthread_barrier_wait(&block_barrier);
}
/* CUDA's min and max take values (std::min's references would odr-use the
 * kernel's static const members, which have no definition). */
static inline int min(int a, int b)
{
    return a < b ? a : b;
}
static inline int max(int a, int b)
{
    return a > b ? a : b;
}
static inline size_t __cvta_generic_to_shared(const void *p)
{
    return (size_t)p;
}
static inline float __uint_as_float(unsigned u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline unsigned __float_as_uint(float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}
/* What a copy may read: the elements of A and B (rows x cols, ld apart),
 * set before each launch; a copy that reads anything else (padding, guards,
 * past an edge) is counted, even where no result would show it. */
struct readable_matrix {
    const char *first;
    long long rows, cols, ld, elem;
};
static readable_matrix readable[2];
static std::atomic<long long> stray_reads{0};
static bool inside_a_matrix(const void *p, int bytes)
{
    for (const readable_matrix &m : readable) {
        const long long off = (const char *)p - m.first;
        if (off < 0 || off % m.elem) continue;
        const long long i = off / m.elem / m.ld, j = off / m.elem % m.ld;
        if (i < m.rows && j + bytes / m.elem <= m.cols) return true;
    }
    return false;
}
/* cp.async: `valid` bytes read, the rest of `bytes` zero. */
template <typename D, typename S> static inline void gh_host_copy_async(D *dst, const S *src, int bytes, int valid)
{
    if (valid > 0 && !inside_a_matrix(src, valid)) ++stray_reads;
    memcpy(dst, src, (size_t)valid);
    memset((char *)dst + valid, 0, (size_t)(bytes - valid));
}
alignas(16) unsigned char warptile_smem[256 * 1024];

#include "warptile.cu"

/* ---- the launch ---- */
typedef void (*kernel_fn)(int, int, int, int, int, acc_t, const elem_t *, long long, const elem_t *, long long,
                          acc_t, elem_t *, long long);
static kernel_fn const kernels[8] = {gemm_warptile_nn,     gemm_warptile_nt,     gemm_warptile_tn,
                                     gemm_warptile_tt,     gemm_warptile_nn_vec, gemm_warptile_nt_vec,
                                     gemm_warptile_tn_vec, gemm_warptile_tt_vec};

struct launch {
    kernel_fn fn;
    int m, n, k, ta, tb;
    acc_t alpha, beta;
    const elem_t *a, *b;
    elem_t *c;
    long long lda, ldb, ldc;
};
/* The block's threads, made once and reused block after block: a
 * pthread_create per CUDA thread per block was most of the run's time (and
 * under the sanitizers, with their per-thread setup, 4-10 times more).
 * block_start and block_done hold them between blocks; the main thread
 * writes the block, the launch and the shared memory only there. */
static pthread_barrier_t block_start, block_done;
static const launch *current_launch; /* NULL: the threads end */
static std::vector<pthread_t> block_threads;

static void *run_thread(void *p)
{
    threadIdx = dim3{(unsigned)(uintptr_t)p, 0, 0};
    for (;;) {
        pthread_barrier_wait(&block_start);
        const launch *l = current_launch;
        if (!l) return NULL;
        l->fn(l->m, l->n, l->k, l->ta, l->tb, l->alpha, l->a, l->lda, l->b, l->ldb, l->beta, l->c, l->ldc);
        pthread_barrier_wait(&block_done);
    }
}

static void start_threads()
{
    pthread_barrier_init(&block_barrier, NULL, THREADS);
    pthread_barrier_init(&block_start, NULL, THREADS + 1);
    pthread_barrier_init(&block_done, NULL, THREADS + 1);
    block_threads.resize(THREADS);
    for (unsigned t = 0; t < THREADS; ++t)
        if (pthread_create(&block_threads[t], NULL, run_thread, (void *)(uintptr_t)t) != 0) {
            fprintf(stderr, "pthread_create failed at thread %u\n", t);
            exit(1);
        }
}

static void stop_threads()
{
    current_launch = NULL;
    pthread_barrier_wait(&block_start);
    for (unsigned t = 0; t < THREADS; ++t) pthread_join(block_threads[t], NULL);
    pthread_barrier_destroy(&block_done);
    pthread_barrier_destroy(&block_start);
    pthread_barrier_destroy(&block_barrier);
}

/* The grid as the plugin launches it: one dimension, a block per BM x BN
 * of C. Poisons shared memory first so that a read of something no copy
 * wrote shows. */
static int run(const launch &l)
{
    const int blocks = ((l.m + BM - 1) / BM) * ((l.n + BN - 1) / BN);
    current_launch = &l;
    for (int b = 0; b < blocks; ++b) {
        std::fill(warptile_smem, warptile_smem + sizeof warptile_smem, (unsigned char)0xFF); /* NaN in f32/f64 */
        blockIdx = dim3{(unsigned)b, 0, 0};
        pthread_barrier_wait(&block_start);
        pthread_barrier_wait(&block_done);
    }
    return blocks;
}

/* ---- values: small integers (and, in f64, a fraction below f32's
 * precision), so that f32 and bf16 results are exact and an element from
 * the wrong place is plainly wrong ---- */
static inline double to_double(float x)
{
    return x;
}
static inline double to_double(double x)
{
    return x;
}
static inline double to_double(gh_bf16 x)
{
    return __uint_as_float((unsigned)x.bits << 16);
}
static inline void set(float *p, double v)
{
    *p = (float)v;
}
static inline void set(double *p, double v)
{
    *p = v;
}
static inline void set(gh_bf16 *p, double v)
{
    p->bits = (unsigned short)(__float_as_uint((float)v) >> 16); /* v is exact in bf16 */
}
static void set_nan(elem_t *p)
{
    memset(p, 0xFF, sizeof *p);
}
static int same_bits(const elem_t *x, const elem_t *y)
{
    return memcmp(x, y, sizeof *x) == 0;
}

static uint64_t rng = 88172645463325252ull;
static int small_int()
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % 9) - 4;
}
static double value()
{
    double v = small_int();
    if (sizeof(elem_t) == 8) v += small_int() * 0x1p-30; /* lost if anything goes through f32 */
    return v;
}

struct matrix {
    std::vector<elem_t> buf; /* with guards, and an offset that can break 16-byte alignment */
    long long rows, cols, ld, off;
    elem_t *at(long long i, long long j) { return &buf[(size_t)(off + i * ld + j)]; }
};
/* rows x cols stored with `pad` extra elements a row, `off` elements in. */
static void place(matrix &x, long long rows, long long cols, long long pad, long long off)
{
    x.rows = rows;
    x.cols = cols;
    x.ld = cols + pad;
    x.off = off;
    x.buf.assign((size_t)(off + rows * x.ld + 16), elem_t());
    for (auto &e : x.buf) set_nan(&e); /* padding and guards: NaN, read by mistake it spoils the result */
}

static int failures = 0, cases = 0, vec_cases = 0;

/* One case: op(A) m x k, op(B) k x n, layouts from pad/off (pad/off 0 and
 * multiples of 16 bytes take the 16-byte path). */
static void check(int m, int n, int k, int ta, int tb, long long pad, long long off, double alpha, double beta)
{
    matrix a, b, c;
    place(a, ta ? k : m, ta ? m : k, pad, off);
    place(b, tb ? n : k, tb ? k : n, pad, off * 2);
    place(c, m, n, pad, off * 3);
    std::vector<double> opa((size_t)m * k), opb((size_t)k * n), c0((size_t)m * n);
    for (int i = 0; i < m; ++i)
        for (int p = 0; p < k; ++p) {
            opa[(size_t)i * k + p] = value();
            set(ta ? a.at(p, i) : a.at(i, p), opa[(size_t)i * k + p]);
        }
    for (int p = 0; p < k; ++p)
        for (int j = 0; j < n; ++j) {
            opb[(size_t)p * n + j] = value();
            set(tb ? b.at(j, p) : b.at(p, j), opb[(size_t)p * n + j]);
        }
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            c0[(size_t)i * n + j] = beta != 0.0 ? small_int() : NAN;
            if (beta != 0.0) set(c.at(i, j), c0[(size_t)i * n + j]);
        }
    std::vector<elem_t> c_before = c.buf;

    const elem_t *pa = a.at(0, 0), *pb = b.at(0, 0);
    const bool vec = (uintptr_t)pa % 16 == 0 && (uintptr_t)pb % 16 == 0 && (a.ld * sizeof(elem_t)) % 16 == 0 &&
                     (b.ld * sizeof(elem_t)) % 16 == 0;
    launch l = {kernels[(vec ? 4 : 0) + ta * 2 + tb], m, n, k, ta, tb, (acc_t)alpha, (acc_t)beta, pa, pb, c.at(0, 0),
                a.ld, b.ld, c.ld};
    readable[0] = {(const char *)pa, a.rows, a.cols, a.ld, (long long)sizeof(elem_t)};
    readable[1] = {(const char *)pb, b.rows, b.cols, b.ld, (long long)sizeof(elem_t)};
    stray_reads = 0;
    run(l);
    const long long strays = stray_reads;
    ++cases;
    vec_cases += vec;

    long long bad = 0, guard = 0;
    char first[200] = "";
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0.0, mag = 0.0;
            for (int p = 0; p < k; ++p) {
                s += opa[(size_t)i * k + p] * opb[(size_t)p * n + j];
                mag += fabs(opa[(size_t)i * k + p] * opb[(size_t)p * n + j]);
            }
            const double want = alpha * s + (beta != 0.0 ? beta * c0[(size_t)i * n + j] : 0.0);
            const double got = to_double(*c.at(i, j));
            /* f32: exact. bf16: one rounding at the store. f64: sums of
             * products that do not fit 53 bits, in any order. */
            const double tol = sizeof(elem_t) == 2   ? fabs(want) * 0x1p-8
                               : sizeof(elem_t) == 8 ? (fabs(alpha) * mag + 8.0) * k * 0x1p-50
                                                     : 0.0;
            if (!(fabs(got - want) <= tol) && bad++ == 0)
                snprintf(first, sizeof first, "C(%d, %d) = %.17g, want %.17g", i, j, got, want);
        }
    for (size_t e = 0; e < c.buf.size(); ++e) {
        long long rel = (long long)e - c.off;
        bool inside = rel >= 0 && rel / c.ld < m && rel % c.ld < n;
        if (!inside && !same_bits(&c.buf[e], &c_before[e])) ++guard;
    }
    if (bad || guard || strays) {
        ++failures;
        printf("FAIL: %dx%dx%d %c%c pad %lld off %lld alpha %g beta %g (%s copies): %lld wrong%s%s, %lld writes "
               "outside C, %lld copies reading outside A and B\n",
               m, n, k, ta ? 't' : 'n', tb ? 't' : 'n', pad, off, alpha, beta, vec ? "16-byte" : "scalar", bad,
               bad ? ", first " : "", first, guard, strays);
    }
}

int main()
{
    /* Edges on every side, K under one step and not a multiple of it,
     * several blocks each way (the group order), shapes whose rows are
     * whole 16-byte pieces (the 16-byte path with its partial pieces). */
    static const int shapes[][3] = {{1, 1, 1},      {3, 5, 7},     {37, 53, 29},  {BM + 1, BN - 1, BK + 3},
                                    {BM - 1, BN + 1, 2 * BK - 1},  {65, 130, 17}, {2 * BM + 3, 9, 5},
                                    {12, 3 * BN + 4, 40},          {BM, BN, 4 * BK}, {68, 132, 36}};
    /* (pad, offset) in elements: tight, 16 bytes of each (the 16-byte path
     * with padding), and odd (the scalar path). */
    const long long v = 16 / (long long)sizeof(elem_t);
    const long long layouts[][2] = {{0, 0}, {v, v}, {3, 7}};
    start_threads();
    for (const auto &s : shapes)
        for (int t = 0; t < 4; ++t)
            for (const auto &lay : layouts) {
                check(s[0], s[1], s[2], t >> 1, t & 1, lay[0], lay[1], 1.5, -0.75);
                check(s[0], s[1], s[2], t >> 1, t & 1, lay[0], lay[1], -2.0, 0.0);
            }
    stop_threads();
    printf("warptile on the CPU (%s, bm %d bn %d bk %d wm %d wn %d tm %d tn %d stages %d, %s): %d cases (%d with "
           "16-byte copies), %d failed\n",
           sizeof(elem_t) == 2 ? "bf16" : sizeof(elem_t) == 8 ? "f64" : "f32", BM, BN, BK, WM, WN, TM, TN, STAGES,
           ASYNC ? "cp.async as copies" : "through registers", cases, vec_cases, failures);
    return failures ? 1 : 0;
}
