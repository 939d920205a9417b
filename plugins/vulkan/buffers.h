/* Device buffers, and upload/download through a host-visible staging buffer. */
#ifndef GH_VULKAN_BUFFERS_H
#define GH_VULKAN_BUFFERS_H

#include "gemmhost/plugin_helpers.h"
#include "state.h"

/* The buffer_alloc, buffer_free, upload and download members. */
gh_plugin_buffer_alloc_fn vkp_buffer_alloc;
gh_plugin_buffer_free_fn vkp_buffer_free;
gh_plugin_upload_fn vkp_upload;
gh_plugin_download_fn vkp_download;
/* A buffer's size and device, for plugin_helpers.h's checks. */
gh_plugin_extent_of_fn vkp_buffer_extent;
/* Frees the staging buffer and every buffer still alive on the device (at close). */
void vkp_buffers_release(vkp_device *d);

#endif
