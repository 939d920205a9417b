/*
 * The Vulkan plugin, tested through the plugin ABI alone (no host code):
 *   test_vulkan PLUGIN.so [--quick]
 *
 * Every kernel (naive, tiled, blocked) x f32/f64/i32 x nn/nt/tn/tt x odd
 * shapes (1x1x1, 1xNx1, Mx1xK, 37x53x29, k < 16, sizes around each tile) x
 * every value of its parameters (blocked: every tile x work; those over the
 * device's limits must be refused, naming the limit), with alpha/beta other
 * than 1/0, beta = 0 on NaN-poisoned C, leading dimensions wider than the
 * matrix and odd element offsets, each checked against an f64 reference
 * (i32 exactly) and for writes outside C. Then the error paths.
 *
 * Exit 0 when all passed, 1 on a failure, 77 (skipped) without a Vulkan
 * device. f64 on a device without shaderFloat64 counts as skipped.
 * --quick runs each kernel at its defaults and two transposes (for valgrind).
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gemmhost/plugin.h"
#include "matrices.h"

#define SKIP_EXIT 77
#define GUARD 11 /* elements after each matrix, to catch writes past the end */

static const gh_plugin_api *api;
/* Per thread, so that test_two_contexts can run the same helpers on a
 * second context from a second thread. */
static _Thread_local gh_plugin *ctx;
static _Atomic int n_passed, n_failed, n_skipped;

static void verdict(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verdict(int ok, const char *fmt, ...)
{
    if (ok) {
        n_passed++;
        return;
    }
    n_failed++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* ---- one GEMM case ---- */

typedef enum { CASE_PASS, CASE_FAIL, CASE_SKIP } outcome;

#define MAX_PARAMS 2

typedef struct gemm_case {
    int device, kernel;
    int64_t params[MAX_PARAMS];   /* the kernel's parameters, in its order */
    size_t n_params;
    problem p;
} gemm_case;

/* "tile=64 work=4" */
static void describe_params(const gemm_case *c, char *buf, size_t size)
{
    const gh_kernel_info *k = api->kernel_info(ctx, c->kernel);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < c->n_params && i < k->n_params; i++) {
        int n = snprintf(buf + used, size - used, "%s%s=%lld", i ? " " : "", k->params[i].name,
                         (long long)c->params[i]);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}

static void describe(const gemm_case *c, char *buf, size_t size)
{
    const gh_kernel_info *k = api->kernel_info(ctx, c->kernel);
    const problem *p = &c->p;
    char params[64];
    describe_params(c, params, sizeof params);
    snprintf(buf, size, "device %d %s %s %s %c%c %lldx%lldx%lld alpha=%g beta=%g ld=%lld/%lld/%lld off=%llu/%llu/%llu",
             c->device, k->name, params, dtype_name(p->dtype), p->ta ? 't' : 'n',
             p->tb ? 't' : 'n', (long long)p->m, (long long)p->n, (long long)p->k, p->alpha, p->beta,
             (long long)p->lda, (long long)p->ldb, (long long)p->ldc, (unsigned long long)p->a_off,
             (unsigned long long)p->b_off, (unsigned long long)p->c_off);
}

/* Uploads in two pieces at an odd byte offset, to exercise offsets. */
static gh_status upload_split(gh_buffer *buf, const void *src, uint64_t bytes)
{
    uint64_t half = (bytes / 2) | 1;
    gh_status st = api->upload(ctx, buf, 0, src, half);
    return st != GH_OK ? st : api->upload(ctx, buf, half, (const char *)src + half, bytes - half);
}

static gh_status download_split(gh_buffer *buf, void *dst, uint64_t bytes)
{
    uint64_t half = (bytes / 3) | 1;
    gh_status st = api->download(ctx, buf, half, (char *)dst + half, bytes - half);
    return st != GH_OK ? st : api->download(ctx, buf, 0, dst, half);
}

/* Runs c; on CASE_FAIL or CASE_SKIP `why` says why. When result is not NULL
 * it gets C's whole buffer after the run (caller frees). */
static outcome run_case(const gemm_case *c, char *why, size_t why_size, void **result)
{
    const problem *p = &c->p;
    const size_t es = elem_size(p->dtype);
    size_t a_rows = (size_t)(p->ta ? p->k : p->m), b_rows = (size_t)(p->tb ? p->n : p->k);
    size_t a_elems = p->a_off + a_rows * p->lda + GUARD;
    size_t b_elems = p->b_off + b_rows * p->ldb + GUARD;
    size_t c_elems = p->c_off + (size_t)p->m * p->ldc + GUARD;

    void *a = malloc(a_elems * es), *b = malloc(b_elems * es);
    void *c0 = malloc(c_elems * es), *got = malloc(c_elems * es);
    gh_buffer *da = NULL, *db = NULL, *dc = NULL;
    outcome out = CASE_FAIL;
    if (!a || !b || !c0 || !got) {
        snprintf(why, why_size, "out of host memory");
        goto done;
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull ^ (uint64_t)(p->m * 1000003 + p->n * 10007 + p->k * 101 + p->dtype);
    fill_random(p->dtype, a, a_elems, &seed);
    fill_random(p->dtype, b, b_elems, &seed);
    fill_random(p->dtype, c0, c_elems, &seed);
    if (p->beta == 0) /* an element the kernel never writes stays poisoned and fails */
        for (int64_t i = 0; i < p->m; i++)
            fill_poison(p->dtype, (char *)c0 + (p->c_off + i * p->ldc) * es, (size_t)p->n);

    gh_status st;
    if ((st = api->buffer_alloc(ctx, c->device, a_elems * es, &da)) != GH_OK ||
        (st = api->buffer_alloc(ctx, c->device, b_elems * es, &db)) != GH_OK ||
        (st = api->buffer_alloc(ctx, c->device, c_elems * es, &dc)) != GH_OK ||
        (st = upload_split(da, a, a_elems * es)) != GH_OK ||
        (st = api->upload(ctx, db, 0, b, b_elems * es)) != GH_OK ||
        (st = upload_split(dc, c0, c_elems * es)) != GH_OK) {
        snprintf(why, why_size, "buffer setup failed (%d): %s", (int)st, api->last_error(ctx));
        goto done;
    }

    gh_gemm_args args = {
        .size = sizeof args,
        .dtype = p->dtype,
        .trans_a = p->ta,
        .trans_b = p->tb,
        .m = p->m, .n = p->n, .k = p->k,
        .alpha = p->alpha, .beta = p->beta,
        .lda = p->lda, .ldb = p->ldb, .ldc = p->ldc,
        .a = da, .b = db, .c = dc,
        .a_offset = p->a_off, .b_offset = p->b_off, .c_offset = p->c_off,
        .params = c->params,
        .n_params = c->n_params,
    };
    gh_gemm_timing timing = {.size = sizeof timing, .kernel_ms = -1, .clock = (gh_clock)-1};
    st = api->gemm(ctx, c->device, c->kernel, &args, &timing);
    if (st == GH_UNSUPPORTED && p->dtype == GH_F64) {
        snprintf(why, why_size, "%s", api->last_error(ctx));
        out = CASE_SKIP;
        goto done;
    }
    if (st != GH_OK) {
        snprintf(why, why_size, "gemm returned %d: %s", (int)st, api->last_error(ctx));
        goto done;
    }
    if (!(timing.kernel_ms >= 0 && isfinite(timing.kernel_ms)) ||
        (timing.clock != GH_CLOCK_DEVICE && timing.clock != GH_CLOCK_HOST)) {
        snprintf(why, why_size, "bad timing: %g ms, clock %d", timing.kernel_ms, (int)timing.clock);
        goto done;
    }
    if ((st = download_split(dc, got, c_elems * es)) != GH_OK) {
        snprintf(why, why_size, "download failed (%d): %s", (int)st, api->last_error(ctx));
        goto done;
    }
    if (check_result(p, a, b, c0, got, c_elems, why, why_size)) {
        out = CASE_PASS;
        if (result) {
            *result = got;
            got = NULL;
        }
    }
done:
    api->buffer_free(ctx, da);
    api->buffer_free(ctx, db);
    api->buffer_free(ctx, dc);
    free(a);
    free(b);
    free(c0);
    free(got);
    return out;
}

static void count_case(const gemm_case *c, void **result)
{
    char why[512], name[256];
    outcome o = run_case(c, why, sizeof why, result);
    if (o == CASE_PASS) {
        n_passed++;
        return;
    }
    describe(c, name, sizeof name);
    if (o == CASE_SKIP) {
        static _Atomic int said;
        if (!said++)
            printf("skip: %s: %s\n", name, why);
        n_skipped++;
        return;
    }
    verdict(0, "%s: %s", name, why);
}

/* ---- the sweep ---- */

typedef struct scenario {
    double alpha, beta;           /* floats */
    double i_alpha, i_beta;       /* i32: integral */
    int64_t pad;                  /* ld = width + pad */
    uint64_t off[3];              /* element offsets of A, B, C */
} scenario;

static const scenario scenarios[] = {
    {1.5, -0.75, 3, -2, 3, {5, 7, 9}},  /* everything general */
    {1.0, 0.0, 1, 0, 0, {0, 0, 0}},     /* beta = 0 over NaN, packed */
    {-2.0, 0.0, -1, 0, 1, {1, 0, 2}},   /* beta = 0 with padding and offsets */
};

static void make_problem(problem *p, gh_dtype dtype, int ta, int tb, const int64_t shape[3], const scenario *s)
{
    *p = (problem){
        .dtype = dtype, .ta = ta, .tb = tb,
        .m = shape[0], .n = shape[1], .k = shape[2],
        .alpha = dtype == GH_I32 ? s->i_alpha : s->alpha,
        .beta = dtype == GH_I32 ? s->i_beta : s->beta,
        .a_off = s->off[0], .b_off = s->off[1], .c_off = s->off[2],
    };
    p->lda = (ta ? p->m : p->k) + s->pad;
    p->ldb = (tb ? p->k : p->n) + s->pad;
    p->ldc = p->n + s->pad;
}

/* Shapes that hit every edge of a tile of side t. */
static int shapes_for(int64_t t, int64_t shapes[][3])
{
    int64_t list[][3] = {
        {1, 1, 1},                 /* K < tile, one element */
        {1, 2 * t + 3, 1},         /* one row */
        {2 * t + 1, 1, t + 3},     /* one column */
        {37, 53, 29},              /* primes */
        {t + 1, t - 1, t},         /* around the tile */
        {t - 1, t + 1, t + 1},
        {2 * t + 1, t, 3 * t - 1},
        {t + 5, 2 * t - 3, 7},     /* K below blocked's k step, several tiles of C */
    };
    int n = (int)(sizeof list / sizeof list[0]);
    memcpy(shapes, list, sizeof list);
    return n;
}

/* The limit a kernel with these parameters is over on this device, by the
 * plugin's rules (the shaders in kernels/vulkan declare the shared memory),
 * with the value that is over it written to `value`; NULL when it fits. */
static const char *over_limit(int device, const gemm_case *c, gh_dtype dtype, char *value, size_t size)
{
    const gh_device_info *info = api->device_info(ctx, device);
    const char *name = api->kernel_info(ctx, c->kernel)->name;
    uint64_t es = elem_size(dtype), side = (uint64_t)c->params[0];
    uint64_t work = strcmp(name, "blocked") == 0 ? (uint64_t)c->params[1] : 1;
    uint64_t invocations = (side / work) * (side / work);
    if (invocations > info->max_workgroup_size) {
        snprintf(value, size, "%llu invocations", (unsigned long long)invocations);
        return "maxComputeWorkGroupInvocations";
    }
    uint64_t shared = 0;
    if (strcmp(name, "tiled") == 0)
        shared = 2 * side * (side + 1) * es;
    else if (strcmp(name, "blocked") == 0)
        shared = 2 * 8 * (side + 4) * es; /* at its smallest k step, 8 */
    if (shared > info->local_mem_bytes) {
        snprintf(value, size, "%llu bytes", (unsigned long long)shared);
        return "maxComputeSharedMemorySize";
    }
    return NULL;
}

/* A kernel over the device's limits is refused before it runs, as
 * unsupported, naming the limit and the value over it. */
static void expect_refused(const gemm_case *c, const char *limit, const char *value)
{
    if (c->p.dtype == GH_F64 && !api->device_info(ctx, c->device)->has_fp64) {
        n_skipped++; /* refused for want of shaderFloat64 first */
        return;
    }
    char name[256];
    describe(c, name, sizeof name);
    gh_buffer *buf = NULL;
    if (api->buffer_alloc(ctx, c->device, 64, &buf) != GH_OK) {
        verdict(0, "%s: buffer_alloc: %s", name, api->last_error(ctx));
        return;
    }
    gh_gemm_args args = {
        .size = sizeof args, .dtype = c->p.dtype, .m = 1, .n = 1, .k = 1, .alpha = 1, .beta = 0,
        .lda = 1, .ldb = 1, .ldc = 1, .a = buf, .b = buf, .c = buf,
        .params = c->params, .n_params = c->n_params,
    };
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_status st = api->gemm(ctx, c->device, c->kernel, &args, &timing);
    const char *e = api->last_error(ctx);
    verdict(st == GH_UNSUPPORTED && e && strstr(e, limit) && strstr(e, value),
            "%s is over %s (%s): status %d (wanted %d), error '%s'", name, limit, value, (int)st,
            (int)GH_UNSUPPORTED, e ? e : "(null)");
    api->buffer_free(ctx, buf);
}

/* Every combination of the kernel's parameter values, in turn: combo 0 ..
 * count - 1. Returns 0 past the last. */
static int kernel_combo(int kernel, size_t combo, gemm_case *c)
{
    const gh_kernel_info *k = api->kernel_info(ctx, kernel);
    c->kernel = kernel;
    c->n_params = k->n_params < MAX_PARAMS ? k->n_params : MAX_PARAMS;
    for (size_t i = 0; i < c->n_params; i++) {
        const gh_param_info *param = &k->params[i];
        if (param->n_allowed == 0) { /* a range: its default only */
            c->params[i] = param->default_value;
            continue;
        }
        c->params[i] = param->allowed[combo % param->n_allowed];
        combo /= param->n_allowed;
    }
    return combo == 0;
}

static int is_default(int kernel, const gemm_case *c)
{
    const gh_kernel_info *k = api->kernel_info(ctx, kernel);
    for (size_t i = 0; i < c->n_params; i++)
        if (c->params[i] != k->params[i].default_value)
            return 0;
    return 1;
}

/* On a software device (lavapipe), where compiling the larger blocked
 * pipelines takes seconds each, blocked runs f32 at every tile x work but
 * f64 and i32 only at these: the scalar path (work 2), one 4-vector per
 * row (work 4) and two at the default (work 8, where f64 has to take the
 * smaller k step on lavapipe's 32 KiB of shared memory). Hardware devices
 * run every dtype at every combination. */
static int every_dtype(int device, int kernel, const gemm_case *c)
{
    static const int64_t lavapipe_blocked[][2] = {{32, 2}, {64, 4}, {128, 8}};
    if (!api->device_info(ctx, device)->is_software || strcmp(api->kernel_info(ctx, kernel)->name, "blocked") != 0)
        return 1;
    for (size_t i = 0; i < sizeof lavapipe_blocked / sizeof lavapipe_blocked[0]; i++)
        if (c->params[0] == lavapipe_blocked[i][0] && c->params[1] == lavapipe_blocked[i][1])
            return 1;
    return 0;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sweep(int device, int quick)
{
    static const gh_dtype dtypes[] = {GH_F32, GH_F64, GH_I32};
    for (int kernel = 0; kernel < api->kernel_count(ctx); kernel++) {
        gemm_case proto = {.device = device};
        for (size_t combo = 0; kernel_combo(kernel, combo, &proto); combo++) {
            if (quick && !is_default(kernel, &proto))
                continue;
            /* Progress, so that a slow device shows where its time goes. */
            double started = seconds_now();
            int checked_before = n_passed + n_failed;
            int64_t shapes[16][3];
            int n_shapes = shapes_for(proto.params[0], shapes);
            int n_dtypes = every_dtype(device, kernel, &proto) ? 3 : 1;
            for (int d = 0; d < n_dtypes; d++) {
                char value[64];
                const char *limit = over_limit(device, &proto, dtypes[d], value, sizeof value);
                if (limit) {
                    gemm_case c = proto;
                    c.p.dtype = dtypes[d];
                    expect_refused(&c, limit, value);
                    continue;
                }
                for (int t = 0; t < 4; t++) {
                    if (quick && (t == 1 || t == 2))
                        continue;
                    for (int s = 0; s < n_shapes; s++)
                        for (size_t sc = 0; sc < sizeof scenarios / sizeof scenarios[0]; sc++) {
                            if (sc == 2 && s != 3) /* the third scenario on the primes only */
                                continue;
                            gemm_case c = proto;
                            make_problem(&c.p, dtypes[d], t >> 1, t & 1, shapes[s], &scenarios[sc]);
                            count_case(&c, NULL);
                        }
                }
            }
            char name[128];
            describe_params(&proto, name, sizeof name);
            printf("device %d: %s %s: %d checks in %.1f s\n", device, api->kernel_info(ctx, kernel)->name, name,
                   n_passed + n_failed - checked_before, seconds_now() - started);
        }
    }
}

/* Two runs of the same case give the same bits (a missing barrier would not). */
static void determinism(int device)
{
    static const struct { const char *kernel; int64_t params[MAX_PARAMS]; size_t n_params; } runs[] = {
        {"naive", {16}, 1}, {"tiled", {16}, 1}, {"blocked", {32, 4}, 2}, {"blocked", {128, 8}, 2},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        int kernel = 0;
        while (kernel < api->kernel_count(ctx) && strcmp(api->kernel_info(ctx, kernel)->name, runs[r].kernel) != 0)
            kernel++;
        gemm_case c = {.device = device, .kernel = kernel, .n_params = runs[r].n_params};
        memcpy(c.params, runs[r].params, sizeof c.params);
        int64_t shape[3] = {100, 90, 130};
        make_problem(&c.p, GH_F32, 0, 1, shape, &scenarios[0]);
        void *first = NULL, *second = NULL;
        char why[512];
        outcome o1 = kernel < api->kernel_count(ctx) ? run_case(&c, why, sizeof why, &first) : CASE_FAIL;
        if (kernel == api->kernel_count(ctx))
            snprintf(why, sizeof why, "no such kernel");
        outcome o2 = o1 == CASE_PASS ? run_case(&c, why, sizeof why, &second) : o1;
        size_t bytes = (c.p.c_off + (size_t)c.p.m * c.p.ldc + GUARD) * 4;
        verdict(o1 == CASE_PASS && o2 == CASE_PASS && memcmp(first, second, bytes) == 0,
                "determinism: %s %lld/%lld f32 100x90x130 twice: %s", runs[r].kernel, (long long)runs[r].params[0],
                (long long)runs[r].params[1], o2 != CASE_PASS ? why : "results differ");
        free(first);
        free(second);
    }
}

/* ---- ABI and error paths ---- */

static void test_entry(gh_entry_fn entry)
{
    gh_entry_request req = {.size = sizeof req, .host_abi_major = GEMMHOST_ABI_MAJOR + 1, .abi_minor = 0};
    gh_status st = entry(&req);
    verdict(st == GH_VERSION_MISMATCH && req.plugin_abi_major == GEMMHOST_ABI_MAJOR && !req.api,
            "entry with a wrong major: status %d, plugin major %u", (int)st, req.plugin_abi_major);

    req = (gh_entry_request){.size = sizeof req, .host_abi_major = GEMMHOST_ABI_MAJOR, .abi_minor = 99};
    st = entry(&req);
    verdict(st == GH_OK && req.api && req.abi_minor == GEMMHOST_ABI_MINOR,
            "entry with a newer minor: status %d, minor %u", (int)st, req.abi_minor);
    api = req.api;
    if (!api)
        return;
    verdict(api->size == sizeof *api && api->abi_major == GEMMHOST_ABI_MAJOR && strcmp(api->name, "vulkan") == 0 &&
                api->n_options == 1 && strcmp(api->options[0].name, "kernel_dir") == 0 && api->get_proc("x") == NULL,
            "api table: size %zu, name %s", api->size, api->name);
}

static void test_open_errors(void)
{
    gh_option_value bad = {"no_such_option", "1"};
    gh_plugin *c = NULL;
    gh_status st = api->open(&bad, 1, &c);
    const char *e = api->last_error(NULL);
    verdict(st == GH_INVALID_ARGUMENT && !c && strstr(e, "no_such_option"),
            "open with an unknown option: status %d, error '%s'", (int)st, e);
}

static int expect_error(gh_status st, gh_status want, const char *word, const char *what)
{
    const char *e = api->last_error(ctx);
    int ok = st == want && e && strstr(e, word);
    verdict(ok, "%s: status %d (wanted %d), error '%s' (wanted it to mention '%s')", what, (int)st, (int)want,
            e ? e : "(null)", word);
    return ok;
}

static void test_info(int device)
{
    const gh_device_info *i = api->device_info(ctx, device);
    verdict(i && i->size >= sizeof *i && i->name[0] && i->vendor && i->driver_version && strncmp(i->api, "Vulkan ", 7) == 0 &&
                i->platform && i->max_workgroup_size > 0 && i->local_mem_bytes > 0 && (i->is_software == 0 || i->is_software == 1),
            "device_info(%d) incomplete", device);
    verdict(api->device_info(ctx, api->device_count(ctx)) == NULL, "device_info past the end is not NULL");
    verdict(api->kernel_count(ctx) == 3 && strcmp(api->kernel_info(ctx, 0)->name, "naive") == 0 &&
                strcmp(api->kernel_info(ctx, 1)->name, "tiled") == 0 &&
                strcmp(api->kernel_info(ctx, 2)->name, "blocked") == 0 && api->kernel_info(ctx, 3) == NULL,
            "kernels are not naive, tiled, blocked");
    const gh_kernel_info *t = api->kernel_info(ctx, 1);
    verdict(t->n_params == 1 && strcmp(t->params[0].name, "tile") == 0 && t->params[0].default_value == 16 &&
                t->params[0].n_allowed == 4,
            "tiled's parameter is not tile {4, 8, 16, 32} default 16");
    const gh_kernel_info *b = api->kernel_info(ctx, 2);
    verdict(b && b->n_params == 2 && strcmp(b->params[0].name, "tile") == 0 && b->params[0].n_allowed == 3 &&
                b->params[0].allowed[0] == 32 && b->params[0].allowed[2] == 128 && b->params[0].default_value == 128 &&
                strcmp(b->params[1].name, "work") == 0 && b->params[1].n_allowed == 3 && b->params[1].allowed[0] == 2 &&
                b->params[1].allowed[2] == 8 && b->params[1].default_value == 8 &&
                b->dtypes == (GH_DTYPE_BIT(GH_F32) | GH_DTYPE_BIT(GH_F64) | GH_DTYPE_BIT(GH_I32)),
            "blocked's parameters are not tile {32, 64, 128} default 128, work {2, 4, 8} default 8");
}

static void test_errors(int device)
{
    gh_buffer *a = NULL, *c = NULL;
    float data[64] = {0};
    if (api->buffer_alloc(ctx, device, sizeof data, &a) != GH_OK ||
        api->buffer_alloc(ctx, device, sizeof data, &c) != GH_OK) {
        verdict(0, "buffer_alloc of 256 bytes: %s", api->last_error(ctx));
        return;
    }
    api->upload(ctx, a, 0, data, sizeof data);
    int64_t side = 16;
    gh_gemm_args base = {
        .size = sizeof base, .dtype = GH_F32, .m = 4, .n = 4, .k = 4, .alpha = 1, .beta = 0,
        .lda = 4, .ldb = 4, .ldc = 4, .a = a, .b = a, .c = c, .params = &side, .n_params = 1,
    };
    gh_gemm_timing timing = {.size = sizeof timing};
    gh_gemm_args args = base;
    verdict(api->gemm(ctx, device, 1, &args, &timing) == GH_OK, "a valid 4x4x4 gemm failed: %s", api->last_error(ctx));

    int64_t bad_tile = 5;
    args = base;
    args.params = &bad_tile;
    expect_error(api->gemm(ctx, device, 1, &args, &timing), GH_INVALID_ARGUMENT, "tile", "tile = 5");
    args = base;
    args.lda = 3;
    expect_error(api->gemm(ctx, device, 1, &args, &timing), GH_INVALID_ARGUMENT, "lda", "lda < k");
    args = base;
    args.m = 40;
    expect_error(api->gemm(ctx, device, 0, &args, &timing), GH_INVALID_ARGUMENT, "runs past", "A larger than its buffer");
    args = base;
    args.c_offset = 60;
    expect_error(api->gemm(ctx, device, 0, &args, &timing), GH_INVALID_ARGUMENT, "C (", "C past its buffer's end");
    args = base;
    args.dtype = GH_I32;
    args.alpha = 1.5;
    expect_error(api->gemm(ctx, device, 0, &args, &timing), GH_INVALID_ARGUMENT, "alpha", "i32 with alpha 1.5");
    args = base;
    args.size = 8;
    expect_error(api->gemm(ctx, device, 0, &args, &timing), GH_INVALID_ARGUMENT, "size", "args.size too small");
    args = base;
    args.m = 0;
    expect_error(api->gemm(ctx, device, 0, &args, &timing), GH_INVALID_ARGUMENT, "at least 1", "m = 0");
    int64_t two[2] = {8, 8};
    args = base;
    args.params = two;
    args.n_params = 2;
    expect_error(api->gemm(ctx, device, 0, &args, &timing), GH_INVALID_ARGUMENT, "takes 1 parameter",
                 "naive with two parameters");

    /* blocked: two parameters, both required; values outside the allowed
     * sets refused by name. */
    int64_t blocked[3] = {64, 4, 1};
    args = base;
    args.params = blocked;
    args.n_params = 2;
    verdict(api->gemm(ctx, device, 2, &args, &timing) == GH_OK, "blocked tile 64 work 4 on 4x4x4 failed: %s",
            api->last_error(ctx));
    args.n_params = 1;
    expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_INVALID_ARGUMENT, "takes 2 parameters",
                 "blocked with work left out");
    args.n_params = 3;
    expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_INVALID_ARGUMENT, "takes 2 parameters",
                 "blocked with three parameters");
    args.n_params = 2;
    blocked[1] = 3;
    expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_INVALID_ARGUMENT, "work: 3 is not one of 2, 4, 8",
                 "blocked work = 3");
    blocked[0] = 16;
    blocked[1] = 4;
    expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_INVALID_ARGUMENT, "tile: 16 is not one of 32, 64, 128",
                 "blocked tile = 16");
    args.params = NULL;
    expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_INVALID_ARGUMENT, "params is NULL",
                 "blocked with NULL params");
    /* 128 / 2: 64 x 64 = 4096 invocations, over every device's limit that
     * the tests meet (Vulkan guarantees only 128). */
    const gh_device_info *info = api->device_info(ctx, device);
    if (info->max_workgroup_size < 4096) {
        blocked[0] = 128;
        blocked[1] = 2;
        args.params = blocked;
        expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_UNSUPPORTED, "4096 invocations",
                     "blocked tile 128 work 2: the invocations named");
        expect_error(api->gemm(ctx, device, 2, &args, &timing), GH_UNSUPPORTED, "maxComputeWorkGroupInvocations",
                     "blocked tile 128 work 2: the limit named");
    }

    expect_error(api->gemm(ctx, device, 7, &base, &timing), GH_INVALID_ARGUMENT, "kernel 7", "kernel 7");
    expect_error(api->gemm(ctx, 99, 0, &base, &timing), GH_INVALID_ARGUMENT, "device 99", "device 99");
    expect_error(api->upload(ctx, a, 200, data, 100), GH_INVALID_ARGUMENT, "run past", "upload past the end");
    expect_error(api->download(ctx, a, 0, data, 300), GH_INVALID_ARGUMENT, "run past", "download past the end");
    gh_buffer *none = NULL;
    expect_error(api->buffer_alloc(ctx, 99, 4, &none), GH_INVALID_ARGUMENT, "device 99", "buffer_alloc on device 99");
    verdict(api->upload(ctx, a, 256, data, 0) == GH_OK, "an empty upload at the end failed");
    verdict(api->synchronize(ctx, device) == GH_OK, "synchronize failed: %s", api->last_error(ctx));
    api->buffer_free(ctx, NULL); /* must be harmless */
    api->buffer_free(ctx, a);
    api->buffer_free(ctx, c);
}

/* Two contexts used from two threads at once, as the multi-device split
 * uses two devices: nothing in the plugin may be shared unguarded. */
static void small_sweep(int device)
{
    static const int64_t shapes[][3] = {{1, 1, 1}, {9, 7, 8}, {37, 53, 29}, {17, 33, 5}};
    for (int kernel = 0; kernel < 3; kernel++)
        for (int t = 0; t < 4; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
                /* blocked: 32 / 4, 64 invocations */
                gemm_case c = {.device = device, .kernel = kernel, .params = {kernel == 2 ? 32 : 8, 4},
                               .n_params = kernel == 2 ? 2 : 1};
                make_problem(&c.p, GH_F32, t >> 1, t & 1, shapes[s], &scenarios[s % 2]);
                count_case(&c, NULL);
            }
}

static void *second_context(void *arg)
{
    int device = *(const int *)arg;
    if (api->open(NULL, 0, &ctx) != GH_OK || api->device_count(ctx) <= device) {
        verdict(0, "second context: %s", api->last_error(ctx));
        return NULL;
    }
    small_sweep(device);
    api->close(ctx);
    return NULL;
}

static void test_two_contexts(int device)
{
    pthread_t t;
    if (pthread_create(&t, NULL, second_context, &device) != 0) {
        verdict(0, "pthread_create failed");
        return;
    }
    small_sweep(device);
    pthread_join(t, NULL);
}

/* kernel_dir: a file there replaces the embedded SPIR-V; others fall back. */
static void test_kernel_dir(int device)
{
    char dir[] = "/tmp/gemmhost-vulkan-test-XXXXXX", path[2][128];
    if (!mkdtemp(dir)) {
        verdict(0, "mkdtemp failed");
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
    gh_plugin *saved = ctx;
    if (api->open(&opt, 1, &ctx) != GH_OK) {
        verdict(0, "open with kernel_dir failed: %s", api->last_error(NULL));
        ctx = saved;
    } else {
        char why[512];
        gemm_case c = {.device = device, .kernel = 0, .params = {8}, .n_params = 1};
        int64_t shape[3] = {5, 6, 7};
        make_problem(&c.p, GH_F32, 0, 0, shape, &scenarios[0]);
        outcome o = run_case(&c, why, sizeof why, NULL);
        verdict(o == CASE_FAIL && strstr(why, "not SPIR-V"), "a broken naive_f32.spv in kernel_dir was not refused: %s",
                o == CASE_FAIL ? why : "it ran");
        c.kernel = 1;
        o = run_case(&c, why, sizeof why, NULL);
        verdict(o == CASE_PASS, "tiled with kernel_dir lacking tiled_f32.spv: %s", why);
        c.kernel = 2;
        c.params[0] = 32;
        c.params[1] = 4;
        c.n_params = 2;
        o = run_case(&c, why, sizeof why, NULL);
        verdict(o == CASE_FAIL && strstr(why, "blocked_w4_f32.spv") && strstr(why, "not SPIR-V"),
                "a broken blocked_w4_f32.spv in kernel_dir was not refused for work = 4: %s",
                o == CASE_FAIL ? why : "it ran");
        c.params[1] = 2;
        o = run_case(&c, why, sizeof why, NULL);
        verdict(o == CASE_PASS, "blocked work = 2 with kernel_dir lacking blocked_w2_f32.spv: %s", why);
        api->close(ctx);
        ctx = saved;
    }
    unlink(path[0]);
    unlink(path[1]);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s gemmhost-vulkan.so [--quick]\n", argv[0]);
        return 2;
    }
    int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
    setvbuf(stdout, NULL, _IOLBF, 0);

    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("FAIL: dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    gh_entry_fn entry;
    void *sym = dlsym(lib, GEMMHOST_ENTRY_NAME);
    memcpy(&entry, &sym, sizeof sym);
    if (!sym) {
        printf("FAIL: %s has no %s\n", argv[1], GEMMHOST_ENTRY_NAME);
        return 1;
    }
    test_entry(entry);
    if (!api) {
        printf("%d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped);
        return 1;
    }
    test_open_errors();

    gh_status st = api->open(NULL, 0, &ctx);
    verdict(st == GH_OK && ctx, "open: status %d: %s", (int)st, api->last_error(NULL));
    if (st != GH_OK)
        return 1;
    int devices = api->device_count(ctx);
    if (devices == 0) {
        printf("skip: no Vulkan device: %s\n", api->last_error(ctx));
        api->close(ctx);
        printf("%d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped + 1);
        return n_failed ? 1 : SKIP_EXIT;
    }

    for (int d = 0; d < devices; d++) {
        const gh_device_info *i = api->device_info(ctx, d);
        printf("device %d: %s | %s | driver %s | %s | %.1f GiB | %llu B shared | %u units | wg %u | %s%s\n", d,
               i->name, i->vendor, i->driver_version, i->api, i->global_mem_bytes / 1073741824.0,
               (unsigned long long)i->local_mem_bytes, i->compute_units, i->max_workgroup_size,
               i->is_software ? "software" : "hardware", i->has_fp64 ? ", fp64" : ", no fp64");
        test_info(d);
        test_errors(d);
        int before = n_failed;
        sweep(d, quick);
        determinism(d);
        if (d == 0) {
            test_two_contexts(d);
            test_kernel_dir(d);
        }
        printf("device %d: %s\n", d, n_failed == before ? "all GEMMs agree with the reference" : "FAILURES above");
    }
    api->close(ctx);
    dlclose(lib);

    printf("%d passed, %d failed, %d skipped\n", n_passed, n_failed, n_skipped);
    return n_failed ? 1 : 0;
}
