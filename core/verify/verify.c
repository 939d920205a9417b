/* Checks a GEMM result against a host reference with a K-scaled error bound
 * (see shared/design/verification.md).
 *
 * Every bound here is a rigorous worst case, so a correct kernel never fails
 * whatever its summation order:
 *   |C_ij - Cref_ij| <= (g_kernel + g_ref) * (|alpha| sum_p |A_ip||B_pj| + |beta||C0_ij|) + eta
 * g_kernel = gamma_{K+2} in the output precision (K products and sums, the
 * alpha and beta products, the final add), g_ref = gamma_{K+2} in f64 for the
 * reference's own rounding (it matters when the kernel is f64 too), eta an
 * allowance for underflow. i32 is exact: bound 0, any difference fails.
 *
 * This file gives the verdict: it runs the checks the reference allows
 * (check.c), words the first failure and the overwritten guards, and measures
 * how far apart two outputs are in units of the bound. The bound's arithmetic
 * is in bounds.c, the reference in reference.c. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host_gemm.h"
#include "parallel.h"
#include "verify_internal.h"

static const char *value_format(gh_dtype d)
{
    return d == GH_F64 ? "%.17g" : d == GH_I32 ? "%.0f" : "%.9g";
}

static void format_value(char *buf, size_t size, gh_dtype d, double v)
{
    snprintf(buf, size, value_format(d), v);
}

static void describe_failure(const gh_reference *ref, const check_state *st, char *buf, size_t size)
{
    char got[40], expected[40];
    gh_dtype d = gh_case_c_dtype(&ref->in);
    format_value(got, sizeof got, d, st->got);
    format_value(expected, sizeof expected, d, st->expected);
    long long i = (long long)st->fail_i, j = (long long)st->fail_j;
    switch (st->kind) {
    case FAIL_POISON:
        snprintf(buf, size, "element C[%lld,%lld] never written (still poison), expected %s", i, j, expected);
        break;
    case FAIL_NAN: snprintf(buf, size, "C[%lld,%lld] is NaN, expected %s", i, j, expected); break;
    case FAIL_INF: snprintf(buf, size, "C[%lld,%lld] = %s expected %s", i, j, got, expected); break;
    case FAIL_VALUE:
        if (st->bound > 0.0)
            snprintf(buf, size, "C[%lld,%lld] = %s expected %s (error %.3g is %.3g x the bound)", i, j, got, expected,
                     fabs(st->got - st->expected), fabs(st->got - st->expected) / st->bound);
        else snprintf(buf, size, "C[%lld,%lld] = %s expected %s (must match exactly)", i, j, got, expected);
        break;
    case FAIL_ROW:
        snprintf(buf, size, "row %lld of C fails the Freivalds check (trial %d), no single element found", i,
                 st->trial + 1);
        break;
    case FAIL_NO_MEMORY: snprintf(buf, size, "out of memory while checking the result"); break;
    case FAIL_NONE: buf[0] = '\0'; break;
    }
}

static const char *guard_place(const gh_matrix *c, int64_t index, int64_t *row)
{
    if (index < c->guard) return "guard before the matrix";
    int64_t inside = index - c->guard;
    if (inside >= c->rows * c->ld) return "guard after the matrix";
    *row = inside / c->ld;
    return "row padding of row";
}

static void describe_guards(const gh_matrix *c, int64_t count, int64_t first, char *buf, size_t size)
{
    int64_t row = -1;
    const char *place = guard_place(c, first, &row);
    if (row >= 0)
        snprintf(buf, size, "%lld guard element%s overwritten, first at storage index %lld (%s %lld)", (long long)count,
                 count == 1 ? "" : "s", (long long)first, place, (long long)row);
    else
        snprintf(buf, size, "%lld guard element%s overwritten, first at storage index %lld (%s)", (long long)count,
                 count == 1 ? "" : "s", (long long)first, place);
}

/* One line: the first wrong element, how many in all, then the guards. */
static void compose_message(const gh_reference *ref, const gh_matrix *c, const check_state *st, int64_t guard_first,
                            gh_verify_result *out)
{
    char *msg = out->message;
    size_t size = sizeof out->message, len = 0;
    msg[0] = '\0';
    if (st->failed > 0) {
        describe_failure(ref, st, msg, size);
        len = strlen(msg);
        if (st->failed > 1 && st->kind != FAIL_ROW && st->kind != FAIL_NO_MEMORY)
            snprintf(msg + len, size - len, "; %lld checked elements wrong", (long long)st->failed);
        len = strlen(msg);
    }
    if (out->guard_overwrites > 0 && len + 2 < size) {
        if (len > 0) {
            memcpy(msg + len, "; ", 3);
            len += 2;
        }
        describe_guards(c, out->guard_overwrites, guard_first, msg + len, size - len);
    }
}

/* ---- gh_verify --------------------------------------------------------- */

static void result_init(gh_verify_result *out)
{
    memset(out, 0, sizeof *out);
    out->passed = 1;
    out->fail_i = out->fail_j = -1;
}

static int output_matches(const gh_reference *ref, const gh_matrix *c, gh_verify_result *out)
{
    if (!ref) {
        snprintf(out->message, sizeof out->message, "no reference to check against");
        return 0;
    }
    if (!c || !c->storage || c->rows != ref->in.m || c->cols != ref->in.n || c->dtype != gh_case_c_dtype(&ref->in)) {
        snprintf(out->message, sizeof out->message, "output is not the %lldx%lld %s matrix of this case",
                 (long long)ref->in.m, (long long)ref->in.n, gh_dtype_name(gh_case_c_dtype(&ref->in)));
        return 0;
    }
    return 1;
}

static double relative_fro(const check_state *st)
{
    if (st->nonfinite || st->diff_sq != st->diff_sq) return INFINITY;
    if (st->ref_sq == 0.0) return st->diff_sq == 0.0 ? 0.0 : INFINITY;
    return sqrt(st->diff_sq) / sqrt(st->ref_sq);
}

void gh_verify(const gh_reference *ref, const gh_matrix *c, gh_verify_result *out)
{
    gh_verify_as(ref, gh_arith_default(ref ? gh_case_c_dtype(&ref->in) : GH_F32), c, out);
}

void gh_verify_as(const gh_reference *ref, gh_arith arith, const gh_matrix *c, gh_verify_result *out)
{
    result_init(out);
    if (!output_matches(ref, c, out)) {
        out->passed = 0;
        out->max_err_over_bound = out->max_abs_err = out->rel_fro_err = INFINITY;
        return;
    }
    int64_t guard_first = -1;
    out->guard_overwrites = gh_matrix_check_guards(c, &guard_first);

    check_state st = {0};
    st.fail_i = st.fail_j = -1;
    st.b = bounds_for(ref, arith);
    out->checked = strcmp(ref->method, "none") != 0;
    if (ref->full_value) {
        gh_check_full(ref, c, &st);
    } else if (out->checked) {
        gh_scan_nonfinite(ref, c, &st);
        if (ref->check_samples) gh_check_samples(ref, c, &st);
        if (ref->fr_y64) gh_check_freivalds_mod64(ref, c, &st);
        else if (ref->fr_y) gh_check_freivalds_f64(ref, c, &st, !ref->check_samples);
    }
    out->max_abs_err = st.max_abs;
    out->max_err_over_bound = st.max_ratio;
    out->rel_fro_err = relative_fro(&st);
    out->fail_i = st.fail_i;
    out->fail_j = st.fail_j;
    out->fail_got = st.failed ? st.got : 0.0;
    out->fail_expected = st.failed ? st.expected : 0.0;
    out->passed = st.failed == 0 && out->guard_overwrites == 0;
    if (!out->passed) compose_message(ref, c, &st, guard_first, out);
}

/* ---- agreement between two outputs ------------------------------------- */

typedef struct finite_scan {
    const gh_matrix *x;
    int found[256]; /* per part */
} finite_scan;

static void finite_span(void *ctx, int64_t begin, int64_t end, int part)
{
    finite_scan *scan = ctx;
    for (int64_t i = begin; i < end && !scan->found[part]; i++)
        for (int64_t j = 0; j < scan->x->cols; j++)
            if (!isfinite(gh_matrix_get(scan->x, i, j))) {
                scan->found[part] = 1;
                break;
            }
}

static int has_nonfinite(const gh_matrix *x, int threads)
{
    finite_scan scan = {.x = x};
    int parts = gh_verify_parts(threads, x->rows, (double)x->cols);
    gh_parallel_spans(x->rows, parts, finite_span, &scan);
    for (int p = 0; p < parts; p++)
        if (scan.found[p]) return 1;
    return 0;
}

double gh_reference_diff_in_bounds(const gh_reference *ref, const gh_matrix *x, const gh_matrix *y)
{
    return gh_reference_diff_in_bounds_as(ref, gh_arith_default(ref ? gh_case_c_dtype(&ref->in) : GH_F32), x, y);
}

double gh_reference_diff_in_bounds_as(const gh_reference *ref, gh_arith arith, const gh_matrix *x, const gh_matrix *y)
{
    if (!ref || !x || !y || x->rows != ref->in.m || x->cols != ref->in.n || y->rows != ref->in.m ||
        y->cols != ref->in.n)
        return INFINITY;
    if (has_nonfinite(x, ref->threads) || has_nonfinite(y, ref->threads)) return INFINITY;
    double worst = 0.0;
    element_bounds b = bounds_for(ref, arith);
    if (ref->full_abs) {
        for (int64_t i = 0; i < ref->in.m; i++)
            for (int64_t j = 0; j < ref->in.n; j++) {
                double err = fabs(gh_matrix_get(x, i, j) - gh_matrix_get(y, i, j));
                size_t at = (size_t)(i * ref->in.n + j);
                double r = ratio_of(err, element_bound(&b, ref->full_value[at], ref->full_abs[at]));
                if (r > worst) worst = r;
            }
        return worst;
    }
    for (int64_t s = 0; s < ref->n_samples; s++) {
        int64_t i = ref->s_i[s], j = ref->s_j[s];
        double bound = element_bound(&b, ref->s_value[s], ref->s_abs[s]);
        double r = ratio_of(fabs(gh_matrix_get(x, i, j) - gh_matrix_get(y, i, j)), bound);
        if (r > worst) worst = r;
    }
    return worst;
}
