/* VkResult names, and the gh_status and error text each one gets. */
#include <stdio.h>

#include "errors.h"

#include "gemmhost/plugin_helpers.h"

const char *vkp_result_name(VkResult result)
{
    switch (result) {
#define NAME(r) \
    case r: return #r;
        NAME(VK_SUCCESS)
        NAME(VK_NOT_READY)
        NAME(VK_TIMEOUT)
        NAME(VK_EVENT_SET)
        NAME(VK_EVENT_RESET)
        NAME(VK_INCOMPLETE)
        NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(VK_ERROR_INITIALIZATION_FAILED)
        NAME(VK_ERROR_DEVICE_LOST)
        NAME(VK_ERROR_MEMORY_MAP_FAILED)
        NAME(VK_ERROR_LAYER_NOT_PRESENT)
        NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        NAME(VK_ERROR_TOO_MANY_OBJECTS)
        NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        NAME(VK_ERROR_FRAGMENTED_POOL)
        NAME(VK_ERROR_UNKNOWN)
        NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
        NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        NAME(VK_ERROR_FRAGMENTATION)
        NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        NAME(VK_PIPELINE_COMPILE_REQUIRED)
        NAME(VK_ERROR_SURFACE_LOST_KHR)
        NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        NAME(VK_SUBOPTIMAL_KHR)
        NAME(VK_ERROR_OUT_OF_DATE_KHR)
        NAME(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
        NAME(VK_ERROR_VALIDATION_FAILED_EXT)
        NAME(VK_ERROR_INVALID_SHADER_NV)
        NAME(VK_ERROR_INVALID_DRM_FORMAT_MODIFIER_PLANE_LAYOUT_EXT)
        NAME(VK_ERROR_NOT_PERMITTED_KHR)
        NAME(VK_ERROR_FULL_SCREEN_EXCLUSIVE_MODE_LOST_EXT)
        NAME(VK_THREAD_IDLE_KHR)
        NAME(VK_THREAD_DONE_KHR)
        NAME(VK_OPERATION_DEFERRED_KHR)
        NAME(VK_OPERATION_NOT_DEFERRED_KHR)
#undef NAME
    default: break;
    }
    static _Thread_local char unknown[32];
    snprintf(unknown, sizeof unknown, "VkResult %d", (int)result);
    return unknown;
}

static gh_status status_of(VkResult result)
{
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_TOO_MANY_OBJECTS:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION: return GH_OUT_OF_MEMORY;
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return GH_UNSUPPORTED;
    case VK_ERROR_INCOMPATIBLE_DRIVER: return GH_NO_DEVICE;
    default: return GH_ERROR;
    }
}

gh_status vkp_vk_fail(VkResult result, const char *call, const char *what)
{
    /* `call` is the stringized expression, e.g. "d->fn.vkCreateBuffer(...)":
     * keep only the function name. */
    int len = 0;
    while (call[len] && call[len] != '(') len++;
    int start = len;
    while (start > 0 && call[start - 1] != '.' && call[start - 1] != '>') start--;
    call += start;
    len -= start;
    if (what && what[0])
        return gh_plugin_set_error(status_of(result), "%s: %.*s failed: %s", what, len, call, vkp_result_name(result));
    return gh_plugin_set_error(status_of(result), "%.*s failed: %s", len, call, vkp_result_name(result));
}
