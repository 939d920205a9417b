/* The checks of one output against its reference: every element (full), the
 * sampled elements, Freivalds' C r per trial (f64, or exactly modulo 2^64 for
 * i32), and a scan for NaN, Inf and never-written elements. Each folds what it
 * finds into a check_state; verify.c turns that into the verdict.
 *
 * Large loops run on several threads, each over its own span of outputs, so
 * every number is summed in the same order whatever the thread count. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host_gemm.h"
#include "parallel.h"
#include "verify_internal.h"

static failure_kind classify(const gh_matrix *c, int64_t i, int64_t j, double got)
{
    if (gh_matrix_is_poison(c, i, j)) return FAIL_POISON;
    if (isnan(got)) return FAIL_NAN;
    if (isinf(got)) return FAIL_INF;
    return FAIL_NONE;
}

static void note_failure(check_state *st, failure_kind kind, int64_t i, int64_t j, double got, double expected,
                         double bound)
{
    if (st->failed++ > 0) return;
    st->kind = kind;
    st->fail_i = i;
    st->fail_j = j;
    st->got = got;
    st->expected = expected;
    st->bound = bound;
}

/* One element against its expected value; feeds every statistic. */
static void check_element(check_state *st, const gh_matrix *c, int64_t i, int64_t j, double expected, double abs)
{
    double bound = element_bound(&st->b, expected, abs);
    double got = gh_matrix_get(c, i, j);
    failure_kind kind = classify(c, i, j, got);
    if (kind != FAIL_NONE) {
        st->nonfinite = 1;
        st->max_abs = st->max_ratio = INFINITY;
        if (!st->scanned) note_failure(st, kind, i, j, got, expected, bound);
        return;
    }
    double err = fabs(got - expected);
    double ratio = ratio_of(err, bound);
    if (err > st->max_abs) st->max_abs = err;
    if (ratio > st->max_ratio) st->max_ratio = ratio;
    st->diff_sq += err * err;
    st->ref_sq += expected * expected;
    if (!(ratio <= 1.0)) note_failure(st, FAIL_VALUE, i, j, got, expected, bound);
}

void gh_check_full(const gh_reference *ref, const gh_matrix *c, check_state *st)
{
    for (int64_t i = 0; i < ref->in.m; i++)
        for (int64_t j = 0; j < ref->in.n; j++) {
            size_t at = (size_t)(i * ref->in.n + j);
            check_element(st, c, i, j, ref->full_value[at], ref->full_abs[at]);
        }
}

void gh_check_samples(const gh_reference *ref, const gh_matrix *c, check_state *st)
{
    for (int64_t s = 0; s < ref->n_samples; s++)
        check_element(st, c, ref->s_i[s], ref->s_j[s], ref->s_value[s], ref->s_abs[s]);
}

/* One part's view of the elements that are NaN, Inf or poison. */
typedef struct nonfinite_part {
    int64_t count;
    int64_t i, j; /* the first one in the part's rows */
    failure_kind kind;
    double got;
} nonfinite_part;

typedef struct nonfinite_scan {
    const gh_matrix *c;
    nonfinite_part parts[GH_PARALLEL_MAX];
} nonfinite_scan;

static void nonfinite_span(void *ctx, int64_t begin, int64_t end, int part)
{
    nonfinite_scan *scan = ctx;
    nonfinite_part *np = &scan->parts[part];
    for (int64_t i = begin; i < end; i++) {
        for (int64_t j = 0; j < scan->c->cols; j++) {
            double got = gh_matrix_get(scan->c, i, j);
            failure_kind kind = classify(scan->c, i, j, got);
            if (kind == FAIL_NONE || np->count++ > 0) continue;
            np->i = i;
            np->j = j;
            np->kind = kind;
            np->got = got;
        }
    }
}

/* Without a full reference, NaN, Inf and poison anywhere still fail; the
 * first one is named with its exact expected value. */
void gh_scan_nonfinite(const gh_reference *ref, const gh_matrix *c, check_state *st)
{
    nonfinite_scan *scan = calloc(1, sizeof *scan);
    if (!scan) {
        st->max_ratio = INFINITY;
        note_failure(st, FAIL_NO_MEMORY, -1, -1, NAN, NAN, NAN);
        return;
    }
    scan->c = c;
    int parts = gh_verify_parts(ref->threads, ref->in.m, (double)ref->in.n);
    gh_parallel_spans(ref->in.m, parts, nonfinite_span, scan);
    /* Parts in row order: the first one found is the first in the matrix. */
    for (int p = 0; p < parts; p++) {
        const nonfinite_part *np = &scan->parts[p];
        if (np->count == 0) continue;
        st->nonfinite = 1;
        st->max_abs = st->max_ratio = INFINITY;
        int64_t rest = np->count;
        if (st->failed == 0) {
            double expected, bound;
            exact_element(ref, np->i, np->j, &expected, &bound);
            note_failure(st, np->kind, np->i, np->j, np->got, expected, bound);
            rest--;
        }
        st->failed += rest;
    }
    st->scanned = 1;
    free(scan);
}

/* Freivalds found row i wrong: recompute that row exactly to name the element. */
static void localize_row(const gh_reference *ref, const gh_matrix *c, int64_t i, int trial, double row_ratio,
                         check_state *st)
{
    for (int64_t j = 0; j < ref->in.n; j++) {
        double expected, abs, got = gh_matrix_get(c, i, j);
        exact_element(ref, i, j, &expected, &abs);
        double bound = element_bound(&st->b, expected, abs);
        double ratio = ratio_of(fabs(got - expected), bound);
        if (!(ratio <= 1.0)) {
            if (ratio > st->max_ratio) st->max_ratio = ratio;
            if (fabs(got - expected) > st->max_abs) st->max_abs = fabs(got - expected);
            note_failure(st, FAIL_VALUE, i, j, got, expected, bound);
            return;
        }
    }
    if (row_ratio > st->max_ratio) st->max_ratio = row_ratio;
    note_failure(st, FAIL_ROW, i, -1, NAN, NAN, NAN);
    st->trial = trial;
}

/* One part's findings over its rows of C. */
typedef struct freivalds_part {
    double max_ratio, max_abs;
    int64_t bad_row; /* its first failing row, -1 if none */
    int bad_trial;
    double bad_ratio;
} freivalds_part;

typedef struct freivalds_scan {
    const gh_reference *ref;
    const gh_matrix *c;
    double g_diff, g_cr, eta;
    double *err_sq; /* per (row, trial): err^2, for the row statistics; NULL without */
    void *rows;     /* per part: one row of C (doubles or uint64s) */
    freivalds_part parts[GH_PARALLEL_MAX];
} freivalds_scan;

static freivalds_scan *freivalds_scan_new(const gh_reference *ref, const gh_matrix *c, int parts, int row_stats)
{
    freivalds_scan *scan = calloc(1, sizeof *scan);
    if (!scan) return NULL;
    scan->ref = ref;
    scan->c = c;
    scan->rows = malloc((size_t)parts * (size_t)ref->in.n * sizeof(double));
    if (row_stats) scan->err_sq = malloc((size_t)ref->in.m * (size_t)ref->trials * sizeof(double));
    if (!scan->rows || (row_stats && !scan->err_sq)) {
        free(scan->rows);
        free(scan->err_sq);
        free(scan);
        return NULL;
    }
    for (int p = 0; p < parts; p++) scan->parts[p].bad_row = -1;
    return scan;
}

static void freivalds_scan_free(freivalds_scan *scan)
{
    free(scan->rows);
    free(scan->err_sq);
    free(scan);
}

static void freivalds_f64_span(void *ctx, int64_t begin, int64_t end, int part)
{
    freivalds_scan *scan = ctx;
    const gh_reference *ref = scan->ref;
    const gh_case_inputs *in = &ref->in;
    freivalds_part *fp = &scan->parts[part];
    double *row = (double *)scan->rows + (size_t)part * (size_t)in->n;
    for (int64_t i = begin; i < end; i++) {
        gh_load_row(scan->c, i, row);
        for (int t = 0; t < ref->trials; t++) {
            const double *r = ref->fr_r + (size_t)(t * in->n);
            size_t yi = (size_t)(t * in->m + i);
            double cr = 0.0, cr_abs = 0.0, r_abs = 0.0;
            for (int64_t j = 0; j < in->n; j++) {
                cr += row[j] * r[j];
                cr_abs += fabs(row[j] * r[j]);
                r_abs += fabs(r[j]);
            }
            double err = fabs(cr - ref->fr_y[yi]);
            double bound = scan->g_diff * ref->fr_abs[yi] + scan->g_cr * cr_abs + scan->eta * r_abs;
            double ratio = ratio_of(err, bound);
            if (ratio > fp->max_ratio) fp->max_ratio = ratio;
            if (scan->err_sq) {
                if (err > fp->max_abs || err != err) fp->max_abs = err != err ? INFINITY : err;
                scan->err_sq[(size_t)(i * ref->trials + t)] = err * err;
            }
            if (!(ratio <= 1.0) && fp->bad_row < 0) {
                fp->bad_row = i;
                fp->bad_trial = t;
                fp->bad_ratio = ratio;
            }
        }
    }
}

/* Per row and trial: |C r - y| against the bound on that difference. With
 * samples checked too, only the ratio feeds the statistics: the element
 * errors come from the samples. */
void gh_check_freivalds_f64(const gh_reference *ref, const gh_matrix *c, check_state *st, int row_stats)
{
    const gh_case_inputs *in = &ref->in;
    const int parts = gh_verify_parts(ref->threads, in->m, (double)in->n * ref->trials);
    freivalds_scan *scan = freivalds_scan_new(ref, c, parts, row_stats);
    if (!scan) {
        st->max_ratio = INFINITY;
        note_failure(st, FAIL_NO_MEMORY, -1, -1, NAN, NAN, NAN);
        return;
    }
    /* Per element |C*| <= S, so the output rounding folds into S's factor. */
    const element_bounds *b = &st->b;
    double g_ref = gh_gamma(GH_F64, in->k + in->n + 4);
    scan->g_cr = gh_gamma(GH_F64, in->n + 1);
    scan->g_diff = b->g_kernel + b->out * (1.0 + b->g_kernel) + 2.0 * g_ref;
    scan->eta = b->eta;
    gh_parallel_spans(in->m, parts, freivalds_f64_span, scan);
    const freivalds_part *bad = NULL;
    for (int p = 0; p < parts; p++) {
        const freivalds_part *fp = &scan->parts[p];
        if (fp->max_ratio > st->max_ratio) st->max_ratio = fp->max_ratio;
        if (row_stats && fp->max_abs > st->max_abs) st->max_abs = fp->max_abs;
        if (!bad && fp->bad_row >= 0) bad = fp;
    }
    /* The sums in row and trial order, as one thread would add them. */
    for (int64_t i = 0; row_stats && i < in->m; i++) {
        for (int t = 0; t < ref->trials; t++) {
            size_t yi = (size_t)(t * in->m + i);
            st->diff_sq += scan->err_sq[(size_t)(i * ref->trials + t)];
            st->ref_sq += ref->fr_y[yi] * ref->fr_y[yi];
        }
    }
    /* When other checks already failed, the row adds nothing to the message. */
    if (bad && st->failed == 0) localize_row(ref, c, bad->bad_row, bad->bad_trial, bad->bad_ratio, st);
    freivalds_scan_free(scan);
}

static void freivalds_mod64_span(void *ctx, int64_t begin, int64_t end, int part)
{
    freivalds_scan *scan = ctx;
    const gh_reference *ref = scan->ref;
    const gh_case_inputs *in = &ref->in;
    freivalds_part *fp = &scan->parts[part];
    uint64_t *row = (uint64_t *)scan->rows + (size_t)part * (size_t)in->n;
    for (int64_t i = begin; i < end && fp->bad_row < 0; i++) {
        for (int64_t j = 0; j < in->n; j++) row[j] = (uint64_t)(int64_t)gh_matrix_get(scan->c, i, j);
        for (int t = 0; t < ref->trials; t++) {
            const uint64_t *r = ref->fr_r64 + (size_t)(t * in->n);
            uint64_t cr = 0;
            for (int64_t j = 0; j < in->n; j++) cr += row[j] * r[j];
            if (cr == ref->fr_y64[(size_t)(t * in->m + i)]) continue;
            fp->bad_row = i;
            fp->bad_trial = t;
            break;
        }
    }
}

/* i32: C r == y exactly, modulo 2^64. */
void gh_check_freivalds_mod64(const gh_reference *ref, const gh_matrix *c, check_state *st)
{
    const gh_case_inputs *in = &ref->in;
    const int parts = gh_verify_parts(ref->threads, in->m, (double)in->n * ref->trials);
    freivalds_scan *scan = freivalds_scan_new(ref, c, parts, 0);
    if (!scan) {
        st->max_ratio = INFINITY;
        note_failure(st, FAIL_NO_MEMORY, -1, -1, NAN, NAN, NAN);
        return;
    }
    gh_parallel_spans(in->m, parts, freivalds_mod64_span, scan);
    for (int p = 0; p < parts; p++) {
        const freivalds_part *fp = &scan->parts[p];
        if (fp->bad_row < 0) continue;
        st->max_ratio = INFINITY;
        if (st->failed == 0) localize_row(ref, c, fp->bad_row, fp->bad_trial, INFINITY, st);
        break;
    }
    freivalds_scan_free(scan);
}

/* ---- messages ---------------------------------------------------------- */
