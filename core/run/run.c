/* The measuring loop: upload, warm up, repeat, time, download, verify. */
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

/* One case's host data, shared by every backend that runs it. */
typedef struct gh_case_data {
    int index;
    const gh_host_allocator *alloc; /* pinned host memory of a split member, or NULL (malloc) */
    gh_case_inputs in;
    gh_matrix a, b, c0;
    gh_matrix c_init; /* what C holds before each run: poison (beta = 0) or C0 */
    gh_reference *ref;
    gh_input_guard guard; /* a, b, c0 and c_init, fingerprinted */
} case_data;

static void result_detail(gh_result *r, gh_result_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->status = status;
    vsnprintf(r->detail, sizeof r->detail, fmt, ap);
    va_end(ap);
}

/* After every run is checked: a wrong value fails; with verify = none a
 * result that broke no other rule is unchecked, never a pass. */
static void settle_verdict(gh_result *r)
{
    if (r->status != GH_RESULT_PASS) return;
    if (r->verify.checked && !r->verify.passed) result_detail(r, GH_RESULT_FAIL, "%s", r->verify.message);
    else if (!r->verify.checked) r->status = GH_RESULT_UNCHECKED;
}

/* The case's inputs, drawn from the seed: the same for every backend. */
static void case_fill(case_data *cd, const gh_run_config *run, int64_t k)
{
    const int index = cd->index;
    int32_t range = gh_i32_input_range(k, run->alpha, run->beta);
    /* Streams keep A, B and C0 of one case apart and every case distinct. */
    gh_matrix_fill_random(&cd->a, run->seed, (uint64_t)index * 3 + 0, range);
    gh_matrix_fill_random(&cd->b, run->seed, (uint64_t)index * 3 + 1, range);
    gh_matrix_fill_random(&cd->c0, run->seed, (uint64_t)index * 3 + 2, range);
    if (run->beta == 0) gh_matrix_poison(&cd->c_init);
    else gh_matrix_copy(&cd->c_init, &cd->c0);
}

static int case_prepare(case_data *cd, const gh_run_config *run, int index, gh_shape shape, gh_dtype dtype,
                        gh_trans trans, const gh_host_allocator *alloc)
{
    memset(cd, 0, sizeof *cd);
    cd->index = index;
    cd->alloc = alloc;
    const int64_t m = shape.m, n = shape.n, k = shape.k;
    const int64_t a_rows = trans.a ? k : m, a_cols = trans.a ? m : k;
    const int64_t b_rows = trans.b ? n : k, b_cols = trans.b ? k : n;
    if (gh_matrix_alloc_with(&cd->a, dtype, a_rows, a_cols, a_cols + run->ld_pad, run->guard, alloc) ||
        gh_matrix_alloc_with(&cd->b, dtype, b_rows, b_cols, b_cols + run->ld_pad, run->guard, alloc) ||
        gh_matrix_alloc_with(&cd->c0, dtype, m, n, n + run->ld_pad, run->guard, alloc) ||
        gh_matrix_alloc_with(&cd->c_init, dtype, m, n, n + run->ld_pad, run->guard, alloc))
        return -1;
    case_fill(cd, run, k);
    if (run->isolation == GH_ISOLATION_NONE) { /* a worker maps its inputs read-only: nothing to watch */
        gh_input_guard_watch(&cd->guard, "A", &cd->a);
        gh_input_guard_watch(&cd->guard, "B", &cd->b);
        gh_input_guard_watch(&cd->guard, "C0", &cd->c0);
        gh_input_guard_watch(&cd->guard, "C", &cd->c_init); /* what each run uploads as C */
    }
    cd->in = (gh_case_inputs){dtype, trans.a, trans.b, m, n, k, run->alpha, run->beta, &cd->a, &cd->b, &cd->c0};
    gh_verify_options vopt = {
        .method = run->verify,
        .full_max_flops = run->full_max_flops,
        .freivalds_trials = run->freivalds_trials,
        .samples = run->samples,
        .threads = 0,
        .seed = run->seed ^ ((uint64_t)index * 0x9E3779B97F4A7C15ull),
    };
    cd->ref = gh_reference_build(&cd->in, &vopt);
    return cd->ref ? 0 : -1;
}

static void case_release(case_data *cd)
{
    gh_matrix_free(&cd->a);
    gh_matrix_free(&cd->b);
    gh_matrix_free(&cd->c0);
    gh_matrix_free(&cd->c_init);
    gh_reference_free(cd->ref);
    memset(cd, 0, sizeof *cd);
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The device buffers of one run, freed together. */
typedef struct device_buffers {
    gh_buffer *a, *b, *c;
} device_buffers;

static void free_buffers(const gh_plugin_api *api, gh_plugin *ctx, device_buffers *buf)
{
    if (buf->a) api->buffer_free(ctx, buf->a);
    if (buf->b) api->buffer_free(ctx, buf->b);
    if (buf->c) api->buffer_free(ctx, buf->c);
}

static gh_result_status status_of(gh_status s)
{
    return s == GH_UNSUPPORTED ? GH_RESULT_UNSUPPORTED : GH_RESULT_ERROR;
}

/* ---- measuring: one path for a backend's kernel and for a split ---- */

/* One repetition: fills `dst` with the output and returns its time, or -1
 * with r's detail set when it failed. */
typedef double (*repetition_fn)(void *job, gh_matrix *dst, int timed, gh_result *r);
/* Checks a later timed output against the first (`got` is that output). */
typedef void (*repeat_check_fn)(void *job, const gh_matrix *first, const gh_matrix *got, int timed, gh_result *r);

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Warm-up and timed repetitions: the first timed output goes to `out` (for
 * the agreement table), is hashed and verified; each later one to a scratch
 * matrix, checked against it. times[timed] gets each timed repetition's time;
 * the kernel time fields, GFLOP/s and the verdict are filled from them.
 * Returns 0, or -1 when a repetition failed. */
static int measure_repetitions(const gh_run_config *run, const case_data *cd, gh_matrix *out, repetition_fn once,
                               repeat_check_fn check, void *job, double *times, gh_result *r, gh_progress *progress)
{
    const int total = run->warmup + run->repeat;
    gh_matrix scratch = {0};
    if (total > 1 && gh_matrix_alloc_with(&scratch, cd->c0.dtype, cd->c0.rows, cd->c0.cols, cd->c0.ld, cd->c0.guard,
                                          cd->alloc) != 0) {
        result_detail(r, GH_RESULT_ERROR, "out of host memory for a second output of %lldx%lld", (long long)cd->c0.rows,
                      (long long)cd->c0.cols);
        return -1;
    }
    r->deterministic = 1;
    int rc = 0;
    for (int rep = 0; rep < total && rc == 0; rep++) {
        const int timed = rep - run->warmup; /* < 0 while warming up */
        gh_progress_repeat(progress, rep, total);
        if (gh_cancel_requested()) { /* between calls: the safe point */
            result_detail(r, GH_RESULT_CANCELLED, "cancelled by %s after %d of its %d runs", gh_cancel_signal_name(),
                          rep, total);
            rc = -1;
            break;
        }
        gh_matrix *dst = timed == 0 ? out : &scratch;
        double ms = once(job, dst, timed, r);
        if (ms < 0) rc = -1;
        else if (timed >= 0) times[timed] = ms;
        if (rc != 0 || timed < 0) continue;
        if (timed == 0) {
            r->output_hash = gh_matrix_hash(out);
            gh_verify_as(cd->ref, r->arith, out, &r->verify);
        } else {
            check(job, out, &scratch, timed, r);
        }
    }
    gh_matrix_free(&scratch);
    if (rc != 0) return rc;
    double *sorted = gh_xcalloc((size_t)run->repeat, sizeof *sorted);
    memcpy(sorted, times, (size_t)run->repeat * sizeof *sorted);
    r->repeats = run->repeat;
    r->kernel_ms_median = median_of(sorted, run->repeat);
    r->kernel_ms_min = sorted[0];
    r->kernel_ms_max = sorted[run->repeat - 1];
    free(sorted);
    r->gflops =
        r->kernel_ms_median > 0 ? 2.0 * (double)r->m * (double)r->n * (double)r->k / (r->kernel_ms_median * 1e6) : 0;
    settle_verdict(r);
    return 0;
}

/* A backend's kernel on one device, its operands uploaded once. */
typedef struct kernel_job {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int device, kernel;
    int warmup, repeat;
    const case_data *cd;
    device_buffers buf;
    gh_gemm_args args;
    double upload_c_ms;  /* of the first timed repetition */
    double *download_ms; /* per timed repetition */
    int bad_time_run;    /* the first repetition whose reported time was no time (0: none), 1-based */
    double bad_time;     /* what it reported */
} kernel_job;

/* Every repetition starts from poison (or C0), so an unwritten element shows. */
static double kernel_repetition(void *p, gh_matrix *dst, int timed, gh_result *r)
{
    kernel_job *job = p;
    const gh_plugin_api *api = job->api;
    gh_status s;
    double t0 = gh_now_ms();
    if ((s = api->upload(job->ctx, job->buf.c, 0, job->cd->c_init.storage,
                         gh_matrix_storage_bytes(&job->cd->c_init)))) {
        result_detail(r, status_of(s), "uploading C: %s", api->last_error(job->ctx));
        return -1;
    }
    if (timed == 0) job->upload_c_ms = gh_now_ms() - t0;
    gh_gemm_timing timing = {.size = sizeof timing};
    if ((s = api->gemm(job->ctx, job->device, job->kernel, &job->args, &timing))) {
        result_detail(r, status_of(s), "%s", api->last_error(job->ctx));
        return -1;
    }
    t0 = gh_now_ms();
    if ((s = api->download(job->ctx, job->buf.c, 0, dst->storage, gh_matrix_storage_bytes(dst)))) {
        result_detail(r, status_of(s), "downloading C: %s", api->last_error(job->ctx));
        return -1;
    }
    if (timed >= 0) job->download_ms[timed] = gh_now_ms() - t0;
    if (timing.clock == GH_CLOCK_HOST) r->clock = GH_CLOCK_HOST;
    if (!gh_reported_time_ok(timing.kernel_ms)) {
        /* The output is still verified; the lie fails the result in measure(). */
        if (!job->bad_time_run) {
            job->bad_time_run = timed + job->warmup + 1;
            job->bad_time = timing.kernel_ms;
        }
        return 0;
    }
    return timing.kernel_ms;
}

/* A kernel time of 0, below 0 or NaN fails the result, and no time of it is
 * reported (a median of -1 or nan would be taken as a measurement). */
static void fail_bad_time(const kernel_job *job, gh_result *r)
{
    char what[160];
    snprintf(what, sizeof what,
             "plugin reported a kernel time of %g ms (run %d of %d; a kernel time must be finite "
             "and > 0)",
             job->bad_time, job->bad_time_run, job->warmup + job->repeat);
    if (r->status == GH_RESULT_FAIL) {
        char was[sizeof r->detail];
        snprintf(was, sizeof was, "%s", r->detail);
        result_detail(r, GH_RESULT_FAIL, "%s; and %s", was, what);
    } else {
        result_detail(r, GH_RESULT_FAIL, "%s", what);
    }
    r->repeats = 0;
    r->kernel_ms_median = r->kernel_ms_min = r->kernel_ms_max = r->gflops = 0;
    r->upload_ms = r->download_ms = 0;
}

/* One device and kernel must repeat bit for bit and stay inside C. */
static void kernel_repeat_check(void *p, const gh_matrix *first, const gh_matrix *got, int timed, gh_result *r)
{
    (void)p;
    if (r->deterministic && !gh_matrix_same_values(got, first)) {
        r->deterministic = 0;
        result_detail(r, GH_RESULT_FAIL,
                      "nondeterministic: timed run %d's output differs from run 1's "
                      "on the same inputs (a missing barrier or a race?)",
                      timed + 1);
    } else if (gh_matrix_check_guards(got, NULL) != 0 && r->status == GH_RESULT_PASS) {
        result_detail(r, GH_RESULT_FAIL, "timed run %d wrote outside C (guard zone or row padding)", timed + 1);
    }
}

/* Runs warm-up and timed repeats of one kernel variant on one device, fills
 * timing, verification and determinism into r. `out` receives the first
 * timed output for the agreement table. */
static void measure(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v, case_data *cd,
                    gh_matrix *out, gh_result *r, gh_progress *progress)
{
    kernel_job job = {.api = inst->plugin->api,
                      .ctx = inst->ctx,
                      .device = device,
                      .kernel = v->kernel,
                      .cd = cd,
                      .warmup = run->warmup,
                      .repeat = run->repeat};
    const gh_plugin_api *api = job.api;
    gh_status s;
    const char *what = "allocating A";
    if ((s = api->buffer_alloc(job.ctx, device, gh_matrix_storage_bytes(&cd->a), &job.buf.a)) ||
        (what = "allocating B", s = api->buffer_alloc(job.ctx, device, gh_matrix_storage_bytes(&cd->b), &job.buf.b)) ||
        (what = "allocating C", s = api->buffer_alloc(job.ctx, device, gh_matrix_storage_bytes(&cd->c0), &job.buf.c))) {
        result_detail(r, status_of(s), "%s: %s", what, api->last_error(job.ctx));
        free_buffers(api, job.ctx, &job.buf);
        return;
    }
    double t0 = gh_now_ms();
    if ((s = api->upload(job.ctx, job.buf.a, 0, cd->a.storage, gh_matrix_storage_bytes(&cd->a))) ||
        (s = api->upload(job.ctx, job.buf.b, 0, cd->b.storage, gh_matrix_storage_bytes(&cd->b)))) {
        result_detail(r, status_of(s), "uploading A and B: %s", api->last_error(job.ctx));
        free_buffers(api, job.ctx, &job.buf);
        return;
    }
    const double upload_ab_ms = gh_now_ms() - t0;
    job.args = (gh_gemm_args){
        .size = sizeof job.args,
        .dtype = cd->in.dtype,
        .trans_a = cd->in.trans_a,
        .trans_b = cd->in.trans_b,
        .m = cd->in.m,
        .n = cd->in.n,
        .k = cd->in.k,
        .alpha = run->alpha,
        .beta = run->beta,
        .lda = cd->a.ld,
        .ldb = cd->b.ld,
        .ldc = cd->c0.ld,
        .a = job.buf.a,
        .b = job.buf.b,
        .c = job.buf.c,
        .a_offset = (uint64_t)cd->a.guard,
        .b_offset = (uint64_t)cd->b.guard,
        .c_offset = (uint64_t)cd->c0.guard,
        .params = v->params,
        .n_params = v->info->n_params,
    };
    double *kernel_ms = gh_xcalloc((size_t)run->repeat, sizeof *kernel_ms);
    job.download_ms = gh_xcalloc((size_t)run->repeat, sizeof *job.download_ms);
    r->clock = GH_CLOCK_DEVICE;
    if (measure_repetitions(run, cd, out, kernel_repetition, kernel_repeat_check, &job, kernel_ms, r, progress) == 0) {
        r->upload_ms = upload_ab_ms + job.upload_c_ms;
        r->download_ms = median_of(job.download_ms, run->repeat);
        if (job.bad_time_run) fail_bad_time(&job, r);
    }
    free(kernel_ms);
    free(job.download_ms);
    free_buffers(api, job.ctx, &job.buf);
}

static void count(gh_run_summary *sum, const gh_instance *inst, const gh_result *r)
{
    switch (r->status) {
    case GH_RESULT_PASS: sum->passed++; break;
    case GH_RESULT_FAIL: sum->failed++; break;
    case GH_RESULT_UNSUPPORTED: sum->unsupported++; break;
    case GH_RESULT_ERROR: sum->errors++; break;
    case GH_RESULT_UNCHECKED: sum->unchecked++; break;
    case GH_RESULT_CRASHED: sum->crashed++; break;
    case GH_RESULT_TIMEOUT: sum->timeouts++; break;
    case GH_RESULT_CANCELLED: sum->cancelled++; break;
    }
    /* An unsupported case is a declared limit, shown but not a failure; a
     * kernel that never ran at all is counted once the cases are done. */
    if (inst->requested && r->status == GH_RESULT_ERROR) sum->requested_not_run++;
}

static int integral(double x)
{
    return x == floor(x) && fabs(x) < 2147483648.0;
}

/* In-process a plugin can write into the host memory it uploads from, and
 * the backends after it would get the blame. A change fails the result of
 * the backend that made it, and the inputs are drawn again from the seed. */
static void guard_inputs(case_data *cd, const gh_run_config *run, gh_result *r)
{
    char changed[96];
    if (gh_input_guard_check(&cd->guard, changed, sizeof changed) == 0) return;
    char was[sizeof r->detail];
    snprintf(was, sizeof was, "%s", r->detail);
    result_detail(r, GH_RESULT_FAIL,
                  "backend %s changed its input %s during case %d (host memory it was given to upload from, "
                  "which it may only read): this result is void%s%s",
                  r->backend, changed, cd->index, *was ? "; " : "", was);
    if (gh_input_guard_reset(&cd->guard) == 0) {
        case_fill(cd, run, cd->in.k);
        gh_input_guard_seal(&cd->guard);
    } else {
        /* Left as they are, the next results would fail for it: say why. */
        gh_input_guard_seal(&cd->guard);
        snprintf(was, sizeof was, "%s", r->detail);
        result_detail(r, GH_RESULT_FAIL,
                      "%s; out of host memory to draw the inputs again: the results after it "
                      "in this case are void too",
                      was);
    }
}

/* A result for this case, passing until shown otherwise; the caller names
 * who produced it (backend, plugin, device, kernel). */
static gh_result case_result(const gh_run_config *run, const case_data *cd)
{
    return (gh_result){
        .case_index = cd->index,
        .dtype = cd->in.dtype,
        .trans_a = cd->in.trans_a,
        .trans_b = cd->in.trans_b,
        .m = cd->in.m,
        .n = cd->in.n,
        .k = cd->in.k,
        .alpha = run->alpha,
        .beta = run->beta,
        .arith = gh_arith_default(cd->in.dtype),
        .status = GH_RESULT_PASS,
        .verify_method = gh_reference_method(cd->ref),
    };
}

/* Who produced a result (r's case already set): backend, plugin, device and
 * kernel, and the arithmetic the kernel declares for the case's dtype. */
static void name_variant(gh_result *r, const gh_instance *inst, int device, const gh_kernel_variant *v)
{
    const gh_plugin_api *api = inst->plugin->api;
    const gh_device_info *info = api->device_info(inst->ctx, device);
    r->backend = inst->name;
    r->plugin = api->name;
    r->plugin_path = inst->plugin->path;
    r->device_index = device;
    r->device_name = info ? info->name : "?";
    r->device = info;
    r->kernel = v->info->name;
    r->arith_declared =
        gh_kernel_arith(v->info, inst->plugin->abi_minor, r->dtype, &r->arith, r->arithmetic, sizeof r->arithmetic);
    snprintf(r->params, sizeof r->params, "%s", v->label);
    snprintf(r->params_used, sizeof r->params_used, "%s", v->label);
}

/* One kernel variant on one device for a prepared case, not reported: r
 * gets the whole result, `out` the first timed output (the caller frees it).
 * Returns 1 when this result gave the backend up (see isolation.h). */
static int variant_result(const gh_run_config *run, gh_instance *inst, gh_streak *streak, int device,
                          const gh_kernel_variant *v, case_data *cd, gh_matrix *out, gh_result *r,
                          gh_progress *progress)
{
    const gh_plugin_api *api = inst->plugin->api;
    *r = case_result(run, cd);
    name_variant(r, inst, device, v);
    gh_crash_doing("running backend %s (plugin %s, %s), device %d, kernel %s%s%s, case %d (%s %c%c %lldx%lldx%lld)",
                   inst->name, api->name, inst->plugin->path, device, v->info->name, *v->label ? " " : "", v->label,
                   cd->index, gh_dtype_name(cd->in.dtype), cd->in.trans_a ? 't' : 'n', cd->in.trans_b ? 't' : 'n',
                   (long long)cd->in.m, (long long)cd->in.n, (long long)cd->in.k);
    if (gh_isolation_given_up(streak, r)) return 0; /* an error that says why; the plugin is not called */
    if (!(v->info->dtypes & GH_DTYPE_BIT(cd->in.dtype))) {
        result_detail(r, GH_RESULT_UNSUPPORTED, "kernel %s of plugin %s has no %s", v->info->name, api->name,
                      gh_dtype_name(cd->in.dtype));
    } else if (cd->in.dtype == GH_I32 && (!integral(run->alpha) || !integral(run->beta))) {
        result_detail(r, GH_RESULT_UNSUPPORTED, "i32 needs integral alpha and beta (alpha = %g, beta = %g)", run->alpha,
                      run->beta);
    } else if (gh_matrix_alloc_with(out, cd->c0.dtype, cd->c0.rows, cd->c0.cols, cd->c0.ld, cd->c0.guard, cd->alloc) !=
               0) {
        result_detail(r, GH_RESULT_ERROR, "out of host memory for C");
    } else {
        measure(run, inst, device, v, cd, out, r, progress);
        return gh_isolation_settle(streak, &api, &inst->ctx, 1, r);
    }
    return 0;
}

static gh_result_status run_variant(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v,
                                    const gh_tune_cache *tune_cache, case_data *cd, gh_compare *cmp, gh_report *report,
                                    gh_progress *progress, gh_run_summary *sum)
{
    /* `auto` parameters take the tune cache's best for this case (tune_auto.h) */
    gh_kernel_variant ran = *v;
    char note[sizeof((gh_result *)0)->params_note] = "";
    if (v->auto_params)
        gh_tune_auto_resolve(tune_cache, inst, device, v, cd->in.dtype, (gh_shape){cd->in.m, cd->in.n, cd->in.k}, &ran,
                             note, sizeof note);
    gh_result r;
    gh_matrix out = {0};
    int gave_up = variant_result(run, inst, &inst->streak, device, &ran, cd, &out, &r, progress);
    if (v->auto_params) {
        snprintf(r.params, sizeof r.params, "%s", v->label); /* the row is the config's variant */
        snprintf(r.params_note, sizeof r.params_note, "%s", note);
        free(ran.params);
    }
    if (gh_result_status_ran(r.status)) {
        char *label = gh_strdupf("%s/%d/%s%s%s", inst->name, device, v->info->name, *v->label ? " " : "", v->label);
        gh_compare_add(cmp, label, r.output_hash, &out, r.arith);
        free(label);
    }
    gh_matrix_free(&out);
    guard_inputs(cd, run, &r);
    gh_progress_clear(progress);
    gh_report_result(report, &r);
    if (gave_up) gh_report_note(report, "backend %s %s: its remaining runs are reported as errors", inst->name,
                                inst->streak.given_up);
    count(sum, inst, &r);
    return r.status;
}

gh_case_data *gh_case_data_new(const gh_run_config *run, int index, gh_shape shape, gh_dtype dtype, gh_trans trans)
{
    case_data *cd = gh_xcalloc(1, sizeof *cd);
    const gh_host_allocator *alloc = run->isolation == GH_ISOLATION_PROCESS ? gh_shm_allocator() : NULL;
    if (case_prepare(cd, run, index, shape, dtype, trans, alloc) != 0) {
        case_release(cd);
        free(cd);
        return NULL;
    }
    return cd;
}

void gh_case_data_free(gh_case_data *cd)
{
    if (!cd) return;
    case_release(cd);
    free(cd);
}

void gh_run_measure(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v,
                    gh_case_data *cd, gh_streak *streak, gh_progress *progress, gh_result *r)
{
    gh_matrix out = {0};
    variant_result(run, inst, streak, device, v, cd, &out, r, progress);
    gh_matrix_free(&out);
    guard_inputs(cd, run, r);
}

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

/* ---- splits: one product over several devices, reported like a backend ---- */

/* The whole product over a split's members, from host memory to host memory. */
typedef struct split_job {
    const gh_split_plan *sp;
    const case_data *cd;
    const gh_run_config *run;
    gh_split_member_stats *last;      /* the members' stats of the latest repetition */
    gh_split_member_stats *per_timed; /* n_members per timed repetition */
    double failed_wall_ms;
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
    };
    gh_split_outcome o = {.members = job->last};
    const gh_split_config *sc = job->sp->config;
    const gh_split_options opt = {sc->panel, sc->mem_limit, sc->numa, sc->b_copy};
    if (gh_split_run(job->sp->members, n, &opt, &prob, &o) != GH_OK) {
        if (gh_cancel_requested())
            result_detail(r, GH_RESULT_CANCELLED, "cancelled by %s: %s", gh_cancel_signal_name(), o.error);
        else result_detail(r, status_of(o.status), "%s", o.error);
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
            result_detail(r, GH_RESULT_FAIL,
                          "nondeterministic: timed run %d's output differs from run 1's "
                          "on the same inputs and alike members",
                          timed + 1);
            return;
        }
        gh_verify_result v;
        gh_verify_as(job->cd->ref, r->arith, got, &v);
        if (v.checked && !v.passed) {
            result_detail(r, GH_RESULT_FAIL, "timed run %d: %s", timed + 1, v.message);
            return;
        }
    }
    if (gh_matrix_check_guards(got, NULL) != 0)
        result_detail(r, GH_RESULT_FAIL, "timed run %d wrote outside C (guard zone or row padding)", timed + 1);
}

/* The timed run whose wall time is the median: its member stats are reported. */
static int median_run(const double *wall, int n)
{
    double *sorted = gh_xcalloc((size_t)n, sizeof *sorted);
    memcpy(sorted, wall, (size_t)n * sizeof *sorted);
    double mid = median_of(sorted, n);
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
    if (measure_repetitions(run, cd, out, split_repetition, split_repeat_check, &job, wall, r, progress) == 0) {
        int mid = median_run(wall, run->repeat);
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

static void count_split(gh_run_summary *sum, const gh_result *r)
{
    gh_instance requested = {.requested = 1}; /* a [split] is always named in the config */
    count(sum, &requested, r);
}

/* A split's result is named like a backend's; it is held to the loosest
 * arithmetic its members declare. */
static void name_split(gh_result *r, const gh_split_plan *sp)
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
        int declared = gh_kernel_arith(mb->kernel_info, mb->abi_minor, r->dtype, &a, text, sizeof text);
        if (m == 0 || declared) snprintf(r->arithmetic, sizeof r->arithmetic, "%s", text);
        r->arith = m == 0 ? a : gh_arith_looser(r->arith, a);
        r->arith_declared |= declared;
    }
}

static gh_result_status run_split(const gh_run_config *run, gh_split_plan *sp, case_data *cd, gh_compare *cmp,
                                  gh_report *report, gh_progress *progress, gh_run_summary *sum)
{
    gh_result r = case_result(run, cd);
    name_split(&r, sp);
    gh_split_member_stats *st = gh_xcalloc(sp->n_members, sizeof *st);
    double wall_ms = 0;
    gh_matrix out = {0};
    int gave_up = 0;
    if (gh_isolation_given_up(&sp->streak, &r)) {
        /* an error that says why; no member is called */
    } else if (cd->in.dtype == GH_I32 && (!integral(run->alpha) || !integral(run->beta))) {
        result_detail(&r, GH_RESULT_UNSUPPORTED, "i32 needs integral alpha and beta (alpha = %g, beta = %g)",
                      run->alpha, run->beta);
    } else if (gh_matrix_alloc_with(&out, cd->c0.dtype, cd->c0.rows, cd->c0.cols, cd->c0.ld, cd->c0.guard, cd->alloc) !=
               0) {
        result_detail(&r, GH_RESULT_ERROR, "out of host memory for C");
    } else {
        measure_split(run, sp, cd, &out, &r, st, &wall_ms, progress);
        gave_up = gh_isolation_settle_members(&sp->streak, sp->members, sp->n_members, &r);
        if (gh_result_status_ran(r.status)) {
            char *label = gh_strdupf("%s/split/%s%s%s", sp->name, sp->kernel, *sp->params ? " " : "", sp->params);
            gh_compare_add(cmp, label, r.output_hash, &out, r.arith);
            free(label);
        }
    }
    gh_matrix_free(&out);
    guard_inputs(cd, run, &r);
    gh_progress_clear(progress);
    gh_report_result(report, &r);
    report_split(report, sp, &r, st, wall_ms);
    if (gave_up) gh_report_note(report, "split %s %s: its remaining runs are reported as errors", sp->name,
                                sp->streak.given_up);
    count_split(sum, &r);
    free(st);
    return r.status;
}

/* Case inputs in pinned memory when a split member's plugin offers it: the
 * split's transfers run fastest from there (and the other backends' too). */
static const gh_host_allocator *case_allocator(const gh_plan *plan, gh_host_allocator *storage)
{
    for (size_t s = 0; s < plan->n_splits; s++) {
        const gh_split_plan *sp = &plan->splits[s];
        for (size_t i = 0; !sp->problem && i < sp->n_members; i++)
            if (gh_split_host_allocator(&sp->members[i], storage) == 0) return storage;
    }
    return NULL;
}

/* ---- --resume: results of the earlier run, reported again ---- */

/* One thing a case runs: a backend's kernel variant on a device, or a split. */
typedef struct case_item {
    size_t i, dv, v;         /* instance, device and variant, when sp is NULL */
    const gh_split_plan *sp; /* a split */
    size_t s;                /* its index */
    const gh_resumed *old;   /* its result in the run --resume continues, or NULL */
} case_item;

/* The items of a case in run order, each with its earlier result. */
static size_t case_items(const gh_plan *plan, const gh_case *c, const gh_resume *resume, case_item *items)
{
    size_t n = 0;
    gh_result_key key = {c->index, NULL,       0,          NULL,       NULL,       NULL,
                         c->dtype, c->trans.a, c->trans.b, c->shape.m, c->shape.n, c->shape.k};
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

/* Runs one item of a prepared case, shown in the progress as `done`. */
static gh_result_status run_item(const gh_run_config *run, gh_plan *plan, const case_item *it, case_data *cd,
                                 gh_compare *cmp, gh_report *report, gh_progress *progress, gh_run_summary *sum,
                                 size_t done)
{
    char what[160];
    if (it->sp) {
        snprintf(what, sizeof what, "split %s", it->sp->name);
        gh_progress_run(progress, done, what);
        return run_split(run, &plan->splits[it->s], cd, cmp, report, progress, sum); /* not it->sp: its streak changes */
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
    gh_result r = {
        .case_index = c->index,
        .dtype = c->dtype,
        .trans_a = c->trans.a,
        .trans_b = c->trans.b,
        .m = c->shape.m,
        .n = c->shape.n,
        .k = c->shape.k,
        .alpha = run->alpha,
        .beta = run->beta,
        .arith = gh_arith_default(c->dtype),
        .verify_method = "none",
    };
    gh_instance *inst = it->sp ? NULL : &plan->instances[it->i];
    if (it->sp) name_split(&r, it->sp);
    else name_variant(&r, inst, inst->devices[it->dv], &inst->variants[it->v]);
    result_detail(&r, GH_RESULT_CANCELLED, "cancelled by %s before it started", gh_cancel_signal_name());
    gh_progress_clear(progress);
    gh_report_result(report, &r);
    if (it->sp) count_split(sum, &r);
    else count(sum, inst, &r);
}

/* Whether the earlier file holds the whole case: every result, and its
 * agreement when one of them has an output. */
static int case_resumed_whole(const gh_resume *resume, int case_index, const case_item *items, size_t n)
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
static void replay(const gh_plan *plan, const case_item *it, size_t **ran, size_t *split_ran, gh_report *report,
                   gh_progress *progress, gh_run_summary *sum)
{
    const gh_result *r = &it->old->result;
    gh_progress_clear(progress);
    gh_report_result(report, r);
    if (it->old->has_split) gh_report_split_members(report, r, it->old->wall_ms, it->old->members, it->old->n_members);
    if (it->sp) count_split(sum, r);
    else count(sum, &plan->instances[it->i], r);
    if (r->status == GH_RESULT_UNSUPPORTED) return;
    if (it->sp) split_ran[it->s]++;
    else ran[it->i][it->dv * plan->instances[it->i].n_variants + it->v]++;
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

int gh_run_check_resume(const gh_plan *plan, const gh_resume *resume, const char *path, char *err, size_t err_size)
{
    if (!resume) return 0;
    size_t max_items = plan->n_splits;
    for (size_t i = 0; i < plan->n_instances; i++)
        max_items += plan->instances[i].n_devices * plan->instances[i].n_variants;
    case_item *items = gh_xcalloc(max_items + 1, sizeof *items);
    for (size_t ci = 0; ci < plan->n_cases; ci++) case_items(plan, &plan->cases[ci], resume, items);
    free(items);
    const gh_result *r = gh_resume_first_unfound(resume);
    if (!r) return 0;
    char trans[3] = {r->trans_a ? 't' : 'n', r->trans_b ? 't' : 'n', '\0'};
    snprintf(err, err_size,
             "%s holds results this run would not make (e.g. backend %s, device %d, kernel %s%s%s, case %d: %s %s "
             "%lldx%lldx%lld): --resume continues only the same run; give the same config, filters and sizes "
             "(or another --output)",
             path, r->backend, r->device_index, r->kernel, *r->params ? " " : "", r->params, r->case_index,
             gh_dtype_name(r->dtype), trans, (long long)r->m, (long long)r->n, (long long)r->k);
    return -1;
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
        run->isolation == GH_ISOLATION_PROCESS ? gh_shm_allocator() : case_allocator(plan, &pinned);
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
        size_t n_items = case_items(plan, c, resume, items);
        if (case_resumed_whole(resume, index, items, n_items)) {
            /* Every result of the case is in the earlier file: no inputs to draw. */
            gh_report_hold(report, 1);
            for (size_t k = 0; k < n_items; k++, done++) replay(plan, &items[k], ran, split_ran, report, progress, sum);
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
            prepared = case_prepare(&cd, run, index, c->shape, c->dtype, c->trans, alloc) == 0;
            if (!prepared) {
                gh_progress_clear(progress);
                gh_report_hold(report, 0);
                gh_report_note(report, "case %d (%s) skipped: out of host memory for its inputs or reference", index,
                               what + strlen("preparing "));
                sum->errors++;
                case_release(&cd);
            }
        }
        gh_compare cmp = {0};
        for (size_t k = 0; k < n_items; k++, done++) {
            const case_item *it = &items[k];
            if (it->old) {
                gh_report_hold(report, 1);
                replay(plan, it, ran, split_ran, report, progress, sum);
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
            gh_progress_clear(progress);
            gh_report_agreement(report, &a);
            gh_agreement_free(&a);
        }
        gh_compare_clear(&cmp);
        if (prepared) case_release(&cd);
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
