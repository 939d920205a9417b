/* VkResult names, and the gh_status and error text each one gets. */
#ifndef GH_VULKAN_ERRORS_H
#define GH_VULKAN_ERRORS_H

#include <vulkan/vulkan.h>

#include "gemmhost/plugin.h"

/* "VK_ERROR_DEVICE_LOST", or "VkResult -42" for one this file does not know. */
const char *vkp_result_name(VkResult result);

/* Sets the calling thread's last_error to "<what>: <call> failed:
 * <VK_ERROR_NAME>" and returns the gh_status that fits the result (out of
 * memory, unsupported, ...). `call` may be a whole stringized expression:
 * only the function's name is kept. */
gh_status vkp_vk_fail(VkResult result, const char *call, const char *what);

/* Runs a Vulkan call and returns from the enclosing gh_status function on
 * failure, naming the call. */
#define VKP_TRY(call, what)                                                  \
    do {                                                                     \
        VkResult vkp_r_ = (call);                                            \
        if (vkp_r_ != VK_SUCCESS) return vkp_vk_fail(vkp_r_, #call, (what)); \
    } while (0)

#endif
