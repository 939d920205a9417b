/* The running sum: how many bits it keeps, how it rounds, and whether a
 * narrow sum is promoted into a full one every few steps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe_finding.h"

#define PROMOTION_K 32 /* rows r = 0..31: a step anywhere up to 31 shows */

/* The sum's rounding: (big, 5/8 unit, -big) and (-big, 5/8 unit, big); the
 * finding keeps acc_bits' case and elements, the mode is in its words. */
static const char *acc_mode(probe_ctx *x, int m)
{
    probe_case *c = probe_case_acc_mode(x->fmt, m);
    probe_outcome *o = probe_ctx_run(x, "accumulator", c);
    const char *mode = "unknown";
    if (o) {
        const double unit = ldexp(probe_acc_big(x->fmt), -m), r0 = o->c[0], r1 = o->c[1];
        if ((r0 == unit && r1 == unit / 2) || (r0 == unit / 2 && r1 == unit)) mode = "nearest";
        else if ((r0 == 0 && r1 == unit) || (r0 == unit && r1 == 0)) mode = "toward-zero";
        else mode = "other";
    }
    probe_ctx_done(o, c);
    return mode;
}

/* Row r holds big plus the copies of s the sum kept: the first row that
 * kept one (-1: none), and *regular: each row from it on keeps one more. */
static int promotion_rows(const double *c, int k, double big, double s, int *regular)
{
    int first = -1;
    *regular = 1;
    for (int r = 0; r < k && first < 0; r++)
        if (lround((c[r] - big) / s) > 0) first = r;
    for (int r = 0; r < k && first > 0; r++)
        if (lround((c[r] - big) / s) != (r < first ? 0 : r - first + 1)) *regular = 0;
    return first;
}

int probe_promotion_finding(probe_ctx *x, probe_finding *f, const double *c, int k, int m, double big, double s,
                            int declares_period, int *regular)
{
    const int first = promotion_rows(c, k, big, s, regular);
    if (first < 0) {
        snprintf(f->verdict, sizeof f->verdict, "none");
        snprintf(f->text, sizeof f->text, "no promotion within K = %d: the %d-bit sum runs over the whole K", k, m);
    } else if (*regular) {
        snprintf(f->verdict, sizeof f->verdict, "every");
        f->every = first;
        snprintf(f->text, sizeof f->text, "the %d-bit sum is promoted every %d steps over K", m, first);
        probe_finding_evidence(f, first - 1, 0, c[first - 1], big);
        probe_finding_evidence(f, first, 0, c[first], big + s);
    } else {
        snprintf(f->verdict, sizeof f->verdict, "irregular");
        snprintf(f->text, sizeof f->text, "the products kept per row do not step once (first kept at r = %d)", first);
    }
    if (declares_period) {
        snprintf(f->declared, sizeof f->declared, "promoted every %d", x->decl.promote_every);
        f->mismatch = f->every != x->decl.promote_every;
    } else if (x->decl.acc_bits < x->fmt->mantissa) {
        snprintf(f->declared, sizeof f->declared, "no promotion");
        f->mismatch = first >= 0;
    }
    return first;
}

/* Row r holds big and r copies of s: how many copies the sum kept. */
static void promotion(probe_ctx *x, int m)
{
    double s;
    probe_case *c = probe_case_promotion(x->fmt, m, PROMOTION_K, &s);
    probe_outcome *o;
    probe_finding *f = probe_ctx_finding(x, "acc_promotion", c, &o);
    if (!f) return;
    const double big = probe_acc_big(x->fmt);
    /* only a narrow sum declares a period here */
    const int narrow = x->decl.acc_bits < x->fmt->mantissa;
    int regular;
    const int first =
        probe_promotion_finding(x, f, o->c, PROMOTION_K, m, big, s, narrow && x->decl.promote_every > 0, &regular);
    /* K = 32 rows: the finding can show more than the 8-bit one's */
    if (first < 0) {
        probe_finding_evidence(f, PROMOTION_K - 1, 0, o->c[PROMOTION_K - 1], big);
    } else if (regular) {
        const size_t at = strlen(f->text);
        snprintf(f->text + at, sizeof f->text - at, " (the copies of s after the first %d are kept)", first);
    } else {
        int at = snprintf(f->text, sizeof f->text, "kept copies per row r = 0..%d do not step once:", PROMOTION_K - 1);
        for (int r = 0; r < PROMOTION_K && at < (int)sizeof f->text - 8; r++)
            at += snprintf(f->text + at, sizeof f->text - (size_t)at, " %ld", lround((o->c[r] - big) / s));
    }
    probe_ctx_done(o, c);
}

void probe_accumulator(probe_ctx *x)
{
    const probe_format *fmt = x->fmt;
    x->acc_bits = -1;
    if (!fmt->is_float) return;
    probe_case *c = probe_case_acc_bits(fmt);
    probe_outcome *o = probe_ctx_run(x, "accumulator", c);
    if (!o) return probe_ctx_done(o, c);
    const int J = probe_acc_max_j(fmt);
    const double big = probe_acc_big(fmt);
    int m = J;
    for (int j = 1; j <= J; j++)
        if (o->c[2 * (j - 1)] != ldexp(big, -j) || o->c[2 * (j - 1) + 1] != -ldexp(big, -j)) {
            m = j - 1;
            break;
        }
    probe_finding *f = probe_finding_add(x->out, "accumulator");
    probe_finding_case(f, c);
    f->bits = m;
    if (m >= 1) probe_finding_evidence(f, 2 * (m - 1), 0, o->c[2 * (m - 1)], ldexp(big, -m));
    if (m < J) {
        probe_finding_evidence(f, 2 * m, 0, o->c[2 * m], ldexp(big, -(m + 1)));
        probe_finding_evidence(f, 2 * m + 1, 0, o->c[2 * m + 1], -ldexp(big, -(m + 1)));
    }
    x->acc_bits = m;
    const char *mode = m + 3 <= J && m >= 1 ? acc_mode(x, m) : "unknown";
    snprintf(f->verdict, sizeof f->verdict, "%s", mode);
    if (m >= J) snprintf(f->text, sizeof f->text, "the running sum keeps at least %d bits (all the case can see)", J);
    else snprintf(f->text, sizeof f->text, "the running sum keeps %d bits, rounding %s", m, mode);
    snprintf(f->declared, sizeof f->declared, "%s", x->decl.acc_text);
    f->mismatch = m < J ? m != x->decl.acc_bits : x->decl.acc_bits < J;
    probe_ctx_done(o, c);
    /* a promotion step shows only where C holds big plus 31 copies of s */
    if (m >= 1 && m + 2 + 5 <= fmt->mantissa) promotion(x, m);
}
