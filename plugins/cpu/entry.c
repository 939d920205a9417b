/*
 * The C plugin: the template for a new backend. Its one "device" is the host
 * CPU, and its "device memory" is plain malloc'd memory.
 *
 * Each file has one job, with the same names in every plugin of this tree:
 *   entry.c    this file: the options, open/close, the table of calls and
 *              the one exported entry (GH_PLUGIN_ENTRY, at the bottom)
 *   state.h    the context and buffers the other files share
 *   kernels.c  the kernels as data (names, dtypes, parameters)
 *   devices.c  the device as a gh_device_info
 *   buffers.c  buffers and copies, and host memory (minor 1)
 *   gemm.c     gemm(): the argument checks, the launch on the pool, timing
 *   streams.c  the minor-1 streams (and minor 6's gemm_batch_async)
 *   loops.c    the GEMM loops themselves; pool.c the worker threads
 *   blas.c     kernel blas: the system's CBLAS, loaded at run time
 *
 * The mechanics every plugin shares come from gemmhost/plugin_helpers.h: the
 * entry, the per-thread error text (fail(), and .last_error =
 * gh_plugin_last_error), reading the options and every generic argument
 * check; what is left here is what is particular to this plugin. Check a
 * copy of it with gemmhost-conformance.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blas.h"
#include "buffers.h"
#include "devices.h"
#include "gemm.h"
#include "kernels.h"
#include "state.h"
#include "streams.h"

enum { OPTION_THREADS, OPTION_BLAS, OPTION_COUNT };
static const gh_option_info cpu_options[OPTION_COUNT] = {
    [OPTION_THREADS] = GH_PLUGIN_OPTION("threads", "0", "worker threads per GEMM (0 = one per online CPU)"),
    [OPTION_BLAS] = GH_PLUGIN_OPTION("blas", "",
                                     "the CBLAS library of kernel blas (a file or soname; default: "
                                     "libopenblas.so.0, then libblas.so.3)"),
};

static gh_status parse_threads(const char *text, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || end == text || v < 0 || v > 1024)
        return fail(GH_INVALID_ARGUMENT, "option threads: \"%s\" is not a thread count (0..1024)", text);
    *out = (int)v;
    return GH_OK;
}

static gh_status cpu_open(const gh_option_value *options, size_t n_options, gh_plugin **out)
{
    const char *settings[OPTION_COUNT];
    gh_status s = gh_plugin_open_options("cpu", cpu_options, OPTION_COUNT, options, n_options, out, settings);
    int threads = 0;
    if (s == GH_OK && settings[OPTION_THREADS]) s = parse_threads(settings[OPTION_THREADS], &threads);
    if (s != GH_OK) return s;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads == 0) threads = online > 0 ? (int)online : 1;

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (ctx) ctx->pool = cpu_pool_create(threads);
    if (!ctx || !ctx->pool) {
        free(ctx);
        return fail(GH_OUT_OF_MEMORY, "out of host memory opening the cpu plugin");
    }
    ctx->threads = threads;
    if (settings[OPTION_BLAS] && *settings[OPTION_BLAS]) ctx->blas_library = strdup(settings[OPTION_BLAS]);
    cpu_describe_device(ctx, threads);
    *out = ctx;
    return GH_OK;
}

static void cpu_close(gh_plugin *ctx)
{
    if (ctx) {
        cpu_pool_destroy(ctx->pool);
        cpu_blas_close(&ctx->blas);
        free((void *)ctx->blas_library);
    }
    free(ctx);
}

static int cpu_device_count(gh_plugin *ctx)
{
    (void)ctx;
    return DEVICE_COUNT;
}

static const gh_device_info *cpu_device_info(gh_plugin *ctx, int device)
{
    return device == 0 ? &ctx->info : NULL;
}

static int cpu_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return KERNEL_COUNT;
}

static const gh_kernel_info *cpu_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    return kernel >= 0 && kernel < KERNEL_COUNT ? &cpu_kernels[kernel] : NULL;
}

static const gh_plugin_api cpu_api = {
    GH_PLUGIN_API_HEAD("cpu", "plain C on the host CPU, multithreaded: the reference backend and plugin template",
                       "1.0", cpu_options),
    GH_PLUGIN_API_CALLS(cpu),
    .get_proc = gh_plugin_no_extras,
    GH_PLUGIN_API_STREAM_CALLS(cpu),
    .host_register = cpu_host_register,
    .host_unregister = cpu_host_unregister,
    .gemm_batch_async = cpu_gemm_batch_async,
};

/* The one exported symbol: agree on versions, hand over the table. */
GH_PLUGIN_ENTRY(cpu_api)
