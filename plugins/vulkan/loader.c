/* dlopen of the Vulkan loader, the instance, and the function tables.
 *
 * libvulkan is opened at run time rather than linked, so that the plugin
 * loads on a machine without it and says what is missing instead of the
 * host printing a dlopen failure about an unresolved library.
 *
 * One instance serves every context of the process and is never destroyed.
 * Destroying the last instance makes the loader unload the drivers, and
 * drivers do not all survive that: NVIDIA's leaves threads and exit handlers
 * behind, and Mesa's lavapipe keeps allocations reachable only from its own
 * globals, which then show up as leaks of an unknown module under
 * LeakSanitizer. Contexts still create and destroy their own devices. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

#include "errors.h"
#include "gemmhost/plugin_helpers.h"

#define VKP_LOADER_NAME "libvulkan.so.1"

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static vkp_instance_fns shared_vk; /* valid once shared_instance is set */
static VkInstance shared_instance;
static uint32_t shared_version;

static int has_instance_extension(const vkp_instance_fns *vk, const char *name)
{
    uint32_t n = 0;
    if (vk->vkEnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS || n == 0) return 0;
    VkExtensionProperties *props = calloc(n, sizeof *props);
    int found = 0;
    if (props && vk->vkEnumerateInstanceExtensionProperties(NULL, &n, props) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(props[i].extensionName, name) == 0;
    free(props);
    return found;
}

/* Loads libvulkan and creates the instance into the shared_* variables, or
 * writes why not into `why`. Called with shared_lock held. */
static int create_instance(char *why, size_t why_size)
{
    /* Reference counted by dlopen, so a retry after a failure costs nothing. */
    void *lib = dlopen(VKP_LOADER_NAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, why_size, "no Vulkan loader (%s)", dlerror());
        return 0;
    }
    vkp_instance_fns vk = {0};
    /* POSIX guarantees a data pointer from dlsym converts to a function
     * pointer; the memcpy keeps -Wpedantic quiet about it. */
    void *sym = dlsym(lib, "vkGetInstanceProcAddr");
    if (!sym) {
        snprintf(why, why_size, "the Vulkan loader %s has no vkGetInstanceProcAddr", VKP_LOADER_NAME);
        return 0;
    }
    memcpy(&vk.vkGetInstanceProcAddr, &sym, sizeof sym);

#define LOAD_GLOBAL(name)                                                  \
    vk.name = (PFN_##name)vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name); \
    if (!vk.name) {                                                        \
        snprintf(why, why_size, "the Vulkan loader has no %s", #name);     \
        return 0;                                                          \
    }
    VKP_GLOBAL_FUNCTIONS(LOAD_GLOBAL)
#undef LOAD_GLOBAL
    vk.vkEnumerateInstanceVersion =
        (PFN_vkEnumerateInstanceVersion)vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion");

    /* Ask for the newest version the loader knows, up to 1.3: 1.1 gives
     * vkGetPhysicalDeviceProperties2, 1.2 the driver's own version string. */
    uint32_t version = VK_API_VERSION_1_0;
    if (vk.vkEnumerateInstanceVersion && vk.vkEnumerateInstanceVersion(&version) != VK_SUCCESS)
        version = VK_API_VERSION_1_0;
    if (version > VK_API_VERSION_1_3) version = VK_API_VERSION_1_3;

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gemmhost",
        .pEngineName = "gemmhost-vulkan",
        .apiVersion = version,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
    /* Drivers that are not fully conformant (MoltenVK) are only listed when
     * asked for; harmless elsewhere. */
    const char *portability = "VK_KHR_portability_enumeration";
    if (has_instance_extension(&vk, portability)) {
        info.enabledExtensionCount = 1;
        info.ppEnabledExtensionNames = &portability;
        info.flags |= 0x00000001; /* VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR */
    }
    VkInstance instance = VK_NULL_HANDLE;
    VkResult r = vk.vkCreateInstance(&info, NULL, &instance);
    if (r != VK_SUCCESS) {
        snprintf(why, why_size, "vkCreateInstance failed: %s%s", vkp_result_name(r),
                 r == VK_ERROR_INCOMPATIBLE_DRIVER
                     ? " (the loader found no usable Vulkan driver; see VK_DRIVER_FILES / VK_ICD_FILENAMES)"
                     : "");
        return 0;
    }

#define LOAD_INSTANCE(name)                                              \
    vk.name = (PFN_##name)vk.vkGetInstanceProcAddr(instance, #name);     \
    if (!vk.name) {                                                      \
        snprintf(why, why_size, "the Vulkan instance has no %s", #name); \
        if (vk.vkDestroyInstance) /* first in the list */                \
            vk.vkDestroyInstance(instance, NULL);                        \
        return 0;                                                        \
    }
    VKP_INSTANCE_FUNCTIONS(LOAD_INSTANCE)
#undef LOAD_INSTANCE
    if (version >= VK_API_VERSION_1_1) {
        vk.vkGetPhysicalDeviceProperties2 =
            (PFN_vkGetPhysicalDeviceProperties2)vk.vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceProperties2");
        vk.vkGetPhysicalDeviceFeatures2 =
            (PFN_vkGetPhysicalDeviceFeatures2)vk.vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceFeatures2");
        vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR =
            (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)vk.vkGetInstanceProcAddr(
                instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
        vk.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV =
            (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)vk.vkGetInstanceProcAddr(
                instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
    }

    shared_vk = vk;
    shared_version = version;
    shared_instance = instance;
    return 1;
}

gh_status vkp_loader_open(struct gh_plugin *ctx)
{
    pthread_mutex_lock(&shared_lock);
    int ok = shared_instance != VK_NULL_HANDLE || create_instance(ctx->note, sizeof ctx->note);
    if (ok) {
        ctx->vk = shared_vk;
        ctx->instance = shared_instance;
        ctx->instance_version = shared_version;
    }
    pthread_mutex_unlock(&shared_lock);
    return ok ? GH_OK : GH_NO_DEVICE;
}

void vkp_loader_close(struct gh_plugin *ctx)
{
    /* The instance and libvulkan outlive every context; see the top. */
    ctx->instance = VK_NULL_HANDLE;
}

gh_status vkp_load_device_functions(struct gh_plugin *ctx, VkDevice dev, vkp_device_fns *fn)
{
#define LOAD_DEVICE(name)                                           \
    fn->name = (PFN_##name)ctx->vk.vkGetDeviceProcAddr(dev, #name); \
    if (!fn->name) return gh_plugin_set_error(GH_ERROR, "the Vulkan device has no %s", #name);
    VKP_DEVICE_FUNCTIONS(LOAD_DEVICE)
#undef LOAD_DEVICE
    return GH_OK;
}
