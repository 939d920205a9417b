/*
 * The plugin's entry and function table: open/close, options, device and
 * kernel queries. The work itself is in devices.c, buffers.c,
 * gemm.c and, for ABI minor 1 (streams, host memory), streams.c.
 */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "devices.h"
#include "errors.h"
#include "gemm.h"
#include "compile.h"
#include "streams.h"
#include "gemmhost_cuda_extras.h"

#define KERNEL_DIR_ENV "GEMMHOST_KERNEL_DIR"

enum { OPTION_KERNEL_DIR, OPTION_COUNT };
static const gh_option_info options[OPTION_COUNT] = {[OPTION_KERNEL_DIR] = {
    .size = sizeof(gh_option_info),
    .name = "kernel_dir",
    .description = "folder with naive.cu, tiled.cu, blocked.cu and gemm_common.cuh to compile instead of the copies built into "
                   "the plugin; default $" KERNEL_DIR_ENV " (that folder or its cuda/ subfolder), else built in",
    .default_value = "",
}};

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c)
        memcpy(c, s, n);
    return c;
}

/* The kernel folder: the option, else $GEMMHOST_KERNEL_DIR, which may name
 * the whole kernels/ tree (shared with other plugins) or its cuda/ folder.
 * NULL in *out means the embedded sources. */
static gh_status choose_kernel_dir(const char *option, char **out)
{
    *out = NULL;
    const char *dir = option && option[0] ? option : NULL;
    const char *origin = "kernel_dir";
    char sub[4096];
    if (!dir) {
        const char *env = getenv(KERNEL_DIR_ENV);
        if (!env || !env[0])
            return GH_OK;
        snprintf(sub, sizeof sub, "%s/cuda", env);
        dir = gh_cuda_kernel_dir_complete(sub) ? sub : env;
        origin = "$" KERNEL_DIR_ENV " (or its cuda/ folder)";
    }
    gh_status st = gh_cuda_check_kernel_dir(dir, origin);
    if (st)
        return st;
    *out = copy_string(dir);
    return *out ? GH_OK : gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory");
}

static gh_status plugin_open(const gh_option_value *opts, size_t n_opts, gh_plugin **out)
{
    if (!out)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: out is NULL");
    *out = NULL;
    const char *settings[OPTION_COUNT];
    gh_status st = gh_plugin_read_options("cuda", options, OPTION_COUNT, opts, n_opts, settings);
    if (st)
        return st;

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "open: out of host memory for a context");
    if ((st = choose_kernel_dir(settings[OPTION_KERNEL_DIR], &ctx->kernel_dir))) {
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

static void plugin_close(gh_plugin *ctx)
{
    if (!ctx)
        return;
    /* Streams first: destroying one waits for its copies and GEMMs, which
     * use the buffers and host memory freed next. */
    gh_cuda_streams_free_all(ctx);
    gh_cuda_buffers_free_all(ctx);
    gh_cuda_host_free_all(ctx);
    gh_cuda_devices_close(ctx);
    pthread_mutex_destroy(&ctx->buffers_lock);
    pthread_mutex_destroy(&ctx->streams_lock);
    free(ctx->kernel_dir);
    free(ctx);
}

static int plugin_device_count(gh_plugin *ctx)
{
    if (!ctx)
        return 0;
    /* plugin.h: with no device, last_error() says why. */
    if (ctx->n_devices == 0)
        gh_plugin_set_error(GH_NO_DEVICE, "%s", ctx->no_device);
    return ctx->n_devices;
}

static const gh_device_info *plugin_device_info(gh_plugin *ctx, int device)
{
    if (!ctx || device < 0 || device >= ctx->n_devices) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "device_info: device %d does not exist", device);
        return NULL;
    }
    return &ctx->devices[device].info;
}

static int plugin_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return GH_CUDA_KERNEL_COUNT;
}

static const gh_kernel_info *plugin_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (kernel < 0 || kernel >= GH_CUDA_KERNEL_COUNT) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "kernel_info: kernel %d does not exist", kernel);
        return NULL;
    }
    return &gh_cuda_kernel_infos[kernel];
}

static gh_status plugin_synchronize(gh_plugin *ctx, int device)
{
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "synchronize", device, &dev);
    if (st)
        return st;
    return gh_cu_check(ctx->cu->cuCtxSynchronize(), "synchronize: cuCtxSynchronize on device %d", dev->index);
}

static void *plugin_get_proc(const char *name)
{
    if (name && strcmp(name, GEMMHOST_CUDA_COMPILE_ALL) == 0) {
        gemmhost_cuda_compile_all_fn fn = gh_cuda_compile_all;
        return (void *)fn;
    }
    return NULL;
}

static const gh_plugin_api api = {
    .size = sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = GEMMHOST_ABI_MINOR,
    .name = "cuda",
    .description = "NVIDIA GPUs through the CUDA driver API: kernels compiled at run time by NVRTC, and cuBLAS",
    .version = GEMMHOST_VERSION,
    .options = options,
    .n_options = OPTION_COUNT,
    .open = plugin_open,
    .close = plugin_close,
    .last_error = gh_plugin_last_error,
    .device_count = plugin_device_count,
    .device_info = plugin_device_info,
    .kernel_count = plugin_kernel_count,
    .kernel_info = plugin_kernel_info,
    .buffer_alloc = gh_cuda_buffer_alloc,
    .buffer_free = gh_cuda_buffer_free,
    .upload = gh_cuda_upload,
    .download = gh_cuda_download,
    .gemm = gh_cuda_gemm,
    .synchronize = plugin_synchronize,
    .get_proc = plugin_get_proc,
    .stream_create = gh_cuda_stream_create,
    .stream_destroy = gh_cuda_stream_destroy,
    .upload_2d_async = gh_cuda_upload_2d_async,
    .download_2d_async = gh_cuda_download_2d_async,
    .gemm_async = gh_cuda_gemm_async,
    .stream_synchronize = gh_cuda_stream_synchronize,
    .host_alloc = gh_cuda_host_alloc,
    .host_free = gh_cuda_host_free,
};

/* The one exported symbol: the ABI negotiation, and the thread-local error
 * text behind last_error. */
GH_PLUGIN_ENTRY(api)
