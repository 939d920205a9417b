/* --dry-run from the command line: the plan (dry_run.h), then what the run
 * would do at its output files. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dry_run.h"
#include "dry_run_command.h"
#include "report.h"
#include "run_command.h"
#include "run_files.h"
#include "tune.h"

static int exists(const char *path)
{
    return path && access(path, F_OK) == 0;
}

int gh_dry_run_command(const gh_cli *c, const gh_config *cfg, const gh_plan *plan, int argc, char **argv)
{
    int status = gh_dry_run(cfg, plan);
    char *experiment = gh_run_experiment_of(c);
    gh_report_options ro = gh_run_report_options(c, cfg, "", experiment, argc, argv);
    gh_report_paths paths;
    char err[4096];
    int rc = gh_report_paths_resolve(&ro, &paths, err, sizeof err);
    free(experiment);
    if (rc != 0) {
        fprintf(stderr, "gemmhost: the run would stop here: %s\n", err);
        return EXIT_USAGE;
    }
    if (paths.csv) {
        int earlier = exists(paths.csv) || exists(paths.json) || exists(paths.log);
        printf("output: %s, %s and %s: %s\n", paths.csv, paths.json, paths.log,
               !earlier         ? "written new"
               : paths.replaces ? "the complete results of this same experiment there would be replaced"
                                : "the earlier files there would be replaced (--overwrite)");
    } else {
        printf("output: none (output is empty)\n");
    }
    if (paths.junit) printf("junit: %s: %s\n", paths.junit, exists(paths.junit) ? "would be replaced" : "written new");
    gh_report_paths_free(&paths);
    gh_tune_options to = {c->tune, c->tune_budget, NULL, stderr};
    int tuning = c->tune || gh_tune_wanted(cfg, plan, &to);
    char *cache = tuning ? gh_tune_cache_path(cfg->run.tune_cache) : NULL;
    gh_run_files_spec files = {&ro, !c->tune, tuning, cache};
    rc = gh_run_files_check(&files, err, sizeof err);
    free(cache);
    if (rc != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        return EXIT_USAGE;
    }
    return status;
}
