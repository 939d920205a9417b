/* Whether a product reaches the running sum unrounded (fused) or rounded
 * to the sum's precision first. Observable only where the product of two
 * inputs needs more bits than the sum keeps. */
#include <math.h>
#include <stdio.h>

#include "probe_finding.h"

void probe_products(probe_ctx *x)
{
    if (!x->fmt->is_float || x->acc_bits < 1 || x->input_bits < 1) return;
    const int m = x->acc_bits, t = (m + 3) / 2; /* 2t >= m + 2: 1 - 2^-2t rounds to 1 in m bits */
    if (t > x->input_bits || t > x->fmt->mantissa) {
        probe_finding *f = probe_finding_add(x->out, "products");
        snprintf(f->verdict, sizeof f->verdict, "not-observable");
        snprintf(f->text, sizeof f->text,
                 "not observable: a product of two %d-bit inputs is exact in the %d-bit sum, so fused and rounded "
                 "products agree",
                 x->input_bits, m);
        return;
    }
    probe_case *c = probe_case_fused(x->fmt, t);
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, "products", c, &o);
    if (!f) return;
    const double fused = -ldexp(1.0, -2 * t), first = o->c[0], last = o->c[3];
    probe_finding_evidence(f, 0, 0, first, fused);
    probe_finding_evidence(f, 1, 1, last, fused);
    if (first == fused || last == fused) {
        snprintf(f->verdict, sizeof f->verdict, "fused");
        snprintf(f->text, sizeof f->text, "fused: the product (1 + 2^-%d)(1 - 2^-%d) reaches the sum unrounded%s", t, t,
                 first == fused && last == fused ? ""
                 : first == fused                ? " (seen with -1 first)"
                                                 : " (seen with -1 last)");
    } else if (first == 0 && last == 0) {
        snprintf(f->verdict, sizeof f->verdict, "rounded");
        snprintf(f->text, sizeof f->text, "rounded: each product is rounded to the sum's %d bits before it is added",
                 m);
    } else {
        snprintf(f->verdict, sizeof f->verdict, "other");
        snprintf(f->text, sizeof f->text, "neither: -1 + (1 + 2^-%d)(1 - 2^-%d) came back as %g and %g", t, t, first,
                 last);
    }
    probe_ctx_done(o, c);
}
