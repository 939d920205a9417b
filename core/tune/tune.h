/* The tuner (gemmhost --tune, or tune = yes in a [backend]): for each
 * selected backend, device, kernel with parameters and dtype of the run, a
 * search (tune_search.h) whose best parameters per size class land in the
 * tune cache (tune_cache.h), where a parameter set to `auto` finds them
 * (tune_auto.h). docs/tuning.md is the user's view. */
#ifndef GEMMHOST_TUNE_H
#define GEMMHOST_TUNE_H

#include <stdio.h>
#include "config.h"
#include "plan.h"
#include "tune_cache.h"
#include "tune_report.h"
#include "tune_search.h"

typedef struct gh_tune_options {
    int every_backend;      /* --tune: every backend the plan runs; else those with tune = yes */
    double budget_override; /* --tune-budget, seconds; < 0: each backend's tune_budget, else [run]'s */
    FILE *out;              /* a line per candidate and the winners; NULL: quiet */
    FILE *messages;         /* notes, warnings, failures (stderr) */
} gh_tune_options;

/* Whether these options tune anything of the plan (a backend to tune). */
int gh_tune_wanted(const gh_config *cfg, const gh_plan *plan, const gh_tune_options *o);

/* Runs every search into cache and report; sum says what happened. Returns
 * 0, or -1 when cancelled or the cache could not be written. */
int gh_tune_run(const gh_config *cfg, gh_plan *plan, gh_tune_cache *cache, gh_tune_report *report,
                const gh_tune_options *o, gh_tune_summary *sum);

/* The exit status (cli.h) of a tuning run that was not cancelled: 1 when a
 * candidate measured in it failed verification, crashed or timed out; else
 * 3 when a backend could not run, a size class found no passing candidate
 * or nothing was tuned; else 0. */
int gh_tune_exit_status(const gh_tune_summary *sum);

#endif
