#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../check.h"
#include "device_checks.h"
#include "gemm_case.h"
#include "plugin_handle.h"

static void check_device_info(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const gh_device_info *info = api->device_info(ctx, device);
    if (!CHECK(info != NULL, "device %d: device_info", device)) return;
    CHECK(strncmp(info->api, "OpenCL", 6) == 0, "device info: api is CL_DEVICE_VERSION (\"%s\")", info->api);
    CHECK(info->platform[0] != '\0', "device info: the platform is named (\"%s\")", info->platform);
    CHECK(info->max_workgroup_size > 0, "device info: CL_DEVICE_MAX_WORK_GROUP_SIZE (%u)", info->max_workgroup_size);
    /* PoCL's device is a CPU: software. */
    if (strstr(info->platform, "Portable Computing Language"))
        CHECK(info->is_software == 1, "device info: PoCL's CPU device is software (is_software %d)", info->is_software);
}

/* blocked tile=128 work=2 wants 64 x 64 = 4096 work-items in a group. */
static void check_workgroup_limit(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    const gh_device_info *info = api->device_info(ctx, device);
    if (!info || info->max_workgroup_size >= 64 * 64) {
        check_skip("blocked tile=128 work=2 over the work-group limit: this device takes 4096 work-items");
        return;
    }
    const int64_t huge[2] = {128, 2};
    gh_status st = gemm_case_status(api, ctx, device, gh_test_find_kernel(api, ctx, "blocked"), huge, 2);
    const char *err = api->last_error(ctx);
    CHECK(st == GH_UNSUPPORTED && strstr(err, "tile=128 work=2") && strstr(err, "4096") &&
              strstr(err, "CL_DEVICE_MAX_WORK_GROUP_SIZE"),
          "blocked tile=128 work=2 (4096 work-items) is GH_UNSUPPORTED before launch, naming the limit (status %d: "
          "%s)",
          (int)st, err);
}

void device_checks(const gh_plugin_api *api, gh_plugin *ctx, int device)
{
    check_device_info(api, ctx, device);
    check_workgroup_limit(api, ctx, device);
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
    const int kernels[3] = {gh_test_find_kernel(w->api, w->ctx, "naive"), gh_test_find_kernel(w->api, w->ctx, "tiled"),
                            gh_test_find_kernel(w->api, w->ctx, "blocked")};
    for (int i = 0; i < 9; i++) {
        /* naive wg=16, tiled tile=16, blocked 128x8 */
        gemm_case c = {.kernel = kernels[i % 3],
                       .params = {i % 3 < 2 ? 16 : 128, 8},
                       .n_params = i % 3 < 2 ? 1 : 2,
                       .dtype = GH_F32,
                       .trans_a = i % 3 == 0,
                       .trans_b = i % 4 == 1,
                       .m = 61 + i,
                       .n = 47,
                       .k = 33 + 5 * i,
                       .alpha = 1.5,
                       .beta = -0.75,
                       .pad = 2,
                       .offset = 3,
                       .seed = 1000u + (uint64_t)i};
        if (gemm_case_run(w->api, w->ctx, w->device, &c, w->why, sizeof w->why) == CASE_FAIL) w->failures++;
    }
    return NULL;
}

void device_checks_threads(const gh_plugin_api *api, gh_plugin *ctx)
{
    int n = api->device_count(ctx);
    device_worker *workers = calloc((size_t)n, sizeof *workers);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    if (!CHECK(workers && threads, "threads on every device: memory for %d workers", n)) {
        free(workers);
        free(threads);
        return;
    }
    for (int d = 0; d < n; d++) {
        workers[d] = (device_worker){api, ctx, d, 0, ""};
        if (pthread_create(&threads[d], NULL, worker_thread, &workers[d]) != 0) {
            workers[d].failures = -1;
            snprintf(workers[d].why, sizeof workers[d].why, "pthread_create failed");
        }
    }
    for (int d = 0; d < n; d++) {
        if (workers[d].failures >= 0) pthread_join(threads[d], NULL);
        CHECK(workers[d].failures == 0, "device %d, driven from its own thread beside the others%s%s", d,
              workers[d].failures ? ": " : "", workers[d].why);
    }
    free(workers);
    free(threads);
}
