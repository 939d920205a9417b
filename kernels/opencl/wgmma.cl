/*
 * wgmma: Hopper's warpgroup tensor cores (wgmma.mma_async) from OpenCL C,
 * f16 and bf16 with f32 sums; A and B in 8 bits (-DGH_A_*, -DGH_B_*: FP8
 * pairs of e4m3 and e5m2 in the tensor cores' narrow running sum, C in f32,
 * f16 or bf16; i8 x i8 with s32 sums into an int C), see "8 bits" below.
 * NVIDIA's OpenCL compiler emits PTX for
 * .target sm_90, where ptxas refuses wgmma, so the sm_90a instructions sit
 * in PTX comments ("//SM90A ...", operands substituted as for any inline
 * asm): the plugin takes the program's PTX, uncomments them, retargets it to
 * sm_90a and loads the result as a program binary (plugins/opencl/ptx_rebuild.c).
 * Offered on NVIDIA devices of compute capability 9.0 only.
 *
 * A work-group of BM / 64 warpgroups (128 work-items each) computes a BM x
 * BN block of C; warpgroup w multiplies rows 64w.. of it by all BN columns
 * with m64nBNk16 instructions that read A and B from local memory through
 * matrix descriptors, the sums in f32 registers (BN / 2 a work-item).
 *
 * No tensor maps from OpenCL (they come from CUDA's driver API), so every
 * work-item copies: along K in steps of BK (16 or 32), tiles of op(A) and op(B) go
 * through STAGES buffers by cp.async, 16-byte pieces where A and B start 16
 * bytes aligned and their rows are whole 16 bytes (the VEC path: a piece cut
 * by an edge reads its inside part, one wholly outside reads nothing and is
 * zeros), else element by element. Each step's copies are one commit group.
 * Step s: wait for its group, fence the copies into the async proxy (which
 * wgmma reads through), a barrier, issue its wgmmas, wait for those of step
 * s - 1 (this step's keep running), a barrier (so every warpgroup is done
 * with step s - 1), then copy step s + STAGES - 1 into the buffer step s - 1
 * used.
 *
 * Tiles lie in local memory as wgmma's swizzled layouts want them, each
 * tile as it lies in global memory (no transposing copies):
 *  - K-major (op(A) without trans_a, op(B) with trans_b): BM (BN) rows of
 *    BK elements, 64 or 32 bytes, the swizzle of that width (16-byte piece
 *    j of row r at j ^ (r / 2) % 4, or j ^ (r / 4) % 2); 8-row groups 512 or
 *    256 bytes apart (the descriptor's stride offset); a step of 16 along K
 *    is 32 bytes on.
 *  - M- or N-major (PTX's transpose flags): pieces of 64 M (N) elements by
 *    BK rows of K, 4 or 2 KB each (the leading offset), the 128-byte swizzle
 *    (piece j of row r at j ^ r % 8); 8-row groups along K 1024 bytes apart;
 *    a step of 16 along K is 2048 bytes on.
 * Local memory starts 1024-byte aligned (the swizzles' period) and every
 * tile is a multiple of 2 KB, so each tile starts on the period too.
 *
 * 8 bits: wgmma takes 8-bit A and B K-major only (PTX has no transpose
 * flags for them), k32 an instruction: 32 bytes along a row, as f16's k16.
 * So every tile is K-major, in rows of BK (32 or 64) bytes with the same
 * swizzles as f16's 16 and 32 deep; an M- or N-major operand (op(A) with
 * trans_a, op(B) without trans_b) is transposed as it is copied, byte by
 * byte (no 16-byte copies for it), so every transpose runs and nt is the
 * fast one. FP8's running sum is the tensor cores' own (13 explicit mantissa
 * bits, never promoted here: declared so by the plugin); i8's is exact.
 *
 * The plugin builds one program per transpose pair and copy path
 * (MMA_PATH, as mma.cl). Defines (besides common.cl's): BM (64, 128),
 * BN (64, 128, 256), BK (16, 32; 8 bits: 32, 64), STAGES (2-4), MMA_PATH
 * (1-8). Local memory: STAGES * (BM + BN) * BK * ES bytes, ES the bytes of
 * an element of A and B (WGMMA_LOCAL_BYTES; plugins/opencl/wgmma.c computes
 * the same). Any M, N, K, transposes, alpha/beta, ld and offsets.
 */
#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(STAGES) || !defined(MMA_PATH)
#error "BM, BN, BK, STAGES and MMA_PATH must be defined"
#endif
#if defined(GH_A_I8) || defined(GH_A_E4M3) || defined(GH_A_E5M2)
#define WG_8BIT 1
#if defined(GH_A_I8) != defined(GH_B_I8) || !(defined(GH_B_I8) || defined(GH_B_E4M3) || defined(GH_B_E5M2))
#error "wgmma multiplies i8 by i8, or FP8 (e4m3, e5m2) by FP8"
#endif
#if BK != 32 && BK != 64
#error "8-bit inputs step K by 32 or 64 (k32 instructions)"
#endif
#else
#define WG_8BIT 0
#if !defined(GH_STORE_F16) && !defined(GH_STORE_BF16)
#error "wgmma multiplies f16, bf16 or 8-bit inputs"
#endif
#if BK != 16 && BK != 32
#error "f16 and bf16 step K by 16 or 32"
#endif
#endif
#if (BM != 64 && BM != 128) || (BN != 64 && BN != 128 && BN != 256) || STAGES < 2 || STAGES > 4
#error "BM 64 or 128, BN 64, 128 or 256; STAGES 2 to 4"
#endif

/* MMA_PATH - 1: bit 0 trans_a, bit 1 trans_b, bit 2 the 16-byte copy path. */
#define WG_TA  (((MMA_PATH - 1) & 1) != 0)
#define WG_TB  (((MMA_PATH - 1) & 2) != 0)
#define WG_VEC (((MMA_PATH - 1) & 4) != 0)
/* op(A) is M-major with trans_a, op(B) N-major without trans_b, in global
 * memory; in local memory too for f16 and bf16, never for 8 bits. */
#define A_MN WG_TA
#define B_MN (!WG_TB)
#define A_TILE_MN (A_MN && !WG_8BIT)
#define B_TILE_MN (B_MN && !WG_8BIT)

#if WG_8BIT
typedef uchar raw_t; /* an element's bits as stored */
#define ES 1
#define KI 32 /* K of an instruction */
#else
typedef ushort raw_t;
#define ES 2
#define KI 16
#endif

#define THREADS (BM * 2) /* a warpgroup of 128 per 64 rows */
#define A_BYTES (BM * BK * ES)
#define B_BYTES (BN * BK * ES)
#define WGMMA_LOCAL_BYTES (STAGES * (A_BYTES + B_BYTES))

/* K-major rows: their bytes, and the descriptor's swizzle for that width
 * (bits 62-63: 1 is 128 bytes, 2 is 64, 3 is 32). */
#define KROW       (BK * ES)
#define KSWIZZLE   (KROW == 64 ? 2 : 3)
/* The byte of a K-major tile where element k of row r goes, swizzled: the
 * swizzle moves 16-byte pieces within a row (bits 4.. of the address take
 * bits 7.. of it, as many as a row has pieces to spare). */
inline __attribute__((always_inline)) uint k_major_byte(const int r, const int k)
{
    const uint o = (uint)r * KROW + (uint)k * ES;
    return o ^ (((o >> 7) & (KROW / 16 - 1u)) << 4);
}
/* The byte of a tile where element l of its global row r goes: K-major
 * rows; M/N-major rows (r along K) as pieces of 64 elements by BK rows of
 * 128 bytes in the 128-byte swizzle, or for 8 bits transposed into K-major
 * rows. */
inline __attribute__((always_inline)) uint tile_byte(const int mn_major, const int r, const int l)
{
    if (mn_major && WG_8BIT) return k_major_byte(l, r);
    if (mn_major) {
        const uint o = (uint)(l / 64) * (BK * 128) + (uint)r * 128 + (uint)(l % 64) * 2;
        return o ^ (((o >> 7) & 7u) << 4);
    }
    return k_major_byte(r, l);
}

/* This work-item's copies of one tile of `rows` global rows of `len`
 * elements: consecutive work-items take consecutive pieces of a row
 * (coalesced). src is the tile's element (0, 0); rows at or past r_left
 * and elements at or past l_left are outside the matrix; `base` is a valid
 * address for a copy that reads nothing. */
inline __attribute__((always_inline)) void copy_tile(__local uchar *dst, __global const raw_t *src,
                                                     __global const raw_t *base, const long ld, const int r_left,
                                                     const int l_left, const int rows, const int len,
                                                     const int mn_major, const int tid)
{
    /* 16-byte pieces, not where 8-bit rows are transposed */
    const int p = (WG_VEC & !(WG_8BIT & mn_major)) ? 16 / ES : 1;
    const int per_row = len / p, total = rows * per_row;
#pragma unroll 4
    for (int e = 0; e < (total + THREADS - 1) / THREADS; ++e) {
        const int c = tid + e * THREADS;
        if (total % THREADS != 0 && c >= total) break;
        const int r = c / per_row, l = (c % per_row) * p;
        const int in_row = r < r_left ? min(max(l_left - l, 0), p) : 0;
        __global const raw_t *from = in_row ? src + r * ld + l : base;
        __local uchar *to = dst + tile_byte(mn_major, r, l);
        if (p > 1) COPY16(to, from, in_row * ES);
        else *(__local raw_t *)to = in_row ? *from : (raw_t)0; /* 1 or 2 bytes: cp.async moves 4 at least */
    }
}

/* A local-memory matrix descriptor: the address, the leading and stride
 * byte offsets (16-byte units, 14 bits each) and the swizzle (bits 62-63:
 * 1 the 128-byte one, 2 the 64-byte one). */
inline __attribute__((always_inline)) ulong descriptor(const __local uchar *p, const uint leading, const uint stride,
                                                       const ulong swizzle)
{
    return (ulong)((SHARED_ADDRESS(p) & 0x3FFFFu) >> 4) | (ulong)((leading & 0x3FFFFu) >> 4) << 16 |
           (ulong)((stride & 0x3FFFFu) >> 4) << 32 | swizzle << 62;
}

/* ---- the sm_90a instructions, commented (see the top) ---- */
#define SM90A_TEXT(x) #x
#define SM90A_NUM(x)  SM90A_TEXT(x)
#define WGMMA_FENCE()  asm volatile("//SM90A wgmma.fence.sync.aligned;" ::: "memory")
#define WGMMA_COMMIT() asm volatile("//SM90A wgmma.commit_group.sync.aligned;" ::: "memory")
#define WGMMA_WAIT0()  asm volatile("//SM90A wgmma.wait_group.sync.aligned 0;" ::: "memory")
#define WGMMA_WAIT1()  asm volatile("//SM90A wgmma.wait_group.sync.aligned 1;" ::: "memory")
/* Copies of this work-item, written through the generic proxy, visible to
 * wgmma's reads (the async proxy); sm_90, so not commented. */
#define FENCE_PROXY_ASYNC() asm volatile("fence.proxy.async.shared::cta;" ::: "memory")

/* The instruction's K, sum and input types, and the operands after the
 * descriptors: scale-d (a predicate), then for floating-point inputs
 * imm-scale-a and -b, and for 16-bit ones the transpose flags. */
#if defined(GH_A_I8)
#define WG_TYPES   "k32.s32.s8.s8"
#define WG_TAIL    ", p"
#define WG_SUM_REG "+r" /* s32 sums in ints (ACC_T) */
#elif WG_8BIT
#if defined(GH_A_E4M3)
#define WG_A_TYPE "e4m3"
#else
#define WG_A_TYPE "e5m2"
#endif
#if defined(GH_B_E4M3)
#define WG_B_TYPE "e4m3"
#else
#define WG_B_TYPE "e5m2"
#endif
#define WG_TYPES   "k32.f32." WG_A_TYPE "." WG_B_TYPE
#define WG_TAIL    ", p, 1, 1"
#define WG_SUM_REG "+f"
#else
#if defined(GH_STORE_F16)
#define WG_TYPE "f16"
#else
#define WG_TYPE "bf16"
#endif
#define WG_TYPES   "k16.f32." WG_TYPE "." WG_TYPE
#define WG_TAIL    ", p, 1, 1, " SM90A_NUM(A_MN) ", " SM90A_NUM(B_MN)
#define WG_SUM_REG "+f"
#endif
/* The accumulators as asm operands, 8 at a time, and their names in the text. */
#define ACC8(d, i)                                                                                               \
    WG_SUM_REG((d)[(i)]), WG_SUM_REG((d)[(i) + 1]), WG_SUM_REG((d)[(i) + 2]), WG_SUM_REG((d)[(i) + 3]),          \
        WG_SUM_REG((d)[(i) + 4]), WG_SUM_REG((d)[(i) + 5]), WG_SUM_REG((d)[(i) + 6]), WG_SUM_REG((d)[(i) + 7])
#define ACC32(d, i) ACC8(d, i), ACC8(d, (i) + 8), ACC8(d, (i) + 16), ACC8(d, (i) + 24)
#define R32_0  "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define R32_1  "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define R32_2  "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95"
#define R32_3  "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
/* D += A * B, m64nBNk16 (k32 for 8 bits): scale-d true (the sums start at
 * zero), A and B unscaled, their majorness the transpose flags. One line:
 * every PTX line of it must carry the comment mark. */
#define WGMMA_LINE(N, REGS, A_OP, B_OP)                                                                        \
    "//SM90A { .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n" #N WG_TYPES " {" REGS \
    "}, " A_OP ", " B_OP WG_TAIL "; }"
#if BN == 64
#define WGMMA(d, a, b) asm volatile(WGMMA_LINE(64, R32_0, "%32", "%33") : ACC32(d, 0) : "l"(a), "l"(b))
#elif BN == 128
#define WGMMA(d, a, b) \
    asm volatile(WGMMA_LINE(128, R32_0 "," R32_1, "%64", "%65") : ACC32(d, 0), ACC32(d, 32) : "l"(a), "l"(b))
#else
#define WGMMA(d, a, b)                                                                                           \
    asm volatile(WGMMA_LINE(256, R32_0 "," R32_1 "," R32_2 "," R32_3, "%128", "%129")                            \
                 : ACC32(d, 0), ACC32(d, 32), ACC32(d, 64), ACC32(d, 96)                                         \
                 : "l"(a), "l"(b))
#endif

/* The steady state waits for all but the newest STAGES - 2 copy groups. */
#if STAGES == 2
#define ASYNC_WAIT_KEEP() ASYNC_WAIT(0)
#elif STAGES == 3
#define ASYNC_WAIT_KEEP() ASYNC_WAIT(1)
#else
#define ASYNC_WAIT_KEEP() ASYNC_WAIT(2)
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void gemm_wgmma(GEMM_ARGS)
{
    __local uchar smem[WGMMA_LOCAL_BYTES] __attribute__((aligned(1024)));
    __global const raw_t *a = (__global const raw_t *)A + a_offset;
    __global const raw_t *b = (__global const raw_t *)B + b_offset;
    /* The plugin builds the path for the call's transposes and alignment;
     * should they differ, or local memory not start on the swizzle's
     * period, C is left unwritten (as NaNs, which verification catches)
     * rather than computed wrongly. */
    const int vec = ((ulong)a & 15) == 0 && ((ulong)b & 15) == 0 && (lda * ES) % 16 == 0 && (ldb * ES) % 16 == 0;
    if ((trans_a != 0) != WG_TA || (trans_b != 0) != WG_TB || (WG_VEC & !vec) || (SHARED_ADDRESS(smem) & 1023))
        return;

    const int2 origin = block_origin(M, N, BM, BN);
    const int row0 = origin.x, col0 = origin.y;
    const int m_left = M - row0, n_left = N - col0;
    const int tid = (int)get_local_id(0), warpgroup = tid / 128;

    __global const raw_t *a_src = a + tile_origin(WG_TA, row0, lda);
    const long a_step = tile_step(WG_TA, BK, lda);
    __global const raw_t *b_src = b + tile_origin(!WG_TB, col0, ldb);
    const long b_step = tile_step(!WG_TB, BK, ldb);
    __local uchar *as = smem, *bs = smem + STAGES * A_BYTES;

    const int steps = (K + BK - 1) / BK;
#define COPY_STEP(step)                                                                                         \
    do {                                                                                                        \
        const int kl_ = K - (step) * BK, st_ = (step) % STAGES;                                                 \
        copy_tile(as + st_ * A_BYTES, a_src + (step) * a_step, a, lda, A_MN ? kl_ : m_left, A_MN ? m_left : kl_, \
                  A_MN ? BK : BM, A_MN ? BM : BK, A_MN, tid);                                                   \
        copy_tile(bs + st_ * B_BYTES, b_src + (step) * b_step, b, ldb, B_MN ? kl_ : n_left, B_MN ? n_left : kl_, \
                  B_MN ? BK : BN, B_MN ? BN : BK, B_MN, tid);                                                   \
    } while (0)

    ACC_T d[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) d[i] = (ACC_T)0;

    /* A group per step, empty or not, so "all but the newest STAGES - 2
     * groups" is always "up to the step about to be multiplied". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < steps) COPY_STEP(s);
        ASYNC_COMMIT();
    }
    for (int s = 0; s < steps; ++s) {
        ASYNC_WAIT_KEEP();
        FENCE_PROXY_ASYNC();
        barrier(CLK_LOCAL_MEM_FENCE);

        __local const uchar *a_st = as + (s % STAGES) * A_BYTES + warpgroup * (64 * KROW);
        __local const uchar *b_st = bs + (s % STAGES) * B_BYTES;
        WGMMA_FENCE();
#pragma unroll
        for (int kk = 0; kk < BK / KI; ++kk) {
            /* K-major: 32 bytes along a row; M/N-major: 16 rows of 128. */
            const ulong da = A_TILE_MN ? descriptor(a_st + kk * 2048, BK * 128, 1024, 1)
                                       : descriptor(a_st + kk * 32, 16, 8 * KROW, KSWIZZLE);
            const ulong db = B_TILE_MN ? descriptor(b_st + kk * 2048, BK * 128, 1024, 1)
                                       : descriptor(b_st + kk * 32, 16, 8 * KROW, KSWIZZLE);
            WGMMA(d, da, db);
        }
        WGMMA_COMMIT();
        /* This step's products keep running; the step before is done, in
         * every warpgroup once all pass the barrier, and its buffer takes
         * the copies of step s + STAGES - 1. */
        WGMMA_WAIT1();
        barrier(CLK_LOCAL_MEM_FENCE);
        if (s + STAGES - 1 < steps) COPY_STEP(s + STAGES - 1);
        ASYNC_COMMIT();
    }
#undef COPY_STEP
    WGMMA_WAIT0();
    ASYNC_WAIT(0);

    /* Accumulator i of the warpgroup's 64 x BN tile, in its work-item t:
     * row (t / 32) * 16 + (t % 32) / 4 (+ 8 for odd i / 2), column (i / 4) *
     * 8 + (t % 4) * 2 + i % 2. */
    const int t = tid % 128;
    const int r_in = warpgroup * 64 + (t / 32) * 16 + (t % 32) / 4, c_in = (t % 4) * 2;
    __global STORE_T *c_block = C + c_offset + (long)row0 * ldc + col0;
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) {
        const int r = r_in + ((i / 2) % 2) * 8, c = (i / 4) * 8 + c_in + i % 2;
        if (r < m_left && c < n_left) store_c(c_block + (long)r * ldc + c, d[i], alpha, beta);
    }
}
