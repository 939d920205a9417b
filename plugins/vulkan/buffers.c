/* Device buffers, and upload/download through a host-visible staging buffer.
 *
 * Matrices live in device-local memory where the device has it; the host
 * reaches them only through the staging buffer, copied in chunks so a large
 * matrix does not need a staging buffer as large as itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"

#include "commands.h"
#include "devices.h"
#include "errors.h"
#include "host_import.h"

#define VKP_STAGING_MAX ((VkDeviceSize)64 << 20)

/* A buffer and its own memory, of the first type with `required` flags
 * (preferring `preferred`). */
static gh_status create_buffer(vkp_device *d, VkDeviceSize size, VkBufferUsageFlags usage,
                               VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred, VkBuffer *buffer,
                               VkDeviceMemory *memory, const char *what)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VKP_TRY(d->fn.vkCreateBuffer(d->dev, &info, NULL, buffer), what);
    VkMemoryRequirements req;
    d->fn.vkGetBufferMemoryRequirements(d->dev, *buffer, &req);
    int type = vkp_memory_type(d, req.memoryTypeBits, required, preferred);
    if (type < 0) {
        d->fn.vkDestroyBuffer(d->dev, *buffer, NULL);
        *buffer = VK_NULL_HANDLE;
        return gh_plugin_set_error(GH_ERROR, "%s: device %s offers no memory type with flags 0x%x for this buffer",
                                   what, d->name, (unsigned)required);
    }
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    VkResult r = d->fn.vkAllocateMemory(d->dev, &alloc, NULL, memory);
    if (r == VK_SUCCESS) r = d->fn.vkBindBufferMemory(d->dev, *buffer, *memory, 0);
    if (r != VK_SUCCESS) {
        gh_status st = vkp_vk_fail(r, "vkAllocateMemory/vkBindBufferMemory", what);
        if (*memory) d->fn.vkFreeMemory(d->dev, *memory, NULL);
        d->fn.vkDestroyBuffer(d->dev, *buffer, NULL);
        *buffer = VK_NULL_HANDLE;
        *memory = VK_NULL_HANDLE;
        return st;
    }
    return GH_OK;
}

static void staging_release(vkp_device *d)
{
    vkp_staging *s = &d->staging;
    if (s->map) d->fn.vkUnmapMemory(d->dev, s->memory);
    if (s->buffer) d->fn.vkDestroyBuffer(d->dev, s->buffer, NULL);
    if (s->memory) d->fn.vkFreeMemory(d->dev, s->memory, NULL);
    *s = (vkp_staging){0};
}

/* A mapped staging buffer of at least min(bytes, VKP_STAGING_MAX). */
static gh_status staging_ready(vkp_device *d, uint64_t bytes)
{
    VkDeviceSize want = bytes < VKP_STAGING_MAX ? bytes : VKP_STAGING_MAX;
    if (d->staging.buffer && d->staging.size >= want) return GH_OK;
    staging_release(d);
    vkp_staging *s = &d->staging;
    /* Coherent, so no flush or invalidate; cached makes downloads fast. */
    gh_status st = create_buffer(d, want, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                 VK_MEMORY_PROPERTY_HOST_CACHED_BIT, &s->buffer, &s->memory, "staging buffer");
    if (st != GH_OK) return st;
    VkResult r = d->fn.vkMapMemory(d->dev, s->memory, 0, VK_WHOLE_SIZE, 0, &s->map);
    if (r != VK_SUCCESS) {
        s->map = NULL;
        staging_release(d);
        return vkp_vk_fail(r, "vkMapMemory", "staging buffer");
    }
    s->size = want;
    return GH_OK;
}

gh_status vkp_buffer_alloc(struct gh_plugin *ctx, int device, uint64_t bytes, struct gh_buffer **out)
{
    gh_status st = vkp_check_device(ctx, "buffer_alloc", device);
    if (st != GH_OK) return st;
    if (!out) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: out is NULL");
    if (bytes == 0) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: 0 bytes");
    if (bytes > UINT64_MAX - 3)
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "buffer_alloc: %llu bytes is more than any device holds",
                                   (unsigned long long)bytes);
    vkp_device *d = &ctx->devices[device];
    if ((st = vkp_device_ready(d)) != GH_OK) return st;

    struct gh_buffer *buf = calloc(1, sizeof *buf);
    if (!buf) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "buffer_alloc: out of host memory");
    /* Whole 32-bit words, as the shaders read them. */
    VkDeviceSize size = (bytes + 3) & ~(VkDeviceSize)3;
    char what[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + 64];
    snprintf(what, sizeof what, "buffer_alloc: %llu bytes on %s", (unsigned long long)bytes, d->name);
    st = create_buffer(d, size,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                           VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                       0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &buf->buffer, &buf->memory, what);
    if (st != GH_OK) {
        free(buf);
        return st;
    }
    buf->device = d;
    buf->bytes = bytes;
    buf->next = d->buffers;
    if (d->buffers) d->buffers->prev = buf;
    d->buffers = buf;
    *out = buf;
    return GH_OK;
}

static void buffer_destroy(vkp_device *d, struct gh_buffer *buf)
{
    d->fn.vkDestroyBuffer(d->dev, buf->buffer, NULL);
    d->fn.vkFreeMemory(d->dev, buf->memory, NULL);
    free(buf);
}

void vkp_buffer_free(struct gh_plugin *ctx, struct gh_buffer *buf)
{
    (void)ctx;
    if (!buf) return;
    vkp_device *d = buf->device;
    /* The host may free a buffer right after a gemm that used it: every
     * call waits for its own work, so nothing is still running on it. */
    if (buf->prev) buf->prev->next = buf->next;
    else d->buffers = buf->next;
    if (buf->next) buf->next->prev = buf->prev;
    buffer_destroy(d, buf);
}

void vkp_buffers_release(vkp_device *d)
{
    while (d->buffers) {
        struct gh_buffer *next = d->buffers->next;
        buffer_destroy(d, d->buffers);
        d->buffers = next;
    }
    staging_release(d);
}

gh_plugin_extent vkp_buffer_extent(const struct gh_buffer *buf)
{
    return (gh_plugin_extent){buf->bytes, buf->device->index};
}

/* Records a copy between a host-visible buffer (host, at host_at) and the
 * device buffer (dev, at dev_at): up to the device, or down to the host. */
static void record_copy(vkp_device *d, int up, VkBuffer host, VkDeviceSize host_at, VkBuffer dev, VkDeviceSize dev_at,
                        VkDeviceSize size)
{
    /* Earlier kernels may still read or write the buffer. */
    vkp_barrier(d, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                up ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT);
    if (up) {
        VkBufferCopy copy = {.srcOffset = host_at, .dstOffset = dev_at, .size = size};
        d->fn.vkCmdCopyBuffer(d->cmd, host, dev, 1, &copy);
    } else {
        VkBufferCopy copy = {.srcOffset = dev_at, .dstOffset = host_at, .size = size};
        d->fn.vkCmdCopyBuffer(d->cmd, dev, host, 1, &copy);
        vkp_barrier(d, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                    VK_ACCESS_HOST_READ_BIT);
    }
}

/* A blocking copy between host memory and buf through the device's
 * staging buffer, a chunk at a time: up from `from` (to the device) when it
 * is not NULL, else down into `to`. */
static gh_status staged_copy(const char *call, struct gh_buffer *buf, uint64_t offset, const unsigned char *from,
                             unsigned char *to, uint64_t bytes)
{
    vkp_device *d = buf->device;
    const int up = from != NULL;
    gh_status st = staging_ready(d, bytes);
    for (uint64_t done = 0; st == GH_OK && done < bytes;) {
        VkDeviceSize chunk = bytes - done < d->staging.size ? bytes - done : d->staging.size;
        /* Host writes before vkQueueSubmit are visible to the device. */
        if (up) memcpy(d->staging.map, from + done, chunk);
        if ((st = vkp_commands_begin(d)) != GH_OK) return st;
        record_copy(d, up, d->staging.buffer, 0, buf->buffer, offset + done, chunk);
        if ((st = vkp_commands_submit(d, call)) != GH_OK) return st;
        if (!up) memcpy(to + done, d->staging.map, chunk);
        done += chunk;
    }
    return st;
}

/* An upload (from given) or a download (into to): in one copy where the host
 * memory is registered (the device reads or writes it in place), else
 * through the staging buffer. */
static gh_status host_copy(const char *call, struct gh_buffer *buf, uint64_t offset, const void *from, void *to,
                           uint64_t bytes)
{
    const int up = from != NULL;
    const void *host = up ? from : to;
    gh_status st = gh_plugin_check_copy(call, buf, vkp_buffer_extent, offset, host, bytes);
    if (st != GH_OK || bytes == 0) return st;
    vkp_device *d = buf->device;
    VkDeviceSize at = 0;
    VkBuffer imported = vkp_host_imported(d, host, bytes, &at);
    if (!imported) return staged_copy(call, buf, offset, from, to, bytes);
    if ((st = vkp_commands_begin(d)) != GH_OK) return st;
    record_copy(d, up, imported, at, buf->buffer, offset, bytes);
    return vkp_commands_submit(d, up ? "upload from imported host memory" : "download into imported host memory");
}

gh_status vkp_upload(struct gh_plugin *ctx, struct gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    (void)ctx;
    return host_copy("upload", dst, offset, src, NULL, bytes);
}

gh_status vkp_download(struct gh_plugin *ctx, struct gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    (void)ctx;
    return host_copy("download", src, offset, NULL, dst, bytes);
}
