/* gemmhost: command line, then config -> plan -> run -> report. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "crash.h"
#include "config.h"
#include "data.h"
#include "list.h"
#include "loader.h"
#include "plan.h"
#include "report.h"
#include "run.h"
#include "util.h"

/* A split: its members, then what each device would hold for every size and
 * dtype (the transposes do not change it). Returns its run count. */
static size_t print_split(const gh_config *cfg, const gh_plan *plan, const gh_split_plan *sp)
{
    size_t runs = gh_plan_split_run_count(plan, sp);
    if (sp->problem) {
        printf("  split %s: cannot run: %s\n", sp->name, sp->problem);
        return 0;
    }
    char limit[64];
    if (sp->config->mem_limit) gh_split_format_bytes(sp->config->mem_limit, limit, sizeof limit);
    else snprintf(limit, sizeof limit, "none (90%% of each device's memory)");
    printf("  split %s: %zu runs over %zu member device(s), panel %lld, mem_limit %s\n", sp->name, runs,
           sp->n_members, (long long)sp->config->panel, limit);
    for (size_t m = 0; m < sp->n_members; m++) {
        const gh_split_member *mb = &sp->members[m];
        printf("    member %s/%d (plugin %s): kernel %s%s%s, %s%s\n", mb->backend, mb->device, mb->api->name,
               mb->kernel_info->name, *mb->params_label ? " " : "", mb->params_label,
               gh_split_member_has_streams(mb) ? "streams (transfers overlap)" : "blocking calls",
               gh_split_member_has_host_alloc(mb) ? ", pinned host memory" : "");
    }
    for (size_t s = 0; s < cfg->run.n_sizes; s++)
        for (size_t d = 0; d < cfg->run.n_dtypes; d++) {
            const gh_shape *sh = &cfg->run.sizes[s];
            gh_split_shape shape = {cfg->run.dtypes[d], sh->m, sh->n, sh->k};
            printf("    %lldx%lldx%lld %s:\n", (long long)sh->m, (long long)sh->n, (long long)sh->k,
                   gh_dtype_name(cfg->run.dtypes[d]));
            for (size_t m = 0; m < sp->n_members; m++) {
                const gh_split_member *mb = &sp->members[m];
                gh_split_layout lay;
                char text[512];
                uint64_t lim = gh_split_member_limit(mb, sp->config->mem_limit);
                if (gh_split_plan_layout(&shape, sp->config->panel, lim, gh_split_member_has_streams(mb) ? 2 : 1, &lay,
                                         text, sizeof text) == 0)
                    gh_split_layout_describe(&lay, text, sizeof text);
                printf("      %s/%d: %s\n", mb->backend, mb->device, text);
            }
        }
    return runs;
}

static void print_plan(const gh_config *cfg, const gh_plan *plan)
{
    size_t total = 0;
    printf("plan: %zu cases (%zu sizes x %zu dtypes x %zu transposes), warmup %d, repeat %d, verify %s\n",
           plan->n_cases, cfg->run.n_sizes, cfg->run.n_dtypes, cfg->run.n_trans, cfg->run.warmup, cfg->run.repeat,
           gh_verify_method_name(cfg->run.verify));
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        size_t runs = gh_plan_run_count(plan, inst);
        total += runs;
        if (inst->problem) {
            printf("  backend %s: cannot run: %s\n", inst->name, inst->problem);
            continue;
        }
        printf("  backend %s (plugin %s): %zu runs on %zu device(s):", inst->name, inst->plugin->name, runs,
               inst->n_devices);
        for (size_t v = 0; v < inst->n_variants; v++)
            printf("%s %s%s%s", v ? "," : "", inst->variants[v].info->name, *inst->variants[v].label ? " " : "",
                   inst->variants[v].label);
        printf("\n");
    }
    for (size_t i = 0; i < plan->n_splits; i++) total += print_split(cfg, plan, &plan->splits[i]);
    printf("total: %zu runs\n", total);
}

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
        gh_report_plugin info = {p->name, p->path, p->api ? p->api->version : "", p->abi_major, p->abi_minor,
                                 p->api ? NULL : p->error};
        gh_report_plugin_info(report, &info);
    }
}

static void report_devices(gh_report *report, const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        if (inst->problem) continue;
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
    size_t ran = s->passed + s->failed + s->unsupported + s->errors + s->unchecked;
    if (!quiet)
        printf("\ngemmhost: %zu passed, %zu failed, %zu unsupported, %zu errors, %zu unchecked\n", s->passed,
               s->failed, s->unsupported, s->errors, s->unchecked);
    if (s->failed) return EXIT_VERIFY_FAILED;
    if (s->requested_not_run || ran == 0) {
        if (ran == 0) fprintf(stderr, "gemmhost: nothing ran (see the notes above and gemmhost --list)\n");
        return EXIT_NOT_RUN;
    }
    return EXIT_PASS;
}

int main(int argc, char **argv)
{
    gh_crash_install();
    gh_cli c;
    int exit_now, version;
    if (gh_cli_parse(argc, argv, &c, &exit_now, &version) != 0) {
        gh_cli_free(&c);
        return exit_now;
    }
    if (version) {
        printf("gemmhost %s (plugin ABI %d.%d)\n", GEMMHOST_VERSION, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR);
        gh_cli_free(&c);
        return EXIT_PASS;
    }
    char err[2048] = "";
    gh_config cfg;
    int rc = c.config_path ? gh_config_load_file(c.config_path, c.overrides, c.n_overrides, &cfg, err, sizeof err)
                           : gh_config_load_text(gh_default_config_text, "<built-in>", c.overrides, c.n_overrides,
                                                 &cfg, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    gh_plugin_set plugins = {0};
    gh_plugins_discover(&plugins, (const char *const *)cfg.run.plugin_dirs, cfg.run.n_plugin_dirs);
    if (c.list) {
        int status = gh_list_plugins(&plugins, c.json ? GH_LIST_JSON : c.summary ? GH_LIST_SUMMARY : GH_LIST_TEXT);
        gh_plugins_free(&plugins);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return status;
    }
    gh_plan plan;
    if (gh_plan_build(&cfg, &plugins, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        gh_plan_free(&plan);
        gh_plugins_free(&plugins);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    int status;
    if (c.dry_run) {
        print_plan(&cfg, &plan);
        status = EXIT_PASS;
    } else {
        char *config_text = config_as_run(&c);
        gh_report_options ro = {
            .prefix = c.output ? c.output : cfg.run.output, .junit_path = c.junit,
            .overwrite = c.overwrite, .replace_default = !c.config_path && !c.output,
            .config_text = config_text, .argc = argc, .argv = argv,
            .table = stdout, .messages = stderr, .quiet = c.quiet, .full_agreement = c.full_agreement,
        };
        gh_report *report = gh_report_open(&ro, err, sizeof err);
        free(config_text);
        if (!report) {
            fprintf(stderr, "gemmhost: %s\n", err);
            status = EXIT_USAGE;
        } else {
            if (gh_report_files(report)) gh_crash_results(gh_report_files(report));
            report_plugins(report, &plugins);
            report_devices(report, &plan);
            expect_rows(report, &plan);
            gh_run_summary summary;
            gh_run_plan(&cfg, &plan, report, !c.quiet && isatty(STDERR_FILENO), &summary);
            gh_report_summary(report);
            status = exit_status(&summary, c.quiet);
            if (gh_report_close(report, err, sizeof err) != 0) {
                fprintf(stderr, "gemmhost: %s\n", err);
                if (status == EXIT_PASS) status = EXIT_NOT_RUN;
            }
        }
    }
    gh_plan_free(&plan);
    gh_plugins_free(&plugins);
    gh_config_free(&cfg);
    gh_cli_free(&c);
    return status;
}
