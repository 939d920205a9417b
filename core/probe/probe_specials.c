/* NaN and infinity: a NaN or inf in A (B) fills its row (column) of C and
 * nothing else; inf * 0 and inf - inf are NaN; a sum past the largest
 * finite value is inf. What IEEE gives; a kernel that takes a max, skips a
 * NaN or saturates shows here. */
#include <math.h>
#include <stdio.h>

#include "probe_finding.h"

static const char *IEEE_SPECIALS = "IEEE arithmetic";

/* One special value at (1, 1) of A or B in a 3 x 3 x 3 of ones. */
static void one_special(probe_ctx *x, int in_b, double value)
{
    probe_special_case(x, probe_case_special_in(x->fmt, in_b, value), in_b, value);
}

void probe_special_case(probe_ctx *x, probe_case *c, int in_b, double value)
{
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, c->name, c, &o);
    if (!f) return;
    const double line_value = isnan(value) ? NAN : value; /* inf * 1 + 1 + 1 */
    int line_ok = 0, others_ok = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const double got = o->c[i * 3 + j];
            const int in_line = in_b ? j == 1 : i == 1;
            const double want = in_line ? line_value : 3.0;
            if (probe_same(got, want)) {
                if (in_line) line_ok++;
                else others_ok++;
            } else {
                probe_finding_evidence(f, i, j, got, want);
            }
        }
    const char *line = in_b ? "column" : "row";
    const char *what = isnan(value) ? "NaN" : value > 0 ? "inf" : "-inf";
    if (line_ok == 3 && others_ok == 6) {
        snprintf(f->verdict, sizeof f->verdict, "propagates");
        snprintf(f->text, sizeof f->text, "%s in %s fills its %s of C and stays there", what, in_b ? "B" : "A", line);
        probe_finding_evidence(f, 1, 1, o->c[4], line_value);
    } else if (line_ok == 0 && others_ok == 6) {
        snprintf(f->verdict, sizeof f->verdict, "dropped");
        snprintf(f->text, sizeof f->text, "%s in %s is dropped: its %s of C holds %g, not %s", what, in_b ? "B" : "A",
                 line, o->c[4], what);
    } else {
        snprintf(f->verdict, sizeof f->verdict, others_ok < 6 ? "spreads" : "partly");
        snprintf(f->text, sizeof f->text, "%s in %s: %d of its %s's 3 elements are %s, %d of the 6 others are 3", what,
                 in_b ? "B" : "A", line_ok, line, what, others_ok);
    }
    snprintf(f->declared, sizeof f->declared, "%s", IEEE_SPECIALS);
    f->mismatch = !(line_ok == 3 && others_ok == 6);
    probe_ctx_done(o, c);
}

static void value_finding(probe_ctx *x, const probe_case *c, const double *out, const char *property, int i, int j,
                          double want, const char *sentence)
{
    probe_finding *f = probe_finding_add(x->out, property);
    probe_finding_case(f, c);
    const double got = out[i * c->n + j];
    probe_finding_evidence(f, i, j, got, want);
    snprintf(f->verdict, sizeof f->verdict, "%s",
             isnan(got)           ? "nan"
             : isinf(got)         ? (got > 0 ? "inf" : "-inf")
             : got == x->fmt->max ? "max"
                                  : "finite");
    char shown[32];
    if (isnan(got)) snprintf(shown, sizeof shown, "NaN");
    else snprintf(shown, sizeof shown, "%g", got);
    snprintf(f->text, sizeof f->text, "%s gives %s%s", sentence, shown, probe_same(got, want) ? "" : " (IEEE: other)");
    snprintf(f->declared, sizeof f->declared, "%s", IEEE_SPECIALS);
    f->mismatch = !probe_same(got, want);
}

void probe_specials(probe_ctx *x)
{
    if (!x->fmt->is_float) return;
    one_special(x, 0, NAN);
    one_special(x, 1, NAN);
    one_special(x, 0, INFINITY);
    one_special(x, 1, -INFINITY);
    probe_case *c = probe_case_inf_arith(x->fmt);
    probe_outcome *o = probe_ctx_run(x, "inf_times_zero", c);
    if (o) {
        value_finding(x, c, o->c, "inf_times_zero", 0, 0, NAN, "inf * 0 (+ 0 * 1)");
        value_finding(x, c, o->c, "inf_minus_inf", 1, 1, NAN, "inf * 1 + (-inf) * 1");
    }
    probe_ctx_done(o, c);
    c = probe_case_overflow(x->fmt);
    o = probe_ctx_run(x, "overflow", c);
    if (o) {
        value_finding(x, c, o->c, "overflow", 0, 0, INFINITY, "max + max");
        probe_finding *f = &x->out->items[x->out->n - 1];
        probe_finding_evidence(f, 1, 0, o->c[1], -INFINITY);
        if (!probe_same(o->c[1], -INFINITY)) f->mismatch = 1;
    }
    probe_ctx_done(o, c);
}
