/* One crafted GEMM of the probe: C = A B (alpha 1, beta 0, no transposes),
 * its inputs given as exact values, with the sentence that says what it
 * isolates. The builders (probe_cases.c) are the catalogue; docs/probe.md
 * says why each isolates one property. */
#ifndef GEMMHOST_PROBE_CASE_H
#define GEMMHOST_PROBE_CASE_H

#include <stdint.h>
#include "gemmhost/plugin.h"
#include "probe_format.h"

typedef struct probe_case {
    char name[48];             /* "acc_bits": the catalogue's name, also in the JSON */
    char why[320];             /* what it shows, one sentence */
    gh_dtype dtype;            /* of A (and B and C unless they differ) */
    gh_dtype b_dtype, c_dtype; /* = dtype, or an ABI 1.5 combination's (8-bit A and B, wider C) */
    int64_t m, n, k;
    double *a, *b;                    /* m x k and k x n, row-major; every value exact in dtype */
    double scale_a, scale_b, scale_c; /* ABI 1.5 scales of a combination; 1 unless a case aims at them */
} probe_case;

probe_case *probe_case_new(const char *name, gh_dtype dtype, int64_t m, int64_t n, int64_t k, const char *why);
void probe_case_free(probe_case *c);
#define PROBE_A(c, i, p) ((c)->a[(i) * (c)->k + (p)])
#define PROBE_B(c, p, j) ((c)->b[(p) * (c)->n + (j)])

/* ---- the catalogue (probe_cases.c) ---- */

/* K = 1, A = (1, 1 + 2^-1, ..., 1 + 2^-p) as a column, B the same as a row:
 * C[i][0] is A_i as the multiplier saw it, C[0][j] B_j. */
probe_case *probe_case_input_bits(const probe_format *f);
/* K = 1, B = 1, A around 1 + 2^-t, a quarter, a half and three quarters of
 * a unit of the t-bit input past it, both signs: how inputs are rounded. */
probe_case *probe_case_input_mode(const probe_format *f, int t);
/* K = 1, B = 1: A = 2^17, 2^-26 (outside f16's range: inf and 0 there)
 * and, for f64, 2^200, 2^-200 (outside f32's): the exponent range the
 * multiplier sees (bf16 or f32 through an f16 path, f64 through f32). */
probe_case *probe_case_input_range(const probe_format *f);
/* K = 3, row j: (big, big 2^-j, -big) . (1, 1, 1): big 2^-j survives only
 * where the running sum holds j bits below big. */
probe_case *probe_case_acc_bits(const probe_format *f);
double probe_acc_big(const probe_format *f);
int probe_acc_max_j(const probe_format *f);
/* K = 3, (big, 3/4 unit of an m-bit sum, -big), both signs: the sum's
 * rounding mode. */
probe_case *probe_case_acc_mode(const probe_format *f, int m);
/* K = L, row r: big, then r copies of s (lost next to big in an m-bit sum),
 * then zeros: a narrow sum promoted every P steps keeps the copies after the
 * first P. */
probe_case *probe_case_promotion(const probe_format *f, int m, int length, double *s);
/* K = 2: -1 + (1 + 2^-t)(1 - 2^-t), in both orders over K: -2^-2t when the
 * product reaches the sum unrounded, 0 when it is rounded first. */
probe_case *probe_case_fused(const probe_format *f, int t);
/* Subnormal inputs times 2^10 (normal products), and normal inputs whose
 * product is subnormal. */
probe_case *probe_case_subnormal_inputs(const probe_format *f, double *sub);
probe_case *probe_case_subnormal_results(const probe_format *f, double *expected);
/* 3 x 3 x 3 of ones with one special value in A (or B) at (1, 1). */
probe_case *probe_case_special_in(const probe_format *f, int in_b, double value);
/* (inf) . (0, 1) and (inf, -inf) . (1, 1): inf * 0 and inf - inf. */
probe_case *probe_case_inf_arith(const probe_format *f);
/* (max, max) . (1, 1): the sum overflows the storage type. */
probe_case *probe_case_overflow(const probe_format *f);
/* K = 16, row r: big at one position, -big at another, u elsewhere: the u
 * added while big is in the sum are lost, so which survive says the order. */
#define PROBE_ORDER_K    16
#define PROBE_ORDER_ROWS 8
probe_case *probe_case_order(const probe_format *f, int m, double *u);
void probe_order_pair(int row, int *first, int *second);
/* 8-bit A and B (a combination into a wider C, ABI 1.5): the accumulator
 * case with big = 2^e * 2^e and small = 2^(e-i) * 2^-j, the gap below big
 * i + j + e spread over rows i (both signs) and columns j so that every
 * input stays a normal 8-bit number; and the promotion case with s split
 * over A and B the same way. */
probe_case *probe_case_acc_bits_8bit(const probe_format *in, const probe_format *out, int *e, int *max_i, int *max_j);
probe_case *probe_case_promotion_8bit(const probe_format *in, const probe_format *out, int m, int length, double *big,
                                      double *s);

/* i32: sums over 2^31 either way, a product of 2^32, an intermediate
 * overflow that cancels, and 2^24 + 1 (lost by a float path). */
probe_case *probe_case_int(void);
/* i8 into i32, K = 2^17 + 2^10: C[0][0] = K (-128)(-128) = 2^31 + 2^24
 * (past i32: the host's own draws never get there), C[1][1] = 1024
 * (-128)(-128) + 1 = 2^24 + 1 (lost by an f32 path). */
#define PROBE_I8_K (131072 + 1024)
probe_case *probe_case_int8(void);

#endif
