/* The C plugin's GEMM; see gemm.h. */
#define _GNU_SOURCE
#include "gemm.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas.h"
#include "buffers.h"
#include "kernels.h"
#include "loops.h"

typedef struct gemm_parts {
    const cpu_gemm_job *jobs; /* one per part */
    int kernel;
} gemm_parts;

static int run_part(void *arg, int part)
{
    const gemm_parts *g = arg;
    return g->kernel == KERNEL_NAIVE ? cpu_gemm_naive(&g->jobs[part]) : cpu_gemm_tiled(&g->jobs[part]);
}

/* The loops have no index limit of their own: the generic checks are all. */
gh_status cpu_check_gemm(gh_plugin *ctx, const char *call, int device, int kernel, const gh_gemm_args *g)
{
    gh_status s = gh_plugin_check_device(call, device, DEVICE_COUNT, NULL);
    if (s == GH_OK) s = gh_plugin_check_index(call, "kernel", kernel, KERNEL_COUNT);
    if (s != GH_OK) return s;
    const gh_plugin_gemm_target target = {device, &ctx->info, &cpu_kernels[kernel], 0, cpu_extent};
    return gh_plugin_check_gemm(call, g, &target);
}

double cpu_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The CPU is the device: its clock is the device clock. */
static gh_status finish_timing(gh_gemm_timing *timing, double elapsed_ms)
{
    if (timing && GH_HAS_MEMBER(timing, gh_gemm_timing, kernel_ms)) timing->kernel_ms = elapsed_ms;
    if (timing && GH_HAS_MEMBER(timing, gh_gemm_timing, clock)) timing->clock = GH_CLOCK_DEVICE;
    return GH_OK;
}

gh_status cpu_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *g, gh_gemm_timing *timing)
{
    gh_status s = cpu_check_gemm(ctx, "gemm", device, kernel, g);
    if (s != GH_OK) return s;
    double elapsed = 0;
    if (kernel == KERNEL_BLAS) {
        if ((s = cpu_gemm_blas(ctx, g, &elapsed)) != GH_OK) return s;
        return finish_timing(timing, elapsed);
    }
    int64_t tile = kernel == KERNEL_TILED ? g->params[0] : 1; /* one of tile_values, checked above */

    const gh_plugin_gemm_types types = gh_plugin_gemm_types_of(g);
    const size_t elem_a = gh_plugin_dtype_size(types.a), elem_b = gh_plugin_dtype_size(types.b),
                 elem_c = gh_plugin_dtype_size(types.c);
    int n_workers = ctx->threads;
    if (n_workers > g->m) n_workers = (int)g->m; /* no idle threads on thin C */
    cpu_gemm_job *jobs = calloc((size_t)n_workers, sizeof *jobs);
    if (!jobs) return fail(GH_OUT_OF_MEMORY, "out of host memory for %d workers", n_workers);
    for (int w = 0; w < n_workers; w++) {
        jobs[w] = (cpu_gemm_job){
            .args = g,
            .types = types,
            .a = g->a->data + g->a_offset * elem_a,
            .b = g->b->data + g->b_offset * elem_b,
            .c = g->c->data + g->c_offset * elem_c,
            .row_begin = g->m * w / n_workers,
            .row_end = g->m * (w + 1) / n_workers,
            .tile = tile,
        };
    }
    /* The time covers handing the rows out, the multiply and its end, not
     * the threads' start (once per context, at its first GEMM). */
    gemm_parts parts = {jobs, kernel};
    int rc = cpu_pool_run(ctx->pool, n_workers, run_part, &parts, &elapsed);
    free(jobs);
    if (rc > 0) return fail(GH_ERROR, "could not start %d threads: %s", ctx->threads - 1, strerror(rc));
    if (rc < 0) return fail(GH_ERROR, "a worker thread could not allocate its scratch memory");

    return finish_timing(timing, elapsed);
}

gh_status cpu_synchronize(gh_plugin *ctx, int device)
{
    (void)ctx;
    /* Every call above is already complete when it returns. */
    return gh_plugin_check_device("synchronize", device, DEVICE_COUNT, NULL);
}
