/* Typed element access, seeded inputs, and the f64 reference check. */
#include "matrices.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define I32_POISON 0x7F7F7F7F

size_t elem_size(gh_dtype dtype)
{
    return dtype == GH_F64 ? 8 : 4;
}

const char *dtype_name(gh_dtype dtype)
{
    return dtype == GH_F32 ? "f32" : dtype == GH_F64 ? "f64" : "i32";
}

double elem_get(gh_dtype dtype, const void *p, size_t i)
{
    switch (dtype) {
    case GH_F32: return ((const float *)p)[i];
    case GH_F64: return ((const double *)p)[i];
    default: return ((const int32_t *)p)[i];
    }
}

void elem_set(gh_dtype dtype, void *p, size_t i, double v)
{
    switch (dtype) {
    case GH_F32: ((float *)p)[i] = (float)v; break;
    case GH_F64: ((double *)p)[i] = v; break;
    default: ((int32_t *)p)[i] = (int32_t)v; break;
    }
}

static uint64_t next(uint64_t *s)
{
    /* xorshift64*: small, seeded, the same everywhere */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

void fill_random(gh_dtype dtype, void *p, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next(seed);
        if (dtype == GH_I32) elem_set(dtype, p, i, (double)((int)(r >> 40) % 17 - 8));
        else elem_set(dtype, p, i, (double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

void fill_poison(gh_dtype dtype, void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (dtype == GH_I32) ((int32_t *)p)[i] = I32_POISON;
        else elem_set(dtype, p, i, NAN);
    }
}

int check_result(const problem *p, const void *a, const void *b, const void *c0, const void *got, size_t c_elems,
                 char *why, size_t why_size)
{
    const size_t es = elem_size(p->dtype);
    /* gamma for K products plus the alpha and beta roundings and the final add. */
    const double u = p->dtype == GH_F32 ? ldexp(1.0, -24) : ldexp(1.0, -53);
    const double ku = (double)(p->k + 3) * u;
    const double gamma = ku / (1.0 - ku);

    for (size_t e = 0; e < c_elems; e++) {
        uint64_t rel = e - p->c_off;
        int inside =
            e >= p->c_off && rel / (uint64_t)p->ldc < (uint64_t)p->m && rel % (uint64_t)p->ldc < (uint64_t)p->n;
        if (!inside) {
            if (memcmp((const char *)got + e * es, (const char *)c0 + e * es, es) != 0) {
                snprintf(why, why_size, "element %zu of C's buffer, outside the matrix, changed from %g to %g", e,
                         elem_get(p->dtype, c0, e), elem_get(p->dtype, got, e));
                return 0;
            }
            continue;
        }
        int64_t i = (int64_t)(rel / (uint64_t)p->ldc), j = (int64_t)(rel % (uint64_t)p->ldc);
        /* long double keeps the reference's own rounding far below the bound, f64 included */
        long double sum = 0, abs_sum = 0;
        int64_t isum = 0;
        for (int64_t q = 0; q < p->k; q++) {
            size_t ai = p->a_off + (p->ta ? q * p->lda + i : i * p->lda + q);
            size_t bi = p->b_off + (p->tb ? j * p->ldb + q : q * p->ldb + j);
            double x = elem_get(p->dtype, a, ai), y = elem_get(p->dtype, b, bi);
            sum += (long double)x * y;
            abs_sum += fabsl((long double)x * y);
            isum += (int64_t)x * (int64_t)y;
        }
        double c_before = p->beta != 0 ? elem_get(p->dtype, c0, e) : 0;
        double value = elem_get(p->dtype, got, e);
        double expected, bound;
        if (p->dtype == GH_I32) {
            expected = (double)((int64_t)p->alpha * isum + (int64_t)p->beta * (int64_t)c_before);
            bound = 0;
        } else {
            expected = (double)(p->alpha * sum + p->beta * (long double)c_before);
            bound = gamma * (double)(fabs(p->alpha) * abs_sum + fabs(p->beta) * fabs(c_before));
        }
        double err = fabs(value - expected);
        if (!(err <= bound)) { /* NaN fails too */
            snprintf(why, why_size, "C[%lld][%lld] = %.17g, expected %.17g (error %.3g, bound %.3g)", (long long)i,
                     (long long)j, value, expected, err, bound);
            return 0;
        }
    }
    return 1;
}
