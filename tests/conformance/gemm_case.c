#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_args.h"
#include "gemm_case.h"
#include "reference.h"

#include "gemmhost/half.h"
#include "gemmhost/plugin_helpers.h"

const char *dtype_name(gh_dtype d)
{
    return gh_plugin_dtype_name(d);
}

gh_dtype gemm_case_first_dtype(const gh_kernel_info *ki)
{
    return ki->dtypes & GH_DTYPE_BIT(GH_F32) ? GH_F32 : ki->dtypes & GH_DTYPE_BIT(GH_F64) ? GH_F64 : GH_I32;
}

void gemm_case_text(const gemm_case *gc, char *out, size_t size)
{
    snprintf(out, size, "%s %c%c %lldx%lldx%lld alpha %g beta %g", dtype_name(gc->dtype), gc->trans_a ? 't' : 'n',
             gc->trans_b ? 't' : 'n', (long long)gc->m, (long long)gc->n, (long long)gc->k, gc->alpha, gc->beta);
}

gh_status gemm_setup_make(const conformance *c, int device, const gh_kernel_info *ki, const gemm_case *gc,
                          uint64_t seed, gemm_setup *s, const char **what)
{
    memset(s, 0, sizeof *s);
    s->gc = *gc;
    s->arith = conf_kernel_arith(c, ki, gc->dtype);
    const int64_t ar = gc->trans_a ? gc->k : gc->m, ac = gc->trans_a ? gc->m : gc->k;
    const int64_t br = gc->trans_b ? gc->n : gc->k, bc = gc->trans_b ? gc->k : gc->n;
    gh_status st;
    /* Odd gaps and offsets, so that no guard lines up with a tile. */
    *what = "allocating A";
    if ((st = placed_make(c, device, &s->a, gc->dtype, ar, ac, 2, 5, 3, &seed))) return st;
    *what = "allocating B";
    if ((st = placed_make(c, device, &s->b, gc->dtype, br, bc, 1, 3, 2, &seed))) return st;
    *what = "allocating C";
    if ((st = placed_make(c, device, &s->c, gc->dtype, gc->m, gc->n, 3, 7, 5, &seed))) return st;
    if (gc->beta == 0 && gc->dtype != GH_I32)
        for (int64_t i = 0; i < gc->m; i++)
            for (int64_t j = 0; j < gc->n; j++)
                placed_set(&s->c, placed_index(&s->c, i, j), NAN); /* must not be read */
    *what = "uploading";
    if ((st = placed_upload(c, &s->a)) || (st = placed_upload(c, &s->b)) || (st = placed_upload(c, &s->c))) return st;
    for (size_t p = 0; p < ki->n_params && p < MAX_PARAMS; p++) s->params[p] = ki->params[p].default_value;
    const gh_test_problem problem = {gc->dtype, gc->trans_a, gc->trans_b, gc->m, gc->n, gc->k, gc->alpha, gc->beta};
    s->args = gh_test_gemm_args(
        &problem, (gh_test_operand){s->a.buf, s->a.ld, s->a.offset}, (gh_test_operand){s->b.buf, s->b.ld, s->b.offset},
        (gh_test_operand){s->c.buf, s->c.ld, s->c.offset}, ki->n_params ? s->params : NULL, ki->n_params);
    return GH_OK;
}

void gemm_setup_free(const conformance *c, gemm_setup *s)
{
    placed_free(c, &s->a);
    placed_free(c, &s->b);
    placed_free(c, &s->c);
}

/* op(A) op(B) and |op(A)| |op(B)| in f64 (tests/support's reference), m x n;
 * 0, or -1 out of memory. */
static int reference_products(const gemm_setup *s, double *sum, double *mag)
{
    const gemm_case *gc = &s->gc;
    double *op_a = malloc((size_t)(gc->m * gc->k) * sizeof *op_a),
           *op_b = malloc((size_t)(gc->k * gc->n) * sizeof *op_b);
    int rc = -1;
    if (op_a && op_b) {
        for (int64_t i = 0; i < gc->m; i++)
            for (int64_t p = 0; p < gc->k; p++)
                op_a[i * gc->k + p] =
                    placed_get(&s->a, s->a.image, gc->trans_a ? placed_index(&s->a, p, i) : placed_index(&s->a, i, p));
        for (int64_t p = 0; p < gc->k; p++)
            for (int64_t j = 0; j < gc->n; j++)
                op_b[p * gc->n + j] =
                    placed_get(&s->b, s->b.image, gc->trans_b ? placed_index(&s->b, j, p) : placed_index(&s->b, p, j));
        rc = gh_test_reference_products(gc->m, gc->n, gc->k, op_a, op_b, sum, mag);
    }
    free(op_a);
    free(op_b);
    return rc;
}

static void judge_window(const gemm_setup *s, const unsigned char *got, gemm_verdict *v)
{
    const gemm_case *gc = &s->gc;
    char where[160];
    gemm_case_text(gc, where, sizeof where);
    double *sums = malloc((size_t)(gc->m * gc->n) * sizeof *sums),
           *mags = malloc((size_t)(gc->m * gc->n) * sizeof *mags);
    if (!sums || !mags || reference_products(s, sums, mags) != 0) {
        snprintf(v->result, sizeof v->result, "%s: the f64 reference: out of memory", where);
        free(sums);
        free(mags);
        return;
    }
    for (int64_t i = 0; i < gc->m; i++)
        for (int64_t j = 0; j < gc->n; j++) {
            const uint64_t idx = placed_index(&s->c, i, j);
            const double value = placed_get(&s->c, got, idx);
            const double c0 = gc->beta != 0 ? placed_get(&s->c, s->c.image, idx) : 0;
            const double mag = mags[i * gc->n + j];
            const double sum = sums[i * gc->n + j];
            if (gc->dtype == GH_I32) {
                const int64_t want = (int64_t)gc->alpha * (int64_t)sum + (int64_t)gc->beta * (int64_t)c0;
                if (!v->result[0] && value != (double)(int32_t)want)
                    snprintf(v->result, sizeof v->result, "%s: C(%lld,%lld) = %.0f, expected %lld (exact)", where,
                             (long long)i, (long long)j, value, (long long)want);
                continue;
            }
            if (isnan(value) && gc->beta == 0) {
                if (!v->nan[0])
                    snprintf(v->nan, sizeof v->nan, "%s: C(%lld,%lld) is NaN: C was read with beta 0", where,
                             (long long)i, (long long)j);
                continue;
            }
            const double want = gc->alpha * sum + gc->beta * c0;
            const double bound = conf_bound(&s->arith, gc->k, want, fabs(gc->alpha) * mag + fabs(gc->beta * c0));
            if (!v->result[0] && !(fabs(value - want) <= bound))
                snprintf(v->result, sizeof v->result, "%s: C(%lld,%lld) = %.9g, expected %.9g (bound %.3g)", where,
                         (long long)i, (long long)j, value, want, bound);
        }
    free(sums);
    free(mags);
}

static void judge_guards(const placed *p, const unsigned char *got, char *out, size_t size, const char *what,
                         const gemm_case *gc)
{
    char where[160];
    gemm_case_text(gc, where, sizeof where);
    for (uint64_t idx = 0; idx < p->elements; idx++) {
        if (what[0] == 'C' && placed_inside(p, idx)) continue;
        if (memcmp(got + idx * p->elem, p->image + idx * p->elem, p->elem) != 0) {
            uint64_t rel = idx >= p->offset ? idx - p->offset : 0;
            snprintf(out, size, "%s: %s element %llu of its buffer changed (%s; the matrix starts at %llu, ld %lld)",
                     where, what, (unsigned long long)idx,
                     idx < p->offset                              ? "before the matrix"
                     : rel / (uint64_t)p->ld >= (uint64_t)p->rows ? "after the matrix"
                                                                  : "in the gap after a row",
                     (unsigned long long)p->offset, (long long)p->ld);
            return;
        }
    }
}

int gemm_verify(const conformance *c, const gemm_setup *s, gemm_verdict *v)
{
    unsigned char *a = malloc(s->a.elements * s->a.elem), *b = malloc(s->b.elements * s->b.elem),
                  *cc = malloc(s->c.elements * s->c.elem);
    gh_status st = GH_OUT_OF_MEMORY;
    if (a && b && cc && (st = placed_download(c, &s->a, a)) == GH_OK && (st = placed_download(c, &s->b, b)) == GH_OK)
        st = placed_download(c, &s->c, cc);
    if (st != GH_OK) {
        snprintf(v->result, sizeof v->result, "downloading the matrices: %s: %s", conf_status_name(st), conf_error(c));
    } else {
        judge_window(s, cc, v);
        if (!v->guard[0]) judge_guards(&s->c, cc, v->guard, sizeof v->guard, "C", &s->gc);
        if (!v->untouched[0]) judge_guards(&s->a, a, v->untouched, sizeof v->untouched, "A", &s->gc);
        if (!v->untouched[0]) judge_guards(&s->b, b, v->untouched, sizeof v->untouched, "B", &s->gc);
    }
    free(a);
    free(b);
    free(cc);
    return st == GH_OK ? 0 : -1;
}
