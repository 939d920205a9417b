/* The tune step before a run, or --tune alone, from the command line: the
 * searches into the tune cache and the tuning report. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "crash.h"
#include "report.h"
#include "run_command.h"
#include "tune_command.h"
#include "util.h"

/* The tuning report's prefix: the run's output with "-tune" to come, or
 * NULL for none. A run to follow has its own files checked now, before the
 * budget is spent. Returns -1 with err when the output cannot be used. */
static int tune_prefix(const gh_cli *c, const gh_config *cfg, int argc, char **argv, char **prefix, char *err,
                       size_t err_size)
{
    char *experiment = gh_run_experiment_of(c);
    gh_report_options ro = gh_run_report_options(c, cfg, "", experiment, argc, argv);
    ro.overwrite |= c->tune; /* --tune writes no results files: only its own are checked */
    gh_report_paths paths;
    *prefix = NULL;
    int rc = gh_report_paths_resolve(&ro, &paths, err, err_size);
    free(experiment);
    if (rc != 0) return -1;
    if (paths.csv) *prefix = gh_strdupf("%.*s", (int)(strlen(paths.csv) - strlen(".csv")), paths.csv);
    gh_report_paths_free(&paths);
    return 0;
}

int gh_tune_command(const gh_cli *c, const gh_config *cfg, gh_plan *plan, const gh_tune_options *to,
                    gh_tune_cache **cache, int argc, char **argv)
{
    char err[2048], *prefix = NULL;
    char *path = gh_tune_cache_path(cfg->run.tune_cache);
    if (!path) {
        fprintf(stderr,
                "gemmhost: the tuner has nowhere to keep its cache: set tune_cache in [run], or %s, "
                "XDG_CACHE_HOME or HOME\n",
                GH_TUNE_CACHE_ENV);
        return EXIT_USAGE;
    }
    *cache = gh_tune_cache_load(path, stderr);
    const int own_default = !c->config_path && !c->output; /* as the results files of the built-in default */
    gh_tune_report *report = NULL;
    if (tune_prefix(c, cfg, argc, argv, &prefix, err, sizeof err) == 0 &&
        gh_tune_cache_save(*cache, stderr, err, sizeof err) == 0) /* writable, before any candidate runs */
        report = gh_tune_report_open(prefix, c->overwrite || c->resume || own_default, path, err, sizeof err);
    free(prefix);
    free(path);
    if (!report) {
        fprintf(stderr, "gemmhost: %s\n", err);
        return EXIT_USAGE;
    }
    char *where = gh_strdupf(
        "the tune cache %s (in-process, the candidate that crashed is marked running "
        "there: the next tuning run takes it as crashed and goes on)",
        gh_tune_cache_file(*cache));
    gh_crash_results(where);
    free(where);
    gh_cancel_install(); /* from here a signal stops the search; the cache and report stay whole */
    gh_tune_summary sum;
    int failed_write = gh_tune_run(cfg, plan, *cache, report, to, &sum) != 0 && !sum.cancelled;
    if (to->out)
        printf(
            "\ngemmhost --tune: searches %zu; %zu measurements (%zu more from the cache): %zu passed, %zu failed, "
            "%zu unsupported, %zu errors, %zu crashed, %zu timeout%s\n",
            sum.searches, sum.measured, sum.from_cache, sum.passed, sum.failed, sum.unsupported, sum.errors,
            sum.crashed, sum.timeouts, sum.cancelled ? "; cancelled" : "");
    if (to->out) printf("tune cache: %s\n", gh_tune_cache_file(*cache));
    if (to->out && gh_tune_report_files(report)) printf("tuning results: %s\n", gh_tune_report_files(report));
    int status = sum.cancelled ? gh_cancel_exit_status() : failed_write ? EXIT_NOT_RUN : gh_tune_exit_status(&sum);
    if (gh_tune_report_close(report, sum.cancelled, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        if (status == EXIT_PASS) status = EXIT_NOT_RUN;
    }
    return status;
}

int gh_plan_has_auto_params(const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        for (size_t v = 0; v < plan->instances[i].n_variants; v++)
            if (plan->instances[i].variants[v].auto_params) return 1;
    return 0;
}
