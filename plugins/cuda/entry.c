/*
 * The CUDA plugin's function table and its one exported entry: open (the
 * options, the kernel sources' folder, the devices) and close (everything
 * the context owns, top down), and get_proc's extra. Each member's work is
 * in the file named for it: devices.c, kernels.c, buffers.c, gemm.c,
 * streams.c (ABI minor 1), compile.c (NVRTC).
 */
#include <stdlib.h>
#include <string.h>

#include "gemmhost/plugin_helpers.h"
#include "gemmhost_cuda_extras.h"
#include "buffers.h"
#include "compile.h"
#include "cublaslt.h"
#include "devices.h"
#include "gemm.h"
#include "kernels.h"
#include "sources.h"
#include "state.h"
#include "streams.h"

enum { OPTION_KERNEL_DIR, OPTION_COUNT };
static const gh_option_info options[OPTION_COUNT] = {
    [OPTION_KERNEL_DIR] = GH_PLUGIN_OPTION(
        "kernel_dir", "",
        "folder with naive.cu, tiled.cu, blocked.cu and gemm_common.cuh to compile instead of the copies "
        "built into the plugin; default $" GH_CUDA_KERNEL_DIR_ENV " (that folder or its cuda/ subfolder), "
        "else built in")};

static gh_status gh_cuda_open(const gh_option_value *opts, size_t n_opts, gh_plugin **out)
{
    const char *settings[OPTION_COUNT];
    gh_status st = gh_plugin_open_options("cuda", options, OPTION_COUNT, opts, n_opts, out, settings);
    if (out) *out = NULL; /* a failed open leaves no context behind */
    if (st) return st;

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "open: out of host memory for a context");
    if ((st = gh_cuda_choose_kernel_dir(settings[OPTION_KERNEL_DIR], &ctx->kernel_dir))) {
        free(ctx);
        return st;
    }
    pthread_mutex_init(&ctx->buffers_lock, NULL);
    pthread_mutex_init(&ctx->streams_lock, NULL);
    if ((st = gh_cuda_devices_open(ctx))) {
        gh_cuda_devices_close(ctx);
        pthread_mutex_destroy(&ctx->buffers_lock);
        pthread_mutex_destroy(&ctx->streams_lock);
        free(ctx->kernel_dir);
        free(ctx);
        return st;
    }
    *out = ctx;
    return GH_OK;
}

/* Frees what the context owns, top down: streams first (destroying one
 * waits for its copies and GEMMs, which use the buffers and host memory
 * freed next), then what each device holds (its cuBLAS handle and loaded
 * modules, with its context current), then the devices themselves. */
static void gh_cuda_close(gh_plugin *ctx)
{
    if (!ctx) return;
    gh_cuda_streams_free_all(ctx);
    gh_cuda_buffers_free_all(ctx);
    gh_cuda_host_free_all(ctx);
    for (int d = 0; d < ctx->n_devices; ++d) {
        gh_cuda_device *dev = &ctx->devices[d];
        /* Cleanup can only report, not stop: keep going whatever it says. */
        gh_cuda_device_use(ctx, dev);
        gh_cuda_blas_release(ctx, dev, &dev->blas);
        gh_cuda_blas_device_release(dev);
        gh_cuda_modules_release(ctx, dev);
    }
    gh_cuda_devices_close(ctx);
    pthread_mutex_destroy(&ctx->buffers_lock);
    pthread_mutex_destroy(&ctx->streams_lock);
    free(ctx->kernel_dir);
    free(ctx);
}

static void *gh_cuda_get_proc(const char *name)
{
    if (name && strcmp(name, GEMMHOST_CUDA_COMPILE_ALL) == 0) {
        gemmhost_cuda_compile_all_fn fn = gh_cuda_compile_all;
        return (void *)fn;
    }
    if (name && strcmp(name, GEMMHOST_CUDA_COMPILE) == 0) {
        gemmhost_cuda_compile_fn fn = gh_cuda_compile_one;
        return (void *)fn;
    }
    if (name && strcmp(name, GEMMHOST_CUDA_COMPILE_TYPES) == 0) {
        gemmhost_cuda_compile_types_fn fn = gh_cuda_compile_types;
        return (void *)fn;
    }
    return NULL;
}

static const gh_plugin_api api = {
    GH_PLUGIN_API_HEAD("cuda",
                       "NVIDIA GPUs through the CUDA driver API: kernels compiled at run time by NVRTC, and cuBLAS",
                       GEMMHOST_VERSION, options),
    GH_PLUGIN_API_CALLS(gh_cuda),
    .get_proc = gh_cuda_get_proc,
    GH_PLUGIN_API_STREAM_CALLS(gh_cuda),
    .copy_peer = gh_cuda_copy_peer,
    .host_register = gh_cuda_host_register,
    .host_unregister = gh_cuda_host_unregister,
    .gemm_batch_async = gh_cuda_gemm_batch_async,
};

/* The one exported symbol: the ABI negotiation, and the thread-local error
 * text behind last_error. */
GH_PLUGIN_ENTRY(api)
