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
 * The reference keeps pointers to the case's input matrices: when a check
 * fails it recomputes single elements to name the wrong one. The inputs must
 * stay alive and unchanged until gh_reference_free.
 *
 * Large loops run on several threads, each over its own span of outputs, so
 * every number is summed in the same order whatever the thread count. */
#define _POSIX_C_SOURCE 200809L
#include "verify.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmhost/half.h"
#include "host_gemm.h"
#include "parallel.h"

/* Streams of the verifier's own random draws; far from the small stream
 * numbers the runner uses for A, B and C. */
#define STREAM_FREIVALDS 0x4652454956000000ull
#define STREAM_SAMPLES   0x53414D504C450000ull
#define DEFAULT_SAMPLES  4096
#define DEFAULT_TRIALS   3

const char *gh_verify_method_name(gh_verify_method m)
{
    switch (m) {
    case GH_VERIFY_AUTO: return "auto";
    case GH_VERIFY_FULL: return "full";
    case GH_VERIFY_FREIVALDS: return "freivalds";
    case GH_VERIFY_SAMPLE: return "sample";
    case GH_VERIFY_NONE: return "none";
    }
    return "?";
}

int gh_verify_method_parse(const char *s, gh_verify_method *out)
{
    for (int m = GH_VERIFY_AUTO; m <= GH_VERIFY_NONE; m++) {
        if (s && strcmp(s, gh_verify_method_name((gh_verify_method)m)) == 0) {
            *out = (gh_verify_method)m;
            return 0;
        }
    }
    return -1;
}

double gh_gamma_u(double u, int64_t k)
{
    double ku = (double)k * u;
    return ku < 1.0 ? ku / (1.0 - ku) : INFINITY;
}

double gh_gamma(gh_dtype d, int64_t k)
{
    return gh_gamma_u(d == GH_F32 ? GH_U_F32 : d == GH_F64 ? GH_U_F64 : 0.0, k);
}

/* ---- the arithmetic a result was computed in ---------------------------- */

static double unit_roundoff(gh_precision p)
{
    switch (p) {
    case GH_PREC_AS_STORED: return 0.0;
    case GH_PREC_TF32: return GH_U_TF32;
    case GH_PREC_BF16: return GH_U_BF16;
    case GH_PREC_F16: return GH_U_F16;
    case GH_PREC_F32: return GH_U_F32;
    case GH_PREC_F64: return GH_U_F64;
    case GH_PREC_TF32_TRUNCATED: return GH_U_TF32_TRUNCATED;
    }
    return 0.0;
}

/* The rounding of a stored element. */
static double storage_roundoff(gh_dtype d)
{
    switch (d) {
    case GH_F32: return GH_U_F32;
    case GH_F64: return GH_U_F64;
    case GH_F16: return GH_U_F16;
    case GH_BF16: return GH_U_BF16;
    case GH_I32: return 0.0;
    }
    return 0.0;
}

gh_arith gh_arith_declared(gh_dtype d, gh_precision inputs, gh_precision accumulate)
{
    return (gh_arith){unit_roundoff(inputs), unit_roundoff(accumulate), storage_roundoff(d)};
}

gh_arith gh_arith_default(gh_dtype d)
{
    gh_precision acc = d == GH_F64 ? GH_PREC_F64 : d == GH_I32 ? GH_PREC_AS_STORED : GH_PREC_F32;
    return gh_arith_declared(d, GH_PREC_AS_STORED, acc);
}

gh_arith gh_arith_looser(gh_arith a, gh_arith b)
{
    return (gh_arith){fmax(a.u_in, b.u_in), fmax(a.u_acc, b.u_acc), fmax(a.u_out, b.u_out)};
}

/* ---- the reference ----------------------------------------------------- */

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
static double tiny_of(double u)
{
    return u == GH_U_F32 ? (double)FLT_TRUE_MIN : u == GH_U_F64 ? DBL_TRUE_MIN : u == GH_U_F16 ? 0x1p-24
         : u == GH_U_BF16 ? 0x1p-133 : 0.0;
}

/* The per-element bound's terms for one arithmetic:
 *   bound = (g_kernel + g_ref) S + out (|C*| + g_kernel S) + eta
 * with S = |alpha| sum |A||B| + |beta||C0|, g_kernel = gamma_{K+2}(u_acc) +
 * 2 u_in + u_in^2, and the output rounding `out` = u_out only when the stored
 * type is coarser than the accumulation (else gamma_{K+2} covers it). */
typedef struct element_bounds {
    double g_kernel, g, out, eta;
} element_bounds;

static element_bounds bounds_for(const gh_reference *ref, gh_arith a)
{
    element_bounds b = {0};
    if (ref->in.dtype == GH_I32) return b; /* exact: any difference fails */
    b.g_kernel = gh_gamma_u(a.u_acc, ref->in.k + 2) + 2.0 * a.u_in + a.u_in * a.u_in;
    b.g = b.g_kernel + ref->g_ref;
    b.out = a.u_out > a.u_acc ? a.u_out : 0.0;
    b.eta = (double)(ref->in.k + 2) * tiny_of(a.u_acc) + (b.out > 0 ? tiny_of(a.u_out) : 0.0);
    return b;
}

static double element_bound(const element_bounds *b, double value, double abs)
{
    return b->g * abs + b->out * (fabs(value) + b->g_kernel * abs) + b->eta;
}

/* One element computed in f64 (exact for i32) and its |alpha||A||B| + |beta||C0|,
 * straight from the inputs. */
static void exact_element(const gh_reference *ref, int64_t i, int64_t j, double *value, double *abs)
{
    const gh_case_inputs *in = &ref->in;
    double sum = 0.0, abs_sum = 0.0;
    for (int64_t p = 0; p < in->k; p++) {
        double prod = gh_op_get(in->a, in->trans_a, i, p) * gh_op_get(in->b, in->trans_b, p, j);
        sum += prod;
        abs_sum += fabs(prod);
    }
    double v = in->alpha * sum, abs_v = fabs(in->alpha) * abs_sum;
    if (in->beta != 0.0) {
        double c0 = gh_matrix_get(in->c0, i, j);
        v += in->beta * c0;
        abs_v += fabs(in->beta * c0);
    }
    *value = v;
    *abs = abs_v;
}

/* ---- full reference ---------------------------------------------------- */

static int build_full(gh_reference *ref, const gh_verify_options *opt)
{
    const gh_case_inputs *in = &ref->in;
    size_t mn = (size_t)(in->m * in->n);
    ref->full_value = calloc(mn, sizeof(double));
    ref->full_abs = calloc(mn, sizeof(double));
    int rc = -1;
    if (ref->full_value && ref->full_abs &&
        gh_host_products(in, opt->threads, ref->full_value, ref->full_abs) == 0) {
        /* Finish in place: value = alpha*AB + beta*C0, bound from |alpha||A||B| + |beta||C0|. */
        for (int64_t i = 0; i < in->m; i++) {
            for (int64_t j = 0; j < in->n; j++) {
                size_t at = (size_t)(i * in->n + j);
                double v = in->alpha * ref->full_value[at];
                double abs_v = fabs(in->alpha) * ref->full_abs[at];
                if (in->beta != 0.0) {
                    double c0 = gh_matrix_get(in->c0, i, j);
                    v += in->beta * c0;
                    abs_v += fabs(in->beta * c0);
                }
                ref->full_value[at] = v;
                ref->full_abs[at] = abs_v;
            }
        }
        rc = 0;
    }
    return rc;
}

/* ---- Freivalds --------------------------------------------------------- */

static int64_t max3(int64_t a, int64_t b, int64_t c)
{
    int64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* Every trial at once in f64: y = alpha A (B r) + beta C0 r, with its
 * absolute-value companion y_abs = |alpha||A|(|B||r|) + |beta||C0||r|. */
static int freivalds_f64(gh_reference *ref)
{
    const gh_case_inputs *in = &ref->in;
    const int count = ref->trials;
    int64_t len = max3(in->m, in->n, in->k);
    double *buf = malloc((size_t)(5 * count * len) * sizeof(double));
    if (!buf) return -1;
    double *r_abs = buf, *u = r_abs + count * len, *u_abs = u + count * len;
    double *w = u_abs + count * len, *w_abs = w + count * len;
    for (int64_t j = 0; j < count * in->n; j++) r_abs[j] = fabs(ref->fr_r[j]);
    if (gh_host_matvec(in->b, in->trans_b, count, ref->fr_r, r_abs, u, u_abs, ref->threads) != 0 || /* u = op(B) r */
        gh_host_matvec(in->a, in->trans_a, count, u, u_abs, ref->fr_y, ref->fr_abs, ref->threads) !=
            0 || /* y = op(A) u */
        (in->beta != 0.0 && gh_host_matvec(in->c0, 0, count, ref->fr_r, r_abs, w, w_abs, ref->threads) != 0)) {
        free(buf);
        return -1;
    }
    for (int64_t i = 0; i < count * in->m; i++) {
        ref->fr_y[i] *= in->alpha;
        ref->fr_abs[i] *= fabs(in->alpha);
        if (in->beta != 0.0) {
            ref->fr_y[i] += in->beta * w[i];
            ref->fr_abs[i] += fabs(in->beta) * w_abs[i];
        }
    }
    free(buf);
    return 0;
}

static int freivalds_mod64(gh_reference *ref)
{
    const gh_case_inputs *in = &ref->in;
    const int count = ref->trials;
    int64_t len = max3(in->m, in->n, in->k);
    uint64_t *u = malloc((size_t)(2 * count * len) * sizeof(uint64_t));
    if (!u) return -1;
    uint64_t *w = u + count * len;
    uint64_t alpha = (uint64_t)(int64_t)in->alpha, beta = (uint64_t)(int64_t)in->beta;
    if (gh_host_matvec_mod64(in->b, in->trans_b, count, ref->fr_r64, u, ref->threads) != 0 ||
        gh_host_matvec_mod64(in->a, in->trans_a, count, u, ref->fr_y64, ref->threads) != 0 ||
        (in->beta != 0.0 && gh_host_matvec_mod64(in->c0, 0, count, ref->fr_r64, w, ref->threads) != 0)) {
        free(u);
        return -1;
    }
    for (int64_t i = 0; i < count * in->m; i++)
        ref->fr_y64[i] = alpha * ref->fr_y64[i] + (in->beta != 0.0 ? beta * w[i] : 0);
    free(u);
    return 0;
}

static int build_freivalds(gh_reference *ref, const gh_verify_options *opt)
{
    const gh_case_inputs *in = &ref->in;
    int count = opt->freivalds_trials > 0 ? opt->freivalds_trials : DEFAULT_TRIALS;
    size_t rn = (size_t)(count * in->n), ym = (size_t)(count * in->m);
    int exact = in->dtype == GH_I32;
    ref->trials = count;
    if (exact) {
        ref->fr_r64 = malloc(rn * sizeof(uint64_t));
        ref->fr_y64 = malloc(ym * sizeof(uint64_t));
        if (!ref->fr_r64 || !ref->fr_y64) return -1;
    } else {
        ref->fr_r = malloc(rn * sizeof(double));
        ref->fr_y = malloc(ym * sizeof(double));
        ref->fr_abs = malloc(ym * sizeof(double));
        if (!ref->fr_r || !ref->fr_y || !ref->fr_abs) return -1;
    }
    /* Random real r in [-1, 1): a wrong element escapes only when its r_j is
     * tiny. For i32, random 64-bit r: it escapes only when e * r_j = 0 mod 2^64. */
    for (int t = 0; t < count; t++) {
        for (int64_t j = 0; j < in->n; j++) {
            uint64_t x = gh_random_u64(opt->seed, STREAM_FREIVALDS + (uint64_t)t, (uint64_t)j);
            size_t at = (size_t)(t * in->n + j);
            if (exact) ref->fr_r64[at] = x;
            else ref->fr_r[at] = (double)(x >> 11) * 0x1p-52 - 1.0;
        }
    }
    return exact ? freivalds_mod64(ref) : freivalds_f64(ref);
}

/* ---- sampled entries --------------------------------------------------- */

/* A uniform index in [0, n) from 32 random bits (n < 2^32). */
static int64_t pick(uint64_t bits32, int64_t n)
{
    return (int64_t)(((bits32 & 0xFFFFFFFFull) * (uint64_t)n) >> 32);
}

/* Positions: every element when the sample covers the matrix; otherwise the
 * four corners, then an eighth along the four edges (where tiling bugs
 * live), then uniform picks. All deterministic from the seed. */
static void choose_samples(gh_reference *ref, uint64_t seed)
{
    int64_t m = ref->in.m, n = ref->in.n, count = ref->n_samples;
    if (count >= m * n) {
        for (int64_t s = 0; s < count; s++) {
            ref->s_i[s] = s / n;
            ref->s_j[s] = s % n;
        }
        return;
    }
    const int64_t corner_i[4] = {0, 0, m - 1, m - 1}, corner_j[4] = {0, n - 1, 0, n - 1};
    int64_t edges = count / 8;
    for (int64_t s = 0; s < count; s++) {
        uint64_t x = gh_random_u64(seed, STREAM_SAMPLES, (uint64_t)s);
        int64_t ri = pick(x >> 32, m), rj = pick(x, n);
        if (s < 4) {
            ref->s_i[s] = corner_i[s];
            ref->s_j[s] = corner_j[s];
        } else if (s < 4 + edges) {
            switch (s % 4) {
            case 0:
                ref->s_i[s] = 0;
                ref->s_j[s] = rj;
                break;
            case 1:
                ref->s_i[s] = m - 1;
                ref->s_j[s] = rj;
                break;
            case 2:
                ref->s_i[s] = ri;
                ref->s_j[s] = 0;
                break;
            default:
                ref->s_i[s] = ri;
                ref->s_j[s] = n - 1;
                break;
            }
        } else {
            ref->s_i[s] = ri;
            ref->s_j[s] = rj;
        }
    }
}

static void sample_span(void *ctx, int64_t begin, int64_t end, int part)
{
    gh_reference *ref = ctx;
    (void)part;
    for (int64_t s = begin; s < end; s++)
        exact_element(ref, ref->s_i[s], ref->s_j[s], &ref->s_value[s], &ref->s_abs[s]);
}

static int build_samples(gh_reference *ref, const gh_verify_options *opt)
{
    int64_t want = opt->samples > 0 ? opt->samples : DEFAULT_SAMPLES;
    int64_t all = ref->in.m * ref->in.n;
    if (want < 4) want = 4;
    ref->n_samples = want < all ? want : all;
    size_t count = (size_t)ref->n_samples;
    ref->s_i = malloc(count * sizeof(int64_t));
    ref->s_j = malloc(count * sizeof(int64_t));
    ref->s_value = malloc(count * sizeof(double));
    ref->s_abs = malloc(count * sizeof(double));
    if (!ref->s_i || !ref->s_j || !ref->s_value || !ref->s_abs) return -1;
    choose_samples(ref, opt->seed);
    gh_parallel_spans(ref->n_samples, gh_verify_parts(ref->threads, ref->n_samples, 2.0 * (double)ref->in.k),
                      sample_span, ref);
    return 0;
}

/* ---- build / free ------------------------------------------------------ */

static int inputs_consistent(const gh_case_inputs *in)
{
    const gh_matrix *a = in->a, *b = in->b;
    if (!a || !b || in->m < 1 || in->n < 1 || in->k < 1) return 0;
    if (a->dtype != in->dtype || b->dtype != in->dtype) return 0;
    if (a->rows != (in->trans_a ? in->k : in->m) || a->cols != (in->trans_a ? in->m : in->k)) return 0;
    if (b->rows != (in->trans_b ? in->n : in->k) || b->cols != (in->trans_b ? in->k : in->n)) return 0;
    if (in->beta != 0.0 && (!in->c0 || in->c0->rows != in->m || in->c0->cols != in->n || in->c0->dtype != in->dtype))
        return 0;
    return 1;
}

static gh_verify_method resolve_method(const gh_case_inputs *in, const gh_verify_options *opt)
{
    if (opt->method != GH_VERIFY_AUTO) return opt->method;
    double flops = 2.0 * (double)in->m * (double)in->n * (double)in->k;
    return flops <= opt->full_max_flops ? GH_VERIFY_FULL : GH_VERIFY_FREIVALDS;
}

gh_reference *gh_reference_build(const gh_case_inputs *in, const gh_verify_options *opt)
{
    if (!in || !opt || !inputs_consistent(in)) return NULL;
    gh_reference *ref = calloc(1, sizeof *ref);
    if (!ref) return NULL;
    ref->in = *in;
    ref->threads = opt->threads;
    ref->g_ref = in->dtype == GH_I32 ? 0.0 : gh_gamma_u(GH_U_F64, in->k + 2);
    gh_verify_method method = resolve_method(in, opt);
    int rc = 0;
    switch (method) {
    case GH_VERIFY_FULL:
        ref->method = "full";
        rc = build_full(ref, opt);
        break;
    case GH_VERIFY_FREIVALDS:
        /* auto past the full size: Freivalds plus checked samples */
        ref->check_samples = opt->method == GH_VERIFY_AUTO;
        ref->method = ref->check_samples ? "freivalds+sample" : "freivalds";
        rc = build_freivalds(ref, opt);
        break;
    case GH_VERIFY_SAMPLE:
        ref->method = "sample";
        ref->check_samples = 1;
        break;
    case GH_VERIFY_AUTO:
    case GH_VERIFY_NONE: ref->method = "none"; break;
    }
    if (rc == 0 && method != GH_VERIFY_FULL) rc = build_samples(ref, opt);
    if (rc != 0) {
        gh_reference_free(ref);
        return NULL;
    }
    return ref;
}

void gh_reference_free(gh_reference *ref)
{
    if (!ref) return;
    free(ref->full_value);
    free(ref->full_abs);
    free(ref->fr_r);
    free(ref->fr_y);
    free(ref->fr_abs);
    free(ref->fr_r64);
    free(ref->fr_y64);
    free(ref->s_i);
    free(ref->s_j);
    free(ref->s_value);
    free(ref->s_abs);
    free(ref);
}

const char *gh_reference_method(const gh_reference *ref)
{
    return ref ? ref->method : "none";
}

/* ---- checking ---------------------------------------------------------- */

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
    int trial;         /* FAIL_ROW */
    element_bounds b;  /* of the arithmetic the result is held to */
} check_state;

static double ratio_of(double err, double bound)
{
    if (err != err) return INFINITY;
    if (bound > 0.0) return err / bound;
    return err == 0.0 ? 0.0 : INFINITY;
}

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

static void check_full(const gh_reference *ref, const gh_matrix *c, check_state *st)
{
    for (int64_t i = 0; i < ref->in.m; i++)
        for (int64_t j = 0; j < ref->in.n; j++) {
            size_t at = (size_t)(i * ref->in.n + j);
            check_element(st, c, i, j, ref->full_value[at], ref->full_abs[at]);
        }
}

static void check_samples(const gh_reference *ref, const gh_matrix *c, check_state *st)
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
static void scan_nonfinite(const gh_reference *ref, const gh_matrix *c, check_state *st)
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
static void check_freivalds_f64(const gh_reference *ref, const gh_matrix *c, check_state *st, int row_stats)
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
static void check_freivalds_mod64(const gh_reference *ref, const gh_matrix *c, check_state *st)
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

static const char *value_format(gh_dtype d)
{
    return d == GH_F64 ? "%.17g" : d == GH_F32 ? "%.9g" : "%.0f";
}

static void format_value(char *buf, size_t size, gh_dtype d, double v)
{
    snprintf(buf, size, value_format(d), v);
}

static void describe_failure(const gh_reference *ref, const check_state *st, char *buf, size_t size)
{
    char got[40], expected[40];
    gh_dtype d = ref->in.dtype;
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
    if (!c || !c->storage || c->rows != ref->in.m || c->cols != ref->in.n || c->dtype != ref->in.dtype) {
        snprintf(out->message, sizeof out->message, "output is not the %lldx%lld %s matrix of this case",
                 (long long)ref->in.m, (long long)ref->in.n, gh_dtype_name(ref->in.dtype));
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
    gh_verify_as(ref, gh_arith_default(ref ? ref->in.dtype : GH_F32), c, out);
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
        check_full(ref, c, &st);
    } else if (out->checked) {
        scan_nonfinite(ref, c, &st);
        if (ref->check_samples) check_samples(ref, c, &st);
        if (ref->fr_y64) check_freivalds_mod64(ref, c, &st);
        else if (ref->fr_y) check_freivalds_f64(ref, c, &st, !ref->check_samples);
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
    return gh_reference_diff_in_bounds_as(ref, gh_arith_default(ref ? ref->in.dtype : GH_F32), x, y);
}

double gh_reference_diff_in_bounds_as(const gh_reference *ref, gh_arith arith, const gh_matrix *x,
                                      const gh_matrix *y)
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
