/* The plugin's face: the ABI entry, the function table, options, and the
 * calls that only look things up. The work lives in devices.c, buffers.c,
 * programs.c and gemm.c. */
#include <stdlib.h>
#include <string.h>
#include "buffers.h"
#include "devices.h"
#include "gemm.h"
#include "kernels.h"
#include "last_error.h"
#include "programs.h"

#define PLUGIN_VERSION "0.1.0"

enum { OPTION_PLATFORM, OPTION_KERNEL_DIR, OPTION_COUNT };

static const gh_option_info options[OPTION_COUNT] = {
    [OPTION_PLATFORM] = {
        .size = sizeof(gh_option_info),
        .name = "platform",
        .description = "use only platforms whose name contains this text (case-insensitive), "
                       "e.g. NVIDIA or Portable; empty: every platform",
        .default_value = "",
    },
    [OPTION_KERNEL_DIR] = {
        .size = sizeof(gh_option_info),
        .name = "kernel_dir",
        .description = "read the .cl kernel sources from this directory (or its opencl/ folder) "
                       "instead of the copies built into the plugin; default: $GEMMHOST_KERNEL_DIR",
        .default_value = "",
    },
};

static char *copy_string(const char *s)
{
    char *copy = malloc(strlen(s) + 1);
    if (copy) strcpy(copy, s);
    return copy;
}

static void plugin_close(gh_plugin *ctx)
{
    if (!ctx) return;
    for (int i = 0; i < ctx->device_count; i++) {
        ocl_buffers_release(&ctx->devices[i]);
        ocl_programs_release(&ctx->devices[i]);
    }
    ocl_devices_release(ctx);
    free(ctx->kernel_dir);
    free(ctx);
}

static gh_status plugin_open(const gh_option_value *values, size_t n_values, gh_plugin **out)
{
    if (!out) return ocl_fail(GH_INVALID_ARGUMENT, "open: NULL result pointer");
    if (n_values && !values) return ocl_fail(GH_INVALID_ARGUMENT, "open: NULL options");
    const char *settings[OPTION_COUNT] = {NULL, NULL};
    for (size_t i = 0; i < n_values; i++) {
        int found = -1;
        for (int o = 0; o < OPTION_COUNT; o++)
            if (values[i].name && strcmp(values[i].name, options[o].name) == 0) found = o;
        if (found < 0)
            return ocl_fail(GH_INVALID_ARGUMENT, "unknown option '%s' of the opencl plugin (known: platform, kernel_dir)",
                            values[i].name ? values[i].name : "(null)");
        settings[found] = values[i].value;
    }
    const char *platform = settings[OPTION_PLATFORM];
    const char *kernel_dir = settings[OPTION_KERNEL_DIR];
    if (!kernel_dir || !*kernel_dir) kernel_dir = getenv("GEMMHOST_KERNEL_DIR");

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return ocl_fail(GH_OUT_OF_MEMORY, "out of host memory opening the opencl plugin");
    if (kernel_dir && *kernel_dir && !(ctx->kernel_dir = copy_string(kernel_dir))) {
        plugin_close(ctx);
        return ocl_fail(GH_OUT_OF_MEMORY, "out of host memory opening the opencl plugin");
    }
    gh_status status = ocl_devices_discover(ctx, platform && *platform ? platform : NULL);
    if (status != GH_OK) {
        plugin_close(ctx);
        return status;
    }
    /* No device is not a failure: the host lists the plugin and shows why. */
    if (ctx->device_count == 0) ocl_fail(GH_NO_DEVICE, "%s", ctx->no_device_reason);
    *out = ctx;
    return GH_OK;
}

static const char *plugin_last_error(gh_plugin *ctx)
{
    (void)ctx; /* errors are kept per thread, not per context */
    return ocl_last_error();
}

static int plugin_device_count(gh_plugin *ctx)
{
    if (!ctx) return 0;
    /* Set again here, so that last_error() after device_count() explains a 0
     * whichever thread opened the context. */
    if (ctx->device_count == 0) ocl_fail(GH_NO_DEVICE, "%s", ctx->no_device_reason);
    return ctx->device_count;
}

static const gh_device_info *plugin_device_info(gh_plugin *ctx, int device)
{
    if (!ctx || device < 0 || device >= ctx->device_count) {
        ocl_fail(GH_INVALID_ARGUMENT, "device_info: no device %d", device);
        return NULL;
    }
    return &ctx->devices[device].info;
}

static int plugin_kernel_count(gh_plugin *ctx)
{
    (void)ctx;
    return OCL_KERNEL_COUNT;
}

static const gh_kernel_info *plugin_kernel_info(gh_plugin *ctx, int kernel)
{
    (void)ctx;
    if (kernel < 0 || kernel >= OCL_KERNEL_COUNT) {
        ocl_fail(GH_INVALID_ARGUMENT, "kernel_info: no kernel %d", kernel);
        return NULL;
    }
    return &ocl_kernels[kernel].info;
}

static gh_status plugin_synchronize(gh_plugin *ctx, int device)
{
    if (!ctx || device < 0 || device >= ctx->device_count)
        return ocl_fail(GH_INVALID_ARGUMENT, "synchronize: no device %d", device);
    ocl_device *dev = &ctx->devices[device];
    if (!dev->queue) return GH_OK; /* nothing was ever queued */
    cl_int err = clFinish(dev->queue);
    if (err != CL_SUCCESS) return ocl_fail_cl(err, "clFinish", "synchronizing '%s'", dev->name);
    return GH_OK;
}

static void *plugin_get_proc(const char *name)
{
    (void)name; /* no extras yet */
    return NULL;
}

static const gh_plugin_api api = {
    .size = sizeof(gh_plugin_api),
    .abi_major = GEMMHOST_ABI_MAJOR,
    .abi_minor = GEMMHOST_ABI_MINOR,
    .name = "opencl",
    .description = "OpenCL through the ICD loader: every platform and device, naive, tiled and blocked "
                   "kernels built at run time",
    .version = PLUGIN_VERSION,
    .options = options,
    .n_options = OPTION_COUNT,
    .open = plugin_open,
    .close = plugin_close,
    .last_error = plugin_last_error,
    .device_count = plugin_device_count,
    .device_info = plugin_device_info,
    .kernel_count = plugin_kernel_count,
    .kernel_info = plugin_kernel_info,
    .buffer_alloc = ocl_buffer_alloc,
    .buffer_free = ocl_buffer_free,
    .upload = ocl_upload,
    .download = ocl_download,
    .gemm = ocl_gemm,
    .synchronize = plugin_synchronize,
    .get_proc = plugin_get_proc,
};

GEMMHOST_EXPORT gh_status gemmhost_plugin_entry(gh_entry_request *req)
{
    if (!req || req->size < offsetof(gh_entry_request, api) + sizeof req->api)
        return GH_INVALID_ARGUMENT;
    req->plugin_abi_major = GEMMHOST_ABI_MAJOR;
    if (req->host_abi_major != GEMMHOST_ABI_MAJOR) {
        req->api = NULL;
        return GH_VERSION_MISMATCH;
    }
    if (req->abi_minor > GEMMHOST_ABI_MINOR) req->abi_minor = GEMMHOST_ABI_MINOR;
    req->api = &api;
    return GH_OK;
}
