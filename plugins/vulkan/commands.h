/* One-shot command buffers: every operation records the device's one
 * command buffer, submits it and waits, so the ABI's calls are all
 * blocking. */
#ifndef GH_VULKAN_COMMANDS_H
#define GH_VULKAN_COMMANDS_H

#include "state.h"

/* Resets and begins the device's command buffer. */
gh_status vkp_commands_begin(vkp_device *d);
/* Ends, submits, and waits for the device's command buffer. */
gh_status vkp_commands_submit(vkp_device *d, const char *what);
/* Makes every earlier write on the queue visible to the given stage/access. */
void vkp_barrier(vkp_device *d, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                 VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
/* The api's synchronize: waits for the device's queue. */
gh_status vkp_synchronize(gh_plugin *ctx, int device);

#endif
