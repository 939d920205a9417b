/* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "api_checks.h"

static void expect(tally *t, int ok, const char *what, const char *why)
{
    tally_record(t, ok ? CASE_PASS : CASE_FAIL, what, why ? why : "");
}

int find_kernel(const gh_plugin_api *api, gh_plugin *ctx, const char *name)
{
    for (int i = 0; i < api->kernel_count(ctx); i++) {
        const gh_kernel_info *k = api->kernel_info(ctx, i);
        if (k && strcmp(k->name, name) == 0) return i;
    }
    return -1;
}

void api_checks_entry(gh_entry_fn entry, tally *t)
{
    gh_entry_request req = {sizeof req, GEMMHOST_ABI_MAJOR + 1, 0, 0, NULL};
    gh_status st = entry(&req);
    expect(t, st == GH_VERSION_MISMATCH && req.plugin_abi_major == GEMMHOST_ABI_MAJOR && !req.api,
           "entry refuses another ABI major and names its own", "wrong status, plugin_abi_major or api");

    req = (gh_entry_request){sizeof req, GEMMHOST_ABI_MAJOR, GEMMHOST_ABI_MINOR + 7, 0, NULL};
    st = entry(&req);
    expect(t, st == GH_OK && req.abi_minor == GEMMHOST_ABI_MINOR && req.api,
           "entry answers a newer host minor with its own", "minor not negotiated down");

    const gh_plugin_api *api = req.api;
    int ok = api && api->size == sizeof(gh_plugin_api) && api->abi_major == GEMMHOST_ABI_MAJOR &&
             strcmp(api->name, "opencl") == 0 && api->n_options == 2 &&
             strcmp(api->options[0].name, "platform") == 0 && strcmp(api->options[1].name, "kernel_dir") == 0;
    expect(t, ok, "api table: size, name, options platform and kernel_dir", "unexpected table");
}

void api_checks_open(const gh_plugin_api *api, tally *t)
{
    gh_plugin *ctx = NULL;
    gh_option_value bad = {"no_such_option", "1"};
    gh_status st = api->open(&bad, 1, &ctx);
    const char *err = api->last_error(NULL);
    expect(t, st == GH_INVALID_ARGUMENT && strstr(err, "no_such_option"), "open refuses an unknown option", err);
    if (st == GH_OK) api->close(ctx);

    gh_option_value filter = {"platform", "no-such-platform-xyz"};
    ctx = NULL;
    st = api->open(&filter, 1, &ctx);
    int count = st == GH_OK ? api->device_count(ctx) : -1;
    err = api->last_error(ctx);
    /* The reason names the filter, or says there is no platform at all. */
    int explained = strstr(err, "no-such-platform-xyz") || strstr(err, "no OpenCL platform found");
    expect(t, st == GH_OK && count == 0 && explained,
           "a platform filter matching nothing: open succeeds, 0 devices, last_error says why", err);
    if (st == GH_OK) api->close(ctx);
}

static void check_device_info(const gh_plugin_api *api, gh_plugin *ctx, int device, tally *t)
{
    const gh_device_info *info = api->device_info(ctx, device);
    char why[512] = "NULL info";
    int ok = info != NULL;
    if (info) {
        ok = info->size == sizeof(gh_device_info) && info->name && *info->name && info->vendor &&
             info->driver_version && info->api && strncmp(info->api, "OpenCL", 6) == 0 && info->platform &&
             *info->platform && info->global_mem_bytes > 0 && info->compute_units > 0 &&
             info->max_workgroup_size > 0;
        /* PoCL's device is a CPU: software. */
        if (strstr(info->platform, "Portable Computing Language")) ok = ok && info->is_software == 1;
        snprintf(why, sizeof why, "name '%s' api '%s' platform '%s' mem %llu cu %u wg %u sw %d fp64 %d",
                 info->name, info->api, info->platform, (unsigned long long)info->global_mem_bytes,
                 info->compute_units, info->max_workgroup_size, info->is_software, info->has_fp64);
    }
    expect(t, ok, "device info is filled", why);
    expect(t, api->device_info(ctx, api->device_count(ctx)) == NULL, "device_info of a device past the end is NULL",
           "");
}

/* A 5x5x5 f32 GEMM with the given parameters, for checks that want the
 * status rather than the numbers. c_elements shrinks C's buffer. */
static gh_status small_gemm(const gh_plugin_api *api, gh_plugin *ctx, int device, int kernel,
                            const int64_t *params, size_t n_params, uint64_t c_elements)
{
    enum { EDGE = 5 };
    float host[EDGE * EDGE];
    for (int i = 0; i < EDGE * EDGE; i++) host[i] = (float)(i % 7) - 3;
    gh_buffer *a = NULL, *b = NULL, *c = NULL;
    gh_status st = api->buffer_alloc(ctx, device, sizeof host, &a);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, sizeof host, &b);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, c_elements * sizeof(float), &c);
    if (st == GH_OK) st = api->upload(ctx, a, 0, host, sizeof host);
    if (st == GH_OK) st = api->upload(ctx, b, 0, host, sizeof host);
    if (st == GH_OK) {
        gh_gemm_args args = {
            .size = sizeof args, .dtype = GH_F32, .m = EDGE, .n = EDGE, .k = EDGE, .alpha = 1, .beta = 0,
            .lda = EDGE, .ldb = EDGE, .ldc = EDGE, .a = a, .b = b, .c = c, .params = params, .n_params = n_params};
        gh_gemm_timing timing = {.size = sizeof timing};
        st = api->gemm(ctx, device, kernel, &args, &timing);
    }
    /* Freed in any case; last_error keeps the gemm's text (free sets none). */
    if (a) api->buffer_free(ctx, a);
    if (b) api->buffer_free(ctx, b);
    if (c) api->buffer_free(ctx, c);
    return st;
}

static void check_refusals(const gh_plugin_api *api, gh_plugin *ctx, int device, tally *t)
{
    int tiled = find_kernel(api, ctx, "tiled");
    const int64_t tile5 = 5, two[2] = {16, 16}, tile16 = 16;
    gh_status st = small_gemm(api, ctx, device, tiled, &tile5, 1, 25);
    const char *err = api->last_error(ctx);
    expect(t, st == GH_INVALID_ARGUMENT && strstr(err, "tile: 5"), "tile=5 is refused as not allowed", err);

    st = small_gemm(api, ctx, device, tiled, two, 2, 25);
    expect(t, st == GH_INVALID_ARGUMENT, "two parameters for a one-parameter kernel are refused",
           api->last_error(ctx));

    st = small_gemm(api, ctx, device, tiled, &tile16, 1, 24);
    err = api->last_error(ctx);
    expect(t, st == GH_INVALID_ARGUMENT && strstr(err, "C"), "a C that runs past its buffer is refused", err);

    st = small_gemm(api, ctx, device, tiled, NULL, 0, 25);
    expect(t, st == GH_INVALID_ARGUMENT, "no parameters for a one-parameter kernel are refused", api->last_error(ctx));

    /* blocked: two parameters, each checked; a group over the device's limit
     * is refused before launch, naming the limit. */
    int blocked = find_kernel(api, ctx, "blocked");
    const int64_t work3[2] = {64, 3}, tile16_work4[2] = {16, 4}, huge[2] = {128, 2};
    st = small_gemm(api, ctx, device, blocked, work3, 2, 25);
    err = api->last_error(ctx);
    expect(t, st == GH_INVALID_ARGUMENT && strstr(err, "work: 3") && strstr(err, "blocked"),
           "blocked work=3 is refused as not allowed", err);
    st = small_gemm(api, ctx, device, blocked, tile16_work4, 2, 25);
    err = api->last_error(ctx);
    expect(t, st == GH_INVALID_ARGUMENT && strstr(err, "tile: 16"), "blocked tile=16 is refused as not allowed", err);
    st = small_gemm(api, ctx, device, blocked, tile16_work4, 1, 25);
    expect(t, st == GH_INVALID_ARGUMENT, "blocked with one of its two parameters is refused", api->last_error(ctx));
    const gh_device_info *info = api->device_info(ctx, device);
    if (info && info->max_workgroup_size < 64 * 64) {
        st = small_gemm(api, ctx, device, blocked, huge, 2, 25);
        err = api->last_error(ctx);
        expect(t, st == GH_UNSUPPORTED && strstr(err, "tile=128 work=2") && strstr(err, "4096") &&
                      strstr(err, "CL_DEVICE_MAX_WORK_GROUP_SIZE"),
               "blocked tile=128 work=2 (4096 work-items) is refused before launch, naming the limit", err);
    }

    gh_buffer *buf = NULL;
    char bytes[16] = {0};
    st = api->buffer_alloc(ctx, device, 16, &buf);
    if (st == GH_OK) {
        st = api->upload(ctx, buf, 8, bytes, 9);
        expect(t, st == GH_INVALID_ARGUMENT, "an upload past the buffer's end is refused", api->last_error(ctx));
        st = api->download(ctx, buf, 17, bytes, 0);
        expect(t, st == GH_INVALID_ARGUMENT, "a download offset past the end is refused", api->last_error(ctx));
        api->buffer_free(ctx, buf);
    } else {
        expect(t, 0, "a 16-byte buffer", api->last_error(ctx));
    }
    st = api->buffer_alloc(ctx, device, 0, &buf);
    expect(t, st == GH_INVALID_ARGUMENT, "a 0-byte buffer is refused", api->last_error(ctx));
    st = api->buffer_alloc(ctx, device, UINT64_MAX / 2, &buf);
    expect(t, st == GH_OUT_OF_MEMORY, "an impossible buffer is GH_OUT_OF_MEMORY", api->last_error(ctx));
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[4096];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = 0;
    return ok ? 0 : -1;
}

/* Opens a second context with a kernel directory and runs tiled f32. */
static gh_status gemm_with_kernel_dir(const gh_plugin_api *api, const char *platform, const char *dir, int device,
                                      char *err, size_t err_size)
{
    gh_option_value opts[2] = {{"kernel_dir", dir}, {"platform", platform}};
    gh_plugin *ctx = NULL;
    gh_status st = api->open(opts, platform ? 2 : 1, &ctx);
    if (st == GH_OK) {
        const int64_t tile = 8;
        st = small_gemm(api, ctx, device, find_kernel(api, ctx, "tiled"), &tile, 1, 25);
    }
    snprintf(err, err_size, "%s", api->last_error(ctx));
    if (ctx) api->close(ctx);
    return st;
}

static void check_kernel_dir(const gh_plugin_api *api, const char *platform, int device, tally *t)
{
    char err[16384];
    const char *src = GEMMHOST_OPENCL_KERNEL_SOURCE_DIR;
    gh_status st = gemm_with_kernel_dir(api, platform, src, device, err, sizeof err);
    expect(t, st == GH_OK, "kernel_dir = the source tree's kernels/opencl", err);

    /* The kernels/ root works too: the plugin looks in its opencl/ folder. */
    char root[4096];
    snprintf(root, sizeof root, "%s/..", src);
    st = gemm_with_kernel_dir(api, platform, root, device, err, sizeof err);
    expect(t, st == GH_OK, "kernel_dir = the source tree's kernels/", err);

    st = gemm_with_kernel_dir(api, platform, "/nonexistent-gemmhost-kernels", device, err, sizeof err);
    expect(t, st == GH_ERROR && strstr(err, "not found"), "a kernel_dir without the sources is an error", err);

    char dir[] = "/tmp/gemmhost-opencl-test-XXXXXX";
    if (!mkdtemp(dir)) {
        expect(t, 0, "a temporary kernel directory", "mkdtemp failed");
        return;
    }
    char common_from[4096], common_to[4200], tiled_to[4200];
    snprintf(common_from, sizeof common_from, "%s/common.cl", src);
    snprintf(common_to, sizeof common_to, "%s/common.cl", dir);
    snprintf(tiled_to, sizeof tiled_to, "%s/tiled.cl", dir);
    if (copy_file(common_from, common_to) == 0 &&
        write_file(tiled_to, "__kernel void gemm_tiled(GEMM_ARGS)\n{\n    this is not OpenCL C;\n}\n") == 0) {
        st = gemm_with_kernel_dir(api, platform, dir, device, err, sizeof err);
        /* Line 3 of tiled.cl, whether the compiler honours #line (PoCL) or
         * counts lines of the whole program (NVIDIA: the plugin translates). */
        expect(t, st == GH_ERROR && strstr(err, "CL_BUILD_PROGRAM_FAILURE") && strstr(err, "compiler log") &&
                      strstr(err, "tiled.cl:3:"),
               "a kernel that does not compile: GH_ERROR with the compiler's log naming tiled.cl:3", err);
    } else {
        expect(t, 0, "writing a broken kernel", dir);
    }
    remove(common_to);
    remove(tiled_to);
    rmdir(dir);
}

typedef struct error_probe {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    char seen_first[256];
    char own[256];
} error_probe;

static void *probe_thread(void *arg)
{
    error_probe *p = arg;
    snprintf(p->seen_first, sizeof p->seen_first, "%s", p->api->last_error(p->ctx));
    p->api->kernel_info(p->ctx, 999);
    snprintf(p->own, sizeof p->own, "%s", p->api->last_error(p->ctx));
    return NULL;
}

static void check_error_per_thread(const gh_plugin_api *api, gh_plugin *ctx, tally *t)
{
    api->device_info(ctx, -7);
    char mine[256];
    snprintf(mine, sizeof mine, "%s", api->last_error(ctx));
    error_probe p = {api, ctx, "", ""};
    pthread_t thread;
    if (pthread_create(&thread, NULL, probe_thread, &p) != 0) {
        expect(t, 0, "a second thread", "pthread_create failed");
        return;
    }
    pthread_join(thread, NULL);
    int ok = strstr(mine, "-7") && p.seen_first[0] == '\0' && strstr(p.own, "999") &&
             strcmp(api->last_error(ctx), mine) == 0;
    expect(t, ok, "last_error is per thread", mine);
}

void api_checks_device(const gh_plugin_api *api, gh_plugin *ctx, int device, const char *platform, tally *t)
{
    check_device_info(api, ctx, device, t);
    check_refusals(api, ctx, device, t);
    check_kernel_dir(api, platform, device, t);
    check_error_per_thread(api, ctx, t);
}

typedef struct device_worker {
    const gh_plugin_api *api;
    gh_plugin *ctx;
    int device;
    int failures;
    char why[1024];
} device_worker;

static void *worker_thread(void *arg)
{
    device_worker *w = arg;
    const int kernels[3] = {find_kernel(w->api, w->ctx, "naive"), find_kernel(w->api, w->ctx, "tiled"),
                            find_kernel(w->api, w->ctx, "blocked")};
    for (int i = 0; i < 9; i++) {
        /* naive wg=16, tiled tile=16, blocked 128x8 */
        gemm_case c = {.kernel = kernels[i % 3], .params = {i % 3 < 2 ? 16 : 128, 8}, .n_params = i % 3 < 2 ? 1 : 2,
                       .dtype = GH_F32, .trans_a = i % 3 == 0, .trans_b = i % 4 == 1, .m = 61 + i, .n = 47, .k = 33 + 5 * i, .alpha = 1.5, .beta = -0.75,
                       .pad = 2, .offset = 3, .seed = 1000u + (uint64_t)i};
        if (gemm_case_run(w->api, w->ctx, w->device, &c, w->why, sizeof w->why) == CASE_FAIL) w->failures++;
    }
    return NULL;
}

void api_checks_threads(const gh_plugin_api *api, gh_plugin *ctx, tally *t)
{
    int n = api->device_count(ctx);
    device_worker *workers = calloc((size_t)n, sizeof *workers);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    if (!workers || !threads) {
        expect(t, 0, "threads on every device", "out of memory");
        free(workers);
        free(threads);
        return;
    }
    for (int d = 0; d < n; d++) {
        workers[d] = (device_worker){api, ctx, d, 0, ""};
        if (pthread_create(&threads[d], NULL, worker_thread, &workers[d]) != 0) workers[d].failures = -1;
    }
    for (int d = 0; d < n; d++) {
        if (workers[d].failures >= 0) pthread_join(threads[d], NULL);
        char what[128];
        snprintf(what, sizeof what, "device %d, driven from its own thread beside the others", d);
        expect(t, workers[d].failures == 0, what, workers[d].why);
    }
    free(workers);
    free(threads);
}
