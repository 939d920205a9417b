/* The running sum of an 8-bit combination (e4m3 or e5m2 A and B into f32,
 * f16 or bf16 C): the bits it keeps and whether, and how often, a narrow
 * sum is promoted into a full one (Hopper's FP8 tensor cores keep about 13
 * or 14 bits unless promoted). The cases spread the gap below big over A
 * and B, so every input stays a normal 8-bit power of two. */
#include <math.h>
#include <stdio.h>

#include "probe_finding.h"

#define PROMOTION_K 256 /* past cuBLASLt's FP8 period of 128 (and DeepGEMM's) */

static void promotion_8bit(probe_ctx *x, const probe_format *in, gh_dtype a_dtype, gh_dtype b_dtype, int m)
{
    double big, s;
    probe_case *c = probe_case_promotion_8bit(in, x->fmt, m, PROMOTION_K, &big, &s);
    if (!c) return;
    c->dtype = a_dtype; /* powers of two in `in`'s range: exact in the wider one too */
    c->b_dtype = b_dtype;
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, "acc_promotion", c, &o);
    if (!f) return;
    int regular;
    probe_promotion_finding(x, f, o->c, PROMOTION_K, m, big, s, x->decl.promote_every > 0, &regular);
    probe_ctx_done(o, c);
}

void probe_accumulator_8bit(probe_ctx *x, const probe_format *in, gh_dtype a_dtype, gh_dtype b_dtype)
{
    int e, max_i, max_j;
    probe_case *c = probe_case_acc_bits_8bit(in, x->fmt, &e, &max_i, &max_j);
    c->dtype = a_dtype;
    c->b_dtype = b_dtype;
    probe_outcome *o = probe_ctx_run(x, "accumulator", c);
    if (!o) return probe_ctx_done(o, c);
    /* gap g = e + i + j is kept when every cell with that gap came back */
    const int max_g = e + max_i + max_j;
    int m = max_g;
    for (int g = e; g <= max_g && m == max_g; g++)
        for (int i = 0; i <= max_i; i++) {
            const int j = g - e - i;
            if (j < 0 || j > max_j) continue;
            const double want = ldexp(1.0, 2 * e - g);
            if (o->c[(2 * i) * c->n + j] != want || o->c[(2 * i + 1) * c->n + j] != -want) {
                m = g - 1;
                break;
            }
        }
    probe_finding *f = probe_finding_add(x->out, "accumulator");
    probe_finding_case(f, c);
    f->bits = m;
    snprintf(f->verdict, sizeof f->verdict, "%s", m < e ? "below-case" : "measured");
    if (m < e)
        snprintf(f->text, sizeof f->text, "the running sum keeps fewer than %d bits (the least the case sees)", e);
    else if (m >= max_g) snprintf(f->text, sizeof f->text, "the running sum keeps at least %d bits", max_g);
    else snprintf(f->text, sizeof f->text, "the running sum keeps %d bits", m);
    snprintf(f->declared, sizeof f->declared, "%s", x->decl.acc_text);
    f->mismatch = m < max_g ? m != x->decl.acc_bits : x->decl.acc_bits < max_g;
    x->acc_bits = m;
    probe_ctx_done(o, c);
    if (m >= e && m + 7 <= x->fmt->mantissa) promotion_8bit(x, in, a_dtype, b_dtype, m);
}
