/* gemmhost: command line, then config -> plan -> run -> report. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cancel.h"
#include "cli.h"
#include "crash.h"
#include "config.h"
#include "data.h"
#include "gemmhost_build_info.h"
#include "dry_run.h"
#include "encode.h"
#include "experiment.h"
#include "fleet_comm.h"
#include "fleet_rank.h"
#include "fleet_report.h"
#include "kept_outputs.h"
#include "host_memory.h"
#include "list.h"
#include "loader.h"
#include "placement.h"
#include "plan.h"
#include "probe.h"
#include "proxy.h"
#include "report.h"
#include "resume.h"
#include "runs_compare.h"
#include "run.h"
#include "run_files.h"
#include "stdout_guard.h"
#include "timeline.h"
#include "tune.h"
#include "save_output.h"
#include "util.h"
#include "worker.h"

/* This process's place in an MPI job (docs/fleet.md); one rank without. */
static gh_fleet fleet;
/* Under MPI, this rank as its results files' head says it: {"rank", ...}. */
static char *fleet_head;

/* The config as it ran: the file's text and the overrides on top. */
static char *config_as_run(const gh_cli *c)
{
    char *text = NULL;
    if (c->config_path) {
        FILE *f = fopen(c->config_path, "r");
        if (f) {
            size_t cap = 4096, len = 0, got;
            text = gh_xmalloc(cap);
            while ((got = fread(text + len, 1, cap - len - 1, f)) > 0) {
                len += got;
                if (cap - len < 2) text = gh_xrealloc(text, cap *= 2);
            }
            text[len] = '\0';
            fclose(f);
        }
    }
    if (!text) text = gh_strdup(gh_default_config_text);
    for (size_t i = 0; i < c->n_overrides; i++) {
        char *next = gh_strdupf("%s\n; --set %s\n", text, c->overrides[i]);
        free(text);
        text = next;
    }
    return text;
}

static void report_plugins(gh_report *report, const gh_plugin_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        const gh_loaded_plugin *p = set->items[i];
        gh_report_plugin info = {p->name,      p->path,      p->api ? p->api->version : "",
                                 p->abi_major, p->abi_minor, p->api ? NULL : p->error};
        gh_report_plugin_info(report, &info);
    }
}

static void report_devices(gh_report *report, const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        if (inst->problem) continue; /* filtered-out instances too: a split may use their devices */
        for (size_t d = 0; d < inst->n_devices; d++)
            gh_report_device(report, inst->name, inst->devices[d],
                             inst->plugin->api->device_info(inst->ctx, inst->devices[d]));
    }
}

/* Every row the table will show, so its columns fit them all. */
static void expect_rows(gh_report *report, const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        if (inst->problem) continue;
        for (size_t d = 0; d < inst->n_devices; d++) {
            const gh_device_info *info = inst->plugin->api->device_info(inst->ctx, inst->devices[d]);
            char device[512];
            snprintf(device, sizeof device, "%d:%s", inst->devices[d], info && info->name ? info->name : "?");
            for (size_t v = 0; v < inst->n_variants; v++)
                gh_report_expect(report, inst->name, device, inst->variants[v].info->name, inst->variants[v].label);
        }
    }
    for (size_t i = 0; i < plan->n_splits; i++) {
        const gh_split_plan *sp = &plan->splits[i];
        if (!sp->problem) gh_report_expect(report, sp->name, sp->device_name, sp->kernel, sp->params);
    }
}

static int exit_status(const gh_run_summary *s, int quiet)
{
    size_t ran = s->passed + s->failed + s->unsupported + s->errors + s->unchecked + s->crashed + s->timeouts;
    /* With quiet too: the one line a script or a person reads. */
    printf("%sgemmhost: %zu passed, %zu failed, %zu unsupported, %zu errors, %zu unchecked", quiet ? "" : "\n",
           s->passed, s->failed, s->unsupported, s->errors, s->unchecked);
    if (s->crashed || s->timeouts) printf(", %zu crashed, %zu timeout", s->crashed, s->timeouts);
    if (gh_cancel_requested()) printf(", %zu cancelled (stopped by %s)", s->cancelled, gh_cancel_signal_name());
    printf("\n");
    if (gh_cancel_requested()) return gh_cancel_exit_status(); /* 130, 143: what a shell expects of a stopped run */
    if (s->failed || s->crashed || s->timeouts) return EXIT_VERIFY_FAILED;
    if (s->requested_not_run || ran == 0) {
        if (ran == 0) fprintf(stderr, "gemmhost: nothing ran (see the notes above and gemmhost --list)\n");
        return EXIT_NOT_RUN;
    }
    return EXIT_PASS;
}

/* What this run is an experiment of (experiment.h): the config as run and
 * the selection. */
static char *experiment_of(const gh_cli *c)
{
    char *config_text = config_as_run(c);
    char *id = gh_experiment_id(config_text, c->filters.backends, c->filters.kernels, c->filters.devices);
    free(config_text);
    return id;
}

/* Where results go and how, from the command line and the config. */
static gh_report_options report_options(const gh_cli *c, const gh_config *cfg, const char *config_text,
                                        const char *experiment, int argc, char **argv)
{
    return (gh_report_options){
        .prefix = c->output ? c->output : cfg->run.output,
        .junit_path = c->junit,
        .overwrite = c->overwrite,
        .experiment = experiment,
        .config_text = config_text,
        .argc = argc,
        .argv = argv,
        .table = stdout,
        .messages = stderr,
        .quiet = c->quiet,
        .full_agreement = c->full_agreement,
        .verbose = c->verbose,
        .resume = c->resume,
        .fleet_json = fleet_head,
    };
}

static int run_plan(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, int argc,
                    char **argv);

static int exists(const char *path)
{
    return path && access(path, F_OK) == 0;
}

/* --dry-run: the plan, and what the run would do at its output files: write
 * new ones, replace an earlier run's, or meet the refusal it would. */
static int dry_run(const gh_cli *c, const gh_config *cfg, const gh_plan *plan, int argc, char **argv)
{
    int status = gh_dry_run(cfg, plan);
    char *experiment = experiment_of(c);
    gh_report_options ro = report_options(c, cfg, "", experiment, argc, argv);
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

/* --resume: the earlier results at the output, or NULL (*resume) when there
 * are none. Returns -1 with err when they cannot be continued. */
static int load_resume(const gh_cli *c, const gh_report_options *ro, const gh_plan *plan, gh_resume **resume, char *err,
                       size_t err_size)
{
    *resume = NULL;
    if (!c->resume) return 0;
    gh_report_paths paths;
    if (gh_report_paths_resolve(ro, &paths, err, err_size) != 0) return -1;
    int rc = 0;
    if (!paths.json) {
        snprintf(err, err_size,
                 "--resume needs the results files of the run to continue, but output is empty: "
                 "give --output PREFIX");
        rc = -1;
    } else if (gh_resume_load(paths.json, paths.log, ro->settings_json, resume, err, err_size) != 0 ||
               gh_run_check_resume(plan, *resume, paths.json, err, err_size) != 0) {
        rc = -1;
    } else if (!c->quiet) {
        if (*resume)
            fprintf(stderr, "gemmhost: resuming %s: %zu earlier results kept (not run again)%s\n", paths.json,
                    gh_resume_final_count(*resume),
                    gh_resume_cancelled_count(*resume) ? ", the cancelled one runs again" : "");
        else fprintf(stderr, "gemmhost: --resume: no %s yet, so everything runs\n", paths.json);
    }
    gh_report_paths_free(&paths);
    return rc;
}

/* The tuning report's prefix: the run's output with "-tune" to come, or
 * NULL for none. A run to follow has its own files checked now, before the
 * budget is spent. Returns -1 with err when the output cannot be used. */
static int tune_prefix(const gh_cli *c, const gh_config *cfg, int argc, char **argv, char **prefix, char *err,
                       size_t err_size)
{
    char *experiment = experiment_of(c);
    gh_report_options ro = report_options(c, cfg, "", experiment, argc, argv);
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

/* --tune, or the tune = yes backends before a run: every search into the
 * tune cache (kept in *cache for the run's `auto` parameters) and the tuning
 * report. Returns an exit status. */
static int tune(const gh_cli *c, const gh_config *cfg, gh_plan *plan, const gh_tune_options *to, gh_tune_cache **cache,
                int argc, char **argv)
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

static int has_auto_params(const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        for (size_t v = 0; v < plan->instances[i].n_variants; v++)
            if (plan->instances[i].variants[v].auto_params) return 1;
    return 0;
}

/* Of a tuning step's and its run's exit statuses, the one that says more. */
static int worse_status(int a, int b)
{
    if (a == EXIT_VERIFY_FAILED || b == EXIT_VERIFY_FAILED) return EXIT_VERIFY_FAILED;
    if (a == EXIT_NOT_RUN || b == EXIT_NOT_RUN) return EXIT_NOT_RUN;
    return a != EXIT_PASS ? a : b;
}

/* The run itself, its files held: the tuning, then the measuring run. */
static int run_held(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan,
                    const gh_tune_options *to, int tuning, int argc, char **argv)
{
    gh_tune_cache *cache = NULL;
    int tune_status = EXIT_PASS;
    if (tuning) {
        tune_status = tune(c, cfg, plan, to, &cache, argc, argv);
        gh_crash_results(""); /* the run names its own files */
        if (c->tune || tune_status == EXIT_USAGE || gh_cancel_requested()) {
            gh_tune_cache_free(cache);
            return tune_status;
        }
    }
    if (!cache && has_auto_params(plan)) {
        char *path = gh_tune_cache_path(cfg->run.tune_cache);
        if (path) cache = gh_tune_cache_load(path, stderr);
        free(path);
    }
    plan->tune_cache = cache;
    int status = run_plan(c, cfg, plugins, plan, argc, argv);
    plan->tune_cache = NULL;
    gh_tune_cache_free(cache);
    return gh_cancel_requested() ? status : worse_status(status, tune_status);
}

/* The run: its files checked and locked first (run_files.h), then run. */
static int run(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, int argc, char **argv)
{
    char err[2048];
    int memory = gh_check_host_memory(cfg, plan, 0, err, sizeof err);
    if (memory != 0) fprintf(stderr, "gemmhost: %s%s\n", memory > 0 ? "warning: " : "", err);
    if (memory < 0) return EXIT_USAGE;
    if (c->timeline && gh_timeline_start(c->timeline, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        return EXIT_USAGE;
    }
    gh_tune_options to = {c->tune, c->tune_budget, c->quiet ? NULL : stdout, stderr};
    int tuning = c->tune || gh_tune_wanted(cfg, plan, &to);
    gh_report_options ro = report_options(c, cfg, "", NULL, argc, argv);
    char *cache = tuning ? gh_tune_cache_path(cfg->run.tune_cache) : NULL;
    gh_run_files_spec spec = {&ro, !c->tune, tuning, cache};
    gh_run_files files;
    int rc = gh_run_files_hold(&spec, &files, err, sizeof err);
    free(cache);
    if (rc != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        return EXIT_USAGE;
    }
    int status = run_held(c, cfg, plugins, plan, &to, tuning, argc, argv);
    if (gh_run_files_release(&files, err, sizeof err) != 0) fprintf(stderr, "gemmhost: warning: %s\n", err);
    if (gh_timeline_finish(err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        if (status == EXIT_PASS) status = EXIT_NOT_RUN;
    }
    return status;
}

/* The measuring run: results reported as they arrive, then the summary. */
static int run_plan(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, int argc, char **argv)
{
    char err[2048];
    char *config_text = config_as_run(c);
    char *settings = gh_resume_settings_json(cfg);
    char *experiment = experiment_of(c);
    gh_report_options ro = report_options(c, cfg, config_text, experiment, argc, argv);
    ro.settings_json = settings;
    gh_resume *resume = NULL;
    gh_report *report = NULL;
    if ((!cfg->run.save_outputs || gh_save_outputs_prepare(cfg->run.save_outputs, err, sizeof err) == 0) &&
        load_resume(c, &ro, plan, &resume, err, sizeof err) == 0)
        report = gh_report_open(&ro, err, sizeof err);
    free(config_text);
    free(settings);
    free(experiment);
    if (!report) {
        fprintf(stderr, "gemmhost: %s\n", err);
        gh_resume_free(resume);
        return EXIT_USAGE;
    }
    if (gh_report_files(report)) gh_crash_results(gh_report_files(report));
    report_plugins(report, plugins);
    report_devices(report, plan);
    expect_rows(report, plan);
    gh_run_summary summary;
    gh_progress_mode progress = c->quiet                ? GH_PROGRESS_OFF
                                : isatty(STDERR_FILENO) ? GH_PROGRESS_TERMINAL
                                                        : GH_PROGRESS_LOG;
    gh_cancel_install(); /* from here a signal stops the run and closes the reports */
    gh_run_plan(cfg, plan, resume, report, progress, &summary);
    if (gh_cancel_requested()) gh_report_cancelled(report, gh_cancel_signal_name());
    gh_report_summary(report);
    int status = exit_status(&summary, c->quiet);
    if (gh_report_close(report, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        if (status == EXIT_PASS) status = EXIT_NOT_RUN;
    }
    gh_resume_free(resume); /* after the report: resumed results point into it */
    return status;
}

/* The version, what it was built from, and each plugin the search path finds. */
static void print_version(void)
{
    printf("gemmhost %s, git commit %s, %s build, plugin ABI %d.%d\n", GEMMHOST_VERSION, GEMMHOST_GIT_COMMIT,
           GEMMHOST_BUILD_TYPE, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
    gh_plugin_set plugins = {.isolated = 1};
    gh_plugins_discover(&plugins, NULL, 0);
    for (size_t i = 0; i < plugins.n; i++) {
        const gh_loaded_plugin *p = plugins.items[i];
        if (p->api)
            printf("  plugin %s %s (ABI %u.%u): %s\n", p->name, p->api->version ? p->api->version : "?", p->abi_major,
                   p->abi_minor, p->path);
        else printf("  plugin %s not loaded: %s\n", p->name, p->error);
    }
    gh_plugins_free(&plugins);
}

/* A `devices = local_rank` backend whose plugin has no device at this
 * rank's node-local index: said before anything runs. */
static int check_local_rank_devices(const gh_config *cfg, const gh_plan *plan, char *err, size_t err_size)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        for (size_t b = 0; b < cfg->n_backends && inst->problem; b++) {
            const gh_backend_config *bc = &cfg->backends[b];
            if (!bc->local_rank_devices || strcmp(bc->name, inst->name) != 0) continue;
            char at[512];
            snprintf(err, err_size, "%s: [backend %s] devices = local_rank: local rank %d on %s has no such device: %s",
                     gh_origin_format(&bc->devices_origin, at, sizeof at), bc->name, fleet.local_rank, fleet.host,
                     inst->problem);
            return -1;
        }
    }
    return 0;
}

typedef struct fleet_job {
    gh_cli *c;
    const gh_config *cfg;
    gh_plugin_set *plugins;
    gh_plan *plan;
    int argc;
    char **argv;
    int idle;
} fleet_job;

static int fleet_dry_run_rank(void *arg)
{
    fleet_job *j = arg;
    if (j->idle) {
        printf("idle: no [backend] or [split] is placed on this rank\n");
        return EXIT_PASS;
    }
    return dry_run(j->c, j->cfg, j->plan, j->argc, j->argv);
}

static int fleet_run_rank(void *arg)
{
    fleet_job *j = arg;
    return run(j->c, j->cfg, j->plugins, j->plan, j->argc, j->argv);
}

/* The run under MPI (fleet_rank.h): this rank's part quietly into its own
 * files PREFIX.rank-N.*, the fleet's report from rank 0. */
static int fleet_run(fleet_job *j, const char *prefix)
{
    gh_cli *c = j->c;
    const char *cli_output = c->output; /* argv's: gh_cli_free leaves it */
    int quiet = c->quiet;
    char *rank_prefix = gh_fleet_rank_prefix(prefix, fleet.rank);
    c->output = rank_prefix;
    c->quiet = 1;
    gh_fleet_outputs outputs = {j->cfg->run.kept_outputs, &j->cfg->run};
    int status = gh_fleet_run(&fleet, j->idle ? NULL : fleet_run_rank, j, prefix, quiet,
                              c->verbose || c->full_agreement, outputs.kept ? &outputs : NULL);
    c->output = cli_output;
    c->quiet = quiet;
    free(rank_prefix);
    return status;
}

/* Under MPI, each rank's files checked before any rank runs, as a single
 * run checks its own (report_paths.h): a refusal is everyone's, said by
 * rank 0 with the commands that go on for the whole job. */
static int fleet_check_files(gh_cli *c, const gh_config *cfg, const char *prefix, int argc, char **argv)
{
    const char *cli_output = c->output;
    char *rank_prefix = gh_fleet_rank_prefix(prefix, fleet.rank), err[4096] = "";
    c->output = rank_prefix;
    char *experiment = experiment_of(c);
    gh_report_options ro = report_options(c, cfg, "", experiment, argc, argv);
    gh_report_paths paths;
    int rc = c->resume ? 0 : gh_report_paths_resolve(&ro, &paths, err, sizeof err);
    if (rc == 0 && !c->resume) gh_report_paths_free(&paths);
    c->output = cli_output;
    if (rc == 0 && fleet.rank == 0) { /* the fleet's own file, PREFIX.json */
        char *base = gh_fleet_prefix(prefix), *path = gh_strdupf("%s.json", base), *id = experiment_of(c);
        rc = gh_fleet_file_check(path, id, c->overwrite || c->resume, err, sizeof err);
        free(id);
        free(path);
        free(base);
    }
    free(experiment);
    free(rank_prefix);
    int status = gh_fleet_agree(&fleet, rc != 0 ? EXIT_USAGE : EXIT_PASS, rc != 0 ? err : "");
    if (status != EXIT_PASS && fleet.rank == 0)
        fprintf(stderr,
                "gemmhost: under MPI each rank's files are %s.rank-N.*: for the whole job, --output OTHER keeps "
                "them, --overwrite replaces them, --resume continues each rank's run\n",
                prefix);
    return status;
}

/* Which sections this rank runs (placement.h), checked against the job on
 * every rank alike: one message, from rank 0. */
static int place_sections(gh_cli *c, gh_config *cfg, char **filter, int *idle)
{
    char err[2048] = "";
    int bad = gh_placement_check(cfg, fleet.size, fleet.hosts, err, sizeof err) != 0;
    int status = gh_fleet_agree(&fleet, bad ? EXIT_USAGE : EXIT_PASS, fleet.rank == 0 ? err : "");
    if (status != EXIT_PASS) return status;
    size_t placed = gh_placement_apply(cfg, fleet.rank, fleet.host, fleet.local_rank, c->filters.backends, filter);
    *idle = fleet.active && placed == 0;
    return EXIT_PASS;
}

/* "name.rank-N.ext" for "name.ext": a file each rank writes for itself. */
static char *rank_file(const char *path)
{
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
        return gh_strdupf("%s.rank-%d", path, fleet.rank);
    return gh_strdupf("%.*s.rank-%d%s", (int)(dot - path), path, fleet.rank, dot);
}

/* Under MPI, the files of --junit, --timeline and --save-outputs are each
 * rank's own (a lock held by one rank would refuse the others; two ranks
 * saving one output would race on its temporary file). owned[3]: to free. */
static void rank_own_files(gh_cli *c, char *owned[3])
{
    if (!fleet.active) return;
    if (c->junit) c->junit = owned[0] = rank_file(c->junit);
    if (c->timeline) c->timeline = owned[1] = rank_file(c->timeline);
    if (c->save_outputs) c->save_outputs = owned[2] = gh_strdupf("%s/rank-%d", c->save_outputs, fleet.rank);
}

static int gemmhost_rank_files(int argc, char **argv, char *owned[3]);

static int gemmhost_rank(int argc, char **argv)
{
    char *owned[3] = {NULL, NULL, NULL};
    int status = gemmhost_rank_files(argc, argv, owned);
    for (int i = 0; i < 3; i++) free(owned[i]);
    return status;
}

typedef struct cli_parse_job {
    int argc;
    char **argv;
    gh_cli *c;
    int exit_now, version, rc;
} cli_parse_job;

/* The command line parsed; its status as an exit status (0 for --help). */
static int parse_cli(void *arg)
{
    cli_parse_job *j = arg;
    j->rc = gh_cli_parse(j->argc, j->argv, j->c, &j->exit_now, &j->version);
    return j->rc != 0 ? j->exit_now : EXIT_PASS;
}

static int gemmhost_rank_files(int argc, char **argv, char *owned[3])
{
    gh_crash_install();
    gh_cli c;
    /* Under MPI every rank parses the same line: its usage error (or --help) is said once, by rank 0. */
    cli_parse_job parse = {argc, argv, &c, 0, 0, 0};
    int parsed = gh_fleet_say_once(&fleet, parse_cli, &parse);
    if (parse.rc != 0 || parsed != EXIT_PASS) {
        gh_cli_free(&c);
        return parse.rc != 0 ? parse.exit_now : parsed;
    }
    int version = parse.version;
    if (version) {
        if (fleet.rank == 0) print_version();
        gh_cli_free(&c);
        return EXIT_PASS;
    }
    char err[2048] = "";
    rank_own_files(&c, owned);
    gh_config cfg;
    int rc = c.config_path ? gh_config_load_file(c.config_path, c.overrides, c.n_overrides, &cfg, err, sizeof err)
                           : gh_config_load_text(gh_default_config_text, "<built-in>", c.overrides, c.n_overrides, &cfg,
                                                 err, sizeof err);
    if (gh_fleet_agree(&fleet, rc != 0 ? EXIT_USAGE : EXIT_PASS, rc != 0 ? err : "") != EXIT_PASS) {
        if (rc == 0) gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    cfg.run.save_outputs = c.save_outputs; /* not a config key: where one machine keeps its outputs */
    char *rank_filter = NULL;
    int idle = 0;
    if (place_sections(&c, &cfg, &rank_filter, &idle) != EXIT_PASS) {
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    const char *prefix = c.output ? c.output : cfg.run.output;
    if (gh_fleet_agree(&fleet, fleet.active && !c.list && (!prefix || !*prefix) ? EXIT_USAGE : EXIT_PASS,
                       fleet.active && fleet.rank == 0 && !c.list && (!prefix || !*prefix)
                           ? "under MPI every rank writes its results to PREFIX.rank-N.json: give --output PREFIX "
                             "(output is empty)"
                           : "") != EXIT_PASS) {
        free(rank_filter);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    gh_plugin_set plugins = {
        .isolated = cfg.run.isolation == GH_ISOLATION_PROCESS, .has_timeout = 1, .timeout = cfg.run.timeout};
    if (!idle) gh_plugins_discover(&plugins, (const char *const *)cfg.run.plugin_dirs, cfg.run.n_plugin_dirs);
    if (c.list) {
        int status = fleet.rank != 0 ? EXIT_PASS
                                     : gh_list_plugins(&plugins, c.json      ? GH_LIST_JSON
                                                                 : c.summary ? GH_LIST_SUMMARY
                                                                             : GH_LIST_TEXT);
        free(rank_filter);
        gh_plugins_free(&plugins);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return status;
    }
    gh_plan plan;
    memset(&plan, 0, sizeof plan);
    gh_plan_filters filters = {rank_filter ? rank_filter : c.filters.backends, c.filters.kernels, c.filters.devices};
    rc = idle ? 0 : gh_plan_build(&cfg, &plugins, &filters, &plan, err, sizeof err);
    if (rc == 0 && !idle) rc = check_local_rank_devices(&cfg, &plan, err, sizeof err);
    int status = gh_fleet_agree(&fleet, rc != 0 ? EXIT_USAGE : EXIT_PASS, rc != 0 ? err : "");
    gh_kept_outputs kept = {0};
    if (status == EXIT_PASS) {
        prefix = c.output ? c.output : cfg.run.output;
        /* [run] fleet_outputs_max: the run keeps its small outputs whole, for rank 0's exact distances */
        if (fleet.active && cfg.run.fleet_outputs_max) cfg.run.kept_outputs = &kept;
        fleet_job job = {&c, &cfg, &plugins, &plan, argc, argv, idle};
        gh_probe_options probe = {c.output && *c.output ? c.output : NULL, c.json, c.quiet};
        if (c.probe) /* each rank probes what it was placed on */
            status = gh_probe(&cfg, &plan, &probe);
        else if (!fleet.active)
            status = c.dry_run ? dry_run(&c, &cfg, &plan, argc, argv) : run(&c, &cfg, &plugins, &plan, argc, argv);
        else if (c.dry_run) status = gh_fleet_dry_run(&fleet, fleet_dry_run_rank, &job);
        else if ((status = fleet_check_files(&c, &cfg, prefix, argc, argv)) == EXIT_PASS)
            status = fleet_run(&job, prefix);
    }
    if (!idle) gh_plan_free(&plan);
    gh_kept_outputs_free(&kept);
    free(rank_filter);
    gh_plugins_free(&plugins);
    gh_config_free(&cfg);
    gh_cli_free(&c);
    return status;
}

/* gemmhost as one rank of an MPI job when launched as one, else alone. */
static int gemmhost(int argc, char **argv)
{
    char err[1024];
    if (gh_fleet_init(&fleet, &argc, &argv, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: cannot join the MPI job: %s\n", err);
        gh_fleet_finalize(&fleet);
        return EXIT_USAGE;
    }
    if (fleet.active)
        fleet_head = gh_strdupf("{\"rank\": %d, \"size\": %d, \"host\": \"%s\", \"local_rank\": %d}", fleet.rank,
                                fleet.size, fleet.host, fleet.local_rank);
    int status = gemmhost_rank(argc, argv);
    free(fleet_head);
    fleet_head = NULL;
    gh_fleet_finalize(&fleet);
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], GH_WORKER_ARG) == 0) return gh_worker_main(argc, argv);
    gh_stdio_guard_begin();
    /* A subcommand: results files compared (core/compare), no run. */
    int status = argc > 1 && strcmp(argv[1], "compare") == 0 ? gh_compare_main(argc - 1, argv + 1)
                 : argc > 1 && strcmp(argv[1], "merge") == 0 ? gh_fleet_merge_main(argc - 1, argv + 1)
                                                             : gemmhost(argc, argv);
    char err[256];
    if (gh_stdout_check(err, sizeof err) != 0) { /* the table asked for is a report too */
        fprintf(stderr, "gemmhost: %s\n", err);
        if (status == EXIT_PASS) status = EXIT_NOT_RUN;
    }
    return status;
}
