/* Device buffers: allocation, blocking copies, and the context's list of
 * them; and page-locked host memory (ABI minor 1's host_alloc). */
#ifndef GH_CUDA_BUFFERS_H
#define GH_CUDA_BUFFERS_H

#include "gemmhost/plugin_helpers.h"
#include "state.h"

/* The buffer_alloc, buffer_free, upload and download members. */
gh_plugin_buffer_alloc_fn gh_cuda_buffer_alloc;
gh_plugin_buffer_free_fn gh_cuda_buffer_free;
gh_plugin_upload_fn gh_cuda_upload;
gh_plugin_download_fn gh_cuda_download;

/* A buffer's size and device, for the argument checks of plugin_helpers.h. */
gh_plugin_extent_of_fn gh_cuda_extent;

/* Frees every buffer the host left behind (at close). */
void gh_cuda_buffers_free_all(gh_plugin *ctx);

/* cuMemHostAlloc with CU_MEMHOSTALLOC_PORTABLE (usable from every device's
 * context), made with device 0's context current; host_free releases it
 * with that context current again. */
gh_plugin_host_alloc_fn gh_cuda_host_alloc;
/* ABI minor 3: a copy between two buffers, across devices through peer
 * access (cuCtxEnablePeerAccess + cuMemcpyPeerAsync); GH_UNSUPPORTED where
 * cuDeviceCanAccessPeer says the devices cannot. */
gh_status gh_cuda_copy_peer(gh_plugin *ctx, gh_buffer *src, uint64_t src_offset, gh_buffer *dst, uint64_t dst_offset,
                            uint64_t bytes);
gh_plugin_host_free_fn gh_cuda_host_free;

/* Frees every host block the host left behind (at close). */
void gh_cuda_host_free_all(gh_plugin *ctx);
/* ABI minor 4: pins the host's memory in place (cuMemHostRegister,
 * PORTABLE), read-only where the caller's mapping is; unregister before the
 * memory is unmapped. host_free_all unregisters what is left. */
gh_plugin_host_register_fn gh_cuda_host_register;
gh_plugin_host_unregister_fn gh_cuda_host_unregister;

#endif
