/* Physical devices and what they report (gh_device_info); the logical
 * device, queue, command buffer and timestamp queries behind each. */
#ifndef GH_VULKAN_DEVICES_H
#define GH_VULKAN_DEVICES_H

#include "state.h"

/* Lists the devices with a compute queue into ctx->devices; with none,
 * ctx->note says why. */
gh_status vkp_devices_open(struct gh_plugin *ctx);
/* Destroys every logical device and frees the list. What lives on a device
 * (buffers, pipelines) must be released first: see entry.c's close. */
void vkp_devices_close(struct gh_plugin *ctx);

/* The api's device_count and device_info. */
int vkp_device_count(gh_plugin *ctx);
const gh_device_info *vkp_device_info(gh_plugin *ctx, int device);
/* A device index of a call: GH_NO_DEVICE (saying why) when the context has
 * none, GH_INVALID_ARGUMENT when out of range or ctx is NULL. */
gh_status vkp_check_device(const struct gh_plugin *ctx, const char *call, int device);

/* Whether phys offers the device extension `name`. */
int vkp_has_device_extension(struct gh_plugin *ctx, VkPhysicalDevice phys, const char *name);

/* Creates the logical device, queue, command buffer and friends on first use. */
gh_status vkp_device_ready(vkp_device *d);
/* Waits until the device has nothing running (no-op before first use). */
void vkp_device_wait_idle(vkp_device *d);
/* Index of a memory type allowed by type_bits having all `required` flags,
 * preferring one that also has `preferred`; -1 when none. */
int vkp_memory_type(const vkp_device *d, uint32_t type_bits, VkMemoryPropertyFlags required,
                    VkMemoryPropertyFlags preferred);

#endif
