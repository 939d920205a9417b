/* --dry-run as the command line asks it: the plan and the run's files. */
#ifndef GEMMHOST_DRY_RUN_COMMAND_H
#define GEMMHOST_DRY_RUN_COMMAND_H

#include "cli.h"
#include "config.h"
#include "plan.h"

/* --dry-run: the plan, and what the run would do at its output files: write
 * new ones, replace an earlier run's, or meet the refusal it would. Returns
 * gh_dry_run's status, or EXIT_USAGE where the run would stop. */
int gh_dry_run_command(const gh_cli *c, const gh_config *cfg, const gh_plan *plan, int argc, char **argv);

#endif
