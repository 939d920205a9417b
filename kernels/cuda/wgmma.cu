/*
 * wgmma: Hopper's warpgroup tensor cores (sm_90a). A thread block of three
 * warpgroups computes a BM x BN block of C:
 *  - warpgroup 0 is the producer: one of its threads loads the tiles of A
 *    and B for each step along K with TMA (cp.async.bulk.tensor) into
 *    STAGES shared-memory buffers, each with a "full" mbarrier that counts
 *    the bytes in, and waits on the buffer's "empty" mbarrier before it
 *    refills it. It gives most of its registers to the consumers
 *    (setmaxnreg).
 *  - warpgroups 1 and 2 are the consumers: each multiplies BM / 2 rows of
 *    the block by all BN columns with wgmma.mma_async (m64nBNk16 for f16
 *    and bf16, k8 for TF32), reading A and B straight from shared memory
 *    through matrix descriptors, the sums in f32 registers, one step's
 *    products in flight while it waits for the next; then marks the
 *    buffer of the step before empty. At the end each writes its part of C = alpha * acc + beta
 *    * C from its registers, element by element within M and N.
 *
 * Tiles lie in shared memory as TMA writes them with its 128-byte swizzle
 * (which spreads each 8 rows of 128 bytes over all banks), in rows of 128
 * bytes of the operand's contiguous dimension:
 *  - K-major (op(A) without trans_a, op(B) with trans_b): BM (or BN) rows
 *    of BK = 128 bytes of K; 8-row groups 1024 bytes apart (the
 *    descriptor's stride offset); a step of 16 along K is 32 bytes on.
 *  - M- or N-major (16-bit types only; PTX's transpose flags): pieces of 64
 *    M (or N) elements by BK rows of K, 8 KB each (the descriptor's leading
 *    offset); 8-row groups along K 1024 bytes apart; a step of 16 along K
 *    is 16 rows, 2048 bytes on.
 * TMA reads the matrices in place: their rows must be whole 16 bytes and
 * start 16-byte aligned, which the plugin checks (plugins/cuda/wgmma.c),
 * and it fills what lies past M, N or K with zeros, so any M, N, K is
 * correct. TF32 has no transposed form: f32 takes K-major A and B only.
 *
 * Blocks are numbered in groups of 8 rows of blocks for L2, as the other
 * kernels (gemm_common.cuh's block_origin).
 *
 * Defines: DTYPE (gh_f16, gh_bf16, float as TF32; gemm_common.cuh), BM
 * (128, 256: one or two m64 tiles per consumer), BN (64, 128, 256), STAGES.
 */
#include "gemm_common.cuh"
#include "wgmma_ops.cuh"

#if !defined(BM) || !defined(BN) || !defined(STAGES)
#error "BM, BN and STAGES must be defined"
#endif

#define CONSUMERS 2
#define THREADS   ((CONSUMERS + 1) * 128)
#define MT        (BM / (64 * CONSUMERS)) /* m64 tiles per consumer */
#define TF32      (sizeof(elem_t) == 4)
#define BK        (128 / (int)sizeof(elem_t)) /* one 128-byte swizzle row of K */
#define KSTEP     (TF32 ? 8 : 16)
#define A_BYTES   (BM * 128)
#define B_BYTES   (BN * 128)

static_assert(BM == 64 * CONSUMERS * MT && (MT == 1 || MT == 2), "BM is 128 or 256");
static_assert(BN == 64 || BN == 128 || BN == 256, "BN is 64, 128 or 256");
static_assert(MT * BN / 2 <= 128, "at most 128 accumulators a thread");

/* A CUtensorMap, as cuTensorMapEncodeTiled writes it (cuda.h's is not
 * available to NVRTC): 128 opaque bytes, 64-byte aligned. */
struct __align__(64) tensor_map {
    unsigned long long opaque[16];
};

static __device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* ---- mbarriers ---- */
static __device__ __forceinline__ void barrier_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(count));
}
static __device__ __forceinline__ void barrier_expect_bytes(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
                 : "memory");
}
static __device__ __forceinline__ void barrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
}
/* Returns once the barrier's phase of this parity has completed. */
static __device__ __forceinline__ void barrier_wait(unsigned long long *bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n"
                 "}\n" ::"r"(shared_address(bar)),
                 "r"(parity)
                 : "memory");
}

/* A box of the tensor map at (inner, outer) into dst, counted on bar. */
static __device__ __forceinline__ void tma_load(void *dst, const tensor_map *map, int inner, int outer,
                                                unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, "
                 "%3}], [%4];\n" ::"r"(shared_address(dst)),
                 "l"(map), "r"(inner), "r"(outer), "r"(shared_address(bar))
                 : "memory");
}

/* A shared-memory matrix descriptor: the address, the leading and stride
 * byte offsets (16-byte units, 14 bits each) and the 128-byte swizzle. */
static __device__ __forceinline__ unsigned long long descriptor(const void *p, unsigned leading, unsigned stride)
{
    return (unsigned long long)((shared_address(p) & 0x3FFFF) >> 4) |
           (unsigned long long)((leading & 0x3FFFF) >> 4) << 16 |
           (unsigned long long)((stride & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}

/* gemm_store of two neighbours at once: at is aligned to both. */
struct __align__(2 * sizeof(elem_t)) elem_pair {
    elem_t v[2];
};
static __device__ __forceinline__ void gemm_store_pair(elem_t *at, float alpha, float acc0, float acc1, float beta)
{
    elem_pair p;
    if (beta != 0.0f) p = *reinterpret_cast<const elem_pair *>(at);
    store_rounded(&p.v[0], beta == 0.0f ? alpha * acc0 : alpha * acc0 + beta * to_acc(p.v[0]));
    store_rounded(&p.v[1], beta == 0.0f ? alpha * acc1 : alpha * acc1 + beta * to_acc(p.v[1]));
    *reinterpret_cast<elem_pair *>(at) = p;
}

template <typename T> struct is_f16 {
    static const bool value = false;
};
template <> struct is_f16<gh_f16> {
    static const bool value = true;
};

/* One m64nBNkKSTEP product of the consumer's accumulators d. */
template <int TA, int TB>
static __device__ __forceinline__ void wgmma_step(float *d, unsigned long long a, unsigned long long b)
{
#define GH_WGMMA_CALL(N)                                                                           \
    if (TF32) wgmma_n##N##_tf32(d, a, b);                                                          \
    else if (is_f16<elem_t>::value) wgmma_n##N##_f16<TA, TB>(d, a, b);                            \
    else wgmma_n##N##_bf16<TA, TB>(d, a, b);
    if (BN == 64) {
        GH_WGMMA_CALL(64)
    } else if (BN == 128) {
        GH_WGMMA_CALL(128)
    } else {
        GH_WGMMA_CALL(256)
    }
#undef GH_WGMMA_CALL
}

template <bool TA, bool TB>
static __device__ __forceinline__ void wgmma_gemm(int M, int N, int K, float alpha, float beta,
                                                  elem_t *__restrict__ C, long long ldc, const tensor_map *map_a,
                                                  const tensor_map *map_b, unsigned char *smem)
{
    /* op(A) is M-major with trans_a; op(B) N-major without trans_b. */
    const int A_MN = TA, B_MN = !TB;
    /* TF32 has no transposed form: the plugin refuses the other pairs. */
    if (TF32 && (A_MN || B_MN)) __trap();

    int row0, col0;
    block_origin(M, N, BM, BN, &row0, &col0);

    unsigned char *a_tiles = smem, *b_tiles = smem + STAGES * A_BYTES;
    unsigned long long *full = reinterpret_cast<unsigned long long *>(b_tiles + STAGES * B_BYTES);
    unsigned long long *empty = full + STAGES;
    const int steps = (K + BK - 1) / BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            barrier_init(&full[s], 1);
            barrier_init(&empty[s], CONSUMERS);
        }
        /* The barriers, as initialised, visible to TMA (the async proxy). */
        asm volatile("fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\n" ::: "memory");
    }
    __syncthreads();

    const int group = (int)threadIdx.x / 128;
    if (group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (threadIdx.x != 0) return;
        for (int s = 0; s < steps; ++s) {
            const int st = s % STAGES;
            if (s >= STAGES) barrier_wait(&empty[st], (unsigned)((s / STAGES) - 1) & 1u);
            barrier_expect_bytes(&full[st], A_BYTES + B_BYTES);
            unsigned char *a_st = a_tiles + st * A_BYTES, *b_st = b_tiles + st * B_BYTES;
            const int k0 = s * BK;
            /* K-major: one box of rows x BK; M/N-major: boxes of 64 x BK. */
            if (A_MN)
                for (int p = 0; p < BM / 64; ++p) tma_load(a_st + p * 8192, map_a, row0 + p * 64, k0, &full[st]);
            else tma_load(a_st, map_a, k0, row0, &full[st]);
            if (B_MN)
                for (int p = 0; p < BN / 64; ++p) tma_load(b_st + p * 8192, map_b, col0 + p * 64, k0, &full[st]);
            else tma_load(b_st, map_b, k0, col0, &full[st]);
        }
        return;
    }

    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int consumer = group - 1;
    float d[MT][BN / 2];
#pragma unroll
    for (int t = 0; t < MT; ++t)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) d[t][i] = 0.0f;

    for (int s = 0; s < steps; ++s) {
        const int st = s % STAGES;
        barrier_wait(&full[st], (unsigned)(s / STAGES) & 1u);
        const unsigned char *a_st = a_tiles + st * A_BYTES, *b_st = b_tiles + st * B_BYTES;
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int kk = 0; kk < BK / KSTEP; ++kk) {
            /* K-major: 32 bytes per step along K; M/N-major: 16 rows of 128. */
            const int a_k = A_MN ? kk * 2048 : kk * 32, b_k = B_MN ? kk * 2048 : kk * 32;
            const unsigned long long b = descriptor(b_st + b_k, B_MN ? 8192 : 16, 1024);
#pragma unroll
            for (int t = 0; t < MT; ++t) {
                const int m_tile = consumer * MT + t; /* its 64 rows: 8 KB either way */
                const unsigned long long a = descriptor(a_st + m_tile * 8192 + a_k, A_MN ? 8192 : 16, 1024);
                wgmma_step<A_MN, B_MN>(d[t], a, b);
            }
        }
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        /* Keep this step's products running while the next step's wait
         * starts: the step before is done, and its buffer goes back. */
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
        if (s > 0 && threadIdx.x % 128 == 0) barrier_arrive(&empty[(s - 1) % STAGES]);
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");

    /* Accumulator i of a 64 x BN tile, in thread t of the warpgroup: row
     * (t / 32) * 16 + (t % 32) / 4 (+ 8 for odd i / 2), column (i / 4) * 8 +
     * (t % 4) * 2 + i % 2. */
    const int t = (int)threadIdx.x % 128;
    const int r_in = (t / 32) * 16 + (t % 32) / 4, c_in = (t % 4) * 2;
    /* Accumulators i and i + 1 are neighbours in a row: one store of both
     * where C's rows and start keep the pair aligned. */
    const bool pairs = ((unsigned long long)C % (2 * sizeof(elem_t))) == 0 && ldc % 2 == 0;
#pragma unroll
    for (int mt = 0; mt < MT; ++mt)
#pragma unroll
        for (int i = 0; i < BN / 2; i += 2) {
            const int r = row0 + (consumer * MT + mt) * 64 + r_in + ((i / 2) % 2) * 8;
            const int c = col0 + (i / 4) * 8 + c_in;
            if (r >= M) continue;
            elem_t *at = &C[(long long)r * ldc + c];
            if (pairs && c + 1 < N) {
                gemm_store_pair(at, alpha, d[mt][i], d[mt][i + 1], beta);
            } else {
                if (c < N) gemm_store(at, alpha, d[mt][i], beta);
                if (c + 1 < N) gemm_store(at + 1, alpha, d[mt][i + 1], beta);
            }
        }
}

/* One kernel per transpose pair (TF32 runs nt only: the others trap). The shared memory is
 * dynamic: STAGES tiles of A and B, then 2 * STAGES mbarriers, from a
 * 1024-byte boundary (the swizzle's period), which the plugin adds room
 * for. */
#define GEMM_WGMMA(NAME, TA, TB)                                                                                \
    extern "C" __global__ void __launch_bounds__(THREADS, 1)                                                     \
    NAME(int M, int N, int K, acc_t alpha, acc_t beta, elem_t *__restrict__ C, long long ldc,                   \
         const __grid_constant__ tensor_map map_a, const __grid_constant__ tensor_map map_b)                    \
    {                                                                                                           \
        extern __shared__ __align__(1024) unsigned char wgmma_smem[];                                           \
        unsigned char *base = reinterpret_cast<unsigned char *>(                                                \
            (reinterpret_cast<unsigned long long>(wgmma_smem) + 1023) & ~1023ull);                              \
        wgmma_gemm<TA, TB>(M, N, K, alpha, beta, C, ldc, &map_a, &map_b, base);                                 \
    }

GEMM_WGMMA(gemm_wgmma_nn, false, false)
GEMM_WGMMA(gemm_wgmma_nt, false, true)
GEMM_WGMMA(gemm_wgmma_tn, true, false)
GEMM_WGMMA(gemm_wgmma_tt, true, true)
