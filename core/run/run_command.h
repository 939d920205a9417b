/* Running a plan from the command line: the run as `gemmhost` does it
 * (its files held, the tuning step, the measuring run, the report, the exit
 * status), and the two things the dry run, the tune step and the fleet's
 * ranks take from it: the experiment and where the results go. */
#ifndef GEMMHOST_RUN_COMMAND_H
#define GEMMHOST_RUN_COMMAND_H

#include "cli.h"
#include "config.h"
#include "loader.h"
#include "plan.h"
#include "report.h"

/* The run: its files checked and locked first (run_files.h), then the
 * tuning step where asked and the measuring run. Returns an exit status. */
int gh_run_command(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, int argc, char **argv);

/* What this run is an experiment of (experiment.h): the config as run and
 * the selection. The caller frees it. */
char *gh_run_experiment_of(const gh_cli *c);

/* Where results go and how, from the command line and the config. */
gh_report_options gh_run_report_options(const gh_cli *c, const gh_config *cfg, const char *config_text,
                                        const char *experiment, int argc, char **argv);

#endif
