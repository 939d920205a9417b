/* Checks a GEMM result against a host reference with a K-scaled error bound
 * (see shared/design/verification.md). */
#ifndef GEMMHOST_VERIFY_H
#define GEMMHOST_VERIFY_H

#include <stdint.h>
#include "data.h"

typedef enum gh_verify_method {
    GH_VERIFY_AUTO = 0, /* full up to full_max_flops, freivalds + sample beyond */
    GH_VERIFY_FULL,
    GH_VERIFY_FREIVALDS,
    GH_VERIFY_SAMPLE,
    GH_VERIFY_NONE
} gh_verify_method;

const char *gh_verify_method_name(gh_verify_method m);
int gh_verify_method_parse(const char *s, gh_verify_method *out); /* 0 on success */

/* One case's inputs, as every backend receives them. */
typedef struct gh_case_inputs {
    gh_dtype dtype;
    int trans_a, trans_b;
    int64_t m, n, k;
    double alpha, beta;
    const gh_matrix *a;  /* M x K, or K x M when trans_a */
    const gh_matrix *b;  /* K x N, or N x K when trans_b */
    const gh_matrix *c0; /* M x N, C before the run (ignored when beta == 0) */
    /* 8-bit GEMMs (explicit_types 1): B's and C's types (a, c0 and the output
     * are of dtype, b_dtype and c_dtype) and the scales, so that
     * C = scale_c (alpha scale_a scale_b op(A) op(B) + beta C0). With 0 (a
     * zeroed tail) A, B and C are all of dtype and the scales are 1. */
    int explicit_types;
    gh_dtype b_dtype, c_dtype;
    double scale_a, scale_b, scale_c;
} gh_case_inputs;

/* B's and C's types, and the alpha and beta the reference works with (the
 * scales folded in: exact in f64 for power-of-two scales). */
static inline gh_dtype gh_case_b_dtype(const gh_case_inputs *in)
{
    return in->explicit_types ? in->b_dtype : in->dtype;
}
static inline gh_dtype gh_case_c_dtype(const gh_case_inputs *in)
{
    return in->explicit_types ? in->c_dtype : in->dtype;
}
static inline double gh_case_alpha(const gh_case_inputs *in)
{
    return in->explicit_types ? in->scale_c * (in->alpha * in->scale_a * in->scale_b) : in->alpha;
}
static inline double gh_case_beta(const gh_case_inputs *in)
{
    return in->explicit_types ? in->scale_c * in->beta : in->beta;
}

typedef struct gh_verify_options {
    gh_verify_method method;
    double full_max_flops; /* auto: full reference while 2*M*N*K <= this */
    int freivalds_trials;  /* e.g. 3 */
    int64_t samples;       /* sampled entries, e.g. 4096 */
    int threads;           /* for the full reference; 0 = all cores */
    uint64_t seed;
} gh_verify_options;

/* The reference, built once per case and shared by every result of it. */
typedef struct gh_reference gh_reference;

/* Builds what the chosen method needs (for full: C_ref and |A||B|+|beta C0|
 * in f64). Returns NULL when out of memory. */
gh_reference *gh_reference_build(const gh_case_inputs *in, const gh_verify_options *opt);
void gh_reference_free(gh_reference *ref);
/* The method actually used (auto resolved), e.g. "full" or "freivalds+sample". */
const char *gh_reference_method(const gh_reference *ref);

typedef struct gh_verify_result {
    int passed;  /* 1 pass; 0 fail */
    int checked; /* 0 when method none */
    double max_abs_err;
    double max_err_over_bound; /* <= 1 passes; inf for NaN/Inf or unwritten */
    double rel_fro_err;        /* ||C - Cref||_F / ||Cref||_F over what was checked */
    int64_t fail_i, fail_j;    /* first failing element, -1 if none */
    double fail_got, fail_expected;
    int64_t guard_overwrites; /* elements outside the matrix that changed */
    char message[256];        /* one line: why it failed, or "" */
} gh_verify_result;

/* The arithmetic a result was computed in, as unit roundoffs: u_in, the
 * rounding of the inputs before they are multiplied (0: used as stored);
 * u_acc, the accumulation's; u_out, the stored result's (docs/verification.md). */
typedef struct gh_arith {
    double u_in, u_acc, u_out;
    /* (ABI 1.5 combos) A running sum narrower than u_acc: its unit roundoff
     * (0: none), restarted every `span` products into the u_acc sum (0: one
     * narrow sum over the whole K). docs/verification.md, "Eight bits". */
    double u_narrow;
    int64_t span;
    /* (ABI 1.6 timings) K summed in `pieces` pieces whose sum kept u_split
     * (0: no such split), e.g. cuBLASLt's split-K reduced in C's f16:
     * the pieces' sum adds gamma_pieces(u_split). */
    double u_split;
    int64_t pieces;
} gh_arith;

/* What a kernel without a declaration does in dtype d: inputs as stored,
 * f32 accumulation for f16, bf16 and f32, f64 for f64, exact for i32. */
gh_arith gh_arith_default(gh_dtype d);
/* What a kernel declares (plugin.h, gh_kernel_precision); d is C's type. */
gh_arith gh_arith_declared(gh_dtype d, gh_precision inputs, gh_precision accumulate);
/* A narrow running sum of `bits` explicit mantissa bits (0: none) promoted
 * every `promote_every` products (0: never), as a gh_type_combo declares. */
gh_arith gh_arith_narrowed(gh_arith a, uint32_t bits, uint32_t promote_every);
/* Each roundoff the larger of the two: for comparing outputs of two kernels. */
gh_arith gh_arith_looser(gh_arith a, gh_arith b);
/* a with K summed in `pieces` pieces whose sum kept precision p, as a
 * plugin reported it (gh_gemm_timing's split); a itself for pieces < 2. */
gh_arith gh_arith_split(gh_arith a, uint32_t pieces, gh_precision p);

/* Checks an output matrix (same shape/ld/guard as in->c0) against ref,
 * guards included, with the bound of the dtype's default arithmetic. */
void gh_verify(const gh_reference *ref, const gh_matrix *c_out, gh_verify_result *out);
/* The same with the bound of the arithmetic the kernel declared. */
void gh_verify_as(const gh_reference *ref, gh_arith arith, const gh_matrix *c_out, gh_verify_result *out);

/* Largest |x_ij - y_ij| / bound_ij between two outputs of the same case:
 * over every element when the reference is full, over the sampled entries
 * otherwise (the same entries for every call). NaN anywhere gives inf. */
double gh_reference_diff_in_bounds(const gh_reference *ref, const gh_matrix *x, const gh_matrix *y);
/* The same in units of the bound of `arith` (the looser of the two kernels'). */
double gh_reference_diff_in_bounds_as(const gh_reference *ref, gh_arith arith, const gh_matrix *x, const gh_matrix *y);

/* The bound's gamma_K for a dtype: K u / (1 - K u); 0 for i32 (exact). */
double gh_gamma(gh_dtype d, int64_t k);
/* gamma_K for a unit roundoff u. */
double gh_gamma_u(double u, int64_t k);

#endif
