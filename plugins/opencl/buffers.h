/* Device memory (cl_mem) and blocking copies to and from it. */
#ifndef GH_OPENCL_BUFFERS_H
#define GH_OPENCL_BUFFERS_H

#include <gemmhost/plugin_helpers.h>
#include "state.h"

gh_status ocl_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
void ocl_buffer_free(gh_plugin *ctx, gh_buffer *buf);
gh_status ocl_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
gh_status ocl_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);

/* A buffer's size and device, for the argument checks of plugin_helpers.h. */
gh_plugin_extent ocl_buffer_extent(const gh_buffer *buf);

/* Frees every buffer still alive on the device (at close). */
void ocl_buffers_release(ocl_device *dev);

#endif
