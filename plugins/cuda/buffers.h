/* Device buffers: allocation, blocking copies, and the context's list of
 * them; and page-locked host memory (ABI minor 1's host_alloc). */
#ifndef GH_CUDA_BUFFERS_H
#define GH_CUDA_BUFFERS_H

#include "gemmhost/plugin_helpers.h"
#include "state.h"

gh_status gh_cuda_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out);
void gh_cuda_buffer_free(gh_plugin *ctx, gh_buffer *buf);
gh_status gh_cuda_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes);
gh_status gh_cuda_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes);

/* A buffer's size and device, for the argument checks of plugin_helpers.h. */
gh_plugin_extent gh_cuda_extent(const gh_buffer *buf);

/* Frees every buffer the host left behind (at close). */
void gh_cuda_buffers_free_all(gh_plugin *ctx);

/* cuMemHostAlloc with CU_MEMHOSTALLOC_PORTABLE (usable from every device's
 * context), made with device 0's context current; host_free releases it
 * with that context current again. */
gh_status gh_cuda_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out);
/* ABI minor 3: a copy between two buffers, across devices through peer
 * access (cuCtxEnablePeerAccess + cuMemcpyPeerAsync); GH_UNSUPPORTED where
 * cuDeviceCanAccessPeer says the devices cannot. */
gh_status gh_cuda_copy_peer(gh_plugin *ctx, gh_buffer *src, uint64_t src_offset, gh_buffer *dst, uint64_t dst_offset,
                            uint64_t bytes);
void gh_cuda_host_free(gh_plugin *ctx, void *ptr);

/* Frees every host block the host left behind (at close). */
void gh_cuda_host_free_all(gh_plugin *ctx);

#endif
