/* FP8 inputs (e4m3, e5m2, or one of each) into a wider C: whether each
 * input type is decoded exactly, its subnormals kept, a NaN (and e5m2's
 * infinity) carried into C, and the scales applied exactly and where: before
 * the products are summed or after. What OCP's formats and the ABI's
 * formula (plugin.h, gh_gemm_args) give is the reference. */
#include <math.h>
#include <stdio.h>

#include "data.h"
#include "probe_finding.h"

#define N_VALUES   8 /* per input type: 1, then normal values, then subnormals */
#define FIRST_SUB  6
#define SCALE_NPOT 3.0 /* a scale that is not a power of two, exact in f32 */

/* The values of format f the decoding case feeds, 1 first (the other
 * operand of every product read back). */
static void input_values(const probe_format *f, double v[N_VALUES])
{
    const double unit = ldexp(1.0, -f->mantissa);
    v[0] = 1.0;
    v[1] = f->max;
    v[2] = -f->max;
    v[3] = ldexp(1.0, f->emin);               /* the smallest normal */
    v[4] = 1.0 + unit;                        /* the last mantissa bit */
    v[5] = -ldexp(2.0 - unit, f->emin);       /* every mantissa bit, near the bottom */
    v[6] = ldexp(1.0, f->emin - f->mantissa); /* the smallest subnormal (e4m3 2^-9, e5m2 2^-16) */
    v[7] = ldexp(1.0 - unit, f->emin);        /* the largest subnormal */
}

static const char *fp8_reference(const probe_format *f)
{
    return f->dtype == GH_E4M3 ? "OCP e4m3 (max 448, subnormals down to 2^-9)"
                               : "OCP e5m2 (max 57344, subnormals down to 2^-16)";
}

/* K = 1, A a column of a's values, B a row of b's: C[i][0] is A_i as the
 * multiplier saw it, C[0][j] B_j (each times an exact 1). */
static void decoding(probe_ctx *x, const probe_format *a, const probe_format *b)
{
    probe_case *c = probe_case_new("fp8_inputs", a->dtype, N_VALUES, N_VALUES, 1,
                                   "K = 1, A a column (1, max, -max, smallest normal, 1 + last bit, -(all bits) near "
                                   "the bottom, smallest and largest subnormal), B the same of its type as a row: "
                                   "C[i][0] is A_i as decoded, C[0][j] B_j");
    c->b_dtype = b->dtype;
    c->c_dtype = x->fmt->dtype;
    double va[N_VALUES], vb[N_VALUES];
    input_values(a, va);
    input_values(b, vb);
    for (int i = 0; i < N_VALUES; i++) PROBE_A(c, i, 0) = va[i];
    for (int j = 0; j < N_VALUES; j++) PROBE_B(c, 0, j) = vb[j];
    probe_outcome *o = probe_ctx_run(x, "input_decoding", c);
    if (!o) return probe_ctx_done(o, c);

    probe_finding *f = probe_finding_add(x->out, "input_decoding");
    probe_finding_case(f, c);
    int wrong = 0;
    for (int t = 1; t < FIRST_SUB; t++) {
        const double ga = o->c[t * N_VALUES], gb = o->c[t];
        if (ga != va[t]) probe_finding_evidence(f, t, 0, ga, va[t]), wrong++;
        if (gb != vb[t]) probe_finding_evidence(f, 0, t, gb, vb[t]), wrong++;
    }
    snprintf(f->verdict, sizeof f->verdict, "%s", wrong ? "wrong" : "exact");
    snprintf(f->text, sizeof f->text,
             "%d of the %d normal %s (A) and %s (B) values (max, smallest normal, last bit) %s",
             wrong ? wrong : 2 * (FIRST_SUB - 1), 2 * (FIRST_SUB - 1), gh_dtype_name(a->dtype), gh_dtype_name(b->dtype),
             wrong ? "come back as other values" : "come back exactly");
    snprintf(f->declared, sizeof f->declared, "A %s, B %s", fp8_reference(a), fp8_reference(b));
    f->mismatch = wrong > 0;

    /* subnormals: the products with 1 are normal in f32 and bf16, and
     * subnormal but exact in f16 (e5m2's): 0 means the input was flushed */
    probe_finding *s = probe_finding_add(x->out, "subnormal_inputs");
    probe_finding_case(s, c);
    int kept_a = 1, kept_b = 1;
    for (int t = FIRST_SUB; t < N_VALUES; t++) {
        const double ga = o->c[t * N_VALUES], gb = o->c[t];
        kept_a &= ga == va[t];
        kept_b &= gb == vb[t];
        probe_finding_evidence(s, t, 0, ga, va[t]);
        probe_finding_evidence(s, 0, t, gb, vb[t]);
    }
    const int gone_a = o->c[FIRST_SUB * N_VALUES] == 0, gone_b = o->c[FIRST_SUB] == 0;
    snprintf(s->verdict, sizeof s->verdict, "%s",
             kept_a && kept_b     ? "kept"
             : gone_a && gone_b   ? "flushed"
             : (gone_a && kept_b) ? "flushed-in-a"
             : (gone_b && kept_a) ? "flushed-in-b"
                                  : "other");
    snprintf(s->text, sizeof s->text, "subnormal inputs: A's smallest (%g) comes back as %g, B's (%g) as %g%s",
             va[FIRST_SUB], o->c[FIRST_SUB * N_VALUES], vb[FIRST_SUB], o->c[FIRST_SUB],
             x->fmt->dtype == GH_F16 ? " (an f16 C holds e5m2's as an f16 subnormal: C's flushing shows here too)"
                                     : "");
    snprintf(s->declared, sizeof s->declared, "%s", "OCP formats: subnormals kept");
    s->mismatch = !(kept_a && kept_b);
    probe_ctx_done(o, c);
}

/* NaN in A and in B; +inf in A and -inf in B where that side is e5m2 (e4m3
 * has no infinity: its largest finite value is in fp8_inputs). */
static void specials(probe_ctx *x, const probe_format *a, const probe_format *b)
{
    for (int in_b = 0; in_b < 2; in_b++) {
        const probe_format *f = in_b ? b : a;
        const double values[2] = {NAN, in_b ? -INFINITY : INFINITY};
        for (int v = 0; v < (f->dtype == GH_E5M2 ? 2 : 1); v++) {
            probe_case *c = probe_case_special_in(x->fmt, in_b, values[v]);
            c->dtype = a->dtype;
            c->b_dtype = b->dtype;
            probe_special_case(x, c, in_b, values[v]);
        }
    }
}

/* Two exponents, one in a's and one in b's normal range (leaving room for a
 * mantissa of 1.5), that add up to `sum`; 0 when none do. */
static int split(int sum, const probe_format *a, const probe_format *b, int *ea, int *eb)
{
    for (*ea = a->emax - 1; *ea >= a->emin; (*ea)--) {
        *eb = sum - *ea;
        if (*eb >= b->emin && *eb <= b->emax - 1) return 1;
    }
    return 0;
}

/* K = 2, products P and p = 3/4 of a unit u of P in the m-bit sum,
 * scale_a 3: summed then scaled gives 3P + 3u (to nearest; 3P + 4u where C
 * rounds that to even) or 3P (toward zero); scaled first 3P + 2u either
 * way. Then the same with scales 2, 4, 1/2: exactly 4 times the unscaled
 * result. A sum wider than C cannot show where (C rounds it all). */
static void scales(probe_ctx *x, const probe_format *a, const probe_format *b)
{
    const int m = x->acc_bits;
    int pe = a->emax - 1 + b->emax - 1;
    if (pe > x->fmt->emax - 5) pe = x->fmt->emax - 5; /* 4 (3P + 4u) stays below C's largest value */
    int a1, b1, a2, b2;
    if (m < 0 || m > x->fmt->mantissa || !split(pe, a, b, &a1, &b1) || !split(pe - m - 1, a, b, &a2, &b2)) {
        probe_finding *f = probe_finding_add(x->out, "scale_where");
        snprintf(f->verdict, sizeof f->verdict, "not-observable");
        snprintf(f->text, sizeof f->text,
                 "a %d-bit sum: C (%d bits) cannot show where the scale is applied, or the inputs cannot span a unit",
                 m, x->fmt->mantissa);
        return;
    }
    probe_case *c = probe_case_new("fp8_scales", a->dtype, 1, 1, 2,
                                   "K = 2: P + 3/4 unit of P in the m-bit sum, scale_a 3: 3P + 3u or 3P when the sum "
                                   "is scaled after it is rounded, 3P + 2u when each product is scaled first; then "
                                   "scales 2, 4, 1/2: 4 times the unscaled C exactly");
    c->b_dtype = b->dtype;
    c->c_dtype = x->fmt->dtype;
    PROBE_A(c, 0, 0) = ldexp(1.0, a1);
    PROBE_B(c, 0, 0) = ldexp(1.0, b1);
    PROBE_A(c, 0, 1) = ldexp(1.5, a2);
    PROBE_B(c, 1, 0) = ldexp(1.0, b2);
    const double P = ldexp(1.0, pe), u = ldexp(P, -m);
    c->scale_a = 1.0;
    probe_outcome *plain = probe_ctx_run(x, "scale_pow2", c);
    if (!plain) return probe_ctx_done(plain, c);
    const double unscaled = plain->c[0];
    probe_ctx_done(plain, NULL);
    c->scale_a = 2.0, c->scale_b = 4.0, c->scale_c = 0.5;
    probe_outcome *o = probe_ctx_run(x, "scale_pow2", c);
    if (o) {
        probe_finding *f = probe_finding_add(x->out, "scale_pow2");
        probe_finding_case(f, c);
        probe_finding_evidence(f, 0, 0, o->c[0], 4 * unscaled);
        const int exact = o->c[0] == 4 * unscaled;
        snprintf(f->verdict, sizeof f->verdict, "%s", exact ? "exact" : "changed");
        snprintf(f->text, sizeof f->text, "scales 2, 4 and 1/2 give %.17g, %s 4 times the unscaled %.17g", o->c[0],
                 exact ? "exactly" : "not", unscaled);
        snprintf(f->declared, sizeof f->declared, "C = scale_c (alpha scale_a scale_b A B): powers of two exact");
        f->mismatch = !exact;
    }
    probe_ctx_done(o, NULL);
    c->scale_a = SCALE_NPOT, c->scale_b = 1.0, c->scale_c = 1.0;
    o = probe_ctx_run(x, "scale_where", c);
    if (o) {
        probe_finding *f = probe_finding_add(x->out, "scale_where");
        probe_finding_case(f, c);
        const double got = o->c[0];
        const int after = got == 3 * P + 3 * u || got == 3 * P || got == 3 * P + 4 * u, before = got == 3 * P + 2 * u;
        probe_finding_evidence(f, 0, 0, got, 3 * P + 3 * u); /* summed, rounded to nearest, then scaled */
        snprintf(f->verdict, sizeof f->verdict, "%s", after ? "after-sum" : before ? "before-sum" : "other");
        snprintf(f->text, sizeof f->text,
                 "scale_a = 3 on P + 3/4 unit (P = 2^%d, unit 2^%d): C = 3P %+g units, so it is applied %s", pe, pe - m,
                 (got - 3 * P) / u,
                 after    ? "to the rounded sum"
                 : before ? "to each product before the sum"
                          : "neither to the sum nor to each product");
        snprintf(f->declared, sizeof f->declared, "the ABI's formula does not say (a finding only)");
    }
    probe_ctx_done(o, c);
}

void probe_fp8(probe_ctx *x, const probe_format *a, const probe_format *b)
{
    decoding(x, a, b);
    specials(x, a, b);
    scales(x, a, b);
}
