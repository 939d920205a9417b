/* The order over K and whether repeated runs agree: the order case run
 * several times, the count of u each row kept read as the order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_finding.h"
#include "util.h"

/* What each order keeps of row r's u: sequential from k = 0 keeps those
 * after the later big, from k = K-1 those before the earlier one. */
static int forward_kept(int r)
{
    int i, j;
    probe_order_pair(r, &i, &j);
    return PROBE_ORDER_K - 1 - (i > j ? i : j);
}

static int backward_kept(int r)
{
    int i, j;
    probe_order_pair(r, &i, &j);
    return i < j ? i : j;
}

static void order_finding(probe_ctx *x, const probe_case *c, const double *out, double u, int varies)
{
    probe_finding *f = probe_finding_add(x->out, "order");
    probe_finding_case(f, c);
    int kept[PROBE_ORDER_ROWS], fwd = 1, bwd = 1, exact = 1;
    for (int r = 0; r < PROBE_ORDER_ROWS; r++) {
        kept[r] = (int)lround(out[r] / u);
        fwd &= kept[r] == forward_kept(r);
        bwd &= kept[r] == backward_kept(r);
        exact &= kept[r] == PROBE_ORDER_K - 2;
    }
    for (int r = 0; r < 3; r++) probe_finding_evidence(f, r, 0, out[r], forward_kept(r) * u);
    const char *v = varies ? "varies" : fwd ? "sequential" : bwd ? "sequential-reverse" : exact ? "exact" : "other";
    snprintf(f->verdict, sizeof f->verdict, "%s", v);
    int at = snprintf(f->text, sizeof f->text, "%s",
                      varies  ? "the order over K changes from run to run; the first run kept"
                      : fwd   ? "sequential over K, k = 0 first: kept"
                      : bwd   ? "sequential over K, k = K-1 first: kept"
                      : exact ? "every u kept (the sum is wider than the big of the case): kept"
                              : "another order (blocked, pairwise or split over K): kept");
    for (int r = 0; r < PROBE_ORDER_ROWS; r++)
        at += snprintf(f->text + at, sizeof f->text - (size_t)at, " %d", kept[r]);
    at += snprintf(f->text + at, sizeof f->text - (size_t)at, " u per row (k = 0 first keeps");
    for (int r = 0; r < PROBE_ORDER_ROWS; r++)
        at += snprintf(f->text + at, sizeof f->text - (size_t)at, " %d", forward_kept(r));
    snprintf(f->text + at, sizeof f->text - (size_t)at, ")");
}

void probe_order(probe_ctx *x)
{
    if (!x->fmt->is_float || x->acc_bits < 1) return;
    double u;
    probe_case *c = probe_case_order(x->fmt, x->acc_bits, &u);
    if (!c) {
        probe_finding *f = probe_finding_add(x->out, "order");
        snprintf(f->verdict, sizeof f->verdict, "not-measured");
        snprintf(f->text, sizeof f->text, "not measured: %s cannot hold a value 2^%d times another", "the format",
                 x->acc_bits + 6);
        return;
    }
    const int runs = x->repeats > 1 ? x->repeats : 2;
    double *first = NULL;
    int differ_run = 0;
    int64_t differ_at = -1;
    double differ_got = 0;
    const int64_t n = c->m * c->n;
    for (int run = 0; run < runs; run++) {
        probe_outcome *o = probe_ctx_run(x, "order", c);
        if (!o) break;
        if (!first) {
            first = gh_xcalloc((size_t)n, sizeof *first);
            memcpy(first, o->c, (size_t)n * sizeof *first);
        } else if (!differ_run) {
            for (int64_t e = 0; e < n; e++)
                if (memcmp(&first[e], &o->c[e], sizeof *first) != 0) {
                    differ_run = run + 1;
                    differ_at = e;
                    differ_got = o->c[e];
                    break;
                }
        }
        probe_outcome_free(o);
        free(o);
    }
    if (first) {
        order_finding(x, c, first, u, differ_run != 0);
        probe_finding *f = probe_finding_add(x->out, "repeats");
        probe_finding_case(f, c);
        snprintf(f->declared, sizeof f->declared, "repeated runs bit-identical");
        if (differ_run) {
            snprintf(f->verdict, sizeof f->verdict, "differ");
            snprintf(f->text, sizeof f->text, "repeated runs differ: run %d's C[%lld][0] is %g, run 1's %g", differ_run,
                     (long long)differ_at, differ_got, first[differ_at]);
            probe_finding_evidence(f, differ_at, 0, differ_got, first[differ_at]);
            f->mismatch = 1;
        } else {
            snprintf(f->verdict, sizeof f->verdict, "identical");
            snprintf(f->text, sizeof f->text, "%d runs of the order case are bit-identical", runs);
        }
    }
    free(first);
    probe_case_free(c);
}
