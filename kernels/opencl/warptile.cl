/* warptile: a work-group computes a BM x BN block of C, each "warp" of it
 * (32 consecutive work-items) a WM x WN part of that block, each work-item
 * a TM x TN micro-tile of the warp's part in registers. (BM / WM) * (BN / WN)
 * warps; a warp's 32 work-items are a (WM / TM) x (WN / TN) grid. The warp
 * is only an arrangement of work-items by local id, no sub-group operation:
 * correct for any sub-group size (on NVIDIA a warp is one sub-group, whose
 * work-items then read local memory in the pattern described below).
 *
 * Along K, in steps of BK, tiles of op(A) (BM x BK) and op(B) (BK x BN) pass
 * through two buffers in local memory. There is no cp.async in OpenCL C, so
 * the next step's tiles are loaded from global memory into registers while
 * the current step is multiplied, then stored into the other buffer: one
 * barrier per step (the buffer written was last read a step earlier, before
 * the previous barrier).
 *
 * Global loads: a tile is read as it lies in memory, R rows of L contiguous
 * elements, consecutive work-items taking consecutive 16-byte pieces of a row
 * (float4, double2, 8 halves) where the matrix's offset and leading dimension
 * are multiples of 16 bytes (checked in the kernel, so one program serves
 * both), single elements otherwise; pieces past the matrix's edge are
 * zero-filled (element by element where a piece straddles it).
 *
 * Local memory holds both tiles with M or N contiguous: a_tile[k][m] and
 * b_tile[k][n], each row padded by 16 bytes. A tile stored with K contiguous
 * (op(A) = A, op(B) = B^T) is transposed on its way in; the padding spreads
 * those scattered stores over the banks. The multiply reads 16 bytes at a
 * time: a work-item's TM rows (TN columns likewise) come in runs of V
 * (16 bytes of ACC_T), run r of work-item t at r * TWM * V + t * V, so the
 * work-items of a warp read consecutive 16-byte pieces, or the same one
 * (broadcast): no bank conflicts. Per k a work-item reads (TM + TN) / V
 * vectors and does TM * TN multiply-adds.
 *
 * Work-groups are numbered in groups of GROUP_M rows of blocks, down each
 * column within a group, so that work-groups running at once share rows of
 * A and columns of B in L2 (a one-dimensional launch).
 *
 * Tiles and registers hold ACC_T: f16 and bf16 are widened to f32 as they are
 * loaded (common.cl), so from local memory on everything is the f32 kernel's.
 *
 * Build with -DBM -DBN (64, 128, 256) -DBK (8, 16, 32) -DWM -DWN (16 .. 128)
 * -DTM -DTN (4, 8); the plugin checks that they fit together and the device
 * (work-items, local memory) before building (plugins/opencl/warptile.c).
 */
#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(WM) || !defined(WN) || !defined(TM) || !defined(TN)
#error "build with -DBM -DBN -DBK -DWM -DWN -DTM -DTN"
#endif

#define WARP 32
#define WARPS_N (BN / WN)
#define THREADS ((BM / WM) * WARPS_N * WARP)
#define TWM (WM / TM) /* work-items of a warp along M */
#define TWN (WN / TN) /* and along N */
#define GROUP_M 8

/* V: ACC_T elements in 16 bytes (a local read, and each row's padding);
 * GV: STORE_T elements in 16 bytes (a global piece), and how one is loaded
 * into dst[0 .. GV) as ACC_T. Pieces are 16-byte aligned (the kernel checks
 * offset and ld; buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
#if defined(GH_STORE_F16)
#define V 4
#define GV 8
#define LOAD_PIECE(x, i, dst) vstore8(vload_half8(0, (x) + (i)), 0, (dst))
#elif defined(GH_STORE_BF16)
#define V 4
#define GV 8
#define LOAD_PIECE(x, i, dst) \
    vstore8(as_float8(convert_uint8(*(__global const ushort8 *)((x) + (i))) << 16), 0, (dst))
#elif defined(GH_FP64)
#define V 2
#define GV 2
#define LOAD_PIECE(x, i, dst) vstore2(*(__global const double2 *)((x) + (i)), 0, (dst))
#else
#define V 4
#define GV 4
#define LOAD_PIECE(x, i, dst) vstore4(*(__global const float4 *)((x) + (i)), 0, (dst))
#endif

#if BM % WM != 0 || BN % WN != 0
#error "the warp tile must divide the block tile"
#endif
#if WM % TM != 0 || WN % TN != 0 || TWM * TWN != WARP
#error "(WM / TM) * (WN / TN) must be 32: one warp"
#endif
#if TM % V != 0 || TN % V != 0 || BK % GV != 0 || BM % GV != 0 || BN % GV != 0
#error "TM and TN must be whole 16-byte vectors of ACC_T, BK, BM and BN whole 16-byte pieces of STORE_T"
#endif

#define PAD V
#define A_ROW (BM + PAD) /* elements per k of a_tile */
#define B_ROW (BN + PAD)
#define A_TILE (BK * A_ROW)
#define B_TILE (BK * B_ROW)

#define GH_CAT_(a, b) a##b
#define GH_CAT(a, b) GH_CAT_(a, b)
#define VTYPE GH_CAT(ACC_T, V)

/* Registers a work-item stages a tile of E elements in: the larger of the
 * piece path's (whole pieces) and the element path's share. */
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define STAGED(E) (CEIL_DIV((E) / GV, THREADS) * GV > CEIL_DIV((E), THREADS) ? CEIL_DIV((E) / GV, THREADS) * GV \
                                                                              : CEIL_DIV((E), THREADS))
#define A_STAGED STAGED(BM * BK)
#define B_STAGED STAGED(BN * BK)

/* Loads this work-item's share of a tile stored as R rows of L contiguous
 * elements (element (r, l) at x[at + r * ld + l]) into staged[]: 0 at rows
 * from r_left and elements from l_left on (outside the matrix). vec: in
 * 16-byte pieces. R and L are constants at every call: inlined, the loops
 * unroll and staged[] stays in registers. Static, so that no out-of-line
 * copy with unknown R and L is compiled (clang would warn that its loops
 * cannot be unrolled). */
static __attribute__((always_inline)) void wt_load(__global const STORE_T *restrict x, const long at, const int ld,
                                                   const int R, const int L, const int r_left, const int l_left,
                                                   const int vec, const int tid, ACC_T *staged)
{
    if (vec) {
        const int per_row = L / GV;
#pragma unroll
        for (int e = 0; e < CEIL_DIV(R * L / GV, THREADS); e++) {
            const int c = tid + e * THREADS;
            if (c < R * per_row) {
                const int r = c / per_row, l = (c % per_row) * GV;
                const int in_row = r < r_left ? clamp(l_left - l, 0, GV) : 0; /* elements inside the matrix */
                const long i = at + (long)r * ld + l;
                if (in_row == GV) {
                    LOAD_PIECE(x, i, staged + e * GV);
                } else {
#pragma unroll
                    for (int p = 0; p < GV; p++) staged[e * GV + p] = p < in_row ? LOAD(x, i + p) : (ACC_T)0;
                }
            }
        }
    } else {
#pragma unroll
        for (int e = 0; e < CEIL_DIV(R * L, THREADS); e++) {
            const int c = tid + e * THREADS;
            if (c < R * L) {
                const int r = c / L, l = c % L;
                staged[e] = r < r_left && l < l_left ? LOAD(x, at + (long)r * ld + l) : (ACC_T)0;
            }
        }
    }
}

/* Stores what wt_load staged into a local tile of rows of ROW elements, one
 * row per k. kc: the stored tile's rows are M or N and K is contiguous, so
 * element (r, l) goes to tile[l][r]; otherwise to tile[r][l]. */
static __attribute__((always_inline)) void wt_store(__local ACC_T *tile, const int ROW, const int R, const int L,
                                                    const int kc, const int vec, const int tid, const ACC_T *staged)
{
    if (vec) {
        const int per_row = L / GV;
#pragma unroll
        for (int e = 0; e < CEIL_DIV(R * L / GV, THREADS); e++) {
            const int c = tid + e * THREADS;
            if (c < R * per_row) {
                const int r = c / per_row, l = (c % per_row) * GV;
#pragma unroll
                for (int p = 0; p < GV; p++) tile[kc ? (l + p) * ROW + r : r * ROW + l + p] = staged[e * GV + p];
            }
        }
    } else {
#pragma unroll
        for (int e = 0; e < CEIL_DIV(R * L, THREADS); e++) {
            const int c = tid + e * THREADS;
            if (c < R * L) {
                const int r = c / L, l = c % L;
                tile[kc ? l * ROW + r : r * ROW + l] = staged[e];
            }
        }
    }
}

/* One step's tile of op(A) (a) or op(B) (b) into registers, for either way
 * it can lie in memory: kc (K contiguous) is a uniform branch, each side
 * with its own constant shape. */
#define LOAD_A(k_left)                                                                                  \
    do {                                                                                                \
        if (a_kc) wt_load(A, a_at, lda, BM, BK, m_left, (k_left), a_vec, tid, a_staged);                \
        else wt_load(A, a_at, lda, BK, BM, (k_left), m_left, a_vec, tid, a_staged);                     \
        a_at += a_step;                                                                                 \
    } while (0)
#define LOAD_B(k_left)                                                                                  \
    do {                                                                                                \
        if (b_kc) wt_load(B, b_at, ldb, BN, BK, n_left, (k_left), b_vec, tid, b_staged);                \
        else wt_load(B, b_at, ldb, BK, BN, (k_left), n_left, b_vec, tid, b_staged);                     \
        b_at += b_step;                                                                                 \
    } while (0)
#define STORE_TILES(buf)                                                                                \
    do {                                                                                                \
        if (a_kc) wt_store(a_tile + (buf) * A_TILE, A_ROW, BM, BK, 1, a_vec, tid, a_staged);            \
        else wt_store(a_tile + (buf) * A_TILE, A_ROW, BK, BM, 0, a_vec, tid, a_staged);                 \
        if (b_kc) wt_store(b_tile + (buf) * B_TILE, B_ROW, BN, BK, 1, b_vec, tid, b_staged);            \
        else wt_store(b_tile + (buf) * B_TILE, B_ROW, BK, BN, 0, b_vec, tid, b_staged);                 \
    } while (0)

/* dst[at + s] = component s of vector v. */
#if V == 2
#define UNPACK(dst, at, v) do { dst[(at)] = (v).s0; dst[(at) + 1] = (v).s1; } while (0)
#else
#define UNPACK(dst, at, v)                                                      \
    do {                                                                        \
        dst[(at)] = (v).s0; dst[(at) + 1] = (v).s1;                             \
        dst[(at) + 2] = (v).s2; dst[(at) + 3] = (v).s3;                         \
    } while (0)
#endif

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_warptile(GEMM_ARGS)
{
    /* This work-group's block of C: groups of GROUP_M rows of blocks,
     * numbered down each column of the group. */
    const int tiles_m = (M - 1) / BM + 1, tiles_n = (N - 1) / BN + 1;
    const int pid = (int)get_group_id(0);
    const int in_group = GROUP_M * tiles_n;
    const int first_m = (pid / in_group) * GROUP_M;
    const int group_m = min(tiles_m - first_m, GROUP_M);
    const int tile_m = first_m + (pid % in_group) % group_m, tile_n = (pid % in_group) / group_m;
    const int row0 = tile_m * BM, col0 = tile_n * BN;
    const int m_left = M - row0, n_left = N - col0;

    const int tid = (int)get_local_id(0);
    const int warp = tid / WARP, lane = tid % WARP;
    const int wy0 = (warp / WARPS_N) * WM, wx0 = (warp % WARPS_N) * WN;
    const int ty = lane / TWN, tx = lane % TWN;

    /* Two buffers of each tile; declared as vectors so that vector reads are aligned. */
    __local VTYPE a_tile_v[2 * A_TILE / V];
    __local VTYPE b_tile_v[2 * B_TILE / V];
    __local ACC_T *a_tile = (__local ACC_T *)a_tile_v;
    __local ACC_T *b_tile = (__local ACC_T *)b_tile_v;

    /* op(A)(i, p) is A[i * lda + p], or A[p * lda + i] transposed; op(B)(p, j)
     * is B[p * ldb + j], or B[j * ldb + p]. kc: K is the contiguous dimension.
     * *_at: the element index of the next step's tile (0, 0) (a plain number:
     * past the last step it may lie past the matrix). */
    const int a_kc = !trans_a, b_kc = trans_b;
    long a_at = (long)a_offset + (a_kc ? (long)row0 * lda : row0);
    long b_at = (long)b_offset + (b_kc ? (long)col0 * ldb : col0);
    const long a_step = a_kc ? BK : (long)BK * lda, b_step = b_kc ? BK : (long)BK * ldb;
    const int a_vec = a_offset % GV == 0 && lda % GV == 0, b_vec = b_offset % GV == 0 && ldb % GV == 0;

    ACC_T acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = (ACC_T)0;

    /* Steps are counted rather than compared with K: k + BK may not fit an int. */
    ACC_T a_staged[A_STAGED], b_staged[B_STAGED];
    const int steps = (K - 1) / BK + 1;
    LOAD_A(K);
    LOAD_B(K);
    STORE_TILES(0);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = 0; s < steps; s++) {
        const int more = s + 1 < steps;
        if (more) {
            /* In flight while this step is multiplied. */
            const int k_left = K - (s + 1) * BK;
            LOAD_A(k_left);
            LOAD_B(k_left);
        }

        const int buf = s & 1;
        __local const VTYPE *a_v = a_tile_v + buf * (A_TILE / V) + wy0 / V + ty;
        __local const VTYPE *b_v = b_tile_v + buf * (B_TILE / V) + wx0 / V + tx;
#pragma unroll
        for (int k = 0; k < BK; k++) {
            ACC_T a_reg[TM], b_reg[TN];
#pragma unroll
            for (int r = 0; r < TM / V; r++) {
                const VTYPE av = a_v[k * (A_ROW / V) + r * TWM];
                UNPACK(a_reg, r * V, av);
            }
#pragma unroll
            for (int r = 0; r < TN / V; r++) {
                const VTYPE bv = b_v[k * (B_ROW / V) + r * TWN];
                UNPACK(b_reg, r * V, bv);
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a_reg[i] * b_reg[j];
        }

        /* Into the other buffer, last read before the previous barrier. */
        if (more) STORE_TILES(buf ^ 1);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* acc[i][j] is C[row0 + wy0 + x(i, ty)][col0 + wx0 + x(j, tx)], with
     * x(i, t) = (i / V) * TW * V + t * V + i % V. */
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int r = wy0 + (i / V) * (TWM * V) + ty * V + i % V;
        if (r < m_left) {
            __global STORE_T *c_row = C + c_offset + (long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < TN; j++) {
                const int c = wx0 + (j / V) * (TWN * V) + tx * V + j % V;
                if (c < n_left) store_c(c_row + c, acc[i][j], alpha, beta);
            }
        }
    }
}
