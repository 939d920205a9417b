/* How A and B reach the multiplier: the bits they keep and how they are
 * rounded to them. A single product (K = 1) comes back through the running
 * sum, so only bits the sum keeps can be seen (probe_accumulator runs
 * first). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe_finding.h"

/* The largest t with every 1 + 2^-t' (t' <= t) back unchanged. */
static int bits_kept(const probe_outcome *o, const probe_case *c, int column)
{
    const int p = (int)c->m - 1;
    for (int t = 1; t <= p; t++) {
        const double got = column ? o->c[t * c->n] : o->c[t];
        if (got != 1.0 + ldexp(1.0, -t)) return t - 1;
    }
    return p;
}

/* Where 1 + 3/4, -(1 + 3/4), 1 + 1/2 and 1 + 1/4 of a t-bit unit land. */
static const char *rounding(probe_ctx *x, int t, probe_finding *f)
{
    probe_case *c = probe_case_input_mode(x->fmt, t);
    probe_outcome *o = probe_ctx_run(x, "input_rounding", c);
    const char *mode = "unknown";
    if (o) {
        const double up = 1.0 + ldexp(1.0, -t);
        const int r0_up = o->c[0] == up, r0_down = o->c[0] == 1.0;
        const int r1_away = o->c[1] == -up, r1_zero = o->c[1] == -1.0;
        const int r2_even = o->c[2] == 1.0, r2_away = o->c[2] == up, r3_down = o->c[3] == 1.0, r3_up = o->c[3] == up;
        if (r0_up && r1_away && r3_down) mode = r2_even ? "nearest-even" : r2_away ? "nearest-away" : "nearest";
        else if (r0_down && r1_zero && r3_down && r2_even) mode = "toward-zero";
        else if (r0_down && r1_away && r3_down) mode = "toward-minus-inf";
        else if (r0_up && r1_zero && r3_up) mode = "toward-plus-inf";
        else mode = "other";
        probe_finding_evidence(f, 0, 0, o->c[0], up);
        probe_finding_evidence(f, 1, 0, o->c[1], -up);
        probe_finding_case(f, c);
    }
    probe_ctx_done(o, c);
    return mode;
}

/* Only where the storage type reaches past f16's range (f32, bf16, f64). */
static void input_range(probe_ctx *x)
{
    if (x->fmt->emax <= 15) return;
    probe_case *c = probe_case_input_range(x->fmt);
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, "input_range", c, &o);
    if (!f) return;
    int kept = 1;
    for (int64_t r = 0; r < c->m; r++) {
        const int ok = o->c[r] == PROBE_A(c, r, 0);
        if (!ok) probe_finding_evidence(f, r, 0, o->c[r], PROBE_A(c, r, 0));
        kept &= ok;
    }
    const int f16_lost = o->c[0] != PROBE_A(c, 0, 0) && o->c[1] != PROBE_A(c, 1, 0);
    const int f32_lost = c->m > 2 && o->c[0] == PROBE_A(c, 0, 0) && o->c[1] == PROBE_A(c, 1, 0) &&
                         o->c[2] != PROBE_A(c, 2, 0) && o->c[3] != PROBE_A(c, 3, 0);
    const char *v = kept ? "full" : f16_lost ? "f16-range" : f32_lost ? "f32-range" : "other";
    snprintf(f->verdict, sizeof f->verdict, "%s", v);
    snprintf(f->text, sizeof f->text, "%s",
             kept       ? "inputs keep the storage type's exponent range (2^17, 2^-26 and beyond come back)"
             : f16_lost ? "inputs pass through f16's exponent range: 2^17 and 2^-26 do not come back"
             : f32_lost ? "inputs pass through f32's exponent range: 2^200 and 2^-200 do not come back"
                        : "some inputs outside f16's range do not come back");
    const char *want = probe_declared_range(&x->decl, x->fmt);
    snprintf(f->declared, sizeof f->declared, "%s, %s exponent range", x->decl.inputs_text,
             !strcmp(want, "full")        ? "the type's"
             : !strcmp(want, "f16-range") ? "f16's"
                                          : "f32's");
    f->mismatch = strcmp(v, want) != 0;
    probe_ctx_done(o, c);
}

void probe_inputs(probe_ctx *x)
{
    if (x->fmt->is_float) input_range(x);
    const probe_format *fmt = x->fmt;
    x->input_bits = -1;
    if (!fmt->is_float) return;
    probe_case *c = probe_case_input_bits(fmt);
    probe_outcome *o = probe_ctx_run(x, "input_rounding", c);
    if (!o) return probe_ctx_done(o, c);
    const int p = fmt->mantissa;
    const int ta = bits_kept(o, c, 1), tb = bits_kept(o, c, 0), t = ta < tb ? ta : tb;
    /* what a single product can show: the sum's bits, when fewer than p */
    const int seen = x->acc_bits >= 0 && x->acc_bits < p ? x->acc_bits : p;
    probe_finding *f = probe_finding_add(x->out, "input_rounding");
    probe_finding_case(f, c);
    if (t < p)
        probe_finding_evidence(f, ta < tb ? ta + 1 : 0, ta < tb ? 0 : tb + 1, o->c[ta < tb ? (ta + 1) * c->n : tb + 1],
                               1.0 + ldexp(1.0, -(t + 1)));
    probe_ctx_done(o, c);
    snprintf(f->declared, sizeof f->declared, "%s", x->decl.inputs_text);
    const probe_declared *d = &x->decl;
    if (t >= p) {
        f->bits = p;
        x->input_bits = p;
        snprintf(f->verdict, sizeof f->verdict, "exact");
        snprintf(f->text, sizeof f->text, "exact: all %d bits of A and B reach the multiplier", p);
        f->mismatch = d->input_bits != p;
        return;
    }
    if (t >= seen) {
        f->bits = t;
        x->input_bits = t;
        snprintf(f->verdict, sizeof f->verdict, "hidden");
        snprintf(f->text, sizeof f->text,
                 "at least %d bits: the running sum keeps only %d, so finer input rounding cannot be seen", t, seen);
        f->mismatch = d->input_bits < t;
        return;
    }
    f->bits = t;
    x->input_bits = t;
    const char *mode = t + 2 <= p ? rounding(x, t, f) : "unknown";
    snprintf(f->verdict, sizeof f->verdict, "%s", mode);
    int at = snprintf(f->text, sizeof f->text, "inputs keep %d bits, rounded %s", t, mode);
    if (ta != tb) snprintf(f->text + at, sizeof f->text - (size_t)at, " (A keeps %d, B %d)", ta, tb);
    const char *want = d->input_truncates ? "toward-zero" : "nearest-even";
    f->mismatch = t != d->input_bits || strcmp(mode, want) != 0;
}
