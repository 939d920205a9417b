/*
 * The Vulkan plugin's state: the context, its devices and its buffers, as
 * every layer of the plugin sees them (prefix vkp_). Nothing here crosses
 * the plugin ABI; gemmhost/plugin.h is the contract.
 *
 * The layers, each in its own file, from the bottom up (a file includes
 * only the headers of layers below it):
 *   vk_functions.h the Vulkan functions the plugin calls, as tables
 *   errors.c       VkResult names, and the status and error text each gets
 *   kernels.c      the kernel table, launch shapes and the device limits they meet
 *   loader.c       dlopen of libvulkan.so.1, the process-wide instance, the tables
 *   coopmat.c      what a device offers the coopmat kernel (cooperative matrices),
 *                  and what to enable for it
 *   devices.c      physical devices and what they report; the logical device
 *   commands.c     one-shot command buffers: record, submit, wait
 *   buffers.c      device buffers, the staging buffer, upload and download
 *   compile.c      SPIR-V modules, pipeline layout, pipelines per parameter values
 *   gemm.c         argument checks, dispatch, timing
 *   entry.c        the function table, open, and close (which tears the
 *                  layers down from the top)
 */
#ifndef GH_VULKAN_STATE_H
#define GH_VULKAN_STATE_H

#include <limits.h>
#include <stdint.h>

#include "gemmhost/plugin.h"
#include "kernels.h"
#include "vk_functions.h"

/* A reusable host-visible buffer that upload/download copy through. */
typedef struct vkp_staging {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *map;
    VkDeviceSize size;
} vkp_staging;

/* The cooperative-matrix extension a device's coopmat kernel uses; or none
 * but plain shader code in its place (the option emulate). */
typedef enum vkp_coop_api { VKP_COOP_NONE = 0, VKP_COOP_KHR = 1, VKP_COOP_NV = 2, VKP_COOP_EMULATED = 3 } vkp_coop_api;

/* What a device offers the coopmat kernel (coopmat.c). */
typedef struct vkp_coop {
    vkp_coop_api api; /* NONE: why[] says why, and nothing is enabled */
    /* f16, bf16: bit s when vkp_coop_shapes[s] is offered with f32 sums;
     * i8 (A's type): with s8 inputs and s32 sums */
    uint32_t shapes[GH_DTYPE_COUNT];
    uint32_t subgroup_size;
    int has_float16; /* shaderFloat16, for the f16 modules: enabled when there */
    int has_int16;   /* shaderInt16, for the f16 and bf16 modules: enabled when there */
    int has_int8;    /* shaderInt8, for the i8 modules (not emulated): enabled when there */
    int has_bf16;    /* VK_KHR_shader_bfloat16 with its cooperative-matrix feature: enabled when there */
    /* f16, bf16, i8: why the kernel cannot run that dtype here ("" when it can) */
    char why[GH_DTYPE_COUNT][VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + 256];
    /* "cooperative matrices (KHR, f32 sums): f16 16x16x16 16x8x16, bf16
     * 16x16x16, i8 16x8x32 (s32 sums)": the shapes of f32 and s32 sums, for --list */
    char offered[320];
} vkp_coop;

typedef struct vkp_device {
    struct gh_plugin *ctx;
    int index;
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t queue_family;
    uint32_t timestamp_bits; /* 0: no timestamps on that family, host timing */
    int has_fp64;
    /* f16 and bf16 need storageBuffer16BitAccess and nothing else (see
     * kernels/vulkan/gemm_common.glsl): 1 when the device has it, and then it
     * is enabled at creation; else no_16bit_storage says why not. */
    int has_16bit_storage;
    char no_16bit_storage[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + 192];
    /* 8-bit A and B (e4m3, e5m2, i8) need storageBuffer8BitAccess (Vulkan
     * 1.2's VkPhysicalDevice8BitStorageFeatures): likewise. */
    int has_8bit_storage;
    char no_8bit_storage[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + 320];
    vkp_coop coop;
    /* The option statistics, where the device offers them: else NULL. */
    PFN_vkGetPipelineExecutablePropertiesKHR get_executables;
    PFN_vkGetPipelineExecutableStatisticsKHR get_statistics;

    gh_device_info info; /* its strings point into the arrays below */
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    char vendor[64];
    char driver[VK_MAX_DRIVER_INFO_SIZE + VK_MAX_DRIVER_NAME_SIZE + 32];
    char api[48 + sizeof(((vkp_coop *)0)->offered)];
    char pci_address[32]; /* "0000:1b:00.0" from VK_EXT_pci_bus_info; "" without it (lavapipe) */

    /* Only one thread at a time uses one device, so none of what follows is
     * locked. Each group is created on first use by the file named and
     * destroyed by it at close, in the order entry.c's close gives. */

    /* devices.c: the logical device and its queue (vkp_device_ready) */
    int ready;
    VkDevice dev;
    vkp_device_fns fn;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool timestamps; /* two queries; VK_NULL_HANDLE without timestamps */

    /* compile.c: the pipeline layout, its one descriptor set, the pipelines */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool desc_pool;
    VkDescriptorSet set;
    VkShaderModule modules[VKP_KERNEL_COUNT][VKP_TYPE_SLOTS][VKP_MODULE_MAX];
    VkPipeline pipelines[VKP_KERNEL_COUNT][VKP_TYPE_SLOTS][VKP_VARIANT_MAX][VKP_LAYOUTS];

    /* buffers.c: the staging buffer and the live buffers */
    vkp_staging staging;
    struct gh_buffer *buffers;

    /* host_import.c: host memory imported with VK_EXT_external_memory_host
     * (enabled at creation where offered and not hidden) */
    int has_host_import;
    VkDeviceSize import_alignment; /* minImportedHostPointerAlignment */
    PFN_vkGetMemoryHostPointerPropertiesEXT get_host_pointer_properties;
    struct vkp_import *imports;
} vkp_device;

struct gh_buffer {
    vkp_device *device;
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t bytes; /* as asked for */
    struct gh_buffer *prev, *next;
};

/* Extensions the option hide_features can hide (coopmat.c honours them). */
#define VKP_HIDE_KHR_COOP 1u /* VK_KHR_cooperative_matrix */
#define VKP_HIDE_NV_COOP  2u /* VK_NV_cooperative_matrix */
#define VKP_HIDE_BF16     4u /* VK_KHR_shader_bfloat16 */
#define VKP_HIDE_HOST_MEM 8u /* VK_EXT_external_memory_host */

struct gh_plugin {
    vkp_instance_fns vk; /* copied from the process-wide instance */
    VkInstance instance; /* shared by all contexts, never destroyed (loader.c) */
    uint32_t instance_version;
    vkp_device *devices;
    int device_count;
    char note[512];            /* why there are no devices, or "" */
    char kernel_dir[PATH_MAX]; /* SPIR-V override folder, or "" */
    int hide_16bit_storage;    /* option hide_features: act as if no device had it */
    unsigned hide_extensions;  /* option hide_features: VKP_HIDE_* bits, extensions no device has */
    int emulate_coop;          /* option emulate = cooperative_matrix */
    int statistics;            /* option statistics = yes (statistics.h) */
};

#endif
