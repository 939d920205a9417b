#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench.h"
#include "plugin_handle.h"
#include "seeded.h"
#include "timing.h"

#define REPEATS 5
#define SAMPLES 64

/* A few entries of C against an f64 reference, with the K-scaled bound. */
static int spot_check(const float *a, const float *b, const float *c, int64_t n)
{
    uint64_t state = 12345;
    for (int s = 0; s < SAMPLES; s++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        int64_t i = (int64_t)((state >> 33) % (uint64_t)n), j = (int64_t)((state >> 13) % (uint64_t)n);
        double sum = 0, abs_sum = 0;
        for (int64_t p = 0; p < n; p++) {
            sum += (double)a[i * n + p] * b[p * n + j];
            abs_sum += fabs((double)a[i * n + p] * b[p * n + j]);
        }
        double u = 0x1.0p-24, bound = (double)(n + 2) * u / (1 - (double)(n + 2) * u) * abs_sum;
        if (!(fabs(c[i * n + j] - sum) <= bound)) return 0;
    }
    return 1;
}

typedef struct bench_config {
    const char *kernel;
    size_t n_params;
    int64_t params[8];
} bench_config;

static void bench_size(const gh_plugin_api *api, gh_plugin *ctx, int device, int is_software, int64_t n)
{
    size_t count = (size_t)(n * n), bytes = count * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    gh_buffer *da = NULL, *db = NULL, *dc = NULL;
    if (!a || !b || !c) {
        printf("  %lld: out of host memory\n", (long long)n);
        goto done;
    }
    gh_test_seeded_f32(a, (int64_t)count, 7, 0);
    gh_test_seeded_f32(b, (int64_t)count, 7, 1);
    gh_status st = api->buffer_alloc(ctx, device, bytes, &da);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, bytes, &db);
    if (st == GH_OK) st = api->buffer_alloc(ctx, device, bytes, &dc);
    if (st == GH_OK) st = api->upload(ctx, da, 0, a, bytes);
    if (st == GH_OK) st = api->upload(ctx, db, 0, b, bytes);
    if (st != GH_OK) {
        printf("  %lld: setup failed: %s\n", (long long)n, api->last_error(ctx));
        goto done;
    }
    /* Hardware: every blocked tile x work and three warptile shapes (those
     * over the device's limits print why), and CLBlast; software: a few,
     * each is a compile. */
    static const bench_config hardware[] = {{"naive", 1, {16}},
                                            {"tiled", 1, {8}},
                                            {"tiled", 1, {16}},
                                            {"tiled", 1, {32}},
                                            {"blocked", 2, {32, 2}},
                                            {"blocked", 2, {32, 4}},
                                            {"blocked", 2, {32, 8}},
                                            {"blocked", 2, {64, 2}},
                                            {"blocked", 2, {64, 4}},
                                            {"blocked", 2, {64, 8}},
                                            {"blocked", 2, {128, 2}},
                                            {"blocked", 2, {128, 4}},
                                            {"blocked", 2, {128, 8}},
                                            {"warptile", 7, {128, 128, 16, 64, 32, 8, 8}},
                                            {"warptile", 7, {128, 128, 8, 32, 64, 8, 8}},
                                            {"warptile", 7, {128, 256, 8, 64, 32, 8, 8}},
                                            {"clblast", 0, {0}}};
    static const bench_config software[] = {{"naive", 1, {16}},
                                            {"tiled", 1, {16}},
                                            {"blocked", 2, {64, 4}},
                                            {"blocked", 2, {128, 8}},
                                            {"warptile", 7, {128, 128, 16, 64, 32, 8, 8}},
                                            {"clblast", 0, {0}}};
    const bench_config *configs = is_software ? software : hardware;
    const size_t n_configs = is_software ? sizeof software / sizeof software[0] : sizeof hardware / sizeof hardware[0];
    double naive_gflops = 0;
    for (size_t cfg = 0; cfg < n_configs; cfg++) {
        const bench_config *bc = &configs[cfg];
        int kernel = gh_test_find_kernel(api, ctx, bc->kernel);
        char label[48];
        const int64_t *p = bc->params;
        if (bc->n_params == 7) /* warptile: block, warp and work-item tiles */
            snprintf(label, sizeof label, "%s %lldx%lldx%lld/%lldx%lld/%lldx%lld", bc->kernel, (long long)p[0],
                     (long long)p[1], (long long)p[2], (long long)p[3], (long long)p[4], (long long)p[5],
                     (long long)p[6]);
        else if (bc->n_params == 2)
            snprintf(label, sizeof label, "%-7s %3lldx%lld", bc->kernel, (long long)p[0], (long long)p[1]);
        else if (bc->n_params == 1) snprintf(label, sizeof label, "%-7s %3lld", bc->kernel, (long long)p[0]);
        else snprintf(label, sizeof label, "%s", bc->kernel);
        gh_gemm_args args = gh_test_square_args(n, da, db, dc, bc->params, bc->n_params);
        /* The warm-up run also builds the kernel. */
        double median = gh_test_median_kernel_ms(api, ctx, device, kernel, &args, REPEATS, &st);
        if (st != GH_OK) {
            printf("  %5lld  %-30s  %s\n", (long long)n, label, api->last_error(ctx));
            st = GH_OK;
            continue;
        }
        double gflops = gh_test_gflops(n, n, n, median);
        if (cfg == 0) naive_gflops = gflops;
        int ok = api->download(ctx, dc, 0, c, bytes) == GH_OK && spot_check(a, b, c, n);
        printf("  %5lld  %-30s  %10.3f ms  %9.1f GFLOP/s  %5.2fx naive  %s\n", (long long)n, label, median, gflops,
               naive_gflops > 0 ? gflops / naive_gflops : 0.0, ok ? "ok" : "WRONG");
        fflush(stdout);
    }
done:
    if (da) api->buffer_free(ctx, da);
    if (db) api->buffer_free(ctx, db);
    if (dc) api->buffer_free(ctx, dc);
    free(a);
    free(b);
    free(c);
}

int bench_run(const gh_plugin_api *api, gh_plugin *ctx, const int64_t *sizes, int n_sizes)
{
    static const int64_t hardware_sizes[] = {1024, 2048, 4096}, software_sizes[] = {256, 512};
    for (int d = 0; d < api->device_count(ctx); d++) {
        const gh_device_info *info = api->device_info(ctx, d);
        printf("device %d: %s (%s, %s)\n", d, info->name, info->platform, info->api);
        printf("      n  kernel and params                    median      throughput     vs naive    check\n");
        const int64_t *list = sizes;
        int count = n_sizes;
        if (count == 0) {
            list = info->is_software ? software_sizes : hardware_sizes;
            count = info->is_software ? 2 : 3;
        }
        for (int s = 0; s < count; s++) bench_size(api, ctx, d, info->is_software, list[s]);
    }
    return 0;
}
