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

static void inputs(probe_ctx *x)
{
    double sub;
    probe_case *c = probe_case_subnormal_inputs(x->fmt, &sub);
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, "subnormal_inputs", c, &o);
    if (!f) return;
    const double want = sub * 64.0, in_a = o->c[0], in_b = o->c[3];
    probe_finding_evidence(f, 0, 0, in_a, want);
    probe_finding_evidence(f, 1, 1, in_b, want);
    const char *v = in_a == want && in_b == want ? "kept"
                    : in_a == 0 && in_b == 0     ? "flushed"
                    : in_a == 0 || in_b == 0     ? "flushed-partly"
                                                 : "other";
    snprintf(f->verdict, sizeof f->verdict, "%s", v);
    snprintf(f->text, sizeof f->text, "subnormal inputs (%g) %s: sub * 64 came back as %g (from A) and %g (from B)",
             sub, in_a == want && in_b == want ? "are kept" : "are not kept", in_a, in_b);
    f->mismatch = comparable(x, f) && !(in_a == want && in_b == want);
    probe_ctx_done(o, c);
}

static void results(probe_ctx *x)
{
    double want;
    probe_case *c = probe_case_subnormal_results(x->fmt, &want);
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, "subnormal_results", c, &o);
    if (!f) return;
    const double got = o->c[0];
    probe_finding_evidence(f, 0, 0, got, want);
    snprintf(f->verdict, sizeof f->verdict, "%s", got == want ? "kept" : got == 0 ? "flushed" : "other");
    snprintf(f->text, sizeof f->text, "a subnormal result (%g) %s", want,
             got == want ? "is kept"
             : got == 0  ? "is flushed to zero"
                         : "comes back as another value");
    f->mismatch = comparable(x, f) && got != want;
    probe_ctx_done(o, c);
}

void probe_subnormals(probe_ctx *x)
{
    if (!x->fmt->is_float) return;
    inputs(x);
    results(x);
}
