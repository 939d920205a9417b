/* Lists and the command-line filters (--backend, --kernel, --device): which
 * instances, devices, kernels and splits a plan keeps. */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crash.h"
#include "plan.h"
#include "proxy.h"
#include "reported.h"
#include "shown_value.h"
#include "util.h"
#include "plan_internal.h"

/* One item of a device list: all, hardware, software, an index, or part of
 * the device's name (any case). */
static int device_item_matches(const char *item, int d, const gh_device_info *info)
{
    if (strcmp(item, "all") == 0) return 1;
    if (strcmp(item, "hardware") == 0) return !info->is_software;
    if (strcmp(item, "software") == 0) return info->is_software;
    int64_t index;
    if (gh_parse_int64(item, &index) == 0) return index == d;
    return strcasestr(info->name, item) != NULL;
}

/* The items of a comma list, each trimmed; empty items dropped. */
static char **list_items(const char *list, size_t *n)
{
    char **items = NULL;
    *n = 0;
    char *copy = gh_strdup(list), *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (isspace((unsigned char)*t)) t++;
        for (char *end = t + strlen(t); end > t && isspace((unsigned char)end[-1]);) *--end = '\0';
        if (!*t) continue;
        items = gh_xrealloc(items, (*n + 1) * sizeof *items);
        items[(*n)++] = gh_strdup(t);
    }
    free(copy);
    return items;
}

static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++) free(items[i]);
    free(items);
}

/* A comma list of items ("0,2", "hardware", "H100, lavapipe"): any item. */
int plan_device_in_list(const char *list, int d, const gh_device_info *info)
{
    if (!info) return 0; /* a worker that died answering: check_discovery says so */
    size_t n;
    char **items = list_items(list, &n);
    int take = 0;
    for (size_t i = 0; i < n && !take; i++) take = device_item_matches(items[i], d, info);
    free_items(items, n);
    return take;
}

/* Whether `name` is an item of a comma list. */
int plan_in_list(const char *list, const char *name)
{
    size_t n;
    char **items = list_items(list, &n);
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) found = strcmp(items[i], name) == 0;
    free_items(items, n);
    return found;
}

char *plan_append_unique(char *list, const char *item)
{
    if (plan_in_list(list, item)) return list;
    char *next = gh_strdupf("%s%s%s", list, *list ? ", " : "", item);
    free(list);
    return next;
}

static int backend_exists(const gh_config *cfg, const gh_plan *plan, const char *name)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (strcmp(plan->instances[i].name, name) == 0) return 1;
    for (size_t i = 0; i < cfg->n_splits; i++)
        if (strcmp(cfg->splits[i].name, name) == 0) return 1;
    return 0;
}

static char *backend_choices(const gh_config *cfg, const gh_plan *plan)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < plan->n_instances; i++) out = plan_append_unique(out, plan->instances[i].name);
    for (size_t i = 0; i < cfg->n_splits; i++) out = plan_append_unique(out, cfg->splits[i].name);
    return out;
}

/* Every kernel of the plugins the plan opened, "" when none. */
static char *kernel_choices(const gh_plan *plan)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        for (int k = 0; inst->ctx && k < inst->plugin->api->kernel_count(inst->ctx); k++)
            out = plan_append_unique(out, inst->plugin->api->kernel_info(inst->ctx, k)->name);
    }
    return out;
}

/* Each item of --backend and --kernel must name something, or the run would
 * quietly do less than asked: -1 and err naming the item and what there is. */
int plan_check_filter_names(const gh_config *cfg, const gh_plan *plan, const gh_plan_filters *f, char *err, size_t size)
{
    int rc = 0;
    size_t n;
    char **items = f->backends ? list_items(f->backends, &n) : NULL;
    for (size_t i = 0; items && i < n && rc == 0; i++) {
        if (backend_exists(cfg, plan, items[i])) continue;
        char *there = backend_choices(cfg, plan), list[GH_SHOWN_SIZE], item[GH_SHOWN_SIZE];
        snprintf(err, size, "--backend %s: no %s named \"%s\" (there are: %s)",
                 gh_shown_value(f->backends, list, sizeof list),
                 cfg->auto_backends ? "loaded plugin" : "[backend] or [split] section",
                 gh_shown_value(items[i], item, sizeof item), *there ? there : "none");
        free(there);
        rc = -1;
    }
    if (items) free_items(items, n);
    char *kernels = kernel_choices(plan);
    items = f->kernels && rc == 0 ? list_items(f->kernels, &n) : NULL;
    for (size_t i = 0; items && i < n && rc == 0; i++) {
        if (plan_in_list(kernels, items[i])) continue;
        char list[GH_SHOWN_SIZE], item[GH_SHOWN_SIZE];
        snprintf(err, size, "--kernel %s: no kernel named \"%s\" in the selected plugins (there are: %s)",
                 gh_shown_value(f->kernels, list, sizeof list), gh_shown_value(items[i], item, sizeof item),
                 *kernels ? kernels : "none");
        rc = -1;
    }
    if (items) free_items(items, n);
    free(kernels);
    return rc;
}

/* --device narrows an instance's devices (and so a split's members); --backend
 * decides whether it runs on its own (a split may still use it). */
void plan_filter_devices(gh_instance *inst, const gh_plan_filters *f)
{
    inst->runs_alone = !f->backends || plan_in_list(f->backends, inst->name);
    if (f->backends && inst->runs_alone) inst->requested = 1; /* named on the command line: asked for */
    if (f->devices && inst->problem) inst->runs_alone = 0;    /* it has no device to match */
    if (inst->problem || !f->devices) return;
    size_t kept = 0;
    const gh_plugin_api *api = inst->plugin->api;
    for (size_t d = 0; d < inst->n_devices; d++)
        if (plan_device_in_list(f->devices, inst->devices[d], api->device_info(inst->ctx, inst->devices[d])))
            inst->devices[kept++] = inst->devices[d];
    inst->n_devices = kept;
    if (kept == 0) inst->runs_alone = 0;
}

/* --kernel narrows the variants an instance runs on its own; done after the
 * splits are built, so a split's members run what the config says. */
void plan_filter_kernels(gh_instance *inst, const gh_plan_filters *f)
{
    if (!f->kernels) return;
    size_t kept = 0;
    for (size_t v = 0; v < inst->n_variants; v++) {
        if (plan_in_list(f->kernels, inst->variants[v].info->name)) {
            inst->variants[v].named = 1; /* asked for by name: it must run something */
            inst->variants[kept++] = inst->variants[v];
        } else free(inst->variants[v].params);
    }
    inst->n_variants = kept;
    if (kept == 0 && !inst->problem) inst->runs_alone = 0;
}

/* A split runs when --backend names it (or there is no --backend) and each
 * of its members' kernels passes --kernel. */
int plan_split_wanted(const gh_split_plan *sp, const gh_plan_filters *f)
{
    if (f->backends && !plan_in_list(f->backends, sp->name)) return 0;
    for (size_t m = 0; f->kernels && m < sp->n_members; m++)
        if (!plan_in_list(f->kernels, sp->members[m].kernel_info->name)) return 0;
    return 1;
}

int plan_something_runs(const gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (plan->instances[i].runs_alone) return 1;
    for (size_t i = 0; i < plan->n_splits; i++)
        if (!plan->splits[i].problem) return 1;
    return 0;
}
