/*
 * Internal declarations of the Vulkan plugin (prefix vkp_). Nothing here
 * crosses the plugin ABI; gemmhost/plugin.h is the contract.
 *
 * Layout of the plugin, one job per file:
 *   entry.c     the exported entry, the function table, open/close
 *   errors.c    VkResult names, and the status and error text each gets
 *   loader.c    dlopen of libvulkan.so.1, the process-wide instance, function tables
 *   devices.c   physical devices and what they report; the logical device
 *   commands.c  one-shot command buffers: record, submit, wait
 *   buffers.c   device buffers, the staging buffer, upload and download
 *   kernels.c   the kernels and their parameters, as the host sees them
 *   compile.c   SPIR-V modules, pipeline layout, pipelines per parameter values
 *   gemm.c      argument checks, dispatch, timing
 */
#ifndef GH_VULKAN_STATE_H
#define GH_VULKAN_STATE_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <limits.h>
#include <stdint.h>

#include "gemmhost/plugin.h"
#include "gemmhost/plugin_helpers.h"
#include "vk_functions.h"

#define VKP_DECLARE(name) PFN_##name name;

typedef struct vkp_instance_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    VKP_GLOBAL_FUNCTIONS(VKP_DECLARE)
    VKP_INSTANCE_FUNCTIONS(VKP_DECLARE)
    /* Vulkan 1.1; NULL on a 1.0 instance. */
    PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion;
    PFN_vkGetPhysicalDeviceProperties2 vkGetPhysicalDeviceProperties2;
} vkp_instance_fns;

typedef struct vkp_device_fns {
    VKP_DEVICE_FUNCTIONS(VKP_DECLARE)
} vkp_device_fns;

/* ---- kernels.c ---- */

enum { VKP_KERNEL_NAIVE = 0, VKP_KERNEL_TILED = 1, VKP_KERNEL_BLOCKED = 2, VKP_KERNEL_COUNT = 3 };
extern const gh_kernel_info vkp_kernels[VKP_KERNEL_COUNT];
/* Pipelines are cached per (kernel, dtype, combination of parameter values);
 * no kernel has more combinations than this (blocked: 3 tiles x 3 works). */
#define VKP_VARIANT_MAX 9
/* SPIR-V modules per (kernel, dtype): one, but blocked has one per work
 * value (2, 4, 8), which sizes its register arrays. */
#define VKP_MODULE_MAX 3

/* A kernel's parameter values, as one launch uses them. */
typedef struct vkp_variant {
    int slot;              /* the pipeline's cache index, < VKP_VARIANT_MAX */
    uint32_t side;         /* side of the block of C one workgroup computes:
                            * naive's wg, tiled's and blocked's tile */
    uint32_t work;         /* blocked: side of each invocation's micro-tile; else 1 */
    uint32_t depth;        /* blocked: the k step, chosen by vkp_check_limits; else 0 */
    uint32_t invocations;  /* per workgroup */
    int module;            /* which of the (kernel, dtype)'s modules, < VKP_MODULE_MAX */
    char label[48];        /* "tile = 128, work = 8", for messages */
} vkp_variant;

/* The launch shape of the kernel's parameter values in args, which
 * gh_plugin_check_params has accepted. */
gh_status vkp_variant_of(int kernel, const gh_gemm_args *args, vkp_variant *v);

/* ---- device state ---- */

/* A reusable host-visible buffer that upload/download copy through. */
typedef struct vkp_staging {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *map;
    VkDeviceSize size;
} vkp_staging;

typedef struct vkp_device {
    struct gh_plugin *ctx;
    int index;
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t queue_family;
    uint32_t timestamp_bits;      /* 0: no timestamps on that family, host timing */
    int has_fp64;

    gh_device_info info;          /* its strings point into the arrays below */
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    char vendor[64];
    char driver[VK_MAX_DRIVER_INFO_SIZE + VK_MAX_DRIVER_NAME_SIZE + 32];
    char api[48];

    /* Created on first use (vkp_device_ready), destroyed at close. Only one
     * thread at a time uses one device, so none of this is locked. */
    int ready;
    VkDevice dev;
    vkp_device_fns fn;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool timestamps;       /* two queries; VK_NULL_HANDLE without timestamps */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool desc_pool;
    VkDescriptorSet set;
    VkShaderModule modules[VKP_KERNEL_COUNT][GH_DTYPE_COUNT][VKP_MODULE_MAX];
    VkPipeline pipelines[VKP_KERNEL_COUNT][GH_DTYPE_COUNT][VKP_VARIANT_MAX];
    vkp_staging staging;
    struct gh_buffer *buffers;    /* live buffers, freed at close */
} vkp_device;

struct gh_buffer {
    vkp_device *device;
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t bytes;               /* as asked for */
    struct gh_buffer *prev, *next;
};

struct gh_plugin {
    vkp_instance_fns vk;          /* copied from the process-wide instance */
    VkInstance instance;          /* shared by all contexts, never destroyed (loader.c) */
    uint32_t instance_version;
    vkp_device *devices;
    int device_count;
    char note[512];               /* why there are no devices, or "" */
    char kernel_dir[PATH_MAX];    /* SPIR-V override folder, or "" */
};

/* ---- errors.c ---- */

/* Records "<call> failed: <VK_ERROR_NAME>" (plus context) and returns the
 * gh_status that fits the result (out of memory, device lost ...). */
gh_status vkp_vk_fail(VkResult result, const char *call, const char *what);
const char *vkp_result_name(VkResult result);

/* Runs a Vulkan call and returns from the enclosing gh_status function on
 * failure, naming the call. */
#define VKP_TRY(call, what)                                   \
    do {                                                      \
        VkResult vkp_r_ = (call);                             \
        if (vkp_r_ != VK_SUCCESS)                             \
            return vkp_vk_fail(vkp_r_, #call, (what));        \
    } while (0)

/* ---- loader.c ---- */

/* Loads libvulkan and creates the instance, once per process. Anything
 * missing leaves ctx->note saying why and returns GH_NO_DEVICE; ctx stays
 * usable, with no devices. */
gh_status vkp_loader_open(struct gh_plugin *ctx);
void vkp_loader_close(struct gh_plugin *ctx);
/* Fills fn from vkGetDeviceProcAddr; names the first missing function. */
gh_status vkp_load_device_functions(struct gh_plugin *ctx, VkDevice dev, vkp_device_fns *fn);

/* ---- devices.c ---- */

gh_status vkp_devices_open(struct gh_plugin *ctx);
/* A device index of a call: GH_NO_DEVICE (saying why) when the context has
 * none, GH_INVALID_ARGUMENT when out of range or ctx is NULL. */
gh_status vkp_check_device(const struct gh_plugin *ctx, const char *call, int device);
void vkp_devices_close(struct gh_plugin *ctx);
/* Creates the logical device, queue, command buffer and friends on first use. */
gh_status vkp_device_ready(vkp_device *d);
/* Index of a memory type allowed by type_bits having all `required` flags,
 * preferring one that also has `preferred`; -1 when none. */
int vkp_memory_type(const vkp_device *d, uint32_t type_bits,
                    VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred);

/* ---- commands.c ---- */

/* Resets and begins the device's command buffer. */
gh_status vkp_commands_begin(vkp_device *d);
/* Ends, submits, and waits for the device's command buffer. */
gh_status vkp_commands_submit(vkp_device *d, const char *what);
/* Makes every earlier write on the queue visible to the given stage/access. */
void vkp_barrier(vkp_device *d, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                 VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

/* ---- buffers.c ---- */

gh_status vkp_buffer_alloc(struct gh_plugin *ctx, int device, uint64_t bytes, struct gh_buffer **out);
void vkp_buffer_free(struct gh_plugin *ctx, struct gh_buffer *buf);
gh_status vkp_upload(struct gh_plugin *ctx, struct gh_buffer *dst, uint64_t offset,
                     const void *src, uint64_t bytes);
gh_status vkp_download(struct gh_plugin *ctx, struct gh_buffer *src, uint64_t offset,
                       void *dst, uint64_t bytes);
/* Frees the staging buffer and every live buffer of the device. */
void vkp_buffers_release(vkp_device *d);
/* A buffer's size and device, for plugin_helpers.h's checks. */
gh_plugin_extent vkp_buffer_extent(const struct gh_buffer *buf);

/* ---- compile.c ---- */

/* Descriptor set layout, pipeline layout and descriptor set of a device. */
gh_status vkp_pipelines_init(vkp_device *d);
void vkp_pipelines_release(vkp_device *d);
/* GH_UNSUPPORTED, naming the limit and the value, when the kernel with
 * those parameters does not fit the device (workgroup invocations and size,
 * shared memory, fp64). Sets v->depth for blocked: 16, or 8 where 16 needs
 * more shared memory than the device has. */
gh_status vkp_check_limits(const vkp_device *d, int kernel, gh_dtype dtype, vkp_variant *v);
/* The pipeline for (kernel, dtype, v), created and cached on first use;
 * v must have passed vkp_check_limits. */
gh_status vkp_pipeline(vkp_device *d, int kernel, gh_dtype dtype, const vkp_variant *v, VkPipeline *out);

/* ---- gemm.c ---- */

gh_status vkp_gemm(struct gh_plugin *ctx, int device, int kernel, const gh_gemm_args *args,
                   gh_gemm_timing *timing);

/* Push constants, as kernels/vulkan/gemm_common.glsl declares them. */
#define VKP_PUSH_UINTS 12
#define VKP_PUSH_BYTES (VKP_PUSH_UINTS * 4 + 2 * 8)

#endif /* GH_VULKAN_STATE_H */
