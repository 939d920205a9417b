/* A probe case's memory; see probe_case.h. */
#include "probe_case.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

probe_case *probe_case_new(const char *name, gh_dtype dtype, int64_t m, int64_t n, int64_t k, const char *why)
{
    probe_case *c = gh_xcalloc(1, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->why, sizeof c->why, "%s", why);
    c->dtype = c->b_dtype = c->c_dtype = dtype;
    c->scale_a = c->scale_b = c->scale_c = 1.0;
    c->m = m;
    c->n = n;
    c->k = k;
    c->a = gh_xcalloc((size_t)(m * k), sizeof *c->a);
    c->b = gh_xcalloc((size_t)(k * n), sizeof *c->b);
    return c;
}

void probe_case_free(probe_case *c)
{
    if (!c) return;
    free(c->a);
    free(c->b);
    free(c);
}
