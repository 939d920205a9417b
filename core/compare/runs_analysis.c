/* The comparison's document; see runs_analysis.h. */
#include "runs_analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_diff.h"
#include "speed_verdict.h"
#include "status_change.h"
#include "util.h"

static int ran(const gh_rf_result *r)
{
    return strcmp(r->status, "pass") == 0 || strcmp(r->status, "unchecked") == 0 || strcmp(r->status, "FAIL") == 0;
}

static json_t *num_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *timing_json(const gh_rf_result *r)
{
    return json_pack("{s:o, s:o, s:o}", "min", num_or_null(r->ms_min), "median", num_or_null(r->ms_median), "max",
                     num_or_null(r->ms_max));
}

/* {"case", "result"}: what a row is about. */
static json_t *row_json(const gh_rf_result *r)
{
    char c[256], l[1024];
    gh_rf_case_label(r, c, sizeof c);
    gh_rf_result_label(r, l, sizeof l);
    return json_pack("{s:s, s:s}", "case", c, "result", l);
}

static json_t *files_json(const gh_results_file *files, size_t n)
{
    json_t *out = json_array();
    for (size_t f = 0; f < n; f++)
        json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:I}", "label", files[f].label, "path",
                                             files[f].path, "host", files[f].host, "version", files[f].version,
                                             "git_commit", files[f].git_commit, "complete", files[f].complete,
                                             "results", (json_int_t)files[f].n_results));
    return out;
}

/* File `o` against file 0. */
static json_t *pair_json(const gh_results_file *files, const gh_matches *m, size_t o, double threshold,
                         size_t *regressions)
{
    json_t *speed = json_array(), *status = json_array(), *added = json_array(), *missing = json_array(),
           *outputs = json_array();
    gh_speed_summary sum = {0};
    size_t matched = 0;
    for (size_t i = 0; i < m->n_rows; i++) {
        const gh_rf_result *a = m->rows[i].in[0], *b = m->rows[i].in[o];
        if (!a && !b) continue;
        if (!a || !b) {
            json_array_append_new(a ? missing : added, row_json(a ? a : b));
            continue;
        }
        matched++;
        gh_status_change change = gh_status_change_of(a->status, b->status);
        if (change != GH_STATUS_SAME) {
            json_t *row = row_json(b);
            json_object_set_new(row, "before", json_string(a->status));
            json_object_set_new(row, "after", json_string(b->status));
            json_object_set_new(row, "change", json_string(gh_status_change_name(change)));
            if (*b->detail) json_object_set_new(row, "detail", json_string(b->detail));
            json_array_append_new(status, row);
            if (change == GH_STATUS_WORSE) ++*regressions;
        }
        json_t *moved = gh_output_change_json(a, b);
        if (moved && json_is_true(json_object_get(moved, "beyond_bound"))) {
            json_t *row = row_json(b);
            json_object_update(row, moved);
            json_array_append_new(outputs, row);
            ++*regressions;
        }
        json_decref(moved);
        if (strcmp(a->status, "pass") != 0 || strcmp(b->status, "pass") != 0) continue; /* times of a pass only */
        double ratio;
        gh_speed_verdict v = gh_speed_verdict_of((gh_timing){a->ms_min, a->ms_median, a->ms_max},
                                                 (gh_timing){b->ms_min, b->ms_median, b->ms_max}, threshold, &ratio);
        gh_speed_summary_add(&sum, v, ratio);
        if (v == GH_SPEED_SLOW) ++*regressions;
        json_t *row = row_json(b);
        json_object_set_new(row, "base_ms", timing_json(a));
        json_object_set_new(row, "other_ms", timing_json(b));
        json_object_set_new(row, "ratio", num_or_null(ratio));
        json_object_set_new(row, "verdict", json_string(gh_speed_verdict_name(v)));
        json_array_append_new(speed, row);
    }
    json_t *summary =
        json_pack("{s:I, s:I, s:I, s:I, s:I, s:o}", "matched", (json_int_t)matched, "same", (json_int_t)sum.same,
                  "fast", (json_int_t)sum.fast, "slow", (json_int_t)sum.slow, "untimed", (json_int_t)sum.na,
                  "geomean_ratio", num_or_null(gh_speed_summary_geomean(&sum)));
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "base", files[0].label, "other", files[o].label,
                     "summary", summary, "speed", speed, "status", status, "outputs", outputs, "new", added, "missing",
                     missing);
}

/* One entry per case that ran in any file: its outputs grouped by hash. */
static json_t *agreement_json(const gh_results_file *files, const gh_matches *m)
{
    json_t *out = json_array(), *case_at = json_object(); /* case key -> index in out */
    for (size_t i = 0; i < m->n_rows; i++)
        for (size_t f = 0; f < m->n_files; f++) {
            const gh_rf_result *r = m->rows[i].in[f];
            if (!r || !r->output_hash || !ran(r)) continue;
            char *key = gh_match_case_key(r);
            json_t *entry;
            if (!json_object_get(case_at, key)) {
                json_object_set_new(case_at, key, json_integer((json_int_t)json_array_size(out)));
                entry = row_json(r);
                json_object_del(entry, "result");
                json_object_set_new(entry, "groups", json_array());
                json_object_set_new(entry, "files", json_object());
                json_array_append_new(out, entry);
            }
            entry = json_array_get(out, (size_t)json_integer_value(json_object_get(case_at, key)));
            free(key);
            json_t *groups = json_object_get(entry, "groups"), *group = NULL;
            for (size_t g = 0; g < json_array_size(groups) && !group; g++)
                if (strcmp(json_string_value(json_object_get(json_array_get(groups, g), "hash")), r->output_hash) == 0)
                    group = json_array_get(groups, g);
            if (!group) {
                group = json_pack("{s:s, s:[], s:{}}", "hash", r->output_hash, "members", "per_file");
                json_array_append_new(groups, group);
            }
            char label[1100], l[1024];
            gh_rf_result_label(r, l, sizeof l);
            snprintf(label, sizeof label, "%s: %s", files[f].label, l);
            json_array_append_new(json_object_get(group, "members"), json_string(label));
            json_t *per_file = json_object_get(group, "per_file"), *files_of = json_object_get(entry, "files");
            json_object_set_new(per_file, files[f].label,
                                json_integer(json_integer_value(json_object_get(per_file, files[f].label)) + 1));
            json_object_set_new(files_of, files[f].label, json_true());
        }
    json_decref(case_at);
    return out;
}

json_t *gh_compare_analyse(const gh_results_file *files, size_t n, const gh_matches *m, double threshold,
                           size_t *regressions)
{
    *regressions = 0;
    json_t *pairs = json_array();
    for (size_t o = 1; o < n; o++) json_array_append_new(pairs, pair_json(files, m, o, threshold, regressions));
    json_t *agreement = agreement_json(files, m);
    gh_output_agreement_diffs(agreement, files, m);
    return json_pack("{s:o, s:f, s:o, s:o, s:s, s:I}", "files", files_json(files, n), "threshold", threshold,
                     "comparisons", pairs, "agreement", agreement, "agreement_note",
                     "groups are bit-identical outputs (output_hash); between groups, the largest difference at the "
                     "output fingerprints' positions, in units of the error bound there (<= 1: within it); results "
                     "files from before fingerprints give none",
                     "regressions", (json_int_t)*regressions);
}
