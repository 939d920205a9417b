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
 *    and bf16, k8 for TF32, k32 for FP8 and s8), reading A and B straight from shared memory
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
 * correct. TF32, FP8 and s8 have no transposed form: they take K-major A
 * and B only (trans nt).
 *
 * FP8 (A_TYPE, B_TYPE gh_e4m3 or gh_e5m2, DTYPE C's type): the tensor
 * cores keep an FP8 product's running sum in fewer bits than f32. PROMOTE
 * = N > 0 adds it into a set of f32 registers every N steps of BK (128
 * K-elements) and restarts it (DeepGEMM's two-level accumulation at N =
 * 1); PROMOTE = 0 never does. Two narrow sums take turns: while the tensor
 * cores sum one group of N steps into one (its first wgmma with scale-d 0,
 * so nothing is zeroed), the group before, complete, is added from the
 * other, so the tensor cores wait for a promotion only once a round of 16
 * steps (a drain that ptxas needs, see the loop; the two consumers drain
 * half a round apart). Three sets of accumulators: bm 128 with bn <= 128
 * only.
 *
 * s8 (A_TYPE and B_TYPE gh_i8, DTYPE int): the same pipeline and layout as
 * FP8 (bytes, k32), summed exactly in s32 registers; alpha and beta are
 * integers.
 *
 * Blocks are numbered in groups of 8 rows of blocks for L2, as the other
 * kernels (gemm_common.cuh's block_origin).
 *
 * CLUSTER = 2: the blocks run in clusters of two (the plugin launches them
 * so, cuLaunchKernelEx) that compute vertically adjacent blocks of C, rows
 * row0 and row0 + BM of the same columns: B's tile is the same for both, so
 * each block's producer loads half of it (K-major: BN / 2 rows, the tensor
 * map's box; M/N-major: every other 64-column piece) into both blocks'
 * shared memory at once (TMA multicast), and L2 serves B once per pair. A
 * buffer is refilled only once the consumers of both blocks are done with
 * it: each consumer marks it empty in both blocks. The pair waits for each
 * other (a cluster barrier) after initialising the mbarriers, before any
 * block writes into the other, and before exiting, while the other may still
 * arrive on its mbarriers. A block past M still loads and counts; it stores
 * nothing. CLUSTER = 1 (or undefined): one block alone, as before.
 *
 * PERSISTENT = 1: a block (a pair with CLUSTER 2) computes tile after tile
 * of C, its first as a block of PERSISTENT 0 would and then every
 * gridDim.x / CLUSTER-th in the same numbering, so the plugin launches at
 * most one block per SM (any grid is correct, a grid of one too). Why: at
 * one block per SM, the SM otherwise idles between one block's last wgmma
 * and the next block's first (its epilogue, the launch, refilling the
 * pipeline). Here the producer runs on across tiles, loading the next
 * tile's steps while the consumers store the last tile's C. Producer and
 * consumers count the steps over all the block's tiles (step g: stage g %
 * STAGES, mbarrier phase g / STAGES), exactly as one long loop along K
 * would; at a tile's end a consumer drains its wgmmas, gives the last
 * step's buffer back (with PERSISTENT 0 the block exits instead and nothing
 * waits for it), stores its C and starts the next tile from zero. The
 * cluster barriers stay once a kernel. PERSISTENT 0: one tile a block, the
 * tile loop compiled away.
 *
 * Defines: DTYPE (gh_f16, gh_bf16, float as TF32; or C's type with A_TYPE
 * and B_TYPE FP8, or int with both gh_i8; gemm_common.cuh), BM (128, 256:
 * one or two m64 tiles per consumer), BN (64, 128, 256), STAGES, PROMOTE (0
 * but for FP8), CLUSTER (1 or 2; 1 when not defined), PERSISTENT (0 or 1).
 */
#include "gemm_common.cuh"
#include "wgmma_ops.cuh" /* generated by tools/gen_wgmma_ops.py into the build tree */

#if !defined(BM) || !defined(BN) || !defined(STAGES) || !defined(PROMOTE) || !defined(PERSISTENT)
#error "BM, BN, STAGES, PROMOTE and PERSISTENT must be defined"
#endif
#ifndef CLUSTER
#define CLUSTER 1
#endif

#define CONSUMERS 2
#define THREADS   ((CONSUMERS + 1) * 128)
#define MT        (BM / (64 * CONSUMERS)) /* m64 tiles per consumer */
typedef a_t in_t; /* A's and B's storage (elem_t is C's) */
template <typename T> struct is_i8 {
    static const bool value = false;
};
template <> struct is_i8<gh_i8> {
    static const bool value = true;
};
#define TF32      (sizeof(in_t) == 4)
#define INT8      (is_i8<in_t>::value) /* s8 x s8 into s32 accumulators */
#define FP8       (sizeof(in_t) == 1 && !INT8)
#define BK        (128 / (int)sizeof(in_t)) /* one 128-byte swizzle row of K */
#define KSTEP     (32 / (int)sizeof(in_t))  /* 32 bytes of K per instruction */
#define A_BYTES   (BM * 128)
#define B_BYTES   (BN * 128)

static_assert(BM == 64 * CONSUMERS * MT && (MT == 1 || MT == 2), "BM is 128 or 256");
static_assert(BN == 64 || BN == 128 || BN == 256, "BN is 64, 128 or 256");
static_assert(MT * BN / 2 <= 128, "at most 128 accumulators a thread");
static_assert(sizeof(a_t) == sizeof(b_t), "A and B of one size");
static_assert(PROMOTE == 0 || (FP8 && MT == 1 && BN <= 128),
              "promotion: FP8 only, with room for three sets of accumulators (bm 128, bn <= 128)");
static_assert(!INT8 || sizeof(acc_t) == 4, "s8 sums into an i32 C");
static_assert(CLUSTER == 1 || CLUSTER == 2, "CLUSTER is 1 or 2");
static_assert(PERSISTENT == 0 || PERSISTENT == 1, "PERSISTENT is 0 or 1");

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

/* ---- clusters (CLUSTER 2) ---- */
static __device__ __forceinline__ unsigned cluster_rank()
{
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    return rank;
}
static __device__ __forceinline__ unsigned cluster_blocks()
{
    unsigned n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(n));
    return n;
}
/* Waits for every thread of the cluster to get here; what each wrote before
 * (shared memory, mbarrier arrivals) is visible to all after. Not .aligned:
 * the producer's one loading thread comes alone. */
static __device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n" ::: "memory");
}
/* An arrival on the mbarrier at bar's place in block `rank` of the cluster. */
static __device__ __forceinline__ void barrier_arrive_in(unsigned long long *bar, unsigned rank)
{
    asm volatile("{\n"
                 ".reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
                 "}\n" ::"r"(shared_address(bar)),
                 "r"(rank)
                 : "memory");
}
/* barrier_wait, also seeing the other block's arrivals (release.cluster). */
static __device__ __forceinline__ void barrier_wait_cluster(unsigned long long *bar, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred done;\n"
                 "wait_%=:\n"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n"
                 "}\n" ::"r"(shared_address(bar)),
                 "r"(parity)
                 : "memory");
}
/* tma_load's box into dst's place in every block of the cluster in mask
 * (bit r: rank r), counted on each one's mbarrier at bar's place. */
static __device__ __forceinline__ void tma_load_multicast(void *dst, const tensor_map *map, int inner, int outer,
                                                          unsigned long long *bar, unsigned short mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(shared_address(dst)),
                 "l"(map), "r"(inner), "r"(outer), "r"(shared_address(bar)), "h"(mask)
                 : "memory");
}
/* A consumer is done with a buffer: its block's producer may refill it,
 * and with CLUSTER 2 the other block's too (it writes half of B there). */
static __device__ __forceinline__ void release_stage(unsigned long long *empty)
{
    barrier_arrive(empty);
    if (CLUSTER == 2) barrier_arrive_in(empty, cluster_rank() ^ 1u);
}

/* A shared-memory matrix descriptor: the address, the leading and stride
 * byte offsets (16-byte units, 14 bits each) and the 128-byte swizzle. */
static __device__ __forceinline__ unsigned long long descriptor(const void *p, unsigned leading, unsigned stride)
{
    return (unsigned long long)((shared_address(p) & 0x3FFFF) >> 4) |
           (unsigned long long)((leading & 0x3FFFF) >> 4) << 16 |
           (unsigned long long)((stride & 0x3FFFF) >> 4) << 32 | 1ull << 62;
}

/* gemm_store of two neighbours at once: at is aligned to both. p starts
 * as zeros, read over only on the beta path: left undefined on the other,
 * it kept registers of its own through the whole epilogue (a pair for each
 * of the 64 stores), which spilled once the epilogue sat in PERSISTENT's
 * tile loop. */
struct __align__(2 * sizeof(elem_t)) elem_pair {
    elem_t v[2];
};
static __device__ __forceinline__ void gemm_store_pair(elem_t *at, acc_t alpha, acc_t acc0, acc_t acc1, acc_t beta)
{
    elem_pair p = {};
    if (beta != (acc_t)0) p = *reinterpret_cast<const elem_pair *>(at);
    store_rounded(&p.v[0], beta == (acc_t)0 ? alpha * acc0 : alpha * acc0 + beta * to_acc(p.v[0]));
    store_rounded(&p.v[1], beta == (acc_t)0 ? alpha * acc1 : alpha * acc1 + beta * to_acc(p.v[1]));
    *reinterpret_cast<elem_pair *>(at) = p;
}

template <typename T> struct is_f16 {
    static const bool value = false;
};
template <> struct is_f16<gh_f16> {
    static const bool value = true;
};
template <typename T> struct is_e4m3 {
    static const bool value = false;
};
template <> struct is_e4m3<gh_e4m3> {
    static const bool value = true;
};

/* One m64nBNkKSTEP product of the consumer's accumulators d (acc_t: f32,
 * or i32 for s8; the branches not taken are compile-time dead, and see d
 * through the type their instruction writes). scale_d 0 starts a new sum
 * (D = A * B, d's old values unread), otherwise D += A * B. */
template <int TA, int TB>
static __device__ __forceinline__ void wgmma_step(acc_t *d_acc, unsigned long long a, unsigned long long b,
                                                  int scale_d)
{
    float *d = reinterpret_cast<float *>(d_acc);
    int *d_int = reinterpret_cast<int *>(d_acc);
#define GH_WGMMA_CALL(N)                                                                                  \
    if (INT8) wgmma_n##N##_s8s8(d_int, a, b, scale_d);                                                    \
    else if (TF32) wgmma_n##N##_tf32(d, a, b, scale_d);                                                   \
    else if (FP8 && is_e4m3<a_t>::value && is_e4m3<b_t>::value) wgmma_n##N##_e4m3e4m3(d, a, b, scale_d);  \
    else if (FP8 && is_e4m3<a_t>::value) wgmma_n##N##_e4m3e5m2(d, a, b, scale_d);                          \
    else if (FP8 && is_e4m3<b_t>::value) wgmma_n##N##_e5m2e4m3(d, a, b, scale_d);                          \
    else if (FP8) wgmma_n##N##_e5m2e5m2(d, a, b, scale_d);                                                 \
    else if (is_f16<in_t>::value) wgmma_n##N##_f16<TA, TB>(d, a, b, scale_d);                             \
    else wgmma_n##N##_bf16<TA, TB>(d, a, b, scale_d);
    if (BN == 64) {
        GH_WGMMA_CALL(64)
    } else if (BN == 128) {
        GH_WGMMA_CALL(128)
    } else {
        GH_WGMMA_CALL(256)
    }
#undef GH_WGMMA_CALL
}

typedef acc_t accumulators[MT][BN / 2];

/* One step's wgmmas (BK of K from one stage's tiles) into d, committed as
 * one group; restart starts d's sum afresh with the first of them. */
template <int A_MN, int B_MN>
static __device__ __forceinline__ void issue_step(accumulators &d, const unsigned char *a_st,
                                                  const unsigned char *b_st, int consumer, bool restart)
{
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
            wgmma_step<A_MN, B_MN>(d[t], a, b, restart && kk == 0 ? 0 : 1);
        }
    }
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* What a consumer reads its tiles from and signals on. */
struct consumer_pipe {
    const unsigned char *a_tiles, *b_tiles;
    unsigned long long *full, *empty;
    int consumer;
};

/* Step s, in stage st of this parity (prev: the stage of step s - 1):
 * waits for its tiles, issues its wgmmas into d, then waits for the step
 * before (only the newest commit group may still run) and gives that
 * step's buffer back to the producer. */
template <int A_MN, int B_MN>
static __device__ __forceinline__ void consume_step(accumulators &d, int s, int st, unsigned parity, int prev,
                                                    bool restart, const consumer_pipe &p)
{
    barrier_wait(&p.full[st], parity);
    issue_step<A_MN, B_MN>(d, p.a_tiles + st * A_BYTES, p.b_tiles + st * B_BYTES, p.consumer, restart);
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    if (s > 0 && threadIdx.x % 128 == 0) release_stage(&p.empty[prev]);
}

#if PROMOTE > 0
/* The promoted loop goes in rounds of ROUND_STEPS steps, ROUND_PAIRS
 * pairs of groups (see the loop for why rounds). Rounds start at
 * multiples of half a round, so groups start at multiples of PROMOTE. */
#define ROUND_STEPS 16
#define ROUND_PAIRS (ROUND_STEPS / (2 * PROMOTE))
static_assert(PROMOTE > 0 && (ROUND_STEPS / 2) % PROMOTE == 0, "PROMOTE divides half a round");

/* The next step's stage and its parity, carried from step to step: were
 * they worked out from s, ptxas would know every step's stage in an
 * unrolled round and keep all their addresses in registers (spilling at
 * stages 4). */
struct stage_state {
    int stage;
    unsigned parity;
};

template <int A_MN, int B_MN>
static __device__ __forceinline__ void promoted_step(accumulators &d, int s, bool restart, stage_state &ss,
                                                     const consumer_pipe &p)
{
    consume_step<A_MN, B_MN>(d, s, ss.stage, ss.parity, ss.stage == 0 ? STAGES - 1 : ss.stage - 1, restart, p);
    if (++ss.stage == STAGES) {
        ss.stage = 0;
        ss.parity ^= 1u;
    }
}

/* Pins r's registers here (CUTLASS's warpgroup_fence_operand): the
 * compiler may otherwise move the promotion's adds below the next wgmma
 * on the same registers, copying them while it runs, which makes ptxas
 * serialise every wgmma (C7514; seen in a reduced loop of this shape). */
static __device__ __forceinline__ void pin(float (&r)[MT][BN / 2])
{
#pragma unroll
    for (int t = 0; t < MT; ++t)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) asm volatile("" : "+f"(r[t][i])::"memory");
}

/* promoted += d, for a d whose wgmmas have completed. */
static __device__ __forceinline__ void promote_sum(float (&promoted)[MT][BN / 2], accumulators &d)
{
    pin(d);
#pragma unroll
    for (int t = 0; t < MT; ++t)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) promoted[t][i] += d[t][i];
    pin(promoted);
}

/* d = 0, after its wgmmas have completed. */
static __device__ __forceinline__ void zero(accumulators &d)
{
#pragma unroll
    for (int t = 0; t < MT; ++t)
#pragma unroll
        for (int i = 0; i < BN / 2; ++i) d[t][i] = 0.0f;
    pin(d);
}

/* One promotion group, steps s0 .. s0 + PROMOTE - 1 (those before end),
 * summed in d from zero (the first wgmma's scale-d 0: no zeroing). Once
 * its first step's wait_group 1 returns, the group before, in d_before,
 * is complete: it goes into promoted while the tensor cores run that
 * step. */
template <int A_MN, int B_MN>
static __device__ __forceinline__ void pingpong_group(accumulators &d, accumulators &d_before,
                                                      float (&promoted)[MT][BN / 2], int s0, int end,
                                                      stage_state &ss, const consumer_pipe &p)
{
    promoted_step<A_MN, B_MN>(d, s0, true, ss, p);
    promote_sum(promoted, d_before);
#pragma unroll
    for (int i = 1; i < PROMOTE; ++i)
        if (s0 + i < end) promoted_step<A_MN, B_MN>(d, s0 + i, false, ss, p);
}

/* One round: the groups of steps s .. end - 1 (at most ROUND_STEPS; s a
 * multiple of PROMOTE), d0 and d1 in turn, then a drain. On entry and on
 * return d1 holds a complete group not yet promoted, or zeros. */
template <int A_MN, int B_MN>
static __device__ __forceinline__ void pingpong_round(accumulators &d0, accumulators &d1,
                                                      float (&promoted)[MT][BN / 2], int s, int end,
                                                      stage_state &ss, const consumer_pipe &p)
{
#pragma unroll
    for (int pair = 0; pair < ROUND_PAIRS; ++pair) {
        const int first0 = s + 2 * pair * PROMOTE, first1 = first0 + PROMOTE;
        if (first0 >= end) break;
        pingpong_group<A_MN, B_MN>(d0, d1, promoted, first0, end, ss, p);
        if (first1 >= end) {
            /* Cut short after a group in d0: promote it here, and d1,
             * already promoted, becomes zeros (adding them changes
             * nothing: promoted is never -0). */
            asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
            promote_sum(promoted, d0);
            zero(d1);
            return;
        }
        pingpong_group<A_MN, B_MN>(d1, d0, promoted, first1, end, ss, p);
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
#endif

/* The tiles of C a block computes (with CLUSTER 2 a pair: both blocks take
 * the same ones), numbered as block_origin_at takes them: its own, one
 * block per tile (PERSISTENT 0: the loop below runs once, the grid holding
 * every tile); then (PERSISTENT 1) every gridDim.x / CLUSTER-th after it.
 *   for (int tile = first_tile(); more_tiles(tile, tiles); tile = next_tile(tile)) { ...; if (!PERSISTENT) break; } */
static __device__ __forceinline__ int first_tile() { return (int)blockIdx.x / CLUSTER; }
static __device__ __forceinline__ bool more_tiles(int tile, int tiles) { return !PERSISTENT || tile < tiles; }
static __device__ __forceinline__ int next_tile(int tile) { return tile + (int)gridDim.x / CLUSTER; }

/* The first row and column of this block's part of tile `tile`: with
 * CLUSTER 2 the pair's blocks (ranks 0 and 1, blockIdx.x even and odd)
 * share one 2 BM x BN tile, rank r its rows from r * BM. */
static __device__ __forceinline__ void tile_origin(int tile, int M, int N, unsigned rank, int *row0, int *col0)
{
    block_origin_at(tile, M, N, CLUSTER * BM, BN, row0, col0);
    *row0 += (int)rank * BM;
}

/* C = alpha * sum + beta * C for the consumer's rows of the block's part
 * of C at (row0, col0). Accumulator i of a 64 x BN tile, in thread t of the
 * warpgroup: row (t / 32) * 16 + (t % 32) / 4 (+ 8 for odd i / 2), column
 * (i / 4) * 8 + (t % 4) * 2 + i % 2. */
static __device__ __forceinline__ void store_tile(const acc_t (&sum)[MT][BN / 2], int M, int N, acc_t alpha,
                                                  acc_t beta, elem_t *__restrict__ C, long long ldc, int row0,
                                                  int col0, int consumer)
{
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
                gemm_store_pair(at, alpha, sum[mt][i], sum[mt][i + 1], beta);
            } else {
                if (c < N) gemm_store(at, alpha, sum[mt][i], beta);
                if (c + 1 < N) gemm_store(at + 1, alpha, sum[mt][i + 1], beta);
            }
        }
}

template <bool TA, bool TB>
static __device__ __forceinline__ void wgmma_gemm(int M, int N, int K, acc_t alpha, acc_t beta,
                                                  elem_t *__restrict__ C, long long ldc, const tensor_map *map_a,
                                                  const tensor_map *map_b, unsigned char *smem)
{
    /* op(A) is M-major with trans_a; op(B) N-major without trans_b. */
    const int A_MN = TA, B_MN = !TB;
    /* TF32, FP8 and s8 have no transposed form: the plugin refuses the other pairs. */
    if ((TF32 || sizeof(in_t) == 1) && (A_MN || B_MN)) __trap();

    const unsigned rank = CLUSTER == 2 ? cluster_rank() : 0u;
    /* Tiles of C: 2 BM x BN for a pair with CLUSTER 2. */
    const int tiles = ((M + CLUSTER * BM - 1) / (CLUSTER * BM)) * ((N + BN - 1) / BN);

    unsigned char *a_tiles = smem, *b_tiles = smem + STAGES * A_BYTES;
    unsigned long long *full = reinterpret_cast<unsigned long long *>(b_tiles + STAGES * B_BYTES);
    unsigned long long *empty = full + STAGES;
    const int steps = (K + BK - 1) / BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            barrier_init(&full[s], 1);
            barrier_init(&empty[s], CONSUMERS * CLUSTER); /* each consumer of the pair */
        }
        /* The barriers, as initialised, visible to TMA (the async proxy). */
        asm volatile("fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\n" ::: "memory");
    }
    __syncthreads();
    if (CLUSTER == 2) {
        /* Launched without the cluster, the multicast would have no partner. */
        if (cluster_blocks() != CLUSTER) __trap();
        cluster_sync(); /* both blocks' mbarriers ready before either writes into the other */
    }

    const int group = (int)threadIdx.x / 128;
    if (group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (threadIdx.x != 0) {
            if (CLUSTER == 2) cluster_sync(); /* the exit's: every thread of the pair takes part */
            return;
        }
        /* g: the steps loaded so far over all the block's tiles; step g
         * goes into stage g % STAGES, whose (g / STAGES)-th filling it is. */
        int g = 0;
        for (int tile = first_tile(); more_tiles(tile, tiles); tile = next_tile(tile)) {
            int row0, col0;
            tile_origin(tile, M, N, rank, &row0, &col0);
            for (int s = 0; s < steps; ++s, ++g) {
                const int st = g % STAGES;
                if (g >= STAGES) {
                    /* its last filling's consumers are done with it */
                    const unsigned parity = (unsigned)((g / STAGES) - 1) & 1u;
                    if (CLUSTER == 2) barrier_wait_cluster(&empty[st], parity);
                    else barrier_wait(&empty[st], parity);
                }
                /* Its own A, and all of B: half from each block of a pair. */
                barrier_expect_bytes(&full[st], A_BYTES + B_BYTES);
                unsigned char *a_st = a_tiles + st * A_BYTES, *b_st = b_tiles + st * B_BYTES;
                const int k0 = s * BK;
                /* K-major: one box of rows x BK; M/N-major: boxes of 64 x BK. */
                if (A_MN)
                    for (int p = 0; p < BM / 64; ++p)
                        tma_load(a_st + p * 8192, map_a, row0 + p * 64, k0, &full[st]);
                else tma_load(a_st, map_a, k0, row0, &full[st]);
                if (CLUSTER == 2) {
                    /* Its half into both blocks: the M/N-major pieces r, r + 2,
                     * ... (with bn 64 rank 0 loads the one); the K-major rows
                     * from r * BN / 2 (the map's box), 1024-byte aligned as the
                     * swizzle wants. */
                    const unsigned short both = 0x3;
                    if (B_MN)
                        for (int p = (int)rank; p < BN / 64; p += 2)
                            tma_load_multicast(b_st + p * 8192, map_b, col0 + p * 64, k0, &full[st], both);
                    else
                        tma_load_multicast(b_st + rank * (B_BYTES / 2), map_b, k0, col0 + (int)rank * (BN / 2),
                                           &full[st], both);
                } else if (B_MN)
                    for (int p = 0; p < BN / 64; ++p)
                        tma_load(b_st + p * 8192, map_b, col0 + p * 64, k0, &full[st]);
                else tma_load(b_st, map_b, k0, col0, &full[st]);
            }
            if (!PERSISTENT) break;
        }
        if (CLUSTER == 2) cluster_sync();
        return;
    }

    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
    const int consumer = group - 1;
    const consumer_pipe pipe = {a_tiles, b_tiles, full, empty, consumer};
#if PROMOTE > 0
    /* Two narrow sums in turn ("ping-pong"): a group sums into d0 or d1
     * while the group before, in the other, is added into promoted, so
     * the tensor cores do not wait for a promotion. The same sums in the
     * same order as one narrow sum drained and zeroed every PROMOTE steps
     * (each group's products from zero, then promoted += that sum, group
     * after group; scale-d 0 gives A * B where that added A * B to
     * zeros), so the results are the same bit for bit; the zeros below
     * are added where there is no group before (+0 + +0). */
    accumulators d0, d1;
    float promoted[MT][BN / 2];
    /* The next step's stage and parity, over all the block's tiles, as
     * the producer counts them. */
    stage_state ss = {0, 0u};
#else
    accumulators d;
    int g0 = 0; /* the steps of the block's tiles before this one, as the producer counts them */
#endif
    for (int tile = first_tile(); more_tiles(tile, tiles); tile = next_tile(tile)) {
        int row0, col0;
        tile_origin(tile, M, N, rank, &row0, &col0);
#if PROMOTE > 0
#pragma unroll
        for (int t = 0; t < MT; ++t)
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) d0[t][i] = d1[t][i] = promoted[t][i] = 0.0f;
        /* ptxas does not follow a running wgmma around a loop: a narrow sum
         * read in the next pass after only a wait_group 1 has it serialise
         * every wgmma (C7514). So the loop goes in rounds of several groups,
         * each ending with a wait_group 0. The second consumer's first round
         * is half a round, so that the two drain at different times and each
         * keeps the tensor cores busy while the other drains. */
        for (int s = 0, len = consumer ? ROUND_STEPS / 2 : ROUND_STEPS; s < steps; s += len, len = ROUND_STEPS)
            pingpong_round<A_MN, B_MN>(d0, d1, promoted, s, s + len < steps ? s + len : steps, ss, pipe);
        /* The tile's last step: the one before the next. */
        const int last_stage = ss.stage == 0 ? STAGES - 1 : ss.stage - 1;
        promote_sum(promoted, d1); /* the last group, or zeros */
        const float(&sum)[MT][BN / 2] = promoted;
#else
#pragma unroll
        for (int t = 0; t < MT; ++t)
#pragma unroll
            for (int i = 0; i < BN / 2; ++i) d[t][i] = (acc_t)0;
        /* Each step's products run while the next step's tiles are waited
         * for; the step before is done, and its buffer goes back. */
        for (int s = 0; s < steps; ++s) {
            const int g = g0 + s;
            consume_step<A_MN, B_MN>(d, s, g % STAGES, (unsigned)(g / STAGES) & 1u, (g - 1) % STAGES, false, pipe);
        }
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        g0 += steps;
        const int last_stage = (g0 - 1) % STAGES;
        const accumulators &sum = d;
#endif
        /* The tile's wgmmas are done: the producer may refill the last
         * step's buffer, for the next tile (the next tile's first step
         * gives back no buffer: consume_step's s > 0). */
        if (PERSISTENT && steps > 0 && threadIdx.x % 128 == 0) release_stage(&empty[last_stage]);
        store_tile(sum, M, N, alpha, beta, C, ldc, row0, col0, consumer);
        if (!PERSISTENT) break;
    }
    /* The other block may still arrive on this one's mbarriers. */
    if (CLUSTER == 2) cluster_sync();
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
