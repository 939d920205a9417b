/* Agreement across every result of one case: which outputs are identical,
 * and how far apart the groups are in units of the error bound. */
#ifndef GEMMHOST_COMPARE_H
#define GEMMHOST_COMPARE_H

#include "data.h"
#include "result.h"
#include "verify.h"

typedef struct gh_compare_member {
    char *label;
    uint64_t hash;
} gh_compare_member;

typedef struct gh_compare_group {
    uint64_t hash;
    gh_matrix output; /* one copy per distinct output */
    gh_arith arith;   /* the loosest arithmetic its members declare */
} gh_compare_group;

typedef struct gh_compare {
    gh_compare_member *members;
    size_t n_members;
    gh_compare_group *groups;
    size_t n_groups;
} gh_compare;

/* Records one output, computed in `arith` (what its kernel declares); copies
 * it only when its hash is new. */
void gh_compare_add(gh_compare *cmp, const char *label, uint64_t hash, const gh_matrix *output, gh_arith arith);
/* Fills *out (which borrows cmp's strings: use it before gh_compare_clear):
 * the groups, and their largest distance, each pair in units of the looser
 * of the two groups' bounds (a TF32 kernel and an f32 one may differ by what
 * TF32 allows). */
void gh_compare_finish(gh_compare *cmp, const gh_reference *ref, gh_agreement *out);
void gh_agreement_free(gh_agreement *a);
void gh_compare_clear(gh_compare *cmp);

#endif
