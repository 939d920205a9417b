/* The option statistics: VK_KHR_pipeline_executable_properties's figures of
 * each pipeline on standard error (statistics.h). */
#include "statistics.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "devices.h"
#include "errors.h"

#define STATISTICS_EXTENSION VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME

void vkp_statistics_enable(const vkp_device *d, vkp_statistics_features *e, void **chain)
{
    memset(e, 0, sizeof *e);
    if (!d->ctx->statistics) return;
    if (!vkp_has_device_extension(d->ctx, d->phys, STATISTICS_EXTENSION)) {
        fprintf(stderr, "gemmhost-vulkan: statistics: device %s does not offer %s: no statistics from it\n", d->name,
                STATISTICS_EXTENSION);
        return;
    }
    e->feature = (VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pNext = *chain,
        .pipelineExecutableInfo = VK_TRUE,
    };
    *chain = &e->feature;
    e->extension = STATISTICS_EXTENSION;
}

void vkp_statistics_ready(vkp_device *d)
{
    PFN_vkGetDeviceProcAddr get = d->ctx->vk.vkGetDeviceProcAddr;
    d->get_executables = (PFN_vkGetPipelineExecutablePropertiesKHR)get(d->dev, "vkGetPipelineExecutablePropertiesKHR");
    d->get_statistics = (PFN_vkGetPipelineExecutableStatisticsKHR)get(d->dev, "vkGetPipelineExecutableStatisticsKHR");
    if (!d->get_executables || !d->get_statistics) {
        fprintf(stderr, "gemmhost-vulkan: statistics: device %s: the driver returned no %s: no statistics from it\n",
                d->name,
                !d->get_executables ? "vkGetPipelineExecutablePropertiesKHR" : "vkGetPipelineExecutableStatisticsKHR");
        d->get_executables = NULL;
        d->get_statistics = NULL;
    }
}

VkPipelineCreateFlags vkp_statistics_flags(const vkp_device *d)
{
    return d->get_statistics ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
}

/* "name = value" of one statistic, appended to line. */
static void append_statistic(char *line, size_t size, const VkPipelineExecutableStatisticKHR *s, int first)
{
    size_t used = strlen(line);
    if (used >= size) return;
    const char *sep = first ? "" : ", ";
    switch (s->format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        snprintf(line + used, size - used, "%s%s = %s", sep, s->name, s->value.b32 ? "true" : "false");
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        snprintf(line + used, size - used, "%s%s = %" PRId64, sep, s->name, s->value.i64);
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        snprintf(line + used, size - used, "%s%s = %" PRIu64, sep, s->name, s->value.u64);
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
        snprintf(line + used, size - used, "%s%s = %g", sep, s->name, s->value.f64);
        break;
    default: snprintf(line + used, size - used, "%s%s = (format %d)", sep, s->name, (int)s->format);
    }
}

enum { MAX_EXECUTABLES = 8, MAX_STATISTICS = 64 };

void vkp_statistics_print(const vkp_device *d, VkPipeline p, const char *what)
{
    if (!d->get_statistics) return;
    VkPipelineInfoKHR pipeline = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = p};
    VkPipelineExecutablePropertiesKHR exes[MAX_EXECUTABLES];
    for (int i = 0; i < MAX_EXECUTABLES; i++)
        exes[i] = (VkPipelineExecutablePropertiesKHR){.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR};
    uint32_t n_exes = MAX_EXECUTABLES;
    VkResult r = d->get_executables(d->dev, &pipeline, &n_exes, exes);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        fprintf(stderr, "gemmhost-vulkan: statistics: %s: vkGetPipelineExecutablePropertiesKHR failed: %s\n", what,
                vkp_result_name(r));
        return;
    }
    for (uint32_t e = 0; e < n_exes; e++) {
        VkPipelineExecutableInfoKHR exe = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = p, .executableIndex = e};
        VkPipelineExecutableStatisticKHR stats[MAX_STATISTICS];
        for (int i = 0; i < MAX_STATISTICS; i++)
            stats[i] = (VkPipelineExecutableStatisticKHR){.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
        uint32_t n = MAX_STATISTICS;
        r = d->get_statistics(d->dev, &exe, &n, stats);
        if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
            fprintf(stderr, "gemmhost-vulkan: statistics: %s: %s: vkGetPipelineExecutableStatisticsKHR failed: %s\n",
                    what, exes[e].name, vkp_result_name(r));
            continue;
        }
        char line[4096] = "";
        for (uint32_t i = 0; i < n; i++) append_statistic(line, sizeof line, &stats[i], i == 0);
        fprintf(stderr, "gemmhost-vulkan: statistics: %s: %s: %s\n", what, exes[e].name, line);
    }
}
