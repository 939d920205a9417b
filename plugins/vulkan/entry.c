/* The exported entry, the function table, and context open/close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

/* Shared with the other plugins: one variable points them all at a kernel
 * tree under work. */
#define KERNEL_DIR_ENV "GEMMHOST_KERNEL_DIR"

enum { OPTION_KERNEL_DIR, OPTION_COUNT };
static const gh_option_info options[OPTION_COUNT] = {{
    .size = sizeof(gh_option_info),
    .name = "kernel_dir",
    .description = "folder (or its vulkan/ subfolder) of <kernel>_<dtype>.spv files, glslc output "
                   "such as tiled_f32.spv (blocked: one per work, blocked_w8_f32.spv from -DWORK=8u), "
                   "used instead of the SPIR-V built into the plugin; kernels not found there stay "
                   "built in. Default: $" KERNEL_DIR_ENV ", else none",
    .default_value = "",
}};

static void plugin_close(gh_plugin *ctx)
{
    if (!ctx)
        return;
    vkp_devices_close(ctx);
    vkp_loader_close(ctx);
    free(ctx);
}

static gh_status plugin_open(const gh_option_value *opts, size_t n_opts, gh_plugin **out)
{
    if (!out)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: out is NULL");
    const char *settings[OPTION_COUNT];
    gh_status st = gh_plugin_read_options("vulkan", options, OPTION_COUNT, opts, n_opts, settings);
    if (st != GH_OK)
        return st;
    /* "" (the default) means the same as leaving the option out. */
    const char *kernel_dir = settings[OPTION_KERNEL_DIR];
    if (!kernel_dir || !kernel_dir[0])
        kernel_dir = getenv(KERNEL_DIR_ENV);

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "open: out of host memory");
    if (kernel_dir && strlen(kernel_dir) >= sizeof ctx->kernel_dir) {
        free(ctx);
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: kernel_dir is longer than %zu bytes",
                                   sizeof ctx->kernel_dir - 1);
    }
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", kernel_dir ? kernel_dir : "");

    /* No loader, no driver, no device: still a context, with zero devices
     * and ctx->note saying why (device_count puts it in last_error). */
    if (vkp_loader_open(ctx) == GH_OK)
        vkp_devices_open(ctx);
    *out = ctx;
    return GH_OK;
}

static int plugin_device_count(gh_plugin *ctx)
{
    if (!ctx)
        return 0;
    /* Said on every call, so that the thread asking learns why there are none. */
    if (ctx->device_count == 0)
        gh_plugin_set_error(GH_NO_DEVICE, "%s", ctx->note);
    return ctx->device_count;
}

static const gh_device_info *plugin_device_info(gh_plugin *ctx, int device)
{
    if (vkp_check_device(ctx, "device_info", device) != GH_OK)
        return NULL;
    return &ctx->devices[device].info;
}

static int plugin_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return VKP_KERNEL_COUNT;
}

static const gh_kernel_info *plugin_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (gh_plugin_check_index("kernel_info", "kernel", kernel, VKP_KERNEL_COUNT) != GH_OK)
        return NULL;
    return &vkp_kernels[kernel];
}

static gh_status plugin_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    return vkp_buffer_alloc(ctx, device, bytes, out);
}

static void plugin_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    vkp_buffer_free(ctx, buf);
}

static gh_status plugin_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    return vkp_upload(ctx, dst, offset, src, bytes);
}

static gh_status plugin_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    return vkp_download(ctx, src, offset, dst, bytes);
}

static gh_status plugin_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args,
                             gh_gemm_timing *timing)
{
    return vkp_gemm(ctx, device, kernel, args, timing);
}

static gh_status plugin_synchronize(gh_plugin *ctx, int device)
{
    gh_status st = vkp_check_device(ctx, "synchronize", device);
    if (st != GH_OK)
        return st;
    vkp_device *d = &ctx->devices[device];
    if (!d->ready)
        return GH_OK; /* nothing was ever queued */
    VKP_TRY(d->fn.vkQueueWaitIdle(d->queue), d->name);
    return GH_OK;
}

static void *plugin_get_proc(const char *name)
{
    (void)name;
    return NULL;
}

static const gh_plugin_api api = {
    .size = sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = GEMMHOST_ABI_MINOR,
    .name = "vulkan",
    .description = "Vulkan compute shaders (SPIR-V compiled by glslc at build time)",
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
    .buffer_alloc = plugin_buffer_alloc,
    .buffer_free = plugin_buffer_free,
    .upload = plugin_upload,
    .download = plugin_download,
    .gemm = plugin_gemm,
    .synchronize = plugin_synchronize,
    .get_proc = plugin_get_proc,
};

GH_PLUGIN_ENTRY(api)
