/* The plugin's face: its options, open and close (the one place that knows
 * the order things are torn down in), the function table and the exported
 * entry. The calls themselves live in devices.c, kernels.c, buffers.c and
 * gemm.c (clblast.c for the kernel that is CLBlast's). */
#include <stdlib.h>
#include <string.h>
#include <gemmhost/plugin_helpers.h>
#include "buffers.h"
#include "clblast.h"
#include "compile.h"
#include "devices.h"
#include "gemm.h"
#include "kernels.h"

#define PLUGIN_VERSION "0.1.0"

enum { OPTION_PLATFORM, OPTION_KERNEL_DIR, OPTION_CLBLAST, OPTION_COUNT };

static const gh_option_info options[OPTION_COUNT] = {
    [OPTION_PLATFORM] = GH_PLUGIN_OPTION("platform", "",
                                         "use only platforms whose name contains this text (case-insensitive), "
                                         "e.g. NVIDIA or Portable; empty: every platform"),
    [OPTION_KERNEL_DIR] = GH_PLUGIN_OPTION("kernel_dir", "",
                                           "read the .cl kernel sources from this directory (or its opencl/ "
                                           "folder) instead of the copies built into the plugin; default: "
                                           "$" GH_PLUGIN_KERNEL_DIR_ENV),
    [OPTION_CLBLAST] = GH_PLUGIN_OPTION("clblast", "",
                                        "the CLBlast library of kernel clblast, loaded at its first GEMM (a file "
                                        "or soname; default: " OCL_CLBLAST_LIBRARY ")"),
};

static char *copy_string(const char *s)
{
    char *copy = malloc(strlen(s) + 1);
    if (copy) strcpy(copy, s);
    return copy;
}

/* From the top down: CLBlast's cached programs, buffers and programs of each
 * device, then the devices' queues and contexts. */
static void ocl_close(gh_plugin *ctx)
{
    if (!ctx) return;
    ocl_clblast_close(&ctx->clblast);
    for (int i = 0; i < ctx->device_count; i++) {
        ocl_buffers_release(&ctx->devices[i]);
        ocl_programs_release(&ctx->devices[i]);
    }
    ocl_devices_release(ctx);
    free(ctx->kernel_dir);
    free(ctx->clblast_library);
    free(ctx);
}

static gh_status ocl_open(const gh_option_value *values, size_t n_values, gh_plugin **out)
{
    const char *settings[OPTION_COUNT];
    gh_status status = gh_plugin_open_options("opencl", options, OPTION_COUNT, values, n_values, out, settings);
    if (status != GH_OK) return status;
    const char *platform = settings[OPTION_PLATFORM];
    const char *kernel_dir = gh_plugin_kernel_dir(settings[OPTION_KERNEL_DIR]);

    const char *clblast = settings[OPTION_CLBLAST];

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory opening the opencl plugin");
    ocl_clblast_init(&ctx->clblast);
    if ((kernel_dir && !(ctx->kernel_dir = copy_string(kernel_dir))) ||
        (clblast && *clblast && !(ctx->clblast_library = copy_string(clblast)))) {
        ocl_close(ctx);
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory opening the opencl plugin");
    }
    status = ocl_devices_discover(ctx, platform && *platform ? platform : NULL);
    if (status != GH_OK) {
        ocl_close(ctx);
        return status;
    }
    /* No device is not a failure: the host lists the plugin and shows why. */
    if (ctx->device_count == 0) gh_plugin_set_error(GH_NO_DEVICE, "%s", ctx->no_device_reason);
    *out = ctx;
    return GH_OK;
}

static const gh_plugin_api api = {
    GH_PLUGIN_API_HEAD("opencl",
                       "OpenCL through the ICD loader: every platform and device, naive, tiled, blocked and "
                       "warptile kernels built at run time, and CLBlast (loaded at run time) as the baseline",
                       PLUGIN_VERSION, options),
    GH_PLUGIN_API_CALLS(ocl),
    .get_proc = gh_plugin_no_extras,
};

/* The one exported symbol: agree on versions, hand over the table. */
GH_PLUGIN_ENTRY(api)
