/* Host memory imported with VK_EXT_external_memory_host: see host_import.h.
 * The range is widened to minImportedHostPointerAlignment (the host
 * registers whole mappings, so the widened range stays inside mapped pages
 * whenever the alignment is at most a page) and imported once per device
 * into a buffer the copies use directly. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_import.h"

#include "devices.h"
#include "errors.h"

struct vkp_import {
    void *ptr;           /* what the host registered */
    unsigned char *base; /* ptr rounded down to the alignment */
    VkDeviceSize size;   /* the widened range */
    uint64_t bytes;      /* what the host registered, from ptr */
    VkBuffer buffer;
    VkDeviceMemory memory;
    struct vkp_import *next;
};

const char *vkp_host_import_extension(vkp_device *d)
{
    d->has_host_import = 0;
    if (d->ctx->hide_extensions & VKP_HIDE_HOST_MEM) return NULL;
    return vkp_has_device_extension(d->ctx, d->phys, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)
               ? VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME
               : NULL;
}

void vkp_host_import_ready(vkp_device *d)
{
    d->get_host_pointer_properties = (PFN_vkGetMemoryHostPointerPropertiesEXT)d->ctx->vk.vkGetDeviceProcAddr(
        d->dev, "vkGetMemoryHostPointerPropertiesEXT");
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
    if (d->ctx->vk.vkGetPhysicalDeviceProperties2) d->ctx->vk.vkGetPhysicalDeviceProperties2(d->phys, &p2);
    d->import_alignment = host.minImportedHostPointerAlignment;
    d->has_host_import = d->get_host_pointer_properties && d->import_alignment > 0 &&
                         (d->import_alignment & (d->import_alignment - 1)) == 0;
}

static void import_destroy(vkp_device *d, struct vkp_import *im)
{
    d->fn.vkDestroyBuffer(d->dev, im->buffer, NULL);
    d->fn.vkFreeMemory(d->dev, im->memory, NULL);
    free(im);
}

/* A failed call: the memory still works as pageable memory, so the ABI's
 * status is GH_UNSUPPORTED (out of memory stays what it is). */
static gh_status refused(VkResult r, const char *call)
{
    gh_status s = vkp_vk_fail(r, call, "host_register");
    if (s == GH_OUT_OF_MEMORY) return s;
    char why[512];
    snprintf(why, sizeof why, "%.500s", gh_plugin_last_error(NULL));
    return gh_plugin_set_error(GH_UNSUPPORTED, "%s", why);
}

/* Imports [ptr, ptr + bytes) on one device. */
static gh_status import_on(vkp_device *d, void *ptr, uint64_t bytes)
{
    gh_status st = vkp_device_ready(d);
    if (st != GH_OK) return st;
    if (!d->has_host_import)
        return gh_plugin_set_error(GH_UNSUPPORTED, "host_register: device %s does not offer %s%s", d->name,
                                   VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME,
                                   (d->ctx->hide_extensions & VKP_HIDE_HOST_MEM) ? " (hidden by hide_features)" : "");
    const uintptr_t align = (uintptr_t)d->import_alignment, page = (uintptr_t)sysconf(_SC_PAGESIZE);
    const uintptr_t start = (uintptr_t)ptr & ~(align - 1), end = ((uintptr_t)ptr + bytes + align - 1) & ~(align - 1);
    /* Wider than the pages of the range: it may reach pages that are not mapped. */
    if (start < ((uintptr_t)ptr & ~(page - 1)) || end > (((uintptr_t)ptr + bytes + page - 1) & ~(page - 1)))
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "host_register: device %s imports host memory only in blocks of %llu bytes "
                                   "(minImportedHostPointerAlignment), wider than this range's pages",
                                   d->name, (unsigned long long)align);
    const VkExternalMemoryHandleTypeFlagBits type = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
    VkMemoryHostPointerPropertiesEXT props = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
    VkResult r = d->get_host_pointer_properties(d->dev, type, (void *)start, &props);
    if (r != VK_SUCCESS) return refused(r, "vkGetMemoryHostPointerPropertiesEXT");
    struct vkp_import *im = calloc(1, sizeof *im);
    if (!im) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "host_register: out of host memory for a record");
    *im = (struct vkp_import){.ptr = ptr, .base = (unsigned char *)start, .size = end - start, .bytes = bytes};
    VkExternalMemoryBufferCreateInfo external = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                                 .handleTypes = type};
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                               .pNext = &external,
                               .size = im->size,
                               .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    r = d->fn.vkCreateBuffer(d->dev, &info, NULL, &im->buffer);
    if (r != VK_SUCCESS) {
        free(im);
        return refused(r, "vkCreateBuffer(external host memory)");
    }
    VkMemoryRequirements req;
    d->fn.vkGetBufferMemoryRequirements(d->dev, im->buffer, &req);
    int mtype = vkp_memory_type(d, req.memoryTypeBits & props.memoryTypeBits, 0, VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkImportMemoryHostPointerInfoEXT import = {
        .sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT, .handleType = type, .pHostPointer = im->base};
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .pNext = &import,
                                  .allocationSize = im->size,
                                  .memoryTypeIndex = (uint32_t)mtype};
    r = mtype < 0 ? VK_ERROR_FORMAT_NOT_SUPPORTED : d->fn.vkAllocateMemory(d->dev, &alloc, NULL, &im->memory);
    if (r == VK_SUCCESS) r = d->fn.vkBindBufferMemory(d->dev, im->buffer, im->memory, 0);
    if (r != VK_SUCCESS) {
        if (im->memory) d->fn.vkFreeMemory(d->dev, im->memory, NULL);
        d->fn.vkDestroyBuffer(d->dev, im->buffer, NULL);
        free(im);
        if (mtype < 0)
            return gh_plugin_set_error(GH_UNSUPPORTED,
                                       "host_register: device %s has no memory type both a buffer and this host "
                                       "memory allow",
                                       d->name);
        return refused(r, "vkAllocateMemory(VkImportMemoryHostPointerInfoEXT)/vkBindBufferMemory");
    }
    im->next = d->imports;
    d->imports = im;
    return GH_OK;
}

/* Drops ptr's import on one device; 1 when there was one. */
static int drop_on(vkp_device *d, void *ptr)
{
    for (struct vkp_import **link = &d->imports; *link; link = &(*link)->next)
        if ((*link)->ptr == ptr) {
            struct vkp_import *im = *link;
            *link = im->next;
            import_destroy(d, im);
            return 1;
        }
    return 0;
}

gh_status vkp_host_register(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags, const char **how)
{
    if (!ctx || !ptr || bytes == 0 || !how)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_register: ctx, ptr or how is NULL, or bytes is 0");
    if (flags & ~GH_HOST_REGISTER_READ_ONLY)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_register: unknown flags 0x%x", (unsigned)flags);
    if (ctx->device_count == 0) return gh_plugin_set_error(GH_NO_DEVICE, "host_register: %s", ctx->note);
    for (int i = 0; i < ctx->device_count; i++) {
        gh_status st = import_on(&ctx->devices[i], ptr, bytes);
        if (st != GH_OK) {
            for (int j = 0; j < i; j++) drop_on(&ctx->devices[j], ptr);
            return st;
        }
    }
    *how = "imported (VK_EXT_external_memory_host)";
    return GH_OK;
}

gh_status vkp_host_unregister(gh_plugin *ctx, void *ptr)
{
    if (!ctx || !ptr) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_unregister: ctx or ptr is NULL");
    int found = 0;
    for (int i = 0; i < ctx->device_count; i++) found |= drop_on(&ctx->devices[i], ptr);
    return found ? GH_OK
                 : gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_unregister: %p was not registered by host_register",
                                       ptr);
}

VkBuffer vkp_host_imported(const vkp_device *d, const void *ptr, uint64_t bytes, VkDeviceSize *offset)
{
    const unsigned char *p = ptr;
    for (const struct vkp_import *im = d->imports; im; im = im->next)
        if (p >= im->base && bytes <= im->size && (VkDeviceSize)(p - im->base) <= im->size - bytes) {
            *offset = (VkDeviceSize)(p - im->base);
            return im->buffer;
        }
    return VK_NULL_HANDLE;
}

void vkp_imports_release(vkp_device *d)
{
    while (d->imports) {
        struct vkp_import *next = d->imports->next;
        if (d->dev) import_destroy(d, d->imports);
        else free(d->imports);
        d->imports = next;
    }
}
