/*
 * The Vulkan plugin's own test, through the plugin ABI alone (no host code):
 *   test_vulkan PLUGIN.so [--quick | --sample] [--verbose] [--shard I/N]
 *
 * What only this plugin has. The promises every plugin makes (the entry,
 * refusals of malformed calls, last_error, buffer bounds) are checked by
 * gemmhost-conformance (tests/conformance), not here.
 *  - sweep.c: every kernel (naive, tiled, blocked, warptile, coopmat) x every dtype
 *    it declares (f32, f64, i32, f16, bf16) x nn/nt/tn/tt x odd shapes x every
 *    value of its parameters (fewer on a software device, see runs_dtype),
 *    with alpha/beta other than 1/0, beta = 0 on NaN-poisoned C, padded
 *    leading dimensions and odd offsets (and, for warptile's vector loads,
 *    multiples of 4), each checked against gemmhost's
 *    own f64 reference and bound (i32 exactly) and for writes outside C;
 *    parameters over the device's limits (workgroup invocations, shared
 *    memory) are refused naming the limit;
 *  - coopmat_checks.c: coopmat runs where the device offers cooperative
 *    matrices of the dtype and shape (its device info lists them) and is
 *    refused elsewhere, naming the device and what it lacks; and, with the
 *    cooperative matrices emulated in plain code (the option emulate),
 *    through the whole sweep at a few parameter sets on any device;
 *  - half_checks.c: f16 and bf16 stores round as gemmhost/half.h does, bit
 *    for bit over every 16-bit pattern; without storageBuffer16BitAccess
 *    (hidden by the plugin's hide_features option) they are refused, naming
 *    the device and the feature;
 *  - the device info carries Vulkan's limits, which the sweep relies on;
 *  - determinism: the same case twice gives the same bits (barriers);
 *  - two contexts used from two threads at once (one process-wide instance);
 *  - kernel_dir: a SPIR-V file there replaces the embedded one, per module;
 *  - statistics = yes: a pipeline's driver statistics on standard error (or,
 *    where the device lacks the extension, a line saying so); other values
 *    refused;
 *  - close with a buffer and pipelines alive frees them (under the
 *    sanitizer build: no leak, no use after free).
 *
 * Exit 0 when all passed, 1 on a failure, 77 (skipped) without a Vulkan
 * device. On a device without shaderFloat64 the f64 cases are one skip; on
 * one without storageBuffer16BitAccess, the f16 and bf16 cases.
 * --quick runs each kernel at its defaults and two transposes (for
 * valgrind); --sample each kernel at its defaults and at a few sets that
 * take its other code paths, in every dtype and transpose (sweep.c's
 * in_sample; on a software device warptile's default at nn and tt only),
 * and the emulated coopmat at two of its sets (CI's
 * vulkan_plugin); --verbose prints every passing check too. --shard I/N runs
 * the sweep's parameter combinations I, I + N, I + 2N, ... and the other
 * checks only for I = 0: N processes side by side cover it all, in about
 * 1/N of the time where creating pipelines dominates (a GPU driver's
 * compiler: a warptile pipeline per layout of the operands).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_MAIN
#include "../check.h"
#include "gemm_case.h"
#include "coopmat_checks.h"
#include "gemm_args.h"
#include "half_checks.h"
#include "plugin_handle.h"
#include "sweep.h"

#define SKIP_EXIT 77

/* Vulkan guarantees at least 128 invocations and 16 KiB of shared memory
 * per workgroup; the plugin reports the device's own values, which the
 * sweep's limit checks compare against. */
static void device_limits(const plugin *pl, int device)
{
    const gh_device_info *i = pl->api->device_info(pl->ctx, device);
    CHECK(strncmp(i->api, "Vulkan ", 7) == 0 && i->max_workgroup_size >= 128 && i->local_mem_bytes >= 16384,
          "device %d: info has Vulkan's version and limits (api \"%s\", %u invocations, %llu bytes shared)", device,
          i->api, i->max_workgroup_size, (unsigned long long)i->local_mem_bytes);
}

/* Two runs of the same case give the same bits (a missing barrier would not). */
static void determinism(const plugin *pl, int device)
{
    static const struct {
        const char *kernel;
        int64_t params[MAX_PARAMS];
        size_t n_params;
    } runs[] = {
        {"naive", {16}, 1},
        {"tiled", {16}, 1},
        {"blocked", {32, 4}, 2},
        {"blocked", {128, 8}, 2},
        {"warptile", {128, 16, 8, 0, 1}, 5},
        {"warptile", {128, 8, 8, 0, 2}, 5},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        gemm_case c = {.device = device,
                       .kernel = gh_test_find_kernel(pl->api, pl->ctx, runs[r].kernel),
                       .n_params = runs[r].n_params};
        memcpy(c.params, runs[r].params, sizeof c.params);
        int64_t shape[3] = {100, 90, 130};
        make_problem(&c.p, GH_F32, 0, 1, shape, &scenarios[0]);
        void *first = NULL, *second = NULL;
        char why[512] = "no such kernel";
        int passed =
            c.kernel >= 0 && run_case(pl, &c, why, sizeof why, &first) && run_case(pl, &c, why, sizeof why, &second);
        int same = passed && memcmp(first, second, case_c_bytes(&c)) == 0;
        CHECK(same, "determinism: %s %lld/%lld/%lld f32 100x90x130 twice gives the same bits%s%s", runs[r].kernel,
              (long long)runs[r].params[0], (long long)runs[r].params[1], (long long)runs[r].params[2],
              passed ? "" : ": ", passed ? (same ? "" : ": the results differ") : why);
        free(first);
        free(second);
    }
}

/* A few f32 cases of every kernel, for the two-context test. */
static void small_sweep(const plugin *pl, int device, const char *who)
{
    static const int64_t shapes[][3] = {{1, 1, 1}, {9, 7, 8}, {37, 53, 29}, {17, 33, 5}};
    for (int kernel = 0; kernel < 3; kernel++)
        for (int t = 0; t < 4; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                /* blocked: 32 / 4, 64 invocations */
                gemm_case c = {.device = device,
                               .kernel = kernel,
                               .params = {kernel == 2 ? 32 : 8, 4},
                               .n_params = kernel == 2 ? 2 : 1};
                make_problem(&c.p, GH_F32, t >> 1, t & 1, shapes[s], &scenarios[s % 2]);
                char why[512] = "", name[256];
                describe_case(pl, &c, name, sizeof name);
                int passed = run_case(pl, &c, why, sizeof why, NULL);
                CHECK(passed, "%s: %s%s%s", who, name, passed ? "" : ": ", passed ? "" : why);
            }
}

typedef struct second_context {
    const gh_plugin_api *api;
    int device;
} second_context;

static void *run_second_context(void *arg)
{
    const second_context *sc = arg;
    plugin pl = {sc->api, NULL};
    if (pl.api->open(NULL, 0, &pl.ctx) == GH_OK && pl.api->device_count(pl.ctx) > sc->device)
        small_sweep(&pl, sc->device, "second context");
    else CHECK(0, "second context: open and find device %d: %s", sc->device, pl.api->last_error(pl.ctx));
    pl.api->close(pl.ctx);
    return NULL;
}

/* Two contexts used from two threads at once, as the multi-device split
 * uses two devices: nothing in the plugin may be shared unguarded (the
 * process-wide instance of loader.c is). */
static void two_contexts(const plugin *pl, int device)
{
    second_context sc = {pl->api, device};
    pthread_t t;
    if (pthread_create(&t, NULL, run_second_context, &sc) != 0) {
        CHECK(0, "two contexts: pthread_create failed");
        return;
    }
    small_sweep(pl, device, "first context");
    pthread_join(t, NULL);
}

/* kernel_dir: a file there replaces the embedded SPIR-V; others fall back. */
static void kernel_dir(const plugin *pl, int device)
{
    char dir[] = "/tmp/gemmhost-vulkan-test-XXXXXX", path[2][128];
    if (!mkdtemp(dir)) {
        CHECK(0, "kernel_dir: mkdtemp failed");
        return;
    }
    /* Broken on purpose: naive's f32 module, and blocked's for work = 4. */
    snprintf(path[0], sizeof path[0], "%s/naive_f32.spv", dir);
    snprintf(path[1], sizeof path[1], "%s/blocked_w4_f32.spv", dir);
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(path[i], "wb");
        if (f) {
            fputs("this is not SPIR-V, on purpose", f);
            fclose(f);
        }
    }
    gh_option_value opt = {"kernel_dir", dir};
    plugin with = {pl->api, NULL};
    if (pl->api->open(&opt, 1, &with.ctx) != GH_OK) {
        CHECK(0, "kernel_dir: open with kernel_dir=%s: %s", dir, pl->api->last_error(NULL));
    } else {
        char why[512] = "";
        gemm_case c = {
            .device = device, .kernel = gh_test_find_kernel(pl->api, pl->ctx, "naive"), .params = {8}, .n_params = 1};
        int64_t shape[3] = {5, 6, 7};
        make_problem(&c.p, GH_F32, 0, 0, shape, &scenarios[0]);
        int passed = run_case(&with, &c, why, sizeof why, NULL);
        CHECK(!passed && strstr(why, "naive_f32.spv") && strstr(why, "not SPIR-V"),
              "kernel_dir: a broken naive_f32.spv there is refused (%s)", passed ? "it ran" : why);
        c.kernel = gh_test_find_kernel(pl->api, pl->ctx, "tiled");
        passed = run_case(&with, &c, why, sizeof why, NULL);
        CHECK(passed, "kernel_dir: tiled, without tiled_f32.spv there, runs the embedded module%s%s",
              passed ? "" : ": ", passed ? "" : why);
        c.kernel = gh_test_find_kernel(pl->api, pl->ctx, "blocked");
        c.params[0] = 32;
        c.params[1] = 4;
        c.n_params = 2;
        passed = run_case(&with, &c, why, sizeof why, NULL);
        CHECK(!passed && strstr(why, "blocked_w4_f32.spv") && strstr(why, "not SPIR-V"),
              "kernel_dir: a broken blocked_w4_f32.spv there is refused for work = 4 (%s)", passed ? "it ran" : why);
        c.params[1] = 2;
        passed = run_case(&with, &c, why, sizeof why, NULL);
        CHECK(passed, "kernel_dir: blocked work = 2, without blocked_w2_f32.spv there, runs the embedded module%s%s",
              passed ? "" : ": ", passed ? "" : why);
        pl->api->close(with.ctx);
    }
    unlink(path[0]);
    unlink(path[1]);
    rmdir(dir);
}

/* The option statistics: with yes, making tiled's pipeline prints a line of
 * its statistics to standard error, or the device says once that it has no
 * VK_KHR_pipeline_executable_properties; the GEMM runs either way. Standard
 * error is caught in a file meanwhile. */
static void statistics_option(const plugin *pl, int device)
{
    gh_option_value bad = {"statistics", "maybe"};
    plugin with = {pl->api, NULL};
    gh_status st = pl->api->open(&bad, 1, &with.ctx);
    const char *why = st == GH_OK ? "" : pl->api->last_error(NULL);
    CHECK(st == GH_INVALID_ARGUMENT && strstr(why, "statistics") && strstr(why, "maybe"),
          "statistics = maybe is refused, naming the option and value (%s)", st == GH_OK ? "opened" : why);
    if (st == GH_OK) pl->api->close(with.ctx);

    char path[] = "/tmp/gemmhost-vulkan-stderr-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    if (fd < 0 || saved < 0) {
        CHECK(0, "statistics: mkstemp or dup failed");
        return;
    }
    fflush(stderr);
    dup2(fd, 2);
    gh_option_value yes = {"statistics", "yes"};
    char failure[512] = "";
    int passed = 0;
    if ((st = pl->api->open(&yes, 1, &with.ctx)) == GH_OK) {
        gemm_case c = {
            .device = device, .kernel = gh_test_find_kernel(pl->api, pl->ctx, "tiled"), .params = {8}, .n_params = 1};
        int64_t shape[3] = {5, 6, 7};
        make_problem(&c.p, GH_F32, 0, 0, shape, &scenarios[0]);
        passed = run_case(&with, &c, failure, sizeof failure, NULL);
        pl->api->close(with.ctx);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[8192] = "";
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    CHECK(st == GH_OK && passed, "statistics = yes: tiled runs%s%s", failure[0] ? ": " : "", failure);
    CHECK(strstr(text, "statistics: tiled f32") || strstr(text, "does not offer VK_KHR_pipeline_executable_properties"),
          "statistics = yes: tiled's pipeline statistics, or why there are none, on standard error (got: %s)",
          text[0] ? text : "nothing");
    printf("statistics = yes: %s", text[0] ? text : "nothing on standard error\n");
}

/* Closing a context with a buffer and pipelines still alive frees them,
 * top down (entry.c's close: buffers, pipelines, then the device). The
 * checks here only see that there was something to free; a leak or a use
 * after free at close is what the sanitizer build's run reports. */
static void close_with_work_left(const plugin *pl, int device)
{
    plugin other = {pl->api, NULL};
    if (pl->api->open(NULL, 0, &other.ctx) != GH_OK) {
        CHECK(0, "close: open: %s", pl->api->last_error(NULL));
        return;
    }
    gh_buffer *buf = NULL;
    gh_status st = other.api->buffer_alloc(other.ctx, device, 64 * sizeof(float), &buf);
    int64_t tile = 8;
    gh_gemm_args args = gh_test_tight_args(GH_F32, 4, 4, 4, buf, buf, buf, &tile, 1);
    args.c_offset = 32;
    gh_gemm_timing timing = {.size = sizeof timing};
    if (st == GH_OK)
        st = other.api->gemm(other.ctx, device, gh_test_find_kernel(pl->api, pl->ctx, "tiled"), &args, &timing);
    CHECK(st == GH_OK, "close: a context left with a buffer and a pipeline%s%s", st == GH_OK ? "" : ": ",
          st == GH_OK ? "" : other.api->last_error(other.ctx));
    other.api->close(other.ctx); /* the buffer is not freed first, on purpose */
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s gemmhost-vulkan.so [--quick | --sample] [--verbose] [--shard I/N]\n", argv[0]);
        return 2;
    }
    sweep_scope scope = SWEEP_ALL;
    int shard = 0, shards = 1;
    check_quiet = 1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            scope = SWEEP_QUICK;
        } else if (strcmp(argv[i], "--sample") == 0) {
            scope = SWEEP_SAMPLE;
        } else if (strcmp(argv[i], "--verbose") == 0) {
            check_quiet = 0;
        } else if (strcmp(argv[i], "--shard") == 0) {
            char end;
            if (i + 1 >= argc || sscanf(argv[i + 1], "%d/%d%c", &shard, &shards, &end) != 2 || shards < 1 ||
                shard < 0 || shard >= shards) {
                fprintf(stderr, "%s: --shard wants I/N with 0 <= I < N, as 1/4\n", argv[0]);
                return 2;
            }
            i++;
        } else {
            fprintf(stderr, "%s: unknown option %s (known: --quick, --sample, --verbose, --shard I/N)\n", argv[0],
                    argv[i]);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    gh_test_plugin handle;
    if (gh_test_plugin_load(&handle, argv[1]) != 0) {
        CHECK(0, "%s", handle.error);
        return check_summary("test_vulkan");
    }
    if (gh_test_plugin_open(&handle, NULL, 0) != GH_OK) {
        CHECK(0, "%s", handle.error);
        gh_test_plugin_unload(&handle);
        return check_summary("test_vulkan");
    }
    plugin pl = {handle.api, handle.ctx};
    int devices = pl.api->device_count(pl.ctx);
    if (devices == 0) {
        check_skip("no Vulkan device: %s", pl.api->last_error(pl.ctx));
        gh_test_plugin_unload(&handle);
        return check_summary("test_vulkan") ? 1 : SKIP_EXIT;
    }

    for (int d = 0; d < devices; d++) {
        const gh_device_info *i = pl.api->device_info(pl.ctx, d);
        printf("device %d: %s | %s | driver %s | %s | %.1f GiB | %llu B shared | %u units | wg %u | %s%s\n", d, i->name,
               i->vendor, i->driver_version, i->api, i->global_mem_bytes / 1073741824.0,
               (unsigned long long)i->local_mem_bytes, i->compute_units, i->max_workgroup_size,
               i->is_software ? "software" : "hardware", i->has_fp64 ? ", fp64" : ", no fp64");
        int failed_before = check_failures();
        int half = half_supported(&pl, d);
        sweep(&pl, d, scope, half, shard, shards);
        if (shard == 0) {
            device_limits(&pl, d);
            if (half) half_rounding(&pl, d);
            determinism(&pl, d);
        }
        if (d == 0 && shard == 0) {
            two_contexts(&pl, d);
            kernel_dir(&pl, d);
            statistics_option(&pl, d);
            close_with_work_left(&pl, d);
            half_refused_without_storage(pl.api, d);
            coopmat_options(pl.api);
        }
        if (half && shard == 0) coopmat_emulated(pl.api, d, scope);
        printf("device %d: %s\n", d,
               check_failures() == failed_before ? "all GEMMs agree with the reference" : "FAILURES above");
    }
    gh_test_plugin_unload(&handle);
    return check_summary("test_vulkan");
}
