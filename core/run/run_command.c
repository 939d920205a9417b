/* Running a plan from the command line (docs/layout.md): the results
 * files checked and held, the tuning step before it, the measuring run and
 * its report, and the exit status. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cancel.h"
#include "crash.h"
#include "experiment.h"
#include "fleet_command.h"
#include "host_memory.h"
#include "resume.h"
#include "run.h"
#include "run_command.h"
#include "run_files.h"
#include "save_output.h"
#include "timeline.h"
#include "tune.h"
#include "tune_command.h"
#include "util.h"

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

/* The vendor libraries' kernels: the baselines every ratio is taken against. */
static int is_vendor_library(const char *kernel)
{
    return strncmp(kernel, "cublas", 6) == 0 || strncmp(kernel, "clblast", 7) == 0 || strcmp(kernel, "blas") == 0;
}

/* Rows padded to other than whole 16 bytes (the default ld_pad exercises
 * leading dimensions) take the vendor libraries off their fast paths
 * (docs/configuration.md). Said once where a vendor kernel runs, so its
 * speed is not read as its best. */
static void note_unaligned_vendor_rows(gh_report *report, const gh_config *cfg, const gh_plan *plan)
{
    if (cfg->run.ld_pad % 16 == 0) return;
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        if (inst->problem || !inst->runs_alone) continue;
        for (size_t v = 0; v < inst->n_variants; v++)
            if (inst->variants[v].info && is_vendor_library(inst->variants[v].info->name)) {
                gh_report_note(report,
                               "ld_pad = %lld: rows are not whole 16 bytes for most shapes, which takes vendor "
                               "libraries (%s here) off their fast paths; their times are for unaligned rows. "
                               "Compare speeds with ld_pad = 0",
                               (long long)cfg->run.ld_pad, inst->variants[v].info->name);
                return;
            }
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

char *gh_run_experiment_of(const gh_cli *c)
{
    char *config_text = config_as_run(c);
    char *id = gh_experiment_id(config_text, c->filters.backends, c->filters.kernels, c->filters.devices);
    free(config_text);
    return id;
}

gh_report_options gh_run_report_options(const gh_cli *c, const gh_config *cfg, const char *config_text,
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
        .fleet_json = gh_fleet_command_head(),
    };
}

static int run_plan(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, int argc,
                    char **argv);

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
        tune_status = gh_tune_command(c, cfg, plan, to, &cache, argc, argv);
        gh_crash_results(""); /* the run names its own files */
        if (c->tune || tune_status == EXIT_USAGE || gh_cancel_requested()) {
            gh_tune_cache_free(cache);
            return tune_status;
        }
    }
    if (!cache && gh_plan_has_auto_params(plan)) {
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

int gh_run_command(const gh_cli *c, const gh_config *cfg, gh_plugin_set *plugins, gh_plan *plan, int argc, char **argv)
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
    gh_report_options ro = gh_run_report_options(c, cfg, "", NULL, argc, argv);
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
    char *experiment = gh_run_experiment_of(c);
    gh_report_options ro = gh_run_report_options(c, cfg, config_text, experiment, argc, argv);
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
    note_unaligned_vendor_rows(report, cfg, plan);
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
