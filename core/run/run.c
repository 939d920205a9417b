/* The case loop: every case, every item of it (kernel variants and splits),
 * results reported and compared as they arrive. */
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
#include "kept_outputs.h"
#include "shm.h"
#include "run.h"
#include "tune_auto.h"

#include "progress.h"
#include "resume.h"
#include "reported.h"
#include "util.h"
#include "verify.h"
#include "run_internal.h"

/* A kernel variant named in `kernels` or --kernel that ran no case at all
 * (each unsupported, or skipped) is a kernel that could not run: say so, and
 * count it for exit status 3. One that came with its plugin, unnamed, only
 * shows its unsupported results: a device without, say, tensor cores is no
 * failure of a run that did not ask for them. */
static void report_never_ran(gh_plan *plan, size_t **ran, gh_report *report, gh_run_summary *sum)
{
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        if (inst->problem || !inst->runs_alone) continue;
        for (size_t d = 0; d < inst->n_devices; d++)
            for (size_t v = 0; v < inst->n_variants; v++) {
                if (!inst->variants[v].named || ran[i][d * inst->n_variants + v]) continue;
                gh_report_note(report,
                               "backend %s: kernel %s%s%s never ran on device %d: no case ran (each was unsupported or "
                               "skipped above)",
                               inst->name, inst->variants[v].info->name, *inst->variants[v].label ? " " : "",
                               inst->variants[v].label, inst->devices[d]);
                sum->requested_not_run++;
            }
    }
}

/* Runs one item of a prepared case, shown in the progress as `done`. */
static gh_result_status run_item(const gh_run_config *run, gh_plan *plan, const case_item *it, case_data *cd,
                                 gh_compare *cmp, gh_report *report, gh_progress *progress, gh_run_summary *sum,
                                 size_t done)
{
    char what[160];
    if (it->sp) {
        snprintf(what, sizeof what, "split %s", it->sp->name);
        gh_progress_run(progress, done, what);
        return run_split(run, &plan->splits[it->s], cd, cmp, report, progress,
                         sum); /* not it->sp: its streak changes */
    }
    gh_instance *inst = &plan->instances[it->i];
    const gh_kernel_variant *v = &inst->variants[it->v];
    snprintf(what, sizeof what, "%s/%d/%s%s%s", inst->name, inst->devices[it->dv], v->info->name, *v->label ? " " : "",
             v->label);
    gh_progress_run(progress, done, what);
    return run_variant(run, inst, inst->devices[it->dv], v, plan->tune_cache, cd, cmp, report, progress, sum);
}

/* The result a cancelled run stopped at, when the signal came between
 * results: who and which case; nothing of it ran. */
static void report_cancelled(const gh_run_config *run, gh_plan *plan, const gh_case *c, const case_item *it,
                             gh_report *report, gh_progress *progress, gh_run_summary *sum)
{
    gh_result r = run_case_result(run, c, "none");
    gh_instance *inst = it->sp ? NULL : &plan->instances[it->i];
    if (it->sp) run_name_split(&r, it->sp);
    else run_name_variant(&r, inst, inst->devices[it->dv], &inst->variants[it->v]);
    run_result_detail(&r, GH_RESULT_CANCELLED, "cancelled by %s before it started", gh_cancel_signal_name());
    gh_progress_clear(progress);
    gh_report_result(report, &r);
    if (it->sp) run_count_split(sum, &r);
    else run_count(sum, inst, &r);
}

/* A case partly run before: an earlier result's output is run again, not
 * reported, for the agreement of the whole case. Returns 0 when cancelled. */
static int rerun_for_agreement(const gh_run_config *run, gh_plan *plan, const case_item *it, case_data *cd,
                               gh_compare *cmp, gh_report *report, gh_progress *progress)
{
    gh_run_summary unused;
    memset(&unused, 0, sizeof unused);
    size_t before = cmp->n_members;
    gh_result_status st = run_item(run, plan, it, cd, cmp, NULL, progress, &unused, 0);
    if (st == GH_RESULT_CANCELLED) return 0;
    const gh_result *old = &it->old->result;
    if (cmp->n_members > before && cmp->members[before].hash != old->output_hash)
        gh_report_note(report,
                       "%s: run again for case %d's agreement, its output differs from the resumed result's "
                       "(hash %016" PRIx64 ", recorded %016" PRIx64 "): the agreement shows this run's",
                       cmp->members[before].label, old->case_index, cmp->members[before].hash, old->output_hash);
    else if (cmp->n_members == before)
        gh_report_note(report, "backend %s, kernel %s%s%s: run again for case %d's agreement, it did not finish (%s)",
                       old->backend, old->kernel, *old->params ? " " : "", old->params, old->case_index,
                       gh_result_status_name(st));
    return 1;
}

void gh_run_plan(const gh_config *cfg, gh_plan *plan, const gh_resume *resume, gh_report *report,
                 gh_progress_mode progress_mode, gh_run_summary *sum)
{
    const gh_run_config *run = &cfg->run;
    memset(sum, 0, sizeof *sum);
    size_t total = 0, done = 0;
    for (size_t i = 0; i < plan->n_instances; i++) {
        gh_instance *inst = &plan->instances[i];
        total += gh_plan_run_count(plan, inst);
        if (inst->problem && inst->runs_alone) {
            gh_report_note(report, "backend %s could not run: %s", inst->name, inst->problem);
            if (inst->requested || inst->plugin_error) sum->requested_not_run++;
        }
    }
    for (size_t i = 0; i < plan->n_splits; i++) {
        const gh_split_plan *sp = &plan->splits[i];
        total += gh_plan_split_run_count(plan, sp);
        if (sp->problem) {
            gh_report_note(report, "split %s could not run: %s", sp->name, sp->problem);
            sum->requested_not_run++;
        }
    }
    gh_progress *progress = gh_progress_start(progress_mode, total, 5.0);
    gh_host_allocator pinned;
    const gh_host_allocator *alloc =
        run->isolation == GH_ISOLATION_PROCESS ? gh_shm_allocator() : run_case_allocator(plan, &pinned);
    size_t *split_ran = gh_xcalloc(plan->n_splits + 1, sizeof *split_ran);
    /* ran[i][d * n_variants + v]: cases that instance i's variant v ran on device d */
    size_t **ran = gh_xcalloc(plan->n_instances ? plan->n_instances : 1, sizeof *ran);
    for (size_t i = 0; i < plan->n_instances; i++)
        ran[i] = gh_xcalloc(plan->instances[i].n_devices * plan->instances[i].n_variants + 1, sizeof **ran);
    size_t max_items = plan->n_splits;
    for (size_t i = 0; i < plan->n_instances; i++)
        max_items += plan->instances[i].n_devices * plan->instances[i].n_variants;
    case_item *items = gh_xcalloc(max_items + 1, sizeof *items);
    int stop = 0;            /* cancelled (cancel.h): nothing more runs */
    int cancel_reported = 0; /* the result it stopped at is reported */
    for (size_t ci = 0; ci < plan->n_cases; ci++) {
        const gh_case *c = &plan->cases[ci];
        const int index = c->index;
        size_t n_items = run_case_items(plan, c, resume, items);
        if (run_case_resumed_whole(resume, index, items, n_items)) {
            /* Every result of the case is in the earlier file: no inputs to draw. */
            gh_report_hold(report, 1);
            for (size_t k = 0; k < n_items; k++, done++)
                run_replay(plan, &items[k], ran, split_ran, report, progress, sum);
            const gh_agreement *old = gh_resume_agreement(resume, index);
            if (old) gh_report_agreement(report, old);
            continue;
        }
        /* Once cancelled, only earlier results are still reported (they must not be lost). */
        stop |= gh_cancel_requested() != 0;
        case_data cd;
        int prepared = 0;
        char what[160];
        snprintf(what, sizeof what, "preparing %s %s%s %lldx%lldx%lld", gh_dtype_name(c->dtype), c->trans.a ? "t" : "n",
                 c->trans.b ? "t" : "n", (long long)c->shape.m, (long long)c->shape.n, (long long)c->shape.k);
        if (!stop) {
            gh_progress_run(progress, done, what);
            prepared = run_case_prepare(&cd, run, index, c->shape, c->dtype, c->trans, alloc) == 0;
            if (!prepared) {
                gh_progress_clear(progress);
                gh_report_hold(report, 0);
                gh_report_note(report, "case %d (%s) skipped: out of host memory for its inputs or reference", index,
                               what + strlen("preparing "));
                sum->errors++;
                run_case_release(&cd);
            }
        }
        gh_compare cmp = {0};
        for (size_t k = 0; k < n_items; k++, done++) {
            const case_item *it = &items[k];
            if (it->old) {
                gh_report_hold(report, 1);
                run_replay(plan, it, ran, split_ran, report, progress, sum);
                /* Its output is not in the file: the agreement of this case needs it again. */
                if (prepared && !stop && gh_result_status_ran(it->old->result.status))
                    stop = !rerun_for_agreement(run, plan, it, &cd, &cmp, report, progress);
                continue;
            }
            if (!prepared && !stop) continue; /* the case was skipped */
            if (stop) {
                /* The first result a cancelled run did not get to is the one it stopped at. */
                if (!cancel_reported) report_cancelled(run, plan, c, it, report, progress, sum);
                cancel_reported = 1;
                continue;
            }
            gh_report_hold(report, 0);
            gh_result_status st = run_item(run, plan, it, &cd, &cmp, report, progress, sum, done);
            if (st != GH_RESULT_UNSUPPORTED) {
                if (it->sp) split_ran[it->s]++;
                else ran[it->i][it->dv * plan->instances[it->i].n_variants + it->v]++;
            }
            cancel_reported |= st == GH_RESULT_CANCELLED;
            stop |= cancel_reported || gh_cancel_requested() != 0;
        }
        gh_report_hold(report, 0);
        if (prepared && cmp.n_members > 0 && !stop) { /* a case cut short has no agreement: --resume completes it */
            gh_agreement a = {
                .case_index = index,
                .dtype = cd.in.dtype,
                .trans_a = cd.in.trans_a,
                .trans_b = cd.in.trans_b,
                .m = cd.in.m,
                .n = cd.in.n,
                .k = cd.in.k,
            };
            gh_compare_finish(&cmp, cd.ref, &a);
            if (run->kept_outputs && run->fleet_outputs_max) /* for rank 0's exact distances (docs/fleet.md) */
                gh_kept_outputs_add_case(run->kept_outputs, &cmp, index, &cd.in, run->fleet_outputs_max);
            gh_progress_clear(progress);
            gh_report_agreement(report, &a);
            gh_agreement_free(&a);
        }
        gh_compare_clear(&cmp);
        if (prepared) run_case_release(&cd);
    }
    gh_report_hold(report, 0);
    free(items);
    gh_progress_finish(progress);
    if (!stop) report_never_ran(plan, ran, report, sum); /* a cancelled run never got to them */
    for (size_t i = 0; i < plan->n_splits && !stop; i++) {
        if (plan->splits[i].problem || split_ran[i]) continue;
        gh_report_note(report, "split %s never ran: no case ran (each was unsupported or skipped above)",
                       plan->splits[i].name);
        sum->requested_not_run++;
    }
    free(split_ran);
    for (size_t i = 0; i < plan->n_instances; i++) free(ran[i]);
    free(ran);
}
