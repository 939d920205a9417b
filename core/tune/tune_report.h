/* The tuner's own report: PREFIX-tune.csv (one row per candidate and size)
 * and PREFIX-tune.json (the same rows as "candidates", the best per search
 * and size class as "winners", and the notes). Both are rewritten whole
 * and atomically after every candidate (core/replace_file), so a stopped
 * tuning run leaves both readable; the JSON says "complete": false until
 * the end. */
#ifndef GEMMHOST_TUNE_REPORT_H
#define GEMMHOST_TUNE_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include "gemmhost/plugin.h"
#include "tune_class.h"

typedef struct gh_tune_report gh_tune_report;

/* Files PREFIX-tune.csv and .json; prefix NULL or "": none (rows are still
 * kept). An existing file is refused (err names it) unless `overwrite`. */
gh_tune_report *gh_tune_report_open(const char *prefix, int overwrite, const char *cache_path, char *err,
                                    size_t err_size);
/* "X-tune.csv and X-tune.json", or NULL without files. */
const char *gh_tune_report_files(const gh_tune_report *r);

/* Who a search is: the same for its rows and its winners. */
typedef struct gh_tune_who {
    const char *backend, *plugin;
    int device_index;
    const char *device_name, *driver_version, *kernel;
    gh_dtype dtype;
    int trans_a, trans_b;
} gh_tune_who;

/* One candidate on one size. */
typedef struct gh_tune_row {
    size_t candidate;   /* its place in the search order, 0 = the default */
    const char *params; /* "tile=16" */
    gh_size_class size_class;
    int64_t m, n, k;
    const char *status; /* a result status name */
    double kernel_ms, gflops;
    const char *detail;
    int from_cache; /* measured by an earlier tuning run, not again */
} gh_tune_row;

void gh_tune_report_row(gh_tune_report *r, const gh_tune_who *who, const gh_tune_row *row);

/* The best of a search for a size class (replaces an earlier one of the
 * same search and class): its rows get winner = 1. */
typedef struct gh_tune_winner {
    gh_size_class size_class;
    size_t candidate;
    const char *params;
    double gflops; /* geometric mean over the class's sizes */
    const char *default_params;
    double default_gflops; /* 0: the default did not pass */
    const char *sizes;     /* "64x64x64, 100x75x50" */
} gh_tune_winner;

void gh_tune_report_winner(gh_tune_report *r, const gh_tune_who *who, const gh_tune_winner *w);
void gh_tune_report_note(gh_tune_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Rewrites both files. Returns 0, or -1 with err (the first failure is kept). */
int gh_tune_report_write(gh_tune_report *r, char *err, size_t err_size);
/* The last write, "complete": true unless cancelled; frees r. 0 or -1 with err. */
int gh_tune_report_close(gh_tune_report *r, int cancelled, char *err, size_t err_size);

#endif
