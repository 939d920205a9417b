/* A [split NAME] planned: its member devices, kernels and the layout each
 * member holds for every size and dtype. */
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

static void set_split_problem(gh_split_plan *sp, const char *fmt, ...)
{
    if (sp->problem) return; /* the first reason is the one to fix */
    va_list ap;
    va_start(ap, fmt);
    sp->problem = gh_vstrdupf(fmt, ap);
    va_end(ap);
}

static gh_instance *find_instance(gh_plan *plan, const char *name)
{
    for (size_t i = 0; i < plan->n_instances; i++)
        if (strcmp(plan->instances[i].name, name) == 0) return &plan->instances[i];
    return NULL;
}

/* The kernel a member runs: the split's `kernel`, with the parameters of its
 * first variant in the member's [backend] (the plugin's defaults when the
 * backend does not select it); with no `kernel`, the backend's first variant. */
static int member_kernel(const gh_split_config *sc, const gh_instance *inst, int *kernel, const gh_kernel_info **info,
                         const int64_t **params, const char **label, char *err, size_t size)
{
    for (size_t v = 0; v < inst->n_variants; v++) {
        const gh_kernel_variant *kv = &inst->variants[v];
        if (sc->kernel[0] && strcmp(kv->info->name, sc->kernel) != 0) continue;
        *kernel = kv->kernel;
        *info = kv->info;
        *params = kv->params;
        *label = kv->label;
        return 0;
    }
    const gh_plugin_api *api = inst->plugin->api;
    for (int k = 0; sc->kernel[0] && k < api->kernel_count(inst->ctx); k++) {
        const gh_kernel_info *ki = api->kernel_info(inst->ctx, k);
        if (strcmp(ki->name, sc->kernel) != 0) continue;
        *kernel = k;
        *info = ki;
        *params = NULL; /* defaults, filled by the caller */
        *label = "";
        return 0;
    }
    char *names = plan_list_kernels(inst->ctx, api, 0);
    char where[512];
    snprintf(err, size, "%s: [split %s] kernel: plugin %s of member %s has no kernel \"%s\" (kernels: %s)",
             gh_origin_format(&sc->origin, where, sizeof where), sc->name, api->name, inst->name, sc->kernel, names);
    free(names);
    return -1;
}

/* A member's context: the instance's in process; under isolation a worker
 * of its own, opened with the instance's options, so that two members of
 * one plugin run at once (closed in free_split). NULL with the split's
 * problem set when it cannot be opened. */
static gh_plugin *member_context(gh_split_plan *sp, const gh_instance *inst, int device)
{
    const gh_plugin_api *api = inst->plugin->api;
    if (!gh_proxy_is(api)) return inst->ctx;
    gh_plugin *ctx = NULL;
    char label[128];
    snprintf(label, sizeof label, "%s/%s/%d", sp->name, inst->name, device);
    gh_worker_settings worker = {label, inst->timeout};
    if (gh_plugin_open(inst->plugin, inst->options, inst->n_options, &worker, &ctx) != GH_OK) {
        set_split_problem(sp, "member %s/%d: its worker could not open plugin %s: %s", inst->name, device, api->name,
                          api->last_error(NULL));
        return NULL;
    }
    return ctx;
}

/* One member per selected device of the backend instance. */
static int add_members(gh_split_plan *sp, const gh_instance *inst, char *err, size_t size)
{
    int kernel;
    const gh_kernel_info *info;
    const int64_t *params;
    const char *label;
    if (member_kernel(sp->config, inst, &kernel, &info, &params, &label, err, size) != 0) return -1;
    for (size_t d = 0; d < inst->n_devices; d++) {
        gh_plugin *ctx = member_context(sp, inst, inst->devices[d]);
        if (!ctx) continue;
        sp->members = gh_xrealloc(sp->members, (sp->n_members + 1) * sizeof *sp->members);
        int64_t *own = gh_xcalloc(info->n_params ? info->n_params : 1, sizeof *own);
        for (size_t p = 0; p < info->n_params; p++) own[p] = params ? params[p] : info->params[p].default_value;
        sp->members[sp->n_members++] = (gh_split_member){
            .backend = inst->name,
            .api = inst->plugin->api,
            .abi_minor = inst->plugin->abi_minor,
            .ctx = ctx,
            .device = inst->devices[d],
            .kernel = kernel,
            .kernel_info = info,
            .params = own,
            .params_label = gh_strdup(label),
            .isolated = gh_proxy_is(inst->plugin->api),
        };
    }
    return 0;
}

/* "cpu/0 + opencl/0": every member device. */
static char *member_devices(const gh_split_plan *sp)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < sp->n_members; i++) {
        char *next = gh_strdupf("%s%s%s/%d", out, i ? " + " : "", sp->members[i].backend, sp->members[i].device);
        free(out);
        out = next;
    }
    return out;
}

/* "tiled", or "naive+tiled" when members run different kernels. */
static char *member_kernels(const gh_split_plan *sp)
{
    char *out = gh_strdup("");
    for (size_t i = 0; i < sp->n_members; i++) {
        const char *name = sp->members[i].kernel_info->name;
        int seen = 0;
        for (size_t j = 0; j < i; j++) seen |= strcmp(sp->members[j].kernel_info->name, name) == 0;
        if (seen) continue;
        char *next = gh_strdupf("%s%s%s", out, *out ? "+" : "", name);
        free(out);
        out = next;
    }
    return out;
}

static int same_member_kind(const gh_split_member *x, const gh_split_member *y)
{
    const gh_device_info *dx = x->api->device_info(x->ctx, x->device), *dy = y->api->device_info(y->ctx, y->device);
    return strcmp(x->api->name, y->api->name) == 0 && dx && dy && strcmp(dx->name, dy->name) == 0 &&
           strcmp(x->kernel_info->name, y->kernel_info->name) == 0 && strcmp(x->params_label, y->params_label) == 0;
}

static void describe_split(gh_split_plan *sp)
{
    char *devices = member_devices(sp);
    sp->device_name = gh_strdupf("split: %s", devices);
    free(devices);
    sp->kernel = member_kernels(sp);
    int same_params = 1;
    sp->alike = sp->n_members > 0;
    for (size_t i = 1; i < sp->n_members; i++) {
        sp->alike &= same_member_kind(&sp->members[0], &sp->members[i]);
        same_params &= strcmp(sp->members[0].params_label, sp->members[i].params_label) == 0;
    }
    sp->params = gh_strdup(sp->n_members && same_params ? sp->members[0].params_label : "");
}

static int build_split(gh_split_plan *sp, const gh_split_config *sc, gh_plan *plan, char *err, size_t size)
{
    memset(sp, 0, sizeof *sp);
    sp->name = gh_strdup(sc->name);
    sp->config = sc;
    for (size_t b = 0; b < sc->n_backends; b++) {
        gh_instance *inst = find_instance(plan, sc->backends[b]);
        if (!inst) { /* the config checks this; kept for a plan built otherwise */
            set_split_problem(sp, "member %s is not a [backend] section", sc->backends[b]);
            continue;
        }
        if (inst->problem) {
            set_split_problem(sp, "member %s cannot run: %s", inst->name, inst->problem);
            continue;
        }
        if (add_members(sp, inst, err, size) != 0) return -1;
    }
    if (!sp->problem && sp->n_members == 0) set_split_problem(sp, "no member device");
    describe_split(sp);
    return 0;
}

/* Each member's layout for every size and dtype, planned once for --dry-run. */
static void plan_layouts(const gh_config *cfg, gh_split_plan *sp)
{
    const gh_run_config *run = &cfg->run;
    sp->layouts = gh_xcalloc(run->n_sizes * run->n_dtypes * sp->n_members + 1, sizeof *sp->layouts);
    for (size_t s = 0; s < run->n_sizes; s++)
        for (size_t d = 0; d < run->n_dtypes; d++)
            for (size_t m = 0; m < sp->n_members; m++) {
                const gh_split_member *mb = &sp->members[m];
                gh_member_layout *ml = &sp->layouts[(s * run->n_dtypes + d) * sp->n_members + m];
                gh_split_shape shape = {run->dtypes[d], run->sizes[s].m, run->sizes[s].n, run->sizes[s].k,
                                        gh_run_case_types(run, run->dtypes[d])};
                ml->fits = gh_split_plan_layout(
                               &shape, sp->config->panel, gh_split_member_limit(mb, sp->config->mem_limit),
                               gh_split_member_has_streams(mb) ? 2 : 1, &ml->layout, ml->why, sizeof ml->why) == 0;
            }
}

int plan_build_splits(const gh_config *cfg, const gh_plan_filters *f, gh_plan *plan, char *err, size_t size)
{
    plan->splits = gh_xcalloc(cfg->n_splits ? cfg->n_splits : 1, sizeof *plan->splits);
    for (size_t i = 0; i < cfg->n_splits; i++) {
        gh_split_plan *sp = &plan->splits[plan->n_splits++];
        if (build_split(sp, &cfg->splits[i], plan, err, size) != 0) return -1;
        if (plan_split_wanted(sp, f)) {
            if (!sp->problem) plan_layouts(cfg, sp);
            continue;
        }
        plan_free_split(sp); /* filtered out */
        plan->n_splits--;
    }
    return 0;
}

void plan_free_split(gh_split_plan *sp)
{
    for (size_t i = 0; i < sp->n_members; i++) {
        if (gh_proxy_is(sp->members[i].api)) sp->members[i].api->close(sp->members[i].ctx); /* its own worker */
        free((void *)sp->members[i].params);
        free((void *)sp->members[i].params_label);
    }
    free(sp->members);
    free(sp->name);
    free(sp->device_name);
    free(sp->kernel);
    free(sp->params);
    free(sp->problem);
    free(sp->layouts);
    free(sp->streak.given_up);
}

const gh_member_layout *gh_plan_member_layout(const gh_plan *plan, const gh_split_plan *sp, const gh_case *c,
                                              size_t member)
{
    if (!sp->layouts) return NULL;
    return &sp->layouts[(c->size_index * plan->n_dtypes + c->dtype_index) * sp->n_members + member];
}
