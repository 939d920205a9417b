/* What a run shows on the terminal. By default the first screen
 * (first_screen.h) at the end: a line per device and kernel, the agreement
 * and the fastest per dtype, every failure and every note. Verbose: a row
 * per result as it arrives (the split members and each case's agreement
 * under them), the notes as they come, and a summary at the end that
 * repeats every failure. With quiet: no table and no summary, but failures,
 * errors and notes still go to `err`. */
#ifndef GEMMHOST_TABLE_H
#define GEMMHOST_TABLE_H

#include <stdio.h>
#include "report.h"
#include "result.h"

typedef struct gh_table gh_table;

typedef struct gh_table_options {
    FILE *out; /* the table and the summary (stdout) */
    FILE *err; /* with quiet: failures, errors and notes (stderr) */
    int quiet;
    int full_agreement; /* every group's members under each agreement line (verbose) */
    int verbose;        /* every row as it comes, not the first screen */
} gh_table_options;

/* Widest cell before it wraps onto more lines. */
enum { GH_TABLE_MAX_CELL = 60 };

/* NULL when out of memory. */
gh_table *gh_table_open(const gh_table_options *o);
/* A row that will come: the text columns are sized to hold it (up to
 * GH_TABLE_MAX_CELL; longer cells wrap). Only before the first result. */
void gh_table_expect(gh_table *t, const char *backend, const char *device_label, const char *kernel,
                     const char *params);
void gh_table_result(gh_table *t, const gh_result *res);
void gh_table_split_members(gh_table *t, const gh_report_split_member *members, size_t n);
void gh_table_agreement(gh_table *t, const gh_agreement *a);
/* A note now, and again at the end. */
void gh_table_note(gh_table *t, const char *text);
/* A line said once, now: on out, or on err with quiet. */
void gh_table_say(gh_table *t, const char *text);
/* A line on out, with quiet too (the files written). */
void gh_table_line(gh_table *t, const char *text);
/* Per backend, device, kernel and params: counts of each status and the best
 * GFLOP/s per dtype; the agreement and the fastest per dtype; then every
 * failure and error with its reason, and the notes. Nothing with quiet
 * (those went to err as they came). */
void gh_table_summary(gh_table *t);
/* Flushes and frees; NULL is fine. */
void gh_table_close(gh_table *t);

#endif
