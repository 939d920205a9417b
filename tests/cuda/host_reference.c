/* Seeded inputs and the long double reference; see host_reference.h. */
#include "host_reference.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t test_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double draw(gh_dtype dtype, uint64_t *state)
{
    uint64_t r = test_rand_next(state);
    if (dtype == GH_I32) {
        /* -8..-1, 1..8: no zeros, so even a 1 x 1 x 1 product says something. */
        int64_t v = (int64_t)(r % 16) - 8;
        return (double)(v >= 0 ? v + 1 : v);
    }
    double u = (double)(r >> 11) * 0x1.0p-53 * 2.0 - 1.0; /* [-1, 1) */
    return dtype == GH_F32 ? (double)(float)u : u;
}

static double *draw_matrix(gh_dtype dtype, int64_t count, uint64_t *state)
{
    double *x = malloc((size_t)count * sizeof *x);
    if (x)
        for (int64_t i = 0; i < count; ++i) x[i] = draw(dtype, state);
    return x;
}

int logical_problem_init(logical_problem *p, gh_dtype dtype, int64_t m, int64_t n, int64_t k, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->dtype = dtype;
    p->m = m;
    p->n = n;
    p->k = k;
    uint64_t state = seed * 0x2545F4914F6CDD1Dull + 1;
    p->op_a = draw_matrix(dtype, m * k, &state);
    p->op_b = draw_matrix(dtype, k * n, &state);
    p->c0 = draw_matrix(dtype, m * n, &state);
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

typedef struct products_job {
    logical_problem *p;
    const double *bt; /* op(B) transposed, n x k, so the inner loop is contiguous */
    int64_t row_begin, row_end;
} products_job;

static void *products_rows(void *arg)
{
    products_job *job = arg;
    logical_problem *p = job->p;
    for (int64_t i = job->row_begin; i < job->row_end; ++i) {
        const double *a = p->op_a + i * p->k;
        for (int64_t j = 0; j < p->n; ++j) {
            const double *b = job->bt + j * p->k;
            long double s = 0.0L;
            double mag = 0.0;
            for (int64_t q = 0; q < p->k; ++q) {
                s += (long double)a[q] * b[q];
                mag += fabs(a[q] * b[q]);
            }
            p->s[i * p->n + j] = s;
            p->mag[i * p->n + j] = mag;
        }
    }
    return NULL;
}

int host_products(logical_problem *p)
{
    p->s = malloc((size_t)(p->m * p->n) * sizeof *p->s);
    p->mag = malloc((size_t)(p->m * p->n) * sizeof *p->mag);
    double *bt = malloc((size_t)(p->k * p->n) * sizeof *bt);
    if (!p->s || !p->mag || !bt) {
        free(bt);
        return -1;
    }
    for (int64_t q = 0; q < p->k; ++q)
        for (int64_t j = 0; j < p->n; ++j) bt[j * p->k + q] = p->op_b[q * p->n + j];

    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int64_t threads = cpus < 1 ? 1 : cpus > 32 ? 32 : cpus;
    if (threads > p->m) threads = p->m;
    pthread_t ids[32];
    int created[32] = {0};
    products_job jobs[32];
    for (int64_t t = 0; t < threads; ++t) jobs[t] = (products_job){p, bt, p->m * t / threads, p->m * (t + 1) / threads};
    for (int64_t t = 1; t < threads; ++t) created[t] = pthread_create(&ids[t], NULL, products_rows, &jobs[t]) == 0;
    products_rows(&jobs[0]);
    for (int64_t t = 1; t < threads; ++t) {
        if (created[t]) pthread_join(ids[t], NULL);
        else /* no thread could start: do its rows here */ products_rows(&jobs[t]);
    }
    free(bt);
    return 0;
}

static double gamma_n(double n, double u)
{
    return n * u / (1.0 - n * u);
}

double gemm_error_bound(gh_dtype dtype, int64_t k, double alpha, double beta, double mag, double c0)
{
    if (dtype == GH_I32) return 0.0;
    double u = dtype == GH_F32 ? 0x1.0p-24 : 0x1.0p-53;
    double n = (double)k + 2.0;
    double scale = fabs(alpha) * mag + (beta != 0.0 ? fabs(beta) * fabs(c0) : 0.0);
    return (gamma_n(n, u) + gamma_n(n, 0x1.0p-63)) * scale;
}

const char *const dtype_names[GH_DTYPE_COUNT] = {"f32", "f64", "i32"};

size_t elem_size(gh_dtype d)
{
    return d == GH_F64 ? 8 : 4;
}

void put(gh_dtype d, void *base, size_t i, double v)
{
    if (d == GH_F32) ((float *)base)[i] = (float)v;
    else if (d == GH_F64) ((double *)base)[i] = v;
    else ((int32_t *)base)[i] = (int32_t)v;
}

double get(gh_dtype d, const void *base, size_t i)
{
    if (d == GH_F32) return ((const float *)base)[i];
    if (d == GH_F64) return ((const double *)base)[i];
    return ((const int32_t *)base)[i];
}
