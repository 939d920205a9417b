/* Results matched across results files: one row per result key (case,
 * backend or plugin, device, kernel, params) with each file's result or
 * NULL, in the order the rows first appear. */
#ifndef GEMMHOST_RUNS_MATCH_H
#define GEMMHOST_RUNS_MATCH_H

#include <stddef.h>

#include "results_file.h"

typedef struct gh_match_options {
    int by_plugin;           /* match by plugin, not by the [backend NAME] section */
    int ignore_device_names; /* match devices by index only (another machine's GPU) */
    int ignore_hosts;        /* fleet files: pair results by rank alone (another allocation's nodes) */
    int ignore_ranks;        /* fleet files: match across ranks and hosts (a fleet against one run) */
} gh_match_options;

typedef struct gh_match_row {
    const gh_rf_result **in; /* in[f]: file f's result, NULL when it has none */
    const gh_rf_result *any; /* the first file's result that has one: for labels */
    size_t n_in;             /* how many files have one */
    size_t order;            /* where it first appears, over the files in order */
} gh_match_row;

typedef struct gh_matches {
    gh_match_row *rows;
    size_t n_rows, n_files;
} gh_matches;

/* The case a result belongs to: inputs are drawn from the seed and the
 * case's index, so the index is part of it. Caller frees. */
char *gh_match_case_key(const gh_rf_result *r);

/* Matches every result of files[0..n). Returns -1 with err when one file
 * holds two results of one key (then the options merge what should not). */
int gh_match_results(const gh_results_file *files, size_t n, const gh_match_options *o, gh_matches *out, char *err,
                     size_t err_size);
void gh_matches_free(gh_matches *m);

#endif
