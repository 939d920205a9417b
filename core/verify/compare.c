#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "util.h"

static gh_compare_group *find_group(gh_compare *cmp, uint64_t hash)
{
    for (size_t i = 0; i < cmp->n_groups; i++)
        if (cmp->groups[i].hash == hash) return &cmp->groups[i];
    return NULL;
}

void gh_compare_add(gh_compare *cmp, const char *label, uint64_t hash, const gh_matrix *output, gh_arith arith)
{
    cmp->members = gh_xrealloc(cmp->members, (cmp->n_members + 1) * sizeof *cmp->members);
    cmp->members[cmp->n_members++] = (gh_compare_member){gh_strdup(label), hash};
    gh_compare_group *same = find_group(cmp, hash);
    if (same) {
        same->arith = gh_arith_looser(same->arith, arith);
        return;
    }
    gh_compare_group g = {.hash = hash, .arith = arith};
    if (gh_matrix_alloc(&g.output, output->dtype, output->rows, output->cols, output->ld, output->guard) != 0)
        return; /* out of memory: the group still shows, without a distance */
    gh_matrix_copy(&g.output, output);
    cmp->groups = gh_xrealloc(cmp->groups, (cmp->n_groups + 1) * sizeof *cmp->groups);
    cmp->groups[cmp->n_groups++] = g;
}

void gh_compare_finish(gh_compare *cmp, const gh_reference *ref, gh_agreement *out)
{
    out->n_groups = 0;
    out->groups = gh_xcalloc(cmp->n_members ? cmp->n_members : 1, sizeof *out->groups);
    for (size_t m = 0; m < cmp->n_members; m++) {
        gh_agreement_group *g = NULL;
        for (size_t i = 0; i < out->n_groups; i++)
            if (out->groups[i].hash == cmp->members[m].hash) g = &out->groups[i];
        if (!g) {
            g = &out->groups[out->n_groups++];
            g->hash = cmp->members[m].hash;
            g->members = gh_xcalloc(cmp->n_members, sizeof *g->members);
        }
        g->members[g->n_members++] = cmp->members[m].label;
    }
    /* The largest pairwise distance between distinct outputs. */
    out->max_diff_in_bounds = 0;
    for (size_t i = 0; i < cmp->n_groups; i++)
        for (size_t j = i + 1; j < cmp->n_groups; j++) {
            const gh_compare_group *x = &cmp->groups[i], *y = &cmp->groups[j];
            double d = gh_reference_diff_in_bounds_as(ref, gh_arith_looser(x->arith, y->arith), &x->output, &y->output);
            if (d > out->max_diff_in_bounds || isnan(d)) {
                out->max_diff_in_bounds = d;
                out->worst[0] = i;
                out->worst[1] = j;
            }
        }
}

void gh_agreement_free(gh_agreement *a)
{
    for (size_t i = 0; i < a->n_groups; i++) free(a->groups[i].members);
    free(a->groups);
    a->groups = NULL;
    a->n_groups = 0;
}

void gh_compare_clear(gh_compare *cmp)
{
    for (size_t i = 0; i < cmp->n_members; i++) free(cmp->members[i].label);
    for (size_t i = 0; i < cmp->n_groups; i++) gh_matrix_free(&cmp->groups[i].output);
    free(cmp->members);
    free(cmp->groups);
    memset(cmp, 0, sizeof *cmp);
}
