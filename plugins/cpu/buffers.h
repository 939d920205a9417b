/* The C plugin's buffers: host memory standing in for device memory, and
 * the host memory of ABI minor 1 (plain memory: the CPU copies from anything
 * equally fast). */
#ifndef GEMMHOST_CPU_BUFFERS_H
#define GEMMHOST_CPU_BUFFERS_H

#include "state.h"

gh_status cpu_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
void cpu_buffer_free(gh_plugin *ctx, gh_buffer *buf);
gh_status cpu_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
gh_status cpu_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);
gh_status cpu_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out);
void cpu_host_free(gh_plugin *ctx, void *ptr);
/* What the argument checks of plugin_helpers.h need to know of a buffer. */
gh_plugin_extent cpu_extent(const gh_buffer *buf);

#endif
