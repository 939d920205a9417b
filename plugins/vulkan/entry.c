/* The exported entry, the function table, and context open/close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkp.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

/* Shared with the other plugins: one variable points them all at a kernel
 * tree under work. */
#define KERNEL_DIR_ENV "GEMMHOST_KERNEL_DIR"

static const gh_option_info options[] = {{
    .size = sizeof(gh_option_info),
    .name = "kernel_dir",
    .description = "folder (or its vulkan/ subfolder) of <kernel>_<dtype>.spv files, glslc output "
                   "such as tiled_f32.spv (blocked: one per work, blocked_w8_f32.spv from -DWORK=8u), "
                   "used instead of the SPIR-V built into the plugin; kernels not found there stay "
                   "built in. Default: $" KERNEL_DIR_ENV ", else none",
    .default_value = "",
}};
#define N_OPTIONS (sizeof options / sizeof options[0])

static void plugin_close(gh_plugin *ctx)
{
    vkp_enter(ctx);
    if (!ctx)
        return;
    vkp_devices_close(ctx);
    vkp_loader_close(ctx);
    free(ctx);
}

static gh_status plugin_open(const gh_option_value *opts, size_t n_opts, gh_plugin **out)
{
    vkp_enter(NULL);
    if (!out)
        return vkp_fail(GH_INVALID_ARGUMENT, "open: out is NULL");
    *out = NULL;
    if (n_opts > 0 && !opts)
        return vkp_fail(GH_INVALID_ARGUMENT, "open: %zu options but no array", n_opts);

    const char *kernel_dir = getenv(KERNEL_DIR_ENV);
    for (size_t i = 0; i < n_opts; i++) {
        if (!opts[i].name || !opts[i].value)
            return vkp_fail(GH_INVALID_ARGUMENT, "open: option %zu has no name or value", i);
        if (strcmp(opts[i].name, "kernel_dir") == 0)
            kernel_dir = opts[i].value;
        else
            return vkp_fail(GH_INVALID_ARGUMENT, "open: unknown option '%s' (the Vulkan plugin knows: kernel_dir)",
                            opts[i].name);
    }

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return vkp_fail(GH_OUT_OF_MEMORY, "open: out of host memory");
    if (kernel_dir && strlen(kernel_dir) >= sizeof ctx->kernel_dir) {
        free(ctx);
        return vkp_fail(GH_INVALID_ARGUMENT, "open: kernel_dir is longer than %zu bytes", sizeof ctx->kernel_dir - 1);
    }
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", kernel_dir ? kernel_dir : "");
    vkp_enter(ctx);

    /* No loader, no driver, no device: still a context, with zero devices
     * and ctx->note saying why (last_error returns it). */
    if (vkp_loader_open(ctx) == GH_OK)
        vkp_devices_open(ctx);
    *out = ctx;
    return GH_OK;
}

static const char *plugin_last_error(gh_plugin *ctx)
{
    return vkp_last_error(ctx);
}

static int plugin_device_count(gh_plugin *ctx)
{
    vkp_enter(ctx);
    return ctx ? ctx->device_count : 0;
}

static const gh_device_info *plugin_device_info(gh_plugin *ctx, int device)
{
    vkp_enter(ctx);
    if (!ctx || device < 0 || device >= ctx->device_count) {
        vkp_fail(GH_INVALID_ARGUMENT, "device_info: no device %d", device);
        return NULL;
    }
    return &ctx->devices[device].info;
}

static int plugin_kernel_count(gh_plugin *ctx)
{
    vkp_enter(ctx);
    return VKP_KERNEL_COUNT;
}

static const gh_kernel_info *plugin_kernel_info(gh_plugin *ctx, int kernel)
{
    vkp_enter(ctx);
    if (kernel < 0 || kernel >= VKP_KERNEL_COUNT) {
        vkp_fail(GH_INVALID_ARGUMENT, "kernel_info: no kernel %d", kernel);
        return NULL;
    }
    return &vkp_kernels[kernel];
}

static gh_status plugin_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    vkp_enter(ctx);
    return vkp_buffer_alloc(ctx, device, bytes, out);
}

static void plugin_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    vkp_enter(ctx);
    vkp_buffer_free(ctx, buf);
}

static gh_status plugin_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    vkp_enter(ctx);
    return vkp_upload(ctx, dst, offset, src, bytes);
}

static gh_status plugin_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    vkp_enter(ctx);
    return vkp_download(ctx, src, offset, dst, bytes);
}

static gh_status plugin_gemm(gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args,
                             gh_gemm_timing *timing)
{
    vkp_enter(ctx);
    return vkp_gemm(ctx, device, kernel, args, timing);
}

static gh_status plugin_synchronize(gh_plugin *ctx, int device)
{
    vkp_enter(ctx);
    if (!ctx || device < 0 || device >= ctx->device_count)
        return vkp_fail(GH_INVALID_ARGUMENT, "synchronize: no device %d", device);
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
    .n_options = N_OPTIONS,
    .open = plugin_open,
    .close = plugin_close,
    .last_error = plugin_last_error,
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

GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *req)
{
    if (!req)
        return GH_INVALID_ARGUMENT;
    /* Fields past `size` belong to a newer host than this one knows of;
     * the ones below are all in ABI 1.0. */
    if (!GH_HAS_MEMBER(req, gh_entry_request, api))
        return GH_VERSION_MISMATCH;
    req->plugin_abi_major = GEMMHOST_ABI_MAJOR;
    req->api = NULL;
    if (req->host_abi_major != GEMMHOST_ABI_MAJOR)
        return GH_VERSION_MISMATCH;
    if (req->abi_minor > GEMMHOST_ABI_MINOR)
        req->abi_minor = GEMMHOST_ABI_MINOR;
    req->api = &api;
    return GH_OK;
}
