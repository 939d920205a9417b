/* Subnormal numbers: inputs kept or flushed to zero before the multiply,
 * results kept or flushed when C is written. IEEE keeps both. */
#include <stdio.h>
#include <string.h>

#include "probe_finding.h"

static const char *IEEE_SUBNORMALS = "IEEE arithmetic: subnormals kept";

/* Inputs declared in a narrower range (bf16 read as f16) lose these cases'
 * values as declared: nothing to hold the kernel to. */
static int comparable(probe_ctx *x, probe_finding *f)
{
    if (strcmp(probe_declared_range(&x->decl, x->fmt), "full") == 0) {
        snprintf(f->declared, sizeof f->declared, "%s", IEEE_SUBNORMALS);
        return 1;
    }
    snprintf(f->declared, sizeof f->declared, "%s: the case's values are outside their range", x->decl.inputs_text);
    return 0;
}

/* C[0][0] = sub * 64 (sub in A) and C[1][1] = 64 * sub (sub in B): each
 * sub * 64 when the input was kept. Returns whether both were. */
static int inputs_kept(probe_finding *f, const double *c, double sub)
{
    const double want = sub * 64.0, in_a = c[0], in_b = c[3];
    probe_finding_evidence(f, 0, 0, in_a, want);
    probe_finding_evidence(f, 1, 1, in_b, want);
    const char *v = in_a == want && in_b == want ? "kept"
                    : in_a == 0 && in_b == 0     ? "flushed"
                    : in_a == 0 || in_b == 0     ? "flushed-partly"
                                                 : "other";
    snprintf(f->verdict, sizeof f->verdict, "%s", v);
    snprintf(f->text, sizeof f->text, "subnormal inputs (%g) %s: sub * 64 came back as %g (from A) and %g (from B)",
             sub, in_a == want && in_b == want ? "are kept" : "are not kept", in_a, in_b);
    return in_a == want && in_b == want;
}

/* A subnormal result `want` at C's (0, 0). Returns whether it was kept. */
static int result_kept(probe_finding *f, const double *c, double want)
{
    const double got = c[0];
    probe_finding_evidence(f, 0, 0, got, want);
    snprintf(f->verdict, sizeof f->verdict, "%s", got == want ? "kept" : got == 0 ? "flushed" : "other");
    snprintf(f->text, sizeof f->text, "a subnormal result (%g) %s", want,
             got == want ? "is kept"
             : got == 0  ? "is flushed to zero"
                         : "comes back as another value");
    return got == want;
}

/* Runs case c (taken) and judges it: a mismatch where the declaration holds
 * the kernel to IEEE and the subnormal was not kept. */
static void judge(probe_ctx *x, const char *property, probe_case *c, double value,
                  int (*kept)(probe_finding *f, const double *c, double value))
{
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, property, c, &o);
    if (!f) return;
    const int ok = kept(f, o->c, value);
    f->mismatch = comparable(x, f) && !ok;
    probe_ctx_done(o, c);
}

void probe_subnormals(probe_ctx *x)
{
    if (!x->fmt->is_float) return;
    double sub, want;
    probe_case *c = probe_case_subnormal_inputs(x->fmt, &sub);
    judge(x, "subnormal_inputs", c, sub, inputs_kept);
    c = probe_case_subnormal_results(x->fmt, &want);
    judge(x, "subnormal_results", c, want, result_kept);
}
