/* The measuring path of one result: upload, warm up, repeat, time,
 * download, verify; a backend's kernel variant on one device. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "cache_flush.h"
#include "cancel.h"
#include "crash.h"
#include "compare.h"
#include "data.h"
#include "gpu_sampler.h"
#include "nvml_device.h"
#include "isolation.h"
#include "input_guard.h"
#include "kernel_arith.h"
#include "shm.h"
#include "run.h"
#include "tune_auto.h"

#include "progress.h"
#include "repeat_policy.h"
#include "save_output.h"
#include "resume.h"
#include "reported.h"
#include "util.h"
#include "verify.h"
#include "run_internal.h"

void run_result_detail(gh_result *r, gh_result_status status, const char *fmt, ...)
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
    if (r->verify.checked && !r->verify.passed) run_result_detail(r, GH_RESULT_FAIL, "%s", r->verify.message);
    else if (!r->verify.checked) r->status = GH_RESULT_UNCHECKED;
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

gh_result_status run_status_of(gh_status s)
{
    return s == GH_UNSUPPORTED ? GH_RESULT_UNSUPPORTED : GH_RESULT_ERROR;
}

/* ---- measuring: one path for a backend's kernel and for a split ---- */

double run_median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* --save-outputs: a file that cannot be written is said once per run, and
 * the run goes on (its results are what matters). */
static void save_output(const gh_run_config *run, const gh_matrix *out, uint64_t hash)
{
    static atomic_int said;
    char err[512];
    if (!run->save_outputs || gh_save_output_npy(run->save_outputs, out, hash, err, sizeof err) == 0) return;
    if (atomic_exchange(&said, 1) == 0) fprintf(stderr, "gemmhost: %s (the run goes on)\n", err);
}

/* Warm-up and timed repetitions: the first timed output goes to `out` (for
 * the agreement table), is hashed and verified; each later one to a scratch
 * matrix, checked against it. times[timed] gets each timed repetition's time;
 * the kernel time fields, GFLOP/s and the verdict are filled from them.
 * Returns 0, or -1 when a repetition failed. */
int run_measure_repetitions(const gh_run_config *run, const case_data *cd, gh_matrix *out, repetition_fn once,
                            repeat_check_fn check, void *job, double *times, gh_result *r, gh_progress *progress)
{
    const int total = run->warmup + run->repeat;
    gh_matrix scratch = {0};
    if (total > 1 && gh_matrix_alloc_with(&scratch, cd->c0.dtype, cd->c0.rows, cd->c0.cols, cd->c0.ld, cd->c0.guard,
                                          cd->alloc) != 0) {
        run_result_detail(r, GH_RESULT_ERROR, "out of host memory for a second output of %lldx%lld",
                          (long long)cd->c0.rows, (long long)cd->c0.cols);
        return -1;
    }
    r->deterministic = 1;
    gh_gpu_sampler *gpu = gh_gpu_sampler_begin(r, run->throttle_clock_fraction, run->repeat);
    int rc = 0, done = 0;
    double timed_start = 0;
    for (int rep = 0; rep < total && rc == 0; rep++) {
        const int timed = rep - run->warmup; /* < 0 while warming up */
        gh_progress_repeat(progress, rep, total);
        if (gh_cancel_requested()) { /* between calls: the safe point */
            run_result_detail(r, GH_RESULT_CANCELLED, "cancelled by %s after %d of its %d runs",
                              gh_cancel_signal_name(), rep, total);
            rc = -1;
            break;
        }
        gh_matrix *dst = timed == 0 ? out : &scratch;
        if (timed == 0) timed_start = gh_now_ms();
        if (timed >= 0) gh_gpu_sampler_rep_before(gpu);
        double ms = once(job, dst, timed, r);
        if (timed >= 0) gh_gpu_sampler_rep_after(gpu);
        if (ms < 0) rc = -1;
        else if (timed >= 0) times[done++] = ms;
        if (rc != 0 || timed < 0) continue;
        if (timed == 0) {
            r->output_hash = gh_matrix_hash(out);
            gh_fingerprint_take(&r->fingerprint, cd->ref, r->arith, out, run->seed, cd->index);
            save_output(run, out, r->output_hash);
            gh_verify_as(cd->ref, r->arith, out, &r->verify);
        } else {
            check(job, out, &scratch, timed, r);
        }
        if (gh_repeat_enough(run, times, done, (gh_now_ms() - timed_start) / 1e3)) break;
    }
    gh_matrix_free(&scratch);
    if (rc != 0) {
        gh_gpu_sampler_end(gpu, NULL);
        return rc;
    }
    double *sorted = gh_xcalloc((size_t)done, sizeof *sorted);
    memcpy(sorted, times, (size_t)done * sizeof *sorted);
    r->repeats = done;
    r->kernel_ms_median = run_median_of(sorted, done);
    r->kernel_ms_min = sorted[0];
    r->kernel_ms_max = sorted[done - 1];
    free(sorted);
    r->spread = gh_relative_iqr(times, done);
    r->repeat_auto = run->repeat_auto;
    r->target_spread = run->repeat_auto ? run->target_spread : 0;
    r->spread_reached = run->repeat_auto && r->spread <= run->target_spread;
    r->gflops =
        r->kernel_ms_median > 0 ? 2.0 * (double)r->m * (double)r->n * (double)r->k / (r->kernel_ms_median * 1e6) : 0;
    gh_gpu_sampler_end(gpu, r);
    settle_verdict(r);
    return 0;
}

/* A backend's kernel on one device, its operands uploaded once. */
typedef struct kernel_job {
    const gh_run_config *run;
    const gh_plugin_api *api;
    gh_plugin *ctx;
    uint32_t abi_minor; /* negotiated with the plugin */
    int device, kernel;
    int warmup, repeat;
    const case_data *cd;
    device_buffers buf;
    gh_gemm_args args;
    double upload_c_ms;        /* of the first timed repetition */
    double *download_ms;       /* per timed repetition */
    int bad_time_run;          /* the first repetition whose reported time was no time (0: none), 1-based */
    double bad_time;           /* what it reported */
    gh_cache_flush flush;      /* cache = cold: written before each run; else unused */
    gh_batch batch;            /* launches per run (batch.n > 1: on a stream) */
    const char *batch_refusal; /* batch = auto: why it cannot batch, "" when it can; NULL: not auto */
} kernel_job;

/* batch = auto, after the last warm-up: a kernel under batch_below is timed
 * in batches from the first timed run on (or says why it cannot be). */
static void kernel_batch_decide(kernel_job *job, double first_ms, gh_result *r)
{
    int n = gh_batch_auto_count(job->run, first_ms);
    if (n < 2) return;
    if (*job->batch_refusal) {
        snprintf(r->batch_note, sizeof r->batch_note, "a small kernel (%.3g us) ran unbatched: %s", first_ms * 1e3,
                 job->batch_refusal);
        return;
    }
    char why[sizeof r->batch_note];
    if (gh_batch_start(&job->batch, job->api, job->abi_minor, job->ctx, job->device, n, why, sizeof why) != GH_OK)
        snprintf(r->batch_note, sizeof r->batch_note, "%s", why);
}

/* A split of K the plugin reported beyond its kernel's declaration (ABI
 * 1.6): the bound takes it in from the first report on, before the first
 * timed output is verified, and the arithmetic's words say so. */
static void note_split(const gh_gemm_timing *timing, gh_result *r)
{
    if (timing->split_pieces < 2 || (int64_t)timing->split_pieces <= r->arith.pieces) return;
    r->arith = gh_arith_split(r->arith, timing->split_pieces, timing->split_precision);
    const size_t used = strlen(r->arithmetic);
    snprintf(r->arithmetic + used, sizeof r->arithmetic - used, "%sK split in %u pieces summed in %s (reported)",
             used ? "; " : "", (unsigned)timing->split_pieces, gh_precision_name(timing->split_precision));
}

/* Every repetition starts from poison (or C0), so an unwritten element shows. */
static double kernel_repetition(void *p, gh_matrix *dst, int timed, gh_result *r)
{
    kernel_job *job = p;
    const gh_plugin_api *api = job->api;
    gh_status s;
    double t0 = gh_now_ms();
    if ((s = api->upload(job->ctx, job->buf.c, 0, job->cd->c_init.storage,
                         gh_matrix_storage_bytes(&job->cd->c_init)))) {
        run_result_detail(r, run_status_of(s), "uploading C: %s", api->last_error(job->ctx));
        return -1;
    }
    if (timed == 0) job->upload_c_ms = gh_now_ms() - t0;
    char why[512];
    if (job->flush.scratch && (s = gh_cache_flush_run(&job->flush, why, sizeof why))) {
        run_result_detail(r, run_status_of(s), "%s", why);
        return -1;
    }
    gh_gemm_timing timing = {.size = sizeof timing};
    if (job->batch.n > 1) {
        s = gh_batch_gemm(&job->batch, job->kernel, &job->args, &timing, why, sizeof why);
        if (s) {
            run_result_detail(r, run_status_of(s), "%s", why);
            return -1;
        }
    } else if ((s = api->gemm(job->ctx, job->device, job->kernel, &job->args, &timing))) {
        run_result_detail(r, run_status_of(s), "%s", api->last_error(job->ctx));
        return -1;
    }
    t0 = gh_now_ms();
    if ((s = api->download(job->ctx, job->buf.c, 0, dst->storage, gh_matrix_storage_bytes(dst)))) {
        run_result_detail(r, run_status_of(s), "downloading C: %s", api->last_error(job->ctx));
        return -1;
    }
    if (timed >= 0) job->download_ms[timed] = gh_now_ms() - t0;
    if (timing.clock == GH_CLOCK_HOST) r->clock = GH_CLOCK_HOST;
    /* The plugin's word on how it ran (e.g. the algorithm cuBLASLt kept);
     * a note on `auto` parameters replaces it later (run_variant). */
    if (timing.note[0] && !r->params_note[0]) snprintf(r->params_note, sizeof r->params_note, "%s", timing.note);
    note_split(&timing, r);
    if (timed == -1 && job->batch_refusal && gh_reported_time_ok(timing.kernel_ms))
        kernel_batch_decide(job, timing.kernel_ms, r);
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
        run_result_detail(r, GH_RESULT_FAIL, "%s; and %s", was, what);
    } else {
        run_result_detail(r, GH_RESULT_FAIL, "%s", what);
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
        run_result_detail(r, GH_RESULT_FAIL,
                          "nondeterministic: timed run %d's output differs from run 1's "
                          "on the same inputs (a missing barrier or a race?)",
                          timed + 1);
    } else if (gh_matrix_check_guards(got, NULL) != 0 && r->status == GH_RESULT_PASS) {
        run_result_detail(r, GH_RESULT_FAIL, "timed run %d wrote outside C (guard zone or row padding)", timed + 1);
    }
}

/* What surrounds the timing (cache_flush.h, batch.h): the cold flush's
 * buffer, and the batch = N stream or batch = auto's readiness. Returns 0,
 * or -1 with r's detail set. */
static int measure_setup(const gh_run_config *run, gh_instance *inst, kernel_job *job, gh_result *r)
{
    char why[sizeof r->batch_note];
    gh_status s;
    job->batch = (gh_batch){.n = 1};
    r->cache_cold = run->cache_cold;
    if (run->cache_cold) {
        if ((s = gh_cache_flush_open(&job->flush, job->api, job->ctx, job->device, run->flush_bytes, job->cd->alloc,
                                     why, sizeof why))) {
            run_result_detail(r, run_status_of(s), "%s", why);
            return -1;
        }
        r->flush_bytes = run->flush_bytes;
    }
    const char *refusal = gh_batch_refusal(run, job->api, inst->plugin->abi_minor);
    if (run->batch == 0) job->batch_refusal = refusal;
    else if (run->batch > 1 && *refusal)
        snprintf(r->batch_note, sizeof r->batch_note, "batch = %d ran unbatched: %s", run->batch, refusal);
    else if (run->batch > 1 && gh_batch_start(&job->batch, job->api, job->abi_minor, job->ctx, job->device, run->batch,
                                              why, sizeof why) != GH_OK)
        snprintf(r->batch_note, sizeof r->batch_note, "%s", why);
    return 0;
}

/* Runs warm-up and timed repeats of one kernel variant on one device, fills
 * timing, verification and determinism into r. `out` receives the first
 * timed output for the agreement table. */
static void measure(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v, case_data *cd,
                    gh_matrix *out, gh_result *r, gh_progress *progress)
{
    kernel_job job = {.run = run,
                      .api = inst->plugin->api,
                      .abi_minor = inst->plugin->abi_minor,
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
        run_result_detail(r, run_status_of(s), "%s: %s", what, api->last_error(job.ctx));
        free_buffers(api, job.ctx, &job.buf);
        return;
    }
    double t0 = gh_now_ms();
    if ((s = api->upload(job.ctx, job.buf.a, 0, cd->a.storage, gh_matrix_storage_bytes(&cd->a))) ||
        (s = api->upload(job.ctx, job.buf.b, 0, cd->b.storage, gh_matrix_storage_bytes(&cd->b)))) {
        run_result_detail(r, run_status_of(s), "uploading A and B: %s", api->last_error(job.ctx));
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
        /* ABI 1.5: every 8-bit case says its types and scales; a case of one
         * type leaves explicit_types 0, as an older host did */
        .explicit_types = cd->types.explicit_types,
        .b_dtype = cd->types.b,
        .c_dtype = cd->types.c,
        .scale_a = cd->types.scale_a,
        .scale_b = cd->types.scale_b,
        .scale_c = cd->types.scale_c,
    };
    if (measure_setup(run, inst, &job, r) != 0) {
        free_buffers(api, job.ctx, &job.buf);
        return;
    }
    double *kernel_ms = gh_xcalloc((size_t)run->repeat, sizeof *kernel_ms);
    job.download_ms = gh_xcalloc((size_t)run->repeat, sizeof *job.download_ms);
    r->clock = GH_CLOCK_DEVICE;
    if (run_measure_repetitions(run, cd, out, kernel_repetition, kernel_repeat_check, &job, kernel_ms, r, progress) ==
        0) {
        r->upload_ms = upload_ab_ms + job.upload_c_ms;
        r->download_ms = run_median_of(job.download_ms, r->repeats);
        if (job.bad_time_run) fail_bad_time(&job, r);
    }
    r->batch = job.batch.n;
    free(kernel_ms);
    free(job.download_ms);
    gh_batch_end(&job.batch);
    gh_cache_flush_close(&job.flush);
    free_buffers(api, job.ctx, &job.buf);
}

void run_count(gh_run_summary *sum, const gh_instance *inst, const gh_result *r)
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

int run_integral(double x)
{
    return x == floor(x) && fabs(x) < 2147483648.0;
}

gh_result run_case_result(const gh_run_config *run, const gh_case *c, const char *verify_method)
{
    return (gh_result){
        .case_index = c->index,
        .dtype = c->dtype,
        .types = gh_run_case_types(run, c->dtype),
        .trans_a = c->trans.a,
        .trans_b = c->trans.b,
        .m = c->shape.m,
        .n = c->shape.n,
        .k = c->shape.k,
        .alpha = run->alpha,
        .beta = run->beta,
        .arith = gh_arith_default(gh_run_case_types(run, c->dtype).c),
        .status = GH_RESULT_PASS,
        .verify_method = verify_method,
    };
}

gh_result run_prepared_result(const gh_run_config *run, const case_data *cd)
{
    gh_case c = {.index = cd->index,
                 .shape = {cd->in.m, cd->in.n, cd->in.k},
                 .dtype = cd->in.dtype,
                 .trans = {cd->in.trans_a, cd->in.trans_b},
                 .types = cd->types};
    return run_case_result(run, &c, gh_reference_method(cd->ref));
}

int run_output_ready(const gh_run_config *run, const case_data *cd, gh_matrix *out, gh_result *r)
{
    if (cd->types.c == GH_I32 && (!run_integral(run->alpha) || !run_integral(run->beta))) {
        run_result_detail(r, GH_RESULT_UNSUPPORTED, "%s needs integral alpha and beta (alpha = %g, beta = %g)",
                          gh_dtype_name(cd->in.dtype), run->alpha, run->beta);
        return 0;
    }
    if (gh_matrix_alloc_with(out, cd->c0.dtype, cd->c0.rows, cd->c0.cols, cd->c0.ld, cd->c0.guard, cd->alloc) != 0) {
        run_result_detail(r, GH_RESULT_ERROR, "out of host memory for C");
        return 0;
    }
    return 1;
}

void run_unsupported_types(gh_result *r, const gh_kernel_info *ki, const char *plugin, uint32_t abi_minor,
                           const gh_case_types *t)
{
    if (!t->explicit_types) {
        run_result_detail(r, GH_RESULT_UNSUPPORTED, "kernel %s of plugin %s has no %s", ki->name, plugin,
                          gh_dtype_name(t->a));
        return;
    }
    char scales[96] = "";
    if (t->scale_a != 1.0 || t->scale_b != 1.0 || t->scale_c != 1.0)
        snprintf(scales, sizeof scales, " (scales %g, %g, %g)", t->scale_a, t->scale_b, t->scale_c);
    char old[96] = "";
    if (abi_minor < 5)
        snprintf(old, sizeof old, " (its plugin speaks ABI 1.%u; type combinations came in 1.5)", abi_minor);
    run_result_detail(r, GH_RESULT_UNSUPPORTED,
                      "kernel %s of plugin %s lists no type combination A %s x B %s -> C %s%s%s", ki->name, plugin,
                      gh_dtype_name(t->a), gh_dtype_name(t->b), gh_dtype_name(t->c), scales, old);
}

/* Who produced a result (r's case already set): backend, plugin, device and
 * kernel, and the arithmetic the kernel declares for the case's dtype. */
void run_name_variant(gh_result *r, const gh_instance *inst, int device, const gh_kernel_variant *v)
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
        gh_kernel_arith_of(v->info, inst->plugin->abi_minor, &r->types, &r->arith, r->arithmetic, sizeof r->arithmetic);
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
    *r = run_prepared_result(run, cd);
    run_name_variant(r, inst, device, v);
    gh_crash_doing("running backend %s (plugin %s, %s), device %d, kernel %s%s%s, case %d (%s %c%c %lldx%lldx%lld)",
                   inst->name, api->name, inst->plugin->path, device, v->info->name, *v->label ? " " : "", v->label,
                   cd->index, gh_dtype_name(cd->in.dtype), cd->in.trans_a ? 't' : 'n', cd->in.trans_b ? 't' : 'n',
                   (long long)cd->in.m, (long long)cd->in.n, (long long)cd->in.k);
    if (gh_isolation_given_up(streak, r)) return 0; /* an error that says why; the plugin is not called */
    if (!gh_kernel_offers(v->info, inst->plugin->abi_minor, &cd->types)) {
        run_unsupported_types(r, v->info, api->name, inst->plugin->abi_minor, &cd->types);
    } else if (run_output_ready(run, cd, out, r)) {
        measure(run, inst, device, v, cd, out, r, progress);
        return gh_isolation_settle(streak, &api, &inst->ctx, 1, r);
    }
    return 0;
}

gh_result_status run_variant(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v,
                             const gh_tune_cache *tune_cache, case_data *cd, gh_compare *cmp, gh_report *report,
                             gh_progress *progress, gh_run_summary *sum)
{
    /* `auto` parameters take the tune cache's best for this case (tune_auto.h) */
    gh_kernel_variant ran = *v;
    char note[sizeof((gh_result *)0)->params_note] = "";
    if (v->auto_params)
        gh_tune_auto_resolve(tune_cache, inst, device, v, &cd->types, (gh_shape){cd->in.m, cd->in.n, cd->in.k}, &ran,
                             note, sizeof note);
    gh_result r;
    gh_matrix out = {0};
    int gave_up = variant_result(run, inst, &inst->streak, device, &ran, cd, &out, &r, progress);
    if (v->auto_params) {
        snprintf(r.params, sizeof r.params, "%s", v->label); /* the row is the config's variant */
        snprintf(r.params_note, sizeof r.params_note, "%s", note);
        free(ran.params);
    }
    char *label = gh_strdupf("%s/%d/%s%s%s", inst->name, device, v->info->name, *v->label ? " " : "", v->label);
    run_settle_result(run, cd, label, &out, cmp, &r, report, progress);
    if (gave_up)
        gh_report_note(report, "backend %s %s: its remaining runs are reported as errors", inst->name,
                       inst->streak.given_up);
    run_count(sum, inst, &r);
    return r.status;
}

void run_settle_result(const gh_run_config *run, case_data *cd, char *label, gh_matrix *out, gh_compare *cmp,
                       gh_result *r, gh_report *report, gh_progress *progress)
{
    if (gh_result_status_ran(r->status)) gh_compare_add(cmp, label, r->output_hash, out, r->arith);
    if (r->gpu.note && gh_nvml_note_first(r->gpu.note)) gh_report_note(report, "%s", r->gpu.note);
    free(label);
    gh_matrix_free(out);
    run_guard_inputs(cd, run, r);
    gh_progress_clear(progress);
    gh_report_result(report, r);
}

void gh_run_measure(const gh_run_config *run, gh_instance *inst, int device, const gh_kernel_variant *v,
                    gh_case_data *cd, gh_streak *streak, gh_progress *progress, gh_result *r)
{
    gh_matrix out = {0};
    variant_result(run, inst, streak, device, v, cd, &out, r, progress);
    gh_matrix_free(&out);
    run_guard_inputs(cd, run, r);
}
