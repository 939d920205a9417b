/* Seeded inputs and the f64 reference; see host_reference.h. */
#include "host_reference.h"

#include <stdlib.h>
#include <string.h>

int logical_problem_init(logical_problem *p, gh_dtype dtype, int64_t m, int64_t n, int64_t k, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->dtype = dtype;
    p->m = m;
    p->n = n;
    p->k = k;
    p->op_a = gh_test_seeded_values(dtype, m * k, seed, 0);
    p->op_b = gh_test_seeded_values(dtype, k * n, seed, 1);
    p->c0 = gh_test_seeded_values(dtype, m * n, seed, 2);
    if (!p->op_a || !p->op_b || !p->c0) {
        logical_problem_free(p);
        return -1;
    }
    return 0;
}

void logical_problem_free(logical_problem *p)
{
    free(p->op_a);
    free(p->op_b);
    free(p->c0);
    free(p->s);
    free(p->mag);
    memset(p, 0, sizeof *p);
}

int host_products(logical_problem *p)
{
    p->s = malloc((size_t)(p->m * p->n) * sizeof *p->s);
    p->mag = malloc((size_t)(p->m * p->n) * sizeof *p->mag);
    if (!p->s || !p->mag) return -1;
    return gh_test_reference_products(p->m, p->n, p->k, p->op_a, p->op_b, p->s, p->mag);
}

const char *const dtype_names[GH_DTYPE_COUNT] = {"f32", "f64", "i32"};
