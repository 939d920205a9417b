/* Builds the reference a result is checked against: every element in f64
 * (full), Freivalds' vectors C r per trial, and sampled elements, each with
 * the |alpha||A||B| + |beta||C0| its bound needs. Also names the methods.
 *
 * The reference keeps pointers to the case's input matrices: when a check
 * fails it recomputes single elements to name the wrong one. The inputs must
 * stay alive and unchanged until gh_reference_free. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host_gemm.h"
#include "parallel.h"
#include "verify_internal.h"

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

static int build_full(gh_reference *ref, const gh_verify_options *opt)
{
    const gh_case_inputs *in = &ref->in;
    size_t mn = (size_t)(in->m * in->n);
    ref->full_value = calloc(mn, sizeof(double));
    ref->full_abs = calloc(mn, sizeof(double));
    int rc = -1;
    if (ref->full_value && ref->full_abs && gh_host_products(in, opt->threads, ref->full_value, ref->full_abs) == 0) {
        /* Finish in place: value = alpha*AB + beta*C0, bound from |alpha||A||B| + |beta||C0|
         * (alpha and beta with an 8-bit GEMM's scales folded in). */
        const double alpha = gh_case_alpha(in), beta = gh_case_beta(in);
        for (int64_t i = 0; i < in->m; i++) {
            for (int64_t j = 0; j < in->n; j++) {
                size_t at = (size_t)(i * in->n + j);
                double v = alpha * ref->full_value[at];
                double abs_v = fabs(alpha) * ref->full_abs[at];
                if (in->beta != 0.0) {
                    double c0 = gh_matrix_get(in->c0, i, j);
                    v += beta * c0;
                    abs_v += fabs(beta * c0);
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
    const double alpha = gh_case_alpha(in), beta = gh_case_beta(in);
    for (int64_t i = 0; i < count * in->m; i++) {
        ref->fr_y[i] *= alpha;
        ref->fr_abs[i] *= fabs(alpha);
        if (in->beta != 0.0) {
            ref->fr_y[i] += beta * w[i];
            ref->fr_abs[i] += fabs(beta) * w_abs[i];
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
    int exact = gh_case_c_dtype(in) == GH_I32; /* i32, and i8 -> i32 (scales of 1) */
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
    if (a->dtype != in->dtype || b->dtype != gh_case_b_dtype(in)) return 0;
    if (in->explicit_types && !(in->scale_a > 0 && in->scale_b > 0 && in->scale_c > 0)) return 0;
    if (a->rows != (in->trans_a ? in->k : in->m) || a->cols != (in->trans_a ? in->m : in->k)) return 0;
    if (b->rows != (in->trans_b ? in->n : in->k) || b->cols != (in->trans_b ? in->k : in->n)) return 0;
    if (in->beta != 0.0 &&
        (!in->c0 || in->c0->rows != in->m || in->c0->cols != in->n || in->c0->dtype != gh_case_c_dtype(in)))
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
    ref->g_ref = gh_case_c_dtype(in) == GH_I32 ? 0.0 : gh_gamma_u(GH_U_F64, in->k + 2);
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
