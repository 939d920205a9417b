/* The measuring path (core/run/run.c, gh_run_measure) in process, over the C
 * plugin with its gemm wrapped: the plugin computes, the wrapper reports the
 * kernel times a script says and can spoil one repetition's output. So the
 * median, minimum, maximum and GFLOP/s are checked against known times (no
 * check depends on the machine's speed), and each way a repetition can go
 * wrong must fail the result naming it.
 *   test_measure PATH/gemmhost-cpu.so */
#define _POSIX_C_SOURCE 200809L
#define CHECK_MAIN
#include "../check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure_setup.h"

/* ---- the scripted plugin --------------------------------------------------- */

static const gh_plugin_api *real;
static gh_plugin_api scripted;
static double script_ms[16]; /* the kernel time of call i (warm-up included) */
static int calls;
static int spoil_call = -1;  /* this call's C gets one element changed */
static int status_call = -1; /* this call fails with GH_ERROR */
static gh_buffer *last_c;

static gh_status scripted_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args, gh_gemm_timing *t)
{
    int call = calls++;
    if (call == status_call) return GH_ERROR;
    gh_status s = real->gemm(ctx, device, kernel, args, t);
    if (s != GH_OK) return s;
    if (call == spoil_call) {
        float one = 12345.0f; /* f32 cases only */
        s = real->upload(ctx, args->c, args->c_offset * sizeof one, &one, sizeof one);
    }
    last_c = args->c;
    t->kernel_ms = script_ms[call < 16 ? call : 15];
    return s;
}

typedef measure_setup setup;

static int setup_open(setup *s, const char *path)
{
    if (measure_setup_load(s, path) != 0) return -1;
    real = s->plugin.api;
    scripted = *real;
    scripted.gemm = scripted_gemm;
    return measure_setup_use(s, path, &scripted);
}

/* One measurement with the script as set. */
static gh_result measure_once(setup *s)
{
    calls = 0;
    return measure_setup_once(s);
}

static void test_times(setup *s)
{
    const double ms[] = {100.0, 4.0, 1.0, 3.0, 5.0, 2.0}; /* warm-up, then five timed */
    memcpy(script_ms, ms, sizeof ms);
    gh_result r = measure_once(s);
    EXPECT(r.status == GH_RESULT_PASS, "a right result with good times passes (%s: %s)",
           gh_result_status_name(r.status), r.detail);
    EXPECT(calls == 6, "one warm-up and five timed calls (%d calls)", calls);
    EXPECT(r.repeats == 5, "five timed repetitions reported (%d)", r.repeats);
    EXPECT(r.kernel_ms_median == 3.0 && r.kernel_ms_min == 1.0 && r.kernel_ms_max == 5.0,
           "median 3, min 1, max 5 of the timed runs, the warm-up left out (got %g, %g, %g)", r.kernel_ms_median,
           r.kernel_ms_min, r.kernel_ms_max);
    double want = 2.0 * 33 * 17 * 29 / (3.0 * 1e6);
    EXPECT(fabs(r.gflops - want) <= 1e-12 * want, "GFLOP/s is 2MNK over the median (%g, want %g)", r.gflops, want);
    EXPECT(r.deterministic == 1 && r.verify.checked && r.verify.passed, "deterministic, checked and verified");

    s->run.repeat = 4;
    r = measure_once(s);
    EXPECT(r.kernel_ms_median == 3.5, "an even count's median is the mean of the middle two (4 1 3 5: %g)",
           r.kernel_ms_median);
    s->run.repeat = 5;
}

static void test_bad_time(setup *s)
{
    const double ms[] = {1.0, 2.0, 2.0, 0.0, 2.0, 2.0};
    memcpy(script_ms, ms, sizeof ms);
    gh_result r = measure_once(s);
    EXPECT(r.status == GH_RESULT_FAIL && strstr(r.detail, "kernel time of 0 ms (run 4 of 6") && r.repeats == 0 &&
               r.kernel_ms_median == 0 && r.gflops == 0,
           "a reported time of 0 fails the result, naming the run, and no time is kept (%s: %s)",
           gh_result_status_name(r.status), r.detail);
}

/* One measurement with every time 1 ms and the fault *fault (spoil_call or
 * status_call) set to call `call` meanwhile. */
static gh_result measure_with_fault(setup *s, int *fault, int call)
{
    for (int i = 0; i < 16; i++) script_ms[i] = 1.0;
    *fault = call;
    gh_result r = measure_once(s);
    *fault = -1;
    return r;
}

static void test_nondeterministic(setup *s)
{
    gh_result r = measure_with_fault(s, &spoil_call, 3);
    EXPECT(r.status == GH_RESULT_FAIL && r.deterministic == 0 && strstr(r.detail, "nondeterministic: timed run 3"),
           "a timed run whose output differs from the first fails as nondeterministic, naming it (%s: %s)",
           gh_result_status_name(r.status), r.detail);
}

static void test_failed_call(setup *s)
{
    gh_result r = measure_with_fault(s, &status_call, 2);
    EXPECT(r.status == GH_RESULT_ERROR && r.repeats == 0,
           "a gemm call that fails mid-way is an error, no times (%s: %s)", gh_result_status_name(r.status), r.detail);
}

int main(int argc, char **argv)
{
    check_quiet = 1;
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH/gemmhost-cpu.so\n", argv[0]);
        return 2;
    }
    setup s;
    if (setup_open(&s, argv[1]) == 0) {
        test_times(&s);
        test_bad_time(&s);
        test_nondeterministic(&s);
        test_failed_call(&s);
    }
    measure_setup_close(&s);
    return check_summary("test_measure");
}
