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
 * the previous barrier). On NVIDIA, cp.async in inline PTX instead
 * (ASYNC below), and in f32 CUDA's step order with the registers capped
 * (LATE_BARRIER).
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
 * Work-groups are numbered in groups of 8 rows of blocks, down each column
 * within a group, so that work-groups running at once share rows of A and
 * columns of B in L2 (a one-dimensional launch; common.cl's block_origin).
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

/* V: ACC_T elements in 16 bytes (a local read, and each row's padding);
 * GV: STORE_T elements in 16 bytes (a global piece), and how one is loaded
 * into dst[0 .. GV) as ACC_T. Pieces are 16-byte aligned (the kernel checks
 * offset and ld; buffers start at CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
#if defined(GH_STORE_F16)
#define V 4
#define GV 8
#define PIECE_T float8
#define LOAD_PIECE(x, i) vload_half8(0, (x) + (i))
#elif defined(GH_STORE_BF16)
#define V 4
#define GV 8
#define PIECE_T float8
#define LOAD_PIECE(x, i) as_float8(convert_uint8(*(__global const ushort8 *)((x) + (i))) << 16)
#elif defined(GH_FP64)
#define V 2
#define GV 2
#define PIECE_T double2
#define LOAD_PIECE(x, i) (*(__global const double2 *)((x) + (i)))
#else
#define V 4
#define GV 4
#define PIECE_T float4
#define LOAD_PIECE(x, i) (*(__global const float4 *)((x) + (i)))
#endif
/* dst[at + s] = component s of a vector of 2, 4 or 8: UNPACK_PIECE for a
 * loaded piece (GV), UNPACK for a local-memory read (V). */
#define UNPACK2(dst, at, v) do { dst[(at)] = (v).s0; dst[(at) + 1] = (v).s1; } while (0)
#define UNPACK4(dst, at, v) do { UNPACK2(dst, (at), (v).lo); UNPACK2(dst, (at) + 2, (v).hi); } while (0)
#define UNPACK8(dst, at, v) do { UNPACK4(dst, (at), (v).lo); UNPACK4(dst, (at) + 4, (v).hi); } while (0)
#define UNPACK_PIECE(dst, at, v) GH_CAT(UNPACK, GV)(dst, at, v)
#define UNPACK(dst, at, v) GH_CAT(UNPACK, V)(dst, at, v)

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

/* ASYNC: NVIDIA's programs (compute capability 8.0 and newer; f32 and
 * f64, whose stored type is the arithmetic's), one per transpose pair: the
 * plugin defines GH_NV_ASYNC = 1 + trans_a + 2 trans_b. The tiles go from
 * global to local memory by cp.async through inline PTX, no register in
 * between, zero-filled past the matrix's edges: in 16-byte pieces where a
 * tile lies as local memory keeps it, element by element where it is
 * transposed on the way (WT_TILE_COPY_KC), grouped so that the local writes
 * are free of bank conflicts; faster than the register-staged program in
 * every transpose (docs/kernels.md). */
#if defined(GH_NV_ASYNC) && !defined(GH_STORE_F16) && !defined(GH_STORE_BF16)
#define ASYNC 1
/* cp.async of one element (COPY16, COPY8, COPY4: common.cl). */
#if defined(GH_FP64)
#define COPY_ELEMENT COPY8
#else
#define COPY_ELEMENT COPY4
#endif
#else
#define ASYNC 0
#endif
/* LATE_BARRIER: CUDA's step order (see the k loop), for ASYNC programs
 * whose registers the plugin caps by writing .maxnreg GH_NV_REGISTER_CAP
 * into their PTX (NVIDIA's OpenCL compiler takes no cap of its own). */
#if ASYNC && defined(GH_NV_REGISTER_CAP)
#define LATE_BARRIER 1
/* After which k's of a step the next step's copies start (as in CUDA's). */
#define COPY_K0 1
#define COPY_K1 4
#if COPY_K1 >= BK - 1
#error "the late barrier's copies go after k = COPY_K0 and COPY_K1, both before a step's last k"
#endif
#else
#define LATE_BARRIER 0
#endif

/* Registers a work-item stages a tile of E elements in: the larger of the
 * piece path's (whole pieces) and the element path's share. */
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define STAGED(E) (CEIL_DIV((E) / GV, THREADS) * GV > CEIL_DIV((E), THREADS) ? CEIL_DIV((E) / GV, THREADS) * GV \
                                                                              : CEIL_DIV((E), THREADS))
#define A_STAGED STAGED(BM * BK)
#define B_STAGED STAGED(BN * BK)

/* A tile is R rows of L contiguous elements, read in pieces of P (GV, or
 * 1 where the layout does not allow 16 bytes). A work-item's first piece
 * is at row START_R, element START_L; its piece e lies DR(e) rows and DL(e)
 * elements further. THREADS and L / P are powers of two, so one divides the
 * other and both offsets are compile-time constants: a work-item keeps one
 * element index per matrix, not an address per piece. */
#if (THREADS & (THREADS - 1)) != 0
#error "the work-items of a work-group must be a power of two"
#endif
#define PER_ROW(L, P)     ((L) / (P))
#define START_R(L, P)     (tid / PER_ROW(L, P))
#define START_L(L, P)     ((tid % PER_ROW(L, P)) * (P))
#define DR(e, L, P)       (((e) * THREADS) / PER_ROW(L, P))
#define DL(e, L, P)       ((((e) * THREADS) % PER_ROW(L, P)) * (P))
#define PIECES(R, L, P)   CEIL_DIV((R) * PER_ROW(L, P), THREADS)
/* Whether this work-item has piece e (only a tile smaller than a work-group leaves some out). */
#define HAS(e, R, L, P)   ((R) * PER_ROW(L, P) % THREADS == 0 || tid < (R) * PER_ROW(L, P))

/* The loads and stores of a tile of R rows of L, R and L constants: one
 * pair of functions per shape a tile can have (WT_TILE_IO below), so that
 * clang sees the trip counts while it compiles them (with R and L as
 * arguments it unrolled the element path's loop by a run-time count before
 * inlining, and staged[] went to the stack).
 *
 * wt_load_*: this work-item's share of a tile into staged[]. at is the
 * element index of its first piece; pieces from r_room rows or l_room
 * elements past it are outside the matrix, and 0. Whole pieces are one
 * load, a piece cut by the edge is read element by element.
 * wt_store_*: staged[] into a local tile of rows of ROW elements, one row
 * per k; tile points at the work-item's first element there. kc: the
 * stored tile's rows are M or N with K contiguous, so element (r, l) goes
 * to tile[l][r]; otherwise to tile[r][l]. */
#define WT_LOAD_PIECES(R, L, P, LOAD_WHOLE)                                                     \
    _Pragma("unroll") for (int e = 0; e < PIECES(R, L, P); e++) {                               \
        const long i = at + (long)DR(e, L, P) * ld + DL(e, L, P);                               \
        const int in_row =                                                                      \
            HAS(e, R, L, P) && DR(e, L, P) < r_room ? clamp(l_room - DL(e, L, P), 0, (P)) : 0;  \
        if (in_row == (P)) {                                                                    \
            LOAD_WHOLE;                                                                         \
        } else {                                                                                \
            _Pragma("unroll") for (int p = 0; p < (P); p++)                                     \
                staged[e * (P) + p] = p < in_row ? LOAD(x, i + p) : (ACC_T)0;                   \
        }                                                                                       \
    }
#define WT_STORE_PIECES(R, L, P, KC)                                                            \
    _Pragma("unroll") for (int e = 0; e < PIECES(R, L, P); e++) {                               \
        if (!HAS(e, R, L, P)) continue;                                                         \
        _Pragma("unroll") for (int p = 0; p < (P); p++) {                                       \
            const int r = DR(e, L, P), l = DL(e, L, P) + p;                                     \
            tile[(KC) ? l * ROW + r : r * ROW + l] = staged[e * (P) + p];                       \
        }                                                                                       \
    }
#define WT_TILE_IO(NAME, R, L, KC)                                                                             \
    static __attribute__((always_inline)) void wt_load_##NAME(__global const STORE_T *restrict x, const long at, \
                                                              const int ld, const int r_room, const int l_room,  \
                                                              const int vec, const int tid, ACC_T *staged)       \
    {                                                                                                          \
        if (vec) {                                                                                             \
            WT_LOAD_PIECES(R, L, GV, const PIECE_T v = LOAD_PIECE(x, i); UNPACK_PIECE(staged, e * GV, v))      \
        } else {                                                                                               \
            WT_LOAD_PIECES(R, L, 1, staged[e] = LOAD(x, i))                                                    \
        }                                                                                                      \
    }                                                                                                          \
    static __attribute__((always_inline)) void wt_store_##NAME(__local ACC_T *tile, const int ROW, const int vec, \
                                                               const int tid, const ACC_T *staged)               \
    {                                                                                                          \
        if (vec) {                                                                                             \
            WT_STORE_PIECES(R, L, GV, KC)                                                                      \
        } else {                                                                                               \
            WT_STORE_PIECES(R, L, 1, KC)                                                                       \
        }                                                                                                      \
    }
/* ASYNC: the same pieces of a tile kept as stored (rows along K) by
 * cp.async straight into the local tile: a whole 16-byte piece in one copy,
 * `valid` bytes of it read and the rest zeros where the edge cuts it; x
 * itself (a valid address) handed to a copy that reads nothing.
 * Both ASYNC copies first ask whether the whole tile from this work-item's
 * first piece on lies inside the matrix (every step but the last in every
 * block but the last row and column of blocks): then its pieces are copied
 * whole, with no edge arithmetic per piece, as CUDA's warptile does (faster
 * in every transpose: docs/kernels.md). */
#define WT_COPY_PIECES_WITH(R, L, P, IN_ROW)                                                    \
    _Pragma("unroll") for (int e = 0; e < PIECES(R, L, P); e++) {                               \
        if (!HAS(e, R, L, P)) continue;                                                         \
        const long i = at + (long)DR(e, L, P) * ld + DL(e, L, P);                               \
        const int in_row = (IN_ROW);                                                            \
        __local ACC_T *to = &tile[DR(e, L, P) * ROW + DL(e, L, P)];                             \
        if ((P) > 1)                                                                            \
            COPY16(to, in_row ? x + i : x, in_row * (int)sizeof(STORE_T));                     \
        else                                                                                    \
            COPY_ELEMENT(to, in_row ? x + i : x, in_row * (int)sizeof(STORE_T));               \
    }
#define WT_COPY_PIECES(R, L, P)                                                                 \
    if (r_room >= (R) && l_room >= (L)) {                                                       \
        WT_COPY_PIECES_WITH(R, L, P, (P))                                                       \
    } else {                                                                                    \
        WT_COPY_PIECES_WITH(R, L, P, DR(e, L, P) < r_room ? clamp(l_room - DL(e, L, P), 0, (P)) : 0) \
    }
/* ASYNC: a tile transposed on its way in (rows along M or N, K contiguous)
 * by cp.async of single elements, dealt as in kernels/cuda/warptile.cu: in
 * groups of G_KC consecutive along a row, groups going down the rows first,
 * so a warp reads G_KC elements of each of 4 rows and writes them to G_KC
 * local rows whose 16-byte padding puts them 4 banks apart (no conflicts).
 * THREADS, G_KC and R are powers of two, so piece e of a work-item is its
 * first plus KC_DR(e) rows and KC_DL(e) elements, both constants. */
#define G_KC 8
#define KC_R0(R)          ((tid / G_KC) % (R))
#define KC_L0(R)          (tid % G_KC + tid / G_KC / (R) * G_KC)
#define KC_DR(e, R)       (((e) * (THREADS / G_KC)) % (R))
#define KC_DL(e, R)       (((e) * (THREADS / G_KC)) / (R) * G_KC)
#define KC_HAS(e, R, L)   ((R) * (L) % THREADS == 0 || tid + (e) * THREADS < (R) * (L))
#define WT_COPY_KC_WITH(R, L, IN)                                                                              \
    _Pragma("unroll") for (int e = 0; e < CEIL_DIV((R) * (L), THREADS); e++) {                                 \
        if (!KC_HAS(e, R, L)) continue;                                                                        \
        const int r = KC_DR(e, R), l = KC_DL(e, R), in = (IN);                                                 \
        COPY_ELEMENT(&tile[l * ROW + r], in ? x + at + (long)r * ld + l : x, in ? (int)sizeof(STORE_T) : 0);   \
    }
#define WT_TILE_COPY_KC(NAME, R, L)                                                                            \
    static __attribute__((always_inline)) void wt_copy_##NAME(__local ACC_T *tile, const int ROW,              \
                                                              __global const STORE_T *restrict x, const long at, \
                                                              const int ld, const int r_room, const int l_room,  \
                                                              const int tid)                                     \
    {                                                                                                          \
        if (r_room >= (R) && l_room >= (L)) {                                                                  \
            WT_COPY_KC_WITH(R, L, 1)                                                                           \
        } else {                                                                                               \
            WT_COPY_KC_WITH(R, L, r < r_room && l < l_room)                                                    \
        }                                                                                                      \
    }
#define WT_TILE_COPY(NAME, R, L)                                                                               \
    static __attribute__((always_inline)) void wt_copy_##NAME(__local ACC_T *tile, const int ROW,              \
                                                              __global const STORE_T *restrict x, const long at, \
                                                              const int ld, const int r_room, const int l_room,  \
                                                              const int vec, const int tid)                      \
    {                                                                                                          \
        if (vec) {                                                                                             \
            WT_COPY_PIECES(R, L, GV)                                                                           \
        } else {                                                                                               \
            WT_COPY_PIECES(R, L, 1)                                                                            \
        }                                                                                                      \
    }

/* op(A) with K contiguous (A as stored: BM rows of BK) or M contiguous
 * (A^T: BK rows of BM); op(B) with N contiguous or K contiguous. */
WT_TILE_IO(a_kc, BM, BK, 1)
WT_TILE_IO(a_mc, BK, BM, 0)
WT_TILE_IO(b_kc, BN, BK, 1)
WT_TILE_IO(b_nc, BK, BN, 0)
#if ASYNC
WT_TILE_COPY(a_mc, BK, BM)
WT_TILE_COPY(b_nc, BK, BN)
WT_TILE_COPY_KC(a_kc, BM, BK)
WT_TILE_COPY_KC(b_kc, BN, BK)
#endif

/* One step's tile of op(A) (a) or op(B) (b) into registers, for either way
 * it can lie in memory: kc (K contiguous) is a uniform branch. */
#define LOAD_A(k_left)                                                                                  \
    do {                                                                                                \
        if (a_kc) wt_load_a_kc(A, a_at, lda, m_left - a_rt, (k_left) - a_lt, a_vec, tid, a_staged);     \
        else wt_load_a_mc(A, a_at, lda, (k_left) - a_rt, m_left - a_lt, a_vec, tid, a_staged);          \
        a_at += a_step;                                                                                 \
    } while (0)
#define LOAD_B(k_left)                                                                                  \
    do {                                                                                                \
        if (b_kc) wt_load_b_kc(B, b_at, ldb, n_left - b_rt, (k_left) - b_lt, b_vec, tid, b_staged);     \
        else wt_load_b_nc(B, b_at, ldb, (k_left) - b_rt, n_left - b_lt, b_vec, tid, b_staged);          \
        b_at += b_step;                                                                                 \
    } while (0)
#define STORE_TILES(buf)                                                                                \
    do {                                                                                                \
        __local ACC_T *a_to = a_tile + (buf) * A_TILE + a_st, *b_to = b_tile + (buf) * B_TILE + b_st;   \
        if (a_kc) wt_store_a_kc(a_to, A_ROW, a_vec, tid, a_staged);                                     \
        else wt_store_a_mc(a_to, A_ROW, a_vec, tid, a_staged);                                          \
        if (b_kc) wt_store_b_kc(b_to, B_ROW, b_vec, tid, b_staged);                                     \
        else wt_store_b_nc(b_to, B_ROW, b_vec, tid, b_staged);                                          \
    } while (0)

/* ASYNC: one step's tile of op(A) or op(B) by cp.async into buffer buf
 * (kc: a constant); COPY_TILES both, as one commit group. */
#define COPY_A(buf, k_left)                                                                                  \
    do {                                                                                                     \
        __local ACC_T *a_to = a_tile + (buf) * A_TILE + a_st;                                                \
        if (a_kc) wt_copy_a_kc(a_to, A_ROW, A, a_at, lda, m_left - a_rt, (k_left) - a_lt, tid);              \
        else wt_copy_a_mc(a_to, A_ROW, A, a_at, lda, (k_left) - a_rt, m_left - a_lt, a_vec, tid);            \
        a_at += a_step;                                                                                      \
    } while (0)
#define COPY_B(buf, k_left)                                                                                  \
    do {                                                                                                     \
        __local ACC_T *b_to = b_tile + (buf) * B_TILE + b_st;                                                \
        if (b_kc) wt_copy_b_kc(b_to, B_ROW, B, b_at, ldb, n_left - b_rt, (k_left) - b_lt, tid);              \
        else wt_copy_b_nc(b_to, B_ROW, B, b_at, ldb, (k_left) - b_rt, n_left - b_lt, b_vec, tid);            \
        b_at += b_step;                                                                                      \
    } while (0)
#define COPY_TILES(buf, k_left)                                                                              \
    do {                                                                                                     \
        COPY_A(buf, k_left);                                                                                 \
        COPY_B(buf, k_left);                                                                                 \
        ASYNC_COMMIT();                                                                                      \
    } while (0)

/* A work-item's fragments of k from buffer buf (TM of op(A), TN of op(B)),
 * and their products added to acc. */
#define LOAD_FRAGS(a_reg, b_reg, buf, k)                                                                     \
    do {                                                                                                     \
        __local const VTYPE *a_v = a_tile_v + (buf) * (A_TILE / V) + wy0 / V + ty;                           \
        __local const VTYPE *b_v = b_tile_v + (buf) * (B_TILE / V) + wx0 / V + tx;                           \
        _Pragma("unroll") for (int r = 0; r < TM / V; r++) {                                                 \
            const VTYPE av = a_v[(k) * (A_ROW / V) + r * TWM];                                               \
            UNPACK(a_reg, r * V, av);                                                                        \
        }                                                                                                    \
        _Pragma("unroll") for (int r = 0; r < TN / V; r++) {                                                 \
            const VTYPE bv = b_v[(k) * (B_ROW / V) + r * TWN];                                               \
            UNPACK(b_reg, r * V, bv);                                                                        \
        }                                                                                                    \
    } while (0)
#define MULTIPLY(a_reg, b_reg)                                                                               \
    _Pragma("unroll") for (int i = 0; i < TM; i++)                                                           \
        _Pragma("unroll") for (int j = 0; j < TN; j++)                                                       \
            acc[i][j] += (a_reg)[i] * (b_reg)[j]

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void gemm_warptile(GEMM_ARGS)
{
    const int2 origin = block_origin(M, N, BM, BN);
    const int row0 = origin.x, col0 = origin.y;
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
#if ASYNC
    /* Built for one transpose pair, GH_NV_ASYNC = 1 + trans_a + 2 trans_b
     * (the plugin launches it for nothing else). */
    const int a_kc = ((GH_NV_ASYNC - 1) & 1) == 0, b_kc = ((GH_NV_ASYNC - 1) & 2) != 0;
#else
    const int a_kc = !trans_a, b_kc = trans_b;
#endif
    const int a_vec = a_offset % GV == 0 && lda % GV == 0, b_vec = b_offset % GV == 0 && ldb % GV == 0;
    /* This work-item's first piece of each tile (row, element of the tile
     * as stored), its element index and its place in local memory. */
#define START(F, kc, vec, L_KC, L_XC) \
    ((kc) ? ((vec) ? F(L_KC, GV) : F(L_KC, 1)) : ((vec) ? F(L_XC, GV) : F(L_XC, 1)))
#if ASYNC
    const int a_rt = a_kc ? KC_R0(BM) : START(START_R, 0, a_vec, BK, BM);
    const int a_lt = a_kc ? KC_L0(BM) : START(START_L, 0, a_vec, BK, BM);
    const int b_rt = b_kc ? KC_R0(BN) : START(START_R, 0, b_vec, BK, BN);
    const int b_lt = b_kc ? KC_L0(BN) : START(START_L, 0, b_vec, BK, BN);
#else
    const int a_rt = START(START_R, a_kc, a_vec, BK, BM), a_lt = START(START_L, a_kc, a_vec, BK, BM);
    const int b_rt = START(START_R, b_kc, b_vec, BK, BN), b_lt = START(START_L, b_kc, b_vec, BK, BN);
#endif
#undef START
    long a_at = (long)a_offset + tile_origin(!a_kc, row0, lda) + (long)a_rt * lda + a_lt;
    long b_at = (long)b_offset + tile_origin(!b_kc, col0, ldb) + (long)b_rt * ldb + b_lt;
    const long a_step = tile_step(!a_kc, BK, lda), b_step = tile_step(!b_kc, BK, ldb);
    const int a_st = a_kc ? a_lt * A_ROW + a_rt : a_rt * A_ROW + a_lt;
    const int b_st = b_kc ? b_lt * B_ROW + b_rt : b_rt * B_ROW + b_lt;

    ACC_T acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = (ACC_T)0;

    /* Steps are counted rather than compared with K: k + BK may not fit an int. */
    const int steps = (K - 1) / BK + 1;
#if LATE_BARRIER
    /* CUDA's step order (kernels/cuda/warptile.cu): the fragments of k + 1
     * are read while k's are multiplied; the barrier that publishes step
     * s + 1 comes before step s's last products, which hide it and the
     * first reads across it; the next step's copies go in two parts, after
     * k = COPY_K0 and COPY_K1, the operand with fewer pieces per work-item
     * first (B when only A goes element by element). Faster than the order
     * below where the registers are capped at 128 (uncapped, one work-group
     * per multiprocessor and slower): docs/kernels.md. */
    const int b_first = a_kc > b_kc; /* only A element by element (constants: no &&, which clang warns of) */
    COPY_TILES(0, K);
    ASYNC_WAIT(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    ACC_T af[2][TM], bf[2][TN];
    LOAD_FRAGS(af[0], bf[0], 0, 0);
    for (int s = 0; s < steps; s++) {
        const int more = s + 1 < steps, buf = s & 1;
#pragma unroll
        for (int k = 0; k < BK; k++) {
            if (k == BK - 1) {
                /* Step s + 1 has arrived for every work-item, and every
                 * work-item is done reading step s, whose buffer step s + 2
                 * overwrites. */
                ASYNC_WAIT(0);
                barrier(CLK_LOCAL_MEM_FENCE);
                if (more) LOAD_FRAGS(af[(k + 1) % 2], bf[(k + 1) % 2], buf ^ 1, 0);
            } else {
                LOAD_FRAGS(af[(k + 1) % 2], bf[(k + 1) % 2], buf, k + 1);
            }
            MULTIPLY(af[k % 2], bf[k % 2]);
            /* Into the buffer of step s - 1, read before the last barrier. */
            if ((k == COPY_K0 || k == COPY_K1) && more) {
                if ((k == COPY_K0) == b_first) COPY_B(buf ^ 1, K - (s + 1) * BK);
                else COPY_A(buf ^ 1, K - (s + 1) * BK);
            }
            if (k == COPY_K1) ASYNC_COMMIT();
        }
    }
#else
#if ASYNC
    COPY_TILES(0, K);
#else
    ACC_T a_staged[A_STAGED], b_staged[B_STAGED];
    LOAD_A(K);
    LOAD_B(K);
    STORE_TILES(0);
    barrier(CLK_LOCAL_MEM_FENCE);
#endif

    for (int s = 0; s < steps; s++) {
        const int more = s + 1 < steps;
#if ASYNC
        /* Step s has arrived for every work-item, and every work-item is
         * done with step s - 1, whose buffer the next copies overwrite. */
        ASYNC_WAIT(0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (more) COPY_TILES((s & 1) ^ 1, K - (s + 1) * BK); /* on their way while this step is multiplied */
#else
        if (more) {
            /* In flight while this step is multiplied. */
            const int k_left = K - (s + 1) * BK;
            LOAD_A(k_left);
            LOAD_B(k_left);
        }
#endif

        const int buf = s & 1;
#pragma unroll
        for (int k = 0; k < BK; k++) {
            ACC_T a_reg[TM], b_reg[TN];
            LOAD_FRAGS(a_reg, b_reg, buf, k);
            MULTIPLY(a_reg, b_reg);
        }

#if !ASYNC
        /* Into the other buffer, last read before the previous barrier. */
        if (more) STORE_TILES(buf ^ 1);
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }
#endif

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
