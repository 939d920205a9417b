#include <stdio.h>
#include <string.h>
#include "data.h"
#include "host_verify.h"
#include "verify.h"

/* A gh_matrix holding the view's elements, bit for bit (NaN payloads too). */
static int copy_in(gh_matrix *m, gh_dtype dtype, const host_view *v)
{
    if (gh_matrix_alloc(m, dtype, v->rows, v->cols, v->cols, 0) != 0) return -1;
    const size_t eb = m->elem_size;
    for (int64_t r = 0; r < v->rows; r++)
        memcpy((char *)gh_matrix_data(m) + (size_t)(r * m->ld) * eb,
               (const char *)v->raw + (v->offset + (uint64_t)(r * v->ld)) * eb, (size_t)v->cols * eb);
    return 0;
}

int host_verify(gh_dtype dtype, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha, double beta,
                const host_view *a, const host_view *b, const host_view *c0, const host_view *c1, char *why,
                size_t why_size)
{
    /* Zeroed: gh_matrix_free of one never allocated frees nothing. */
    gh_matrix ma = {0}, mb = {0}, mc0 = {0}, mc1 = {0};
    int rc = -1;
    if (copy_in(&ma, dtype, a) != 0 || copy_in(&mb, dtype, b) != 0 || (beta != 0 && copy_in(&mc0, dtype, c0) != 0) ||
        copy_in(&mc1, dtype, c1) != 0) {
        snprintf(why, why_size, "out of host memory for the host reference");
    } else {
        const gh_case_inputs in = {.dtype = dtype,
                                   .trans_a = trans_a,
                                   .trans_b = trans_b,
                                   .m = m,
                                   .n = n,
                                   .k = k,
                                   .alpha = alpha,
                                   .beta = beta,
                                   .a = &ma,
                                   .b = &mb,
                                   .c0 = beta != 0 ? &mc0 : NULL};
        /* One thread: the cases are small, and the test runs beside others. */
        const gh_verify_options opt = {.method = GH_VERIFY_FULL, .threads = 1, .seed = 1};
        gh_reference *ref = gh_reference_build(&in, &opt);
        gh_verify_result res;
        if (!ref) {
            snprintf(why, why_size, "host reference: out of memory or inconsistent inputs");
        } else {
            gh_verify(ref, &mc1, &res);
            if (res.passed) rc = 0;
            else snprintf(why, why_size, "host verification: %s", res.message);
        }
        gh_reference_free(ref);
    }
    gh_matrix_free(&ma);
    gh_matrix_free(&mb);
    gh_matrix_free(&mc0);
    gh_matrix_free(&mc1);
    return rc;
}
