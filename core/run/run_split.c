/* A split's run glue: one product over several devices, measured like a
 * kernel and reported like a backend. */
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
#include "timeline.h"
#include "resume.h"
#include "reported.h"
#include "util.h"
#include "verify.h"
#include "run_internal.h"

/* The whole product over a split's members, from host memory to host memory. */
typedef struct split_job {
    const gh_split_plan *sp;
    const case_data *cd;
    const gh_run_config *run;
    gh_split_member_stats *last;      /* the members' stats of the latest repetition */
    gh_split_member_stats *per_timed; /* n_members per timed repetition */
    double failed_wall_ms;
    int warmups; /* warm-up runs so far, for the timeline's labels */
} split_job;

static double split_repetition(void *p, gh_matrix *dst, int timed, gh_result *r)
{
    split_job *job = p;
    const case_data *cd = job->cd;
    const size_t n = job->sp->n_members;
    gh_matrix_poison(dst); /* an element no member writes then fails */
    gh_split_problem prob = {
        .dtype = cd->in.dtype,
        .trans_a = cd->in.trans_a,
        .trans_b = cd->in.trans_b,
        .m = cd->in.m,
        .n = cd->in.n,
        .k = cd->in.k,
        .alpha = job->run->alpha,
        .beta = job->run->beta,
        .a = &cd->a,
        .b = &cd->b,
        .c0 = &cd->c0,
        .c = dst,
        .types = cd->types,
    };
    gh_split_outcome o = {.members = job->last};
    const gh_split_config *sc = job->sp->config;
    const gh_split_options opt = {sc->panel, sc->mem_limit, sc->numa, sc->b_copy, gh_timeline_active()};
    gh_status status = gh_split_run(job->sp->members, n, &opt, &prob, &o);
    if (o.n_events) {
        char label[256];
        snprintf(label, sizeof label, "split %s: %lldx%lldx%lld %s %c%c, %s %d%s", job->sp->name, (long long)prob.m,
                 (long long)prob.n, (long long)prob.k, gh_dtype_name(prob.dtype), prob.trans_a ? 't' : 'n',
                 prob.trans_b ? 't' : 'n', timed >= 0 ? "timed run" : "warm-up",
                 timed >= 0 ? timed + 1 : ++job->warmups, status == GH_OK ? "" : " (failed)");
        gh_timeline_add_split(label, job->sp->members, n, o.events, o.n_events);
    }
    free(o.events);
    if (status != GH_OK) {
        if (gh_cancel_requested())
            run_result_detail(r, GH_RESULT_CANCELLED, "cancelled by %s: %s", gh_cancel_signal_name(), o.error);
        else run_result_detail(r, run_status_of(o.status), "%s", o.error);
        job->failed_wall_ms = o.wall_ms;
        return -1;
    }
    if (timed >= 0) memcpy(job->per_timed + (size_t)timed * n, job->last, n * sizeof *job->last);
    return o.wall_ms;
}

/* A later timed run's output: members alike must repeat the first run bit
 * for bit; members that differ may not (which device takes which chunk
 * changes between runs), so such an output is verified on its own. */
static void split_repeat_check(void *p, const gh_matrix *first, const gh_matrix *got, int timed, gh_result *r)
{
    const split_job *job = p;
    if (r->status != GH_RESULT_PASS) return;
    if (!gh_matrix_same_values(got, first)) {
        r->deterministic = 0;
        if (job->sp->alike) {
            run_result_detail(r, GH_RESULT_FAIL,
                              "nondeterministic: timed run %d's output differs from run 1's "
                              "on the same inputs and alike members",
                              timed + 1);
            return;
        }
        gh_verify_result v;
        gh_verify_as(job->cd->ref, r->arith, got, &v);
        if (v.checked && !v.passed) {
            run_result_detail(r, GH_RESULT_FAIL, "timed run %d: %s", timed + 1, v.message);
            return;
        }
    }
    if (gh_matrix_check_guards(got, NULL) != 0)
        run_result_detail(r, GH_RESULT_FAIL, "timed run %d wrote outside C (guard zone or row padding)", timed + 1);
}

/* The timed run whose wall time is the median: its member stats are reported. */
static int median_run(const double *wall, int n)
{
    double *sorted = gh_xcalloc((size_t)n, sizeof *sorted);
    memcpy(sorted, wall, (size_t)n * sizeof *sorted);
    double mid = run_median_of(sorted, n);
    free(sorted);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (fabs(wall[i] - mid) < fabs(wall[best] - mid)) best = i;
    return best;
}

static void sum_transfers(const gh_split_member_stats *st, size_t n, gh_result *r)
{
    r->upload_ms = r->download_ms = 0;
    for (size_t i = 0; i < n; i++) {
        r->upload_ms += st[i].upload_ms;
        r->download_ms += st[i].download_ms;
    }
}

/* Warm-up and timed runs of the whole product. The time of a run is its wall
 * time, first upload to last download; `shown` gets the member stats of the
 * median run, or of the run that failed. */
static void measure_split(const gh_run_config *run, const gh_split_plan *sp, case_data *cd, gh_matrix *out,
                          gh_result *r, gh_split_member_stats *shown, double *shown_wall, gh_progress *progress)
{
    const size_t n = sp->n_members;
    double *wall = gh_xcalloc((size_t)run->repeat, sizeof *wall);
    split_job job = {.sp = sp,
                     .cd = cd,
                     .run = run,
                     .last = shown,
                     .per_timed = gh_xcalloc((size_t)run->repeat * n, sizeof *job.per_timed)};
    r->clock = GH_CLOCK_HOST;
    if (run_measure_repetitions(run, cd, out, split_repetition, split_repeat_check, &job, wall, r, progress) == 0) {
        int mid = median_run(wall, r->repeats);
        memcpy(shown, job.per_timed + (size_t)mid * n, n * sizeof *shown);
        *shown_wall = wall[mid];
        sum_transfers(shown, n, r);
    } else {
        *shown_wall = job.failed_wall_ms;
    }
    free(job.per_timed);
    free(wall);
}

static void report_split(gh_report *report, const gh_split_plan *sp, const gh_result *r,
                         const gh_split_member_stats *st, double wall_ms)
{
    gh_report_split_member *rows = gh_xcalloc(sp->n_members, sizeof *rows);
    char(*layouts)[160] = gh_xcalloc(sp->n_members, sizeof *layouts);
    for (size_t i = 0; i < sp->n_members; i++) {
        const gh_split_member *mb = &sp->members[i];
        const gh_device_info *info = mb->api->device_info(mb->ctx, mb->device);
        if (st[i].layout.n_chunks > 0) gh_split_layout_describe(&st[i].layout, layouts[i], sizeof layouts[i]);
        else snprintf(layouts[i], sizeof layouts[i], "not planned");
        rows[i] = (gh_report_split_member){
            .backend = mb->backend,
            .plugin = mb->api->name,
            .device_index = mb->device,
            .device_name = info ? info->name : "?",
            .kernel = mb->kernel_info->name,
            .params = mb->params_label,
            .streams = st[i].streams,
            .layout = layouts[i],
            .device_bytes = st[i].layout.device_bytes,
            .chunks = st[i].chunks,
            .gemms = st[i].gemms,
            .compute_ms = st[i].compute_ms,
            .upload_ms = st[i].upload_ms,
            .download_ms = st[i].download_ms,
            .wait_ms = st[i].wait_ms,
            .bytes_up = st[i].bytes_up,
            .bytes_down = st[i].bytes_down,
            .upload_gbps = st[i].upload_ms > 0 ? (double)st[i].bytes_up / st[i].upload_ms / 1e6 : 0,
            .download_gbps = st[i].download_ms > 0 ? (double)st[i].bytes_down / st[i].download_ms / 1e6 : 0,
            .host_memory = st[i].host_memory,
            .numa_node = st[i].numa_node,
            .numa = st[i].numa_note,
            .b_path = st[i].b_path,
            .error = st[i].error,
        };
    }
    gh_report_split_members(report, r, wall_ms, rows, sp->n_members);
    free(layouts);
    free(rows);
}

void run_count_split(gh_run_summary *sum, const gh_result *r)
{
    gh_instance requested = {.requested = 1}; /* a [split] is always named in the config */
    run_count(sum, &requested, r);
}

/* A split's result is named like a backend's; it is held to the loosest
 * arithmetic its members declare. */
void run_name_split(gh_result *r, const gh_split_plan *sp)
{
    r->backend = sp->name;
    r->plugin = "split";
    r->plugin_path = "";
    r->device_index = -1;
    r->device_name = sp->device_name;
    r->kernel = sp->kernel;
    snprintf(r->params, sizeof r->params, "%s", sp->params);
    snprintf(r->params_used, sizeof r->params_used, "%s", sp->params);
    for (size_t m = 0; m < sp->n_members; m++) {
        gh_arith a;
        char text[sizeof r->arithmetic];
        const gh_split_member *mb = &sp->members[m];
        int declared = gh_kernel_arith_of(mb->kernel_info, mb->abi_minor, &r->types, &a, text, sizeof text);
        if (m == 0 || declared) snprintf(r->arithmetic, sizeof r->arithmetic, "%s", text);
        r->arith = m == 0 ? a : gh_arith_looser(r->arith, a);
        r->arith_declared |= declared;
    }
}

gh_result_status run_split(const gh_run_config *run, gh_split_plan *sp, case_data *cd, gh_compare *cmp,
                           gh_report *report, gh_progress *progress, gh_run_summary *sum)
{
    gh_result r = run_prepared_result(run, cd);
    run_name_split(&r, sp);
    gh_split_member_stats *st = gh_xcalloc(sp->n_members, sizeof *st);
    double wall_ms = 0;
    gh_matrix out = {0};
    int gave_up = 0;
    if (gh_isolation_given_up(&sp->streak, &r)) {
        /* an error that says why; no member is called */
    } else if (run_output_ready(run, cd, &out, &r)) {
        measure_split(run, sp, cd, &out, &r, st, &wall_ms, progress);
        gave_up = gh_isolation_settle_members(&sp->streak, sp->members, sp->n_members, &r);
    }
    char *label = gh_strdupf("%s/split/%s%s%s", sp->name, sp->kernel, *sp->params ? " " : "", sp->params);
    run_settle_result(run, cd, label, &out, cmp, &r, report, progress);
    report_split(report, sp, &r, st, wall_ms);
    if (gave_up)
        gh_report_note(report, "split %s %s: its remaining runs are reported as errors", sp->name, sp->streak.given_up);
    run_count_split(sum, &r);
    free(st);
    return r.status;
}

/* Case inputs in pinned memory when a split member's plugin offers it: the
 * split's transfers run fastest from there (and the other backends' too). */
const gh_host_allocator *run_case_allocator(const gh_plan *plan, gh_host_allocator *storage)
{
    for (size_t s = 0; s < plan->n_splits; s++) {
        const gh_split_plan *sp = &plan->splits[s];
        for (size_t i = 0; !sp->problem && i < sp->n_members; i++)
            if (gh_split_host_allocator(&sp->members[i], storage) == 0) return storage;
    }
    return NULL;
}
