/* The tune step as the command line asks it: --tune alone, or the
 * tune = yes backends before a run. */
#ifndef GEMMHOST_TUNE_COMMAND_H
#define GEMMHOST_TUNE_COMMAND_H

#include "cli.h"
#include "config.h"
#include "plan.h"
#include "tune.h"
#include "tune_cache.h"

/* --tune, or the tune = yes backends before a run: every search into the
 * tune cache (kept in *cache for the run's `auto` parameters) and the tuning
 * report. Returns an exit status. */
int gh_tune_command(const gh_cli *c, const gh_config *cfg, gh_plan *plan, const gh_tune_options *to,
                    gh_tune_cache **cache, int argc, char **argv);

/* Whether any variant of the plan has a parameter set to `auto`, which the
 * run takes from the tune cache. */
int gh_plan_has_auto_params(const gh_plan *plan);

#endif
