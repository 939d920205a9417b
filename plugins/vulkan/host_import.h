/* Host memory imported as Vulkan memory (VK_EXT_external_memory_host, ABI
 * minor 4's host_register): an upload from, or a download into, an
 * imported range is one vkCmdCopyBuffer, not a trip through the staging
 * buffer. */
#ifndef GH_VULKAN_HOST_IMPORT_H
#define GH_VULKAN_HOST_IMPORT_H

#include "gemmhost/plugin_helpers.h"
#include "state.h"

gh_plugin_host_register_fn vkp_host_register;
gh_plugin_host_unregister_fn vkp_host_unregister;

/* The extension's name when the device offers it and hide_features does not
 * hide it (then it is enabled at creation), else NULL. */
const char *vkp_host_import_extension(vkp_device *d);
/* After creation with the extension: its function and the alignment. */
void vkp_host_import_ready(vkp_device *d);
/* The imported buffer holding [ptr, ptr + bytes) and the range's offset in
 * it; VK_NULL_HANDLE when no import holds all of it. */
VkBuffer vkp_host_imported(const vkp_device *d, const void *ptr, uint64_t bytes, VkDeviceSize *offset);
/* Frees every import still alive on the device (at close). */
void vkp_imports_release(vkp_device *d);

#endif
