/* Device buffers, and upload/download through a host-visible staging buffer. */
#ifndef GH_VULKAN_BUFFERS_H
#define GH_VULKAN_BUFFERS_H

#include "gemmhost/plugin_helpers.h"
#include "state.h"

gh_status vkp_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
void vkp_buffer_free(gh_plugin *ctx, gh_buffer *buf);
gh_status vkp_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
gh_status vkp_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);
/* A buffer's size and device, for plugin_helpers.h's checks. */
gh_plugin_extent vkp_buffer_extent(const gh_buffer *buf);
/* Frees the staging buffer and every buffer still alive on the device (at close). */
void vkp_buffers_release(vkp_device *d);

#endif
