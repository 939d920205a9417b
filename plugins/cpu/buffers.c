/* The C plugin's buffers; see buffers.h. */
#include "buffers.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

gh_status cpu_buffer_alloc(gh_plugin *ctx, int device, uint64_t bytes, gh_buffer **out)
{
    (void)ctx;
    gh_status s = gh_plugin_check_device("buffer_alloc", device, DEVICE_COUNT, NULL);
    if (s != GH_OK) return s;
    if (!out) return fail(GH_INVALID_ARGUMENT, "buffer_alloc: out is NULL");
    if (bytes == 0) return fail(GH_INVALID_ARGUMENT, "buffer_alloc: 0 bytes");
    gh_buffer *buf = calloc(1, sizeof *buf);
    if (buf && bytes <= SIZE_MAX) buf->data = malloc((size_t)bytes);
    if (!buf || !buf->data) {
        free(buf);
        return fail(GH_OUT_OF_MEMORY, "cannot allocate %llu bytes of host memory", (unsigned long long)bytes);
    }
    buf->bytes = bytes;
    *out = buf;
    return GH_OK;
}

void cpu_buffer_free(gh_plugin *ctx, gh_buffer *buf)
{
    (void)ctx;
    if (buf) free(buf->data);
    free(buf);
}

gh_plugin_extent cpu_extent(const gh_buffer *buf)
{
    return (gh_plugin_extent){buf->bytes, 0};
}

gh_status cpu_upload(gh_plugin *ctx, gh_buffer *dst, uint64_t offset, const void *src, uint64_t bytes)
{
    (void)ctx;
    gh_status s = gh_plugin_check_copy("upload", dst, cpu_extent, offset, src, bytes);
    if (s == GH_OK && bytes) memcpy(dst->data + offset, src, bytes);
    return s;
}

gh_status cpu_download(gh_plugin *ctx, gh_buffer *src, uint64_t offset, void *dst, uint64_t bytes)
{
    (void)ctx;
    gh_status s = gh_plugin_check_copy("download", src, cpu_extent, offset, dst, bytes);
    if (s == GH_OK && bytes) memcpy(dst, src->data + offset, bytes);
    return s;
}

gh_status cpu_host_alloc(gh_plugin *ctx, uint64_t bytes, void **out)
{
    (void)ctx;
    if (!out) return fail(GH_INVALID_ARGUMENT, "host_alloc: out is NULL");
    if (bytes == 0) return fail(GH_INVALID_ARGUMENT, "host_alloc: 0 bytes");
    void *p = bytes <= SIZE_MAX ? malloc((size_t)bytes) : NULL;
    if (!p)
        return fail(GH_OUT_OF_MEMORY, "host_alloc: cannot allocate %llu bytes of host memory",
                    (unsigned long long)bytes);
    *out = p;
    return GH_OK;
}

void cpu_host_free(gh_plugin *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

/* ABI minor 4: the "device" computes in host memory, so any host memory is
 * as near as it gets; nothing is pinned or kept. */
gh_status cpu_host_register(gh_plugin *ctx, void *ptr, uint64_t bytes, uint32_t flags, const char **how)
{
    (void)ctx;
    if (!ptr || bytes == 0 || !how)
        return fail(GH_INVALID_ARGUMENT, "host_register: ptr or how is NULL, or bytes is 0");
    if (flags & ~GH_HOST_REGISTER_READ_ONLY)
        return fail(GH_INVALID_ARGUMENT, "host_register: unknown flags 0x%x", (unsigned)flags);
    *how = "nothing to register: the C device computes in host memory";
    return GH_OK;
}

gh_status cpu_host_unregister(gh_plugin *ctx, void *ptr)
{
    (void)ctx;
    if (!ptr) return fail(GH_INVALID_ARGUMENT, "host_unregister: ptr is NULL");
    return GH_OK;
}
