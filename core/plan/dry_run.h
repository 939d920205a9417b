/* --dry-run: the plan as it would run, and the exit status the run would
 * have for what can be told without running. */
#ifndef GEMMHOST_DRY_RUN_H
#define GEMMHOST_DRY_RUN_H

#include "config.h"
#include "plan.h"

/* Prints the plan; returns 0, 2 for what it proves wrong (a split whose
 * mem_limit cannot hold one chunk, a case larger than the host's memory) or
 * 3 for something requested that cannot run (a missing plugin or device,
 * nothing to run). */
int gh_dry_run(const gh_config *cfg, const gh_plan *plan);

#endif
