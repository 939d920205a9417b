#include <stdlib.h>
#include "buffers.h"
#include "devices.h"
#include "errors.h"

gh_status ocl_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    gh_status status = gh_plugin_check_device("buffer_alloc", device, ctx->device_count, ctx->no_device_reason);
    if (status != GH_OK) return status;
    if (!out) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: out is NULL");
    if (bytes == 0) return gh_plugin_set_error(GH_INVALID_ARGUMENT, "buffer_alloc: 0 bytes");
    ocl_device *dev = &ctx->devices[device];
    /* Said here in words: the driver would only answer CL_INVALID_BUFFER_SIZE. */
    if (dev->max_alloc_bytes && bytes > dev->max_alloc_bytes)
        return gh_plugin_set_error(GH_OUT_OF_MEMORY,
                                   "buffer_alloc: %llu bytes is over CL_DEVICE_MAX_MEM_ALLOC_SIZE (%llu bytes) of '%s'",
                                   (unsigned long long)bytes, (unsigned long long)dev->max_alloc_bytes, dev->name);
    status = ocl_device_ready(dev);
    if (status != GH_OK) return status;

    gh_buffer *buf = calloc(1, sizeof *buf);
    if (!buf) return gh_plugin_set_error(GH_OUT_OF_MEMORY, "out of host memory for a buffer record");
    cl_int err;
    buf->mem = clCreateBuffer(dev->context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        free(buf);
        status =
            ocl_fail_cl(err, "clCreateBuffer", "buffer of %llu bytes on '%s'", (unsigned long long)bytes, dev->name);
        return err == CL_OUT_OF_RESOURCES || err == CL_INVALID_BUFFER_SIZE ? GH_OUT_OF_MEMORY : status;
    }
    buf->device = device;
    buf->bytes = bytes;
    buf->next = dev->buffers;
    if (dev->buffers) dev->buffers->prev = buf;
    dev->buffers = buf;
    *out = buf;
    return GH_OK;
}

void ocl_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    if (!ctx || !buf) return;
    ocl_device *dev = &ctx->devices[buf->device];
    if (buf->prev) buf->prev->next = buf->next;
    else dev->buffers = buf->next;
    if (buf->next) buf->next->prev = buf->prev;
    clReleaseMemObject(buf->mem);
    free(buf);
}

void ocl_buffers_release(ocl_device *dev)
{
    while (dev->buffers) {
        gh_buffer *buf = dev->buffers;
        dev->buffers = buf->next;
        clReleaseMemObject(buf->mem);
        free(buf);
    }
}

gh_plugin_extent ocl_buffer_extent(const gh_buffer *buf)
{
    return (gh_plugin_extent){buf->bytes, buf->device};
}

gh_status ocl_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    gh_status status = gh_plugin_check_copy("upload", dst, ocl_buffer_extent, offset, src, bytes);
    if (status != GH_OK || bytes == 0) return status;
    ocl_device *dev = &ctx->devices[dst->device];
    cl_int err = clEnqueueWriteBuffer(dev->queue, dst->mem, CL_TRUE, (size_t)offset, (size_t)bytes, src, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        /* CL_MEM_OBJECT_ALLOCATION_FAILURE becomes GH_OUT_OF_MEMORY: drivers
         * may allocate a buffer only when it is first written. */
        return ocl_fail_cl(err, "clEnqueueWriteBuffer", "upload of %llu bytes to '%s'", (unsigned long long)bytes,
                           dev->name);
    return GH_OK;
}

gh_status ocl_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    gh_status status = gh_plugin_check_copy("download", src, ocl_buffer_extent, offset, dst, bytes);
    if (status != GH_OK || bytes == 0) return status;
    ocl_device *dev = &ctx->devices[src->device];
    cl_int err = clEnqueueReadBuffer(dev->queue, src->mem, CL_TRUE, (size_t)offset, (size_t)bytes, dst, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail_cl(err, "clEnqueueReadBuffer", "download of %llu bytes from '%s'", (unsigned long long)bytes,
                           dev->name);
    return GH_OK;
}
