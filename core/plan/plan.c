/* The plan: instances and splits built, filters applied, the cases and
 * the dtypes each kernel runs; counts for --dry-run. */
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

#define ALL_DTYPES  ((1u << GH_DTYPE_COUNT) - 1)
#define WIDE_DTYPES (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32))

uint32_t gh_dtypes_to_run(const gh_run_config *run, uint32_t has)
{
    if (!run->dtype_auto) return ALL_DTYPES;
    has &= ALL_DTYPES;
    return has & WIDE_DTYPES ? has & WIDE_DTYPES : has;
}

/* Each variant's and split's dtypes (a split: those all its members have),
 * then, with dtype = auto, only the cases some of them run, numbered anew. */
static void choose_dtypes(const gh_run_config *run, gh_plan *plan)
{
    uint32_t used = 0;
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        for (size_t v = 0; v < inst->n_variants; v++) {
            inst->variants[v].run_dtypes = gh_dtypes_to_run(run, inst->variants[v].info->dtypes);
            if (!inst->problem && inst->runs_alone) used |= inst->variants[v].run_dtypes;
        }
    }
    for (size_t s = 0; s < plan->n_splits; s++) {
        gh_split_plan *sp = &plan->splits[s];
        uint32_t shared = ALL_DTYPES;
        for (size_t m = 0; m < sp->n_members; m++) shared &= sp->members[m].kernel_info->dtypes;
        sp->run_dtypes = gh_dtypes_to_run(run, shared);
        if (!sp->problem) used |= sp->run_dtypes;
    }
    if (!run->dtype_auto) return;
    size_t kept = 0;
    for (size_t c = 0; c < plan->n_cases; c++) {
        if (!(used & GH_DTYPE_BIT(plan->cases[c].dtype))) continue;
        plan->cases[kept] = plan->cases[c];
        plan->cases[kept].index = (int)kept;
        kept++;
    }
    plan->n_cases = kept;
}

/* Every size x dtype x transpose, in the order the run takes them. */
static void list_cases(const gh_run_config *run, gh_plan *plan)
{
    plan->n_dtypes = run->n_dtypes;
    plan->cases = gh_xcalloc(run->n_sizes * run->n_dtypes * run->n_trans + 1, sizeof *plan->cases);
    for (size_t s = 0; s < run->n_sizes; s++)
        for (size_t d = 0; d < run->n_dtypes; d++)
            for (size_t t = 0; t < run->n_trans; t++) {
                gh_case *c = &plan->cases[plan->n_cases];
                *c = (gh_case){.index = (int)plan->n_cases,
                               .shape = run->sizes[s],
                               .dtype = run->dtypes[d],
                               .trans = run->trans[t],
                               .size_index = s,
                               .dtype_index = d,
                               .types = gh_run_case_types(run, run->dtypes[d])};
                plan->n_cases++;
            }
}

static gh_instance *new_instance(gh_plan *plan, const char *name)
{
    plan->instances = gh_xrealloc(plan->instances, (plan->n_instances + 1) * sizeof *plan->instances);
    gh_instance *inst = &plan->instances[plan->n_instances++];
    memset(inst, 0, sizeof *inst);
    inst->name = gh_strdup(name);
    inst->runs_alone = 1;
    return inst;
}

int gh_plan_build(const gh_config *cfg, gh_plugin_set *plugins, const gh_plan_filters *filters, gh_plan *plan,
                  char *err, size_t err_size)
{
    static const gh_plan_filters none = {0};
    const gh_plan_filters *f = filters ? filters : &none;
    memset(plan, 0, sizeof *plan);
    list_cases(&cfg->run, plan);
    /* Without [backend] sections: every loaded plugin, every device, every
     * kernel at its defaults. */
    for (size_t i = 0; cfg->auto_backends && i < plugins->n; i++) {
        gh_loaded_plugin *p = plugins->items[i];
        if (!p->api) continue;
        gh_instance *inst = new_instance(plan, p->name);
        inst->plugin = p;
        if (plan_build_instance(inst, NULL, plugins, err, err_size) != 0) return -1;
    }
    for (size_t b = 0; !cfg->auto_backends && b < cfg->n_backends; b++) {
        gh_instance *inst = new_instance(plan, cfg->backends[b].name);
        inst->requested = 1;
        if (plan_build_instance(inst, &cfg->backends[b], plugins, err, err_size) != 0) return -1;
    }
    if (plan_check_filter_names(cfg, plan, f, err, err_size) != 0) return -1;
    for (size_t i = 0; i < plan->n_instances; i++) plan_filter_devices(&plan->instances[i], f);
    if (plan_build_splits(cfg, f, plan, err, err_size) != 0) return -1;
    for (size_t i = 0; i < plan->n_instances; i++) plan_filter_kernels(&plan->instances[i], f);
    if ((f->backends || f->kernels || f->devices) && !plan_something_runs(plan)) {
        char b[GH_SHOWN_SIZE], k[GH_SHOWN_SIZE], d[GH_SHOWN_SIZE];
        snprintf(err, err_size, "the filters%s%s%s%s%s%s leave nothing to run (see gemmhost --list)",
                 f->backends ? " --backend " : "", f->backends ? gh_shown_value(f->backends, b, sizeof b) : "",
                 f->kernels ? " --kernel " : "", f->kernels ? gh_shown_value(f->kernels, k, sizeof k) : "",
                 f->devices ? " --device " : "", f->devices ? gh_shown_value(f->devices, d, sizeof d) : "");
        return -1;
    }
    choose_dtypes(&cfg->run, plan);
    return 0;
}

/* Cases of the plan in the dtypes of `mask`. */
static size_t cases_in(const gh_plan *plan, uint32_t mask)
{
    size_t n = 0;
    for (size_t c = 0; c < plan->n_cases; c++) n += (mask & GH_DTYPE_BIT(plan->cases[c].dtype)) != 0;
    return n;
}

size_t gh_plan_run_count(const gh_plan *plan, const gh_instance *inst)
{
    if (inst->problem || !inst->runs_alone) return 0;
    size_t n = 0;
    for (size_t v = 0; v < inst->n_variants; v++) n += cases_in(plan, inst->variants[v].run_dtypes);
    return n * inst->n_devices;
}

size_t gh_plan_split_run_count(const gh_plan *plan, const gh_split_plan *sp)
{
    return sp->problem ? 0 : cases_in(plan, sp->run_dtypes);
}

void gh_plan_free(gh_plan *plan)
{
    for (size_t i = 0; i < plan->n_splits; i++) plan_free_split(&plan->splits[i]);
    free(plan->splits);
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        if (inst->ctx && inst->plugin && inst->plugin->api) inst->plugin->api->close(inst->ctx);
        for (size_t v = 0; v < inst->n_variants; v++) free(inst->variants[v].params);
        free(inst->variants);
        free(inst->devices);
        free(inst->problem);
        free(inst->name);
        free(inst->options);
        free(inst->streak.given_up);
    }
    free(plan->instances);
    free(plan->cases);
    memset(plan, 0, sizeof *plan);
}
