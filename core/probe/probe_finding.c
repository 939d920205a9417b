/* Findings and the case runner the analyses share; see probe_finding.h. */
#include "probe_finding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

probe_finding *probe_finding_add(probe_findings *fs, const char *property)
{
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 16;
        fs->items = gh_xrealloc(fs->items, fs->cap * sizeof *fs->items);
    }
    probe_finding *f = &fs->items[fs->n++];
    memset(f, 0, sizeof *f);
    snprintf(f->property, sizeof f->property, "%s", property);
    f->bits = f->every = -1;
    return f;
}

void probe_finding_evidence(probe_finding *f, int64_t i, int64_t j, double got, double expected)
{
    if (f->n_ev < PROBE_MAX_EVIDENCE) f->ev[f->n_ev++] = (probe_evidence){i, j, got, expected};
}

void probe_findings_free(probe_findings *fs)
{
    for (size_t i = 0; i < fs->n; i++) probe_case_free(fs->items[i].c);
    free(fs->items);
    memset(fs, 0, sizeof *fs);
}

void probe_finding_case(probe_finding *f, const probe_case *c)
{
    probe_case_free(f->c);
    f->c = probe_case_new(c->name, c->dtype, c->m, c->n, c->k, c->why);
    f->c->b_dtype = c->b_dtype;
    f->c->c_dtype = c->c_dtype;
    f->c->scale_a = c->scale_a;
    f->c->scale_b = c->scale_b;
    f->c->scale_c = c->scale_c;
    memcpy(f->c->a, c->a, (size_t)(c->m * c->k) * sizeof *c->a);
    memcpy(f->c->b, c->b, (size_t)(c->k * c->n) * sizeof *c->b);
}

probe_outcome *probe_ctx_run(probe_ctx *x, const char *property, const probe_case *c)
{
    probe_outcome *o = gh_xcalloc(1, sizeof *o);
    probe_exec(x->target, c, x->kmajor, o);
    if (o->kind == PROBE_UNSUPPORTED && !x->kmajor) {
        /* refused the layout rather than the arithmetic? (wgmma's FP8 and
         * cuBLASLt's 8-bit GEMMs take only K-major B in whole 16 bytes) */
        char refused[sizeof o->detail];
        snprintf(refused, sizeof refused, "%s", o->detail);
        probe_outcome_free(o);
        probe_exec(x->target, c, 1, o);
        if (o->kind == PROBE_RAN) {
            x->kmajor = 1;
            probe_finding *f = probe_finding_add(x->out, "layout");
            snprintf(f->verdict, sizeof f->verdict, "nt-padded");
            snprintf(f->text, sizeof f->text,
                     "the kernel refused the cases as nn with tight rows (%.200s); from case %s on every case "
                     "ran as nt with M, N and K padded with zeros to multiples of 16",
                     refused, c->name);
            return o;
        }
        if (o->kind == PROBE_UNSUPPORTED) { /* the first refusal is the one to report */
            probe_outcome_free(o);
            snprintf(o->detail, sizeof o->detail, "%s", refused);
        }
    }
    if (o->kind == PROBE_RAN) return o;
    probe_finding *f = probe_finding_add(x->out, property);
    snprintf(f->verdict, sizeof f->verdict, "%s", probe_outcome_name(o->kind));
    snprintf(f->text, sizeof f->text, "%s (case %s): %.340s", probe_outcome_name(o->kind), c->name, o->detail);
    f->outcome = o->kind;
    /* a crash or hang on a crafted case is itself a finding to act on */
    f->mismatch = o->kind == PROBE_CRASHED || o->kind == PROBE_TIMEOUT;
    probe_finding_case(f, c);
    probe_outcome_free(o);
    free(o);
    return NULL;
}

void probe_ctx_done(probe_outcome *o, probe_case *c)
{
    if (o) probe_outcome_free(o);
    free(o);
    probe_case_free(c);
}

probe_finding *probe_ctx_finding(probe_ctx *x, const char *property, probe_case *c, probe_outcome **o)
{
    *o = probe_ctx_run(x, property, c);
    if (!*o) {
        probe_ctx_done(NULL, c);
        return NULL;
    }
    probe_finding *f = probe_finding_add(x->out, property);
    probe_finding_case(f, c);
    return f;
}

int probe_same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}
