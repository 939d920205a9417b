/* One GEMM case on a device, checked against the host reference. */
#include "gemm_case.h"

#include <stdio.h>
#include <stdlib.h>

#include "gemm_args.h"

#define GUARD 11 /* elements after each matrix, to catch writes past the end */

const scenario scenarios[SCENARIO_COUNT] = {
    {1.5, -0.75, 3, -2, 3, {5, 7, 9}}, /* everything general */
    {1.0, 0.0, 1, 0, 0, {0, 0, 0}},    /* beta = 0 over NaN, packed */
    {-2.0, 0.0, -1, 0, 1, {1, 0, 2}},  /* beta = 0 with padding and offsets */
};
const scenario vector_scenario = {1.5, -0.75, 3, -2, 4, {4, 8, 12}};
const scenario vector8_scenario = {1.5, -0.75, 3, -2, 8, {8, 16, 24}};

void make_problem(problem *p, gh_dtype dtype, int ta, int tb, const int64_t shape[3], const scenario *s)
{
    *p = (problem){
        .dtype = dtype,
        .ta = ta,
        .tb = tb,
        .m = shape[0],
        .n = shape[1],
        .k = shape[2],
        .alpha = dtype == GH_I32 ? s->i_alpha : s->alpha,
        .beta = dtype == GH_I32 ? s->i_beta : s->beta,
        .a_off = s->off[0],
        .b_off = s->off[1],
        .c_off = s->off[2],
    };
    p->lda = (ta ? p->m : p->k) + s->pad;
    p->ldb = (tb ? p->k : p->n) + s->pad;
    p->ldc = p->n + s->pad;
}

void describe_params(const plugin *pl, const gemm_case *c, char *buf, size_t size)
{
    const gh_kernel_info *k = pl->api->kernel_info(pl->ctx, c->kernel);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->n_params && i < k->n_params; i++) {
        int n =
            snprintf(buf + used, size - used, "%s%s=%lld", i ? " " : "", k->params[i].name, (long long)c->params[i]);
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
    }
}

void describe_case(const plugin *pl, const gemm_case *c, char *buf, size_t size)
{
    const gh_kernel_info *k = pl->api->kernel_info(pl->ctx, c->kernel);
    const problem *p = &c->p;
    char params[64];
    describe_params(pl, c, params, sizeof params);
    snprintf(buf, size, "device %d %s %s %s %c%c %lldx%lldx%lld alpha=%g beta=%g ld=%lld/%lld/%lld off=%llu/%llu/%llu",
             c->device, k->name, params, gh_plugin_dtype_name(p->dtype), p->ta ? 't' : 'n', p->tb ? 't' : 'n',
             (long long)p->m, (long long)p->n, (long long)p->k, p->alpha, p->beta, (long long)p->lda, (long long)p->ldb,
             (long long)p->ldc, (unsigned long long)p->a_off, (unsigned long long)p->b_off,
             (unsigned long long)p->c_off);
}

size_t case_c_bytes(const gemm_case *c)
{
    return (c->p.c_off + (size_t)c->p.m * c->p.ldc + GUARD) * gh_test_elem_size(c->p.dtype);
}

int run_case(const plugin *pl, const gemm_case *c, char *why, size_t why_size, void **result)
{
    const gh_plugin_api *api = pl->api;
    gh_plugin *ctx = pl->ctx;
    const problem *p = &c->p;
    const size_t es = gh_test_elem_size(p->dtype);
    size_t a_rows = (size_t)(p->ta ? p->k : p->m), b_rows = (size_t)(p->tb ? p->n : p->k);
    size_t a_elems = p->a_off + a_rows * p->lda + GUARD;
    size_t b_elems = p->b_off + b_rows * p->ldb + GUARD;
    size_t c_elems = p->c_off + (size_t)p->m * p->ldc + GUARD;

    void *a = malloc(a_elems * es), *b = malloc(b_elems * es);
    void *c0 = malloc(c_elems * es), *got = malloc(c_elems * es);
    gh_buffer *da = NULL, *db = NULL, *dc = NULL;
    int passed = 0;
    if (!a || !b || !c0 || !got) {
        snprintf(why, why_size, "out of host memory");
        goto done;
    }
    /* Streams 0, 1, 2 of a seed the shape and dtype name. */
    uint64_t seed = 0x9E3779B97F4A7C15ull ^ (uint64_t)(p->m * 1000003 + p->n * 10007 + p->k * 101 + p->dtype);
    gh_test_fill_seeded(p->dtype, a, a_elems, seed, 0);
    gh_test_fill_seeded(p->dtype, b, b_elems, seed, 1);
    gh_test_fill_seeded(p->dtype, c0, c_elems, seed, 2);
    if (p->beta == 0) /* an element the kernel never writes stays poisoned and fails */
        for (int64_t i = 0; i < p->m; i++)
            fill_poison(p->dtype, (char *)c0 + (p->c_off + i * p->ldc) * es, (size_t)p->n);

    gh_status st;
    if ((st = api->buffer_alloc(ctx, c->device, a_elems * es, &da)) != GH_OK ||
        (st = api->buffer_alloc(ctx, c->device, b_elems * es, &db)) != GH_OK ||
        (st = api->buffer_alloc(ctx, c->device, c_elems * es, &dc)) != GH_OK ||
        (st = api->upload(ctx, da, 0, a, a_elems * es)) != GH_OK ||
        (st = api->upload(ctx, db, 0, b, b_elems * es)) != GH_OK ||
        (st = api->upload(ctx, dc, 0, c0, c_elems * es)) != GH_OK) {
        snprintf(why, why_size, "buffer setup failed (%d): %s", (int)st, api->last_error(ctx));
        goto done;
    }

    gh_test_problem problem = {p->dtype, p->ta, p->tb, p->m, p->n, p->k, p->alpha, p->beta};
    gh_gemm_args args =
        gh_test_gemm_args(&problem, (gh_test_operand){da, p->lda, p->a_off}, (gh_test_operand){db, p->ldb, p->b_off},
                          (gh_test_operand){dc, p->ldc, p->c_off}, c->params, c->n_params);
    gh_gemm_timing timing = {.size = sizeof timing};
    if ((st = api->gemm(ctx, c->device, c->kernel, &args, &timing)) != GH_OK) {
        snprintf(why, why_size, "gemm returned %d: %s", (int)st, api->last_error(ctx));
        goto done;
    }
    if ((st = api->download(ctx, dc, 0, got, c_elems * es)) != GH_OK) {
        snprintf(why, why_size, "download failed (%d): %s", (int)st, api->last_error(ctx));
        goto done;
    }
    passed = check_result(p, a, b, c0, got, c_elems, why, why_size);
    if (passed && result) {
        *result = got;
        got = NULL;
    }
done:
    api->buffer_free(ctx, da);
    api->buffer_free(ctx, db);
    api->buffer_free(ctx, dc);
    free(a);
    free(b);
    free(c0);
    free(got);
    return passed;
}
