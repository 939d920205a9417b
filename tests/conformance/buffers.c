/* Buffers (alloc, free, blocking copies at offsets, their refusals), and the
 * calls that name a device in a context that has none. */
#include <stdio.h>
#include <string.h>

#include "conformance.h"

#define BUFFER_BYTES 256

void conf_check_no_device(const conformance *c)
{
    const gh_plugin_api *api = c->api;
    gh_buffer *buf = NULL;
    gh_status s = api->buffer_alloc(c->ctx, 0, 64, &buf);
    conf_expect(c, "nodevice.buffer_alloc", s, GH_NO_DEVICE, "buffer_alloc on device 0 of a context without devices");
    if (s == GH_OK) api->buffer_free(c->ctx, buf);
    conf_expect(c, "nodevice.synchronize", api->synchronize(c->ctx, 0), GH_NO_DEVICE,
                "synchronize device 0 of a context without devices");
    if (c->has_streams) {
        gh_stream *stream = NULL;
        s = api->stream_create(c->ctx, 0, &stream);
        conf_expect(c, "nodevice.stream_create", s, GH_NO_DEVICE,
                    "stream_create on device 0 of a context without devices");
        if (s == GH_OK) api->stream_destroy(c->ctx, stream);
    }
}

static void check_alloc(const conformance *c, int device)
{
    const gh_plugin_api *api = c->api;
    char what[160];
    gh_buffer *buf = NULL;
    gh_status s = api->buffer_alloc(c->ctx, device, 0, &buf);
    snprintf(what, sizeof what, "buffer_alloc of 0 bytes on device %d", device);
    conf_expect(c, "buffers.alloc_zero", s, GH_INVALID_ARGUMENT, what);
    if (s == GH_OK) api->buffer_free(c->ctx, buf);

    const uint64_t huge = (uint64_t)1 << 62;
    s = api->buffer_alloc(c->ctx, device, huge, &buf);
    snprintf(what, sizeof what, "buffer_alloc of 2^62 bytes on device %d", device);
    conf_expect(c, "buffers.alloc_huge", s, GH_OUT_OF_MEMORY, what);
    if (s == GH_OK) api->buffer_free(c->ctx, buf);

    conf_expect(c, "buffers.alloc_null_out", api->buffer_alloc(c->ctx, device, 64, NULL), GH_INVALID_ARGUMENT,
                "buffer_alloc with out NULL");
    s = api->buffer_alloc(c->ctx, -1, 64, &buf);
    conf_expect(c, "buffers.alloc_bad_device", s, GH_INVALID_ARGUMENT, "buffer_alloc on device -1");
    if (s == GH_OK) api->buffer_free(c->ctx, buf);
    s = api->buffer_alloc(c->ctx, c->n_devices, 64, &buf);
    snprintf(what, sizeof what, "buffer_alloc on device %d (past the last)", c->n_devices);
    conf_expect(c, "buffers.alloc_bad_device", s, GH_INVALID_ARGUMENT, what);
    if (s == GH_OK) api->buffer_free(c->ctx, buf);
    api->buffer_free(c->ctx, NULL);
    CHECK(1, "buffers.free_null: buffer_free(NULL) does nothing");
}

/* Whole-buffer contents, for "nothing else changed". */
static int read_all(const conformance *c, gh_buffer *buf, unsigned char *out)
{
    return c->api->download(c->ctx, buf, 0, out, BUFFER_BYTES) == GH_OK;
}

static void check_copies(const conformance *c, gh_buffer *buf)
{
    const gh_plugin_api *api = c->api;
    unsigned char fill[BUFFER_BYTES], expect[BUFFER_BYTES], got[BUFFER_BYTES], piece[13];
    memset(fill, 0xa5, sizeof fill);
    for (size_t i = 0; i < sizeof piece; i++) piece[i] = (unsigned char)(i * 7 + 1);
    gh_status s1 = api->upload(c->ctx, buf, 0, fill, BUFFER_BYTES);
    gh_status s2 = api->upload(c->ctx, buf, 7, piece, sizeof piece);
    memcpy(expect, fill, sizeof expect);
    memcpy(expect + 7, piece, sizeof piece);
    int whole = read_all(c, buf, got);
    if (!CHECK(s1 == GH_OK && s2 == GH_OK && whole && memcmp(got, expect, sizeof got) == 0,
               "buffers.round_trip: upload 13 bytes at offset 7 changes those bytes and no other (%s, %s, %s)",
               conf_status_name(s1), conf_status_name(s2), whole ? "downloaded" : "download failed"))
        return;
    memset(got, 0, sizeof got);
    gh_status s = api->download(c->ctx, buf, 7, got + 1, sizeof piece);
    CHECK(s == GH_OK && memcmp(got + 1, piece, sizeof piece) == 0 && got[0] == 0 && got[1 + sizeof piece] == 0,
          "buffers.download_offset: download 13 bytes from offset 7 writes exactly those 13 bytes (%s)",
          conf_status_name(s));

    conf_expect(c, "buffers.zero_bytes", api->upload(c->ctx, buf, BUFFER_BYTES, piece, 0), GH_OK,
                "upload of 0 bytes at the buffer's end");
    conf_expect(c, "buffers.zero_bytes", api->download(c->ctx, buf, 0, NULL, 0), GH_OK,
                "download of 0 bytes into NULL");

    char what[160];
    snprintf(what, sizeof what, "upload of 13 bytes at offset %d of a %d-byte buffer", BUFFER_BYTES - 6, BUFFER_BYTES);
    conf_expect(c, "buffers.past_end", api->upload(c->ctx, buf, BUFFER_BYTES - 6, piece, sizeof piece),
                GH_INVALID_ARGUMENT, what);
    conf_expect(c, "buffers.past_end", api->download(c->ctx, buf, BUFFER_BYTES - 6, got, sizeof piece),
                GH_INVALID_ARGUMENT, "download running past the end");
    conf_expect(c, "buffers.past_end", api->upload(c->ctx, buf, BUFFER_BYTES + 1, piece, 0), GH_INVALID_ARGUMENT,
                "upload of 0 bytes at an offset past the end");
    conf_expect(c, "buffers.offset_wraps", api->upload(c->ctx, buf, UINT64_MAX - 1, piece, 4), GH_INVALID_ARGUMENT,
                "upload at offset 2^64 - 2 (offset + bytes wraps around)");
    conf_expect(c, "buffers.null_buffer", api->upload(c->ctx, NULL, 0, piece, 4), GH_INVALID_ARGUMENT,
                "upload into a NULL buffer");
    conf_expect(c, "buffers.null_buffer", api->download(c->ctx, NULL, 0, got, 4), GH_INVALID_ARGUMENT,
                "download from a NULL buffer");
    conf_expect(c, "buffers.null_host", api->upload(c->ctx, buf, 0, NULL, 4), GH_INVALID_ARGUMENT,
                "upload of 4 bytes from NULL");
    conf_expect(c, "buffers.null_host", api->download(c->ctx, buf, 0, NULL, 4), GH_INVALID_ARGUMENT,
                "download of 4 bytes into NULL");
    whole = read_all(c, buf, got);
    CHECK(whole && memcmp(got, expect, sizeof got) == 0,
          "buffers.refusals_write_nothing: the refused copies left "
          "the buffer as it was");
}

void conf_check_buffers(const conformance *c, int device)
{
    check_alloc(c, device);
    gh_buffer *buf = NULL;
    gh_status s = c->api->buffer_alloc(c->ctx, device, BUFFER_BYTES, &buf);
    if (!CHECK(s == GH_OK && buf, "buffers.alloc: %d bytes on device %d (%s)", BUFFER_BYTES, device,
               conf_outcome(c, s)))
        return;
    check_copies(c, buf);
    c->api->buffer_free(c->ctx, buf);
    conf_expect(c, "synchronize.ok", c->api->synchronize(c->ctx, device), GH_OK, "synchronize an idle device");
    conf_expect(c, "synchronize.bad_device", c->api->synchronize(c->ctx, -1), GH_INVALID_ARGUMENT,
                "synchronize device -1");
}
