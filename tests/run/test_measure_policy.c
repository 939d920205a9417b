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

#include "measure_setup.h"

/* ---- the wrapped plugin ------------------------------------------------------ */

#define FLUSH_BYTES (1u << 20) /* far above any matrix of the 33 x 17 x 29 case */
#define SCRIPT_LEN  8
#define MAX_QUEUED  4096

static const gh_plugin_api *real;
static gh_plugin_api wrapped;
static double script_ms[SCRIPT_LEN]; /* the time of kernel launch i, cycled */
static int launches;
static char call_log[8192];     /* F: a flush upload, U: another upload, G: gemm, A: gemm_async, B: gemm_batch_async,
                              S: sync, D: download */
static uint32_t batch_launches; /* n of the last gemm_batch_async */
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

static gh_status wrapped_gemm_batch_async(gh_plugin *ctx, gh_stream *stream, int kernel, const gh_gemm_args *args,
                                          uint32_t n, gh_gemm_timing *t)
{
    log_call('B');
    batch_launches = n;
    if (n_queued < MAX_QUEUED) queued[n_queued++] = t;
    return real->gemm_batch_async(ctx, stream, kernel, args, n, t);
}

static gh_status wrapped_sync(gh_plugin *ctx, gh_stream *stream)
{
    log_call('S');
    gh_status s = real->stream_synchronize(ctx, stream);
    for (int i = 0; i < n_queued && s == GH_OK && scripted; i++) queued[i]->kernel_ms = next_time();
    n_queued = 0;
    return s;
}

typedef measure_setup setup;

static gh_run_config base_run(void)
{
    gh_run_config run = measure_setup_run_config();
    run.flush_bytes = FLUSH_BYTES;
    run.min_repeat = 5;
    run.max_repeat = 12;
    run.max_time = 3600;
    run.target_spread = 0.02;
    run.batch = 1;
    return run;
}

static int setup_open(setup *s, const char *path)
{
    if (measure_setup_load(s, path) != 0) return -1;
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
    wrapped.gemm_batch_async = real->gemm_batch_async ? wrapped_gemm_batch_async : NULL;
    wrapped.stream_synchronize = wrapped_sync;
    if (measure_setup_use(s, path, &wrapped) != 0) return -1;
    static int64_t defaults[16]; /* the kernel's parameters at their defaults */
    for (size_t p = 0; p < s->variant.info->n_params && p < 16; p++)
        defaults[p] = s->variant.info->params[p].default_value;
    s->variant.params = defaults;
    s->run = base_run();
    return 0;
}

static void script(const double *ms, int n)
{
    for (int i = 0; i < SCRIPT_LEN; i++) script_ms[i] = ms[i % n];
}

/* One measurement with the run and script as set. */
static gh_result measure_once(setup *s)
{
    launches = 0;
    n_log = 0;
    call_log[0] = '\0';
    flush_in_gemm = 0;
    return measure_setup_once(s);
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
    /* the C plugin (ABI 1.6) takes each batch in one gemm_batch_async */
    EXPECT(r.status == GH_RESULT_PASS && r.batch == 100 && count(call_log, "B") == 5 && batch_launches == 100 &&
               count(call_log, "A") == 0 && count(call_log, "G") == 1 && count(call_log, "S") == 5,
           "batch = auto, 2 us under 20 us: a lone warm-up, then 5 timed runs of one gemm_batch_async of 100 "
           "launches each (%s: batch %d, %d batch calls of %u, %d lone)",
           r.detail, r.batch, count(call_log, "B"), batch_launches, count(call_log, "G"));
    EXPECT(fabs(r.kernel_ms_median - 0.002) < 1e-12, "a batch's time is the plugin's one time (%g ms)",
           r.kernel_ms_median);
    EXPECT(strstr(r.params_note, "launches in one call") != NULL, "the plugin's note on the batch is kept (\"%s\")",
           r.params_note);

    /* a plugin without it (ABI 1.5): N gemm_async calls, their total over N */
    gh_status (*has_batch)(gh_plugin *, gh_stream *, int, const gh_gemm_args *, uint32_t, gh_gemm_timing *) =
        wrapped.gemm_batch_async;
    wrapped.gemm_batch_async = NULL;
    r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS && r.batch == 100 && count(call_log, "A") == 500 && count(call_log, "B") == 0 &&
               count(call_log, "S") == 5,
           "without gemm_batch_async: 5 timed runs of 100 queued gemm_async launches each (%s: batch %d, %d queued)",
           r.detail, r.batch, count(call_log, "A"));
    EXPECT(fabs(r.kernel_ms_median - 0.002) < 1e-12, "a batch's time is its total over N (%g ms)", r.kernel_ms_median);
    wrapped.gemm_batch_async = has_batch;

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
    EXPECT(r.status == GH_RESULT_PASS && r.batch == 4 && count(call_log, "B") == 6 && batch_launches == 4 &&
               count(call_log, "G") == 0,
           "batch = 4: every run, warm-up too, is one batch of 4 launches (batch %d, %d batches)", r.batch,
           count(call_log, "B"));

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
    measure_setup_close(&s);
    return check_summary("test_measure_policy");
}
