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
#include "dry_run.h"
#include "host_memory.h"
#include "loader.h"
#include "plan.h"
#include "report.h"
#include "run.h"
#include "util.h"

static const char *yes_no(int v) { return v ? "yes" : "no"; }

static void list_device(const gh_plugin_api *api, gh_plugin *ctx, int d)
{
    const gh_device_info *i = api->device_info(ctx, d);
    if (!i) return;
    printf("    device %d: %s\n", d, i->name);
    printf("      vendor %s, driver %s, %s%s%s\n", i->vendor, i->driver_version, i->api,
           *i->platform ? ", platform " : "", i->platform);
    printf("      %s device, %u compute units, %.1f GiB memory, %llu KiB local memory, work-group up to %u, fp64 %s\n",
           i->is_software ? "software" : "hardware", i->compute_units, (double)i->global_mem_bytes / (1 << 30),
           (unsigned long long)(i->local_mem_bytes / 1024), i->max_workgroup_size, yes_no(i->has_fp64));
}

static void list_kernel(const gh_kernel_info *k)
{
    printf("    kernel %s: %s\n      dtypes:", k->name, k->description);
    for (int d = 0; d < GH_DTYPE_COUNT; d++)
        if (k->dtypes & GH_DTYPE_BIT(d)) printf(" %s", gh_dtype_name((gh_dtype)d));
    printf("\n");
    for (size_t p = 0; p < k->n_params; p++) {
        const gh_param_info *pi = &k->params[p];
        printf("      param %s = %lld (", pi->name, (long long)pi->default_value);
        if (pi->n_allowed) {
            printf("allowed:");
            for (size_t v = 0; v < pi->n_allowed; v++) printf("%s %lld", v ? "," : "", (long long)pi->allowed[v]);
        } else {
            printf("range %lld..%lld", (long long)pi->min_value, (long long)pi->max_value);
        }
        printf("): %s\n", pi->description);
    }
}

static int list_plugins(gh_plugin_set *set)
{
    printf("plugin search path:\n");
    for (size_t i = 0; i < set->n_dirs; i++)
        printf("  %s%s\n", set->dirs[i], access(set->dirs[i], R_OK) == 0 ? "" : " (missing)");
    if (set->n == 0) printf("no plugin files (" GH_PLUGIN_PREFIX "*" GH_PLUGIN_SUFFIX ") found\n");
    for (size_t i = 0; i < set->n; i++) {
        gh_loaded_plugin *p = set->items[i];
        printf("\nplugin %s: %s\n", p->name, p->path);
        if (!p->api) {
            printf("  NOT LOADED: %s\n", p->error);
            continue;
        }
        const gh_plugin_api *api = p->api;
        printf("  ABI %u.%u (host %d.%d), version %s: %s\n", p->abi_major, p->abi_minor, GEMMHOST_ABI_MAJOR,
               GEMMHOST_ABI_MINOR, api->version ? api->version : "?", api->description ? api->description : "");
        for (size_t o = 0; o < api->n_options; o++)
            printf("  option %s (default \"%s\"): %s\n", api->options[o].name, api->options[o].default_value,
                   api->options[o].description);
        gh_plugin *ctx = NULL;
        gh_crash_doing("listing plugin %s (%s)", p->name, p->path);
        if (api->open(NULL, 0, &ctx) != GH_OK) {
            printf("  cannot open: %s\n", api->last_error(NULL));
            continue;
        }
        int n = api->device_count(ctx);
        if (n <= 0) printf("  no usable device: %s\n", api->last_error(ctx));
        for (int d = 0; d < n; d++) list_device(api, ctx, d);
        for (int k = 0; k < api->kernel_count(ctx); k++) list_kernel(api->kernel_info(ctx, k));
        api->close(ctx);
    }
    return EXIT_PASS;
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
        if (inst->problem) continue; /* filtered-out instances too: a split may use their devices */
        for (size_t d = 0; d < inst->n_devices; d++)
            gh_report_device(report, inst->name, inst->devices[d],
                             inst->plugin->api->device_info(inst->ctx, inst->devices[d]));
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
        int status = list_plugins(&plugins);
        gh_plugins_free(&plugins);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return status;
    }
    gh_plan plan;
    gh_plan_filters filters = {c.filters.backends, c.filters.kernels, c.filters.devices};
    if (gh_plan_build(&cfg, &plugins, &filters, &plan, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        gh_plan_free(&plan);
        gh_plugins_free(&plugins);
        gh_config_free(&cfg);
        gh_cli_free(&c);
        return EXIT_USAGE;
    }
    int status;
    if (c.dry_run) {
        status = gh_dry_run(&cfg, &plan);
    } else if (gh_check_host_memory(&cfg, &plan, 0, err, sizeof err) != 0) {
        fprintf(stderr, "gemmhost: %s\n", err);
        status = EXIT_USAGE;
    } else {
        char *config_text = config_as_run(&c);
        const char *prefix = c.output ? c.output : cfg.run.output;
        gh_report *report = gh_report_open(prefix, config_text, c.quiet ? NULL : stdout, err, sizeof err);
        free(config_text);
        if (!report) {
            fprintf(stderr, "gemmhost: %s\n", err);
            status = EXIT_USAGE;
        } else {
            if (prefix && *prefix) {
                char where[1024];
                snprintf(where, sizeof where, "%s.csv and %s.json", prefix, prefix);
                gh_crash_results(where);
            }
            report_plugins(report, &plugins);
            report_devices(report, &plan);
            gh_run_summary summary;
            gh_progress_mode progress = c.quiet ? GH_PROGRESS_OFF
                                        : isatty(STDERR_FILENO) ? GH_PROGRESS_TERMINAL : GH_PROGRESS_LOG;
            gh_run_plan(&cfg, &plan, report, progress, &summary);
            status = exit_status(&summary, c.quiet);
            if (gh_report_close(report, err, sizeof err) != 0) {
                fprintf(stderr, "gemmhost: %s\n", err);
                if (status == EXIT_PASS) status = EXIT_NOT_RUN;
            } else if (!c.quiet && prefix && *prefix) {
                printf("results: %s.csv, %s.json\n", prefix, prefix);
            }
        }
    }
    gh_plan_free(&plan);
    gh_plugins_free(&plugins);
    gh_config_free(&cfg);
    gh_cli_free(&c);
    return status;
}
