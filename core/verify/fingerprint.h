/* An output's fingerprint: its values at a fixed, seed-chosen set of
 * positions (every corner, elements of each edge, the rest drawn anywhere),
 * each with the element's error bound there. Two results of one case, made
 * on two machines, compare in units of the bound from their fingerprints
 * alone, without the whole matrix (gemmhost compare). */
#ifndef GEMMHOST_FINGERPRINT_H
#define GEMMHOST_FINGERPRINT_H

#include <stdint.h>
#include "data.h"
#include "verify.h"

enum { GH_FINGERPRINT_MAX = 256, GH_FINGERPRINT_EDGE = 16 /* drawn positions per edge */ };

typedef struct gh_fingerprint {
    int n; /* 0: none (the result did not run, or a file without fingerprints) */
    int32_t i[GH_FINGERPRINT_MAX], j[GH_FINGERPRINT_MAX];
    double value[GH_FINGERPRINT_MAX]; /* as computed (NaN, inf kept) */
    double bound[GH_FINGERPRINT_MAX]; /* the element's bound, 0 for i32 (exact) */
} gh_fingerprint;

/* The positions of an m x n output for (seed, case_index): every element
 * when there are at most GH_FINGERPRINT_MAX, else the four corners, up to
 * GH_FINGERPRINT_EDGE drawn along each edge and the rest drawn anywhere,
 * no position twice, in row-major order. Integer arithmetic only: the same
 * positions on every machine. Returns the count. */
int gh_fingerprint_positions(uint64_t seed, int case_index, int64_t m, int64_t n, int32_t *i, int32_t *j);

/* Fills fp from the output `out` of the case `ref` holds, with the bound of
 * the arithmetic `arith` at each position (its exact value computed again in
 * f64 from the inputs: K operations per position). */
void gh_fingerprint_take(gh_fingerprint *fp, const gh_reference *ref, gh_arith arith, const gh_matrix *out,
                         uint64_t seed, int case_index);

/* |x - y| in units of the larger of the two bounds, at one position: 0 for
 * equal values (two NaNs included), inf when they differ and the bound is 0
 * or one is not finite. */
double gh_fingerprint_diff_at(double x, double bound_x, double y, double bound_y);

/* The largest difference in units of the bound over the positions both
 * fingerprints hold; *at (when not NULL) gets its index in x, -1 when they
 * share no position. Returns 0 then. */
double gh_fingerprint_diff(const gh_fingerprint *x, const gh_fingerprint *y, int *at);

#endif
