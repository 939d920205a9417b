/* One search of the tuner: one backend instance's kernel on one device in
 * one dtype, over its parameter space (tune_space.h), on the representative
 * sizes of each size class (tune_class.h) the run's sizes fall in: up to
 * three per class (the smallest, the median and the largest by volume).
 *
 * Each candidate, in search order, runs on every size as a run would (the
 * run's warmup, repeat and verification; verify = none is taken as auto:
 * a candidate is never timed unverified), in a worker process under
 * isolation. A candidate that fails verification, crashes or times out is
 * rejected at once (its other sizes are skipped); one the plugin refuses is
 * unsupported on that size. A measurement already in the cache is taken
 * from there, not run again. After each candidate the cache and the tuning
 * report are written, and each class's best is the candidate that passed
 * on all of the class's sizes with the highest geometric mean of GFLOP/s.
 *
 * The budget is wall time for the candidates this run measures: the default
 * always runs; after it, no new candidate starts once the budget is spent
 * (those already in the cache still count). */
#ifndef GEMMHOST_TUNE_SEARCH_H
#define GEMMHOST_TUNE_SEARCH_H

#include <stddef.h>
#include <stdio.h>
#include "plan.h"
#include "tune_cache.h"
#include "tune_report.h"

/* What a tuning run did, for its summary and exit status. */
typedef struct gh_tune_summary {
    size_t searches;
    size_t measured, from_cache; /* candidate x size measurements, new and reused */
    size_t passed, failed, unsupported, errors, crashed, timeouts;
    size_t untried;           /* candidates left when a budget ran out */
    size_t no_winner;         /* size classes of a search where no candidate passed */
    size_t requested_not_run; /* backends that could not run, searches where nothing ran at all */
    int cancelled;
} gh_tune_summary;

typedef struct gh_tune_search {
    const gh_run_config *run; /* verification on (see above) */
    gh_instance *inst;
    const gh_backend_config *bc; /* its section (narrows the space); NULL in auto mode */
    int device, kernel;
    gh_dtype dtype;
    double budget_s;
    gh_tune_cache *cache;
    gh_tune_report *report;
    FILE *out;      /* a line per candidate and the winners; NULL: quiet */
    FILE *messages; /* warnings and write failures */
} gh_tune_search;

/* Runs the search, adding to sum. Returns 0, or -1 when cancelled
 * (cancel.h) or when the cache could not be written (said on messages). */
int gh_tune_search_run(const gh_tune_search *s, gh_tune_summary *sum);

#endif
