/* What a device offers the coopmat kernel: the cooperative-matrix extension
 * (VK_KHR_cooperative_matrix, else VK_NV_cooperative_matrix for f16), the
 * shapes it reports, the features the kernel's SPIR-V declares; and what
 * device creation then enables. */
#ifndef GH_VULKAN_COOPMAT_H
#define GH_VULKAN_COOPMAT_H

#include "state.h"

/* Fills d->coop (d->props, d->name and d->has_16bit_storage already set):
 * the extension and shapes, or per dtype why the kernel cannot run. */
void vkp_coop_query(struct gh_plugin *ctx, vkp_device *d);

/* What vkp_coop_enable turns on at device creation, in storage that must
 * live until vkCreateDevice returns. */
typedef struct vkp_coop_features {
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR khr;
    VkPhysicalDeviceCooperativeMatrixFeaturesNV nv;
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16;
    VkPhysicalDeviceShaderFloat16Int8Features float16;
    VkPhysicalDeviceVulkanMemoryModelFeatures memory_model;
    const char *extensions[2];
    uint32_t n_extensions;
} vkp_coop_features;

/* Where d can run coopmat: its extensions into e->extensions, its feature
 * structs chained in front of *chain, shaderInt16 into *core. Elsewhere
 * nothing (e->n_extensions = 0). */
void vkp_coop_enable(const vkp_device *d, vkp_coop_features *e, void **chain, VkPhysicalDeviceFeatures *core);

/* vkCreateDevice failed with what vkp_coop_enable asked for: coopmat cannot
 * run on d, and says so (the device is then made without it). */
void vkp_coop_failed(vkp_device *d, VkResult result);

#endif
