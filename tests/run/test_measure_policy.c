/* What surrounds a timing (core/run: cache_flush, repeat_policy, batch), in
 * process over the C plugin with its calls wrapped: the wrapper logs each
 * call in order and reports the kernel times a script says, so no check
 * depends on the machine's speed.
 *  - cache = cold: one flush (an upload of flush_size bytes) before every
 *    GEMM, none during one, and the reported times are the kernel's alone;
 *  - repeat = auto: stops at min_repeat on steady times, at max_repeat on
 *    noisy ones, at max_time once min_repeat is done, and records its spread;
 *  - batch: a kernel under batch_below runs N launches per timed run on a
 *    stream, its time their total over N; beta != 0 and cache = cold do not
 *    batch and say why.
 * With `cold` after the path, over any plugin (OpenCL on PoCL, Vulkan on
 * lavapipe) with its own times: only the flush's place is checked.
 *   test_measure_policy PATH/gemmhost-cpu.so
 *   test_measure_policy PATH/gemmhost-PLUGIN.so cold */
#define _POSIX_C_SOURCE 200809L
#define CHECK_MAIN
#include "../check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plugin_handle.h"
#include "progress.h"
#include "run.h"

/* ---- the wrapped plugin ------------------------------------------------------ */

#define FLUSH_BYTES (1u << 20) /* far above any matrix of the 33 x 17 x 29 case */
#define SCRIPT_LEN  8
#define MAX_QUEUED  4096

static const gh_plugin_api *real;
static gh_plugin_api wrapped;
static double script_ms[SCRIPT_LEN]; /* the time of kernel launch i, cycled */
static int launches;
static char call_log[8192]; /* F: a flush upload, U: another upload, G: gemm, A: gemm_async, S: sync, D: download */
static size_t n_log;
static int in_gemm, flush_in_gemm;
static int scripted = 1; /* 0: the plugin's own times pass through */
static gh_gemm_timing *queued[MAX_QUEUED];
static int n_queued;

static void log_call(char c)
{
    if (n_log + 1 < sizeof call_log) call_log[n_log++] = c;
    call_log[n_log] = '\0';
}

static double next_time(void)
{
    return script_ms[launches++ % SCRIPT_LEN];
}

static gh_status wrapped_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t off, const void *src, uint64_t bytes)
{
    log_call(bytes == FLUSH_BYTES ? 'F' : 'U');
    if (in_gemm && bytes == FLUSH_BYTES) flush_in_gemm = 1;
    return real->upload(ctx, dst, off, src, bytes);
}

static gh_status wrapped_download(gh_plugin *ctx, gh_buffer *src, uint64_t off, void *dst, uint64_t bytes)
{
    log_call('D');
    return real->download(ctx, src, off, dst, bytes);
}

static gh_status wrapped_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *t)
{
    log_call('G');
    in_gemm = 1; /* the plugin's events are inside this call */
    gh_status s = real->gemm(ctx, device, kernel, args, t);
    in_gemm = 0;
    if (s == GH_OK && scripted) t->kernel_ms = next_time();
    return s;
}

static gh_status wrapped_gemm_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                                    gh_gemm_timing *t)
{
    log_call('A');
    if (n_queued < MAX_QUEUED) queued[n_queued++] = t;
    return real->gemm_async(ctx, stream, kernel, args, t);
}

static gh_status wrapped_sync(gh_plugin *ctx, gh_stream *stream)
{
    log_call('S');
    gh_status s = real->stream_synchronize(ctx, stream);
    for (int i = 0; i < n_queued && s == GH_OK && scripted; i++) queued[i]->kernel_ms = next_time();
    n_queued = 0;
    return s;
}

typedef struct setup {
    gh_test_plugin plugin;
    gh_loaded_plugin loaded;
    gh_instance inst;
    gh_kernel_variant variant;
    gh_run_config run;
    gh_progress *progress;
} setup;

static gh_run_config base_run(void)
{
    return (gh_run_config){.alpha = 1.0,
                           .beta = 0.0,
                           .warmup = 1,
                           .repeat = 5,
                           .seed = 7,
                           .verify = GH_VERIFY_FULL,
                           .freivalds_trials = 3,
                           .samples = 64,
                           .ld_pad = 3,
                           .guard = 8,
                           .isolation = GH_ISOLATION_NONE,
                           .flush_bytes = FLUSH_BYTES,
                           .min_repeat = 5,
                           .max_repeat = 12,
                           .max_time = 3600,
                           .target_spread = 0.02,
                           .batch = 1};
}

static int setup_open(setup *s, const char *path)
{
    memset(s, 0, sizeof *s);
    if (gh_test_plugin_load(&s->plugin, path) != 0 || gh_test_plugin_open(&s->plugin, NULL, 0) != GH_OK) {
        check_verdict(0, "the plugin loads and opens: %s", s->plugin.error);
        return -1;
    }
    real = s->plugin.api;
    if (scripted && (s->plugin.abi_minor < 1 || !real->gemm_async)) {
        check_verdict(0, "the C plugin has streams (ABI minor 1), which the batch test needs");
        return -1;
    }
    wrapped = *real;
    wrapped.upload = wrapped_upload;
    wrapped.download = wrapped_download;
    wrapped.gemm = wrapped_gemm;
    wrapped.gemm_async = wrapped_gemm_async;
    wrapped.stream_synchronize = wrapped_sync;
    s->loaded = (gh_loaded_plugin){.path = (char *)path,
                                   .name = "cpu",
                                   .api = &wrapped,
                                   .abi_major = GEMMHOST_ABI_MAJOR,
                                   .abi_minor = s->plugin.abi_minor};
    s->inst = (gh_instance){.name = "cpu", .plugin = &s->loaded, .ctx = s->plugin.ctx};
    int naive = gh_test_find_kernel(real, s->plugin.ctx, "naive");
    s->variant = (gh_kernel_variant){.kernel = naive, .info = real->kernel_info(s->plugin.ctx, naive)};
    static int64_t defaults[16]; /* the kernel's parameters at their defaults */
    for (size_t p = 0; s->variant.info && p < s->variant.info->n_params && p < 16; p++)
        defaults[p] = s->variant.info->params[p].default_value;
    s->variant.params = defaults;
    s->run = base_run();
    s->progress = gh_progress_start(GH_PROGRESS_OFF, 1, 1.0);
    return s->variant.info ? 0 : -1;
}

static void script(const double *ms, int n)
{
    for (int i = 0; i < SCRIPT_LEN; i++) script_ms[i] = ms[i % n];
}

/* One measurement of a 33 x 17 x 29 f32 case with the run and script as set. */
static gh_result measure_once(setup *s)
{
    gh_result r;
    memset(&r, 0, sizeof r);
    launches = 0;
    n_log = 0;
    call_log[0] = '\0';
    flush_in_gemm = 0;
    gh_case_data *cd = gh_case_data_new(&s->run, 0, (gh_shape){33, 17, 29}, GH_F32, (gh_trans){0, 0});
    if (!cd) {
        check_verdict(0, "case data: out of memory");
        return r;
    }
    gh_streak streak = {0};
    gh_run_measure(&s->run, &s->inst, 0, &s->variant, cd, &streak, s->progress, &r);
    gh_case_data_free(cd);
    return r;
}

static int count(const char *log, const char *what)
{
    int n = 0;
    for (const char *p = strstr(log, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

/* ---- cache = cold -------------------------------------------------------------- */

static void test_cold(setup *s)
{
    const double ms[] = {10.0, 4.0, 1.0, 3.0, 5.0, 2.0};
    script(ms, 6);
    s->run.cache_cold = 1;
    gh_result r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS, "cache = cold: the result passes (%s: %s)", gh_result_status_name(r.status),
           r.detail);
    EXPECT(count(call_log, "G") == 6 && count(call_log, "FG") == 6 && count(call_log, "F") == 6,
           "cache = cold: one flush right before each of the 6 GEMMs, and no other (calls: %s)", call_log);
    EXPECT(!flush_in_gemm, "cache = cold: no flush inside a GEMM call, where the plugin's events are");
    if (scripted)
        EXPECT(r.kernel_ms_median == 3.0 && r.kernel_ms_min == 1.0 && r.kernel_ms_max == 5.0,
               "cache = cold: the times are the kernel's own, the flush not in them (median %g, min %g, max %g)",
               r.kernel_ms_median, r.kernel_ms_min, r.kernel_ms_max);
    EXPECT(r.cache_cold == 1 && r.flush_bytes == FLUSH_BYTES, "cache = cold is recorded with its size (%d, %llu)",
           r.cache_cold, (unsigned long long)r.flush_bytes);

    s->run.cache_cold = 0;
    r = measure_once(s);
    EXPECT(count(call_log, "F") == 0 && r.cache_cold == 0 && r.flush_bytes == 0, "cache = warm: no flush (calls: %s)",
           call_log);
}

/* ---- repeat = auto ------------------------------------------------------------- */

static void test_repeat_auto(setup *s)
{
    s->run.repeat_auto = 1;
    s->run.repeat = s->run.max_repeat; /* as config_measure.c sets it */
    const double steady[] = {2.0};
    script(steady, 1);
    gh_result r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS && r.repeats == 5 && r.spread == 0 && r.spread_reached == 1 &&
               r.repeat_auto == 1 && r.target_spread == 0.02,
           "repeat = auto, steady times: stops at min_repeat 5 with spread 0, reached (%s, %d runs, spread %g, "
           "reached %d)",
           gh_result_status_name(r.status), r.repeats, r.spread, r.spread_reached);

    const double noisy[] = {1.0, 3.0, 1.5, 5.0, 1.0, 4.0, 2.0, 6.0};
    script(noisy, 8);
    r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS && r.repeats == 12 && r.spread > 0.02 && r.spread_reached == 0,
           "repeat = auto, noisy times: stops at max_repeat 12, target not reached (%d runs, spread %g, reached %d)",
           r.repeats, r.spread, r.spread_reached);
    EXPECT(count(call_log, "G") == 13, "repeat = auto: one warm-up and 12 timed calls, no more (calls: %s)", call_log);

    s->run.max_time = 1e-9; /* every run takes longer */
    r = measure_once(s);
    EXPECT(r.repeats == 5 && r.spread_reached == 0,
           "repeat = auto past max_time: stops once min_repeat is done (%d runs)", r.repeats);

    s->run = base_run();
    script(noisy, 8);
    r = measure_once(s);
    EXPECT(r.repeats == 5 && r.repeat_auto == 0 && r.target_spread == 0 && r.spread > 0,
           "repeat = 5 stays exact on noisy times, its spread recorded (%d runs, spread %g)", r.repeats, r.spread);
}

/* ---- batch --------------------------------------------------------------------- */

static void test_batch(setup *s)
{
    const double tiny[] = {0.002}; /* 2 us a launch */
    script(tiny, 1);
    s->run.batch = 0; /* auto */
    s->run.batch_below = 20e-6;
    gh_result r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS && r.batch == 100 && count(call_log, "A") == 500 && count(call_log, "G") == 1 &&
               count(call_log, "S") == 5,
           "batch = auto, 2 us under 20 us: a lone warm-up, then 5 timed runs of 100 queued launches each (%s: "
           "batch %d, %d queued, %d lone)",
           r.detail, r.batch, count(call_log, "A"), count(call_log, "G"));
    EXPECT(fabs(r.kernel_ms_median - 0.002) < 1e-12, "a batch's time is its total over N (%g ms)", r.kernel_ms_median);

    s->run.beta = 1.0;
    r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS && r.batch == 1 && count(call_log, "A") == 0 && strstr(r.batch_note, "beta"),
           "beta != 0: not batched, and the result says why (batch %d, note \"%s\")", r.batch, r.batch_note);
    s->run.beta = 0.0;

    s->run.cache_cold = 1;
    r = measure_once(s);
    EXPECT(r.batch == 1 && count(call_log, "A") == 0 && strstr(r.batch_note, "cache = cold"),
           "cache = cold: not batched, and the result says why (batch %d, note \"%s\")", r.batch, r.batch_note);
    s->run.cache_cold = 0;

    s->run.batch = 4;
    r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS && r.batch == 4 && count(call_log, "A") == 24 && count(call_log, "G") == 0,
           "batch = 4: every run, warm-up too, is 4 queued launches (batch %d, %d queued)", r.batch,
           count(call_log, "A"));

    s->run.batch = 0;
    const double slow[] = {1.0};
    script(slow, 1);
    r = measure_once(s);
    EXPECT(r.batch == 1 && count(call_log, "A") == 0 && r.batch_note[0] == '\0',
           "batch = auto, 1 ms: above batch_below, not batched and nothing to say (batch %d)", r.batch);
    s->run = base_run();
}

int main(int argc, char **argv)
{
    check_quiet = 1;
    if (argc != 2 && !(argc == 3 && strcmp(argv[2], "cold") == 0)) {
        fprintf(stderr, "usage: %s PATH/gemmhost-cpu.so | PATH/gemmhost-PLUGIN.so cold\n", argv[0]);
        return 2;
    }
    scripted = argc == 2;
    setup s;
    if (setup_open(&s, argv[1]) == 0) {
        if (!scripted && real->device_count(s.plugin.ctx) < 1) {
            printf("SKIP: %s has no device here (%s): cache = cold not checked on it\n", argv[1],
                   real->last_error(s.plugin.ctx));
        } else {
            test_cold(&s);
            if (scripted) {
                test_repeat_auto(&s);
                test_batch(&s);
            }
        }
    }
    gh_progress_finish(s.progress);
    gh_test_plugin_unload(&s.plugin);
    return check_summary("test_measure_policy");
}
