/* What the verifier's files share: the reference's contents, the per-element
 * bound, and the state the checks fold their findings into. Internal to
 * core/verify; the rest of the host sees verify.h only. */
#ifndef GEMMHOST_VERIFY_INTERNAL_H
#define GEMMHOST_VERIFY_INTERNAL_H

#include <float.h>
#include <math.h>

#include "gemmhost/half.h"
#include "verify.h"

struct gh_reference {
    gh_case_inputs in;
    const char *method;
    int threads;  /* opt->threads: 0 = every core */
    double g_ref; /* per element: the f64 reference's own rounding, gamma_{K+2}(f64) */
    double eta;   /* per element: underflow allowance */

    /* full: every element and its bound, row-major M x N */
    double *full_value, *full_abs; /* and |alpha||A||B| + |beta||C0| per element */

    /* Freivalds: per trial a vector r (N) and the reference's C r and its
     * absolute-value companion (M). i32 works exactly, modulo 2^64. */
    int trials;
    double *fr_r, *fr_y, *fr_abs;
    uint64_t *fr_r64, *fr_y64;

    /* sampled entries: positions, values, bounds. Built for every method but
     * full: diff_in_bounds needs them even when they are not checked. */
    int check_samples;
    int64_t n_samples;
    int64_t *s_i, *s_j;
    double *s_value, *s_abs;
};

/* Smallest positive subnormal of a precision: the scale of underflow. */
static inline double tiny_of(double u)
{
    return u == GH_U_F32    ? (double)FLT_TRUE_MIN
           : u == GH_U_F64  ? DBL_TRUE_MIN
           : u == GH_U_F16  ? 0x1p-24
           : u == GH_U_BF16 ? 0x1p-133
                            : 0.0;
}

/* The per-element bound's terms for one arithmetic:
 *   bound = (g_kernel + g_ref) S + out (|C*| + g_kernel S) + eta
 * with S = |alpha| sum |A||B| + |beta||C0|, g_kernel = gamma_{K+2}(u_acc) +
 * 2 u_in + u_in^2, and the output rounding `out` = u_out only when the stored
 * type is coarser than the accumulation (else gamma_{K+2} covers it). */
typedef struct element_bounds {
    double g_kernel, g, out, eta;
} element_bounds;

/* The accumulation's part of g_kernel: gamma_{K+ops}(u_acc), ops the
 * roundings after the sum (alpha, beta; and the three scales of an 8-bit
 * GEMM). A narrow running sum (u_narrow) over spans of `span` products,
 * each added into the u_acc sum: (1 + gamma_span(u_narrow)) (1 +
 * gamma_{spans+ops}(u_acc)) - 1 (docs/verification.md, "Eight bits"). */
static inline double sum_gamma(const gh_reference *ref, gh_arith a)
{
    const int64_t k = ref->in.k, ops = ref->in.explicit_types ? 5 : 2;
    if (a.u_narrow <= 0) return gh_gamma_u(a.u_acc, k + ops);
    const int64_t span = a.span > 0 && a.span < k ? a.span : k, spans = (k + span - 1) / span;
    return (1.0 + gh_gamma_u(a.u_narrow, span)) * (1.0 + gh_gamma_u(a.u_acc, spans + ops)) - 1.0;
}

/* ... and a split of K whose pieces were summed in u_split (each piece
 * rounded once, then pieces - 1 additions): (1 + that) (1 +
 * gamma_pieces(u_split)) - 1. */
static inline double accumulation_gamma(const gh_reference *ref, gh_arith a)
{
    const double g = sum_gamma(ref, a);
    if (a.pieces < 2 || a.u_split <= 0) return g;
    return (1.0 + g) * (1.0 + gh_gamma_u(a.u_split, a.pieces)) - 1.0;
}

static inline element_bounds bounds_for(const gh_reference *ref, gh_arith a)
{
    element_bounds b = {0};
    if (gh_case_c_dtype(&ref->in) == GH_I32) return b; /* exact: any difference fails */
    b.g_kernel = accumulation_gamma(ref, a) + 2.0 * a.u_in + a.u_in * a.u_in;
    b.g = b.g_kernel + ref->g_ref;
    b.out = a.u_out > a.u_acc ? a.u_out : 0.0;
    b.eta = (double)(ref->in.k + 2) * tiny_of(a.u_acc) + (b.out > 0 ? tiny_of(a.u_out) : 0.0);
    return b;
}

static inline double element_bound(const element_bounds *b, double value, double abs)
{
    return b->g * abs + b->out * (fabs(value) + b->g_kernel * abs) + b->eta;
}

/* One element computed in f64 (exact for i32) and its |alpha||A||B| + |beta||C0|,
 * straight from the inputs. */
static inline void exact_element(const gh_reference *ref, int64_t i, int64_t j, double *value, double *abs)
{
    const gh_case_inputs *in = &ref->in;
    double sum = 0.0, abs_sum = 0.0;
    for (int64_t p = 0; p < in->k; p++) {
        double prod = gh_op_get(in->a, in->trans_a, i, p) * gh_op_get(in->b, in->trans_b, p, j);
        sum += prod;
        abs_sum += fabs(prod);
    }
    const double alpha = gh_case_alpha(in), beta = gh_case_beta(in);
    double v = alpha * sum, abs_v = fabs(alpha) * abs_sum;
    if (in->beta != 0.0) {
        double c0 = gh_matrix_get(in->c0, i, j);
        v += beta * c0;
        abs_v += fabs(beta * c0);
    }
    *value = v;
    *abs = abs_v;
}

/* ---- full reference ---------------------------------------------------- */

typedef enum failure_kind {
    FAIL_NONE = 0,
    FAIL_POISON, /* still the poison: never written */
    FAIL_NAN,
    FAIL_INF,
    FAIL_VALUE,    /* finite but outside the bound */
    FAIL_ROW,      /* Freivalds: a row is wrong, no single element found */
    FAIL_NO_MEMORY /* the check itself could not run */
} failure_kind;

/* What the checks found, folded into the result at the end. */
typedef struct check_state {
    int64_t failed;
    double max_abs, max_ratio;
    double diff_sq, ref_sq;
    int nonfinite;
    int scanned;       /* every NaN/Inf/poison already counted */
    failure_kind kind; /* of the first failure */
    int64_t fail_i, fail_j;
    double got, expected, bound;
    int trial;        /* FAIL_ROW */
    element_bounds b; /* of the arithmetic the result is held to */
} check_state;

static inline double ratio_of(double err, double bound)
{
    if (err != err) return INFINITY;
    if (bound > 0.0) return err / bound;
    return err == 0.0 ? 0.0 : INFINITY;
}

/* The checks (check.c), each folding what it finds into st. */
void gh_check_full(const gh_reference *ref, const gh_matrix *c, check_state *st);
void gh_check_samples(const gh_reference *ref, const gh_matrix *c, check_state *st);
void gh_scan_nonfinite(const gh_reference *ref, const gh_matrix *c, check_state *st);
void gh_check_freivalds_f64(const gh_reference *ref, const gh_matrix *c, check_state *st, int row_stats);
void gh_check_freivalds_mod64(const gh_reference *ref, const gh_matrix *c, check_state *st);

#endif
