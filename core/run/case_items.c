/* What a case runs, in run order, each matched with its result in the run
 * --resume continues. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "crash.h"
#include "compare.h"
#include "data.h"
#include "isolation.h"
#include "input_guard.h"
#include "kernel_arith.h"
#include "shm.h"
#include "run.h"
#include "tune_auto.h"

#include "progress.h"
#include "resume.h"
#include "reported.h"
#include "util.h"
#include "verify.h"
#include "run_internal.h"

/* The items of a case in run order, each with its earlier result. */
size_t run_case_items(const gh_plan *plan, const gh_case *c, const gh_resume *resume, case_item *items)
{
    size_t n = 0;
    gh_result_key key = {c->index,   NULL,       0,          NULL,       NULL,       NULL,    c->dtype,
                         c->trans.a, c->trans.b, c->shape.m, c->shape.n, c->shape.k, c->types};
    for (size_t i = 0; i < plan->n_instances; i++) {
        const gh_instance *inst = &plan->instances[i];
        if (inst->problem || !inst->runs_alone) continue;
        for (size_t dv = 0; dv < inst->n_devices; dv++)
            for (size_t v = 0; v < inst->n_variants; v++) {
                if (!(inst->variants[v].run_dtypes & GH_DTYPE_BIT(c->dtype))) continue; /* dtype = auto left it out */
                items[n] = (case_item){.i = i, .dv = dv, .v = v};
                if (resume) {
                    const gh_device_info *info = inst->plugin->api->device_info(inst->ctx, inst->devices[dv]);
                    key.backend = inst->name;
                    key.device_index = inst->devices[dv];
                    key.device_name = info ? info->name : "?";
                    key.kernel = inst->variants[v].info->name;
                    key.params = inst->variants[v].label;
                    items[n].old = gh_resume_find(resume, &key);
                }
                n++;
            }
    }
    for (size_t s = 0; s < plan->n_splits; s++) {
        const gh_split_plan *sp = &plan->splits[s];
        if (sp->problem || !(sp->run_dtypes & GH_DTYPE_BIT(c->dtype))) continue;
        items[n] = (case_item){.sp = sp, .s = s};
        if (resume) {
            key.backend = sp->name;
            key.device_index = -1;
            key.device_name = sp->device_name;
            key.kernel = sp->kernel;
            key.params = sp->params;
            items[n].old = gh_resume_find(resume, &key);
        }
        n++;
    }
    return n;
}

/* Whether the earlier file holds the whole case: every result, and its
 * agreement when one of them has an output. */
int run_case_resumed_whole(const gh_resume *resume, int case_index, const case_item *items, size_t n)
{
    if (!resume) return 0;
    int any_output = 0;
    for (size_t k = 0; k < n; k++) {
        if (!items[k].old) return 0;
        any_output |= gh_result_status_ran(items[k].old->result.status);
    }
    return !any_output || gh_resume_agreement(resume, case_index) != NULL;
}

/* An earlier result: reported again as it was, and counted like a new one. */
void run_replay(const gh_plan *plan, const case_item *it, size_t **ran, size_t *split_ran, gh_report *report,
                gh_progress *progress, gh_run_summary *sum)
{
    const gh_result *r = &it->old->result;
    gh_progress_clear(progress);
    gh_report_result(report, r);
    if (it->old->has_split) gh_report_split_members(report, r, it->old->wall_ms, it->old->members, it->old->n_members);
    if (it->sp) run_count_split(sum, r);
    else run_count(sum, &plan->instances[it->i], r);
    if (r->status == GH_RESULT_UNSUPPORTED) return;
    if (it->sp) split_ran[it->s]++;
    else ran[it->i][it->dv * plan->instances[it->i].n_variants + it->v]++;
}

int gh_run_check_resume(const gh_plan *plan, const gh_resume *resume, const char *path, char *err, size_t err_size)
{
    if (!resume) return 0;
    size_t max_items = plan->n_splits;
    for (size_t i = 0; i < plan->n_instances; i++)
        max_items += plan->instances[i].n_devices * plan->instances[i].n_variants;
    case_item *items = gh_xcalloc(max_items + 1, sizeof *items);
    for (size_t ci = 0; ci < plan->n_cases; ci++) run_case_items(plan, &plan->cases[ci], resume, items);
    free(items);
    const gh_result *r = gh_resume_first_unfound(resume);
    if (!r) return 0;
    char trans[3] = {r->trans_a ? 't' : 'n', r->trans_b ? 't' : 'n', '\0'};
    char types[160] = ""; /* an 8-bit result's B and C types and scales */
    const gh_case_types *t = &r->types;
    if (t->explicit_types)
        snprintf(types, sizeof types, " (b_dtype %s, c_dtype %s, scales %g %g %g)", gh_dtype_name(t->b),
                 gh_dtype_name(t->c), t->scale_a, t->scale_b, t->scale_c);
    snprintf(err, err_size,
             "%s holds results this run would not make (e.g. backend %s, device %d, kernel %s%s%s, case %d: %s%s %s "
             "%lldx%lldx%lld): --resume continues only the same run; give the same config, filters, sizes and "
             "types (or another --output)",
             path, r->backend, r->device_index, r->kernel, *r->params ? " " : "", r->params, r->case_index,
             gh_dtype_name(r->dtype), types, trans, (long long)r->m, (long long)r->n, (long long)r->k);
    return -1;
}
