/* The f64 products a reference needs, on the host; see host_gemm.h. */
#include "host_gemm.h"

#include <math.h>
#include <stdlib.h>

#include "parallel.h"

/* Below this many element visits one thread is quicker than starting more. */
#define SPAN_MIN_WORK (1 << 22)

/* Parts to cut n items into, each item costing about `work` element visits:
 * never more than n, so that every part's slot is written. */
int gh_verify_parts(int requested, int64_t n, double work)
{
    int threads = gh_parallel_threads(requested);
    return (double)n * work < SPAN_MIN_WORK || n < 2 ? 1 : threads > n ? (int)n : threads;
}

/* ---- the whole product: packed, blocked, threaded ---- */

/* A register tile of MR x NR results; K is walked in blocks of KC so the
 * packed panels stay in cache, and NC columns of B are reused by every row
 * panel of a thread. */
#define MR 4
#define NR 4
#define KC 256
#define NC 256

typedef struct packed_operands {
    int64_t m, n, k, m_panels, n_panels;
    double *a; /* op(A) in MR-row panels: a[(ip*k + p)*MR + r] */
    double *b; /* op(B) in NR-column panels: b[(jp*k + p)*NR + c] */
} packed_operands;

static int pack_operands(const gh_case_inputs *in, packed_operands *pk)
{
    pk->m = in->m;
    pk->n = in->n;
    pk->k = in->k;
    pk->m_panels = (in->m + MR - 1) / MR;
    pk->n_panels = (in->n + NR - 1) / NR;
    pk->a = calloc((size_t)(pk->m_panels * in->k * MR), sizeof(double));
    pk->b = calloc((size_t)(pk->n_panels * in->k * NR), sizeof(double));
    if (!pk->a || !pk->b) return -1;
    for (int64_t i = 0; i < in->m; i++)
        for (int64_t p = 0; p < in->k; p++)
            pk->a[((i / MR) * in->k + p) * MR + i % MR] = gh_op_get(in->a, in->trans_a, i, p);
    for (int64_t p = 0; p < in->k; p++)
        for (int64_t j = 0; j < in->n; j++)
            pk->b[((j / NR) * in->k + p) * NR + j % NR] = gh_op_get(in->b, in->trans_b, p, j);
    return 0;
}

/* Fixed trip counts let the compiler keep the tile in registers. */
static void micro_kernel(int64_t kc, const double *a, const double *b, double acc[MR][NR], double abs_acc[MR][NR])
{
    for (int r = 0; r < MR; r++)
        for (int c = 0; c < NR; c++) acc[r][c] = abs_acc[r][c] = 0.0;
    for (int64_t p = 0; p < kc; p++, a += MR, b += NR) {
        for (int r = 0; r < MR; r++) {
            for (int c = 0; c < NR; c++) {
                double prod = a[r] * b[c];
                acc[r][c] += prod;
                abs_acc[r][c] += fabs(prod);
            }
        }
    }
}

typedef struct full_job {
    const packed_operands *pk;
    double *sum, *abs_sum; /* M x N accumulators */
} full_job;

static void add_tile(const full_job *job, int64_t ip, int64_t jp, double acc[MR][NR], double abs_acc[MR][NR])
{
    const packed_operands *pk = job->pk;
    for (int r = 0; r < MR && ip * MR + r < pk->m; r++) {
        for (int c = 0; c < NR && jp * NR + c < pk->n; c++) {
            size_t at = (size_t)((ip * MR + r) * pk->n + jp * NR + c);
            job->sum[at] += acc[r][c];
            job->abs_sum[at] += abs_acc[r][c];
        }
    }
}

/* The MR-row panels [panel_begin, panel_end) of the products. */
static void full_span(void *ctx, int64_t panel_begin, int64_t panel_end, int part)
{
    (void)part;
    const full_job *job = ctx;
    const packed_operands *pk = job->pk;
    double acc[MR][NR], abs_acc[MR][NR];
    const int64_t panels_per_nc = NC / NR;
    for (int64_t pc = 0; pc < pk->k; pc += KC) {
        int64_t kc = pk->k - pc < KC ? pk->k - pc : KC;
        for (int64_t jc = 0; jc < pk->n_panels; jc += panels_per_nc) {
            int64_t jc_end = jc + panels_per_nc < pk->n_panels ? jc + panels_per_nc : pk->n_panels;
            for (int64_t ip = panel_begin; ip < panel_end; ip++) {
                const double *a = pk->a + (ip * pk->k + pc) * MR;
                for (int64_t jp = jc; jp < jc_end; jp++) {
                    micro_kernel(kc, a, pk->b + (jp * pk->k + pc) * NR, acc, abs_acc);
                    add_tile(job, ip, jp, acc, abs_acc);
                }
            }
        }
    }
}

/* sum = op(A) op(B) and abs_sum = |op(A)||op(B)|, both M x N, zeroed. Each
 * element is summed in the same order whatever the thread count, so the
 * reference does not depend on it. */
static void threaded_products(const packed_operands *pk, int threads, double *sum, double *abs_sum)
{
    full_job job = {pk, sum, abs_sum};
    gh_parallel_spans(pk->m_panels, gh_parallel_threads(threads), full_span, &job);
}

int gh_host_products(const gh_case_inputs *in, int threads, double *sum, double *abs_sum)
{
    packed_operands pk = {0};
    int rc = pack_operands(in, &pk);
    if (rc == 0) threaded_products(&pk, threads, sum, abs_sum);
    free(pk.a);
    free(pk.b);
    return rc;
}

/* ---- matrix-vector products, for Freivalds' check ---- */

/* Columns [j0, j1) of row i of a stored matrix as doubles. */
static void load_row_part(const gh_matrix *s, int64_t i, int64_t j0, int64_t j1, double *row)
{
    for (int64_t j = j0; j < j1; j++) row[j - j0] = gh_matrix_get(s, i, j);
}

void gh_load_row(const gh_matrix *s, int64_t i, double *row)
{
    load_row_part(s, i, 0, s->cols, row);
}

/* For each of `count` vectors t: y_t = op(S) x_t and y_abs_t = |op(S)| x_abs_t
 * in f64, op(S) = S or S^T; or, for integers, y_t = op(S) x_t modulo 2^64
 * (x64, y64). Vectors are stored one after the other. A part computes a span
 * of y: rows of S, or columns of S when transposed, reading each of its rows
 * once for all vectors; every y element adds its terms in row order, as one
 * thread would. */
typedef struct matvec_job {
    const gh_matrix *s;
    int transposed, count;
    const double *x, *x_abs;
    double *y, *y_abs;
    const uint64_t *x64;
    uint64_t *y64;
    double *rows; /* per part: row_len doubles (or uint64s) */
    int64_t row_len;
} matvec_job;

/* What one span of a matvec covers: rows i0..i1 and columns j0..j1 of s (a
 * span is rows of y, or its columns when transposed), and x's and y's
 * lengths. */
typedef struct span_range {
    int64_t x_len, y_len, i0, i1, j0, j1;
} span_range;

static span_range range_of(const matvec_job *job, int64_t begin, int64_t end)
{
    const gh_matrix *s = job->s;
    const int tr = job->transposed;
    return (span_range){.x_len = tr ? s->rows : s->cols,
                        .y_len = tr ? s->cols : s->rows,
                        .i0 = tr ? 0 : begin,
                        .i1 = tr ? s->rows : end,
                        .j0 = tr ? begin : 0,
                        .j1 = tr ? end : s->cols};
}

static void matvec_span(void *ctx, int64_t begin, int64_t end, int part)
{
    const matvec_job *job = ctx;
    const gh_matrix *s = job->s;
    const int tr = job->transposed;
    const span_range r = range_of(job, begin, end);
    double *row = job->rows + (size_t)part * (size_t)job->row_len;
    for (int t = 0; t < job->count; t++)
        for (int64_t o = begin; o < end; o++) job->y[t * r.y_len + o] = job->y_abs[t * r.y_len + o] = 0.0;
    for (int64_t i = r.i0; i < r.i1; i++) {
        load_row_part(s, i, r.j0, r.j1, row);
        for (int t = 0; t < job->count; t++) {
            const double *xt = job->x + t * r.x_len, *xt_abs = job->x_abs + t * r.x_len;
            double *yt = job->y + t * r.y_len, *yt_abs = job->y_abs + t * r.y_len;
            for (int64_t j = r.j0; j < r.j1; j++) {
                if (tr) {
                    yt[j] += row[j - r.j0] * xt[i];
                    yt_abs[j] += fabs(row[j - r.j0]) * xt_abs[i];
                } else {
                    yt[i] += row[j - r.j0] * xt[j];
                    yt_abs[i] += fabs(row[j - r.j0]) * xt_abs[j];
                }
            }
        }
    }
}

static void matvec_mod64_span(void *ctx, int64_t begin, int64_t end, int part)
{
    const matvec_job *job = ctx;
    const gh_matrix *s = job->s;
    const int tr = job->transposed;
    const span_range r = range_of(job, begin, end);
    uint64_t *row = (uint64_t *)job->rows + (size_t)part * (size_t)job->row_len;
    for (int t = 0; t < job->count; t++)
        for (int64_t o = begin; o < end; o++) job->y64[t * r.y_len + o] = 0;
    for (int64_t i = r.i0; i < r.i1; i++) {
        for (int64_t j = r.j0; j < r.j1; j++) row[j - r.j0] = (uint64_t)(int64_t)gh_matrix_get(s, i, j);
        for (int t = 0; t < job->count; t++) {
            const uint64_t *xt = job->x64 + t * r.x_len;
            uint64_t *yt = job->y64 + t * r.y_len;
            for (int64_t j = r.j0; j < r.j1; j++) {
                if (tr) yt[j] += row[j - r.j0] * xt[i];
                else yt[i] += row[j - r.j0] * xt[j];
            }
        }
    }
}

/* Runs a matvec job over threads; -1 when out of memory for the row buffers. */
static int matvec_run(matvec_job *job, int threads, gh_span_fn fn)
{
    const gh_matrix *s = job->s;
    const int64_t y_len = job->transposed ? s->cols : s->rows;
    const int parts = gh_verify_parts(threads, y_len, (double)(job->transposed ? s->rows : s->cols) * job->count);
    /* A part's row is its span of columns when transposed, a whole row otherwise. */
    job->row_len = job->transposed ? y_len / parts + 1 : s->cols;
    job->rows = malloc((size_t)parts * (size_t)job->row_len * sizeof(double));
    if (!job->rows) return -1;
    gh_parallel_spans(y_len, parts, fn, job);
    free(job->rows);
    return 0;
}

int gh_host_matvec(const gh_matrix *s, int transposed, int count, const double *x, const double *x_abs, double *y,
                   double *y_abs, int threads)
{
    matvec_job job = {.s = s, .transposed = transposed, .count = count, .x = x, .x_abs = x_abs, .y = y, .y_abs = y_abs};
    return matvec_run(&job, threads, matvec_span);
}

/* The same modulo 2^64: exact for integer matrices. */
int gh_host_matvec_mod64(const gh_matrix *s, int transposed, int count, const uint64_t *x, uint64_t *y, int threads)
{
    matvec_job job = {.s = s, .transposed = transposed, .count = count, .x64 = x, .y64 = y};
    return matvec_run(&job, threads, matvec_mod64_span);
}
