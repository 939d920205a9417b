/* Physical devices and what they report; the logical device behind each.
 *
 * This is the bottom of what lives on a device: buffers.c and compile.c
 * create their objects on the logical device made here, and release them
 * before vkp_devices_close destroys it (entry.c's close keeps that order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices.h"

#include "coopmat.h"
#include "errors.h"
#include "statistics.h"
#include "host_import.h"
#include "gemmhost/plugin_helpers.h"
#include "loader.h"

static const char *vendor_name(uint32_t id, char *buf, size_t size)
{
    switch (id) {
    case 0x10DE: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1010: return "Imagination";
    case 0x106B: return "Apple";
    case 0x10005: return "Mesa"; /* VK_VENDOR_ID_MESA: lavapipe and friends */
    default: snprintf(buf, size, "vendor 0x%04x", id); return buf;
    }
}

/* driverVersion is vendor-defined; decode the encodings we know. */
static void decode_driver_version(const VkPhysicalDeviceProperties *p, char *buf, size_t size)
{
    uint32_t v = p->driverVersion;
    if (p->vendorID == 0x10DE) /* NVIDIA: 10.8.8.6 bits */
        snprintf(buf, size, "%u.%u.%u.%u", v >> 22, (v >> 14) & 0xff, (v >> 6) & 0xff, v & 0x3f);
    else snprintf(buf, size, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

int vkp_has_device_extension(struct gh_plugin *ctx, VkPhysicalDevice phys, const char *name)
{
    uint32_t n = 0;
    if (ctx->vk.vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL) != VK_SUCCESS || n == 0) return 0;
    VkExtensionProperties *props = calloc(n, sizeof *props);
    int found = 0;
    if (props && ctx->vk.vkEnumerateDeviceExtensionProperties(phys, NULL, &n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(props[i].extensionName, name) == 0;
    free(props);
    return found;
}

/* A queue family with compute; prefer one with timestamps, then one without
 * graphics (a dedicated compute queue). Returns 0 when there is none. */
static int pick_queue_family(struct gh_plugin *ctx, VkPhysicalDevice phys, uint32_t *family, uint32_t *timestamp_bits)
{
    uint32_t n = 0;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, NULL);
    VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
    if (!q) return 0;
    ctx->vk.vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, q);
    int best = -1, best_score = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || q[i].queueCount == 0) continue;
        int score = (q[i].timestampValidBits > 0) * 2 + !(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
        if (score > best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    if (best >= 0) {
        *family = (uint32_t)best;
        *timestamp_bits = q[best].timestampValidBits;
    }
    free(q);
    return best >= 0;
}

/* f16 and bf16 need storageBuffer16BitAccess: core from Vulkan 1.1, asked
 * for with vkGetPhysicalDeviceFeatures2 (VkPhysicalDevice16BitStorageFeatures).
 * A 1.0 device that has it only as VK_KHR_16bit_storage is not used for
 * them. Sets d->has_16bit_storage, or d->no_16bit_storage to why not. */
static void query_16bit_storage(struct gh_plugin *ctx, vkp_device *d)
{
    d->has_16bit_storage = 0;
    const char *what = "storageBuffer16BitAccess (16-bit storage buffers, needed for f16 and bf16)";
    if (d->props.apiVersion < VK_API_VERSION_1_1) {
        snprintf(d->no_16bit_storage, sizeof d->no_16bit_storage,
                 "device %s has no %s: a Vulkan %u.%u device (the plugin asks for it from Vulkan 1.1 on)", d->name,
                 what, VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion));
        return;
    }
    if (!ctx->vk.vkGetPhysicalDeviceFeatures2) {
        snprintf(d->no_16bit_storage, sizeof d->no_16bit_storage,
                 "device %s has no %s that the plugin can ask for: the Vulkan loader is 1.0", d->name, what);
        return;
    }
    VkPhysicalDevice16BitStorageFeatures storage = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &storage};
    ctx->vk.vkGetPhysicalDeviceFeatures2(d->phys, &features);
    if (storage.storageBuffer16BitAccess != VK_TRUE)
        snprintf(d->no_16bit_storage, sizeof d->no_16bit_storage, "device %s has no %s", d->name, what);
    else if (ctx->hide_16bit_storage)
        snprintf(d->no_16bit_storage, sizeof d->no_16bit_storage, "device %s: %s is hidden by the option hide_features",
                 d->name, what);
    else d->has_16bit_storage = 1;
}

/* 8-bit A and B need storageBuffer8BitAccess: core from Vulkan 1.2, asked
 * for with VkPhysicalDevice8BitStorageFeatures (a 1.1 device with
 * VK_KHR_8bit_storage alone is not used for them). Sets d->has_8bit_storage,
 * or d->no_8bit_storage to why not. */
static void query_8bit_storage(struct gh_plugin *ctx, vkp_device *d)
{
    d->has_8bit_storage = 0;
    const char *what = "storageBuffer8BitAccess (8-bit storage buffers, needed for e4m3, e5m2 and i8)";
    if (d->props.apiVersion < VK_API_VERSION_1_2 || !ctx->vk.vkGetPhysicalDeviceFeatures2) {
        snprintf(d->no_8bit_storage, sizeof d->no_8bit_storage,
                 "device %s has no %s that the plugin can ask for: a Vulkan %u.%u device or loader (the plugin asks "
                 "for it from Vulkan 1.2 on)",
                 d->name, what, VK_API_VERSION_MAJOR(d->props.apiVersion), VK_API_VERSION_MINOR(d->props.apiVersion));
        return;
    }
    VkPhysicalDevice8BitStorageFeatures storage = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 features = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &storage};
    ctx->vk.vkGetPhysicalDeviceFeatures2(d->phys, &features);
    if (storage.storageBuffer8BitAccess != VK_TRUE)
        snprintf(d->no_8bit_storage, sizeof d->no_8bit_storage, "device %s has no %s", d->name, what);
    else d->has_8bit_storage = 1;
}

/* Fills d->info and the strings it points to. */
static void describe(struct gh_plugin *ctx, vkp_device *d)
{
    VkPhysicalDeviceFeatures features;
    ctx->vk.vkGetPhysicalDeviceProperties(d->phys, &d->props);
    ctx->vk.vkGetPhysicalDeviceFeatures(d->phys, &features);
    ctx->vk.vkGetPhysicalDeviceMemoryProperties(d->phys, &d->mem);
    d->has_fp64 = features.shaderFloat64 == VK_TRUE;

    /* The driver's own version string (Vulkan 1.2) and NVIDIA's SM count. */
    VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    /* Where it sits on the PCI bus, so the host finds its NVML device and NUMA node. */
    VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {.sType =
                                                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    int have_driver = 0, have_sm = 0, have_pci = 0;
    if (ctx->vk.vkGetPhysicalDeviceProperties2 && d->props.apiVersion >= VK_API_VERSION_1_1) {
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        if (d->props.apiVersion >= VK_API_VERSION_1_2 && ctx->instance_version >= VK_API_VERSION_1_2) {
            driver.pNext = p2.pNext;
            p2.pNext = &driver;
            have_driver = 1;
        }
        if (vkp_has_device_extension(ctx, d->phys, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
            sm.pNext = p2.pNext;
            p2.pNext = &sm;
            have_sm = 1;
        }
        if (vkp_has_device_extension(ctx, d->phys, VK_EXT_PCI_BUS_INFO_EXTENSION_NAME)) {
            pci.pNext = p2.pNext;
            p2.pNext = &pci;
            have_pci = 1;
        }
        ctx->vk.vkGetPhysicalDeviceProperties2(d->phys, &p2);
    }

    char vendor_buf[32];
    snprintf(d->name, sizeof d->name, "%s", d->props.deviceName);
    query_16bit_storage(ctx, d);
    query_8bit_storage(ctx, d);
    vkp_coop_query(ctx, d);
    snprintf(d->vendor, sizeof d->vendor, "%s", vendor_name(d->props.vendorID, vendor_buf, sizeof vendor_buf));
    if (have_driver && driver.driverInfo[0])
        snprintf(d->driver, sizeof d->driver, "%s %s", driver.driverName, driver.driverInfo);
    else decode_driver_version(&d->props, d->driver, sizeof d->driver);
    /* With what the coopmat kernel finds, where the device has cooperative matrices. */
    snprintf(d->api, sizeof d->api, "Vulkan %u.%u.%u%s%s", VK_API_VERSION_MAJOR(d->props.apiVersion),
             VK_API_VERSION_MINOR(d->props.apiVersion), VK_API_VERSION_PATCH(d->props.apiVersion),
             d->coop.offered[0] ? "; " : "", d->coop.offered);

    if (have_pci)
        snprintf(d->pci_address, sizeof d->pci_address, "%04x:%02x:%02x.%x", pci.pciDomain & 0xffffu,
                 pci.pciBus & 0xffu, pci.pciDevice & 0x1fu, pci.pciFunction & 0x7u);

    uint64_t device_local = 0;
    for (uint32_t i = 0; i < d->mem.memoryHeapCount; i++)
        if ((d->mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            d->mem.memoryHeaps[i].size > device_local)
            device_local = d->mem.memoryHeaps[i].size;

    int is_cpu = d->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    uint32_t units = 0;
    if (have_sm) units = sm.shaderSMCount;
    else if (is_cpu) /* lavapipe runs on every online CPU */ units = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);

    d->info = (gh_device_info){
        .size = sizeof(gh_device_info),
        .name = d->name,
        .vendor = d->vendor,
        .driver_version = d->driver,
        .api = d->api,
        .platform = "",
        .global_mem_bytes = device_local,
        .local_mem_bytes = d->props.limits.maxComputeSharedMemorySize,
        .compute_units = units,
        .max_workgroup_size = d->props.limits.maxComputeWorkGroupInvocations,
        .is_software = is_cpu,
        .has_fp64 = d->has_fp64,
        .pci_address = d->pci_address,
    };
}

gh_status vkp_devices_open(struct gh_plugin *ctx)
{
    uint32_t n = 0;
    VkResult r = ctx->vk.vkEnumeratePhysicalDevices(ctx->instance, &n, NULL);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        snprintf(ctx->note, sizeof ctx->note, "vkEnumeratePhysicalDevices failed: %s", vkp_result_name(r));
        return GH_NO_DEVICE;
    }
    if (n == 0) {
        snprintf(ctx->note, sizeof ctx->note,
                 "the Vulkan loader found no devices (no driver installed? see VK_DRIVER_FILES)");
        return GH_NO_DEVICE;
    }
    VkPhysicalDevice *phys = calloc(n, sizeof *phys);
    ctx->devices = calloc(n, sizeof *ctx->devices);
    if (!phys || !ctx->devices) {
        free(phys);
        snprintf(ctx->note, sizeof ctx->note, "out of host memory listing %u Vulkan devices", n);
        return GH_OUT_OF_MEMORY;
    }
    r = ctx->vk.vkEnumeratePhysicalDevices(ctx->instance, &n, phys);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(phys);
        snprintf(ctx->note, sizeof ctx->note, "vkEnumeratePhysicalDevices failed: %s", vkp_result_name(r));
        return GH_NO_DEVICE;
    }

    int skipped = 0;
    for (uint32_t i = 0; i < n; i++) {
        vkp_device *d = &ctx->devices[ctx->device_count];
        d->ctx = ctx;
        d->phys = phys[i];
        if (!pick_queue_family(ctx, d->phys, &d->queue_family, &d->timestamp_bits)) {
            skipped++; /* a device without compute queues cannot run a GEMM */
            continue;
        }
        describe(ctx, d);
        d->index = ctx->device_count++;
    }
    free(phys);
    if (ctx->device_count == 0) {
        snprintf(ctx->note, sizeof ctx->note, "none of the %d Vulkan devices has a compute queue", skipped);
        return GH_NO_DEVICE;
    }
    return GH_OK;
}

int vkp_device_count(gh_plugin *ctx)
{
    if (!ctx) return 0;
    /* Said on every call, so that the thread asking learns why there are none. */
    if (ctx->device_count == 0) gh_plugin_set_error(GH_NO_DEVICE, "%s", ctx->note);
    return ctx->device_count;
}

const gh_device_info *vkp_device_info(gh_plugin *ctx, int device)
{
    if (vkp_check_device(ctx, "device_info", device) != GH_OK) return NULL;
    return &ctx->devices[device].info;
}

gh_status vkp_check_device(const struct gh_plugin *ctx, const char *call, int device)
{
    if (!ctx) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "%s: the context is NULL", call);
    return gh_plugin_check_device(call, device, ctx->device_count, ctx->note);
}

/* Destroys what create_device made, also when it stopped halfway. */
static void device_teardown(vkp_device *d)
{
    if (!d->dev) return;
    d->fn.vkDeviceWaitIdle(d->dev);
    if (d->timestamps) d->fn.vkDestroyQueryPool(d->dev, d->timestamps, NULL);
    if (d->fence) d->fn.vkDestroyFence(d->dev, d->fence, NULL);
    if (d->pool) /* frees the command buffer with it */
        d->fn.vkDestroyCommandPool(d->dev, d->pool, NULL);
    d->fn.vkDestroyDevice(d->dev, NULL);
    d->dev = VK_NULL_HANDLE;
    d->timestamps = VK_NULL_HANDLE;
    d->fence = VK_NULL_HANDLE;
    d->pool = VK_NULL_HANDLE;
    d->cmd = VK_NULL_HANDLE;
    d->ready = 0;
}

void vkp_device_wait_idle(vkp_device *d)
{
    /* A failure here is a lost device: close goes on regardless. */
    if (d->dev) d->fn.vkDeviceWaitIdle(d->dev);
}

void vkp_devices_close(struct gh_plugin *ctx)
{
    for (int i = 0; i < ctx->device_count; i++) device_teardown(&ctx->devices[i]);
    free(ctx->devices);
    ctx->devices = NULL;
    ctx->device_count = 0;
}

static gh_status create_device(vkp_device *d)
{
    struct gh_plugin *ctx = d->ctx;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = d->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    /* f64 and 16-bit storage need the feature switched on, not just present. */
    VkPhysicalDeviceFeatures features = {.shaderFloat64 = d->has_fp64 ? VK_TRUE : VK_FALSE};
    VkPhysicalDevice16BitStorageFeatures storage = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
        .storageBuffer16BitAccess = VK_TRUE,
    };
    void *chain = d->has_16bit_storage ? &storage : NULL;
    VkPhysicalDevice8BitStorageFeatures storage8 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
        .storageBuffer8BitAccess = VK_TRUE,
    };
    if (d->has_8bit_storage) {
        storage8.pNext = chain;
        chain = &storage8;
    }
    /* The coopmat kernel's extensions and features, where it can run. */
    vkp_coop_features coop;
    vkp_coop_enable(d, &coop, &chain, &features);
    /* The option statistics (dropped with coopmat's asks by the retry below). */
    vkp_statistics_features statistics;
    vkp_statistics_enable(d, &statistics, &chain);
    const char *extensions[6];
    uint32_t n_extensions = 0;
    for (uint32_t i = 0; i < coop.n_extensions; i++) extensions[n_extensions++] = coop.extensions[i];
    if (statistics.extension) extensions[n_extensions++] = statistics.extension;
    const char *host_import = vkp_host_import_extension(d);
    if (host_import) extensions[n_extensions++] = host_import;
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = chain,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = n_extensions,
        .ppEnabledExtensionNames = n_extensions ? extensions : NULL,
        .pEnabledFeatures = &features,
    };
    VkResult r = ctx->vk.vkCreateDevice(d->phys, &info, NULL, &d->dev);
    if (r != VK_SUCCESS && d->coop.api != VKP_COOP_NONE) {
        /* Again without what coopmat (and statistics) asked for, so that the
         * other kernels still run; coopmat then says why it cannot. */
        vkp_coop_failed(d, r);
        VkPhysicalDeviceFeatures plain = {.shaderFloat64 = d->has_fp64 ? VK_TRUE : VK_FALSE};
        storage.pNext = NULL;
        storage8.pNext = d->has_16bit_storage ? &storage : NULL;
        info.pNext = d->has_8bit_storage ? (void *)&storage8 : storage8.pNext;
        info.enabledExtensionCount = host_import ? 1 : 0;
        info.ppEnabledExtensionNames = host_import ? &host_import : NULL;
        info.pEnabledFeatures = &plain;
        statistics.extension = NULL;
        r = ctx->vk.vkCreateDevice(d->phys, &info, NULL, &d->dev);
    }
    VKP_TRY(r, d->name);
    gh_status st = vkp_load_device_functions(ctx, d->dev, &d->fn);
    if (st != GH_OK) {
        /* Without the table there is no vkDestroyDevice to call; look it up alone. */
        PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)ctx->vk.vkGetDeviceProcAddr(d->dev, "vkDestroyDevice");
        if (destroy) destroy(d->dev, NULL);
        d->dev = VK_NULL_HANDLE;
        return st;
    }
    d->fn.vkGetDeviceQueue(d->dev, d->queue_family, 0, &d->queue);
    if (statistics.extension) vkp_statistics_ready(d);
    if (host_import) vkp_host_import_ready(d);

    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = d->queue_family,
    };
    VKP_TRY(d->fn.vkCreateCommandPool(d->dev, &pool, NULL, &d->pool), d->name);
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = d->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VKP_TRY(d->fn.vkAllocateCommandBuffers(d->dev, &alloc, &d->cmd), d->name);
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKP_TRY(d->fn.vkCreateFence(d->dev, &fence, NULL, &d->fence), d->name);
    if (d->timestamp_bits > 0) {
        VkQueryPoolCreateInfo query = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_TIMESTAMP,
            .queryCount = 2,
        };
        VKP_TRY(d->fn.vkCreateQueryPool(d->dev, &query, NULL, &d->timestamps), d->name);
    }
    return GH_OK;
}

gh_status vkp_device_ready(vkp_device *d)
{
    if (d->ready) return GH_OK;
    gh_status st = create_device(d);
    if (st != GH_OK) {
        device_teardown(d); /* partial state; the next call tries again */
        return st;
    }
    d->ready = 1;
    return GH_OK;
}

int vkp_memory_type(const vkp_device *d, uint32_t type_bits, VkMemoryPropertyFlags required,
                    VkMemoryPropertyFlags preferred)
{
    int fallback = -1;
    for (uint32_t i = 0; i < d->mem.memoryTypeCount; i++) {
        VkMemoryPropertyFlags flags = d->mem.memoryTypes[i].propertyFlags;
        if (!(type_bits & (1u << i)) || (flags & required) != required) continue;
        if ((flags & preferred) == preferred) return (int)i;
        if (fallback < 0) fallback = (int)i;
    }
    return fallback;
}
