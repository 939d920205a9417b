/*
 * Every Vulkan function the plugin calls, as X-macro lists, and the tables
 * they make. The plugin does not link libvulkan: loader.c dlopens it and
 * fills the tables from these lists, so a machine without a loader still
 * loads the plugin. (VK_NO_PROTOTYPES, set by CMakeLists.txt, keeps
 * vulkan.h from declaring functions nothing defines.)
 */
#ifndef GH_VULKAN_VK_FUNCTIONS_H
#define GH_VULKAN_VK_FUNCTIONS_H

#include <vulkan/vulkan.h>

#include "vk_coopmat.h"

/* Loaded with vkGetInstanceProcAddr(NULL, ...) before an instance exists. */
#define VKP_GLOBAL_FUNCTIONS(X) \
    X(vkCreateInstance)         \
    X(vkEnumerateInstanceExtensionProperties)

/* Loaded with vkGetInstanceProcAddr(instance, ...). */
#define VKP_INSTANCE_FUNCTIONS(X)               \
    X(vkDestroyInstance)                        \
    X(vkEnumeratePhysicalDevices)               \
    X(vkGetPhysicalDeviceProperties)            \
    X(vkGetPhysicalDeviceFeatures)              \
    X(vkGetPhysicalDeviceMemoryProperties)      \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkEnumerateDeviceExtensionProperties)     \
    X(vkCreateDevice)                           \
    X(vkGetDeviceProcAddr)

/* Loaded per device with vkGetDeviceProcAddr: devices may belong to
 * different drivers, and this skips the loader's dispatch trampolines. */
#define VKP_DEVICE_FUNCTIONS(X)      \
    X(vkDestroyDevice)               \
    X(vkGetDeviceQueue)              \
    X(vkDeviceWaitIdle)              \
    X(vkQueueSubmit)                 \
    X(vkQueueWaitIdle)               \
    X(vkCreateCommandPool)           \
    X(vkDestroyCommandPool)          \
    X(vkAllocateCommandBuffers)      \
    X(vkBeginCommandBuffer)          \
    X(vkEndCommandBuffer)            \
    X(vkResetCommandBuffer)          \
    X(vkCreateFence)                 \
    X(vkDestroyFence)                \
    X(vkWaitForFences)               \
    X(vkResetFences)                 \
    X(vkCreateBuffer)                \
    X(vkDestroyBuffer)               \
    X(vkGetBufferMemoryRequirements) \
    X(vkAllocateMemory)              \
    X(vkFreeMemory)                  \
    X(vkBindBufferMemory)            \
    X(vkMapMemory)                   \
    X(vkUnmapMemory)                 \
    X(vkCreateShaderModule)          \
    X(vkDestroyShaderModule)         \
    X(vkCreateDescriptorSetLayout)   \
    X(vkDestroyDescriptorSetLayout)  \
    X(vkCreateDescriptorPool)        \
    X(vkDestroyDescriptorPool)       \
    X(vkAllocateDescriptorSets)      \
    X(vkUpdateDescriptorSets)        \
    X(vkCreatePipelineLayout)        \
    X(vkDestroyPipelineLayout)       \
    X(vkCreateComputePipelines)      \
    X(vkDestroyPipeline)             \
    X(vkCreateQueryPool)             \
    X(vkDestroyQueryPool)            \
    X(vkGetQueryPoolResults)         \
    X(vkCmdPipelineBarrier)          \
    X(vkCmdCopyBuffer)               \
    X(vkCmdBindPipeline)             \
    X(vkCmdBindDescriptorSets)       \
    X(vkCmdPushConstants)            \
    X(vkCmdDispatch)                 \
    X(vkCmdResetQueryPool)           \
    X(vkCmdWriteTimestamp)

#define VKP_DECLARE(name) PFN_##name name;

/* Filled once per process (loader.c) and copied into each context. */
typedef struct vkp_instance_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    VKP_GLOBAL_FUNCTIONS(VKP_DECLARE)
    VKP_INSTANCE_FUNCTIONS(VKP_DECLARE)
    /* Vulkan 1.1; NULL on a 1.0 instance. */
    PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion;
    PFN_vkGetPhysicalDeviceProperties2 vkGetPhysicalDeviceProperties2;
    PFN_vkGetPhysicalDeviceFeatures2 vkGetPhysicalDeviceFeatures2;
    /* VK_KHR_cooperative_matrix, VK_NV_cooperative_matrix (coopmat.c); NULL
     * where neither the loader nor a driver has them. */
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR;
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV vkGetPhysicalDeviceCooperativeMatrixPropertiesNV;
} vkp_instance_fns;

/* Filled per logical device (loader.c's vkp_load_device_functions). */
typedef struct vkp_device_fns {
    VKP_DEVICE_FUNCTIONS(VKP_DECLARE)
} vkp_device_fns;

#undef VKP_DECLARE

#endif
