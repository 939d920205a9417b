/*
 * What the cuBLASLt baseline decides without a device: how a row-major GEMM
 * becomes cuBLASLt's column-major one, the alignment the heuristic may
 * assume, which timed candidate wins, and the per-case cache of that choice.
 * Plain data and arithmetic: no CUDA header, no CUDA call, so a unit test
 * runs it on a machine with no GPU (tests/cuda/test_lt_plan.c).
 */
#ifndef GH_CUDA_LT_PLAN_H
#define GH_CUDA_LT_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* One operand as cuBLASLt sees it: the stored column-major matrix (before
 * its transpose), and the transpose applied to it. */
typedef struct gh_lt_operand {
    int which;     /* 'A' or 'B': which of the caller's row-major matrices this is */
    int transpose; /* 1: CUBLAS_OP_T */
    uint64_t rows, cols;
    int64_t ld;
} gh_lt_operand;

/* A row-major C (M x N) = op(A) op(B) as cuBLASLt computes it: C^T = op(B)^T
 * op(A)^T in column-major, so cuBLASLt's first operand is the caller's B and
 * its second the caller's A, with M and N swapped. */
typedef struct gh_lt_shape {
    uint64_t m, n, k;        /* cuBLASLt's: m = the caller's N, n = the caller's M */
    gh_lt_operand first;     /* cuBLASLt's A: the caller's B */
    gh_lt_operand second;    /* cuBLASLt's B: the caller's A */
    uint64_t c_rows, c_cols; /* C's column-major view: N x M */
    int64_t ldc;
} gh_lt_shape;

gh_lt_shape gh_lt_shape_of(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b, int64_t lda, int64_t ldb,
                           int64_t ldc);

/* The largest power of two, at most 256, that divides a device address:
 * what CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_*_BYTES may promise (cuBLASLt
 * assumes 256 unless told, and an algorithm chosen for 256 may fail on an
 * operand that starts at an offset). */
unsigned gh_lt_alignment(uint64_t address);

/* The fastest of n timed candidates: ms[i] its time, ok[i] 0 when it failed
 * to run. -1 when none ran. Ties keep the earlier (the heuristic's own order). */
int gh_lt_pick_fastest(const double *ms, const int *ok, int n);

/* The 8-bit GEMMs' layout rules, as cuBLASLt documents them for
 * cublasLtMatmul with CUBLASLT_ORDER_COL (the default):
 *  - FP8 (e4m3, e5m2): cuBLASLt's A transposed and its B not ("TN"); A, B
 *    and C start 16-byte aligned and their leading dimensions are whole
 *    16 bytes.
 *  - i8 (IMMA, CUBLAS_COMPUTE_32I): "TN" too; A, B and C start 4-byte
 *    aligned and their leading dimensions are multiples of 4 elements.
 * cuBLASLt's A is the caller's B and its B the caller's A (gh_lt_shape_of),
 * with the caller's flags: "TN" is the caller's trans_a = 0, trans_b = 1,
 * both operands stored with K contiguous (gemmhost's "nt"). */
enum { GH_LT_8BIT_FP8 = 1, GH_LT_8BIT_I8 = 2 };
typedef struct gh_lt_8bit_case {
    int kind; /* GH_LT_8BIT_FP8 or GH_LT_8BIT_I8 */
    int trans_a, trans_b;
    int64_t lda, ldb, ldc;           /* in elements */
    unsigned elem_c;                 /* C's bytes per element (A's and B's are 1) */
    uint64_t addr_a, addr_b, addr_c; /* device addresses of the first elements */
} gh_lt_8bit_case;
/* 1 when cuBLASLt's rules allow the case; else 0 with a sentence in why
 * naming the rule and what the case has. */
int gh_lt_8bit_fits(const gh_lt_8bit_case *c, char *why, size_t why_size);

/* What a cached choice is keyed by: everything the heuristic looks at. */
typedef struct gh_lt_key {
    int variant; /* the kernel: default, tf32, strict, fp8, fp8-fast, i8 */
    int dtype;   /* A's */
    int trans_a, trans_b;
    int64_t m, n, k, lda, ldb, ldc;
    unsigned align_a, align_b, align_c;
    int b_dtype, c_dtype; /* B's and C's (those of A for one-type GEMMs) */
} gh_lt_key;

int gh_lt_key_equal(const gh_lt_key *x, const gh_lt_key *y);

/* A cached choice: the key, the algorithm as cuBLASLt's opaque bytes
 * (cublasLtMatmulAlgo_t is 64 bytes of data), and the sentence that goes
 * into the result. */
#define GH_LT_ALGO_BYTES 64
#define GH_LT_NOTE_BYTES 240
typedef struct gh_lt_choice {
    gh_lt_key key;
    unsigned char algo[GH_LT_ALGO_BYTES];
    size_t workspace;   /* the bytes it needs */
    int32_t split_k;    /* CUBLASLT_ALGO_CONFIG_SPLITK_NUM: pieces of K (1: none) */
    uint32_t reduction; /* CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME: where the pieces are summed */
    char note[GH_LT_NOTE_BYTES];
    struct gh_lt_choice *next;
} gh_lt_choice;

/* The cached choice for key in the list, or NULL. */
gh_lt_choice *gh_lt_find(gh_lt_choice *list, const gh_lt_key *key);
/* Frees the list. */
void gh_lt_free(gh_lt_choice *list);

#endif
