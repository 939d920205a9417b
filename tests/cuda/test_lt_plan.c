/*
 * The cuBLASLt baseline's device-free decisions (plugins/cuda/lt_plan.c):
 * a row-major GEMM mapped to cuBLASLt's column-major operands, checked by
 * computing it both ways for every transpose pair with padded leading
 * dimensions; the alignment promised to the heuristic; the fastest timed
 * candidate; the per-case cache. Needs no GPU: runs in CI.
 */
#define CHECK_MAIN
#include "../check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lt_plan.h"

/* Element (r, c) of an operand's stored column-major matrix; NaN outside
 * the rows and columns its layout declares, as cuBLASLt would never read
 * there: a layout of the wrong shape shows in the product. */
static double col_at(const double *p, const gh_lt_operand *o, uint64_t r, uint64_t c)
{
    if (r >= o->rows || c >= o->cols) return NAN;
    return p[c * (uint64_t)o->ld + r];
}

/* cuBLASLt's contract on the mapped shape: D = op(first) op(second), all
 * column-major, op(X)(i, j) = X(i, j) or X(j, i). */
static void col_major_gemm(const gh_lt_shape *s, const double *first, const double *second, double *c)
{
    for (uint64_t i = 0; i < s->m; ++i)
        for (uint64_t j = 0; j < s->n; ++j) {
            double sum = 0;
            for (uint64_t p = 0; p < s->k; ++p) {
                double x = s->first.transpose ? col_at(first, &s->first, p, i) : col_at(first, &s->first, i, p);
                double y = s->second.transpose ? col_at(second, &s->second, j, p) : col_at(second, &s->second, p, j);
                sum += x * y;
            }
            c[j * (uint64_t)s->ldc + i] = sum;
        }
}

static void test_mapping(int trans_a, int trans_b)
{
    const int64_t m = 3, n = 5, k = 4, pad = 2;
    /* Row-major storage: A is M x K (K x M when transposed), B K x N (N x K). */
    const int64_t a_rows = trans_a ? k : m, a_cols = trans_a ? m : k;
    const int64_t b_rows = trans_b ? n : k, b_cols = trans_b ? k : n;
    const int64_t lda = a_cols + pad, ldb = b_cols + pad + 1, ldc = n + pad;
    double *A = calloc((size_t)(a_rows * lda), sizeof *A), *B = calloc((size_t)(b_rows * ldb), sizeof *B);
    double *want = calloc((size_t)(m * ldc), sizeof *want), *got = calloc((size_t)(m * ldc), sizeof *got);
    for (int64_t i = 0; i < a_rows * lda; ++i) A[i] = (double)((i * 7) % 11) - 5;
    for (int64_t i = 0; i < b_rows * ldb; ++i) B[i] = (double)((i * 5) % 13) - 6;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double sum = 0;
            for (int64_t p = 0; p < k; ++p)
                sum += (trans_a ? A[p * lda + i] : A[i * lda + p]) * (trans_b ? B[j * ldb + p] : B[p * ldb + j]);
            want[i * ldc + j] = sum;
        }

    gh_lt_shape s = gh_lt_shape_of(m, n, k, trans_a, trans_b, lda, ldb, ldc);
    const char *tr = trans_a ? (trans_b ? "tt" : "tn") : (trans_b ? "nt" : "nn");
    CHECK(s.first.which == 'B' && s.second.which == 'A' && s.m == (uint64_t)n && s.n == (uint64_t)m &&
              s.k == (uint64_t)k,
          "%s: cuBLASLt computes C^T = op(B)^T op(A)^T: its A is B, m = N, n = M", tr);
    /* cuBLASLt refuses a layout whose leading dimension is below its rows. */
    /* cuBLASLt's contract: op(first) is m x k, op(second) k x n, C m x n. */
    CHECK((s.first.transpose ? s.first.cols : s.first.rows) == s.m &&
              (s.first.transpose ? s.first.rows : s.first.cols) == s.k &&
              (s.second.transpose ? s.second.cols : s.second.rows) == s.k &&
              (s.second.transpose ? s.second.rows : s.second.cols) == s.n && s.c_rows == s.m && s.c_cols == s.n,
          "%s: the layouts' shapes are cuBLASLt's m x k, k x n and m x n", tr);
    CHECK((int64_t)s.first.rows <= s.first.ld && (int64_t)s.second.rows <= s.second.ld && (int64_t)s.c_rows <= s.ldc,
          "%s: every layout's rows fit its leading dimension (%llu <= %lld, %llu <= %lld, %llu <= %lld)", tr,
          (unsigned long long)s.first.rows, (long long)s.first.ld, (unsigned long long)s.second.rows,
          (long long)s.second.ld, (unsigned long long)s.c_rows, (long long)s.ldc);
    col_major_gemm(&s, s.first.which == 'B' ? B : A, s.second.which == 'A' ? A : B, got);
    double worst = 0;
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            double d = fabs(got[i * ldc + j] - want[i * ldc + j]);
            worst = isnan(d) || isnan(worst) ? NAN : fmax(worst, d);
        }
    CHECK(worst == 0,
          "%s 3x5x4 with padded leading dimensions: the column-major product is the row-major C "
          "(largest difference %g)",
          tr, worst);
    free(A);
    free(B);
    free(want);
    free(got);
}

static void test_alignment(void)
{
    const struct {
        uint64_t address;
        unsigned want;
    } cases[] = {{0x7f0000000000ull, 256}, {0x7f0000000100ull, 256}, {0x7f0000000040ull, 64},
                 {0x7f0000000004ull, 4},   {0x7f0000000002ull, 2},   {0x7f0000000001ull, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        unsigned got = gh_lt_alignment(cases[i].address);
        CHECK(got == cases[i].want, "alignment of 0x%llx: %u bytes (got %u)", (unsigned long long)cases[i].address,
              cases[i].want, got);
    }
}

static void test_pick(void)
{
    const double ms[] = {0.50, 0.40, 0.40, 0.30, 0.20};
    const int all[] = {1, 1, 1, 1, 1}, last_failed[] = {1, 1, 1, 1, 0}, none[] = {0, 0, 0, 0, 0};
    CHECK(gh_lt_pick_fastest(ms, all, 5) == 4, "the fastest candidate wins (got %d)", gh_lt_pick_fastest(ms, all, 5));
    CHECK(gh_lt_pick_fastest(ms, last_failed, 5) == 3, "a candidate that failed to run is never picked (got %d)",
          gh_lt_pick_fastest(ms, last_failed, 5));
    CHECK(gh_lt_pick_fastest(ms, all, 3) == 1, "a tie keeps the heuristic's earlier candidate (got %d)",
          gh_lt_pick_fastest(ms, all, 3));
    CHECK(gh_lt_pick_fastest(ms, none, 5) == -1, "none ran: -1 (got %d)", gh_lt_pick_fastest(ms, none, 5));
    const double zero[] = {0.0, 0.1};
    CHECK(gh_lt_pick_fastest(zero, all, 2) == 1, "a time of 0 is no time, never the fastest (got %d)",
          gh_lt_pick_fastest(zero, all, 2));
}

/* cuBLASLt's FP8 and int8 layout rules (lt_plan.h): "TN" only, which is
 * gemmhost's nt; leading dimensions and starts as documented. */
static void test_8bit_rules(void)
{
    char why[512];
    const uint64_t base = 0x7f0000000000ull;
    const gh_lt_8bit_case fp8 = {GH_LT_8BIT_FP8, 0, 1, 64, 64, 64, 4, base, base + 4096, base + 8192};
    CHECK(gh_lt_8bit_fits(&fp8, why, sizeof why), "FP8 nt, ld 64, aligned: allowed (%s)", why);
    for (int t = 0; t < 4; ++t) {
        if (t == 1) continue;
        gh_lt_8bit_case c = fp8;
        c.trans_a = t >> 1;
        c.trans_b = t & 1;
        why[0] = '\0';
        CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "\"TN\"") &&
                  strstr(why, "trans_a = 0 and trans_b = 1"),
              "FP8 trans_a %d trans_b %d: refused, naming cuBLASLt's TN layout and gemmhost's nt (%s)", c.trans_a,
              c.trans_b, why);
    }
    gh_lt_8bit_case c = fp8;
    c.lda = 40;
    CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "lda is 40") && strstr(why, "16 bytes"),
          "FP8 lda 40: refused, naming 16 bytes (%s)", why);
    c = fp8;
    c.elem_c = 2;
    c.ldc = 36; /* 72 bytes: not whole 16 */
    CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "ldc is 36 (72 bytes)"),
          "FP8 with an f16 C of ldc 36: refused (%s)", why);
    c.ldc = 40; /* 80 bytes */
    CHECK(gh_lt_8bit_fits(&c, why, sizeof why), "FP8 with an f16 C of ldc 40 (80 bytes): allowed");
    c = fp8;
    c.addr_b = base + 4096 + 8;
    CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "B starts") && strstr(why, "16-byte aligned"),
          "FP8 with B at an 8-byte offset: refused (%s)", why);

    /* int8: ld = 17 is where cuBLASLt once returned wrong sums (PyTorch PR 106840). */
    const gh_lt_8bit_case i8 = {GH_LT_8BIT_I8, 0, 1, 20, 20, 8, 4, base + 4, base + 4096, base + 8192};
    CHECK(gh_lt_8bit_fits(&i8, why, sizeof why), "i8 nt, ld 20/20/8, 4-byte aligned: allowed (%s)", why);
    c = i8;
    c.lda = 17;
    CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "lda is 17") && strstr(why, "4 elements"),
          "i8 lda 17: refused, naming multiples of 4 (%s)", why);
    c = i8;
    c.trans_a = 1;
    CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "IMMA") && strstr(why, "\"TN\""),
          "i8 tn: refused, naming TN (%s)", why);
    c = i8;
    c.addr_c = base + 8192 + 2;
    CHECK(!gh_lt_8bit_fits(&c, why, sizeof why) && strstr(why, "C starts"),
          "i8 with C at a 2-byte offset: refused (%s)", why);
}

static void test_cache(void)
{
    gh_lt_key key = {0, 2, 0, 1, 1024, 1024, 1024, 1024, 1024, 1024, 256, 256, 256, 2, 2};
    gh_lt_choice *list = calloc(1, sizeof *list);
    list->key = key;
    snprintf(list->note, sizeof list->note, "first");
    CHECK(gh_lt_find(list, &key) == list, "the same case finds its cached choice");
    /* a key with one field changed is another case */
    gh_lt_key other[6] = {key, key, key, key, key, key};
    other[0].variant = 2;
    other[1].trans_b = 0;
    other[2].align_a = 2;
    other[3].c_dtype = 3;
    other[4].b_dtype = 6;
    other[5].ldc = 1032;
    static const char *const what[6] = {"cublas-strict does not take cublas's choice",
                                        "another transpose is another case",
                                        "an operand at an offset (less aligned) is another case",
                                        "another C type is another case",
                                        "another B type is another case",
                                        "another leading dimension is another case"};
    for (int i = 0; i < 6; i++) CHECK(gh_lt_find(list, &other[i]) == NULL, "%s", what[i]);
    gh_lt_free(list);
}

int main(void)
{
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb) test_mapping(ta, tb);
    test_alignment();
    test_pick();
    test_8bit_rules();
    test_cache();
    return check_summary("cuda_lt_plan");
}
