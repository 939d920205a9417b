/* core/verify: correct results pass under every method; planted faults fail
 * and are named. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#define CHECK_MAIN /* this file holds the check counters */
#include "test_util.h"
#include "compare.h"

#include "gemmhost/half.h"

static const gh_dtype all_dtypes[] = {GH_F32, GH_F64, GH_I32};
static const gh_verify_method checking_methods[] = {GH_VERIFY_FULL, GH_VERIFY_FREIVALDS, GH_VERIFY_SAMPLE,
                                                    GH_VERIFY_AUTO};

/* Non-trivial scalars; i32 needs integral ones. */
static double case_alpha(gh_dtype d)
{
    return d == GH_I32 ? 2.0 : 1.5;
}
static double case_beta(gh_dtype d)
{
    return d == GH_I32 ? -3.0 : -0.75;
}

static int contains(const char *text, const char *part)
{
    return strstr(text, part) != NULL;
}

static void test_names_and_gamma(void)
{
    for (int m = GH_VERIFY_AUTO; m <= GH_VERIFY_NONE; m++) {
        gh_verify_method parsed = GH_VERIFY_NONE;
        EXPECT(gh_verify_method_parse(gh_verify_method_name((gh_verify_method)m), &parsed) == 0 &&
                   parsed == (gh_verify_method)m,
               "method %d round trip", m);
    }
    gh_verify_method unused;
    EXPECT(gh_verify_method_parse("exact", &unused) != 0, "unknown method refused");
    EXPECT(gh_gamma(GH_I32, 1000) == 0.0, "i32 is exact");
    double u = 0x1p-24;
    EXPECT(fabs(gh_gamma(GH_F32, 10) - 10 * u / (1 - 10 * u)) < 1e-20, "f32 gamma_10");
    EXPECT(gh_gamma(GH_F64, 10) < gh_gamma(GH_F32, 10), "f64 tighter than f32");
    /* past K u = 1/2: (1 - u)^-K - 1, finite where K u / (1 - K u) is not */
    const double g13 = gh_gamma_u(0x1p-13, 8192), exact13 = pow(1 - 0x1p-13, -8192.0) - 1;
    EXPECT(isfinite(g13) && fabs(g13 - exact13) < 1e-12 && g13 > pow(1 + 0x1p-13, 8192.0) - 1,
           "gamma_8192(2^-13) is (1 - u)^-K - 1 = %.6f, got %.6f", exact13, g13);
    EXPECT(gh_gamma_u(0x1p-13, 4095) == 4095 * 0x1p-13 / (1 - 4095 * 0x1p-13),
           "below K u = 1/2 gamma is K u / (1 - K u)");
}

/* A correct result passes for every dtype, transpose, odd shape and method,
 * with padded leading dimensions and guards. */
static void test_correct_results_pass(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {1, 7, 3}, {7, 1, 5}, {13, 17, 1}, {33, 29, 31}, {5, 64, 130},
    };
    int cases = 0, passed = 0;
    for (int d = 0; d < 3; d++)
        for (int t = 0; t < 4; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int beta_zero = 0; beta_zero < 2; beta_zero++) {
                    gh_dtype dt = all_dtypes[d];
                    test_case tc;
                    test_case_make(&tc, dt, t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2], case_alpha(dt),
                                   beta_zero ? 0.0 : case_beta(dt), 3, 8, 100 + s);
                    test_case_compute(&tc, (int)s & 1);
                    for (int m = 0; m < 4; m++) {
                        gh_verify_options opt = test_options(checking_methods[m]);
                        gh_verify_result res;
                        test_case_verify(&tc, &opt, &res);
                        cases++;
                        int ok = res.passed && res.checked && res.max_err_over_bound <= 1.0 &&
                                 res.guard_overwrites == 0 && res.message[0] == '\0' && res.fail_i == -1;
                        passed += ok;
                        if (!ok)
                            fprintf(stderr, "  %s trans %d%d %lldx%lldx%lld beta %g %s: %s (ratio %g)\n",
                                    gh_dtype_name(dt), t & 1, t >> 1, (long long)shapes[s][0], (long long)shapes[s][1],
                                    (long long)shapes[s][2], tc.in.beta, gh_verify_method_name(checking_methods[m]),
                                    res.message, res.max_err_over_bound);
                        if (ok && checking_methods[m] == GH_VERIFY_FULL && dt == GH_I32)
                            EXPECT(res.max_abs_err == 0.0 && res.rel_fro_err == 0.0, "i32 exact");
                    }
                    test_case_free(&tc);
                }
    EXPECT(passed == cases, "%d of %d correct results passed", passed, cases);
}

/* Summing K in float in the opposite order still passes: the bound holds
 * whatever the order, and a long K makes the rounding visible. */
static void test_long_k_rounding_passes(void)
{
    for (int d = 0; d < 2; d++) {
        for (int reverse = 0; reverse < 2; reverse++) {
            test_case tc;
            test_case_make(&tc, all_dtypes[d], 0, 1, 9, 11, 5000, 1.0, 1.0, 0, 4, 3);
            test_case_compute(&tc, reverse);
            gh_verify_options opt = test_options(GH_VERIFY_FULL);
            gh_verify_result res;
            test_case_verify(&tc, &opt, &res);
            EXPECT(res.passed && res.max_abs_err > 0.0 && res.rel_fro_err > 0.0 && res.rel_fro_err < 1e-5,
                   "%s K=5000 reverse=%d: %s (abs %g, ratio %g, rel %g)", gh_dtype_name(all_dtypes[d]), reverse,
                   res.message, res.max_abs_err, res.max_err_over_bound, res.rel_fro_err);
            test_case_free(&tc);
        }
    }
}

/* Plants an error at (i, j) and expects it caught and named. */
static void expect_wrong_element_named(gh_dtype d, gh_verify_method method, int64_t i, int64_t j, double delta,
                                       const char *what)
{
    test_case tc;
    test_case_make(&tc, d, 1, 0, 37, 23, 19, case_alpha(d), case_beta(d), 2, 8, 11);
    test_case_compute(&tc, 0);
    double right = gh_matrix_get(&tc.c, i, j);
    gh_matrix_set(&tc.c, i, j, right + delta);
    gh_verify_options opt = test_options(method);
    gh_verify_result res;
    test_case_verify(&tc, &opt, &res);
    char where[40];
    snprintf(where, sizeof where, "C[%lld,%lld]", (long long)i, (long long)j);
    EXPECT(!res.passed && res.fail_i == i && res.fail_j == j && res.max_err_over_bound > 1.0 &&
               contains(res.message, where) && fabs(res.fail_expected - right) <= fabs(delta) / 100,
           "%s %s %s: fail at (%lld,%lld), message \"%s\"", gh_dtype_name(d), gh_verify_method_name(method), what,
           (long long)res.fail_i, (long long)res.fail_j, res.message);
    EXPECT(res.guard_overwrites == 0, "no guard damage reported");
    test_case_free(&tc);
}

static void test_wrong_elements_caught(void)
{
    expect_wrong_element_named(GH_F32, GH_VERIFY_FULL, 5, 11, 0.01, "small error");
    expect_wrong_element_named(GH_F64, GH_VERIFY_FULL, 36, 0, 1e-9, "tiny f64 error");
    expect_wrong_element_named(GH_I32, GH_VERIFY_FULL, 20, 22, 1.0, "off by one");
    expect_wrong_element_named(GH_F32, GH_VERIFY_FREIVALDS, 17, 4, 0.5, "freivalds");
    expect_wrong_element_named(GH_I32, GH_VERIFY_FREIVALDS, 3, 9, -1.0, "freivalds i32");
    expect_wrong_element_named(GH_F64, GH_VERIFY_AUTO, 0, 22, 0.25, "auto");

    /* The message gives the ratio to the bound, and i32 is exact. */
    test_case tc;
    test_case_make(&tc, GH_I32, 0, 0, 4, 4, 4, 1, 0, 0, 2, 1);
    test_case_compute(&tc, 0);
    gh_matrix_set(&tc.c, 1, 2, gh_matrix_get(&tc.c, 1, 2) + 1);
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    gh_verify_result res;
    test_case_verify(&tc, &opt, &res);
    EXPECT(isinf(res.max_err_over_bound) && res.max_abs_err == 1.0 && contains(res.message, "exactly"),
           "i32 difference: ratio %g, message \"%s\"", res.max_err_over_bound, res.message);
    test_case_free(&tc);

    test_case_make(&tc, GH_F32, 0, 0, 8, 8, 8, 1, 0, 0, 2, 1);
    test_case_compute(&tc, 0);
    gh_matrix_set(&tc.c, 7, 7, gh_matrix_get(&tc.c, 7, 7) + 1.0);
    gh_matrix_set(&tc.c, 7, 6, gh_matrix_get(&tc.c, 7, 6) - 1.0);
    test_case_verify(&tc, &opt, &res);
    EXPECT(!res.passed && res.fail_i == 7 && res.fail_j == 6 && contains(res.message, "x the bound") &&
               contains(res.message, "2 checked elements wrong") && res.max_abs_err >= 0.99,
           "first failure in row-major order, count given: \"%s\"", res.message);
    test_case_free(&tc);
}

/* Puts the poison back into (i, j), as if a kernel never wrote it. */
static void unwrite(gh_matrix *c, int64_t i, int64_t j)
{
    gh_matrix fresh;
    gh_matrix_alloc(&fresh, c->dtype, c->rows, c->cols, c->ld, c->guard);
    size_t at = (size_t)(c->guard + i * c->ld + j) * c->elem_size;
    memcpy((char *)c->storage + at, (const char *)fresh.storage + at, c->elem_size);
    gh_matrix_free(&fresh);
}

/* Writes `value` at (i, j), or leaves it unwritten, and expects the failure
 * named for each checking method. */
static void expect_bad_value_caught(gh_dtype d, int64_t i, int64_t j, double value, int leave_unwritten,
                                    const char *expect_text)
{
    for (int m = 0; m < 4; m++) {
        test_case tc;
        test_case_make(&tc, d, 0, 1, 21, 18, 9, case_alpha(d), 0.0, 1, 4, 21);
        test_case_compute(&tc, 0);
        if (leave_unwritten) unwrite(&tc.c, i, j);
        else gh_matrix_set(&tc.c, i, j, value);
        gh_verify_options opt = test_options(checking_methods[m]);
        gh_verify_result res;
        test_case_verify(&tc, &opt, &res);
        char where[40];
        snprintf(where, sizeof where, "C[%lld,%lld]", (long long)i, (long long)j);
        EXPECT(!res.passed && res.fail_i == i && res.fail_j == j && isinf(res.max_err_over_bound) &&
                   contains(res.message, where) && contains(res.message, expect_text),
               "%s %s: fail at (%lld,%lld) ratio %g message \"%s\"", gh_dtype_name(d),
               gh_verify_method_name(checking_methods[m]), (long long)res.fail_i, (long long)res.fail_j,
               res.max_err_over_bound, res.message);
        test_case_free(&tc);
    }
}

static void test_nan_inf_and_unwritten_caught(void)
{
    expect_bad_value_caught(GH_F32, 2, 3, NAN, 0, "NaN");
    expect_bad_value_caught(GH_F64, 20, 17, NAN, 0, "NaN");
    expect_bad_value_caught(GH_F32, 9, 0, INFINITY, 0, "inf");
    expect_bad_value_caught(GH_F64, 9, 0, -INFINITY, 0, "-inf");
    expect_bad_value_caught(GH_F32, 4, 7, 0, 1, "never written");
    expect_bad_value_caught(GH_F64, 0, 0, 0, 1, "never written");
    expect_bad_value_caught(GH_I32, 11, 12, 0, 1, "never written");
}

/* Damages one storage element outside the matrix and expects it reported,
 * with the place named, for a result that is otherwise right. */
static void expect_guard_damage_caught(gh_dtype d, gh_verify_method method, int64_t index, const char *place)
{
    test_case tc;
    test_case_make(&tc, d, 0, 0, 6, 5, 4, case_alpha(d), case_beta(d), 3, 4, 2);
    test_case_compute(&tc, 0);
    memset((char *)tc.c.storage + (size_t)index * tc.c.elem_size, 0, tc.c.elem_size);
    gh_verify_options opt = test_options(method);
    gh_verify_result res;
    test_case_verify(&tc, &opt, &res);
    char at[64];
    snprintf(at, sizeof at, "storage index %lld", (long long)index);
    EXPECT(!res.passed && res.guard_overwrites == 1 && res.fail_i == -1 && contains(res.message, place) &&
               contains(res.message, at) && contains(res.message, "1 guard element overwritten"),
           "%s %s at %lld: overwrites %lld message \"%s\"", gh_dtype_name(d), gh_verify_method_name(method),
           (long long)index, (long long)res.guard_overwrites, res.message);
    test_case_free(&tc);
}

static void test_guard_damage_caught(void)
{
    /* C: guard 4, 6 rows, ld 8, 5 columns: padding at 4 + i*8 + {5, 6, 7} */
    for (int d = 0; d < 3; d++) {
        expect_guard_damage_caught(all_dtypes[d], GH_VERIFY_FULL, 3, "guard before the matrix");
        expect_guard_damage_caught(all_dtypes[d], GH_VERIFY_FULL, 4 + 6 * 8, "guard after the matrix");
        expect_guard_damage_caught(all_dtypes[d], GH_VERIFY_FULL, 4 + 2 * 8 + 5, "row padding of row 2");
        expect_guard_damage_caught(all_dtypes[d], GH_VERIFY_FULL, 4 + 5 * 8 + 7, "row padding of row 5");
    }
    expect_guard_damage_caught(GH_F32, GH_VERIFY_FREIVALDS, 0, "guard before the matrix");
    expect_guard_damage_caught(GH_F32, GH_VERIFY_NONE, 4 + 6 * 8 + 3, "guard after the matrix");

    /* Both a wrong element and guard damage: one line naming both. */
    test_case tc;
    test_case_make(&tc, GH_F32, 0, 0, 6, 5, 4, 1, 0, 3, 4, 2);
    test_case_compute(&tc, 0);
    gh_matrix_set(&tc.c, 1, 1, 100.0);
    ((float *)tc.c.storage)[1] = 0.0f;
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    gh_verify_result res;
    test_case_verify(&tc, &opt, &res);
    EXPECT(!res.passed && contains(res.message, "C[1,1]") && contains(res.message, "guard") &&
               !strchr(res.message, '\n'),
           "both reported: \"%s\"", res.message);
    test_case_free(&tc);
}

/* Freivalds alone catches one wrong element of a 200x150x100 product
 * almost always, and names it. */
static void test_freivalds_catches_single_element(void)
{
    for (int d = 0; d < 3; d++) {
        gh_dtype dt = all_dtypes[d];
        test_case tc;
        test_case_make(&tc, dt, 0, 1, 200, 150, 100, case_alpha(dt), case_beta(dt), 0, 4, 77);
        test_case_compute(&tc, 0);
        int tries = 40, caught = 0, named = 0, clean_passes = 0;
        for (int t = 0; t < tries; t++) {
            gh_verify_options opt = test_options(GH_VERIFY_FREIVALDS);
            opt.seed = 1000 + (uint64_t)t;
            gh_reference *ref = gh_reference_build(&tc.in, &opt);
            gh_verify_result res;
            gh_verify(ref, &tc.c, &res);
            clean_passes += res.passed;
            int64_t i = (t * 37) % 200, j = (t * 53) % 150;
            double right = gh_matrix_get(&tc.c, i, j);
            gh_matrix_set(&tc.c, i, j, right + (dt == GH_I32 ? 1.0 : 0.5));
            gh_verify(ref, &tc.c, &res);
            caught += !res.passed;
            named += res.fail_i == i && res.fail_j == j;
            gh_matrix_set(&tc.c, i, j, right);
            gh_reference_free(ref);
        }
        EXPECT(clean_passes == tries, "%s: the correct result passed %d of %d", gh_dtype_name(dt), clean_passes, tries);
        EXPECT(caught >= tries - 1 && named == caught, "%s: caught %d of %d, named %d", gh_dtype_name(dt), caught,
               tries, named);
        test_case_free(&tc);
    }
}

/* The sample always holds the four corners, even when it is small. */
static void test_sample_catches_corners(void)
{
    const int64_t m = 200, n = 150;
    const int64_t corners[4][2] = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}};
    test_case tc;
    test_case_make(&tc, GH_F32, 1, 1, m, n, 100, 1.25, 0.5, 0, 4, 5);
    test_case_compute(&tc, 0);
    gh_verify_options opt = test_options(GH_VERIFY_SAMPLE);
    opt.samples = 16;
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    EXPECT(strcmp(gh_reference_method(ref), "sample") == 0, "method name");
    for (int c = 0; c < 4; c++) {
        int64_t i = corners[c][0], j = corners[c][1];
        double right = gh_matrix_get(&tc.c, i, j);
        gh_matrix_set(&tc.c, i, j, right + 0.01);
        gh_verify_result res;
        gh_verify(ref, &tc.c, &res);
        EXPECT(!res.passed && res.fail_i == i && res.fail_j == j, "corner (%lld,%lld): \"%s\"", (long long)i,
               (long long)j, res.message);
        gh_matrix_set(&tc.c, i, j, right);
    }
    gh_verify_result res;
    gh_verify(ref, &tc.c, &res);
    EXPECT(res.passed, "restored result passes: \"%s\"", res.message);
    gh_reference_free(ref);
    test_case_free(&tc);
}

static void test_auto_picks_method(void)
{
    test_case tc;
    test_case_make(&tc, GH_F32, 0, 0, 30, 20, 10, 1, 0, 0, 2, 4);
    test_case_compute(&tc, 0);
    double flops = 2.0 * 30 * 20 * 10;
    struct {
        gh_verify_method method;
        double limit;
        const char *expect;
    } picks[] = {
        {GH_VERIFY_AUTO, flops, "full"},          {GH_VERIFY_AUTO, flops - 1, "freivalds+sample"},
        {GH_VERIFY_AUTO, 0, "freivalds+sample"},  {GH_VERIFY_FULL, 0, "full"},
        {GH_VERIFY_FREIVALDS, 1e12, "freivalds"}, {GH_VERIFY_SAMPLE, 1e12, "sample"},
        {GH_VERIFY_NONE, 1e12, "none"},
    };
    for (size_t p = 0; p < sizeof picks / sizeof picks[0]; p++) {
        gh_verify_options opt = test_options(picks[p].method);
        opt.full_max_flops = picks[p].limit;
        gh_reference *ref = gh_reference_build(&tc.in, &opt);
        gh_verify_result res;
        gh_verify(ref, &tc.c, &res);
        EXPECT(ref && strcmp(gh_reference_method(ref), picks[p].expect) == 0 && res.passed &&
                   res.checked == (picks[p].method != GH_VERIFY_NONE),
               "%s with limit %g: got %s", gh_verify_method_name(picks[p].method), picks[p].limit,
               ref ? gh_reference_method(ref) : "NULL");
        gh_reference_free(ref);
    }
    /* With method none a wrong value is not looked at. */
    gh_matrix_set(&tc.c, 3, 3, 99.0);
    gh_verify_options opt = test_options(GH_VERIFY_NONE);
    gh_verify_result res;
    test_case_verify(&tc, &opt, &res);
    EXPECT(res.passed && !res.checked, "none checks nothing but guards");
    test_case_free(&tc);
}

/* The full reference is summed in the same order whatever the thread count. */
static void test_threads_do_not_change_reference(void)
{
    test_case tc;
    test_case_make(&tc, GH_F32, 1, 0, 70, 50, 300, 1, 0.5, 0, 2, 8);
    test_case_compute(&tc, 0);
    gh_verify_result first;
    for (int threads = 1; threads <= 5; threads++) {
        gh_verify_options opt = test_options(GH_VERIFY_FULL);
        opt.threads = threads;
        gh_verify_result res;
        test_case_verify(&tc, &opt, &res);
        if (threads == 1) first = res;
        EXPECT(res.passed && res.max_abs_err == first.max_abs_err && res.rel_fro_err == first.rel_fro_err,
               "%d threads: abs %.17g vs %.17g", threads, res.max_abs_err, first.max_abs_err);
    }
    test_case_free(&tc);
}

static void test_diff_in_bounds(void)
{
    for (int m = 0; m < 2; m++) {
        gh_verify_method method = m ? GH_VERIFY_SAMPLE : GH_VERIFY_FULL;
        test_case tc, other;
        test_case_make(&tc, GH_F32, 0, 0, 40, 30, 20, 1, 0, 1, 2, 6);
        test_case_make(&other, GH_F32, 0, 0, 40, 30, 20, 1, 0, 1, 2, 6);
        test_case_compute(&tc, 0);
        test_case_compute(&other, 1);
        gh_verify_options opt = test_options(method);
        gh_reference *ref = gh_reference_build(&tc.in, &opt);
        double same = gh_reference_diff_in_bounds(ref, &tc.c, &tc.c);
        double orders = gh_reference_diff_in_bounds(ref, &tc.c, &other.c);
        EXPECT(same == 0.0, "%s: identical outputs differ by %g", gh_verify_method_name(method), same);
        EXPECT(orders <= 2.0, "%s: two correct orders differ by %g bounds", gh_verify_method_name(method), orders);
        gh_matrix_set(&other.c, 39, 29, gh_matrix_get(&other.c, 39, 29) + 0.1); /* a corner */
        double wrong = gh_reference_diff_in_bounds(ref, &tc.c, &other.c);
        EXPECT(wrong > 10.0, "%s: a wrong corner gives %g bounds", gh_verify_method_name(method), wrong);
        gh_matrix_set(&other.c, 20, 10, NAN);
        EXPECT(isinf(gh_reference_diff_in_bounds(ref, &tc.c, &other.c)), "NaN gives inf");
        EXPECT(isinf(gh_reference_diff_in_bounds(ref, &other.c, &other.c)), "NaN in both gives inf");
        gh_reference_free(ref);
        test_case_free(&tc);
        test_case_free(&other);
    }
}

/* The agreement table measures two outputs in the looser of their kernels'
 * bounds: an f32 result and one from TF32 inputs are far apart in f32's
 * bound, and within one bound when the TF32 kernel says so. */
static void test_agreement_takes_looser_bound(const gh_reference *ref, const test_case *tf32)
{
    test_case f32;
    test_case_make(&f32, GH_F32, 0, 0, 16, 16, 64, 1.0, 0.0, 0, 4, 8);
    test_case_compute(&f32, 0);
    const gh_arith plain = gh_arith_default(GH_F32), declared = gh_arith_declared(GH_F32, GH_PREC_TF32, GH_PREC_F32);
    for (int honest = 0; honest < 2; honest++) {
        gh_compare cmp = {0};
        gh_agreement a = {0};
        gh_compare_add(&cmp, "f32", 1, &f32.c, plain);
        gh_compare_add(&cmp, "tf32", 2, &tf32->c, honest ? declared : plain);
        gh_compare_add(&cmp, "f32 again", 1, &f32.c, plain);
        gh_compare_finish(&cmp, ref, &a);
        EXPECT(a.n_groups == 2, "two distinct outputs make two groups (%zu)", a.n_groups);
        if (honest)
            EXPECT(a.max_diff_in_bounds <= 1.0, "declared TF32: within the TF32 bound (%g)", a.max_diff_in_bounds);
        else EXPECT(a.max_diff_in_bounds > 1.0, "undeclared TF32: outside f32's bound (%g)", a.max_diff_in_bounds);
        gh_agreement_free(&a);
        gh_compare_clear(&cmp);
    }
    test_case_free(&f32);
}

/* f16 and bf16: a correct result (f32 sums, one rounding) passes with every
 * method, also at K = 4096 where summing in f16 would not; one ulp off in one
 * element at small K fails; rounding the exact product to nearest (half an
 * ulp at most) passes. A declared TF32 input rounding loosens f32's bound
 * just enough. */
static void test_half_precision(void)
{
    static const gh_dtype halves[] = {GH_F16, GH_BF16};
    for (size_t h = 0; h < 2; h++) {
        gh_dtype dt = halves[h];
        for (size_t mi = 0; mi < sizeof checking_methods / sizeof checking_methods[0]; mi++) {
            test_case tc;
            test_case_make(&tc, dt, 1, 0, 17, 13, 29, 1.5, -0.75, 2, 8, 5);
            test_case_compute(&tc, 0);
            gh_verify_options opt = test_options(checking_methods[mi]);
            gh_verify_result res;
            test_case_verify(&tc, &opt, &res);
            EXPECT(res.passed, "%s %s: a correct result passes: %s", gh_dtype_name(dt),
                   gh_verify_method_name(checking_methods[mi]), res.message);
            test_case_free(&tc);
        }
        test_case tc;
        test_case_make(&tc, dt, 0, 0, 3, 2, 4096, 1.0, 0.0, 0, 4, 6);
        test_case_compute(&tc, 1);
        gh_verify_options opt = test_options(GH_VERIFY_FULL);
        gh_verify_result res;
        test_case_verify(&tc, &opt, &res);
        EXPECT(res.passed, "%s K=4096, f32 sums: passes: %s", gh_dtype_name(dt), res.message);
        test_case_free(&tc);

        /* K = 1, beta = 0: C = alpha a b exactly, rounded once. */
        test_case_make(&tc, dt, 0, 0, 9, 7, 1, 1.0, 0.0, 0, 4, 7);
        test_case_compute(&tc, 0);
        int rounded_pass = 1, ulp_caught = 1;
        for (int64_t i = 0; i < 9; i++)
            for (int64_t j = 0; j < 7; j++) {
                double exact = gh_matrix_get(&tc.a, i, 0) * gh_matrix_get(&tc.b, 0, j);
                double stored = gh_matrix_get(&tc.c, i, j);
                gh_matrix_set(&tc.c, i, j, exact); /* rounds to nearest: within half an ulp */
                test_case_verify(&tc, &opt, &res);
                rounded_pass &= res.passed;
                uint16_t bits;
                memcpy(&bits, (const uint16_t *)gh_matrix_data(&tc.c) + i * tc.c.ld + j, 2);
                /* one ulp further from the exact value than the rounding left it */
                double rounded = gh_matrix_get(&tc.c, i, j);
                bits = (uint16_t)(fabs(rounded) >= fabs(exact) ? bits + 1 : bits - 1);
                memcpy((uint16_t *)gh_matrix_data(&tc.c) + i * tc.c.ld + j, &bits, 2);
                test_case_verify(&tc, &opt, &res);
                ulp_caught &= !res.passed || exact == 0.0;
                gh_matrix_set(&tc.c, i, j, stored);
            }
        EXPECT(rounded_pass, "%s K=1: the exact product rounded to nearest passes everywhere", gh_dtype_name(dt));
        EXPECT(ulp_caught, "%s K=1: one more ulp off in any element is caught", gh_dtype_name(dt));
        test_case_free(&tc);
    }
    /* f32 computed from inputs rounded to TF32 first. */
    test_case tc;
    test_case_make(&tc, GH_F32, 0, 0, 16, 16, 64, 1.0, 0.0, 0, 4, 8);
    test_case_compute(&tc, 0);
    for (int64_t i = 0; i < 16; i++)
        for (int64_t j = 0; j < 16; j++) {
            float acc = 0.0f;
            for (int64_t p = 0; p < 64; p++)
                acc += gh_round_to_tf32((float)gh_matrix_get(&tc.a, i, p)) *
                       gh_round_to_tf32((float)gh_matrix_get(&tc.b, p, j));
            gh_matrix_set(&tc.c, i, j, acc);
        }
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    gh_verify_result res;
    gh_verify(ref, &tc.c, &res);
    EXPECT(!res.passed, "f32 from TF32 inputs fails the f32 bound (err/bound %.3g)", res.max_err_over_bound);
    gh_verify_as(ref, gh_arith_declared(GH_F32, GH_PREC_TF32, GH_PREC_F32), &tc.c, &res);
    EXPECT(res.passed, "f32 from TF32 inputs passes the declared TF32 bound: %s", res.message);
    test_agreement_takes_looser_bound(ref, &tc);
    gh_reference_free(ref);
    test_case_free(&tc);
}

/* f32 with TF32 inputs made by dropping 13 bits (wgmma's), K = 1: up to a
 * whole TF32 ulp per input, past the round-to-nearest TF32 bound, within
 * the truncated one it declares. */
static float truncate_to_tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u &= ~(uint32_t)0x1FFF;
    memcpy(&x, &u, sizeof x);
    return x;
}

static void test_tf32_truncated(void)
{
    test_case tc;
    test_case_make(&tc, GH_F32, 0, 0, 32, 32, 1, 1.0, 0.0, 0, 4, 9);
    test_case_compute(&tc, 0);
    for (int64_t i = 0; i < 32; i++)
        for (int64_t j = 0; j < 32; j++)
            gh_matrix_set(&tc.c, i, j,
                          truncate_to_tf32((float)gh_matrix_get(&tc.a, i, 0)) *
                              truncate_to_tf32((float)gh_matrix_get(&tc.b, 0, j)));
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    gh_verify_result res;
    gh_verify_as(ref, gh_arith_declared(GH_F32, GH_PREC_TF32, GH_PREC_F32), &tc.c, &res);
    EXPECT(!res.passed, "truncated TF32 inputs fail the round-to-nearest TF32 bound (err/bound %.3g)",
           res.max_err_over_bound);
    gh_verify_as(ref, gh_arith_declared(GH_F32, GH_PREC_TF32_TRUNCATED, GH_PREC_F32), &tc.c, &res);
    EXPECT(res.passed, "truncated TF32 inputs pass the truncated TF32 bound: %s", res.message);
    gh_reference_free(ref);
    test_case_free(&tc);
}

/* ---- 8-bit GEMMs (ABI 1.5) ---- */

/* A case of types a x b -> c with scales, its inputs drawn as the host
 * draws them (8-bit values exact in their type). */
static void make_8bit(test_case *tc, gh_dtype a, gh_dtype b, gh_dtype c, int64_t m, int64_t n, int64_t k, double alpha,
                      double beta, const double scales[3])
{
    memset(tc, 0, sizeof *tc);
    gh_matrix_alloc(&tc->a, a, m, k, k + 1, 4);
    gh_matrix_alloc(&tc->b, b, k, n, n + 2, 4);
    gh_matrix_alloc(&tc->c0, c, m, n, n + 3, 4);
    gh_matrix_alloc(&tc->c, c, m, n, n + 3, 4);
    tc->in = test_seeded_inputs(a, 0, 0, m, n, k, alpha, beta, &tc->a, &tc->b, &tc->c0, 5,
                                gh_i32_input_range(k, alpha, beta));
    tc->in.explicit_types = 1;
    tc->in.b_dtype = b;
    tc->in.c_dtype = c;
    tc->in.scale_a = scales[0];
    tc->in.scale_b = scales[1];
    tc->in.scale_c = scales[2];
}

/* C = scale_c (alpha scale_a scale_b A B + beta C0) summed in f64, stored
 * in C's type; and sum |a||b| of element (i, j). */
static double product_8bit(test_case *tc, int64_t i, int64_t j, double *abs_sum)
{
    double s = 0, abs_s = 0;
    for (int64_t p = 0; p < tc->in.k; p++) {
        double x = gh_matrix_get(&tc->a, i, p) * gh_matrix_get(&tc->b, p, j);
        s += x;
        abs_s += fabs(x);
    }
    if (abs_sum) *abs_sum = abs_s;
    const gh_case_inputs *in = &tc->in;
    return in->scale_c * (in->alpha * in->scale_a * in->scale_b * s + in->beta * gh_matrix_get(&tc->c0, i, j));
}

static void fill_8bit_output(test_case *tc)
{
    for (int64_t i = 0; i < tc->in.m; i++)
        for (int64_t j = 0; j < tc->in.n; j++) gh_matrix_set(&tc->c, i, j, product_8bit(tc, i, j, NULL));
}

static void test_eight_bit(void)
{
    const double ones[3] = {1, 1, 1}, scales[3] = {0.5, 4, 0.125};
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    gh_verify_result res;
    test_case tc;

    /* i8 -> i32: exact, and one unit off fails */
    make_8bit(&tc, GH_I8, GH_I8, GH_I32, 9, 7, 300, 3, -2, ones);
    fill_8bit_output(&tc);
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    gh_verify(ref, &tc.c, &res);
    EXPECT(ref && res.passed && res.max_abs_err == 0, "i8 -> i32 matches exactly: %s", res.message);
    gh_matrix_set(&tc.c, 4, 3, gh_matrix_get(&tc.c, 4, 3) + 1);
    gh_verify(ref, &tc.c, &res);
    EXPECT(!res.passed && strstr(res.message, "must match exactly"), "i8 -> i32 one unit off fails: %s", res.message);
    gh_reference_free(ref);
    test_case_free(&tc);

    /* e4m3 x e5m2 -> f16 with scales: C's f16 rounding is in the bound; a wrong scale is not */
    make_8bit(&tc, GH_E4M3, GH_E5M2, GH_F16, 11, 6, 40, -3, 1.5, scales);
    fill_8bit_output(&tc);
    ref = gh_reference_build(&tc.in, &opt);
    gh_verify(ref, &tc.c, &res);
    EXPECT(ref && res.passed, "e4m3 x e5m2 -> f16 with scales passes: %s", res.message);
    tc.in.scale_c = 0.25; /* the output of twice scale_c */
    fill_8bit_output(&tc);
    tc.in.scale_c = 0.125;
    gh_verify(ref, &tc.c, &res);
    EXPECT(!res.passed, "an output that ignored a scale fails");
    gh_reference_free(ref);
    test_case_free(&tc);

    /* e5m2 -> bf16 with a beta: passes */
    make_8bit(&tc, GH_E5M2, GH_E5M2, GH_BF16, 5, 8, 17, 1, -1, ones);
    fill_8bit_output(&tc);
    ref = gh_reference_build(&tc.in, &opt);
    gh_verify(ref, &tc.c, &res);
    EXPECT(ref && res.passed, "e5m2 -> bf16 passes: %s", res.message);
    gh_reference_free(ref);
    test_case_free(&tc);
}

/* The narrow accumulator's bound, per element (docs/verification.md):
 * (1 + gamma_N(2^-b)) (1 + gamma_{ceil(K/N)+5}(2^-24)) - 1 times sum |a||b|
 * (alpha 1, beta 0, scales 1). An error of 0.9 of it passes, 1.1 fails. */
static void test_narrow_accumulation_bound(void)
{
    const double ones[3] = {1, 1, 1};
    /* the last two: K 2^-bits >= 1, where gamma_K's formula has no value
     * (a 13-bit FP8 tensor-core sum over K = 8192) and (1 - u)^-K - 1 holds */
    struct {
        uint32_t bits, every;
        int64_t k;
    } decl[] = {{14, 0, 1000}, {14, 128, 1000}, {13, 32, 1000}, {22, 0, 1000}, {13, 0, 8192}, {10, 0, 3000}};
    for (size_t t = 0; t < sizeof decl / sizeof decl[0]; t++) {
        const int64_t k = decl[t].k;
        test_case tc;
        make_8bit(&tc, GH_E4M3, GH_E4M3, GH_F32, 3, 4, k, 1, 0, ones);
        gh_verify_options opt = test_options(GH_VERIFY_FULL);
        gh_reference *ref = gh_reference_build(&tc.in, &opt);
        const int64_t span = decl[t].every && decl[t].every < k ? decl[t].every : k;
        const int64_t spans = (k + span - 1) / span;
        const double g =
            (1 + gh_gamma_u(ldexp(1, -(int)decl[t].bits), span)) * (1 + gh_gamma_u(0x1p-24, spans + 5)) - 1;
        gh_arith arith =
            gh_arith_narrowed(gh_arith_declared(GH_F32, GH_PREC_AS_STORED, GH_PREC_F32), decl[t].bits, decl[t].every);
        for (int over = 0; over < 2; over++) {
            double abs_sum, exact;
            fill_8bit_output(&tc);
            exact = product_8bit(&tc, 1, 2, &abs_sum);
            gh_matrix_set(&tc.c, 1, 2, exact + (over ? 1.1 : 0.9) * g * abs_sum);
            gh_verify_result res;
            gh_verify_as(ref, arith, &tc.c, &res);
            EXPECT(res.passed == !over, "%u bits, promoted every %u: an error of %.1f of the bound %s (err/bound %.3g)",
                   decl[t].bits, decl[t].every, over ? 1.1 : 0.9, over ? "fails" : "passes", res.max_err_over_bound);
        }
        gh_verify_result res;
        gh_verify_as(ref, gh_arith_declared(GH_F32, GH_PREC_AS_STORED, GH_PREC_F32), &tc.c, &res);
        EXPECT(!res.passed, "%u bits: the same error fails the f32 bound", decl[t].bits);
        gh_arith looser = gh_arith_looser(gh_arith_declared(GH_F32, GH_PREC_AS_STORED, GH_PREC_F32), arith);
        EXPECT(looser.u_narrow == arith.u_narrow && looser.span == arith.span,
               "the looser of f32 and %u bits is %u bits", decl[t].bits, decl[t].bits);
        gh_reference_free(ref);
        test_case_free(&tc);
    }
}

/* A split of K the plugin reported (ABI 1.6: cuBLASLt's split-K summed in
 * C's bf16): the f32 sum's bound times (1 + gamma_pieces(2^-8)). An error
 * of 0.9 of it passes, 1.1 fails, and without the split 0.9 fails. */
static void test_split_reduction_bound(void)
{
    const double ones[3] = {1, 1, 1};
    const int64_t k = 1000, pieces = 4;
    test_case tc;
    make_8bit(&tc, GH_E4M3, GH_E4M3, GH_F32, 3, 4, k, 1, 0, ones);
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    const gh_arith f32 = gh_arith_declared(GH_F32, GH_PREC_AS_STORED, GH_PREC_F32);
    const gh_arith split = gh_arith_split(f32, (uint32_t)pieces, GH_PREC_BF16);
    const double g = (1 + gh_gamma_u(0x1p-24, k + 5)) * (1 + gh_gamma_u(0x1p-8, pieces)) - 1;
    for (int over = 0; over < 2; over++) {
        double abs_sum;
        fill_8bit_output(&tc);
        const double exact = product_8bit(&tc, 2, 1, &abs_sum);
        gh_matrix_set(&tc.c, 2, 1, exact + (over ? 1.1 : 0.9) * g * abs_sum);
        gh_verify_result res;
        gh_verify_as(ref, split, &tc.c, &res);
        EXPECT(res.passed == !over,
               "K in %lld pieces summed in bf16: an error of %.1f of the bound %s (err/bound %.3g)", (long long)pieces,
               over ? 1.1 : 0.9, over ? "fails" : "passes", res.max_err_over_bound);
        if (!over) {
            gh_verify_as(ref, f32, &tc.c, &res);
            EXPECT(!res.passed, "without the reported split the same error fails the f32 bound");
        }
    }
    EXPECT(gh_arith_split(f32, 1, GH_PREC_BF16).pieces == 0, "one piece is no split");
    const gh_arith looser = gh_arith_looser(f32, split);
    EXPECT(looser.pieces == pieces && looser.u_split == 0x1p-8, "the looser of f32 and the split keeps the split");
    gh_reference_free(ref);
    test_case_free(&tc);
}

static void test_bad_inputs(void)
{
    test_case tc;
    test_case_make(&tc, GH_F32, 0, 0, 4, 5, 6, 1, 0, 0, 2, 4);
    gh_verify_options opt = test_options(GH_VERIFY_FULL);
    tc.in.k = 7; /* does not match A */
    EXPECT(gh_reference_build(&tc.in, &opt) == NULL, "inconsistent shapes refused");
    tc.in.k = 6;
    gh_reference *ref = gh_reference_build(&tc.in, &opt);
    gh_verify_result res;
    gh_verify(ref, &tc.a, &res); /* wrong shape as output */
    EXPECT(!res.passed && res.message[0], "wrong output shape fails: \"%s\"", res.message);
    gh_verify(NULL, &tc.c, &res);
    EXPECT(!res.passed && res.message[0], "no reference fails: \"%s\"", res.message);
    gh_reference_free(ref);
    test_case_free(&tc);
}

int main(void)
{
    check_quiet = 1; /* failures and the summary only */
    test_names_and_gamma();
    test_correct_results_pass();
    test_long_k_rounding_passes();
    test_wrong_elements_caught();
    test_nan_inf_and_unwritten_caught();
    test_guard_damage_caught();
    test_freivalds_catches_single_element();
    test_sample_catches_corners();
    test_auto_picks_method();
    test_threads_do_not_change_reference();
    test_diff_in_bounds();
    test_half_precision();
    test_tf32_truncated();
    test_eight_bit();
    test_narrow_accumulation_bound();
    test_split_reduction_bound();
    test_bad_inputs();
    return tests_finish("test_verify");
}
