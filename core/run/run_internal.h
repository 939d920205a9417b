/* What the files of the run share (case_data.c, measure.c, run_split.c,
 * case_items.c, run.c); not for use outside core/run. */
#ifndef GEMMHOST_RUN_INTERNAL_H
#define GEMMHOST_RUN_INTERNAL_H

#include "compare.h"
#include "data.h"
#include "input_guard.h"
#include "run.h"
#include "verify.h"

/* One case's host data, shared by every backend that runs it. */
typedef struct gh_case_data {
    int index;
    const gh_host_allocator *alloc; /* pinned host memory of a split member, or NULL (malloc) */
    gh_case_inputs in;
    gh_case_types types; /* A's (in.dtype), B's and C's types and the scales */
    gh_matrix a, b, c0;
    gh_matrix c_init; /* what C holds before each run: poison (beta = 0) or C0 */
    gh_reference *ref;
    gh_input_guard guard; /* a, b, c0 and c_init, fingerprinted */
} case_data;

/* ---- case_data.c ---- */
/* Draws the case's inputs and builds its reference; -1 when out of host memory
 * (case_release still frees what was made). */
int run_case_prepare(case_data *cd, const gh_run_config *run, int index, gh_shape shape, gh_dtype dtype, gh_trans trans,
                     const gh_host_allocator *alloc);
void run_case_release(case_data *cd);
/* Fails r when its backend changed the case's inputs, and draws them again. */
void run_guard_inputs(case_data *cd, const gh_run_config *run, gh_result *r);

/* ---- measure.c ---- */
void run_result_detail(gh_result *r, gh_result_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
gh_result_status run_status_of(gh_status s);
int run_integral(double x);
/* r unsupported: kernel ki offers none of t (its mask, or its combinations). */
void run_unsupported_types(gh_result *r, const gh_kernel_info *ki, const char *plugin, uint32_t abi_minor,
                           const gh_case_types *t);
/* Sorts v. */
double run_median_of(double *v, int n);
/* One repetition: fills `dst` with the output and returns its time, or -1
 * with r's detail set when it failed. */
typedef double (*repetition_fn)(void *job, gh_matrix *dst, int timed, gh_result *r);
/* Checks a later timed output against the first (`got` is that output). */
typedef void (*repeat_check_fn)(void *job, const gh_matrix *first, const gh_matrix *got, int timed, gh_result *r);
int run_measure_repetitions(const gh_run_config *run, const case_data *cd, gh_matrix *out, repetition_fn once,
                            repeat_check_fn check, void *job, double *times, gh_result *r, gh_progress *progress);
/* 1 when the case can run: an i32 case needs integral alpha and beta, and C
 * its host memory in `out`; else 0 with r unsupported or an error. */
int run_output_ready(const gh_run_config *run, const case_data *cd, gh_matrix *out, gh_result *r);
/* A result for case c, passing until shown otherwise; the caller names who produced it. */
gh_result run_case_result(const gh_run_config *run, const gh_case *c, const char *verify_method);
/* The same for a prepared case, verified by its reference's method. */
gh_result run_prepared_result(const gh_run_config *run, const case_data *cd);
void run_name_variant(gh_result *r, const gh_instance *inst, int device, const gh_kernel_variant *v);
void run_count(gh_run_summary *sum, const gh_instance *inst, const gh_result *r);
/* A result's end: its output joins the case's agreement as `label` (freed
 * here) when it ran, the case's inputs are checked, and it is reported. */
void run_settle_result(const gh_run_config *run, case_data *cd, char *label, gh_matrix *out, gh_compare *cmp,
                       gh_result *r, gh_report *report, gh_progress *progress);
gh_result_status run_variant(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v,
                             const gh_tune_cache *tune_cache, case_data *cd, gh_compare *cmp, gh_report *report,
                             gh_progress *progress, gh_run_summary *sum);

/* ---- run_split.c ---- */
void run_name_split(gh_result *r, const gh_split_plan *sp);
void run_count_split(gh_run_summary *sum, const gh_result *r);
gh_result_status run_split(const gh_run_config *run, gh_split_plan *sp, case_data *cd, gh_compare *cmp,
                           gh_report *report, gh_progress *progress, gh_run_summary *sum);
/* Pinned host memory from a split member's plugin when one offers it, else NULL. */
const gh_host_allocator *run_case_allocator(const gh_plan *plan, gh_host_allocator *storage);

/* ---- case_items.c ---- */
/* One thing a case runs: a backend's kernel variant on a device, or a split. */
typedef struct case_item {
    size_t i, dv, v;         /* instance, device and variant, when sp is NULL */
    const gh_split_plan *sp; /* a split */
    size_t s;                /* its index */
    const gh_resumed *old;   /* its result in the run --resume continues, or NULL */
} case_item;
size_t run_case_items(const gh_plan *plan, const gh_case *c, const gh_resume *resume, case_item *items);
int run_case_resumed_whole(const gh_resume *resume, int case_index, const case_item *items, size_t n);
void run_replay(const gh_plan *plan, const case_item *it, size_t **ran, size_t *split_ran, gh_report *report,
                gh_progress *progress, gh_run_summary *sum);

#endif
