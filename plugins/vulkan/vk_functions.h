/*
 * Every Vulkan function the plugin calls, as X-macro lists. The plugin does
 * not link libvulkan: entry.c/loader.c dlopen it and fill tables from these
 * lists, so a machine without a loader still loads the plugin.
 *
 * Include after defining the macros you need; each list undefines nothing.
 */

/* Loaded with vkGetInstanceProcAddr(NULL, ...) before an instance exists. */
#define VKP_GLOBAL_FUNCTIONS(X)                                  \
    X(vkCreateInstance)                                          \
    X(vkEnumerateInstanceExtensionProperties)

/* Loaded with vkGetInstanceProcAddr(instance, ...). */
#define VKP_INSTANCE_FUNCTIONS(X)                                \
    X(vkDestroyInstance)                                         \
    X(vkEnumeratePhysicalDevices)                                \
    X(vkGetPhysicalDeviceProperties)                             \
    X(vkGetPhysicalDeviceFeatures)                               \
    X(vkGetPhysicalDeviceMemoryProperties)                       \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                  \
    X(vkEnumerateDeviceExtensionProperties)                      \
    X(vkCreateDevice)                                            \
    X(vkGetDeviceProcAddr)

/* Loaded per device with vkGetDeviceProcAddr: devices may belong to
 * different drivers, and this skips the loader's dispatch trampolines. */
#define VKP_DEVICE_FUNCTIONS(X)                                  \
    X(vkDestroyDevice)                                           \
    X(vkGetDeviceQueue)                                          \
    X(vkDeviceWaitIdle)                                          \
    X(vkQueueSubmit)                                             \
    X(vkQueueWaitIdle)                                           \
    X(vkCreateCommandPool)                                       \
    X(vkDestroyCommandPool)                                      \
    X(vkAllocateCommandBuffers)                                  \
    X(vkBeginCommandBuffer)                                      \
    X(vkEndCommandBuffer)                                        \
    X(vkResetCommandBuffer)                                      \
    X(vkCreateFence)                                             \
    X(vkDestroyFence)                                            \
    X(vkWaitForFences)                                           \
    X(vkResetFences)                                             \
    X(vkCreateBuffer)                                            \
    X(vkDestroyBuffer)                                           \
    X(vkGetBufferMemoryRequirements)                             \
    X(vkAllocateMemory)                                          \
    X(vkFreeMemory)                                              \
    X(vkBindBufferMemory)                                        \
    X(vkMapMemory)                                               \
    X(vkUnmapMemory)                                             \
    X(vkCreateShaderModule)                                      \
    X(vkDestroyShaderModule)                                     \
    X(vkCreateDescriptorSetLayout)                               \
    X(vkDestroyDescriptorSetLayout)                              \
    X(vkCreateDescriptorPool)                                    \
    X(vkDestroyDescriptorPool)                                   \
    X(vkAllocateDescriptorSets)                                  \
    X(vkUpdateDescriptorSets)                                    \
    X(vkCreatePipelineLayout)                                    \
    X(vkDestroyPipelineLayout)                                   \
    X(vkCreateComputePipelines)                                  \
    X(vkDestroyPipeline)                                         \
    X(vkCreateQueryPool)                                         \
    X(vkDestroyQueryPool)                                        \
    X(vkGetQueryPoolResults)                                     \
    X(vkCmdPipelineBarrier)                                      \
    X(vkCmdCopyBuffer)                                           \
    X(vkCmdBindPipeline)                                         \
    X(vkCmdBindDescriptorSets)                                   \
    X(vkCmdPushConstants)                                        \
    X(vkCmdDispatch)                                             \
    X(vkCmdResetQueryPool)                                       \
    X(vkCmdWriteTimestamp)
