/* The exported entry, the function table, and context open/close. The
 * calls themselves live in the files of their layer (see state.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "commands.h"
#include "compile.h"
#include "devices.h"
#include "gemm.h"
#include "host_import.h"
#include "gemmhost/plugin_helpers.h"
#include "kernels.h"
#include "loader.h"

#ifndef GEMMHOST_VERSION
#define GEMMHOST_VERSION "unknown"
#endif

enum { OPTION_KERNEL_DIR, OPTION_HIDE_FEATURES, OPTION_EMULATE, OPTION_STATISTICS, OPTION_COUNT };
static const gh_option_info options[OPTION_COUNT] = {
    GH_PLUGIN_OPTION("kernel_dir", "",
                     "folder (or its vulkan/ subfolder) of <kernel>_<dtype>.spv files, glslc output "
                     "such as tiled_f32.spv (blocked: one per work, blocked_w8_f32.spv from -DWORK=8u; "
                     "f16 and bf16: -DDTYPE=float -DSTORAGE_F16 or -DSTORAGE_BF16, --target-env=vulkan1.1), "
                     "used instead of the SPIR-V built into the plugin; kernels not found there stay "
                     "built in. Default: $" GH_PLUGIN_KERNEL_DIR_ENV ", else none"),
    GH_PLUGIN_OPTION("hide_features", "",
                     "device features and extensions to treat as absent on every device, to see what a "
                     "device without them gets: storageBuffer16BitAccess (then f16 and bf16 are unsupported), "
                     "VK_KHR_cooperative_matrix (then coopmat uses VK_NV_cooperative_matrix for f16 and i8 where "
                     "the device has it), VK_NV_cooperative_matrix, VK_KHR_shader_bfloat16 (then coopmat has "
                     "no bf16). A comma-separated list. Default: none"),
    GH_PLUGIN_OPTION("emulate", "",
                     "cooperative_matrix: the coopmat kernel multiplies in plain shader code (f32 sums; i8: "
                     "exact i32 sums) instead of with the device's cooperative matrices, all else the same, "
                     "on any device with subgroups (f16 and bf16 also shaderFloat16 and shaderInt16): slow, "
                     "to test its tiling "
                     "where there are none (lavapipe) or to tell its bugs from the driver's. Default: none"),
    GH_PLUGIN_OPTION("statistics", "no",
                     "yes: each pipeline's statistics from the driver (VK_KHR_pipeline_executable_properties; "
                     "NVIDIA's give the register count, Mesa's instruction counts) printed to standard error "
                     "as the pipeline is made, a line each: what a kernel's speed can be read against. A "
                     "device without the extension says so once. Default: no"),
};

/* The hide_features option: a comma-separated list of known feature names. */
static gh_status read_hidden_features(const char *list, gh_plugin *ctx)
{
    static const struct {
        const char *name;
        unsigned extension; /* a VKP_HIDE_* bit; 0: storageBuffer16BitAccess */
    } known[] = {
        {"storageBuffer16BitAccess", 0},
        {"VK_KHR_cooperative_matrix", VKP_HIDE_KHR_COOP},
        {"VK_NV_cooperative_matrix", VKP_HIDE_NV_COOP},
        {"VK_KHR_shader_bfloat16", VKP_HIDE_BF16},
        {"VK_EXT_external_memory_host", VKP_HIDE_HOST_MEM},
    };
    const size_t n_known = sizeof known / sizeof known[0];
    for (const char *s = list ? list : ""; *s;) {
        while (*s == ' ' || *s == ',') s++;
        size_t n = strcspn(s, ", ");
        if (n == 0) break;
        size_t i = 0;
        while (i < n_known && !(strlen(known[i].name) == n && strncmp(s, known[i].name, n) == 0)) i++;
        if (i == n_known)
            return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                       "open: hide_features: unknown feature '%.*s' (known: storageBuffer16BitAccess, "
                                       "VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix, VK_KHR_shader_bfloat16, "
                                       "VK_EXT_external_memory_host)",
                                       (int)n, s);
        if (known[i].extension) ctx->hide_extensions |= known[i].extension;
        else ctx->hide_16bit_storage = 1;
        s += n;
    }
    return GH_OK;
}

/* Top down: what lives on a device (buffers, then the pipelines and their
 * layout) goes before the device itself, and the devices before the
 * context's share of the loader. No layer below tears down one above it. */
static void vkp_close(gh_plugin *ctx)
{
    if (!ctx) return;
    for (int i = 0; i < ctx->device_count; i++) {
        vkp_device *d = &ctx->devices[i];
        vkp_device_wait_idle(d);
        vkp_buffers_release(d);
        vkp_imports_release(d);
        vkp_compile_release(d);
    }
    vkp_devices_close(ctx);
    vkp_loader_close(ctx);
    free(ctx);
}

static gh_status vkp_open(const gh_option_value *opts, size_t n_opts, gh_plugin **out)
{
    const char *settings[OPTION_COUNT];
    gh_status st = gh_plugin_open_options("vulkan", options, OPTION_COUNT, opts, n_opts, out, settings);
    if (st != GH_OK) return st;
    /* "" (the default) means the same as leaving the option out. */
    const char *kernel_dir = gh_plugin_kernel_dir(settings[OPTION_KERNEL_DIR]);

    gh_plugin *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "open: out of host memory");
    if (kernel_dir && strlen(kernel_dir) >= sizeof ctx->kernel_dir) {
        free(ctx);
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: kernel_dir is longer than %zu bytes",
                                   sizeof ctx->kernel_dir - 1);
    }
    snprintf(ctx->kernel_dir, sizeof ctx->kernel_dir, "%s", kernel_dir ? kernel_dir : "");
    if ((st = read_hidden_features(settings[OPTION_HIDE_FEATURES], ctx)) != GH_OK) {
        free(ctx);
        return st;
    }
    const char *statistics = settings[OPTION_STATISTICS] ? settings[OPTION_STATISTICS] : "";
    if (strcmp(statistics, "yes") == 0) ctx->statistics = 1;
    else if (statistics[0] && strcmp(statistics, "no") != 0) {
        free(ctx);
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "open: statistics: '%s' is neither yes nor no", statistics);
    }
    const char *emulate = settings[OPTION_EMULATE] ? settings[OPTION_EMULATE] : "";
    if (strcmp(emulate, "cooperative_matrix") == 0) ctx->emulate_coop = 1;
    else if (emulate[0]) {
        free(ctx);
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "open: emulate: unknown feature '%s' (known: cooperative_matrix)", emulate);
    }

    /* No loader, no driver, no device: still a context, with zero devices
     * and ctx->note saying why (device_count puts it in last_error). */
    if (vkp_loader_open(ctx) == GH_OK) vkp_devices_open(ctx);
    *out = ctx;
    return GH_OK;
}

static const gh_plugin_api api = {
    GH_PLUGIN_API_HEAD("vulkan", "Vulkan compute shaders (SPIR-V compiled by glslc at build time)", GEMMHOST_VERSION,
                       options),
    GH_PLUGIN_API_CALLS(vkp),
    .get_proc = gh_plugin_no_extras,
    .host_register = vkp_host_register,
    .host_unregister = vkp_host_unregister,
};

GH_PLUGIN_ENTRY(api)
