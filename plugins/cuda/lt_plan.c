/* The cuBLASLt baseline's decisions that need no device; see lt_plan.h. */
#include "lt_plan.h"

#include <stdio.h>
#include <stdlib.h>

gh_lt_shape gh_lt_shape_of(int64_t m, int64_t n, int64_t k, int trans_a, int trans_b, int64_t lda, int64_t ldb,
                           int64_t ldc)
{
    /* A row-major R x C matrix with leading dimension ld is, read as
     * column-major, its transpose: C x R with the same ld. B (K x N, or
     * N x K stored when transposed) is therefore N x K (or K x N), and
     * cuBLASLt applies the caller's transpose flag to it as given. */
    gh_lt_shape s;
    s.m = (uint64_t)n;
    s.n = (uint64_t)m;
    s.k = (uint64_t)k;
    s.first = (gh_lt_operand){'B', trans_b, (uint64_t)(trans_b ? k : n), (uint64_t)(trans_b ? n : k), ldb};
    s.second = (gh_lt_operand){'A', trans_a, (uint64_t)(trans_a ? m : k), (uint64_t)(trans_a ? k : m), lda};
    s.c_rows = (uint64_t)n;
    s.c_cols = (uint64_t)m;
    s.ldc = ldc;
    return s;
}

unsigned gh_lt_alignment(uint64_t address)
{
    unsigned a = 1;
    while (a < 256 && address % (2u * a) == 0) a *= 2;
    return a;
}

int gh_lt_pick_fastest(const double *ms, const int *ok, int n)
{
    int best = -1;
    for (int i = 0; i < n; ++i)
        if (ok[i] && ms[i] > 0 && (best < 0 || ms[i] < ms[best])) best = i;
    return best;
}

int gh_lt_8bit_fits(const gh_lt_8bit_case *c, char *why, size_t why_size)
{
    const int fp8 = c->kind == GH_LT_8BIT_FP8;
    const char *what = fp8 ? "cuBLASLt's FP8 GEMM" : "cuBLASLt's int8 GEMM (IMMA)";
    if (c->trans_a != 0 || c->trans_b != 1) {
        snprintf(why, why_size,
                 "%s takes only the \"TN\" layout (its A transposed, its B not, in column-major terms): in "
                 "gemmhost's row-major terms trans_a = 0 and trans_b = 1 (\"nt\": A stored M x K, B stored N x K, "
                 "both with K contiguous); this GEMM is %s",
                 what, c->trans_a ? (c->trans_b ? "tt" : "tn") : (c->trans_b ? "nt" : "nn"));
        return 0;
    }
    /* FP8: 16 bytes; i8: 4 elements (4 bytes of A and B, 16 of an i32 C). */
    const unsigned align = fp8 ? 16 : 4;
    const int64_t lds[3] = {c->lda, c->ldb, c->ldc};
    const int64_t bytes[3] = {c->lda, c->ldb, c->ldc * (int64_t)c->elem_c};
    const uint64_t addrs[3] = {c->addr_a, c->addr_b, c->addr_c};
    const char names[3] = {'a', 'b', 'c'};
    for (int i = 0; i < 3; ++i) {
        if (fp8 ? bytes[i] % 16 != 0 : lds[i] % 4 != 0) {
            snprintf(why, why_size, "%s needs every leading dimension a multiple of %s; ld%c is %lld (%lld bytes)",
                     what, fp8 ? "16 bytes" : "4 elements", names[i], (long long)lds[i], (long long)bytes[i]);
            return 0;
        }
        if (addrs[i] % align != 0) {
            snprintf(why, why_size,
                     "%s needs A, B and C to start %u-byte aligned; %c starts at an address %u-byte aligned (its "
                     "offset)",
                     what, align, names[i] - 'a' + 'A', gh_lt_alignment(addrs[i]));
            return 0;
        }
    }
    return 1;
}

int gh_lt_key_equal(const gh_lt_key *x, const gh_lt_key *y)
{
    return x->variant == y->variant && x->dtype == y->dtype && x->b_dtype == y->b_dtype && x->c_dtype == y->c_dtype &&
           x->trans_a == y->trans_a && x->trans_b == y->trans_b && x->m == y->m && x->n == y->n && x->k == y->k &&
           x->lda == y->lda && x->ldb == y->ldb && x->ldc == y->ldc && x->align_a == y->align_a &&
           x->align_b == y->align_b && x->align_c == y->align_c;
}

gh_lt_choice *gh_lt_find(gh_lt_choice *list, const gh_lt_key *key)
{
    for (; list; list = list->next)
        if (gh_lt_key_equal(&list->key, key)) return list;
    return NULL;
}

void gh_lt_free(gh_lt_choice *list)
{
    while (list) {
        gh_lt_choice *next = list->next;
        free(list);
        list = next;
    }
}
