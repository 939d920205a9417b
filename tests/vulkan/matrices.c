/* Poisoned outputs and the check against the host library's reference and
 * bound (core/verify/verify.c); element access and seeded inputs are
 * tests/support's. */
#include "matrices.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "verify.h"

#define I32_POISON 0x7F7F7F7F

void fill_poison(gh_dtype dtype, void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (dtype == GH_I32) ((int32_t *)p)[i] = I32_POISON;
        else gh_test_put(dtype, p, i, NAN);
    }
}

/* A matrix inside one of the test's buffers as the host library reads it:
 * no guard of its own (check_result looks at what lies around it). */
static gh_matrix view(gh_dtype dtype, const void *buf, uint64_t offset, int64_t rows, int64_t cols, int64_t ld)
{
    return (gh_matrix){
        .dtype = dtype,
        .rows = rows,
        .cols = cols,
        .ld = ld,
        .elem_size = gh_test_elem_size(dtype),
        .storage_elems = (size_t)((rows - 1) * ld + cols),
        .storage = (char *)(uintptr_t)buf + offset * gh_test_elem_size(dtype), /* only read */
    };
}

int check_result(const problem *p, const void *a, const void *b, const void *c0, const void *got, size_t c_elems,
                 char *why, size_t why_size)
{
    const size_t es = gh_test_elem_size(p->dtype);
    for (size_t e = 0; e < c_elems; e++) {
        uint64_t rel = e - p->c_off;
        int inside =
            e >= p->c_off && rel / (uint64_t)p->ldc < (uint64_t)p->m && rel % (uint64_t)p->ldc < (uint64_t)p->n;
        if (!inside && memcmp((const char *)got + e * es, (const char *)c0 + e * es, es) != 0) {
            snprintf(why, why_size, "element %zu of C's buffer, outside the matrix, changed from %g to %g", e,
                     gh_test_get(p->dtype, c0, e), gh_test_get(p->dtype, got, e));
            return 0;
        }
    }

    /* The f64 reference and the bound gemmhost itself judges results by
     * (the dtype's default arithmetic: f16 and bf16 summed in f32, rounded
     * once), every element; i32 exactly. */
    gh_matrix ma = view(p->dtype, a, p->a_off, p->ta ? p->k : p->m, p->ta ? p->m : p->k, p->lda);
    gh_matrix mb = view(p->dtype, b, p->b_off, p->tb ? p->n : p->k, p->tb ? p->k : p->n, p->ldb);
    gh_matrix mc0 = view(p->dtype, c0, p->c_off, p->m, p->n, p->ldc);
    gh_case_inputs in = {.dtype = p->dtype,
                         .trans_a = p->ta,
                         .trans_b = p->tb,
                         .m = p->m,
                         .n = p->n,
                         .k = p->k,
                         .alpha = p->alpha,
                         .beta = p->beta,
                         .a = &ma,
                         .b = &mb,
                         .c0 = &mc0};
    gh_verify_options opt = {.method = GH_VERIFY_FULL, .threads = 1};
    gh_reference *ref = gh_reference_build(&in, &opt);
    gh_matrix out; /* C's window, packed */
    if (!ref || gh_matrix_alloc(&out, p->dtype, p->m, p->n, p->n, 0) != 0) {
        gh_reference_free(ref);
        snprintf(why, why_size, "out of host memory for the reference");
        return 0;
    }
    for (int64_t i = 0; i < p->m; i++)
        memcpy((char *)gh_matrix_data(&out) + (size_t)(i * p->n) * es,
               (const char *)got + (p->c_off + (size_t)(i * p->ldc)) * es, (size_t)p->n * es);
    gh_verify_result r;
    gh_verify(ref, &out, &r);
    if (!r.passed) snprintf(why, why_size, "%s", r.message);
    gh_matrix_free(&out);
    gh_reference_free(ref);
    return r.passed;
}
