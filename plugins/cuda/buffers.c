/* Device buffers, blocking copies and page-locked host memory; see buffers.h. */
#include "buffers.h"

#include <stdlib.h>

#include "devices.h"
#include "errors.h"

gh_status gh_cuda_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    /* Malformed before beyond the device (plugin.h). */
    if (!out) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: out is NULL");
    *out = NULL;
    if (bytes == 0) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: 0 bytes");
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "buffer_alloc", device, &dev);
    if (st) return st;
    gh_buffer *b = calloc(1, sizeof *b);
    if (!b) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "buffer_alloc: out of host memory for a buffer record");
    st = gh_cu_check(ctx->cu->cuMemAlloc(&b->ptr, (size_t)bytes), "buffer_alloc: cuMemAlloc(%llu bytes) on device %d",
                     (unsigned long long)bytes, dev->index);
    if (st) {
        free(b);
        return st;
    }
    b->device = device;
    b->bytes = bytes;
    GH_CUDA_LIST_ADD(&ctx->buffers_lock, ctx->buffers, b);
    *out = b;
    return GH_OK;
}

gh_plugin_extent gh_cuda_extent(const gh_buffer *buf)
{
    return (gh_plugin_extent){buf->bytes, buf->device};
}

/* Frees the device memory; b must already be off the list. */
static void release(gh_plugin *ctx, gh_buffer *b)
{
    gh_cuda_device *dev = NULL;
    if (gh_cuda_device_enter(ctx, "buffer_free", b->device, &dev) == GH_OK)
        gh_cu_check(ctx->cu->cuMemFree(b->ptr), "cuMemFree on device %d", dev->index);
    free(b);
}

void gh_cuda_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    if (!ctx || !buf) return;
    GH_CUDA_LIST_REMOVE(&ctx->buffers_lock, ctx->buffers, buf);
    release(ctx, buf);
}

void gh_cuda_buffers_free_all(gh_plugin *ctx)
{
    while (ctx->buffers) {
        gh_buffer *b = ctx->buffers;
        GH_CUDA_LIST_REMOVE(&ctx->buffers_lock, ctx->buffers, b);
        release(ctx, b);
    }
}

/* Copies go through the device's stream, then wait for it: blocking for the
 * host, and ordered with the kernels queued on that stream. */
gh_status gh_cuda_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    gh_status st = gh_plugin_check_copy("upload", dst, gh_cuda_extent, offset, src, bytes);
    gh_cuda_device *dev = NULL;
    if (st || (st = gh_cuda_device_enter(ctx, "upload", dst->device, &dev)) || bytes == 0) return st;
    if ((st = gh_cu_check(ctx->cu->cuMemcpyHtoDAsync(dst->ptr + offset, src, (size_t)bytes, dev->stream),
                          "cuMemcpyHtoDAsync(%llu bytes) to device %d", (unsigned long long)bytes, dev->index)))
        return st;
    return gh_cu_check(ctx->cu->cuStreamSynchronize(dev->stream), "cuStreamSynchronize after upload to device %d",
                       dev->index);
}

gh_status gh_cuda_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    gh_status st = gh_plugin_check_copy("download", src, gh_cuda_extent, offset, dst, bytes);
    gh_cuda_device *dev = NULL;
    if (st || (st = gh_cuda_device_enter(ctx, "download", src->device, &dev)) || bytes == 0) return st;
    if ((st = gh_cu_check(ctx->cu->cuMemcpyDtoHAsync(dst, src->ptr + offset, (size_t)bytes, dev->stream),
                          "cuMemcpyDtoHAsync(%llu bytes) from device %d", (unsigned long long)bytes, dev->index)))
        return st;
    return gh_cu_check(ctx->cu->cuStreamSynchronize(dev->stream), "cuStreamSynchronize after download from device %d",
                       dev->index);
}

/* ---- copies between buffers of two devices (ABI minor 3) ---- */

static int range_fits(const gh_buffer *b, uint64_t offset, uint64_t bytes)
{
    return offset <= b->bytes && bytes <= b->bytes - offset;
}

/* Peer access from dst's context to src's, once: enabling it twice is the
 * driver's CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, which is fine here. */
static gh_status enable_peer(gh_plugin *ctx, gh_cuda_device *dst, gh_cuda_device *src)
{
    int can = 0;
    gh_status st = gh_cu_check(ctx->cu->cuDeviceCanAccessPeer(&can, dst->handle, src->handle),
                               "copy_peer: cuDeviceCanAccessPeer(device %d, device %d)", dst->index, src->index);
    if (st) return st;
    if (!can)
        return gh_plugin_set_error(GH_UNSUPPORTED,
                                   "copy_peer: device %d cannot access device %d: cuDeviceCanAccessPeer = 0 (no "
                                   "NVLink or PCIe peer path between them)",
                                   dst->index, src->index);
    CUresult r = ctx->cu->cuCtxEnablePeerAccess(src->context, 0);
    if (r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return GH_OK;
    return gh_cu_check(r, "copy_peer: cuCtxEnablePeerAccess from device %d to device %d", dst->index, src->index);
}

/* On dst's stream, then a wait: ordered after dst's queued work; src's range
 * is complete before the call (plugin.h). */
gh_status gh_cuda_copy_peer(gh_plugin *ctx, gh_buffer *src, uint64_t src_offset, gh_buffer *dst, uint64_t dst_offset,
                            uint64_t bytes)
{
    if (!src || !dst)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "copy_peer: the %s buffer is NULL",
                                   src ? "destination" : "source");
    if (!range_fits(src, src_offset, bytes) || !range_fits(dst, dst_offset, bytes))
        return gh_plugin_set_error(GH_INVALID_ARGUMENT,
                                   "copy_peer: %llu bytes at offset %llu pass the end of the %s buffer (%llu bytes)",
                                   (unsigned long long)bytes,
                                   (unsigned long long)(range_fits(src, src_offset, bytes) ? dst_offset : src_offset),
                                   range_fits(src, src_offset, bytes) ? "destination" : "source",
                                   (unsigned long long)(range_fits(src, src_offset, bytes) ? dst->bytes : src->bytes));
    if (src == dst && bytes > 0 && src_offset < dst_offset + bytes && dst_offset < src_offset + bytes)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "copy_peer: the two ranges overlap in one buffer");
    gh_cuda_device *from = NULL, *to = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "copy_peer", src->device, &from);
    if (st || (st = gh_cuda_device_enter(ctx, "copy_peer", dst->device, &to))) return st;
    if (from != to && (st = enable_peer(ctx, to, from))) return st;
    if (bytes == 0) return GH_OK;
    if ((st = gh_cu_check(ctx->cu->cuMemcpyPeerAsync(dst->ptr + dst_offset, to->context, src->ptr + src_offset,
                                                     from->context, (size_t)bytes, to->stream),
                          "copy_peer: cuMemcpyPeerAsync(%llu bytes) from device %d to device %d",
                          (unsigned long long)bytes, from->index, to->index)))
        return st;
    return gh_cu_check(ctx->cu->cuStreamSynchronize(to->stream), "cuStreamSynchronize after copy_peer to device %d",
                       to->index);
}

/* ---- page-locked host memory (ABI minor 1) ---- */

gh_status gh_cuda_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out)
{
    if (!out) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_alloc: out is NULL");
    *out = NULL;
    if (bytes == 0) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_alloc: 0 bytes");
    /* Any context will do: the memory is portable. Device 0's is the one
     * every context with a device has. */
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "host_alloc", 0, &dev);
    if (st) return st;
    if (bytes > SIZE_MAX)
        return gh_plugin_set_error(GH_OUT_OF_MEMORY, "host_alloc: %llu bytes do not fit in size_t",
                                   (unsigned long long)bytes);
    gh_cuda_host_block *b = calloc(1, sizeof *b);
    if (!b) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "host_alloc: out of host memory for a host block record");
    void *p = NULL;
    if ((st = gh_cu_check(ctx->cu->cuMemHostAlloc(&p, (size_t)bytes, CU_MEMHOSTALLOC_PORTABLE),
                          "host_alloc: cuMemHostAlloc(%llu bytes, CU_MEMHOSTALLOC_PORTABLE) with device %d's context",
                          (unsigned long long)bytes, dev->index))) {
        free(b);
        return st;
    }
    b->ptr = p;
    b->bytes = bytes;
    b->device = 0;
    pthread_mutex_lock(&ctx->buffers_lock);
    b->next = ctx->host_blocks;
    ctx->host_blocks = b;
    pthread_mutex_unlock(&ctx->buffers_lock);
    *out = p;
    return GH_OK;
}

static gh_status release_host_block(gh_plugin *ctx, gh_cuda_host_block *b)
{
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, b->registered ? "host_unregister" : "host_free", b->device, &dev);
    if (st == GH_OK && b->registered)
        st = gh_cu_check(ctx->cu->cuMemHostUnregister(b->ptr), "host_unregister: cuMemHostUnregister(%p)", b->ptr);
    else if (st == GH_OK)
        st = gh_cu_check(ctx->cu->cuMemFreeHost(b->ptr), "cuMemFreeHost with device %d's context", dev->index);
    free(b);
    return st;
}

/* The block of ptr, taken off the list; NULL when there is none of that kind. */
static gh_cuda_host_block *take_host_block(gh_plugin *ctx, void *ptr, int registered)
{
    gh_cuda_host_block *found = NULL;
    pthread_mutex_lock(&ctx->buffers_lock);
    for (gh_cuda_host_block **link = &ctx->host_blocks; *link; link = &(*link)->next)
        if ((*link)->ptr == ptr && (*link)->registered == registered) {
            found = *link;
            *link = found->next;
            break;
        }
    pthread_mutex_unlock(&ctx->buffers_lock);
    return found;
}

void gh_cuda_host_free(gh_plugin *ctx, void *ptr)
{
    if (!ctx || !ptr) return;
    gh_cuda_host_block *found = take_host_block(ctx, ptr, 0);
    if (!found) {
        gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_free: %p did not come from this context's host_alloc", ptr);
        return;
    }
    release_host_block(ctx, found);
}

void gh_cuda_host_free_all(gh_plugin *ctx)
{
    while (ctx->host_blocks) {
        gh_cuda_host_block *b = ctx->host_blocks;
        ctx->host_blocks = b->next;
        release_host_block(ctx, b);
    }
}

/* ---- host memory pinned in place (ABI minor 4) ---- */

gh_status gh_cuda_host_register(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags, const char **how)
{
    if (!ptr || bytes == 0 || !how)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_register: ptr or how is NULL, or bytes is 0");
    if (flags & ~GH_HOST_REGISTER_READ_ONLY)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_register: unknown flags 0x%x", (unsigned)flags);
    if (bytes > SIZE_MAX)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_register: %llu bytes do not fit in size_t",
                                   (unsigned long long)bytes);
    gh_cuda_device *dev = NULL;
    gh_status st = gh_cuda_device_enter(ctx, "host_register", 0, &dev);
    if (st) return st;
    gh_cuda_host_block *b = calloc(1, sizeof *b);
    if (!b) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "host_register: out of host memory for a block record");
    /* PORTABLE: pinned for every device's context, as host_alloc's blocks.
     * READ_ONLY: the worker's view of the inputs is mapped read-only, which
     * the driver can pin only when told it will not be written. */
    unsigned int cu_flags = CU_MEMHOSTREGISTER_PORTABLE;
    if (flags & GH_HOST_REGISTER_READ_ONLY) cu_flags |= CU_MEMHOSTREGISTER_READ_ONLY;
    CUresult r = ctx->cu->cuMemHostRegister(ptr, (size_t)bytes, cu_flags);
    if (r != CUDA_SUCCESS) {
        free(b);
        st = gh_cu_check(r, "host_register: cuMemHostRegister(%llu bytes, PORTABLE%s) with device %d's context",
                         (unsigned long long)bytes, (flags & GH_HOST_REGISTER_READ_ONLY) ? " | READ_ONLY" : "",
                         dev->index);
        /* The memory still works, as pageable memory: say so with the status the ABI gives. */
        if (st == GH_OUT_OF_MEMORY) return st;
        char why[512];
        snprintf(why, sizeof why, "%.500s", gh_plugin_last_error(ctx));
        return gh_plugin_set_error(GH_UNSUPPORTED, "%s", why);
    }
    b->ptr = ptr;
    b->bytes = bytes;
    b->device = 0;
    b->registered = 1;
    pthread_mutex_lock(&ctx->buffers_lock);
    b->next = ctx->host_blocks;
    ctx->host_blocks = b;
    pthread_mutex_unlock(&ctx->buffers_lock);
    *how =
        (flags & GH_HOST_REGISTER_READ_ONLY) ? "pinned (cuMemHostRegister, read-only)" : "pinned (cuMemHostRegister)";
    return GH_OK;
}

gh_status gh_cuda_host_unregister(gh_plugin *ctx, void *ptr)
{
    if (!ctx || !ptr) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_unregister: ctx or ptr is NULL");
    gh_cuda_host_block *found = take_host_block(ctx, ptr, 1);
    if (!found)
        return gh_plugin_set_error(GH_INVALID_ARGUMENT, "host_unregister: %p was not registered by host_register", ptr);
    return release_host_block(ctx, found);
}
