/* Outputs compared through their fingerprints; see output_diff.h. */
#include "output_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int ran(const gh_rf_result *r)
{
    return r->output_hash &&
           (!strcmp(r->status, "pass") || !strcmp(r->status, "unchecked") || !strcmp(r->status, "FAIL"));
}

static json_t *num_or_text(double v)
{
    return isfinite(v) ? json_real(v) : json_string(isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

json_t *gh_output_change_json(const gh_rf_result *base, const gh_rf_result *other)
{
    if (!base || !other || !ran(base) || !ran(other) || !base->fingerprint || !other->fingerprint) return NULL;
    if (!strcmp(base->output_hash, other->output_hash)) return NULL;
    int at = -1;
    double d = gh_fingerprint_diff(base->fingerprint, other->fingerprint, &at);
    if (at < 0) return NULL; /* no shared position */
    const gh_fingerprint *x = base->fingerprint, *y = other->fingerprint;
    double other_value = NAN, bound = x->bound[at];
    for (int q = 0; q < y->n; q++)
        if (y->i[q] == x->i[at] && y->j[q] == x->j[at]) {
            other_value = y->value[q];
            if (y->bound[q] > bound) bound = y->bound[q];
        }
    return json_pack("{s:o, s:i, s:i, s:o, s:o, s:o, s:b}", "diff_in_bounds", num_or_text(d), "i", (int)x->i[at], "j",
                     (int)x->j[at], "base_value", num_or_text(x->value[at]), "other_value", num_or_text(other_value),
                     "bound", num_or_text(bound), "beyond_bound", !(d <= 1.0));
}

/* One result that ran, with its file, under its case's label. */
typedef struct ran_result {
    char case_label[256];
    const gh_rf_result *r;
    size_t file;
} ran_result;

static int by_case(const void *a, const void *b)
{
    return strcmp(((const ran_result *)a)->case_label, ((const ran_result *)b)->case_label);
}

static json_t *entry_of(json_t *agreement, const char *case_label)
{
    for (size_t e = 0; e < json_array_size(agreement); e++) {
        json_t *entry = json_array_get(agreement, e);
        const char *label = json_string_value(json_object_get(entry, "case"));
        if (label && !strcmp(label, case_label)) return entry;
    }
    return NULL;
}

static json_t *member_label(const gh_results_file *files, const ran_result *x)
{
    char l[1024];
    gh_rf_result_label(x->r, l, sizeof l);
    return json_sprintf("%s: %s", files[x->file].label, l);
}

/* The results of one case, [begin, end): every pair from two groups. */
static void case_diffs(json_t *entry, const gh_results_file *files, const ran_result *all, size_t begin, size_t end)
{
    double worst = -1;
    size_t wa = 0, wb = 0;
    for (size_t a = begin; a < end; a++)
        for (size_t b = a + 1; b < end; b++) {
            const gh_rf_result *x = all[a].r, *y = all[b].r;
            if (!strcmp(x->output_hash, y->output_hash) || !x->fingerprint || !y->fingerprint) continue;
            int at;
            double d = gh_fingerprint_diff(x->fingerprint, y->fingerprint, &at);
            if (at >= 0 && (d > worst || isnan(d))) {
                worst = d;
                wa = a;
                wb = b;
            }
        }
    if (json_array_size(json_object_get(entry, "groups")) < 2) return;
    if (worst < 0) {
        json_object_set_new(entry, "fingerprints", json_false());
        return;
    }
    json_object_set_new(entry, "max_diff_in_bounds", num_or_text(worst));
    json_object_set_new(entry, "worst",
                        json_pack("[o, o]", member_label(files, &all[wa]), member_label(files, &all[wb])));
}

void gh_output_agreement_diffs(json_t *agreement, const gh_results_file *files, const gh_matches *m)
{
    ran_result *all = gh_xcalloc(m->n_rows * m->n_files + 1, sizeof *all);
    size_t n = 0;
    for (size_t i = 0; i < m->n_rows; i++)
        for (size_t f = 0; f < m->n_files; f++) {
            const gh_rf_result *r = m->rows[i].in[f];
            if (!r || !ran(r)) continue;
            gh_rf_case_label(r, all[n].case_label, sizeof all[n].case_label);
            all[n].r = r;
            all[n].file = f;
            n++;
        }
    qsort(all, n, sizeof *all, by_case);
    for (size_t begin = 0, end; begin < n; begin = end) {
        for (end = begin + 1; end < n && !strcmp(all[end].case_label, all[begin].case_label); end++) {}
        json_t *entry = entry_of(agreement, all[begin].case_label);
        if (entry) case_diffs(entry, files, all, begin, end);
    }
    free(all);
}
