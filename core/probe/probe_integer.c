/* i32: sums past int32's range wrap (two's complement) or saturate, and
 * whether 2^24 + 1 survives (an f32 path loses it). */
#include <math.h>
#include <stdio.h>

#include "probe_finding.h"

void probe_integer(probe_ctx *x)
{
    if (x->fmt->dtype != GH_I32) return;
    probe_case *c = probe_case_int();
    probe_outcome *o = probe_ctx_run(x, "int_overflow", c);
    if (!o) return probe_ctx_done(o, c);
    const double t31 = ldexp(1.0, 31), hi = t31 - 1, lo = -t31;
    const double up = o->c[0 * 2 + 0], down = o->c[1 * 2 + 0], prod = o->c[2 * 2 + 1], back = o->c[4 * 2 + 0];
    const int wraps = up == lo && down == hi && prod == 0 && back == ldexp(1.0, 30);
    const int saturates = up == hi && down == lo && prod == hi;
    probe_finding *f = probe_finding_add(x->out, "int_overflow");
    probe_finding_case(f, c);
    probe_finding_evidence(f, 0, 0, up, lo);
    probe_finding_evidence(f, 1, 0, down, hi);
    probe_finding_evidence(f, 2, 1, prod, 0);
    probe_finding_evidence(f, 4, 0, back, ldexp(1.0, 30));
    snprintf(f->verdict, sizeof f->verdict, "%s", wraps ? "wraps" : saturates ? "saturates" : "other");
    snprintf(f->text, sizeof f->text,
             "%s: 2^30 + 2^30 = %.0f, -2^30 - 2^30 - 1 = %.0f, 2^16 * 2^16 = %.0f, 2^30 + 2^30 - 2^30 = %.0f",
             wraps       ? "wraps around (two's complement)"
             : saturates ? "saturates"
                         : "neither wraps nor saturates",
             up, down, prod, back);
    probe_finding *e = probe_finding_add(x->out, "int_exact");
    probe_finding_case(e, c);
    const double big = o->c[3 * 2 + 0];
    probe_finding_evidence(e, 3, 0, big, 16777217.0);
    snprintf(e->verdict, sizeof e->verdict, "%s", big == 16777217.0 ? "exact" : "rounded");
    snprintf(e->text, sizeof e->text, "2^24 + 1 comes back as %.0f%s", big,
             big == 16777217.0 ? " (exact)" : " (rounded: not integer arithmetic)");
    snprintf(e->declared, sizeof e->declared, "%s", x->decl.acc_text);
    e->mismatch = big != 16777217.0;
    probe_ctx_done(o, c);
}

void probe_integer_i8(probe_ctx *x)
{
    probe_case *c = probe_case_int8();
    probe_outcome *o = probe_ctx_run(x, "int_overflow", c);
    if (!o) return probe_ctx_done(o, c);
    const double t31 = ldexp(1.0, 31), over = t31 + ldexp(1.0, 24), wrapped = over - ldexp(1.0, 32);
    const double got = o->c[0], exact = ldexp(1.0, 24) + 1, small = o->c[3];
    probe_finding *f = probe_finding_add(x->out, "int_overflow");
    probe_finding_case(f, c);
    probe_finding_evidence(f, 0, 0, got, wrapped);
    const int wraps = got == wrapped, saturates = got == t31 - 1;
    snprintf(f->verdict, sizeof f->verdict, "%s", wraps ? "wraps" : saturates ? "saturates" : "other");
    snprintf(f->text, sizeof f->text, "a sum of %d products (-128)(-128) = 2^31 + 2^24 %s: %.0f", PROBE_I8_K,
             wraps       ? "wraps around (two's complement)"
             : saturates ? "saturates"
                         : "neither wraps nor saturates",
             got);
    /* the ABI has no word for it: a finding, not a mismatch */
    snprintf(f->declared, sizeof f->declared, "not declared (the ABI has no word for overflow)");
    probe_finding *e = probe_finding_add(x->out, "int_exact");
    probe_finding_case(e, c);
    probe_finding_evidence(e, 1, 1, small, exact);
    snprintf(e->verdict, sizeof e->verdict, "%s", small == exact ? "exact" : "rounded");
    snprintf(e->text, sizeof e->text, "1024 products (-128)(-128) and 1 * 1 come back as %.0f%s", small,
             small == exact ? " (exact)" : " (rounded: not integer arithmetic)");
    snprintf(e->declared, sizeof e->declared, "%s", x->decl.acc_text);
    e->mismatch = small != exact;
    probe_ctx_done(o, c);
}
