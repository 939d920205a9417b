/* Matching results across files; see runs_match.h. */
#include "runs_match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *gh_match_case_key(const gh_rf_result *r)
{
    /* B's and C's types and the scales too: two 8-bit runs match only with the same ones */
    return gh_strdupf("%d\x1f%s\x1f%s\x1f%s\x1f%s\x1f%lldx%lldx%lld\x1f%.17g\x1f%.17g\x1f%.17g\x1f%.17g\x1f%.17g",
                      r->case_index, r->dtype, r->b_dtype, r->c_dtype, r->trans, (long long)r->m, (long long)r->n,
                      (long long)r->k, r->alpha, r->beta, r->scale_a, r->scale_b, r->scale_c);
}

static char *result_key(const gh_rf_result *r, const gh_match_options *o)
{
    char *c = gh_match_case_key(r);
    char *k = gh_strdupf("%s\x1e%s\x1f%d\x1f%s\x1f%s\x1f%s\x1f%d\x1f%s", c, o->by_plugin ? r->plugin : r->backend,
                         r->device_index, o->ignore_device_names ? "" : r->device_name, r->kernel, r->params,
                         o->ignore_ranks ? -1 : r->rank, o->ignore_ranks || o->ignore_hosts ? "" : r->rank_host);
    free(c);
    return k;
}

typedef struct entry {
    char *key;
    size_t file, seq; /* seq: the position of its first appearance, for the rows' order */
    const gh_rf_result *r;
} entry;

static int by_key(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    if (c) return c;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int by_first_seq(const void *x, const void *y)
{
    size_t a = ((const gh_match_row *)x)->order, b = ((const gh_match_row *)y)->order;
    return a < b ? -1 : a > b;
}

int gh_match_results(const gh_results_file *files, size_t n, const gh_match_options *o, gh_matches *out, char *err,
                     size_t err_size)
{
    memset(out, 0, sizeof *out);
    out->n_files = n;
    size_t total = 0;
    for (size_t f = 0; f < n; f++) total += files[f].n_results;
    entry *e = gh_xcalloc(total + 1, sizeof *e);
    size_t k = 0;
    for (size_t f = 0; f < n; f++)
        for (size_t i = 0; i < files[f].n_results; i++, k++)
            e[k] = (entry){result_key(&files[f].results[i], o), f, k, &files[f].results[i]};
    qsort(e, total, sizeof *e, by_key);
    out->rows = gh_xcalloc(total + 1, sizeof *out->rows);
    int rc = 0;
    for (size_t i = 0; i < total && rc == 0; i++) {
        gh_match_row *row;
        if (i == 0 || strcmp(e[i].key, e[i - 1].key) != 0) {
            row = &out->rows[out->n_rows];
            row->in = gh_xcalloc(n, sizeof *row->in);
            row->order = e[i].seq;
            out->n_rows++;
        } else row = &out->rows[out->n_rows - 1];
        if (row->in[e[i].file]) {
            char a[512], b[512], c[256];
            gh_rf_result_label(row->in[e[i].file], a, sizeof a);
            gh_rf_result_label(e[i].r, b, sizeof b);
            gh_rf_case_label(e[i].r, c, sizeof c);
            snprintf(err, err_size, "%s: holds two results that match as one (%s and %s, %s)%s", files[e[i].file].path,
                     a, b, c,
                     o->ignore_ranks ? ": two ranks ran it; match them rank by rank (leave out --ignore-ranks)"
                     : o->by_plugin  ? ": two sections of one plugin; match by backend (leave out --by-plugin)"
                                     : ": is it two runs' results in one file?");
            rc = -1;
            break;
        }
        row->in[e[i].file] = e[i].r;
        if (!row->any) row->any = e[i].r; /* entries of a key come in file order */
        row->n_in++;
    }
    for (size_t i = 0; i < total; i++) free(e[i].key);
    free(e);
    qsort(out->rows, out->n_rows, sizeof *out->rows, by_first_seq);
    if (rc != 0) gh_matches_free(out);
    return rc;
}

void gh_matches_free(gh_matches *m)
{
    for (size_t i = 0; i < m->n_rows; i++) free(m->rows[i].in);
    free(m->rows);
    memset(m, 0, sizeof *m);
}
