/* Output fingerprints: fixed positions drawn from the seed, with the value
 * and the error bound there (fingerprint.h). */
#include <math.h>
#include <stdlib.h>

#include "fingerprint.h"
#include "host_gemm.h"
#include "verify_internal.h"

/* A stream of the seed's generator of its own: inputs use case * 3 + 0..2,
 * the verifier's vectors and samples their own seeds. */
#define FINGERPRINT_STREAM 0xF16E5F0000000000ull

/* Uniform in [0, count) by multiply-shift: integer only. */
static int64_t draw_below(uint64_t x, int64_t count)
{
    return (int64_t)(((x >> 32) * (uint64_t)count) >> 32);
}

typedef struct position_set {
    int n, cap;
    int32_t *i, *j;
} position_set;

static void add_position(position_set *s, int64_t i, int64_t j)
{
    if (s->n >= s->cap) return;
    for (int p = 0; p < s->n; p++)
        if (s->i[p] == i && s->j[p] == j) return;
    s->i[s->n] = (int32_t)i;
    s->j[s->n] = (int32_t)j;
    s->n++;
}

static int row_major_before(const position_set *s, int a, int b)
{
    return s->i[a] < s->i[b] || (s->i[a] == s->i[b] && s->j[a] < s->j[b]);
}

static void sort_positions(position_set *s)
{
    for (int a = 1; a < s->n; a++) /* insertion sort: at most 256 */
        for (int b = a; b > 0 && row_major_before(s, b, b - 1); b--) {
            int32_t ti = s->i[b], tj = s->j[b];
            s->i[b] = s->i[b - 1];
            s->j[b] = s->j[b - 1];
            s->i[b - 1] = ti;
            s->j[b - 1] = tj;
        }
}

int gh_fingerprint_positions(uint64_t seed, int case_index, int64_t m, int64_t n, int32_t *i, int32_t *j)
{
    position_set s = {0, GH_FINGERPRINT_MAX, i, j};
    if (m <= 0 || n <= 0 || m > INT32_MAX || n > INT32_MAX) return 0;
    if (m * n <= GH_FINGERPRINT_MAX) {
        for (int64_t r = 0; r < m; r++)
            for (int64_t c = 0; c < n; c++) add_position(&s, r, c);
        return s.n;
    }
    add_position(&s, 0, 0);
    add_position(&s, 0, n - 1);
    add_position(&s, m - 1, 0);
    add_position(&s, m - 1, n - 1);
    const uint64_t stream = FINGERPRINT_STREAM + (uint64_t)case_index;
    uint64_t draw = 0;
    for (int e = 0; e < GH_FINGERPRINT_EDGE; e++) { /* first row, last row, first column, last column */
        add_position(&s, 0, draw_below(gh_random_u64(seed, stream, draw++), n));
        add_position(&s, m - 1, draw_below(gh_random_u64(seed, stream, draw++), n));
        add_position(&s, draw_below(gh_random_u64(seed, stream, draw++), m), 0);
        add_position(&s, draw_below(gh_random_u64(seed, stream, draw++), m), n - 1);
    }
    /* More than MAX elements: the draws fill the set; the cap on tries only
     * guards a generator gone wrong. */
    for (int tries = 0; s.n < s.cap && tries < 64 * GH_FINGERPRINT_MAX; tries++) {
        int64_t r = draw_below(gh_random_u64(seed, stream, draw++), m);
        int64_t c = draw_below(gh_random_u64(seed, stream, draw++), n);
        add_position(&s, r, c);
    }
    sort_positions(&s);
    return s.n;
}

void gh_fingerprint_take(gh_fingerprint *fp, const gh_reference *ref, gh_arith arith, const gh_matrix *out,
                         uint64_t seed, int case_index)
{
    fp->n = gh_fingerprint_positions(seed, case_index, out->rows, out->cols, fp->i, fp->j);
    element_bounds b = bounds_for(ref, arith);
    for (int p = 0; p < fp->n; p++) {
        double exact, abs;
        exact_element(ref, fp->i[p], fp->j[p], &exact, &abs);
        fp->value[p] = gh_matrix_get(out, fp->i[p], fp->j[p]);
        fp->bound[p] = element_bound(&b, exact, abs);
    }
}

double gh_fingerprint_diff_at(double x, double bound_x, double y, double bound_y)
{
    if (x == y || (isnan(x) && isnan(y))) return 0.0;
    if (!isfinite(x) || !isfinite(y)) return INFINITY;
    double bound = bound_x > bound_y ? bound_x : bound_y;
    return ratio_of(fabs(x - y), bound);
}

double gh_fingerprint_diff(const gh_fingerprint *x, const gh_fingerprint *y, int *at)
{
    double worst = 0.0;
    int worst_at = -1;
    for (int p = 0, q = 0; p < x->n; p++) {
        /* Both lists are in row-major order: walk them together. */
        while (q < y->n && (y->i[q] < x->i[p] || (y->i[q] == x->i[p] && y->j[q] < x->j[p]))) q++;
        if (q >= y->n) break;
        if (y->i[q] != x->i[p] || y->j[q] != x->j[p]) continue;
        double d = gh_fingerprint_diff_at(x->value[p], x->bound[p], y->value[q], y->bound[q]);
        if (worst_at < 0 || d > worst) {
            worst = d;
            worst_at = p;
        }
    }
    if (at) *at = worst_at;
    return worst;
}
