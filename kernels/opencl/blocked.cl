/* blocked: 2D register blocking. A work-group of RTS x RTS work-items
 * (RTS = TILE / WORK) computes a TILE x TILE block of C; each work-item keeps
 * a WORK x WORK micro-tile of C in private registers.
 *
 * The group walks K in steps of DEPTH. Per step it stores a TILE x DEPTH tile
 * of op(A) (transposed: a_tile[q][r]) and a DEPTH x TILE tile of op(B)
 * (b_tile[q][c]) in local memory, waits (barrier), and each work-item then
 * reads, for every q, WORK values of A and WORK of B into registers and adds
 * their WORK x WORK outer product to its micro-tile: WORK^2 multiply-adds for
 * 2 * WORK values read from local memory, where the tiled kernel reads two
 * for one. The group waits again before the tiles are overwritten. The global
 * loads of the next step are issued before the current step is computed, into
 * registers, so that their latency hides behind the arithmetic.
 *
 * Global loads are coalesced for every transpose: consecutive work-items
 * read consecutive addresses, along K where op(A) or op(B) is stored with K
 * contiguous, along M or N otherwise. Loads past an edge of op(A) or op(B)
 * put 0 in the tile and only elements inside C are stored, so any M, N, K
 * works (K < DEPTH included).
 *
 * The elements of C a work-item (tx, ty) owns: its rows are groups of VW
 * consecutive rows, the groups RTS * VW rows apart (its columns likewise, by
 * tx). VW consecutive elements are one vector read from local memory (16
 * bytes), and consecutive work-items read consecutive vectors: no bank
 * conflicts, and a quarter of the reads of scalar code.
 *
 * Tiles and registers hold ACC_T: a 16-bit element (f16, bf16) is converted
 * to f32 once, by LOAD as it comes from global memory, so everything from
 * local memory on, the vector reads included, is the f32 kernel's.
 *
 * Build with -DTILE=<block edge> -DWORK=<micro-tile edge> -DDEPTH=<K step>;
 * the plugin checks the work-group (RTS^2 work-items) and local memory
 * (2 * DEPTH * (TILE + PAD) ACC_T elements) against the device before building.
 */
#if !defined(TILE) || !defined(WORK) || !defined(DEPTH)
#error "build with -DTILE=<tile edge> -DWORK=<micro-tile edge> -DDEPTH=<K step>"
#endif
#if TILE % WORK != 0
#error "TILE must be a multiple of WORK"
#endif

#define RTS (TILE / WORK)         /* work-items along each edge of the group */
#define THREADS (RTS * RTS)
#define TILE_ELEMS (TILE * DEPTH) /* elements of each tile, loaded per step */
/* Global loads per work-item and tile per step; with more work-items than
 * elements, the loads past the tile's end are skipped. */
#define LOADS ((TILE_ELEMS + THREADS - 1) / THREADS)
#define IN_TILE(l) (LOADS * THREADS == TILE_ELEMS || tid + (l) * THREADS < TILE_ELEMS)

/* The widest vector of at most 16 bytes. Each row of a tile in local memory
 * is padded by that much: the stores of a tile whose K is contiguous in
 * memory go down columns, and the padding spreads them over the banks. */
#ifdef GH_FP64
#define VMAX 2
#else
#define VMAX 4
#endif
#if WORK >= VMAX
#define VW VMAX
#else
#define VW WORK
#endif
#define PAD VMAX
#define STRIDE (TILE + PAD)       /* elements per row of a tile in local memory */
#define GROUPS (WORK / VW)        /* vectors per row or column of a micro-tile */

#define GH_CAT_(a, b) a##b
#define GH_CAT(a, b) GH_CAT_(a, b)
#define VTYPE GH_CAT(ACC_T, VW)

/* dst[at + s] = component s of vector v. */
#if VW == 2
#define UNPACK(dst, at, v) do { dst[(at)] = (v).s0; dst[(at) + 1] = (v).s1; } while (0)
#elif VW == 4
#define UNPACK(dst, at, v)                                                      \
    do {                                                                        \
        dst[(at)] = (v).s0; dst[(at) + 1] = (v).s1;                             \
        dst[(at) + 2] = (v).s2; dst[(at) + 3] = (v).s3;                         \
    } while (0)
#else
#error "unexpected vector width"
#endif

/* Which element of a tile load l of a work-item reads. Element e = tid +
 * l * THREADS of the load order sits at (w, q) of the tile, w along M (for A)
 * or N (for B), q along K. Where the matrix is stored with K contiguous
 * ("kc"), e runs along K first; otherwise along w first; either way
 * consecutive work-items read consecutive addresses. With THREADS >= DEPTH
 * and both powers of two, (w, q) is the work-item's start (w_t, q_t) plus a
 * compile-time step: (KC_DW(l), 0) or (MN_DW(l), MN_DQ(l)). */
#if THREADS < DEPTH
#error "a work-group needs at least DEPTH work-items"
#endif
#define KC_DW(l) ((l) * (THREADS / DEPTH))   /* kc: w_t = tid / DEPTH, q_t = tid % DEPTH */
#define MN_DW(l) (((l) * THREADS) % TILE)    /* else: w_t = tid % TILE, q_t = tid / TILE */
#define MN_DQ(l) (((l) * THREADS) / TILE)
#if (LOADS * THREADS) % TILE != 0
#error "the loads of a step must end on a whole row of the tile"
#endif

/* A work-item's loads walk an element index of its matrix (a plain number,
 * not a pointer: between loads it may point past the matrix) from load to
 * load and on to the next step: by compile-time steps times ld, so that the
 * compiler keeps one index per matrix live, not an address per load. */
#define KC_NEXT(l, ld) ((long)(KC_DW((l) + 1) - KC_DW(l)) * (ld))
#define KC_WRAP(ld) (DEPTH - (long)KC_DW(LOADS) * (ld))
#define MN_NEXT(l, ld) ((long)(MN_DQ((l) + 1) - MN_DQ(l)) * (ld) + (MN_DW((l) + 1) - MN_DW(l)))
#define MN_WRAP(ld) ((long)(DEPTH - MN_DQ(LOADS)) * (ld))

/* Loads this work-item's share of one step's tile of op(X) into next[], 0
 * past the matrix, and moves *at on to the next step. kc: X is stored with
 * K contiguous; w_room, q_room: how far w and q may go from the work-item's
 * start before leaving the matrix. Inlined, so that next[] stays in
 * registers. One copy per operand (blocked_load_a, blocked_load_b): A and B
 * may be of different types (8-bit inputs), read by LOAD_A_ELEM and LOAD_B_ELEM. */
#define DEFINE_BLOCKED_LOAD(NAME, X_T, LOAD_X)                                                                        \
    __attribute__((always_inline)) void NAME(__global const X_T *restrict x, long *at, const int ld, const int kc,    \
                                             const int tid, const int w_room, const int q_room, ACC_T *next)          \
    {                                                                                                                 \
        if (kc) {                                                                                                     \
            _Pragma("unroll") for (int l = 0; l < LOADS; l++)                                                         \
            {                                                                                                         \
                next[l] = IN_TILE(l) && KC_DW(l) < w_room && 0 < q_room ? LOAD_X(x, *at) : (ACC_T)0;                  \
                *at += KC_NEXT(l, ld);                                                                                \
            }                                                                                                         \
            *at += KC_WRAP(ld);                                                                                       \
        } else {                                                                                                      \
            _Pragma("unroll") for (int l = 0; l < LOADS; l++)                                                         \
            {                                                                                                         \
                next[l] = IN_TILE(l) && MN_DW(l) < w_room && MN_DQ(l) < q_room ? LOAD_X(x, *at) : (ACC_T)0;           \
                *at += MN_NEXT(l, ld);                                                                                \
            }                                                                                                         \
            *at += MN_WRAP(ld);                                                                                       \
        }                                                                                                             \
    }
DEFINE_BLOCKED_LOAD(blocked_load_a, A_T, LOAD_A_ELEM)
DEFINE_BLOCKED_LOAD(blocked_load_b, B_T, LOAD_B_ELEM)

/* Stores what blocked_load loaded into the tile in local memory; st: the
 * work-item's start there. */
__attribute__((always_inline)) void blocked_store(__local ACC_T *tile, const int st, const int kc, const int tid, const ACC_T *next)
{
    if (kc) {
#pragma unroll
        for (int l = 0; l < LOADS; l++)
            if (IN_TILE(l)) tile[st + KC_DW(l)] = next[l];
    } else {
#pragma unroll
        for (int l = 0; l < LOADS; l++)
            if (IN_TILE(l)) tile[st + MN_DQ(l) * STRIDE + MN_DW(l)] = next[l];
    }
}

__kernel __attribute__((reqd_work_group_size(RTS, RTS, 1)))
void gemm_blocked(GEMM_ARGS)
{
    const int tx = (int)get_local_id(0); /* column groups of the micro-tile */
    const int ty = (int)get_local_id(1); /* row groups */
    const int tid = ty * RTS + tx;
    const int col0 = (int)get_group_id(0) * TILE; /* <= N - 1: no overflow */
    const int row0 = (int)get_group_id(1) * TILE;
    const int rows_left = M - row0, cols_left = N - col0;

    /* a_tile[q * STRIDE + r] = op(A)[row0 + r][p0 + q],
     * b_tile[q * STRIDE + c] = op(B)[p0 + q][col0 + c];
     * declared as vectors so that vector reads are aligned. */
    __local VTYPE a_tile_v[DEPTH * STRIDE / VW];
    __local VTYPE b_tile_v[DEPTH * STRIDE / VW];
    __local ACC_T *a_tile = (__local ACC_T *)a_tile_v;
    __local ACC_T *b_tile = (__local ACC_T *)b_tile_v;

    /* Per matrix: K contiguous in memory or not; this work-item's start
     * (w_t, q_t) in the tile; how far w may go from there before leaving the
     * matrix; its element index at the step to load next; its start in
     * local memory. */
    const int a_kc = !trans_a; /* op(A) = A: M rows of K */
    const int b_kc = trans_b;  /* op(B) = B^T: B is N rows of K */
    const int a_wt = a_kc ? tid / DEPTH : tid % TILE, a_qt = a_kc ? tid % DEPTH : tid / TILE;
    const int b_wt = b_kc ? tid / DEPTH : tid % TILE, b_qt = b_kc ? tid % DEPTH : tid / TILE;
    const int a_wroom = rows_left - a_wt, b_wroom = cols_left - b_wt;
    long a_at = (long)a_offset + (a_kc ? ((long)row0 + a_wt) * lda + a_qt : (long)a_qt * lda + row0 + a_wt);
    long b_at = (long)b_offset + (b_kc ? ((long)col0 + b_wt) * ldb + b_qt : (long)b_qt * ldb + col0 + b_wt);
    const int a_st = a_qt * STRIDE + a_wt, b_st = b_qt * STRIDE + b_wt;

    ACC_T acc[WORK][WORK];
#pragma unroll
    for (int i = 0; i < WORK; i++)
#pragma unroll
        for (int j = 0; j < WORK; j++)
            acc[i][j] = (ACC_T)0;

    /* This work-item's share of a step's tiles, on their way from global to
     * local memory. The next step's loads are issued before the current
     * step is computed, so that they are in flight meanwhile. (Steps are
     * counted rather than p0 compared with K: p0 + DEPTH may not fit an int.) */
    ACC_T a_next[LOADS], b_next[LOADS];
    const int steps = (K - 1) / DEPTH + 1;
    blocked_load_a(A, &a_at, lda, a_kc, tid, a_wroom, K - a_qt, a_next);
    blocked_load_b(B, &b_at, ldb, b_kc, tid, b_wroom, K - b_qt, b_next);
    for (int s = 0; s < steps; s++) {
        blocked_store(a_tile, a_st, a_kc, tid, a_next);
        blocked_store(b_tile, b_st, b_kc, tid, b_next);
        barrier(CLK_LOCAL_MEM_FENCE); /* the tiles are whole */

        if (s + 1 < steps) {
            const int k_left = K - (s + 1) * DEPTH;
            blocked_load_a(A, &a_at, lda, a_kc, tid, a_wroom, k_left - a_qt, a_next);
            blocked_load_b(B, &b_at, ldb, b_kc, tid, b_wroom, k_left - b_qt, b_next);
        }

#pragma unroll
        for (int q = 0; q < DEPTH; q++) {
            ACC_T a_reg[WORK], b_reg[WORK];
#pragma unroll
            for (int g = 0; g < GROUPS; g++) {
                const VTYPE av = a_tile_v[q * (STRIDE / VW) + g * RTS + ty];
                const VTYPE bv = b_tile_v[q * (STRIDE / VW) + g * RTS + tx];
                UNPACK(a_reg, g * VW, av);
                UNPACK(b_reg, g * VW, bv);
            }
#pragma unroll
            for (int i = 0; i < WORK; i++)
#pragma unroll
                for (int j = 0; j < WORK; j++)
                    acc[i][j] += a_reg[i] * b_reg[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone is done with these tiles */
    }

    /* Micro-tile element (i, j) is C[row0 + r(i)][col0 + c(j)] with
     * r(i) = ((i / VW) * RTS + ty) * VW + i % VW, c(j) likewise with tx. */
#pragma unroll
    for (int i = 0; i < WORK; i++) {
        const int r = ((i / VW) * RTS + ty) * VW + i % VW;
        if (r < rows_left) {
            __global STORE_T *c_row = C + c_offset + (long)(row0 + r) * ldc + col0;
#pragma unroll
            for (int j = 0; j < WORK; j++) {
                const int c = ((j / VW) * RTS + tx) * VW + j % VW;
                if (c < cols_left) store_c(c_row + c, acc[i][j], alpha, beta);
            }
        }
    }
}
