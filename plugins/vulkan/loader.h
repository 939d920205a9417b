/* The Vulkan loader (libvulkan.so.1, opened at run time), the one instance
 * of the process, and the function tables of vk_functions.h. */
#ifndef GH_VULKAN_LOADER_H
#define GH_VULKAN_LOADER_H

#include "state.h"

/* Loads libvulkan and creates the instance, once per process, and copies
 * them into ctx. Anything missing leaves ctx->note saying why and returns
 * GH_NO_DEVICE; ctx stays usable, with no devices. */
gh_status vkp_loader_open(struct gh_plugin *ctx);
void vkp_loader_close(struct gh_plugin *ctx);
/* Fills fn from vkGetDeviceProcAddr; names the first missing function. */
gh_status vkp_load_device_functions(struct gh_plugin *ctx, VkDevice dev, vkp_device_fns *fn);

#endif
