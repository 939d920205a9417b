#ifndef VKP_STATISTICS_H
#define VKP_STATISTICS_H
/* The option statistics = yes: the driver's own figures for each pipeline
 * (VK_KHR_pipeline_executable_properties; NVIDIA's include the register
 * count), printed to standard error as the plugin creates the pipeline, so
 * that a kernel's speed can be read against what the driver made of it. */
#include "state.h"

/* What vkp_statistics_enable turns on at device creation, in storage that
 * must live until vkCreateDevice returns. */
typedef struct vkp_statistics_features {
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR feature;
    const char *extension; /* or NULL: not asked for, or not offered */
} vkp_statistics_features;

/* Where statistics were asked for and d offers the extension: its feature
 * chained in front of *chain and its name in e->extension. Where it does not
 * offer it, says so once on standard error. */
void vkp_statistics_enable(const vkp_device *d, vkp_statistics_features *e, void **chain);

/* The device was created with what vkp_statistics_enable asked for: its
 * functions are looked up, and pipelines are made with their statistics. */
void vkp_statistics_ready(vkp_device *d);

/* VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR where d captures them, else 0. */
VkPipelineCreateFlags vkp_statistics_flags(const vkp_device *d);

/* One line per executable of pipeline p (named `what`) on standard error:
 * "gemmhost-vulkan: statistics: <what>: <executable>: name = value, ...".
 * A failing query is reported on that line instead; never an error of the
 * run, which goes on. */
void vkp_statistics_print(const vkp_device *d, VkPipeline p, const char *what);

#endif
