/* Whole outputs kept for a fleet's exact distances; see kept_outputs.h. */
#include "kept_outputs.h"

#include <stdlib.h>
#include <string.h>

#include "tune_cache.h" /* run_internal.h names it */
#include "run_internal.h"
#include "util.h"

static gh_kept_output *find(const gh_kept_outputs *kept, int case_index, uint64_t hash)
{
    for (size_t i = 0; i < kept->n; i++)
        if (kept->items[i].case_index == case_index && kept->items[i].hash == hash) return &kept->items[i];
    return NULL;
}

const gh_kept_output *gh_kept_outputs_find(const gh_kept_outputs *kept, int case_index, uint64_t hash)
{
    return find(kept, case_index, hash);
}

static gh_kept_output *append(gh_kept_outputs *kept)
{
    kept->items = gh_xrealloc(kept->items, (kept->n + 1) * sizeof *kept->items);
    gh_kept_output *k = &kept->items[kept->n++];
    memset(k, 0, sizeof *k);
    return k;
}

/* The elements row by row: gh_matrix_copy copies whole storage, for the same layout only. */
static void copy_rows(gh_matrix *dst, const gh_matrix *src)
{
    const size_t row = (size_t)src->cols * src->elem_size;
    for (int64_t r = 0; r < src->rows; r++)
        memcpy((char *)gh_matrix_data(dst) + (size_t)(r * dst->ld) * dst->elem_size,
               (const char *)gh_matrix_data(src) + (size_t)(r * src->ld) * src->elem_size, row);
}

void gh_kept_outputs_add_case(gh_kept_outputs *kept, const gh_compare *cmp, int case_index, const gh_case_inputs *in,
                              uint64_t max_bytes)
{
    for (size_t g = 0; g < cmp->n_groups; g++) {
        const gh_compare_group *grp = &cmp->groups[g];
        const gh_matrix *o = &grp->output;
        if ((uint64_t)o->rows * (uint64_t)o->cols * o->elem_size > max_bytes) continue;
        gh_kept_output *same = find(kept, case_index, grp->hash);
        if (same) {
            same->arith = gh_arith_looser(same->arith, grp->arith);
            continue;
        }
        gh_matrix copy;
        if (gh_matrix_alloc(&copy, o->dtype, o->rows, o->cols, o->cols, 0) != 0) continue; /* fingerprints then */
        copy_rows(&copy, o);
        gh_kept_output *k = append(kept);
        *k = (gh_kept_output){case_index, in->dtype, {in->trans_a, in->trans_b}, {in->m, in->n, in->k}, grp->hash,
                              grp->arith, copy};
    }
}

/* The packed form, per output: these fields, then its elements row by row. */
typedef struct packed_head {
    int64_t case_index, dtype, trans_a, trans_b, m, n, k, span;
    int64_t out_dtype, rows, cols, elem_size;
    uint64_t hash;
    double u_in, u_acc, u_out, u_narrow;
    double u_split;
    int64_t pieces;
} packed_head;

void gh_kept_outputs_pack(const gh_kept_outputs *kept, char **bytes, size_t *size)
{
    size_t total = 0;
    for (size_t i = 0; i < kept->n; i++) {
        const gh_matrix *v = &kept->items[i].value;
        total += sizeof(packed_head) + (size_t)v->rows * (size_t)v->cols * v->elem_size;
    }
    *bytes = gh_xmalloc(total ? total : 1);
    *size = total;
    char *at = *bytes;
    for (size_t i = 0; i < kept->n; i++) {
        const gh_kept_output *k = &kept->items[i];
        const gh_matrix *v = &k->value;
        packed_head h = {k->case_index,     k->dtype,         k->trans.a,     k->trans.b,
                         k->shape.m,        k->shape.n,       k->shape.k,     k->arith.span,
                         v->dtype,          v->rows,          v->cols,        (int64_t)v->elem_size,
                         k->hash,           k->arith.u_in,    k->arith.u_acc, k->arith.u_out,
                         k->arith.u_narrow, k->arith.u_split, k->arith.pieces};
        memcpy(at, &h, sizeof h);
        at += sizeof h;
        const size_t row = (size_t)v->cols * v->elem_size;
        for (int64_t r = 0; r < v->rows; r++, at += row)
            memcpy(at, (const char *)gh_matrix_data(v) + (size_t)(r * v->ld) * v->elem_size, row);
    }
}

int gh_kept_outputs_unpack(gh_kept_outputs *kept, const char *bytes, size_t size, char *err, size_t err_size)
{
    size_t at = 0;
    while (at < size) {
        packed_head h;
        if (size - at < sizeof h) {
            snprintf(err, err_size, "kept outputs: %zu bytes left over, not a whole output", size - at);
            return -1;
        }
        memcpy(&h, bytes + at, sizeof h);
        at += sizeof h;
        if (h.dtype < 0 || h.dtype >= GH_DTYPE_COUNT || h.out_dtype < 0 || h.out_dtype >= GH_DTYPE_COUNT ||
            h.rows < 0 || h.cols < 0 || h.elem_size != (int64_t)gh_dtype_size((gh_dtype)h.out_dtype) ||
            (uint64_t)h.rows * (uint64_t)h.cols * (uint64_t)h.elem_size > size - at) {
            snprintf(err, err_size, "kept outputs: the output of case %lld is malformed or cut short",
                     (long long)h.case_index);
            return -1;
        }
        const size_t bytes_of = (size_t)h.rows * (size_t)h.cols * (size_t)h.elem_size;
        const gh_arith arith = {h.u_in, h.u_acc, h.u_out, h.u_narrow, h.span, h.u_split, h.pieces};
        gh_kept_output *same = find(kept, (int)h.case_index, h.hash);
        if (same) {
            same->arith = gh_arith_looser(same->arith, arith);
        } else {
            gh_matrix v;
            if (gh_matrix_alloc(&v, (gh_dtype)h.out_dtype, h.rows, h.cols, h.cols, 0) != 0) {
                snprintf(err, err_size, "kept outputs: out of host memory for a %lldx%lld output", (long long)h.rows,
                         (long long)h.cols);
                return -1;
            }
            memcpy(gh_matrix_data(&v), bytes + at, bytes_of);
            gh_kept_output *k = append(kept);
            *k = (gh_kept_output){(int)h.case_index,
                                  (gh_dtype)h.dtype,
                                  {(int)h.trans_a, (int)h.trans_b},
                                  {h.m, h.n, h.k},
                                  h.hash,
                                  arith,
                                  v};
        }
        at += bytes_of;
    }
    return 0;
}

void gh_kept_outputs_free(gh_kept_outputs *kept)
{
    for (size_t i = 0; i < kept->n; i++) gh_matrix_free(&kept->items[i].value);
    free(kept->items);
    memset(kept, 0, sizeof *kept);
}

int gh_kept_case_agreement(const gh_run_config *run, int case_index, gh_shape shape, gh_dtype dtype, gh_trans trans,
                           gh_compare *cmp, gh_agreement *out)
{
    case_data cd;
    if (run_case_prepare(&cd, run, case_index, shape, dtype, trans, NULL) != 0) {
        run_case_release(&cd);
        return -1;
    }
    *out = (gh_agreement){.case_index = case_index,
                          .dtype = dtype,
                          .trans_a = trans.a,
                          .trans_b = trans.b,
                          .m = shape.m,
                          .n = shape.n,
                          .k = shape.k};
    gh_compare_finish(cmp, cd.ref, out);
    run_case_release(&cd);
    return 0;
}
